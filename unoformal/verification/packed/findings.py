"""The explorer's reachability findings from a packed search's arrays, for graphs too large
for :mod:`.bridge` (which builds a Python object per state).

The edges are three arrays (source, target, action type), so reverse reachability is a
breadth-first search over a CSR by target built with ``np.argsort``, a whole frontier at a
time. The arrays are read as the search stored them, 32-bit state numbers, a slice at
a time (:data:`SLICE`), and each CSR is built slice by slice, so that neither a copy of
every edge nor a 64-bit sort order of them is ever held; one CSR by target serves both
the reachability and the cycle search. At 70,918,328 edges (``every2-quiet``), 64-bit
copies of every edge list had been most of the command's memory (docs/explorer.md).

From the finished rounds backwards, every state that can still reach a round end is
found; the rest are the *doomed* states (the explorer's ``analyse``: "no round end
reachable"); their bottom components are the *traps* (listed with ``networkx`` on the
doomed states' own edges, as the explorer does, up to its limit); a cycle of two or more
states, found by peeling (vectorised Kahn) and walked as the explorer walks it, means a
round can go on forever. The numbers equal the explorer's on the small presets
(``tests/verification/test_packed.py``).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

import networkx as nx
import numpy as np
import numpy.typing as npt

from unoformal.verification.explore.analysis import SCC_LIMIT
from unoformal.verification.packed.layout import OVER_CODE
from unoformal.verification.packed.search import PackedGraph

Ints = npt.NDArray[np.int64]
# State numbers as the search stores them (int32: PackedGraph numbers states in int32).
Ids = npt.NDArray[np.int32]


@dataclass
class ArrayFindings:
    """What reachability over the arrays found (complete graphs only)."""

    round_over: int = 0
    doomed: Ints = field(default_factory=lambda: np.zeros(0, dtype=np.int64))
    traps: list[list[int]] = field(default_factory=list)
    cycle: list[int] | None = None
    idle_loops: int = 0

    def real_traps(self, stuck: list[int]) -> list[list[int]]:
        """Traps that are more than one stuck state (those are reported as stuck), as the
        explorer's ``Findings.real_traps``."""
        kept = set(stuck)
        return [m for m in self.traps if len(m) > 1 or m[0] not in kept]


# Edges read and sorted at a time: each slice is read from its file afresh (a spilled
# search's arrays are files), so no more than a slice of them is ever mapped, and the
# 64-bit sort order is a slice's, not the whole graph's.
SLICE = 1 << 22


class Edges:
    """A complete packed graph's edges, read a slice at a time: sources and targets as
    stored (int32 state numbers), views of the search's arrays or memory-mapped slices of
    its files, never copies of the whole."""

    def __init__(self, g: PackedGraph, size: int = SLICE) -> None:
        if g.edges and g.dst.rows == 0:
            raise ValueError("the packed search kept no edges (edges=False)")
        self.g, self.size, self.count = g, size, g.edges

    def slices(self) -> Iterator[tuple[Ids, Ids]]:
        g = self.g
        for lo in range(0, self.count, self.size):
            hi = min(lo + self.size, self.count)
            yield g.src.read(lo, hi), g.dst.read(lo, hi)


class Csr:
    """Rows of a graph over ``n`` states as arrays: row ``s`` is ``to[start[s]:start[s+1]]``,
    in the order of the edges. Built a slice of edges at a time (``by_target``: rows by
    each edge's target, else by its source), each slice's edges placed after those of the
    slices before, so the order is a stable sort's."""

    def __init__(self, n: int, edges: Edges, by_target: bool) -> None:
        counts = np.zeros(n, dtype=np.int64)
        for src, dst in edges.slices():
            counts += np.bincount(dst if by_target else src, minlength=n)
        self.start = np.zeros(n + 1, dtype=np.int64)
        np.cumsum(counts, out=self.start[1:])
        del counts
        self.to: Ids = np.empty(edges.count, dtype=np.int32)
        cursor = self.start[:-1].copy()  # where each row's next edge goes
        for src, dst in edges.slices():
            rows, to = (dst, src) if by_target else (src, dst)
            order = np.argsort(rows, kind="stable")
            ranked = rows[order]
            # the runs of one row in the sorted slice: where each starts, how long it is
            first = np.flatnonzero(np.concatenate(([True], ranked[1:] != ranked[:-1])))
            sizes = np.diff(np.append(first, len(ranked)))
            place = cursor[ranked] + (np.arange(len(ranked)) - np.repeat(first, sizes))
            self.to[place] = to[order]
            cursor[ranked[first]] += sizes

    def neighbours(self, states: npt.NDArray[np.integer[Any]]) -> Ids:
        """Every target of every state in ``states``, at once (ranges gathered with one
        ``np.repeat``)."""
        lo, hi = self.start[states], self.start[states + 1]
        sizes = hi - lo
        total = int(sizes.sum())
        if not total:
            return np.zeros(0, dtype=np.int32)
        offsets = np.repeat(lo - np.cumsum(sizes) + sizes, sizes)
        return self.to[offsets + np.arange(total, dtype=np.int64)]


