"""The packed breadth-first search over Dask workers, its states partitioned by fingerprint.

Partition ``p`` of ``P`` owns the states whose fingerprint falls in the ``p``-th of ``P``
equal ranges of 64-bit values (:func:`owner`: the fingerprint's high bits). A partition's
visited set (sorted ``uint64`` fingerprints with the state numbers, 16 bytes a state) and
its share of the current layer's records stay on the worker that holds them, as the result
of the partition's last task; each layer is three rounds of tasks:

1. **expand** (one task per partition): the successors of the partition's frontier
   states (:class:`.successor.EngineSuccessor`, rebuilt once per worker process from the
   pickled ``Config``), each child tagged with its *edge key* ``source << 20 | k`` (the
   ``k``-th edge of its source, in the successor's order), split into one bucket per owner;
2. **dedup** (one per partition): the buckets addressed to it, from every partition,
   looked up in its visited set; new fingerprints deduplicated, each new state with the
   key of its first edge;
3. **commit** (one per partition), once the client has numbered the new states: the
   visited set and frontier replaced, every edge's target number given back.

**Numbering.** The client gathers only the first-edge keys of the new states (8 bytes a
new state) and numbers them in key order. Key order is the order in which the
single-process search finds edges (its frontier in state order, each state's edges in
the successor's order), so the new states get the numbers, parents and first witnesses
:func:`.search.search` gives them: the whole result (records, edges, layers, stuck states,
covered labels with their witnesses) is the single-process search's, whatever the number
of workers or partitions. The tests compare them on 1 and 2 workers.

The client assembles the records and edges, in the same order, into the same
:class:`.search.PackedGraph` (in memory or spilled), so ``run.py``, the findings and the
bridge read a distributed run unchanged. Only arrays travel: frontier records, bucket
arrays, key and number arrays; the configuration is scattered to every worker once. The
limits (``max_states``, ``max_seconds``) are checked between layers.
"""

from __future__ import annotations

import contextlib
import hashlib
import logging
import operator
import pickle
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import numpy.typing as npt

from unoformal.engine.actions import Action
from unoformal.rulebook.deck import Deck
from unoformal.verification.explore import memory
from unoformal.verification.explore.coverage import Label
from unoformal.verification.explore.graph import Config
from unoformal.verification.packed.layout import OVER_CODE, Layout
from unoformal.verification.packed.search import (
    PackedGraph,
    PackedSearch,
    Progress,
    first_game,
)
from unoformal.verification.packed.successor import ACTION_TYPES, EngineSuccessor

SHIFT = 20  # an edge key is source << SHIFT | k: at most 2^20 edges out of one state
I64 = npt.NDArray[np.int64]
U64 = npt.NDArray[np.uint64]
U8 = npt.NDArray[np.uint8]


def owner(fps: U64, parts: int) -> I64:
    """The partition of each fingerprint: which of ``parts`` equal ranges it falls in."""
    return (((fps >> np.uint64(32)) * np.uint64(parts)) >> np.uint64(32)).astype(np.int64)


# ------------------------------------------------------------------ worker side

@dataclass
class Part:
    """What one partition holds between layers: its visited set and its frontier."""

    fps: U64  # sorted
    ids: I64  # the state number of each fingerprint
    records: U8  # its states of the current layer, by number
    numbers: I64


@dataclass
class Bucket:
    """Children addressed to one partition, in edge-key order."""

    keys: I64
    fps: U64
    records: U8
    codes: U8


@dataclass
class Report:
    """What an expand task tells the client (small: no array per state)."""

    stuck: list[int] = field(default_factory=list)
    by_action: dict[int, int] = field(default_factory=dict)
    counts: dict[Label, int] = field(default_factory=dict)
    firsts: dict[Label, tuple[int, Action]] = field(default_factory=dict)  # label -> key
    generated: int = 0
    cpu: float = 0.0
    successor: float = 0.0
    peak: int = 0


