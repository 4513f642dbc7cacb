"""Run the packed search on a preset and print what it found, as JSON.

    python -m unoformal.verification.packed.run PRESET [--spill DIR] [--max-states N]
        [--max-seconds S] [--no-edges] [--workers N | --scheduler ADDRESS] [--partitions P]

With ``--workers`` or ``--scheduler`` the search runs on Dask workers, its states
partitioned by fingerprint (:mod:`.partitioned`); its result is the same.

Counts, layers, stuck states and dead branches (the explorer's catalogue, less what the
run covered), peak memory, bytes a state in memory and on disk, and the probability of a
fingerprint collision as TLC states it. A complete run with its edges kept also reports,
from the edge arrays (:mod:`.findings`), the states with no round end reachable (with a
witness path), traps, whether a round can go on forever, and idle loops.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Sequence
from typing import Any

from unoformal.verification.explore import memory
from unoformal.verification.explore.coverage import catalogue
from unoformal.verification.packed import findings
from unoformal.verification.packed.partitioned import Cluster, dask_search
from unoformal.verification.packed.presets import config, names
from unoformal.verification.packed.search import PackedGraph, cleanup, search


def summary(g: PackedGraph, reach: bool = False) -> dict[str, Any]:
    """The run as JSON; ``reach``: with the findings over the edge arrays (which read
    every edge into memory: off for the benchmark, whose peak RSS is the search's)."""
    rules = g.config.rules
    dead = [f"{b.rule} {b.name}" for b in catalogue(rules)
            if (b.rule, b.name) not in g.covered]
    disk = g.states * g.layout.width + (g.edges * 9 if g.directory is not None else 0)
    return {
        "preset": g.config.name, "complete": g.complete, "stopped": g.stopped,
        "states": g.states, "edges": g.edges, "generated": g.generated,
        "layers": g.layer_states, "stuck": len(g.stuck),
        "dead_or_not_seen": dead, "record_bytes": g.layout.width,
        "cpu_seconds": round(g.cpu_seconds, 1), "wall_seconds": round(g.seconds, 1),
        "states_per_cpu_second": round(g.states / g.cpu_seconds) if g.cpu_seconds else None,
        "successor_cpu_seconds": round(g.successor_seconds, 1),
        "successor_build": g.build, "compile_seconds": round(g.compile_seconds, 1),
        "bookkeeping_ceiling": round(g.states / max(1e-9, g.cpu_seconds - g.successor_seconds)),
        "peak_rss_mib": round(g.peak_bytes / 2**20),
        "peak_rss_bytes_per_state": round(g.peak_bytes / max(1, g.states), 1),
        "visited_bytes_per_state": round(g.visited_bytes / max(1, g.states), 1),
        "disk_bytes_per_state": round(disk / max(1, g.states), 1) if g.directory else 0,
        "collision": g.collision(),
        "findings": reachability(g) if reach else None,
        **distributed(g),
    }


def distributed(g: PackedGraph) -> dict[str, Any]:
    """A Dask run's workers and what they spent (CPU seconds summed over the worker
    processes; the client's own are ``cpu_seconds``)."""
    if not g.workers:
        return {}
    cpu = g.cpu_seconds + g.worker_cpu_seconds
    return {"workers": g.workers, "partitions": g.partitions,
            "worker_cpu_seconds": round(g.worker_cpu_seconds, 1),
            "states_per_cpu_second_all": round(g.states / cpu) if cpu else None,
            "states_per_wall_second": round(g.states / g.seconds) if g.seconds else None,
            "worker_peak_rss_mib": round(g.worker_peak_bytes / 2**20),
            # the expansions' speed-up with a core per worker: their CPU seconds over the
            # critical path (per layer, the largest task or the fair share if larger)
            "expand_cpu_seconds": round(g.expand_cpu_seconds, 1),
            "expand_speedup_bound": round(g.expand_cpu_seconds / g.critical_seconds, 2)
            if g.critical_seconds else None}


def reachability(g: PackedGraph) -> dict[str, Any] | None:
    """The findings over the edge arrays, with the seconds they took; None when the run
    stopped (the claims need the whole graph) or kept no edges."""
    if not g.complete or (g.edges and g.dst.rows == 0):
        return None
    started = time.process_time()
    out = findings.summary(g, findings.analyse_arrays(g))
    out["cpu_seconds"] = round(time.process_time() - started, 1)
    out["peak_rss_mib_after"] = round(memory.peak_rss() / 2**20)  # the search's is above
    return out


def positive(text: str) -> int:
    value = int(text)
    if value < 1:
        raise argparse.ArgumentTypeError(f"at least 1, not {value}")
    return value


def main(argv: Sequence[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__)
    p.add_argument("preset", choices=names())
    p.add_argument("--spill", metavar="DIR", help="keep records and edges in files under DIR")
    p.add_argument("--max-states", type=int, default=None)
    p.add_argument("--max-seconds", type=float, default=None,
                   help="CPU seconds (on Dask: wall seconds, checked between layers)")
    p.add_argument("--no-edges", action="store_true", help="count edges, keep none")
    p.add_argument("--progress", action="store_true", help="a line per chunk on stderr")
    p.add_argument("--successor", default="engine",
                   choices=("engine", "commands", "generated", "compiled", "c"),
                   help="the successor function (search.py's names; the Dask search's "
                        "workers run the engine's)")
    dask = p.add_argument_group("Dask (a search partitioned by fingerprint)")
    dask.add_argument("--workers", type=positive, default=None,
                      help="local single-threaded worker processes")
    dask.add_argument("--scheduler", metavar="ADDRESS", default=None,
                      help="the running Dask cluster at ADDRESS (tcp://host:8786)")
    dask.add_argument("--partitions", type=positive, default=None,
                      help="fingerprint partitions (default: twice the workers)")
    args = p.parse_args(argv)
    if args.workers is not None and args.scheduler is not None:
        p.error("--workers and --scheduler: give one; a cluster has its own workers")
    if args.successor != "engine" and (args.workers or args.scheduler):
        p.error(f"--successor {args.successor}: the Dask workers run the engine's")

    def progress(g: PackedGraph, depth: int) -> None:
        print(f"depth {depth}: {g.states:,} states, {g.edges:,} edges", file=sys.stderr,
              flush=True)

    cfg = config(args.preset, args.max_states)
    show = progress if args.progress else None
    if args.workers is None and args.scheduler is None:
        g = search(cfg, args.successor, spill=args.spill, edges=not args.no_edges,
                   progress=show, max_seconds=args.max_seconds)
    else:
        where = Cluster(args.workers or 1, args.scheduler, args.partitions)
        g = dask_search(cfg, where, spill=args.spill, edges=not args.no_edges,
                        progress=show, max_seconds=args.max_seconds)
    try:
        print(json.dumps(summary(g, reach=True), indent=1))
    finally:
        cleanup(g)
    return 0


if __name__ == "__main__":
    sys.exit(main())
