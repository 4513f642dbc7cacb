"""The rule language's first statement, WD4-1 (``unoformal.rules.challenge``), read by the
engine, the Z3 relation and the refusal words, agrees with the two hand-written readings
it replaced, kept frozen here as the reference: as a Z3 identity over every symbolic
state for every shipped variant, and on the engine over the states of seeded games. A
statement planted wrong (the other reading of WD4-1) breaks the identity, so the check
can fail."""

from __future__ import annotations

import random
from collections.abc import Sequence

import pytest
import z3

from unoformal.engine.game import Game
from unoformal.language.cards import All, Not, OfCurrentColor, OfKind, Playable, Said
from unoformal.rulebook.cards import Kind
from unoformal.rulebook.table import Holding, RuleTable
from unoformal.rulebook.variants import VARIANTS, load_rules
from unoformal.rules import challenge
from unoformal.rules.challenge import wd4_blocks
from unoformal.verification.z3 import actions
from unoformal.verification.z3.actions import Spec
from unoformal.verification.z3.state import NONE, Expr, Sym, fand, feq, fimplies, fresh, ival

SHIPPED = sorted(VARIANTS)


def _frozen_z3(spec: Spec, s: Sym, hand: Sequence[Expr]) -> Expr:
    """The relation's WD4-1 as it was written by hand before the rule language."""
    if spec.rules.wd4_legality.illegal_when_holding is Holding.CARD_OF_CURRENT_COLOR:
        return fand([fimplies(feq(s.color, spec.fcolor[g]), feq(hand[g], 0))
                     for g in range(spec.nfaces) if spec.fcolor[g] != NONE])
    return fand([z3.Implies(spec.matches(s, ival(g), spec.deck.faces[g].kind, [g]),
                            hand[g] == 0) for g in range(spec.nfaces)
                 if spec.deck.faces[g].kind is not Kind.WILD_DRAW_FOUR])


def _frozen_engine(game: Game, face: int) -> bool:
    """The engine's WD4-1 as it was written by hand before the rule language."""
    if game.rules.wd4_legality.illegal_when_holding is Holding.CARD_OF_CURRENT_COLOR:
        return game.f_color[face] == game.color
    return game.f_kind[face] is not Kind.WILD_DRAW_FOUR and game._matches(face)


def _same_verdict(rules: RuleTable, n: int) -> bool:
    spec = Spec(rules, n)
    s = fresh(n, spec.deck, "p")
    hand = s.hands[0]
    solver = z3.Solver()
    solver.add(z3.Not(spec.wd4_legal(s, hand) == _frozen_z3(spec, s, hand)))
    return bool(solver.check() == z3.unsat)


@pytest.mark.parametrize("name", SHIPPED)
def test_wd4_1_the_relation_reads_the_statement_as_it_was_written(name: str) -> None:
    assert _same_verdict(load_rules(name), 4)


def test_wd4_1_the_identity_fails_for_a_statement_planted_wrong(
        monkeypatch: pytest.MonkeyPatch) -> None:
    def other_reading(table: RuleTable) -> Said:  # the two readings swapped
        if table.wd4_legality.illegal_when_holding is Holding.CARD_OF_CURRENT_COLOR:
            return Said(All((Not(OfKind(Kind.WILD_DRAW_FOUR)), Playable())), "{card}")
        return Said(OfCurrentColor(), "{card}")

    monkeypatch.setattr(actions, "wd4_blocks", other_reading)
    assert not _same_verdict(load_rules("classic"), 4)
    assert not _same_verdict(load_rules("rlcard"), 4)


@pytest.mark.parametrize("name", SHIPPED)
def test_wd4_1_the_engine_reads_the_statement_as_it_was_written(name: str) -> None:
    rules = load_rules(name)
    rng = random.Random(name)
    game = Game(["A", "B", "C"], seed=rng.randrange(1000), rules=rules)
    checked = 0
    for _ in range(400):
        if game.round_over:
            if game.game_over:
                break
            game.next_round()
        for face in range(len(game.f_kind)):
            assert game._wd4_blocks(face) == _frozen_engine(game, face), (face, game.to_text())
            checked += 1
        game.push(rng.choice(game.legal_actions(penalties=False)))
    assert checked > 10_000


def test_wd4_1_each_reading_has_its_words() -> None:
    classic, rlcard = wd4_blocks(load_rules("classic")), wd4_blocks(load_rules("rlcard"))
    assert classic.text() == "a card of the current color"
    assert rlcard.text() == "not a Wild Draw Four and a card that could be played"
    assert classic.words(card="R2", color="red", top="R5") == \
        "R2, a card of the current color red"
    assert rlcard.words(card="B7", color="red", top="R7") == \
        "B7, which could be played on R7 / red"
    assert challenge.wd4_blocks is wd4_blocks