@dataclass
class Pending:
    """A partition's layer after dedup, waiting for the new states' numbers."""

    keys: I64  # every edge addressed here, sorted
    dst: I64  # its target's number (-1: a new state, numbered at commit)
    codes: U8
    fresh: I64  # the edges to new states
    inverse: I64  # each of those: which new state
    new_fps: U64  # the new states' fingerprints, sorted
    by_key: I64  # new states (indices into new_fps) in first-key order
    first_keys: I64  # the first-edge key of each, ascending
    records: U8  # their records, in the same order
    cpu: float = 0.0


@dataclass
class Out:
    """What a commit task gives back: the layer's new records and edges, as arrays."""

    records: U8
    numbers: I64
    keys: I64 | None
    dst: I64 | None
    codes: U8 | None
    wanted: dict[int, int]  # edge key -> target, for the first witnesses asked
    live: int  # new states that are not finished rounds
    cpu: float = 0.0
    peak: int = 0


_BUILT: dict[str, tuple[Layout, EngineSuccessor]] = {}


def engine(cfg: Config, token: str) -> tuple[Layout, EngineSuccessor]:
    """The layout and successor function of ``cfg``, built once per worker process
    (``token``: the configuration's digest), from the explorer's first deal as the
    single-process search builds them."""
    if token not in _BUILT:
        layout = Layout(Deck.of(cfg.rules), len(cfg.players), cfg.rules.knocks_out())
        _BUILT.clear()
        _BUILT[token] = (layout, EngineSuccessor(layout, first_game(cfg), cfg.penalties))
    return _BUILT[token]


def expand(cfg: Config, token: str, part: Part, parts: int) -> tuple[list[Bucket], Report]:
    """Every edge out of the partition's frontier, as buckets per owner, and its report."""
    clock = time.process_time()
    layout, succ = engine(cfg, token)
    report = Report()
    children = bytearray()
    keys: list[int] = []
    codes = bytearray()
    for rec, sid in zip(part.records, part.numbers.tolist(), strict=True):
        if rec[0] == OVER_CODE:
            continue  # a finished round has no move
        edges = succ(bytes(rec))
        if not edges:
            report.stuck.append(sid)
        if len(edges) >> SHIFT:
            raise ValueError(f"state {sid} has {len(edges)} edges, more than a key holds")
        for k, e in enumerate(edges):
            children += e.child
            keys.append(sid << SHIFT | k)
            codes.append(e.code)
            report.by_action[e.code] = report.by_action.get(e.code, 0) + 1
            for label in (*e.ends, *e.labels):
                report.counts[label] = report.counts.get(label, 0) + 1
                report.firsts.setdefault(label, (keys[-1], e.action))
    report.successor = time.process_time() - clock
    report.generated = len(keys)
    recs = np.frombuffer(bytes(children), dtype=np.uint8).reshape(-1, layout.width)
    buckets = split(np.array(keys, dtype=np.int64), layout.fingerprints(recs), recs,
                    np.frombuffer(bytes(codes), dtype=np.uint8), parts)
    report.cpu = time.process_time() - clock
    report.peak = memory.peak_rss()
    return buckets, report


def split(keys: I64, fps: U64, recs: U8, codes: U8, parts: int) -> list[Bucket]:
    """Children split by owner, each bucket still in key order (a stable sort)."""
    own = owner(fps, parts)
    order = np.argsort(own, kind="stable")
    bounds = np.searchsorted(own[order], np.arange(parts + 1))
    out = []
    for q in range(parts):
        pick = order[bounds[q]:bounds[q + 1]]
        out.append(Bucket(keys[pick], fps[pick], recs[pick], codes[pick]))
    return out


def bucket(expanded: tuple[list[Bucket], Report], q: int) -> Bucket:
    return expanded[0][q]


def report_of(expanded: tuple[list[Bucket], Report]) -> Report:
    return expanded[1]


