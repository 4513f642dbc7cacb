"""Benchmark of the state-graph explorer: distinct states per second and peak memory.

    python benchmarks/bench_explore.py [PRESET ...] [--symmetry] [--baseline REV]

Each preset runs in a fresh process (so peak memory is its own). Not a test: the
figures depend on the machine; docs/explorer.md records the last ones.

Baseline, measured in the same run: the same breadth-first search replayed over the
finished graph's own successor lists (no engine, no labels: only the index, the
parent/depth arrays and the edge arrays). Its rate is the ceiling any explorer with
this bookkeeping in CPython can reach; ``of_ceiling`` is the engine-driven rate over it.

``--parts`` also times each part of the explorer's work per state, on a sample of the
graph's states taken from every layer (see :func:`parts`), and prints the share of the
ceiling an explorer would reach if everything but the engine's own work cost nothing.

``--baseline REV`` also explores each preset with the explorer and engine of git revision
``REV`` (its ``unoformal`` package from ``git archive``, compiled as its install would be,
first on the child's path), the
two runs in turn, so the share of the ceiling before and after comes from the same run.
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from revision import checkout

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


def _sample(explorer: object, size: int, total: int) -> list[object]:
    """About ``size`` games of the graph, an even stride through every BFS layer."""
    from unoformal.verification.explore.graph import Explorer, StateGraph
    assert isinstance(explorer, Explorer)
    graph = StateGraph(explorer.config, explorer.keyer)
    stride = max(1, total // size)
    frontier = explorer._initial(graph)
    games, seen, depth = [], 0, 0
    while frontier:
        for _, game in frontier:
            if seen % stride == 0:
                games.append(game)
            seen += 1
        frontier = explorer._layer(graph, frontier, depth)
        depth += 1
    return games


def parts(name: str, symmetry: bool, states: int, size: int = 20_000) -> dict[str, float]:
    """CPU microseconds per state of each part of the explorer's work, on a sample of its
    states, each measured as the search does it: a child is keyed and labelled while it is
    fresh from its action (a part timed over children made earlier would read them cold
    from memory, and cost more). So each part is the difference of two loops that differ
    by it:

    * ``legal``: listing the actions; ``copy``: one copy of the state per outcome;
    * ``push``: every outcome of every action (on a copy each, as the search runs them),
      less the copies; ``key``, ``labels``: keying, then also labelling, each outcome;
    * ``outcomes``: outcomes per state.

    ``engine_floor`` is the engine's own share: listing the actions, pushing each outcome,
    and one copy per state (every new state needs a game of its own to wait in the
    frontier). An explorer with do/undo, free keys, free labels and free bookkeeping
    would still cost that much per state."""
    from unoformal.verification.explore.chance import outcomes
    from unoformal.verification.explore.graph import Explorer, preset_config

    cfg = preset_config(name, symmetry, memory_budget=16 << 30)
    explorer = Explorer(cfg)
    games = _sample(explorer, size, states)
    labeler, key = explorer.labeler, explorer.keyer.key
    assert labeler is not None
    moves = [(g, g.legal_actions(penalties=cfg.penalties)) for g in games]
    count = sum(1 for g, actions in moves for a in actions for _ in outcomes(g, a))

    def legal() -> None:
        for g in games:
            g.legal_actions(penalties=cfg.penalties)

    def copy() -> None:
        for g, actions in moves:
            for a in actions:
                for _ in outcomes(g, a):
                    g.copy()

    def push() -> None:
        for g, actions in moves:
            for a in actions:
                for _ in outcomes(g, a):
                    pass

    def push_key() -> None:
        for g, actions in moves:
            for a in actions:
                for _, c in outcomes(g, a):
                    key(c)

    def push_key_labels() -> None:
        for g, actions in moves:
            for a in actions:
                for _, c in outcomes(g, a):
                    key(c)
                    labeler.edge(g, a, c, c.events)

    def timed(work: Callable[[], None]) -> float:
        cpu = time.process_time()
        work()
        return (time.process_time() - cpu) * 1e6 / len(games)

    gc.disable()
    legal_us, copied_us, outcomes_us = timed(legal), timed(copy), timed(push)
    keyed_us, labelled_us = timed(push_key), timed(push_key_labels)
    gc.enable()
    copy_us = copied_us - outcomes_us  # copy() runs the outcomes too, and one copy more each
    per_state = count / len(games)
    push_us = outcomes_us - copy_us
    found = {"legal": legal_us, "copy": copy_us, "push": push_us,
             "key": keyed_us - outcomes_us, "labels": labelled_us - keyed_us,
             "outcomes": per_state,
             "engine_floor": legal_us + push_us + copy_us / per_state, "sample": len(games)}
    return {k: round(v, 3) for k, v in found.items()}


def one(name: str, symmetry: bool, with_parts: bool = False) -> dict[str, object]:
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
            "endless": found.cycle is not None,
            **({"parts_us_per_state": (cost := parts(name, symmetry, graph.states)),
                "engine_floor_of_ceiling": round(1e6 / cost["engine_floor"] / ceiling, 3)}
               if with_parts and ceiling else {})}


def child(name: str, symmetry: bool, source: Path | None,
          with_parts: bool = False) -> dict[str, object]:
    """One preset explored in a fresh process (so peak memory is its own), with the
    package in ``source`` first on its path when given."""
    env = dict(os.environ)
    if source is not None:
        env["PYTHONPATH"] = str(source)
    cmd = [sys.executable, __file__, name, "--child"] + (["--symmetry"] if symmetry else []) \
        + (["--parts"] if with_parts else [])
    out = subprocess.run(cmd, capture_output=True, text=True, check=True, env=env).stdout
    result: dict[str, object] = json.loads(out)
    return result


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("presets", nargs="*", default=list(PRESETS))
    parser.add_argument("--symmetry", action="store_true")
    parser.add_argument("--baseline", metavar="REV",
                        help="also explore with the code of this git revision (e.g. main)")
    parser.add_argument("--parts", action="store_true",
                        help="also time each part of the work per state (this tree only)")
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    # wall-clock rates depend on what else the machine runs; the CPU-time rate does not
    if args.child:
        import unoformal
        try:
            from unoformal.runtime.compiled import build
            built = build()
        except ImportError:  # a revision from before the compiled build
            built = "pure Python"
        print(json.dumps({**one(args.presets[0], args.symmetry, args.parts),
                          "package": unoformal.__file__, "build": built}))
        return
    with tempfile.TemporaryDirectory() as tmp:
        base = checkout(args.baseline, tmp) if args.baseline else None
        for name in args.presets:
            if base is not None:
                before = child(name, args.symmetry, base)
                print(json.dumps({"code": args.baseline, **before}), flush=True)
            after = child(name, args.symmetry, None, args.parts)
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
