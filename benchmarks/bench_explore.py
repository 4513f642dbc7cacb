"""Benchmark of the state-graph explorer: distinct states per second and peak memory.

    python benchmarks/bench_explore.py [PRESET ...] [--symmetry] [--baseline REV]

Each preset runs in a fresh process (so peak memory is its own). Not a test: the
figures depend on the machine; docs/explorer.md records the last ones.

Baseline, measured in the same run: the same breadth-first search replayed over the
finished graph's own successor lists (no engine, no labels: only the index, the
parent/depth arrays and the edge arrays). Its rate is the ceiling any explorer with
this bookkeeping in CPython can reach; ``of_ceiling`` is the engine-driven rate over it.

``--baseline REV`` also explores each preset with the explorer and engine of git revision
``REV`` (its ``unoformal`` package from ``git archive``, first on the child's path), the
two runs in turn, so the share of the ceiling before and after comes from the same run.
"""

from __future__ import annotations

import argparse
import gc
import io
import json
import os
import subprocess
import sys
import tarfile
import tempfile
import time
from pathlib import Path

from unoformal.verification.explore.graph import StateGraph
from unoformal.verification.explore.presets import PRESETS


def bookkeeping_rate(graph: StateGraph) -> float:
    """States per CPU second of a BFS that only does the graph's bookkeeping."""
    from array import array
    keys = graph.keys
    succ: dict[bytes, list[tuple[int, bytes]]] = {k: [] for k in keys}
    for e in range(graph.edges):
        succ[keys[graph.src[e]]].append((graph.act[e], keys[graph.dst[e]]))
    roots = [keys[sid] for sid in graph.roots]
    gc.disable()  # as the explorer runs: no cycle collector walking the graph
    cpu = time.process_time()
    seen: list[bytes] = []
    index: dict[bytes, int] = {}
    parent, depth, src, dst = array("i"), array("i"), array("i"), array("i")
    act, phase = bytearray(), bytearray()
    for k in roots:
        index[k] = len(seen)
        seen.append(k)
        parent.append(-1)
        depth.append(0)
        phase.append(0)
    frontier, level = roots, 0
    while frontier:
        nxt = []
        for k in frontier:
            sid = index[k]
            for a, child in succ[k]:
                cid = index.get(child)
                if cid is None:
                    cid = index[child] = len(seen)
                    seen.append(child)
                    parent.append(sid)
                    depth.append(level + 1)
                    phase.append(0)
                    nxt.append(child)
                src.append(sid)
                dst.append(cid)
                act.append(a)
        frontier, level = nxt, level + 1
    cpu = time.process_time() - cpu
    gc.enable()
    assert len(seen) == graph.states and len(src) == graph.edges
    return len(seen) / cpu


def one(name: str, symmetry: bool) -> dict[str, object]:
    from unoformal.verification.explore.analysis import analyse
    from unoformal.verification.explore.graph import explore, preset_config

    cfg = preset_config(name, symmetry, memory_budget=16 << 30)
    cpu = time.process_time()
    graph = explore(cfg)
    cpu = time.process_time() - cpu
    found = analyse(graph)
    ceiling = bookkeeping_rate(graph) if graph.complete else 0.0
    return {"preset": name, "symmetry": symmetry, "complete": graph.complete,
            "states": graph.states, "edges": graph.edges, "seconds": round(graph.seconds, 1),
            "states_per_second": round(graph.states / graph.seconds),
            "cpu_seconds": round(cpu, 1), "states_per_cpu_second": round(graph.states / cpu),
            "bookkeeping_only_states_per_cpu_second": round(ceiling),
            "of_ceiling": round(graph.states / cpu / ceiling, 3) if ceiling else None,
            "edges_per_second": round(graph.edges / graph.seconds),
            "peak_mib": round(graph.peak_bytes / (1 << 20)),
            "stuck": len(found.stuck), "no_round_end": len(found.doomed),
            "endless": found.cycle is not None}


def checkout(rev: str, into: str) -> Path:
    """The ``unoformal`` package of git revision ``rev``, extracted under ``into``."""
    root = Path(__file__).resolve().parent.parent
    data = subprocess.run(["git", "-C", str(root), "archive", rev, "unoformal"],
                          capture_output=True, check=True).stdout
    with tarfile.open(fileobj=io.BytesIO(data)) as tar:
        tar.extractall(into, filter="data")
    return Path(into)


def child(name: str, symmetry: bool, source: Path | None) -> dict[str, object]:
    """One preset explored in a fresh process (so peak memory is its own), with the
    package in ``source`` first on its path when given."""
    env = dict(os.environ)
    if source is not None:
        env["PYTHONPATH"] = str(source)
    cmd = [sys.executable, __file__, name, "--child"] + (["--symmetry"] if symmetry else [])
    out = subprocess.run(cmd, capture_output=True, text=True, check=True, env=env).stdout
    result: dict[str, object] = json.loads(out)
    return result


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("presets", nargs="*", default=list(PRESETS))
    parser.add_argument("--symmetry", action="store_true")
    parser.add_argument("--baseline", metavar="REV",
                        help="also explore with the code of this git revision (e.g. main)")
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    # wall-clock rates depend on what else the machine runs; the CPU-time rate does not
    if args.child:
        import unoformal
        print(json.dumps({**one(args.presets[0], args.symmetry), "code": unoformal.__file__}))
        return
    with tempfile.TemporaryDirectory() as tmp:
        base = checkout(args.baseline, tmp) if args.baseline else None
        for name in args.presets:
            if base is not None:
                before = child(name, args.symmetry, base)
                print(json.dumps({"code": args.baseline, **before}), flush=True)
            after = child(name, args.symmetry, None)
            print(json.dumps({"code": "this tree", **after}), flush=True)
            if base is not None:
                if before["states"] != after["states"] or before["edges"] != after["edges"]:
                    raise SystemExit(f"{name}: the graphs differ ({before['states']} / "
                                     f"{after['states']} states)")
                print(f"{name}: share of the bookkeeping-only ceiling {before['of_ceiling']} "
                      f"({args.baseline}) -> {after['of_ceiling']} (this tree); states per CPU "
                      f"s {before['states_per_cpu_second']} -> {after['states_per_cpu_second']}",
                      flush=True)


if __name__ == "__main__":
    main()
