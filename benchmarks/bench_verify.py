"""Benchmark of the Z3 suite: wall time of every property for each player count.

Not a test: it prints figures. Usage::

    /tmp/venv/bin/python benchmarks/bench_verify.py [--rules classic] [--players 2-10]
        [--timeout 5000] [--mutants]

Targets (the issue): the full suite for 2..10 players in at most 10 s; each
mutant's counterexample in at most 5 s.
"""

from __future__ import annotations

import argparse
import time

from unoformal.spec.variants import load_rules
from unoformal.verification.z3.manifest import mutants
from unoformal.verification.z3.properties import PROPERTIES, property_named
from unoformal.verification.z3.prover import check


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rules", default="classic")
    parser.add_argument("--players", default="2-10")
    parser.add_argument("--timeout", type=int, default=5000)
    parser.add_argument("--mutants", action="store_true",
                        help="also time the manifest's mutants' counterexamples")
    args = parser.parse_args()
    rules = load_rules(args.rules)
    lo, _, hi = args.players.partition("-")
    counts = range(int(lo), int(hi or lo) + 1)
    per_prop: dict[str, float] = {}
    start = time.perf_counter()
    for n in counts:
        t_n = time.perf_counter()
        for prop in PROPERTIES:
            if not prop.players(n):
                continue
            r = check(rules, prop, n, args.timeout)
            per_prop[prop.name] = per_prop.get(prop.name, 0.0) + r.seconds
            print(f"{n:2d}  {prop.name:28s} {r.verdict:8s} {r.seconds:7.2f}s", flush=True)
        print(f"{n:2d}  all properties                        {time.perf_counter() - t_n:7.2f}s",
              flush=True)
    print(f"\nsuite {args.rules} players {args.players}: {time.perf_counter() - start:.2f}s")
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
