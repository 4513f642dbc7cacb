"""The adapter kit (``unoformal.adapters.kit``): docs/conform.md's worked example runs as
shown (its trace, its code, its output, and conform over the records it writes), and a
trace's chance lines land on the right move or set-up field, with bad lines named."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from unoformal import records_from_trace, replay
from unoformal.errors import InvalidInputError

DOC = Path(__file__).resolve().parents[2] / "docs" / "conform.md"


def _example() -> tuple[str, str, str, str]:
    """docs/conform.md's worked example: its trace, code, printed output, and prose."""
    text = DOC.read_text(encoding="utf-8")
    section = re.search(r"<!-- kit-trace:.*?-->(.*?)<!-- /kit-trace -->", text, re.DOTALL)
    assert section is not None, "docs/conform.md lost its worked example"
    body = section.group(1)
    blocks = dict(re.findall(r"```(jsonl|python|text)\n(.*?)```", body, re.DOTALL))
    return blocks["jsonl"], blocks["python"], blocks["text"], body


def test_the_docs_worked_example_runs_and_prints_what_it_shows(tmp_path: Path) -> None:
    trace, code, shown, _ = _example()
    (tmp_path / "toy.jsonl").write_text(trace, encoding="utf-8")
    done = subprocess.run([sys.executable, "-c", code], cwd=tmp_path, capture_output=True,
                          text=True, timeout=120,
                          env={**os.environ, "PYTHONPATH": str(DOC.parents[1])})
    assert done.returncode == 0, done.stderr
    assert done.stdout == shown
    conform = subprocess.run([sys.executable, "-m", "unoformal", "conform",
                              "toy-records.jsonl"], cwd=tmp_path, capture_output=True,
                             text=True, timeout=120,
                             env={**os.environ, "PYTHONPATH": str(DOC.parents[1])})
    assert conform.returncode == 0, conform.stderr
    assert conform.stdout.splitlines()[0] == "1 games: 1 clean, 0 deviating, 0 malformed"


def test_the_docs_claim_of_a_misordered_draw_holds() -> None:
    trace, _, _, prose = _example()
    assert "refused naming DRAW-1" in prose
    changed = trace.replace('{"drew": "Bob", "cards": ["B+2", "BR"]}',
                            '{"drew": "Bob", "cards": ["BR", "B+2"]}')
    assert changed != trace
    record = next(records_from_trace(changed.splitlines()))
    error = replay(record).error
    assert error is not None
    assert (error.rule_id, error.index) == ("DRAW-1", 5)  # Ann play R+2
    assert "the pile's top card is B+2" in error.message


GAME = {"game": {"players": ["Ann", "Bob"], "dealer": "Bob", "rules": "classic"}}


def test_chance_before_the_first_move_is_the_set_up_and_after_it_the_last_moves() -> None:
    lines: list[Any] = [
        GAME, {"dealer_drew": {"Ann": "R5", "Bob": "G3"}}, {"reshuffled": ["R1", "R2"]},
        {"start_color": "red"}, {"player": "Ann", "move": "draw"},
        {"drew": "Ann", "cards": ["G1"]}, {"reshuffled": ["B1"]}, {"drew": "Ann", "cards": []},
        {"round_over": {"winner": "Ann"}}, "", GAME, {"player": "Bob", "move": "pass"},
    ]
    first, second = records_from_trace(lines)
    assert first == {
        "version": 2, "players": ["Ann", "Bob"], "dealer": "Bob", "rules": "classic",
        "dealer_draws": [{"Ann": "R5", "Bob": "G3"}], "start_reshuffles": [["R1", "R2"]],
        "start_color": "red", "meta": {"engine_end": {"winner": "Ann"}},
        "actions": [{"player": "Ann", "action": "draw", "draws": {"Ann": ["G1"]},
                     "reshuffles": [["B1"]]}]}
    assert second["actions"] == [{"player": "Bob", "action": "pass"}]


def test_the_engines_own_card_names_are_mapped() -> None:
    names = {"red one": "R1", "blue two": "B2", "wild": "W"}
    record = next(records_from_trace([
        {"game": {"players": ["A", "B"], "deal": {"hands": {"A": ["red one"]},
                                                  "draw_pile": ["wild"]}}},
        {"player": "A", "move": "play", "card": "blue two"},
        {"drew": "B", "cards": ["red one"]}], card=names.__getitem__))
    assert record["deal"] == {"hands": {"A": ["R1"]}, "draw_pile": ["W"]}
    assert record["actions"] == [{"player": "A", "action": "play", "card": "B2",
                                  "draws": {"B": ["R1"]}}]


