"""Benchmark of the state-graph explorer: distinct states per second and peak memory.

    /tmp/venv/bin/python benchmarks/bench_explore.py [PRESET ...] [--symmetry]

Each preset runs in a fresh process (so peak memory is its own). Not a test: the
figures depend on the machine; docs/explorer.md records the last ones.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time

from unoformal.verification.explore.presets import PRESETS


def one(name: str, symmetry: bool) -> dict[str, object]:
    from unoformal.verification.explore.analysis import analyse
    from unoformal.verification.explore.graph import Config, explore
    from unoformal.verification.explore.presets import small_rules

    preset = PRESETS[name]
    cfg = Config(small_rules(preset.size, name=name), tuple(preset.size.players_list()), name,
                 symmetry, preset.size.penalties, memory_budget=16 << 30)
    cpu = time.process_time()
    graph = explore(cfg)
    cpu = time.process_time() - cpu
    found = analyse(graph)
    return {"preset": name, "symmetry": symmetry, "complete": graph.complete,
            "states": graph.states, "edges": graph.edges, "seconds": round(graph.seconds, 1),
            "states_per_second": round(graph.states / graph.seconds),
            "cpu_seconds": round(cpu, 1), "states_per_cpu_second": round(graph.states / cpu),
            "edges_per_second": round(graph.edges / graph.seconds),
            "peak_mib": round(graph.peak_bytes / (1 << 20)),
            "stuck": len(found.stuck), "no_round_end": len(found.doomed),
            "endless": found.cycle is not None}


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("presets", nargs="*", default=list(PRESETS))
    parser.add_argument("--symmetry", action="store_true")
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    # wall-clock rates depend on what else the machine runs; the CPU-time rate does not
    if args.child:
        print(json.dumps(one(args.presets[0], args.symmetry)))
        return
    for name in args.presets:
        cmd = [sys.executable, __file__, name, "--child"] + (["--symmetry"] if args.symmetry
                                                              else [])
        out = subprocess.run(cmd, capture_output=True, text=True, check=True).stdout
        print(out.strip(), flush=True)


if __name__ == "__main__":
    main()
