"""Game records (version 3): every round of a game in one record, its ends checked
against END-1, SCORE-1, SCORE-2 and END-2 (unoformal.engine.games)."""

from __future__ import annotations

import copy
import json
import re
from typing import Any

import pytest

from unoformal.engine.game_writer import game_record
from unoformal.engine.record import Record, replay
from unoformal.errors import InvalidInputError

from .helpers import RECORDS

GAME = RECORDS / "game_to_100.json"  # 3 rounds to 100 points, P1 wins 124 to 9
SEED002 = RECORDS / "seed002_whole_game.json"


def _game() -> dict[str, Any]:
    data: dict[str, Any] = json.loads(GAME.read_text())
    return data


def _without_shuffles(text: str) -> str:
    # a game record states every deal, so the seed's count of shuffles is not the game's
    return re.sub(r" shuffles=\d+", "", text)


def test_a_game_record_replays_every_round_clean() -> None:
    result = replay(_game())
    assert result.error is None
    assert result.game.round == 3 and result.game.game_over
    assert result.game.game_winner == "P1"
    assert result.played == sum(len(r["actions"]) for r in _game()["rounds"])


def test_written_then_replayed_is_the_same_game() -> None:
    """Round trip: a one-round record of a whole game (its later deals the seed's), written
    as a game record, replays to the same state, the same history and the same ends."""
    game = _game()
    seeded = {"version": 2, "rules": game["rules"], "players": game["players"],
              "seed": game["seed"],
              "actions": [{k: v for k, v in a.items() if k != "reshuffles"}
                          for r in game["rounds"] for a in r["actions"]]}
    one = replay(seeded)
    assert one.error is None and one.game.game_over
    written = game_record(seeded)
    again = replay(written)
    assert again.error is None
    assert _without_shuffles(again.game.to_text()) == _without_shuffles(one.game.to_text())
    assert again.game.history == one.game.history
    assert written["rounds"] == game["rounds"] and written["end"] == game["end"]


def test_a_one_round_record_is_a_one_round_game() -> None:
    record = json.loads(SEED002.read_text())
    written = game_record(record)
    assert len(written["rounds"]) == 1
    assert replay(written).game.to_text().replace(" shuffles=1", "") == \
        replay(record).game.to_text().replace(" shuffles=3", "")


@pytest.mark.parametrize(("where", "value", "rule", "key"), [
    ("points", 40, "SCORE-1", "rounds[0].end.points"),
    ("winner", "P1", "END-1", "rounds[0].end.winner"),
    ("scores", {"P0": 0, "P1": 9}, "SCORE-2", "rounds[0].end.scores"),
    ("hands", {"P0": ["R1"]}, "SCORE-1", "rounds[0].end.hands"),
])
def test_a_wrong_round_end_is_a_deviation_naming_its_rule(where: str, value: Any, rule: str,
                                                          key: str) -> None:
    game = _game()
    end = game["rounds"][0]["end"]
    assert end[where] != value
    end[where] = value
    result = replay(game)
    err = result.error
    assert err is not None and err.rule_id == rule and err.key == key
    assert err.causes == (rule,) and result.error_index is None
    assert result.game.round == 1 and result.game.round_over


def test_wrong_points_are_explained_card_by_card() -> None:
    game = _game()
    game["rounds"][0]["end"]["points"] += 10
    err = replay(game).error
    assert err is not None
    assert err.message.startswith("the record scores round 1 ")
    assert "SCORE-1 counts" in err.message and "wilds 50" in err.message


def test_the_game_end_is_checked() -> None:
    game = _game()
    game["end"]["winner"] = "P0"
    err = replay(game).error
    assert err is not None and (err.rule_id, err.key) == ("SCORE-2", "end.winner")
    early = _game()
    early["rounds"] = early["rounds"][:2]  # nobody has 100 after round 2
    err = replay(early).error
    assert err is not None and (err.rule_id, err.key) == ("END-2", "end")
    assert "deals again" in err.message


def test_a_round_after_the_game_is_won_is_refused_by_score_2() -> None:
    game = _game()
    game["rounds"].append(copy.deepcopy(game["rounds"][1]))
    err = replay(game).error
    assert err is not None and (err.rule_id, err.key) == ("SCORE-2", "rounds[3]")


def test_a_round_dealt_before_the_last_is_over_is_refused_by_end_1() -> None:
    game = _game()
    first = game["rounds"][0]
    first["actions"] = first["actions"][:5]
    del first["end"]
    err = replay(game).error
    assert err is not None and (err.rule_id, err.key) == ("END-1", "rounds[1]")


def test_an_action_after_the_round_s_end_is_refused_not_dealt_from_the_seed() -> None:
    game = _game()
    game["rounds"][0]["actions"].append(game["rounds"][1]["actions"][0])
    result = replay(game)
    err = result.error
    n = len(_game()["rounds"][0]["actions"])
    assert err is not None and err.rule_id == "END-1" and err.key == f"rounds[0].actions[{n}]"
    assert result.error_index == n


