"""Benchmark of the Z3 suite: wall time of every property for each player count.

Not a test: it prints figures. Usage::

    python benchmarks/bench_verify.py [--rules classic] [--players 2-10]
        [--timeout 5000] [--jobs 2] [--alone] [--mutants] [--mutant-players 2,3] [--no-suite]

Targets (the issue): the full suite for 2..10 players in at most 10 s; each
mutant's counterexample in at most 5 s. The suite is run as ``unoformal verify`` runs
it (``check_suite``: every property's query about one action asked together, about
every player count of a worker at once; a property's time is its share, split evenly
among the counts); ``--alone`` also times each property checked on its
own (``check``, one process), the figure to compare properties by. ``--mutants`` runs
every mutant of the table (``unoformal verify --mutants``, in one process) and prints
each one's time to kill, then the maximum, the median and the mutants over 5 s.
"""

from __future__ import annotations

import argparse
import statistics
import time

from unoformal.rulebook.table import RuleTable
from unoformal.rulebook.variants import load_rules
from unoformal.verification.z3.mutants import Outcome, run
from unoformal.verification.z3.properties import PROPERTIES
from unoformal.verification.z3.prover import check, check_suite

TARGET_KILL_S = 5.0


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rules", default="classic")
    parser.add_argument("--players", default="2-10")
    parser.add_argument("--timeout", type=int, default=5000)
    parser.add_argument("--jobs", type=int, default=2,
                        help="worker processes (each a run of neighbouring player counts, "
                             "asked about at once)")
    parser.add_argument("--mutants", action="store_true",
                        help="also time every mutant's counterexample (unoformal verify "
                             "--mutants)")
    parser.add_argument("--mutant-players", default="2,3",
                        help="player counts the mutants are checked with (as the command)")
    parser.add_argument("--alone", action="store_true",
                        help="also time each property checked on its own (one process)")
    parser.add_argument("--no-suite", action="store_true", help="only the mutants")
    parser.add_argument("--no-vacuity", action="store_true",
                        help="skip the vacuity checks (the figure before they were added)")
    args = parser.parse_args()
    rules = load_rules(args.rules)
    if not args.no_suite:
        _suite(rules, args)
    if args.alone:
        _alone(rules, args)
    if args.mutants:
        _mutants(rules, tuple(int(n) for n in args.mutant_players.split(",")), args.timeout)


def _suite(rules: RuleTable, args: argparse.Namespace) -> None:
    counts = _counts(args.players)
    per_prop: dict[str, float] = {}
    per_count: dict[int, float] = {}
    start = time.perf_counter()
    results = check_suite(rules, PROPERTIES, list(counts), args.timeout, args.jobs,
                          vacuity=not args.no_vacuity)
    wall = time.perf_counter() - start
    for r in results:
        per_prop[r.prop.name] = per_prop.get(r.prop.name, 0.0) + r.seconds
        per_count[r.n] = per_count.get(r.n, 0.0) + r.seconds
        print(f"{r.n:2d}  {r.prop.name:28s} {r.verdict:8s} {r.seconds:7.2f}s")
    for n, seconds in per_count.items():
        print(f"{n:2d}  all properties (sum of checks)       {seconds:7.2f}s")
    print(f"\nsuite {args.rules} players {args.players}, {args.jobs} jobs: {wall:.2f}s wall")
    for name, seconds in per_prop.items():
        print(f"  {name:28s} {seconds:7.2f}s")


def _alone(rules: RuleTable, args: argparse.Namespace) -> None:
    """Each property checked on its own, as ``unoformal verify --property NAME`` would
    not (that one also asks together): its own time, without sharing any query."""
    per_prop: dict[str, float] = {}
    start = time.perf_counter()
    for n in _counts(args.players):
        for prop in PROPERTIES:
            if prop.players(n):
                r = check(rules, prop, n, args.timeout)
                per_prop[prop.name] = per_prop.get(prop.name, 0.0) + r.seconds
    print(f"\neach property alone, players {args.players}, one process: "
          f"{time.perf_counter() - start:.2f}s")
    for name, seconds in per_prop.items():
        print(f"  {name:28s} {seconds:7.2f}s")


def _counts(players: str) -> range:
    lo, _, hi = players.partition("-")
    return range(int(lo), int(hi or lo) + 1)


def _mutants(rules: RuleTable, players: tuple[int, ...], timeout_ms: int) -> None:
    """Every mutant's time to kill (the issue's 5 s target), in the runner's order."""
    def done(o: Outcome) -> None:
        what = o.killed_by or (f"equivalent: {o.equivalent}" if o.equivalent else "SURVIVED")
        print(f"mutant {o.mutant.name:45s} {o.seconds:6.2f}s {what}", flush=True)

    start = time.perf_counter()
    outcomes = run(rules, players, timeout_ms, done)
    killed = [o for o in outcomes if o.killed_by is not None]
    seconds = [o.seconds for o in killed]
    slow = [o.mutant.name for o in killed if o.seconds > TARGET_KILL_S]
    survivors = [o.mutant.name for o in outcomes if o.killed_by is None and not o.equivalent]
    print(f"\nmutants of {rules.name}, players {players}: {len(outcomes)} in "
          f"{time.perf_counter() - start:.1f}s; {len(killed)} killed, "
          f"{len(outcomes) - len(killed) - len(survivors)} equivalent, "
          f"{len(survivors)} survived {survivors}")
    if seconds:
        print(f"time to kill: max {max(seconds):.2f}s, median {statistics.median(seconds):.2f}s; "
              f"{len(slow)} over {TARGET_KILL_S:g}s {slow}")


if __name__ == "__main__":
    main()
