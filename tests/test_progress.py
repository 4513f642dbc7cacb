"""Progress bars of the long runs (``unoformal verify``, the engine-vs-Z3 ``crosscheck``):
drawn on a terminal, through a pseudo-terminal here; nothing in a pipe, nor with
``--quiet`` or ``--json``; and the hooks that feed them report the whole run."""

from __future__ import annotations

import os
import pty
import select
import subprocess
import sys

from unoformal.compare.successors import crosscheck
from unoformal.rulebook.table import CLASSIC
from unoformal.verification.z3.properties import property_named
from unoformal.verification.z3.prover import check_suite

VERIFY = ["-m", "unoformal", "verify", "--players", "2,3", "--property", "penalties",
          "--no-witness"]
CROSSCHECK = ["-m", "unoformal.compare.successors", "micro"]


def _on_a_terminal(args: list[str]) -> tuple[int, str]:
    """Run ``python ARGS`` with stdin, stdout and stderr on a pseudo-terminal; all it
    wrote there, and its exit status."""
    main_fd, child_fd = pty.openpty()
    proc = subprocess.Popen([sys.executable, *args], stdin=child_fd, stdout=child_fd,
                            stderr=child_fd, close_fds=True)
    os.close(child_fd)
    got = b""
    try:
        while True:
            ready, _, _ = select.select([main_fd], [], [], 120)
            assert ready, f"no output for 120 s; got {got[-300:]!r}"
            try:
                chunk = os.read(main_fd, 65536)
            except OSError:  # the child closed its end: it has ended
                break
            if not chunk:
                break
            got += chunk
        return proc.wait(timeout=60), got.decode(errors="replace")
    finally:
        if proc.poll() is None:
            proc.kill()
        os.close(main_fd)


def _in_a_pipe(args: list[str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, *args], capture_output=True, text=True,
                          timeout=300, check=False)


def test_verify_shows_progress_on_a_terminal_only() -> None:
    code, seen = _on_a_terminal(VERIFY)
    assert code == 0, seen
    assert "proving:" in seen and "verdicts (properties x player counts) of 2" in seen
    assert "2 verdicts as in the manifest" in seen
    piped = _in_a_pipe(VERIFY)
    assert piped.returncode == 0 and "proving:" not in piped.stdout + piped.stderr
    for quiet in ("--quiet", "--json"):
        code, seen = _on_a_terminal([*VERIFY, quiet])
        assert code == 0 and "proving:" not in seen, seen


def test_crosscheck_shows_progress_on_a_terminal_only() -> None:
    code, seen = _on_a_terminal(CROSSCHECK)
    assert code == 0, seen
    assert "micro: states compared" in seen
    piped = _in_a_pipe(CROSSCHECK)
    assert piped.returncode == 0 and "compared" not in piped.stderr


def test_check_suite_reports_progress_up_to_every_verdict() -> None:
    props = [property_named("penalties"), property_named("two-player-reverse-is-skip")]
    for jobs in (1, 2):
        seen: list[tuple[float, int]] = []
        results = check_suite(CLASSIC, props, [2, 3], jobs=jobs,
                              progress=lambda f, known, seen=seen: seen.append((f, known)))
        fractions = [f for f, _ in seen]
        assert fractions == sorted(fractions) and fractions[0] >= 0 and fractions[-1] == 1.0
        assert seen[-1][1] == len(results) == 4  # each property at each count


def test_crosscheck_reports_every_state_and_deal() -> None:
    seen: list[tuple[str, int, int]] = []
    summary = crosscheck("micro", progress=lambda *step: seen.append(step))
    states = [s for s in seen if s[0] == "states"]
    deals = [s for s in seen if s[0] == "deals"]
    assert len(states) == summary.compared and len(deals) == summary.deals
    assert [done for _, done, _ in states] == list(range(summary.compared))
    assert {total for _, _, total in deals} == {summary.deals}