def test_a_wrong_dealer_names_end_2() -> None:
    game = _game()
    game["rounds"][1]["dealer"] = game["rounds"][0]["dealer"]
    err = replay(game).error
    assert err is not None and (err.rule_id, err.key) == ("END-2", "rounds[1].dealer")


def test_a_deal_of_the_wrong_size_names_deal_2() -> None:
    game = _game()
    deal = game["rounds"][1]["deal"]
    deal["hands"]["P0"].append(deal["draw_pile"].pop())
    err = replay(game).error
    assert err is not None and (err.rule_id, err.key) == ("DEAL-2", "rounds[1].deal")
    assert "P0 8" in err.message


def test_a_later_deal_not_of_the_deck_is_malformed_and_named() -> None:
    game = _game()
    game["rounds"][2]["deal"]["draw_pile"][0] = "W"
    with pytest.raises(InvalidInputError) as caught:
        replay(game)
    assert caught.value.key == "rounds[2].deal" and caught.value.rule_id == "DECK-1"


def test_a_refused_action_in_a_later_round_names_the_round_and_the_flat_index() -> None:
    game = _game()
    first = len(game["rounds"][0]["actions"])
    action = game["rounds"][1]["actions"][0]
    action["player"] = next(p for p in game["players"] if p != action["player"])
    result = replay(game)
    assert result.error is not None and result.error.key == "rounds[1].actions[0]"
    assert result.error_index == first


@pytest.mark.parametrize(("change", "key"), [
    (lambda g: g.update(rounds=[]), "rounds"),
    (lambda g: g["rounds"][0].update(score=1), "rounds[0]"),
    (lambda g: g["rounds"][1].update(dealer_draws=[]), "rounds[1].dealer_draws"),
    (lambda g: g["rounds"][0]["end"].update(points=-1), "rounds[0].end.points"),
    (lambda g: g.update(actions=[]), None),
])
def test_a_malformed_game_record_is_refused_naming_the_place(change: Any,
                                                             key: str | None) -> None:
    game = _game()
    change(game)
    with pytest.raises(InvalidInputError) as caught:
        replay(game)
    assert caught.value.key == key or key is None


def test_record_start_is_the_first_round_s_deal() -> None:
    start = Record(_game()).start()
    assert start.round == 1 and start.names == ["P0", "P1"]


@pytest.mark.parametrize(("change", "key"), [
    (lambda g: g["rounds"][0]["end"].update(winner="Zed"), "rounds[0].end.winner"),
    (lambda g: g["rounds"][1]["end"]["scores"].update(Zed=3), "rounds[1].end.scores.Zed"),
    (lambda g: g["end"]["scores"].update(Zed=3), "end.scores.Zed"),
    (lambda g: g["rounds"][1].update(start_color="purple"), "rounds[1].start_color"),
])
def test_an_end_or_a_round_naming_what_the_game_has_not_is_bad_input(change: Any,
                                                                     key: str) -> None:
    game = _game()
    change(game)
    with pytest.raises(InvalidInputError) as caught:
        replay(game)
    assert caught.value.key == key


def test_record_actions_are_every_round_s() -> None:
    actions = Record(_game()).actions
    assert len(actions) == sum(len(r["actions"]) for r in _game()["rounds"])
    assert str(actions[17]) == str(Record(_game()).replay().actions[17])


def test_a_first_round_set_up_the_rules_contradict_is_named_in_its_round() -> None:
    """An outside engine's start Wild put back (START-WILD), as the first round of a game
    record: replay names it in round 0; conform goes on from the stated pile, as for a
    one-round record."""
    from unoformal.compare.deviations import every_deviation

    outside = json.loads((RECORDS.parent / "data" / "outside" /
                          "start_wild_put_back.json").read_text())
    first = {k: outside[k] for k in ("dealer", "deal", "start_reshuffles", "actions")}
    game = {"version": 3, "rules": "classic", "players": outside["players"], "rounds": [first]}
    err = replay(game).error
    assert err is not None and (err.key, err.rule_id) == ("rounds[0].start_reshuffles",
                                                          "START-WILD")
    one = every_deviation(outside)
    whole = every_deviation(game)
    assert [d.error.message for d in whole.deviations] == \
        [d.error.message for d in one.deviations]
    assert whole.resynchronised == one.resynchronised


def test_stop_at_counts_the_actions_of_the_whole_game() -> None:
    record = Record(_game())
    first = len(_game()["rounds"][0]["actions"])
    mid = record.replay(stop_at=first + 5)
    assert mid.error is None and mid.played == first + 5 and mid.game.round == 2
    assert not mid.game.round_over
    ended = record.replay(stop_at=first)
    assert ended.error is None and ended.game.round == 1 and ended.game.round_over
