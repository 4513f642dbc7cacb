"""Benchmark of the search from a deal: for each refutation the manifest expects of the
shipped variants, which player counts a game reaches, at what depth, and the time.

Not a test: it prints figures. Usage::

    python benchmarks/bench_reach.py [--rules stacking,rlcard] [--players 2-10]
        [--depth 3]

Each (variant, property) is searched as ``unoformal verify`` searches it
(:func:`unoformal.verification.z3.reach.search`, one count at a time, smallest first,
its time budget for all the counts together), at the counts the manifest expects it
refuted and ``--players`` allows. A line per count: reached (the depth, the query), or
not, and why (no run within the bound, a time-out, the budget, a run the engine refused).
"""

from __future__ import annotations

import argparse
import time

from unoformal.rulebook.variants import load_rules
from unoformal.verification.z3.manifest import load, variants_of
from unoformal.verification.z3.properties import property_named
from unoformal.verification.z3.reach import DEFAULT_DEPTH, search


def _counts(text: str) -> set[int]:
    lo, _, hi = text.partition("-")
    return set(range(int(lo), int(hi or lo) + 1))


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rules", default=None, help="variants, comma-separated (default all)")
    parser.add_argument("--players", default="2-10")
    parser.add_argument("--depth", type=int, default=DEFAULT_DEPTH)
    args = parser.parse_args()
    wanted = None if args.rules is None else set(args.rules.split(","))
    allowed = _counts(args.players)
    reached = total = 0
    start = time.perf_counter()
    for entry in load()["expect"]:
        if entry["verdict"] != "refuted":
            continue
        for variant in variants_of(entry):
            counts = sorted(_counts(entry["players"]) & allowed)
            if not counts or (wanted is not None and variant not in wanted):
                continue
            table = load_rules(variant)
            began = time.perf_counter()
            found = search(table, property_named(entry["property"], table), counts,
                           args.depth)
            print(f"{variant:13} {entry['property']:28} {time.perf_counter() - began:6.1f}s",
                  flush=True)
            for n, reach in sorted(found.items()):
                total += 1
                reached += reach.reached
                what = (f"reached at depth {reach.depth} ({reach.label})" if reach.reached
                        else f"not reached: {reach.why}")
                print(f"  {n:2} players {reach.seconds:6.1f}s  {what}", flush=True)
    print(f"{reached} of {total} refutations reached from a deal within {args.depth} "
          f"step(s), in {time.perf_counter() - start:.0f} s")


if __name__ == "__main__":
    main()