def reach(rows: Csr, seeds: Ints, n: int) -> npt.NDArray[np.bool_]:
    """The states reachable from ``seeds`` along ``rows``: a breadth-first search a
    frontier at a time."""
    seen = np.zeros(n, dtype=bool)
    seen[seeds] = True
    frontier: npt.NDArray[np.integer[Any]] = seeds
    while len(frontier):
        nxt = np.unique(rows.neighbours(frontier))
        frontier = nxt[~seen[nxt]]
        seen[frontier] = True
    return seen


def finished(g: PackedGraph, size: int = SLICE) -> Ints:
    """The states that are finished rounds, their records' phases read a slice at a time
    (a whole spilled file mapped at once would count in the peak)."""
    out = [lo + np.flatnonzero(g.records.read(lo, min(lo + size, g.states))[:, 0] == OVER_CODE)
           for lo in range(0, g.states, size)]
    return np.concatenate(out).astype(np.int64) if out else np.zeros(0, dtype=np.int64)


def analyse_arrays(g: PackedGraph, size: int = SLICE) -> ArrayFindings:
    """Doomed states, traps, a cycle and idle loops of a complete packed graph. One CSR by
    target serves the reachability and the peeling of the cycle search; it is dropped
    before the CSR by source the cycle's walk needs is built."""
    if not g.complete:
        raise ValueError("reachability needs the whole graph; the search stopped")
    n = g.states
    edges = Edges(g, size)
    over = finished(g, size)
    back = Csr(n, edges, by_target=True)
    ends = reach(back, over, n)
    found = ArrayFindings(round_over=len(over),
                          idle_loops=sum(int((s == d).sum()) for s, d in edges.slices()))
    found.doomed = np.nonzero(~ends)[0].astype(np.int64)
    del ends
    found.traps = bottom_components(found.doomed, edges, g)
    alive = _peeled(n, edges, back)
    del back
    found.cycle = _walk(n, edges, alive)
    return found


def bottom_components(doomed: Ints, edges: Edges, g: PackedGraph) -> list[list[int]]:
    """The explorer's ``bottom_components`` on the doomed states' own edges (picked out of
    the arrays a slice at a time): largest first, then shallowest."""
    if not len(doomed) or len(doomed) > SCC_LIMIT:
        return [doomed.tolist()] if len(doomed) else []
    inside = np.zeros(g.states, dtype=bool)
    inside[doomed] = True
    sub: Any = nx.DiGraph()
    sub.add_nodes_from(doomed.tolist())
    for src, dst in edges.slices():
        keep = inside[src] & inside[dst]
        sub.add_edges_from(zip(src[keep].tolist(), dst[keep].tolist(), strict=True))
    cond = nx.condensation(sub)
    bottoms = [sorted(cond.nodes[c]["members"]) for c in cond.nodes if cond.out_degree(c) == 0]
    return sorted(bottoms, key=lambda m: (-len(m), g.depth(m[0])))


def _peeled(n: int, edges: Edges, back: Csr) -> npt.NDArray[np.bool_]:
    """The states left when those with no successor left are peeled, a whole set at a
    time (vectorised Kahn). Self-loops (idle loops, counted apart) are left out of the
    counts; in ``back`` a state's own loop only lowers its count once it is peeled."""
    left = np.zeros(n, dtype=np.int64)
    for src, dst in edges.slices():
        left += np.bincount(src[src != dst], minlength=n)
    alive = np.ones(n, dtype=bool)
    peel = np.nonzero(left == 0)[0].astype(np.int64)
    while len(peel):
        alive[peel] = False
        preds = back.neighbours(peel)
        np.subtract.at(left, preds, 1)
        touched = np.unique(preds)
        peel = touched[(left[touched] == 0) & alive[touched]]
    return alive


def _walk(n: int, edges: Edges, alive: npt.NDArray[np.bool_]) -> list[int] | None:
    """From the lowest-numbered state left (the shallowest: states are numbered
    breadth-first) follow the first edge to another state left until one repeats."""
    rest = np.nonzero(alive)[0]
    if not len(rest):
        return None
    fwd = Csr(n, edges, by_target=False)
    walk = [int(rest[0])]
    where = {walk[0]: 0}
    while True:
        here = walk[-1]
        row = fwd.to[fwd.start[here]:fwd.start[here + 1]]
        nxt = int(row[alive[row] & (row != here)][0])
        if nxt in where:
            return [*walk[where[nxt]:], nxt]
        where[nxt] = len(walk)
        walk.append(nxt)


def summary(g: PackedGraph, found: ArrayFindings) -> dict[str, Any]:
    """The findings as run.py's JSON: counts, and a witness path (BFS parents) to the
    first doomed state and to the cycle's first state."""
    traps = found.real_traps(g.stuck)
    return {
        "round_over": found.round_over,
        "no_round_end": len(found.doomed),
        "doomed_witness": g.path_to(int(found.doomed[0])) if len(found.doomed) else None,
        "traps": len(traps),
        "trap_sizes": [len(m) for m in traps][:20],
        "endless_round": found.cycle is not None,
        "cycle_length": len(found.cycle) - 1 if found.cycle else None,
        "cycle_witness": g.path_to(found.cycle[0]) if found.cycle else None,
        "idle_loops": found.idle_loops,
    }
