"""An input that is not a regular file (a named pipe nobody writes to) is refused before
it is opened, by every command that reads input files: opening a FIFO for reading waits
for a writer, for ever. Each command runs as a process with a timeout, so a hang fails
the test rather than hanging the suite."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from unoformal.errors import InvalidInputError
from unoformal.inputs import open_input, read_text

from .helpers import SEED002

TIMEOUT = 60.0  # seconds: a loaded machine starts Python slowly; a hang is for ever


def _run(*argv: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    try:
        return subprocess.run([sys.executable, "-m", "unoformal", *argv], cwd=cwd,
                              capture_output=True, text=True, timeout=TIMEOUT,
                              stdin=subprocess.DEVNULL)
    except subprocess.TimeoutExpired:
        raise AssertionError(f"unoformal {' '.join(argv)} hung on a FIFO") from None


def _fifo(path: Path) -> Path:
    os.mkfifo(path)
    return path


def _mismatch_folder(tmp: Path, fifo_name: str) -> Path:
    folder = tmp / "mismatch-0"
    folder.mkdir()
    for name in ("record.json", "mismatch.txt"):
        if name == fifo_name:
            _fifo(folder / name)
        else:
            (folder / name).write_text(SEED002.read_text() if name == "record.json"
                                       else "the successors differ\n")
    return folder


CASES = {
    "show a FIFO": lambda t: ["show", str(_fifo(t / "r.json")), "--out", str(t / "p.html")],
    "show a mismatch folder's description": lambda t: [
        "show", str(_mismatch_folder(t, "mismatch.txt")), "--out", str(t / "p.html")],
    "show a mismatch folder's record named": lambda t: [
        "show", str(_mismatch_folder(t, "mismatch.txt") / "record.json"),
        "--out", str(t / "p.html")],
    "show --rules a FIFO": lambda t: ["show", str(SEED002), "--rules",
                                      str(_fifo(t / "v.toml")), "--out", str(t / "p.html")],
    "replay a FIFO": lambda t: ["replay", str(_fifo(t / "r.json"))],
    "replay --rules a FIFO": lambda t: ["replay", str(SEED002), "--rules",
                                        str(_fifo(t / "v.toml"))],
    "conform a FIFO": lambda t: ["conform", str(_fifo(t / "r.json")), "--workers", "1"],
    "conform a FIFO of lines": lambda t: ["conform", str(_fifo(t / "r.jsonl")),
                                          "--workers", "1"],
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_a_fifo_input_is_refused_unopened(tmp_path: Path, case: str) -> None:
    done = _run(*CASES[case](tmp_path), cwd=tmp_path)
    assert "Traceback" not in done.stderr, done.stderr
    assert done.returncode in (1, 2), done.stderr  # conform counts it malformed: 1
    assert "not a regular file" in done.stdout + done.stderr, (done.stdout, done.stderr)
    assert not (tmp_path / "p.html").exists()


def test_a_record_naming_a_fifo_as_its_variant_is_refused_unopened(tmp_path: Path) -> None:
    record = json.loads(SEED002.read_text())
    record["rules"] = str(_fifo(tmp_path / "v.toml"))
    (tmp_path / "r.json").write_text(json.dumps(record))
    done = _run("replay", str(tmp_path / "r.json"), cwd=tmp_path)
    assert done.returncode == 2 and "not a regular file" in done.stderr, done.stderr


def test_a_base_variant_that_is_a_fifo_is_refused_unopened(tmp_path: Path) -> None:
    _fifo(tmp_path / "base.toml")
    (tmp_path / "v.toml").write_text('name = "v"\nbase = "base.toml"\n')
    done = _run("replay", str(SEED002), "--rules", str(tmp_path / "v.toml"), cwd=tmp_path)
    assert done.returncode == 2 and "not a regular file" in done.stderr, done.stderr


def test_the_one_check_refuses_before_opening(tmp_path: Path,
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    """In-process: the FIFO is never opened (either way of opening it fails the test at
    once, where a real open would block it)."""
    fifo = _fifo(tmp_path / "r.json")

    def never(*args: object, **kwargs: object) -> None:
        raise AssertionError(f"opened {args[0]!r}")

    for name in ("builtins.open", "os.open", "io.open"):
        monkeypatch.setattr(name, never)
    for read in (lambda: read_text(fifo, "record"), lambda: open_input(fifo, "record")):
        with pytest.raises(InvalidInputError, match="not a regular file"):
            read()
    with pytest.raises(InvalidInputError, match="is a directory"):
        read_text(tmp_path, "record")
    monkeypatch.undo()
    with open_input(SEED002, "record") as handle:
        assert handle.read(1) == b"{"
