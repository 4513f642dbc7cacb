"""The moves listed for the player to move come from the commands' guards (issue 40): a
house rule that lets a move be made in another phase is listed there, with nothing of
the engine's listing edited (``Game._on_turn`` reads ``_Lookups.menu``, derived from the
guards reduced for each phase)."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator

import pytest

from tests.engine.helpers import afresh, forget_built
from unoformal.engine.actions import Action, ActionType
from unoformal.engine.game import Game
from unoformal.language.conditions import Conjunct, PhaseIn, PhaseIs
from unoformal.rulebook.table import CLASSIC
from unoformal.rulebook.variants import VARIANTS, load_rules
from unoformal.rules import turn as turn_moves
from unoformal.rules.state import DRAWN, PLAY


@pytest.fixture
def draw_again(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """A house rule as a changed guard: DRAW-1's "one draw per turn" (the draw's
    ``PhaseIs(PLAY)``) widened to the drawn phase too, so a player may draw again."""
    built = turn_moves.draw

    def draw(table):  # type: ignore[no-untyped-def]
        command = built(table)
        guard = tuple(Conjunct(PhaseIn((PLAY, DRAWN)), c.rule, c.words, c.caused)
                      if c.cond == PhaseIs(PLAY) else c for c in command.guard)
        return dataclasses.replace(command, guard=guard)

    monkeypatch.setattr(turn_moves, "draw", draw)
    forget_built()
    yield
    monkeypatch.undo()
    forget_built()


def _drawn(rules: object) -> Game:
    game = Game(["A", "B"], seed=1, rules=rules)
    game.apply(Action(game.to_play, ActionType.DRAW))
    assert game.phase == DRAWN
    return game


def test_a_guard_that_allows_a_second_draw_lists_it(draw_again: None) -> None:
    game = _drawn(afresh(CLASSIC))
    again = Action(game.to_play, ActionType.DRAW)
    for penalties in (True, False):
        assert again in game.legal_actions(penalties=penalties)
    game.apply(again)  # and the engine makes it: the same guard
    assert game.phase == DRAWN


def test_the_rulebooks_draw_is_not_listed_after_drawing() -> None:
    """The check above fails without the house rule: the same state lists no draw."""
    game = _drawn(afresh(CLASSIC))
    assert Action(game.to_play, ActionType.DRAW) not in game.legal_actions()


def test_each_phase_lists_the_moves_its_guards_allow_in_the_commands_order() -> None:
    menus = {name: {phase: [(m.command.name, m.cards) for m in moves]
                    for phase, moves in Game(["A", "B"], rules=load_rules(name)).t.menu.items()}
             for name in VARIANTS}
    classic = menus["classic"]
    assert classic["play"] == [("misplay", True), ("draw", False),
                               ("pass_nothing_to_draw", False)]
    assert classic["drawn"] == [("misplay", True), ("keep", False)]
    assert classic["respond"] == [("accept", False), ("challenge", False)]  # no answer
    assert classic["color"] == [("choose_color", False)]
    assert classic["start"] == classic["over"] == []
    # under stacking a card may answer a draw card: the cards are listed there too
    assert menus["stacking"]["respond"] == [("accept", False), ("challenge", False),
                                            ("misplay", True)]
