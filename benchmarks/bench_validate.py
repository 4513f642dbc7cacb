"""Validated steps per CPU second (``unoformal validate``), beside the bare engine.

Each step is checked three ways: the engine's legal set (every player's) against the
guards of the compiled relation, ``apply``'s refusals against the same guards, and the
successor against the relation's update with the engine's own draws. The baseline is the
relation's compile time, reported apart: the first run at a player count compiles what it
asks (once per process), the second, on the same games, is timed.

    python benchmarks/bench_validate.py                 # 2, 4 and 10 players, 6,000 steps
    python benchmarks/bench_validate.py --players 4 --steps 20000
"""

from __future__ import annotations

import argparse

from unoformal.compare.relation.run import validate
from unoformal.rulebook.variants import load_rules


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--players", default="2,4,10")
    parser.add_argument("--steps", type=int, default=6000)
    parser.add_argument("--rules", default="classic")
    args = parser.parse_args()
    rules = load_rules(args.rules)
    print(f"{'players':>7} {'compile CPU s':>13} {'validated steps/CPU s':>22} "
          f"{'without refusals':>17} {'policy':>30}")
    for n in (int(x) for x in args.players.split(",")):
        first = validate(rules, [n], steps=args.steps)
        full = validate(rules, [n], steps=args.steps)
        lean = validate(rules, [n], steps=args.steps, refusals=False)
        compile_s = first.cpu - full.cpu
        rate = args.steps / full.cpu
        lean_rate = args.steps / lean.cpu
        print(f"{n:>7} {compile_s:>13.2f} {rate:>22,.0f} {lean_rate:>17,.0f} "
              f"{'validate bots (greedy mix)':>30}")


if __name__ == "__main__":
    main()
