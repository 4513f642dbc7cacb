"""The commands on game records (version 3): play --game and simulate --records write
them, replay, conform, show and vectors read them, and what is written reads back."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from unoformal.commands.cli import main
from unoformal.compare.vectors import vector
from unoformal.engine.game import Game
from unoformal.engine.record import replay
from unoformal.playing.simulate import Config, played
from unoformal.rulebook.variants import load_rules

RECORDS = Path(__file__).parent / "records"
GAME = RECORDS / "game_to_100.json"


def _flat(game: dict[str, Any]) -> dict[str, Any]:
    """The same game as a one-round record: its actions alone, the seed deals the rest."""
    return {"version": 2, "rules": game["rules"], "players": game["players"],
            "seed": game["seed"],
            "actions": [{k: v for k, v in a.items() if k != "reshuffles"}
                        for r in game["rounds"] for a in r["actions"]]}


def _same(a: Game, b: Game) -> bool:
    # a game record states every deal: the seed's count of shuffles is not the game's
    return re.sub(r" shuffles=\d+", "", a.to_text()) == re.sub(r" shuffles=\d+", "",
                                                                b.to_text())


def test_play_game_writes_a_game_record_that_replays_to_the_game_played(
        tmp_path: Path) -> None:
    out = tmp_path / "game.json"
    done = subprocess.run(
        [sys.executable, "-m", "unoformal", "play", "--seed", "3", "--out", str(out),
         "--game"], input="1\n" * 3000, capture_output=True, text=True, timeout=120,
        check=False)
    assert done.returncode == 0, done.stderr
    game = json.loads(out.read_text())
    assert game["version"] == 3 and len(game["rounds"]) > 1 and "winner" in game["end"]
    whole, flat = replay(game), replay(_flat(game))
    assert whole.error is None and flat.error is None and whole.game.game_over
    assert _same(whole.game, flat.game) and whole.game.history == flat.game.history
    assert [r["end"]["scores"] for r in game["rounds"]][-1] == game["end"]["scores"]


def test_simulate_records_writes_each_game_as_its_game_record(tmp_path: Path,
                                                               capsys: Any) -> None:
    out = tmp_path / "games.jsonl"
    # seed 7: game 0 reshuffles 4 times and puts a start Wild Draw Four back once
    assert main(["simulate", "--games", "2", "--players", "3", "--seed", "7",
                 "--records", str(out), "--json"]) == 0
    summary = json.loads(capsys.readouterr().out)
    lines = [json.loads(line) for line in out.read_text().splitlines()]
    config = Config(games=2, players=3, seed=7, rules=load_rules(None),
                    bots=("random", "greedy"))
    rounds = lines[0]["rounds"]
    assert sum("reshuffles" in a for r in rounds for a in r["actions"]) == 4
    assert sum("start_reshuffles" in r for r in rounds) == 1
    for index, record in enumerate(lines):
        game = played(config, index)[0]
        result = replay(record)
        assert result.error is None and _same(result.game, game)
        assert record["end"]["scores"] == dict(zip(game.names, game.scores, strict=True))
    assert summary["games"] == 2
    assert main(["conform", str(out)]) == 0
    assert "2 games: 2 clean" in capsys.readouterr().out


def test_replay_names_a_wrong_score_s_place_and_rule(tmp_path: Path,
                                                     capsys: pytest.CaptureFixture[str]
                                                     ) -> None:
    game = json.loads(GAME.read_text())
    game["rounds"][1]["end"]["scores"]["P1"] = 40 + 9
    path = tmp_path / "wrong.json"
    path.write_text(json.dumps(game))
    assert main(["replay", str(path), "--json"]) == 2
    out = capsys.readouterr()
    error = json.loads(out.out)["error"]
    assert (error["key"], error["rule"], error["index"]) == ("rounds[1].end.scores",
                                                             "SCORE-2", None)
    assert "P1 49 (by the rules 40)" in error["message"]
    assert "rounds[1].end.scores:" in out.err and "(breaks SCORE-2)" in out.err


def test_show_steps_through_every_round(tmp_path: Path,
                                        capsys: pytest.CaptureFixture[str]) -> None:
    from unoformal.show.trace import record_steps

    game = json.loads(GAME.read_text())
    _, steps = record_steps(game)
    actions = sum(len(r["actions"]) for r in game["rounds"])
    assert len(steps) == 1 + actions + 2  # the deal, each action, the two later deals
    assert sum(1 for s in steps if s["labels"] and s["labels"][0][0] == "END-2") == 2
    assert main(["show", str(GAME), "--out", str(tmp_path / "g.html")]) == 0
    assert f"({len(steps)} steps)" in capsys.readouterr().out
    game["rounds"][0]["end"]["points"] = 1
    _, wrong = record_steps(game)
    assert wrong[-1]["refused"]["rule"] == "SCORE-1"
    assert len(wrong) == 2 + len(game["rounds"][0]["actions"])


def test_vectors_of_a_game_record_cross_its_rounds(tmp_path: Path) -> None:
    out = tmp_path / "v.jsonl"
    assert main(["vectors", "--record", str(GAME), "--out", str(out)]) == 0
    lines = [json.loads(line) for line in out.read_text().splitlines()]
    rounds = {re.search(r" round=(\d+)", line["state"]).group(1)  # type: ignore[union-attr]
              for line in lines}
    assert rounds == {"1", "2", "3"}
    rules = replay(json.loads(GAME.read_text())).game.rules
    assert lines[40] == vector(lines[40]["state"], rules, lines[40]["rules"])
    wrong = json.loads(GAME.read_text())
    wrong["rounds"][1]["dealer"] = "P0"
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(wrong))
    assert main(["vectors", "--record", str(bad), "--out", str(tmp_path / "w.jsonl")]) == 2


def test_simulate_records_leaves_out_a_game_too_long_to_read_back_and_says_so(
        tmp_path: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    import unoformal.commands.simulate as command

    monkeypatch.setattr(command, "MAX_FILE_BYTES", 60_000)  # a line of records, here
    out = tmp_path / "games.jsonl"
    assert main(["simulate", "--games", "2", "--players", "3", "--seed", "7",
                 "--records", str(out)]) == 0
    said = capsys.readouterr()
    kept = out.read_text().splitlines()
    assert len(kept) == 1 and len(kept[0]) <= 60_000
    assert said.err.count("warning: --records: game ") == 1
    assert "a line of records holds at most 60,000" in said.err
    words = " ".join(said.out.split())  # rich folds a long line
    assert "wrote 1 game record(s)" in words and "(1 left out, too long to be read" in words
