"""The hostile inputs issue 24 reported on the newer surfaces (the referee, ``play``,
``conform``, outputs that cannot be written), pinned: each refused cleanly, in one line,
or accepted and consistent."""

from __future__ import annotations

import json
import resource
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from unoformal.inputs import MAX_FILE_BYTES

from .families import BASE_RECORDS, run_cli

UNOFORMAL = [sys.executable, "-m", "unoformal"]
# A hang guard, not a timing: before the depth check was linear these took hours.
HANG = 60


def _referee(data: bytes) -> list[dict[str, Any]]:
    done = subprocess.run([*UNOFORMAL, "referee"], input=data, capture_output=True,
                          timeout=HANG, check=True)
    assert done.stderr == b""
    return [json.loads(line) for line in done.stdout.splitlines()]


def test_a_line_cut_off_in_escaped_quotes_is_answered_at_once() -> None:
    line = b'{"cmd": "state", "id": "' + b'\\"' * 500_000 + b"\n"
    (answer,) = _referee(line)
    assert answer["ok"] is False and "not valid JSON" in str(answer["error"])


def test_a_record_of_escaped_quotes_is_refused_by_replay(tmp_path: Path) -> None:
    path = tmp_path / "r.json"
    path.write_bytes(b'{"players": ["' + b'\\"' * 500_000)
    run = run_cli(["replay", str(path)])
    assert run.code == 2 and "not valid JSON" in run.err and run.err.count("\n") == 1


def _capped(memory_bytes: int) -> Callable[[], None]:
    def cap() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (memory_bytes, memory_bytes))
    return cap


def test_conform_refuses_a_link_to_dev_zero_without_reading_it(tmp_path: Path) -> None:
    # Under a 400 MB address-space cap: reading the link's one endless line would end in
    # MemoryError (it did before conform read lines in bounded pieces).
    (tmp_path / "z.jsonl").symlink_to("/dev/zero")
    done = subprocess.run([*UNOFORMAL, "conform", str(tmp_path / "z.jsonl")],
                          capture_output=True, text=True, timeout=HANG,
                          preexec_fn=_capped(400 * 2**20))
    assert done.returncode == 1 and "Traceback" not in done.stderr
    assert f"malformed: {tmp_path / 'z.jsonl'}: not a regular file" in done.stdout


def test_conform_refuses_a_line_over_the_limit_and_goes_on(tmp_path: Path) -> None:
    path = tmp_path / "big.jsonl"
    record = json.dumps(BASE_RECORDS[1]).encode()
    path.write_bytes(b"x" * (MAX_FILE_BYTES + 10) + b"\n \t\r\n" + record + b"\n\x0c\n")
    tally = json.loads(run_cli(["conform", str(path), "--json"]).out)
    assert (tally["games"], tally["clean"], tally["malformed"]) == (3, 1, 2)
    assert tally["malformed_examples"][0] == f"{path}:1: a line longer than 4,194,304 bytes"
    assert tally["malformed_examples"][1].startswith(f"{path}:4: not valid JSON")


def test_every_referee_line_is_answered_once_an_empty_one_with_an_error() -> None:
    lines = [b"", b" \t\r", b"\x0c", "\x85".encode(), "\xa0".encode(), "\u2028".encode(),
             b"\xff", b'{"cmd": "quit"}']
    answers = _referee(b"\n".join(lines) + b"\n")
    assert len(answers) == len(lines) and answers[-1]["ok"] is True
    errors = [a["error"] for a in answers[:-1]]
    assert all(e["source"] == f"line {i}" for i, e in enumerate(errors, start=1))
    words = [str(e["message"]).split(":")[0] for e in errors]
    assert words == ["an empty line"] * 2 + ["not valid JSON"] * 4 + ["not UTF-8 text (byte 0)"]