BAD = [
    ([{"player": "Ann", "move": "draw"}], "trace:1", None, "a trace starts with a game line"),
    ([GAME, "[1]"], "trace:2", None, "a trace line is a JSON object"),
    ([GAME, {"drew": "Ann", "cards": ["R1"]}], "trace:2", "drew", "a move comes first"),
    ([GAME, {"player": "Ann", "move": "pass", "why": 1}], "trace:2", "why", "unknown field"),
    ([GAME, {"player": "Ann"}], "trace:2", "move", "names its player and its move"),
    ([GAME, {"player": "Ann", "move": "draw"}, {"drew": "Ann", "cards": "R1"}], "trace:3",
     "cards", "a list of cards"),
    ([GAME, {"player": "Ann", "move": "draw"}, {"start_color": "red"}], "trace:3",
     "start_color", "comes before the first move"),
    ([GAME, {"round_over": {}}, {"player": "Ann", "move": "draw"}], "trace:3", None,
     "the next game with a game line"),
    ([GAME, {"drew": "Ann", "reshuffled": []}], "trace:2", None, "a trace line is one of"),
    ([{"game": {"players": ["A"], "seats": 2}}], "trace:1", "seats", "unknown field"),
]


@pytest.mark.parametrize(("lines", "where", "key", "words"), BAD,
                         ids=[case[3] for case in BAD])
def test_a_bad_trace_line_is_named_with_its_field(lines: list[Any], where: str,
                                                 key: str | None, words: str) -> None:
    with pytest.raises(InvalidInputError) as info:
        list(records_from_trace(lines))
    err = info.value
    assert (err.source, err.key) == (where, key)
    assert words in err.message


def test_text_and_bytes_lines_are_read_as_json() -> None:
    lines = [json.dumps(GAME), b'{"player": "Ann", "move": "draw"}\n']
    (record,) = records_from_trace(lines)
    assert record["actions"] == [{"player": "Ann", "action": "draw"}]


def _trace_of(game: dict[str, Any]) -> list[dict[str, Any]]:
    """A game record written back as the trace an engine would log: a game line, each
    round's moves and chance, a round_over per round, a round line between, game_over."""
    lines: list[dict[str, Any]] = []
    for i, rnd in enumerate(game["rounds"]):
        set_up = {k: rnd[k] for k in ("dealer", "deal") if k in rnd}
        if i == 0:
            head = {k: game[k] for k in ("players", "rules", "seed", "meta") if k in game}
            lines.append({"game": {**head, **set_up}})
        else:
            lines.append({"round": set_up})
        lines += [{"dealer_drew": d} for d in rnd.get("dealer_draws", [])]
        lines += [{"reshuffled": p} for p in rnd.get("start_reshuffles", [])]
        for action in rnd["actions"]:
            move = {"player": action["player"], "move": action["action"],
                    **{k: action[k] for k in ("card", "color", "target", "uno") if k in action}}
            lines.append(move)
            lines += [{"drew": who, "cards": cards} for who, cards in
                      action.get("draws", {}).items()]
            lines += [{"reshuffled": p} for p in action.get("reshuffles", [])]
        lines.append({"round_over": rnd["end"]})
    lines.append({"game_over": game["end"]})
    return lines


WHOLE = Path(__file__).resolve().parents[1] / "records" / "game_to_100.json"


def test_a_trace_of_a_whole_game_gives_the_game_record_back() -> None:
    game = json.loads(WHOLE.read_text("utf-8"))
    (record,) = records_from_trace(_trace_of(game), source="game.jsonl")
    assert record == game
    assert replay(record).error is None


def test_a_whole_games_wrong_score_is_refereed_where_the_trace_states_it() -> None:
    game = json.loads(WHOLE.read_text("utf-8"))
    lines = _trace_of(game)
    over = next(line for line in lines if "round_over" in line)
    over["round_over"] = {**over["round_over"], "points": 19}
    (record,) = records_from_trace(lines)
    error = replay(record).error
    assert error is not None
    assert (error.key, error.rule_id) == ("rounds[0].end.points", "SCORE-1")


def test_a_round_line_before_the_round_is_over_is_named() -> None:
    game = json.loads(WHOLE.read_text("utf-8"))
    lines = _trace_of(game)
    first_over = next(i for i, line in enumerate(lines) if "round_over" in line)
    del lines[first_over]
    with pytest.raises(InvalidInputError) as err:
        list(records_from_trace(lines, source="game.jsonl"))
    assert err.value.source == f"game.jsonl:{first_over + 1}"
    assert "round line comes after the round before it is over" in err.value.message
