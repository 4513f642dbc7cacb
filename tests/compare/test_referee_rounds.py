"""The live referee across rounds: next_round takes the engine's stated deal, dealer and
scores (checked: END-2, DEAL-2, SCORE-2), and the session's record is a game record."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from unoformal.compare.live import Referee
from unoformal.engine.record import replay

GAME = Path(__file__).resolve().parent.parent / "records" / "game_to_100.json"


def _ask(referee: Referee, **message: Any) -> dict[str, Any]:
    return referee.handle(json.loads(json.dumps(message)))


def _play_round(referee: Referee, actions: list[dict[str, Any]]) -> dict[str, Any]:
    answer: dict[str, Any] = {}
    for data in actions:
        extra = {k: data[k] for k in ("draws", "reshuffles") if k in data}
        text = " ".join([data["player"], data["action"], *(
            [data["card"]] if "card" in data else []), *(
            [data["color"]] if "color" in data else []), *(
            [data["target"]] if "target" in data else []), *(["uno"] if data.get("uno")
                                                              else [])])
        answer = _ask(referee, cmd="apply", action=text, **extra)
        assert answer["ok"], answer
    return answer


def _started() -> tuple[Referee, dict[str, Any]]:
    game = json.loads(GAME.read_text())
    first = game["rounds"][0]
    referee = Referee()
    setup = {k: first[k] for k in ("dealer_draws", "deal", "start_reshuffles") if k in first}
    assert _ask(referee, cmd="new", rules=game["rules"], players=game["players"],
                seed=game["seed"], **setup)["ok"]
    _play_round(referee, first["actions"])
    return referee, game


def test_next_round_takes_the_stated_deal_and_the_record_is_a_game_record() -> None:
    referee, game = _started()
    for r in (1, 2):
        data = game["rounds"][r]
        stated = {k: data[k] for k in ("dealer", "deal", "start_reshuffles") if k in data}
        dealt = _ask(referee, cmd="next_round", scores=game["rounds"][r - 1]["end"]["scores"],
                     **stated)
        assert dealt["ok"], dealt
        assert dealt["rule_ids"][:2] == ["END-2", "DEAL-2"] and dealt["dealer"] == data["dealer"]
        assert dealt["rule_ids"][-2:] == ["SCORE-1", "SCORE-2"]  # the scores were checked
        last = _play_round(referee, data["actions"])
    assert last["game_over"] and last["scores"] == game["end"]["scores"]
    record = _ask(referee, cmd="record")["record"]
    assert record["version"] == 3 and len(record["rounds"]) == 3
    result = replay(record)
    assert result.error is None and result.game.to_text() == last["state"]


def test_wrong_scores_dealer_or_deal_are_refused_naming_the_rule_and_change_nothing() -> None:
    referee, game = _started()
    before = _ask(referee, cmd="state")["state"]
    data = game["rounds"][1]
    wrong_scores = _ask(referee, cmd="next_round", scores={"P0": 0, "P1": 9})
    assert wrong_scores["error"]["rule"] == "SCORE-2"
    assert wrong_scores["error"]["key"] == "scores"
    assert "P0 0 (by the rules 9)" in wrong_scores["error"]["message"]
    wrong_dealer = _ask(referee, cmd="next_round", dealer="P0", deal=data["deal"])
    assert (wrong_dealer["error"]["rule"], wrong_dealer["error"]["key"]) == ("END-2", "dealer")
    deal = json.loads(json.dumps(data["deal"]))
    deal["hands"]["P1"].append(deal["draw_pile"].pop())
    wrong_size = _ask(referee, cmd="next_round", deal=deal)
    assert (wrong_size["error"]["rule"], wrong_size["error"]["key"]) == ("DEAL-2", "deal")
    deal["hands"]["P1"][-1] = "W"
    not_the_deck = _ask(referee, cmd="next_round", deal=deal)
    assert not_the_deck["error"]["kind"] == "invalid" and not_the_deck["error"]["key"] == "deal"
    bad = _ask(referee, cmd="next_round", scores=["P0"])
    assert bad["error"]["kind"] == "invalid" and bad["error"]["key"] == "scores"
    assert _ask(referee, cmd="state")["state"] == before
    assert _ask(referee, cmd="record")["record"]["version"] == 2  # no round stated yet
