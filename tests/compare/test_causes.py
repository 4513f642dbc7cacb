"""Refusals that name their cause: the rule refused (``rule``) and the rule or rules from
the game's own history that made the state so (``causes``)."""

from __future__ import annotations

from typing import Any

import pytest

from tests.compare.helpers import deal, record
from unoformal.engine.actions import Action
from unoformal.engine.game import Game
from unoformal.engine.record import replay
from unoformal.errors import IllegalActionError
from unoformal.rulebook.table import CLASSIC
from unoformal.rulebook.variants import derive

P0, P1, P2 = "P0", "P1", "P2"


def _refused(hands: dict[str, list[str]], pile: list[str],
             actions: list[dict[str, Any]]) -> IllegalActionError:
    result = replay(record(hands, pile, actions))
    assert isinstance(result.error, IllegalActionError), result.error
    assert result.error_index == len(actions) - 1
    return result.error


def test_two_player_reverse_acts_as_a_skip() -> None:
    err = _refused({P0: ["RR"], P1: ["R2"]}, ["R7"], [
        {"player": P0, "action": "play", "card": "RR"},
        {"player": P1, "action": "play", "card": "R2"}])
    assert err.rule_id == "PLAY-1" and err.causes == ("TWO-1",)
    assert "P1 is not to move: P0's Reverse acted as a Skip (TWO-1), so P0 moves again" \
        in err.message
    assert err.to_json()["causes"] == ["TWO-1"]


def test_a_plain_turn_has_no_cause() -> None:
    err = _refused({P0: ["R1"], P1: ["R2"]}, ["R7"], [
        {"player": P0, "action": "play", "card": "R1"},
        {"player": P0, "action": "play", "card": "R2"}])
    assert err.rule_id == "PLAY-1" and err.causes == ()
    assert "it is P1's turn" in err.message


def test_skip_and_draw_two_and_start_draw_two() -> None:
    three = {P0: ["RS", "R+2"], P1: ["R2"], P2: ["R3"]}
    err = _refused(three, ["R7"], [{"player": P0, "action": "play", "card": "RS"},
                                   {"player": P1, "action": "play", "card": "R2"}])
    assert err.causes == ("SKIP-1",) and "P0's Skip skipped P1 (SKIP-1)" in err.message
    err = _refused(three, ["R7"], [{"player": P0, "action": "play", "card": "R+2"},
                                   {"player": P1, "action": "play", "card": "R2"}])
    assert err.causes == ("D2-1",)
    # START-D2: the first player (P0, left of the dealer P2) draws 2 and loses the turn.
    err = _refused(three, ["R+2", "G1", "G2"], [{"player": P0, "action": "play", "card": "RS"}])
    assert err.causes == ("START-D2",) and "START-D2" in err.message


def test_a_drawn_wild_draw_four_takes_effect() -> None:
    # P0 draws W+4 and plays it: P1 must accept or challenge, whatever P1 tries next.
    hands = {P0: ["G5"], P1: ["R2", "W"]}
    for attempt, refused_as in (({"player": P1, "action": "play", "card": "R2"}, "WD4-2"),
                                ({"player": P1, "action": "draw"}, "WD4-2")):
        err = _refused(hands, ["R7", "W+4"], [
            {"player": P0, "action": "draw"},
            {"player": P0, "action": "play", "card": "W+4", "color": "red"}, attempt])
        assert err.rule_id == refused_as and err.causes == ("WD4-2",)
        assert "P0's drawn Wild Draw Four takes effect (WD4-2)" in err.message


def test_after_drawing_the_cause_is_draw_1() -> None:
    err = _refused({P0: ["G5"], P1: ["R2"]}, ["R7", "B9"], [
        {"player": P0, "action": "draw"}, {"player": P1, "action": "play", "card": "R2"}])
    assert err.causes == ("DRAW-1",)


def test_the_cause_follows_the_table() -> None:
    # With TWO-1 switched off a 2-player Reverse only reverses: no cause, P1 moves.
    table = derive(CLASSIC, "no-two", "", {"TWO-1": {"enabled": False}})
    game = Game([P0, P1], rules=table, dealer=P1, deal=deal({P0: ["RR"], P1: ["R2"]}, ["R7"]))
    game.apply(Action.parse("P0 play RR"))
    assert game.cause is None
    game.apply(Action.parse("P1 play R2"))
    with pytest.raises(IllegalActionError) as err:
        game.apply(Action.parse("P1 play R2"))
    assert err.value.causes == ()


def test_replay_json_shows_rule_and_causes(capsys: pytest.CaptureFixture[str]) -> None:
    import json

    from unoformal.commands.cli import main

    assert main(["replay", "tests/records/rlcard_two_1.json", "--json"]) == 2
    error = json.loads(capsys.readouterr().out)["error"]
    assert error["rule"] == "PLAY-1" and error["causes"] == ["TWO-1"] and error["index"] == 1
