"""The letsuno preset, built from the engine's own records (``tests/data/outside``: eleven
rounds of letsuno/uno-online's ``packages/shared`` at commit effc6c6, each one behaviour
of it): refereed under the rules that engine plays, what is left is its two bugs, each
right after a catch (its penalty queue gives the turn to the wrong player; a catch's
penalty drawn on one's own turn counts as the turn's draw). Under ``classic`` the same
records deviate on every one of its choices, so these tests can fail.

The readings the preset adds are checked here against worked examples from their words:
a forgotten UNO caught at any later time (UNO-1 catch_until), a split draw pile
(RESHUFFLE-1 refill) and the player to move starting the next round (END-2 next_dealer).
A bug planted in the Python of each reading is caught by these examples or by the
reading's own property, which reads no command.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tests.engine.helpers import forget_built
from unoformal.compare.deviations import every_deviation
from unoformal.engine.actions import Action
from unoformal.engine.chance import ChanceError, StatedChance
from unoformal.engine.game import Game
from unoformal.errors import IllegalActionError
from unoformal.rulebook.table import RuleTable
from unoformal.rulebook.variants import load_rules
from unoformal.verification.z3.properties import property_named
from unoformal.verification.z3.prover import REFUTED, Result, check

OUTSIDE = Path(__file__).resolve().parents[1] / "data" / "outside"
# The records of the engine's choices: each a behaviour of the rules it plays.
CHOICES = ("catch_at_a_later_time", "uno_said_late", "final_draw_two_not_drawn",
           "half_pile_refilled", "start_reverse_dealers_left_goes_right")


def _record(name: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((OUTSIDE / f"{name}.json").read_text("utf-8"))
    return data


def _deviations(name: str, rules: str) -> list[tuple[int | None, str]]:
    walk = every_deviation(_record(name), load_rules(rules))
    assert walk.stopped is None, walk.stopped
    return [(d.index, d.error.rule_id) for d in walk.deviations]


@pytest.mark.parametrize("name", CHOICES)
def test_a_choice_of_the_engine_is_no_deviation_under_its_preset(name: str) -> None:
    assert _deviations(name, "classic")
    assert _deviations(name, "letsuno") == []


def test_what_is_left_under_the_preset_is_the_engines_two_catch_bugs() -> None:
    left = 0
    for path in sorted(OUTSIDE.glob("*.json")):
        actions = _record(path.stem)["actions"]
        for index, rule in _deviations(path.stem, "letsuno"):
            assert index is not None and rule in ("PLAY-1", "DRAW-1"), (path.stem, index)
            # right after a catch: the penalty's queue, or its draw taken for the turn's
            assert "catch" in [a["action"] for a in actions[index - 2:index]], (path.stem,
                                                                               index)
            left += 1
    assert left == 12  # the two bugs, in 6 records: 3 turns given wrongly, 9 draws


# --- UNO-1 catch_until = any-time: "caught at any later time while still holding 1 card"

def check_property(rules: RuleTable, name: str, n: int) -> Result:
    return check(rules, property_named(name, rules), n)


def _two(rules: RuleTable, hands: str) -> Game:
    """A to move on R3, hands ``hands`` (A's/B's); the rest of the deck in the pile."""
    from tests.catalogue.test_worked_examples import _state
    return _state(rules, hands, "R3")


def _then(game: Game, *moves: str) -> Game:
    for move in moves:
        game.apply(Action.parse(move))
    return game


def _catch_after_a_turn(rules: RuleTable) -> Game:
    # A plays the next-to-last card without UNO; B plays: a turn has begun since
    return _then(_two(rules, "R5,R6/R7,B6,B7"), "A play R5", "B play R7")


def test_catch_later_a_forgotten_uno_is_caught_after_the_next_turn_began() -> None:
    game = _then(_catch_after_a_turn(load_rules("catch-later")), "B catch A")
    assert len(game.hands[0]) == 3  # the penalty: 2 cards
    with pytest.raises(IllegalActionError) as err:
        _catch_after_a_turn(load_rules("classic")).apply(Action.parse("B catch A"))
    assert err.value.rule_id == "UNO-1"


def test_catch_later_uno_may_be_said_late_and_a_draw_closes_the_window() -> None:
    rules = load_rules("catch-later")
    said = _then(_catch_after_a_turn(rules), "A uno")
    with pytest.raises(IllegalActionError):
        said.apply(Action.parse("B catch A"))
    drew = _then(_catch_after_a_turn(rules), "A draw")
    with pytest.raises(IllegalActionError):
        drew.apply(Action.parse("B catch A"))


def test_catch_later_a_turn_that_closes_the_window_is_caught(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A plant: turn_begins closes the window whatever UNO-1's catch_until says. The
    worked example fails, and so does the reading's property (it reads no command)."""
    import unoformal.rules.turn as turn_rules

    class Never:  # no table reads any-time: the reading's test in turn_begins never holds
        ANY_TIME = object()

    monkeypatch.setattr(turn_rules, "CatchUntil", Never)
    forget_built()
    try:
        rules = load_rules("catch-later")
        with pytest.raises(IllegalActionError):
            _then(_catch_after_a_turn(rules), "B catch A")
        assert check_property(rules, "uno-catch-later", 3).verdict == REFUTED
    finally:
        monkeypatch.undo()
        forget_built()
    assert check_property(load_rules("catch-later"), "uno-catch-later", 3).verdict != REFUTED


