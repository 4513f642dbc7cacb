"""``unoformal conform``: many records in one process, first deviations by cause rule ID,
bad records counted as malformed, never a traceback."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest

from tests.compare.helpers import record
from unoformal.commands.cli import main

P0, P1 = "P0", "P1"


def _reverse(then: str) -> dict[str, Any]:
    """P0 plays a Reverse (a Skip with 2 players, TWO-1); then ``then`` moves."""
    return record({P0: ["RR", "R1"], P1: ["R2"]}, ["R7"], [
        {"player": P0, "action": "play", "card": "RR"},
        {"player": then, "action": "play", "card": "R1" if then == P0 else "R2"}])


def _write(folder: Path) -> None:
    (folder / "a.json").write_text(json.dumps(_reverse(P0)))       # clean
    (folder / "b.json").write_text(json.dumps(_reverse(P1)))       # TWO-1
    long = _reverse(P1)
    long["actions"].insert(0, {"player": P0, "action": "uno"})     # refused, no cause: UNO-1
    lines = [json.dumps(_reverse(P1)), "not json", json.dumps({"players": 3}),
             json.dumps(long), ""]
    (folder / "c.jsonl").write_text("\n".join(lines) + "\n\xff\n", encoding="latin-1")


def test_conform_counts_first_deviations_by_cause(tmp_path: Path,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    _write(tmp_path)
    assert main(["conform", str(tmp_path), "--json"]) == 1
    out = json.loads(capsys.readouterr().out)
    assert out["games"] == 7 and out["clean"] == 1 and out["malformed"] == 3
    assert out["deviations"] == {"TWO-1": 2, "UNO-1": 1}
    example = out["examples"]["TWO-1"]
    assert len(example["actions"]) == 2
    assert out["explanations"]["TWO-1"]["causes"] == ["TWO-1"]
    assert any(":2:" in line and "JSON" in line for line in out["malformed_examples"])


def test_conform_table_and_exit_codes(tmp_path: Path,
                                      capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "a.json").write_text(json.dumps(_reverse(P0)))
    assert main(["conform", str(tmp_path / "a.json")]) == 0
    assert "1 games: 1 clean" in capsys.readouterr().out
    (tmp_path / "b.json").write_text(json.dumps(_reverse(P1)))
    assert main(["conform", str(tmp_path)]) == 1
    out = capsys.readouterr().out
    assert "TWO-1" in out and "b.json actions[1]" in out
    assert main(["conform", str(tmp_path / "missing")]) == 2
    assert "no such file" in capsys.readouterr().err
    assert main(["conform"]) == 2
    assert main(["conform", "--engine", "rlcard", "--players", "2,11"]) == 2
    assert "DECK-2" in capsys.readouterr().err


def test_conform_runs_rlcard(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    pytest.importorskip("rlcard")
    save = tmp_path / "games.jsonl"
    code = main(["conform", "--engine", "rlcard", "--games", "15", "--players", "2,4",
                 "--seed", "1", "--json", "--save", str(save)])
    out = json.loads(capsys.readouterr().out)
    assert code == 1 and out["games"] == 30 and out["malformed"] == 0
    assert "PLAY-1" not in out["deviations"]
    # The saved log referees the same way from the file.
    assert main(["conform", str(save), "--json"]) == 1
    assert json.loads(capsys.readouterr().out)["deviations"] == out["deviations"]


def _named(found: Any) -> list[tuple[str, Any]]:
    return [(where, str(raw) if isinstance(raw, Exception) else raw) for where, raw in found]


def test_a_jsonl_file_cut_into_pieces_reads_as_the_whole_file(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # conform's tasks read their own pieces of a large file (unoformal.compare.records):
    # every cut must give the same records, named by the same line numbers, as the file
    # read whole, whatever its lines (blank, not UTF-8, longer than a line may be, the
    # last without its newline).
    from unoformal import inputs
    from unoformal.compare import records

    monkeypatch.setattr(inputs, "MAX_FILE_BYTES", 40)  # a line of 41 bytes is too long
    rng = random.Random(0)
    for trial in range(60):
        lines = [rng.choice([b"", b"  ", b"\xff", b"[1]", b"x" * 39, b"x" * 40, b"x" * 41,
                             b'{"a": ' + b"1" * rng.randint(1, 30) + b"}", b"y" * 120])
                 for _ in range(rng.randint(0, 12))]
        path = tmp_path / f"t{trial}.jsonl"
        path.write_bytes(b"\n".join(lines) + (b"\n" if trial % 2 else b""))
        whole = _named(records.raw_records([str(path)]))
        [piece] = records.pieces([str(path)])
        for most in (1, 3, 40, 41, 90, 10_000):
            parts = records.split(piece, most)
            assert _named(r for p in parts for r in records.read_piece(p)) == whole
            assert sum(p.size for p in parts) == piece.size
            assert len(parts) == 1 or all(p.size >= most for p in parts[:-1])
