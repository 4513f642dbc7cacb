"""The hostile inputs issue 24 reported on the newer surfaces (the referee, ``play``,
``conform``, outputs that cannot be written), pinned: each refused cleanly, in one line,
or accepted and consistent."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from .families import run_cli

UNOFORMAL = [sys.executable, "-m", "unoformal"]
# A hang guard, not a timing: before the depth check was linear these took hours.
HANG = 60


def _referee(data: bytes) -> list[dict[str, object]]:
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