def dedup(part: Part, *buckets: Bucket) -> Pending:
    """The edges addressed to this partition, in key order, looked up in its visited set;
    the new fingerprints deduplicated, each with the key of its first edge."""
    clock = time.process_time()
    keys = np.concatenate([b.keys for b in buckets])
    order = np.argsort(keys, kind="stable")
    keys, fps = keys[order], np.concatenate([b.fps for b in buckets])[order]
    recs = np.concatenate([b.records for b in buckets])[order]
    codes = np.concatenate([b.codes for b in buckets])[order]
    dst = np.full(len(keys), -1, dtype=np.int64)
    found = np.zeros(len(keys), dtype=bool)
    if len(part.fps):
        pos = np.minimum(np.searchsorted(part.fps, fps), len(part.fps) - 1)
        found = part.fps[pos] == fps
        dst[found] = part.ids[pos[found]]
    fresh = np.nonzero(~found)[0]
    new_fps, first, inverse = np.unique(fps[fresh], return_index=True, return_inverse=True)
    by_key = np.argsort(first, kind="stable")  # keys are sorted: first index = first key
    firsts = fresh[first[by_key]]
    return Pending(keys, dst, codes, fresh, inverse.reshape(-1), new_fps, by_key,
                   keys[firsts], recs[firsts], time.process_time() - clock)


def first_keys(pending: Pending) -> tuple[I64, float]:
    return pending.first_keys, pending.cpu


def commit(part: Part, pending: Pending, numbers: I64, wanted: I64,
           edges: bool) -> tuple[Part, Out]:
    """The new states numbered (``numbers``, in first-key order): the visited set and the
    frontier replaced, every edge's target filled in."""
    clock = time.process_time()
    number = np.empty(len(pending.new_fps), dtype=np.int64)
    number[pending.by_key] = numbers
    dst = pending.dst.copy()
    dst[pending.fresh] = number[pending.inverse]
    at = np.searchsorted(part.fps, pending.new_fps)
    nxt = Part(np.insert(part.fps, at, pending.new_fps), np.insert(part.ids, at, number),
               pending.records, numbers)
    pos = np.minimum(np.searchsorted(pending.keys, wanted), max(0, len(pending.keys) - 1))
    here = (pending.keys[pos] == wanted) if len(pending.keys) else np.zeros(0, dtype=bool)
    asked = {int(k): int(dst[p]) for k, p in zip(wanted[here], pos[here], strict=True)}
    live = int((pending.records[:, 0] != OVER_CODE).sum())
    out = Out(pending.records, numbers, pending.keys if edges else None,
              dst if edges else None, pending.codes if edges else None, asked, live,
              time.process_time() - clock, memory.peak_rss())
    return nxt, out


# ------------------------------------------------------------------ client side

@dataclass
class Cluster:
    """Where the tasks run: ``workers`` local processes, or the cluster at ``scheduler``."""

    workers: int = 1
    scheduler: str | None = None
    partitions: int | None = None  # default: twice the workers


@contextlib.contextmanager
def connect(where: Cluster) -> Iterator[Any]:
    """A client of the named cluster, or of a new local one (single-threaded worker
    processes), closed (and the local cluster shut down) on leaving, whatever the
    reason."""
    from distributed import Client

    from unoformal.runtime.campaign import CONNECT_TIMEOUT_S, local_cluster, shut_down

    for name in ("distributed", "dask", "tornado", "asyncio"):
        logging.getLogger(name).setLevel(logging.CRITICAL)
    if where.scheduler is not None:
        client = Client(where.scheduler, timeout=CONNECT_TIMEOUT_S)
        try:
            yield client
        finally:
            client.close()
        return
    cluster = local_cluster(where.workers)
    try:
        client = Client(cluster)
        try:
            yield client
        finally:
            client.close()
    finally:
        shut_down(cluster)