# --- RESHUFFLE-1 refill = split: "two halves, each draw taking the top card of either"

def test_split_pile_a_half_is_refilled_only_when_it_is_empty() -> None:
    game = _two(load_rules("split-pile"), "R5,R6/R7,B6,B7")
    game.pile_lower = 2  # two halves, both holding cards
    with pytest.raises(ChanceError) as err:
        StatedChance()._refill_half(game, list(game.discard[:-1]))
    assert err.value.rule_id == "RESHUFFLE-1"


def test_split_pile_a_partial_refill_is_a_deviation_only_without_the_reading() -> None:
    others = "play-after-draw+catch-later+last-draw-card-ends"
    assert ("RESHUFFLE-1" in {rule for _, rule in _deviations("half_pile_refilled", others)})
    assert _deviations("half_pile_refilled", others + "+split-pile") == []


# --- END-2 next_dealer = mover: "the player to move when the round ended plays first"

def _ended(rules: RuleTable) -> Game:
    game = _then(_two(rules, "R5/R7,B6,B7"), "A play R5")  # A goes out: B to move
    assert game.round_over
    return game


def test_mover_deals_the_player_to_move_plays_first_in_the_next_round() -> None:
    game = _ended(load_rules("mover-deals"))
    to_move = game.turn
    game.next_round()
    assert game.dealer == (to_move - 1) % game.n
    classic = _ended(load_rules("classic"))
    dealer = classic.dealer
    classic.next_round()
    assert classic.dealer == (dealer + 1) % classic.n


def test_mover_deals_a_wrong_seat_is_caught_by_the_readings_property(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A plant: the deal goes one seat too far. The reading's property says so."""
    from unoformal.language.effects import PassDeal
    from unoformal.verification.z3.actions import Spec

    real = Spec.dealer_passed

    def planted(self: Spec, s: Any, to_winner: bool, before_mover: int | None = None) -> Any:
        return real(self, s, to_winner, None if before_mover is None else before_mover + 1)

    monkeypatch.setattr(Spec, "dealer_passed", planted)
    assert PassDeal(False, 1).before_mover == 1
    forget_built()
    try:
        assert check_property(load_rules("mover-deals"), "next-deal-mover", 3).verdict == REFUTED
    finally:
        monkeypatch.undo()
        forget_built()


def test_a_reading_of_chance_or_views_changes_no_command_so_the_matrix_need_not_pair_it() -> None:
    from unoformal.catalogue import find
    from unoformal.rules.book import commands

    for name in ("split-pile", "open-hands"):
        found = find(name)
        assert found is not None and found[0].reading_of
        assert commands(load_rules(name)) == commands(load_rules("classic"))
    # a value that commands read would show: catch-later's does
    assert commands(load_rules("catch-later")) != commands(load_rules("classic"))
