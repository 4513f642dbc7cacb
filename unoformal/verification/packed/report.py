"""``unoformal explore --backend packed``: the packed search's run, reported as the
explorer reports its own.

A graph the explorer could hold (at most :data:`.bridge.LIMIT` states, edges kept) is
rebuilt as its :class:`~..explore.graph.StateGraph` from the arrays, so its summary,
findings, witnesses and pictures are the explorer's, word for word. A larger one is
reported from the arrays alone (:mod:`.findings`): the same counts and reachability
findings, dead branches as "not seen", and no witnesses or pictures (they need the
explorer's objects); what the arrays add (bytes a state, the fingerprint collision
probability, Dask's workers) is given either way.
"""

from __future__ import annotations

from typing import Any

from unoformal.verification.explore.analysis import Findings, analyse, dead_of
from unoformal.verification.explore.graph import Config, StateGraph
from unoformal.verification.explore.report import extensions_off, summary_lines
from unoformal.verification.packed import bridge, findings
from unoformal.verification.packed.partitioned import Cluster, dask_search
from unoformal.verification.packed.search import PackedGraph, Progress, first_game, search


def run(cfg: Config, workers: int | None, spill: str | None,
        progress: Progress | None, successor: str = "engine") -> PackedGraph:
    """The packed search of ``cfg``: in this process (by ``successor``: ``search``'s
    names), or on ``workers`` local Dask workers (the same graph, numbered alike; the
    engine's successor)."""
    if workers is None:
        return search(cfg, successor=successor, spill=spill, progress=progress)
    return dask_search(cfg, Cluster(workers), spill=spill, progress=progress)


def as_explorer(g: PackedGraph) -> tuple[StateGraph, Findings] | None:
    """The explorer's graph and findings of ``g``, when it can hold them; else None."""
    if g.states > bridge.LIMIT or (g.edges and g.dst.rows == 0):
        return None
    graph = bridge.to_state_graph(g, first_game(g.config))
    return graph, analyse(graph)


def extra(g: PackedGraph) -> dict[str, Any]:
    """What the packed search adds to the explorer's summary."""
    out: dict[str, Any] = {
        "backend": "packed", "record_bytes": g.layout.width,
        "peak_bytes_per_state": round(g.peak_bytes / max(1, g.states), 1),
        "cpu_seconds": round(g.cpu_seconds, 1), "collision": g.collision()}
    if g.workers:
        out["workers"] = g.workers
        out["worker_cpu_seconds"] = round(g.worker_cpu_seconds, 1)
    if g.build is not None:  # a generated successor: how its module came to run
        out["successor_build"] = g.build
    return out


def summary(g: PackedGraph) -> dict[str, Any]:
    """The explorer's summary keys, from the arrays (a graph too large to rebuild);
    what the arrays cannot say (control states unreached, which need every state
    decoded) is None."""
    cfg = g.config
    found = findings.analyse_arrays(g) if g.complete and g.dst.rows == g.edges else None
    traps = found.real_traps(g.stuck) if found else None
    dead = dead_of(cfg, set(g.covered), g.stopped)
    return {
        "preset": cfg.name, "rules": cfg.rules.name, "players": list(cfg.players),
        "symmetry": False, "penalties": cfg.penalties,
        "extensions_off": extensions_off(cfg.rules),
        "complete": g.complete, "stopped": g.stopped,
        "states": g.states, "edges": g.edges, "unreduced_states": g.states,
        "round_over": found.round_over if found else None, "stuck": len(g.stuck),
        "no_round_end": len(found.doomed) if found else None,
        "traps": len(traps) if traps is not None else None,
        "endless_round": (found.cycle is not None) if found else None,
        "cycle_length": len(found.cycle) - 1 if found and found.cycle else None,
        "idle_loops": found.idle_loops if found else None,
        "dead": [{"rule": b.rule, "branch": b.name, "text": b.text, "why": why}
                 for b, why in dead],
        "unreached": None, "outside_round": None,
        "depth": len(g.layer_states), "perft": g.layer_states,
        "seconds": round(g.seconds, 3),
        "states_per_second": round(g.states / g.seconds) if g.seconds else None,
        "peak_memory_mib": round(g.peak_bytes / (1 << 20), 1),
        "first_stuck": g.stuck[0] if g.stuck else None,
        "first_stuck_path": g.path_to(g.stuck[0]) if g.stuck else None,
    }


def text(data: dict[str, Any]) -> str:
    """The explorer's text summary, from :func:`summary`'s keys."""
    lines = summary_lines(data)
    if data["first_stuck"] is not None:
        lines.append(f"  first stuck state #{data['first_stuck']} (depth "
                     f"{len(data['first_stuck_path']) - 1})")
    return "\n".join(lines)


def footer(data: dict[str, Any]) -> str:
    """The packed search's own line: record width, bytes a state, collision."""
    workers = f"  on {data['workers']} Dask workers" if "workers" in data else ""
    if "successor_build" in data:
        workers += f"; the generated successor's module {data['successor_build']}"
    return (f"  packed backend: {data['record_bytes']}-byte records, peak "
            f"{data['peak_bytes_per_state']:,} bytes a state; fingerprint collision "
            f"probability {data['collision']['optimistic']:.1e} (TLC's optimistic), "
            f"{data['collision']['birthday']:.1e} (birthday){workers}")