class DaskSearch(PackedSearch):
    """The packed search with its layers expanded and deduplicated on Dask workers."""

    def __init__(self, config: Config, client: Any, partitions: int,
                 spill: str | None = None, edges: bool = True,
                 progress: Progress | None = None, max_seconds: float | None = None) -> None:
        super().__init__(config, spill=spill, edges=edges, progress=progress)
        self.wall_limit = max_seconds
        self.wall = time.perf_counter()
        self.client = client
        self.parts = partitions
        blob = pickle.dumps(config)
        self.token = hashlib.sha256(blob).hexdigest()
        self.worker_cpu = 0.0
        self.worker_successor = 0.0
        self.worker_peak = 0
        self.workers = len(client.scheduler_info()["workers"])
        # per layer, the longest of max(largest expand task, the expand tasks' CPU
        # spread evenly over the workers): the wall time the expansions need with every
        # worker on a core of its own (what a busy machine's wall clock cannot show)
        self.critical = 0.0
        self.expand_cpu = 0.0

    def _check(self, g: PackedGraph, depth: int) -> bool:
        """The limits, between layers; the time limit in wall seconds (the client spends
        little CPU of its own)."""
        if super()._check(g, depth):
            return True
        if self.wall_limit is not None and time.perf_counter() - self.wall > self.wall_limit:
            g.stopped = f"time limit {self.wall_limit:,.0f} wall s reached"
        return g.stopped is not None

    def _search(self, g: PackedGraph) -> None:
        self.wall = time.perf_counter()
        vfp, vid = self._initial(g)
        cfg = self.client.scatter(self.config, broadcast=True, hash=False)
        parts = self._scatter_initial(g, vfp, vid.astype(np.int64))
        live = int((g.records.read()[:, 0] != OVER_CODE).sum())
        depth = 0
        while g.stopped is None:
            start, stop = g.layer_start[depth], g.states
            if stop <= start:
                g.layer_start.pop()
                break
            g.layer_start.append(stop)
            if not live:
                break  # only finished rounds: the explorer's frontier is empty
            parts, live = self._layer(g, cfg, parts)
            g.expanded = stop
            depth += 1
            self._check(g, depth)
        if g.layer_start and g.layer_start[-1] >= g.states:
            g.layer_start.pop()
        g.successor_seconds = self.worker_successor

    def _scatter_initial(self, g: PackedGraph, vfp: U64, vid: I64) -> list[Any]:
        records = g.records.read()
        own = owner(vfp, self.parts)
        parts = []
        for q in range(self.parts):
            mine = own == q
            numbers = np.sort(vid[mine])
            parts.append(Part(vfp[mine], vid[mine], np.array(records[numbers]), numbers))
        return list(self.client.scatter(parts, hash=False))

    def _layer(self, g: PackedGraph, cfg: Any, parts: list[Any]) -> tuple[list[Any], int]:
        """One layer: expand, route, dedup on the workers; number here; commit there."""
        submit, n = self.client.submit, self.parts
        expanded = [submit(expand, cfg, self.token, p, n, pure=False) for p in parts]
        pending = [submit(dedup, parts[q], *[submit(bucket, e, q, pure=False)
                                             for e in expanded], pure=False)
                   for q in range(n)]
        reports = self.client.gather([submit(report_of, e, pure=False) for e in expanded])
        keyed = self.client.gather([submit(first_keys, d, pure=False) for d in pending])
        del expanded
        wanted = self._witnesses_wanted(g, reports)
        numbers = self._number(g, [k for k, _ in keyed])
        self.worker_cpu += sum(r.cpu for r in reports) + sum(c for _, c in keyed)
        scattered = self.client.scatter(numbers, hash=False)
        key_array = np.array(sorted(k for k, _ in wanted.values()), dtype=np.int64)
        done = [submit(commit, parts[q], pending[q], scattered[q], key_array,
                       self.keep_edges, pure=False) for q in range(n)]
        nxt = [submit(operator.getitem, c, 0, pure=False) for c in done]
        outs: list[Out] = self.client.gather([submit(operator.getitem, c, 1, pure=False)
                                              for c in done])
        del done, pending
        self._assemble(g, reports, outs, wanted)
        return nxt, sum(o.live for o in outs)

    def _witnesses_wanted(self, g: PackedGraph, reports: list[Report]
                          ) -> dict[Label, tuple[int, Action]]:
        """For each label not covered before this layer, its first edge in key order."""
        wanted: dict[Label, tuple[int, Action]] = {}
        for r in reports:
            for label, (key, action) in r.firsts.items():
                if label not in g.covered and (label not in wanted or key < wanted[label][0]):
                    wanted[label] = (key, action)
        return wanted

    def _number(self, g: PackedGraph, keys: list[I64]) -> list[I64]:
        """The new states' numbers, per partition: their rank in first-key order after
        the states found so far (the single-process search's order)."""
        every = np.sort(np.concatenate(keys))
        g.parent.extend((every >> SHIFT).tolist())
        base = g.states
        return [base + np.searchsorted(every, k).astype(np.int64) for k in keys]

    def _assemble(self, g: PackedGraph, reports: list[Report], outs: list[Out],
                  wanted: dict[Label, tuple[int, Action]]) -> None:
        """The layer's records, edges and labels into the graph, in the single-process
        search's order."""
        base = g.states
        layer = np.empty((sum(len(o.numbers) for o in outs), self.layout.width), np.uint8)
        for o in outs:
            layer[o.numbers - base] = o.records
        g.records.append(layer)
        self._edges(g, outs, sum(r.generated for r in reports))
        asked = {k: d for o in outs for k, d in o.wanted.items()}
        for label, (key, action) in wanted.items():
            g.covered[label] = (key >> SHIFT, action, asked[key])
        cpus = [r.cpu for r in reports]
        self.critical += max(max(cpus), sum(cpus) / max(1, self.workers))
        self.expand_cpu += sum(cpus)
        by_action: dict[int, int] = {}
        for r in reports:
            g.stuck.extend(r.stuck)
            g.generated += r.generated
            self.worker_successor += r.successor
            self.worker_peak = max(self.worker_peak, r.peak)
            for c, k in r.by_action.items():
                by_action[c] = by_action.get(c, 0) + k
            for label, k in r.counts.items():
                g.label_counts[label] = g.label_counts.get(label, 0) + k
        g.stuck.sort()
        g.layer_edges.append(dict(sorted((ACTION_TYPES[c].value, k)
                                         for c, k in by_action.items())))
        for o in outs:
            self.worker_cpu += o.cpu
            self.worker_peak = max(self.worker_peak, o.peak)

    def _edges(self, g: PackedGraph, outs: list[Out], generated: int) -> None:
        if not self.keep_edges:
            g.src.rows += generated  # counted, none kept (as the single-process search)
            return
        keys = np.concatenate([o.keys for o in outs if o.keys is not None])
        order = np.argsort(keys, kind="stable")
        g.src.append((keys[order] >> SHIFT).astype(np.int32))
        g.dst.append(np.concatenate([o.dst for o in outs if o.dst is not None])[order]
                     .astype(np.int32))
        g.act.append(np.concatenate([o.codes for o in outs if o.codes is not None])[order])


def dask_search(config: Config, where: Cluster, spill: str | None = None,
                edges: bool = True, progress: Progress | None = None,
                max_seconds: float | None = None) -> PackedGraph:
    """The packed search of ``config`` on the cluster ``where`` names; its result is
    :func:`.search.search`'s (see the module's doc)."""
    with connect(where) as client:
        workers = len(client.scheduler_info()["workers"])
        parts = where.partitions or 2 * max(1, workers)
        ds = DaskSearch(config, client, parts, spill, edges, progress, max_seconds)
        g = ds.run()
    g.workers, g.partitions = ds.workers, parts
    g.worker_cpu_seconds, g.worker_peak_bytes = ds.worker_cpu, ds.worker_peak
    g.expand_cpu_seconds, g.critical_seconds = ds.expand_cpu, ds.critical
    return g
