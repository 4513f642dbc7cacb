"""Benchmark of the Z3 suite: wall time of every property for each player count.

Not a test: it prints figures. Usage::

    /tmp/venv/bin/python benchmarks/bench_verify.py [--rules classic] [--players 2-10]
        [--timeout 5000] [--jobs 2] [--mutants]

Targets (the issue): the full suite for 2..10 players in at most 10 s; each
mutant's counterexample in at most 5 s.
"""

from __future__ import annotations

import argparse
import time

from unoformal.spec.variants import load_rules
from unoformal.verification.z3.manifest import mutants
from unoformal.verification.z3.properties import PROPERTIES, property_named
from unoformal.verification.z3.prover import check, check_suite


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rules", default="classic")
    parser.add_argument("--players", default="2-10")
    parser.add_argument("--timeout", type=int, default=5000)
    parser.add_argument("--jobs", type=int, default=2,
                        help="worker processes (one player count each)")
    parser.add_argument("--mutants", action="store_true",
                        help="also time the manifest's mutants' counterexamples")
    args = parser.parse_args()
    rules = load_rules(args.rules)
    lo, _, hi = args.players.partition("-")
    counts = range(int(lo), int(hi or lo) + 1)
    per_prop: dict[str, float] = {}
    per_count: dict[int, float] = {}
    start = time.perf_counter()
    results = check_suite(rules, PROPERTIES, list(counts), args.timeout, args.jobs)
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
    if args.mutants:
        from unoformal.spec.table import CLASSIC
        from unoformal.spec.variants import derive
        for m in mutants():
            table = derive(CLASSIC, m["name"], "", {m["rule"]: m["values"]})
            r = check(table, property_named(m["killed_by"]), 2, args.timeout)
            print(f"mutant {m['name']:26s} {r.verdict:8s} {r.seconds:6.2f}s ({m['killed_by']})")


if __name__ == "__main__":
    main()
