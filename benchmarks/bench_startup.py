"""Start-up CPU of the command line: each command run in a fresh interpreter, the CPU
time (user + system) of the child process, median of several runs, beside a bare
``python -c pass`` and ``verify --help`` (which loads Z3) measured in the same run.

    python benchmarks/bench_startup.py [--runs 9]

Target: at most 0.15 s of CPU for ``rules``, ``replay`` and ``simulate``.
"""

from __future__ import annotations

import argparse
import resource
import statistics
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
RECORD = ROOT / "tests" / "records" / "seed002_whole_game.json"
UNO = [sys.executable, "-m", "unoformal"]
CASES = {
    "python -c pass": [sys.executable, "-c", "pass"],
    "unoformal --help": [*UNO, "--help"],
    "unoformal rules": [*UNO, "rules"],
    "unoformal replay RECORD": [*UNO, "replay", str(RECORD)],
    "unoformal simulate --games 1": [*UNO, "simulate", "--games", "1", "--players", "2"],
    "unoformal verify --help (loads Z3)": [*UNO, "verify", "--help"],
    "unoformal explore --help (loads networkx)": [*UNO, "explore", "--help"],
}


def cpu(argv: list[str]) -> float:
    """CPU seconds (user + system) the child spent."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=9)
    args = parser.parse_args()
    times: dict[str, list[float]] = {name: [] for name in CASES}
    for _ in range(args.runs):  # interleaved, so load changes hit every case alike
        for name, argv in CASES.items():
            times[name].append(cpu(argv))
    print(f"{'command':45} {'median CPU':>10} {'min':>7} {'max':>7}  ({args.runs} runs)")
    for name, values in times.items():
        print(f"{name:45} {statistics.median(values):9.3f}s {min(values):6.3f}s "
              f"{max(values):6.3f}s")


if __name__ == "__main__":
    main()
