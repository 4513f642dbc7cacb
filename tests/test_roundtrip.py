"""Whatever a command writes as a record or a vector line, the command that reads it takes
it back: ``play`` under every shipped variant and under a user's variant file (its
overrides embedded, never its path), replayed by ``unoformal replay`` to the very state
the game ended in; ``vectors --rules FILE`` through the json-only checker of
docs/vectors.md."""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from tests.compare.test_vectors import OurEngine, _checker
from unoformal.commands import play as play_command
from unoformal.commands.cli import main
from unoformal.engine.game import Game
from unoformal.playing.session import Table
from unoformal.rulebook.variants import VARIANTS

MOVES = 3000  # "1" (the first listed move) this many times: a whole game, or an end of input
# A variant of the user's own: a base, one changed value, and a base that is itself a file.
MINE = 'name = "mine"\nbase = "classic"\n[rules."UNO-1"]\npenalty = 1\n'
CHAINED = 'name = "theirs"\nbase = "mine.toml"\n[rules."SCORE-2"]\nscore = 200\n'


class _Stdin:
    """What ``play`` reads: a binary buffer, as sys.stdin has."""

    def __init__(self, text: str) -> None:
        self.buffer = io.BytesIO(text.encode())


def _play(monkeypatch: pytest.MonkeyPatch, out: Path, rules: str, seed: int = 3,
          players: int = 3) -> Game:
    """``unoformal play`` fed "1" per move, through the command line's own entry; the
    game it played, kept as it was when the record was saved."""
    tables: list[Table] = []
    real = play_command.play

    def watched(table: Table) -> bool:
        tables.append(table)
        return real(table)

    monkeypatch.setattr(play_command, "play", watched)
    monkeypatch.setattr(sys, "stdin", _Stdin("1\n" * MOVES))
    code = main(["play", "--seed", str(seed), "--players", str(players), "--rules", rules,
                 "--out", str(out)])
    assert code == 0
    return tables[0].game


def _replayed(record: Path, capsys: pytest.CaptureFixture[str]) -> dict[str, Any]:
    capsys.readouterr()
    assert main(["replay", str(record), "--json"]) == 0, capsys.readouterr().err
    state: dict[str, Any] = json.loads(capsys.readouterr().out)
    return state


@pytest.mark.parametrize("variant", list(VARIANTS))
def test_a_game_played_under_each_shipped_variant_replays(
        variant: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "game.json"
    game = _play(monkeypatch, out, variant)
    assert json.loads(out.read_text())["rules"] == variant
    assert _replayed(out, capsys)["text"] == game.to_text()


@pytest.mark.parametrize("chained", [False, True], ids=["file", "file-on-a-file"])
def test_a_game_played_under_a_variant_file_embeds_it_and_replays_anywhere(
        chained: bool, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "mine.toml").write_text(MINE)
    (tmp_path / "theirs.toml").write_text(CHAINED)
    variant = tmp_path / ("theirs.toml" if chained else "mine.toml")
    out = tmp_path / "game.json"
    game = _play(monkeypatch, out, str(variant))
    for toml in tmp_path.glob("*.toml"):  # the record needs no file beside it
        toml.unlink()
    record = json.loads(out.read_text())
    want = {"UNO-1": {"penalty": 1}, **({"SCORE-2": {"score": 200}} if chained else {})}
    assert record["version"] == 2 and record["rules"]["rules"] == want
    assert record["rules"]["name"] == ("theirs" if chained else "mine")
    assert _replayed(out, capsys)["text"] == game.to_text()


def test_play_says_how_to_replay_and_that_command_replays_from_another_folder(
        tmp_path: Path) -> None:
    """The user's path end to end, in processes of its own: the line ``play`` ends with
    is a command that works, run from elsewhere once the variant file is gone."""
    (tmp_path / "mine.toml").write_text(MINE)
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[1])}
    done = subprocess.run(
        [sys.executable, "-m", "unoformal", "play", "--seed", "5", "--rules", "mine.toml",
         "--out", "game.json"], input="1\n" * MOVES, capture_output=True, text=True,
        cwd=tmp_path, env=env, timeout=120, check=False)
    assert done.returncode == 0, done.stderr
    told = done.stdout.splitlines()[-1]
    assert told.endswith("(replay it: unoformal replay game.json)"), told
    (tmp_path / "mine.toml").unlink()
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    again = subprocess.run(
        [sys.executable, "-m", "unoformal", "replay", str(tmp_path / "game.json")],
        capture_output=True, text=True, cwd=elsewhere, env=env, timeout=120, check=False)
    assert again.returncode == 0, again.stderr


@pytest.mark.parametrize("source", [["--games", "1", "--players", "3"],
                                    ["--preset", "micro"]], ids=["games", "preset"])
def test_vectors_of_a_variant_file_pass_the_doc_checker(
        source: list[str], tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "mine.toml").write_text(MINE)
    out = tmp_path / "mine.jsonl"
    assert main(["vectors", *source, "--rules", str(tmp_path / "mine.toml"),
                 "--out", str(out)]) == 0
    (tmp_path / "mine.toml").unlink()  # each line states its variant itself
    lines = out.read_text().splitlines()
    assert lines and json.loads(lines[0])["rules"]["rules"]["UNO-1"] == {"penalty": 1}
    assert _checker()(lines, OurEngine()) == []


def test_a_validate_mismatch_under_a_variant_file_replays(tmp_path: Path) -> None:
    """``validate`` writes the record of an engine-relation mismatch: under a variant of
    the user's own it embeds the variant (its rules.toml beside it for --rules), so
    ``unoformal replay`` reads it, from anywhere."""
    from unoformal.compare.relation.check import Finding
    from unoformal.compare.relation.records import write_mismatch
    from unoformal.compare.relation.run import Mismatch
    from unoformal.engine.record import to_record
    from unoformal.rulebook.variants import load_rules

    (tmp_path / "mine.toml").write_text(MINE)
    rules = load_rules(str(tmp_path / "mine.toml"))
    game = Game(["Ann", "Bob"], seed=1, rules=rules)
    game.apply(game.legal_actions(game.to_play)[0])
    finding = Finding("successor", "Ann draw", "a planted difference", "engine", "relation")
    path = write_mismatch(Mismatch(finding, 2, to_record(game), 1), tmp_path / "m", rules)
    (tmp_path / "mine.toml").unlink()
    assert (tmp_path / "m" / "rules.toml").is_file()
    assert main(["replay", str(path)]) == 0
