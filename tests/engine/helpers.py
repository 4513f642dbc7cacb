"""Shared builders for the engine tests: positions written as game records.

A position is given like a FEN: the hands that matter and the top of the draw
pile (top first; its first card is turned as the start card). Every other card
of the deck is appended, in the deck's canonical order, to the end of the draw
pile (or to one player's hand with ``rest_to``), so hands and pile together are
exactly the deck, as DECK-1 requires of a record.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

import pytest

from unoformal.compare.relation import run as relation_run
from unoformal.engine import game as engine_game
from unoformal.engine.actions import Action
from unoformal.engine.game import Game
from unoformal.engine.record import game_from_record, to_record
from unoformal.errors import IllegalActionError, UnoError
from unoformal.rulebook.deck import Deck
from unoformal.rulebook.table import CLASSIC, RuleTable
from unoformal.rulebook.variants import derive, load_rules
from unoformal.rules.deal import dealing
from unoformal.rules.play import plays
from unoformal.rules.respond import responses
from unoformal.rules.start import starts
from unoformal.rules.turn import turn
from unoformal.rules.uno import out_of_turn
from unoformal.verification.z3 import prover

RECORDS = Path(__file__).resolve().parent.parent / "records"

# RESHUFFLE-1 without keep_top: a draw from an empty pile takes the whole discard back.
NO_KEEP = derive(CLASSIC, "no-keep", "RESHUFFLE-1 shuffles the whole discard",
                 {"RESHUFFLE-1": {"keep_top": False}})


_AFRESH = itertools.count()


def forget_commands() -> None:
    """Forget the commands built per table (each section's, cached by the table's value)
    and the engine's lookups made of them (per table object): what is built after this
    is built from the builders as they are now, a plant or a mutant included."""
    for section in (starts, plays, turn, responses, out_of_turn, dealing):
        section.cache_clear()
    engine_game._LOOKUPS.clear()
    engine_game._AIMING.clear()


def forget_built() -> None:
    """:func:`forget_commands`, and the relations built of them: the validator's and the
    prover's. A plant is seen only by what is built after it, and must not outlive its
    test: a shipped table's plays first built under a planted ``jump`` once stayed planted
    for every later test in the process."""
    forget_commands()
    relation_run._MODELS.clear()
    prover._setup.cache_clear()


def both_house_rules() -> RuleTable:
    """A user's table with both house rules on (no shipped variant has both)."""
    return derive(load_rules("jump-in"), "both-house-rules", "Jump-In and Seven-O",
                  {"SEVEN-O": {"enabled": True}})


def afresh(rules: RuleTable) -> RuleTable:
    """The same values in a table met for the first time: each section builds its commands
    once per table (cached by the table's value) and the engine its lookups once per table
    object, so a table of a new name and a new object has them built now. mutmut's fork
    server builds the shipped tables' commands before any mutant runs: only such a table
    lets a mutant of a builder reach a test."""
    return derive(rules, f"{rules.name}-afresh-{next(_AFRESH)}", rules.description, {})


def deck_codes(rules: RuleTable = CLASSIC) -> list[str]:
    """Every card of the deck as a code, in canonical order."""
    deck = Deck.of(rules)
    return [deck.code(c) for c in deck.cards()]


def full_deal(hands: Mapping[str, Sequence[str]], pile: Sequence[str], rest_to: str | None = None,
              rules: RuleTable = CLASSIC) -> dict[str, Any]:
    """A deal holding exactly the deck: the given cards, the rest after them."""
    rest = deck_codes(rules)
    for card in [c for h in hands.values() for c in h] + list(pile):
        if card not in rest:
            raise AssertionError(f"test position uses more {card} than the deck holds")
        rest.remove(card)
    out_hands = {name: list(cards) for name, cards in hands.items()}
    out_pile = list(pile)
    if rest_to is None:
        out_pile += rest
    else:
        out_hands.setdefault(rest_to, [])
        out_hands[rest_to] += rest
    return {"hands": out_hands, "draw_pile": out_pile}


def make_record(players: Sequence[str], dealer: str, hands: Mapping[str, Sequence[str]],
                pile: Sequence[str], actions: Iterable[str] = (), rules: str = "classic",
                rest_to: str | None = None, seed: int = 0) -> dict[str, Any]:
    """A game record; actions are written in their canonical text form."""
    deal = full_deal(hands, pile, rest_to)  # every shipped variant keeps DECK-1
    return {"rules": rules, "players": list(players), "dealer": dealer, "seed": seed,
            "deal": deal, "actions": [Action.parse(a).to_json() for a in actions]}


def make_game(players: Sequence[str], dealer: str, hands: Mapping[str, Sequence[str]],
              pile: Sequence[str], rules: RuleTable = CLASSIC, rest_to: str | None = None,
              seed: int = 0) -> Game:
    """The game at the start of a given position, under ``rules``."""
    record = {"players": list(players), "dealer": dealer, "seed": seed,
              "deal": full_deal(hands, pile, rest_to, rules)}
    return game_from_record(record, rules)


def play(game: Game, *actions: str) -> Game:
    """Apply actions written in canonical text; a refusal fails with the replayable record."""
    for text in actions:
        try:
            game.apply(Action.parse(text))
        except UnoError as err:
            raise AssertionError(f"{text!r} refused: {err}\nrecord: {to_record(game)}") from err
    return game


def refused(game: Game, text: str, rule_id: str,
            error: type[UnoError] = IllegalActionError) -> UnoError:
    """Assert the action is refused citing ``rule_id`` and the state is exactly unchanged."""
    before = game.to_text()
    history = list(game.history)
    with pytest.raises(error) as info:
        game.apply(Action.parse(text))
    assert info.value.rule_id == rule_id, f"{text}: {info.value}"
    assert game.to_text() == before
    assert game.history == history
    return info.value


def sorted_codes(codes: Iterable[str], rules: RuleTable = CLASSIC) -> list[str]:
    deck = Deck.of(rules)
    return [deck.code(i) for i in sorted(deck.face_id(c) for c in codes)]


def pile_runs_out() -> Game:
    """Under :data:`NO_KEEP`, two players: A (R5, G2 and every card not named) and B (R3,
    B9) each play a red card, A draws the pile's last card (G1) and keeps it. B moves with
    the pile empty and R7, R5, R3 in the discard."""
    game = make_game(("A", "B"), "B", {"A": ["R5", "G2"], "B": ["R3", "B9"]}, ("R7", "G1"),
                     rules=NO_KEEP, rest_to="A")
    return play(game, "A play R5", "B play R3", "A draw", "A pass")
