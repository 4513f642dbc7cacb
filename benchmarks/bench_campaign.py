"""Campaigns on one worker and on two: the same job, the same output, the wall time of each.

Usage::

    python benchmarks/bench_campaign.py [--repeat 3] [--only simulate,validate]
        [--baseline DIR]

Each job is the command line a user types, run as a process with ``--workers 1`` (this
process alone, no Dask) and with ``--workers 2`` (a local Dask cluster of two worker
processes, its start included in the time), the two interleaved ``--repeat`` times (the
order alternating) so that a change in the machine's load weighs on both alike. Every run's
output must be the same as the first's, byte for byte but for the timing fields: the
figure is only reported for identical results. Wall time is what a user waits; CPU is the
user + system time of the command and every process it waited for (its Dask workers, the
shares' processes).

``--baseline DIR``: also run ``verify`` from the source tree DIR (``git archive`` of an
earlier commit) with its own ``--jobs 2``: the worker pool the campaign replaced.
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

TIMINGS = ('"seconds"', '"cpu_seconds"')


@dataclass
class Job:
    name: str
    argv: list[str]
    env: dict[str, str] = field(default_factory=dict)


@dataclass
class Runs:
    wall: list[float] = field(default_factory=list)
    cpu: list[float] = field(default_factory=list)


def jobs(folder: Path) -> dict[str, Job]:
    log = folder / "rlcard.jsonl"
    return {
        "simulate": Job("simulate", ["simulate", "--games", "8000", "--players", "4",
                                     "--seed", "1", "--json"]),
        "validate": Job("validate", ["validate", "--players", "2-5", "--steps", "4000",
                                     "--json", "--out", str(folder / "mismatch")]),
        "verify": Job("verify", ["verify", "--players", "2-10", "--jobs", "2", "--json",
                                 "--no-witness"]),
        "conform": Job("conform", ["conform", str(log), "--json"]),
    }


def _rlcard_log(folder: Path) -> None:
    """30,000 records of RLCard's games (15,000 at 2 players, 15,000 at 4) to referee:
    enough that two workers pay for their cluster's start."""
    subprocess.run([sys.executable, "-m", "unoformal", "conform", "--engine", "rlcard",
                    "--games", "15000", "--players", "2,4", "--save",
                    str(folder / "rlcard.jsonl")], capture_output=True, check=False)


def _run(argv: list[str], env: dict[str, str]) -> tuple[float, float, str]:
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    # ``python -m`` puts the working directory first on the import path: a baseline tree
    # (PYTHONPATH) is run from itself, or the checkout's package would be measured again
    done = subprocess.run([sys.executable, "-m", "unoformal", *argv], capture_output=True,
                          text=True, env={**os.environ, **env}, check=False,
                          cwd=env.get("PYTHONPATH"))
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode not in (0, 1):
        raise SystemExit(f"{' '.join(argv)}: exit {done.returncode}: {done.stderr[-500:]}")
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu, _without_timings(done.stdout)


def _without_timings(text: str) -> str:
    return "".join(line for line in text.splitlines(keepends=True)
                   if not line.lstrip().startswith(TIMINGS))


def measure(job: Job, settings: dict[str, tuple[list[str], dict[str, str]]],
            repeat: int) -> dict[str, Runs]:
    """Each setting's runs, interleaved; every output the same as the first."""
    runs = {name: Runs() for name in settings}
    first: str | None = None
    names = list(settings)
    for rep in range(repeat):
        for name in names if rep % 2 == 0 else names[::-1]:
            extra, env = settings[name]
            wall, cpu, out = _run(job.argv + extra, {**job.env, **env})
            first = out if first is None else first
            if out != first:
                raise SystemExit(f"{job.name}: {name} gave another result than the first run")
            runs[name].wall.append(wall)
            runs[name].cpu.append(cpu)
    return runs


def report(job: Job, runs: dict[str, Runs]) -> None:
    base = statistics.median(runs["1 worker"].wall)
    print(f"{job.name}: unoformal {' '.join(job.argv)}  (same output in every run)")
    for name, r in runs.items():
        wall = statistics.median(r.wall)
        print(f"  {name:<22} wall {min(r.wall):6.2f}-{max(r.wall):6.2f} s (median "
              f"{wall:6.2f}), CPU median {statistics.median(r.cpu):6.2f} s, "
              f"speed-up {base / wall:4.2f}x")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--only", default="simulate,validate,verify,conform")
    parser.add_argument("--baseline", type=Path, default=None,
                        help="a source tree of an earlier commit, for verify's worker pool")
    args = parser.parse_args(argv)
    load = os.getloadavg()
    print(f"{os.cpu_count()} cores, load average {load[0]:.1f} {load[1]:.1f} {load[2]:.1f}")
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        wanted = args.only.split(",")
        if "conform" in wanted:
            _rlcard_log(folder)
        for name in wanted:
            job = jobs(folder)[name]
            settings: dict[str, tuple[list[str], dict[str, str]]] = {
                "1 worker": (["--workers", "1"], {}),
                "2 workers (Dask)": (["--workers", "2"], {})}
            if name == "verify" and args.baseline is not None:
                settings["2 processes (before)"] = ([], {"PYTHONPATH": str(args.baseline)})
            report(job, measure(job, settings, args.repeat))
    load = os.getloadavg()
    print(f"load average after: {load[0]:.1f} {load[1]:.1f} {load[2]:.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
