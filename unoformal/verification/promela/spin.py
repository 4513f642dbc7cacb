"""Run Spin on a program of :mod:`.model`: ``spin -a``, ``gcc`` and ``pan`` with full
state storage (no partial-order reduction: ``-DNOREDUCE``; a safety search:
``-DSAFETY``), and read its count of distinct states and its memory.

Spin's own optimisations are off (``-o1 -o2 -o3``): its dead-variable elimination would
reset a variable no option reads, which can merge states (the count is then no longer of
the states the program holds), and with them on ``spin -a`` takes time quadratic in the
number of options."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from dataclasses import dataclass
from pathlib import Path

from unoformal.verification.promela.context import PromelaError

SPIN_FLAGS = ("-o1", "-o2", "-o3", "-a")
CC_FLAGS = ("-DNOREDUCE", "-DSAFETY", "-w")
# pan's stack, allocated at its start: a depth-first search goes at most as deep as there
# are states, far less in these graphs; pan says when it is too small
DEPTH = 1_000_000


@dataclass(frozen=True)
class SpinCount:
    """What pan reports: distinct states stored, the bytes of one state vector, the
    memory its states took (MB), and the seconds each tool spent (CPU, this run)."""

    states: int
    vector_bytes: int
    state_mb: float
    build_seconds: float
    search_seconds: float


def missing() -> str | None:
    """Why Spin cannot run here (a tool not on the PATH), or None."""
    for tool in ("spin", "gcc"):
        if shutil.which(tool) is None:
            return f"{tool} is not installed (Debian: apt-get install spin gcc)"
    return None


def _run(argv: list[str], cwd: Path, what: str) -> str:
    done = subprocess.run(argv, cwd=cwd, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        said = (done.stderr or done.stdout).strip().splitlines()
        raise PromelaError(f"{what} failed: {said[0] if said else 'no output'}")
    return done.stdout


def _children_cpu() -> float:
    t = os.times()
    return t.children_user + t.children_system


def count(program: str, workdir: Path, optimize: str = "-O0", hash_bits: int = 20,
          depth: int = DEPTH) -> SpinCount:
    """Spin's count of the states of ``program``, built and searched in ``workdir``:
    ``optimize`` is gcc's level for pan (its build takes longer than a small search),
    ``hash_bits`` the log2 of pan's hash table's slots (more states than slots stay
    exact, only slower) and ``depth`` pan's stack."""
    why = missing()
    if why is not None:
        raise PromelaError(why)
    workdir.mkdir(parents=True, exist_ok=True)
    (workdir / "model.pml").write_text(program)
    start = _children_cpu()
    _run(["spin", *SPIN_FLAGS, "model.pml"], workdir, "spin -a")
    _run(["gcc", *CC_FLAGS, optimize, "-o", "pan", "pan.c"], workdir, "gcc")
    built = _children_cpu()
    out = _run(["./pan", f"-m{depth}", f"-w{hash_bits}"], workdir, "pan")
    searched = _children_cpu()
    if "max search depth too small" in out:
        raise PromelaError(f"pan's depth {depth:,} is too small for this model")
    # pan stops at its first error (an index out of range, a d_step that blocks): its
    # count is then of part of the graph only
    if _number(r"errors: (\d+)", out):
        said = [line for line in out.splitlines() if line.startswith("pan:")]
        raise PromelaError(f"pan stopped at an error: {said[0] if said else 'see pan'}")
    return SpinCount(_number(r"(\d+) states, stored", out),
                     _number(r"State-vector (\d+) byte", out),
                     _real(r"([\d.]+)\s+equivalent memory usage for states", out),
                     built - start, searched - built)


def _number(pattern: str, text: str) -> int:
    found = re.search(pattern, text)
    if found is None:
        raise PromelaError(f"pan's report has no {pattern!r}")
    return int(found.group(1))


def _real(pattern: str, text: str) -> float:
    found = re.search(pattern, text)
    if found is None:
        raise PromelaError(f"pan's report has no {pattern!r}")
    return float(found.group(1))
