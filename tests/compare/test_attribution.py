"""Causes named from what ran, not guessed after it: the four misattributions an outside
engine's logs showed, each pinned with the rule and the words a user reads.

- A record stating draws for a last Draw Two that nobody draws (END-1 switched off) breaks
  END-1, not DRAW-1: the draws that ran say who drew under which rule, and the action
  ended the round.
- A start card that stays but is stated as reshuffled names its own start rule (a Wild:
  START-WILD), not START-WD4 (tests/compare/test_chance_refusals.py pins those).
- A player refused as not to move right after a catch is told that the catch did not
  change whose turn it is, and the catch's rule (UNO-1) is the first cause.
- A catch refused says why.
"""

from __future__ import annotations

from typing import Any

from tests.engine.helpers import full_deal, make_game, play
from unoformal.engine.actions import Action
from unoformal.engine.record import replay
from unoformal.errors import IllegalActionError
from unoformal.rulebook.table import CLASSIC
from unoformal.rulebook.variants import derive

ABC = ["A", "B", "C"]
# END-1 switched off: a last Draw Two ends the round with nobody drawing
NO_FINAL_DRAW = {"name": "no-final-draw", "base": "classic",
                 "rules": {"END-1": {"resolve_final_draw": False}}}


def _final_draw_two(rules: Any) -> dict[str, Any]:
    """A plays their last card, R+2; the record states that B drew two cards for it."""
    return {"version": 2, "rules": rules, "players": ABC, "dealer": "C", "seed": 0,
            "deal": full_deal({"A": ["R+2"], "B": ["B1"]}, ["R5", "G1", "G2"], "C"),
            "actions": [{"player": "A", "action": "play", "card": "R+2",
                         "draws": {"B": ["G1", "G2"]}}]}


def test_end_1_draws_stated_for_a_last_draw_two_nobody_draws_break_end_1() -> None:
    result = replay(_final_draw_two(NO_FINAL_DRAW))
    err = result.error
    assert err is not None and result.error_index == 0
    assert (err.rule_id, err.message) == (
        "END-1", "B is stated to draw 2 more card(s) than the rules make them draw")


def test_end_1_the_same_draws_are_taken_where_the_last_draw_two_is_drawn() -> None:
    # the check above fails for the right reason: under classic B draws them (D2-1)
    result = replay(_final_draw_two("classic"))
    assert result.error is None and result.game.round_over
    assert result.game.hand("B") == ["G1", "G2", "B1"]


def test_d2_1_a_draw_stated_longer_than_it_ran_breaks_the_rule_it_ran_under() -> None:
    data = _final_draw_two("classic")
    data["deal"] = full_deal({"A": ["R+2", "R3"], "B": ["B1"]}, ["R5", "G1", "G2", "G3"], "C")
    data["actions"][0]["draws"] = {"B": ["G1", "G2", "G3"]}
    err = replay(data).error
    assert err is not None
    assert (err.rule_id, err.message) == (
        "D2-1", "B is stated to draw 1 more card(s) than the rules make them draw")


def _caught_during_a_penalty() -> Any:
    """A plays W+4 as their next-to-last card without UNO; C catches A while B, the
    victim, has still to accept or challenge."""
    game = make_game(ABC, "C", {"A": ["W+4", "G2"], "B": ["B1"]}, ("R5",), rest_to="C")
    return play(game, "A play W+4 blue", "C catch A")


def test_uno_1_a_player_refused_after_a_catch_is_told_the_catch_left_the_turn() -> None:
    game = _caught_during_a_penalty()
    before = game.to_text()
    try:
        game.apply(Action.parse("C draw"))
    except IllegalActionError as err:
        assert err.rule_id == "PLAY-1" and err.causes == ("UNO-1", "WD4-2")
        assert err.message == (
            "C draw: C is not to move: C's catch of A (UNO-1) did not change whose turn it "
            "is; A's Wild Draw Four takes effect (WD4-2)")
    else:
        raise AssertionError("C draw was accepted")
    assert game.to_text() == before


def test_uno_1_without_a_catch_just_before_only_the_effect_is_named() -> None:
    game = play(make_game(ABC, "C", {"A": ["W+4", "G2", "G3"], "B": ["B1"]}, ("R5",),
                          rest_to="C"), "A play W+4 blue")
    try:
        game.apply(Action.parse("C draw"))
    except IllegalActionError as err:
        assert err.causes == ("WD4-2",)
        assert err.message == "C draw: C is not to move: A's Wild Draw Four takes effect (WD4-2)"
    else:
        raise AssertionError("C draw was accepted")


def test_score_2_an_action_after_the_game_is_over_cites_the_target() -> None:
    target = derive(CLASSIC, "short-game", "SCORE-2 at 1 point", {"SCORE-2": {"score": 1}})
    game = play(make_game(ABC, "C", {"A": ["R1"], "B": ["B1"]}, ("R5",), rules=target,
                          rest_to="C"), "A play R1")
    assert game.game_over
    try:
        game.apply(Action.parse("B draw"))
    except IllegalActionError as err:
        assert (err.rule_id, err.message) == (
            "SCORE-2", "B draw: the game is over: A reached the target score of 1")
    else:
        raise AssertionError("an action after game over was accepted")
