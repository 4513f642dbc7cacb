"""One state schema (``unoformal.rules.state``): the engine, the text, the explorer's key,
the Z3 state and validate's projection all hold the fields it declares, by its names, and
each reader keeps a field exactly where the schema says a rule reads it."""

from __future__ import annotations

import dataclasses
import random
from typing import Any

import pytest

from unoformal.compare.relation.model import Model, post_terms, projection_of
from unoformal.compare.successors import project, to_sym
from unoformal.engine.game import Game
from unoformal.engine.text import KEYS
from unoformal.rulebook.cards import Kind
from unoformal.rules import state as schema
from unoformal.rules.state import FIELDS, PHASED, PHASES, ROUND, SYMBOLIC, Domain
from unoformal.verification.explore.keys import Keyer
from unoformal.verification.z3.state import STATE_FIELDS

# What the engine holds besides the state: the game's set-up and lookups, its chance
# player, and what it remembers of how the state came about (records, refusals' causes).
BOOKKEEPING = {"deck", "n", "t", "f_kind", "f_color", "f_rank", "f_effect", "chance",
               "history", "dealer_draws", "origin", "cause", "_legal",
               "ran", "started",  # coverage counted as a move, or the deal, runs
               # what a listing found, or rows looked up, kept for the (color, top) or
               # the moment they were found for
               "_plays_listed", "_drawn_listed", "_match_key", "_match", "_block_key",
               "_block",
               # RESHUFFLE-1 read split: stated chance's split pile, no field of a state
               "pile_lower",
               # MERCY's limit, looked up once per table (0 when off)
               "_mercy_at"}


def _played(seed: int = 11, steps: int = 60) -> Game:
    game = Game(["ann", "bob", "cy"], seed=seed)
    rng = random.Random(seed)
    for _ in range(steps):
        if game.round_over:
            break
        game.apply(rng.choice(game.legal_actions()))
    return game


def test_the_engine_holds_every_field_of_the_schema_and_nothing_else() -> None:
    from tests.engine.test_copy import _fields_and_copied

    fields, copied = _fields_and_copied()
    names = {f.name for f in FIELDS}
    assert names - fields == set(), "schema fields the engine does not hold"
    assert fields - names - BOOKKEEPING == set(), "engine fields the schema does not declare"
    assert names <= copied, "schema fields Game.copy_into leaves out"


def test_the_text_is_the_schema_s_fields_in_its_order() -> None:
    game = _played()
    text = game.to_text()
    # a house rule's key (END-2's ``out``) only under a table that has the rule
    book = tuple(f.text for f in FIELDS if f.text is not None and f.only is None)
    assert tuple(w.split("=")[0] for w in text.split(" ")) == book
    assert tuple(f.text for f in FIELDS if f.text is not None) == KEYS
    again = Game.from_text(text)
    for f in FIELDS:
        if f.domain is Domain.HANDS:  # a hand is a set of cards: the text sorts it
            assert [sorted(h) for h in again.hands] == [sorted(h) for h in game.hands]
        elif f.domain is not Domain.TABLE:
            assert getattr(again, f.name) == getattr(game, f.name), f.name


def test_the_z3_state_holds_the_symbolic_fields_by_their_names() -> None:
    expected = [f.name for f in SYMBOLIC if f.domain is not Domain.DISCARD]
    assert set(STATE_FIELDS) == set(expected) | {"top", "disc"}
    unsymbolic = {f.name for f in FIELDS if not f.symbolic}
    # out: MERCY's flags (Sym.out), empty under a table that knocks nobody out
    assert unsymbolic == {"rules", "names", "round", "reveal", "seed", "shuffles"}
    sym = to_sym(_played())
    assert {f.name for f in dataclasses.fields(sym)} >= set(STATE_FIELDS)


def _other(f: schema.Field, value: Any, game: Game) -> Any:
    """A different value of the field's domain."""
    if f.domain in (Domain.SEAT, Domain.SEAT_OR_NONE):
        return (value or 0) + 1 if value != game.n - 1 else 0
    if f.domain in (Domain.COLOR_OR_NONE, Domain.FACE_OR_NONE):
        return 1 if value != 1 else 2
    if f.domain is Domain.KIND_OR_NONE:
        return Kind.DRAW_TWO if value is not Kind.DRAW_TWO else Kind.WILD_DRAW_FOUR
    if f.domain is Domain.DIRECTION:
        return -value
    if f.domain is Domain.COUNT:
        return value + 3
    if f.domain is Domain.FLAG:
        return not value
    if f.domain is Domain.SEATS:
        return () if value else (game.n - 1,)
    raise AssertionError(f.domain)


SCALARS = [f for f in ROUND if f.domain not in (Domain.HANDS, Domain.PILE, Domain.DISCARD,
                                                 Domain.PHASE)]


@pytest.mark.parametrize("phase", PHASES)
def test_the_explorer_s_key_holds_a_field_exactly_in_the_phases_that_read_it(
        phase: str) -> None:
    keyer = Keyer(_played().deck, symmetry=True)
    for f in SCALARS + [f for f in FIELDS if f.phases == ()]:
        if f.domain in (Domain.TABLE, Domain.NAMES, Domain.SCORES, Domain.REVEAL):
            continue
        game = _played()
        game.phase = phase
        changed = game.copy()
        setattr(changed, f.name, _other(f, getattr(game, f.name), game))
        same = keyer.key(changed) == keyer.key(game)
        assert same != f.read_in(phase), (f.name, phase)


@pytest.mark.parametrize("phase", PHASES)
def test_crosscheck_and_validate_project_the_phase_s_own_fields_there(phase: str) -> None:
    game = _played()
    game.phase = phase
    model = Model(game.rules, game.n)
    baseline = project(game)
    for f in PHASED:
        changed = game.copy()
        setattr(changed, f.name, _other(f, getattr(game, f.name), game))
        assert (project(changed) == baseline) != f.read_in(phase), (f.name, phase)
        values = [_as_int(t) for t in post_terms(to_sym(changed))]
        before = [_as_int(t) for t in post_terms(to_sym(game))]
        same = (projection_of(values, game.n, len(game.deck.faces))
                == projection_of(before, game.n, len(game.deck.faces)))
        assert same != f.read_in(phase), (f.name, phase)
    assert model.env([_as_int(t) for t in post_terms(to_sym(game))])  # the tail binds


def _as_int(term: Any) -> int:
    import z3

    value = z3.simplify(term)
    return int(z3.is_true(value)) if z3.is_bool(value) else int(value.as_long())
