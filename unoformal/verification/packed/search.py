"""Breadth-first search over packed records, with a visited set of 64-bit fingerprints.

The states live in three places, none of them Python objects per state:

- the **visited set**: the fingerprints seen, a sorted ``uint64`` array, with the state
  number of each in a parallel ``int32`` array; a chunk of children is looked up with one
  ``searchsorted`` and its new fingerprints merged in (12 bytes a state);
- the **records**, in discovery order (so state ``i``'s record is row ``i``, and a layer's
  frontier is a range of rows): in memory, or in a file of a temporary directory read back
  as ``numpy.memmap`` (``spill``);
- **arrays** per state (the BFS parent, 4 bytes) and per edge (source, target, action
  type: in memory, or appended to files with ``spill``), and per label of the rule table
  the number of edges that ran it, with the first edge that did (the explorer's
  ``covered``): enough to rebuild a witness path, and to report dead rules and stuck
  states.

State numbers, parents and first witnesses are the explorer's (its ``graph`` module):
a chunk's new states are numbered in the order their first edge was found, as the
explorer numbers them. Fingerprints can collide: two different states with one
fingerprint count as one. Each run states the probability as TLC does
(:meth:`PackedGraph.collision`).
"""

from __future__ import annotations

import gc
import os
import tempfile
import time
from array import array
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from itertools import compress, pairwise
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from unoformal.engine.actions import Action
from unoformal.rulebook.deck import Deck
from unoformal.verification.explore import memory
from unoformal.verification.explore.chance import ExploreGame, deal_outcomes, first_outcome
from unoformal.verification.explore.coverage import Label, Labeler
from unoformal.verification.explore.graph import Config, Explorer, Root
from unoformal.verification.packed import native
from unoformal.verification.packed.commands import CommandSuccessor
from unoformal.verification.packed.generated import GeneratedSuccessor, Key, key_of
from unoformal.verification.packed.layout import OVER_CODE, Layout
from unoformal.verification.packed.successor import (
    ACTION_TYPES,
    Batch,
    EngineSuccessor,
    FlatBatch,
    Successor,
    batch,
)
from unoformal.verification.packed.visited import Visited, visited

CHUNK = 1 << 15  # frontier states expanded between two merges of the visited set


# "engine", "commands" (CommandSuccessor), "generated" (GeneratedSuccessor), "compiled"
# (the same, its module compiled by mypyc: packed/native.py), a successor function, or
# an EngineSuccessor class (the tests' plants)
Choice = str | Successor | type[EngineSuccessor]


class _Store:
    """Fixed-width rows appended in order, in memory or in a file; read back by range."""

    def __init__(self, width: int, dtype: Any, path: Path | None) -> None:
        self.width, self.dtype = width, np.dtype(dtype)
        self.rows = 0
        self.path = path
        # in memory: a flat array grown by doubling (views of it stay valid: a new one
        # is allocated, never resized in place)
        self._mem = np.zeros(0, dtype=self.dtype)
        self._file = open(path, "wb") if path is not None else None  # noqa: SIM115

    def append(self, data: bytes | npt.NDArray[Any]) -> None:
        flat = np.frombuffer(data, dtype=self.dtype) if isinstance(data, bytes) \
            else np.ascontiguousarray(data, dtype=self.dtype).reshape(-1)
        used = self.rows * self.width
        self.rows += len(flat) // self.width
        if self._file is not None:
            self._file.write(flat.tobytes())
            return
        if used + len(flat) > len(self._mem):
            grown = np.zeros(max(2 * len(self._mem), used + len(flat), 1024),
                             dtype=self.dtype)
            grown[:used] = self._mem[:used]
            self._mem = grown
        self._mem[used:used + len(flat)] = flat

    def read(self, start: int = 0, stop: int | None = None) -> npt.NDArray[Any]:
        stop = self.rows if stop is None else stop
        size = self.width * self.dtype.itemsize
        if self._file is None:
            view = self._mem[start * self.width:stop * self.width]
            return view.reshape(-1, self.width) if self.width > 1 else view
        self._file.flush()
        if stop <= start:
            return np.zeros((0, self.width) if self.width > 1 else 0, dtype=self.dtype)
        assert self.path is not None
        mm = np.memmap(self.path, dtype=np.uint8, mode="r", offset=start * size,
                       shape=((stop - start) * size,))
        out: npt.NDArray[Any] = mm.view(self.dtype)
        return out.reshape(-1, self.width) if self.width > 1 else out

    def bytes_held(self) -> int:
        return int(self._mem.nbytes)

    def close(self) -> None:
        if self._file is not None:
            self._file.close()
            self._file = None


@dataclass
class PackedGraph:
    """What a packed search found: counts, layers, the arrays and the labels."""

    config: Config
    layout: Layout
    records: _Store
    src: _Store
    dst: _Store
    act: _Store
    parent: array[int] = field(default_factory=lambda: array("i"))
    roots: dict[int, Root] = field(default_factory=dict)
    layer_start: list[int] = field(default_factory=list)
    layer_edges: list[dict[str, int]] = field(default_factory=list)
    covered: dict[Label, tuple[int, Action | None, int]] = field(default_factory=dict)
    label_counts: dict[Label, int] = field(default_factory=dict)
    stuck: list[int] = field(default_factory=list)
    # the states numbered below this have every successor in the arrays: a stopped
    # search may stop inside a layer (after a chunk), its later states unexpanded
    expanded: int = 0
    generated: int = 0  # children generated (before deduplication): TLC's m
    stopped: str | None = None
    seconds: float = 0.0
    cpu_seconds: float = 0.0
    # CPU seconds in the successor function and the loop that collects its edges; the
    # rest of cpu_seconds is the bookkeeping (fingerprints, the visited set, the arrays)
    successor_seconds: float = 0.0
    # the generated successor's module: "cached", "compiled" (now, in compile_seconds of
    # wall time: a compiler's processes, not in cpu_seconds) or "pure Python (why)"
    build: str | None = None
    compile_seconds: float = 0.0
    peak_bytes: int = 0
    visited_bytes: int = 0
    directory: str | None = None
    # a Dask run (partitioned.py): its workers and partitions, their CPU seconds summed
    # and the largest peak RSS of a worker process; 0 for a single-process run
    workers: int = 0
    partitions: int = 0
    worker_cpu_seconds: float = 0.0
    worker_peak_bytes: int = 0
    expand_cpu_seconds: float = 0.0  # the expand tasks' CPU seconds, summed
    critical_seconds: float = 0.0  # partitioned.DaskSearch.critical

    @property
    def states(self) -> int:
        return self.records.rows

    @property
    def edges(self) -> int:
        return self.src.rows

    @property
    def complete(self) -> bool:
        return self.stopped is None

    @property
    def layer_states(self) -> list[int]:
        bounds = [*self.layer_start, self.states]
        return [b - a for a, b in pairwise(bounds) if b > a]

    def depth(self, sid: int) -> int:
        d = 0
        while d + 1 < len(self.layer_start) and self.layer_start[d + 1] <= sid:
            d += 1
        return d

    def record(self, sid: int) -> bytes:
        return bytes(self.records.read(sid, sid + 1)[0])

    def collision(self) -> dict[str, float]:
        """The probability that two distinct states shared a fingerprint, as TLC states
        it: ``optimistic`` = n (m - n) / 2^64 (n distinct states, m states generated:
        each generated state that hit the set could have been a new one in disguise), and
        the birthday bound n (n - 1) / 2^65 over the distinct states."""
        n, m = self.states, max(self.generated, self.states)
        return {"optimistic": n * (m - n) / 2.0 ** 64, "birthday": n * (n - 1) / 2.0 ** 65}

    def perft(self) -> dict[str, Any]:
        """The perft table in the explorer's form (:func:`..explore.perft.table`)."""
        return {"preset": self.config.name, "symmetry": self.config.symmetry,
                "states": self.states, "edges": self.edges,
                "layers": self.layer_states, "by_action": list(self.layer_edges)}

    def path_to(self, sid: int) -> list[int]:
        path = [sid]
        while self.parent[path[-1]] >= 0:
            path.append(self.parent[path[-1]])
        return path[::-1]

    def close(self) -> None:
        for store in (self.records, self.src, self.dst, self.act):
            store.close()


Progress = Callable[[PackedGraph, int], None]


class PackedSearch:
    """A breadth-first search of one configuration over packed records."""

    def __init__(self, config: Config, successor: Choice = "engine",
                 spill: str | None = None, chunk: int = CHUNK, edges: bool = True,
                 progress: Progress | None = None, max_seconds: float | None = None) -> None:
        if config.symmetry:
            raise ValueError("the packed search has no colour symmetry yet")
        self.config = config
        self.deck = Deck.of(config.rules)
        self.layout = Layout(self.deck, len(config.players), config.rules.knocks_out())
        self.explorer = Explorer(config)  # its deals, in its order
        self.spill = spill
        self.chunk = chunk
        self.keep_edges = edges
        self.progress = progress
        self.max_seconds = max_seconds
        self.started = time.process_time()
        self.limit = memory.limit(config.memory_budget)
        self._successor = successor
        self.template: ExploreGame | None = None
        self._commands: CommandSuccessor | None = None
        self._generated: GeneratedSuccessor | None = None
        self.seeds: list[Key] = []  # the deals' control keys, where the module starts

    def successor(self) -> Successor:
        assert self.template is not None
        choice = self._successor
        if isinstance(choice, type):  # an EngineSuccessor class (a plant)
            made: EngineSuccessor = choice(self.layout, self.template, self.config.penalties)
            return made
        if not isinstance(choice, str):
            return choice
        if choice == "engine":
            return EngineSuccessor(self.layout, self.template, self.config.penalties)
        if choice == "commands":
            if self._commands is None:  # built once: its closures are per table
                self._commands = CommandSuccessor(self.layout, self.template,
                                                  self.config.penalties)
            return self._commands
        if choice in ("generated", "compiled", "c"):
            if self._generated is None:  # built once: its source is per table
                self._generated = GeneratedSuccessor(self.layout, self.template,
                                                     self.config.penalties)
                if choice == "c":
                    self._c(self._generated)
                # "compiled" only, asked by name: a table's first compile takes minutes
                elif choice == "compiled" and native.wanted():
                    self._generated.compile(self.seeds)
            return self._generated
        raise ValueError(f"unknown successor {choice!r}")

    def _c(self, gen: GeneratedSuccessor) -> None:
        """The C reading (``ctrans``: a build of seconds), else the pure Python source,
        the reason said once on stderr (not mypyc's, whose build takes minutes: asked
        by name, ``compiled``)."""
        built = gen.compile_c(self.seeds)
        if built.module is None:
            native.say_c(built.how)
            gen.built = native.Built(f"pure Python (the C reading is {built.how})")

    def run(self) -> PackedGraph:
        directory = tempfile.mkdtemp(prefix="packed-", dir=self.spill) \
            if self.spill is not None else None

        def at(name: str) -> Path | None:
            return None if directory is None else Path(directory, name)

        w = self.layout.width
        g = PackedGraph(self.config, self.layout, _Store(w, np.uint8, at("records")),
                        _Store(1, np.int32, at("src")), _Store(1, np.int32, at("dst")),
                        _Store(1, np.uint8, at("act")), directory=directory)
        started, cpu = time.perf_counter(), time.process_time()
        self.started = cpu
        collecting = gc.isenabled()
        gc.disable()
        try:
            self._search(g)
        except KeyboardInterrupt:
            g.stopped = "interrupted"
        finally:
            if collecting:
                gc.enable()
        g.seconds = time.perf_counter() - started
        g.cpu_seconds = time.process_time() - cpu
        if self._generated is not None:
            g.build = self._generated.built.how
            g.compile_seconds = self._generated.built.seconds
        g.peak_bytes = memory.peak_rss()
        return g

    # ------------------------------------------------------------------ search

    def _initial(self, g: PackedGraph) -> tuple[npt.NDArray[np.uint64], npt.NDArray[np.int32]]:
        cfg = self.config
        labeler: Labeler | None = None
        seen: dict[bytes, int] = {}
        rows = bytearray()
        for deal in self.explorer.deals():
            if self.template is None:
                self.template = first_outcome(cfg.players, cfg.rules, cfg.dealer, deal.json)
            for script, game in deal_outcomes(self.template, deal):
                labeler = labeler or Labeler(game)
                rec = self.layout.encode(game)
                sid = seen.get(rec)
                if sid is None:
                    sid = seen[rec] = len(seen)
                    rows += rec
                    g.parent.append(-1)
                    g.roots[sid] = Root(deal.json, script)
                for label in labeler.initial(game):
                    g.covered.setdefault(label, (-1, None, sid))
                    g.label_counts[label] = g.label_counts.get(label, 0) + 1
        g.records.append(bytes(rows))
        g.layer_start.append(0)
        recs = np.frombuffer(bytes(rows), dtype=np.uint8).reshape(-1, self.layout.width)
        self.seeds = sorted({key_of(rec) for rec in recs})
        fps = self.layout.fingerprints(recs)
        order = np.argsort(fps, kind="stable")
        fps = fps[order]
        if len(fps) > 1 and bool((fps[1:] == fps[:-1]).any()):
            raise RuntimeError("two deals share a fingerprint")
        return fps, order.astype(np.int32)

    def _search(self, g: PackedGraph) -> None:
        vfp, vid = self._initial(g)
        by_number = np.empty_like(vfp)
        by_number[vid] = vfp
        seen = visited()
        seen.add(by_number, 0)  # the deals' states, numbered as found (distinct: _initial)
        depth = 0
        while g.stopped is None:
            start = g.layer_start[depth]
            stop = g.states
            if stop <= start:
                g.layer_start.pop()
                break
            g.layer_start.append(stop)
            if bool((g.records.read(start, stop)[:, 0] == OVER_CODE).all()):
                break  # only finished rounds: the explorer's frontier is empty
            by_action: dict[int, int] = {}
            for lo in range(start, stop, self.chunk):
                hi = min(stop, lo + self.chunk)
                self._chunk(g, lo, hi, seen, by_action)
                g.expanded = hi
                g.visited_bytes = seen.nbytes
                if self._check(g, depth):
                    break
            g.layer_edges.append(dict(sorted((ACTION_TYPES[c].value, k)
                                             for c, k in by_action.items())))
            depth += 1
        if g.layer_start and g.layer_start[-1] >= g.states:
            g.layer_start.pop()

    def _check(self, g: PackedGraph, depth: int) -> bool:
        if self.progress is not None:
            self.progress(g, depth)
        cap = self.config.max_states
        if cap is not None and g.states >= cap:
            g.stopped = f"state limit {cap:,} reached"
        elif memory.rss() > self.limit:
            g.stopped = f"memory budget {self.limit / memory.GIB:.1f} GiB reached"
        elif self.max_seconds is not None and \
                time.process_time() - self.started > self.max_seconds:
            g.stopped = f"time limit {self.max_seconds:,.0f} CPU s reached"
        return g.stopped is not None

    def _tally(self, g: PackedGraph, edges: Batch, src: npt.NDArray[np.int32],
               by_action: dict[int, int]) -> dict[Label, tuple[int, Action, int]]:
        """A chunk's edges counted per action and per label; the first witness (source,
        action, child index) of each label not yet covered. Counted per distinct label
        tuple (an edge's labels, a finished round's ends), since a few dozen tuples cover
        a chunk's edges, and read in the order the edges give them (a round's ends before
        the edge's labels), so the first tuple that holds a label holds its first edge."""
        for code, count in Counter(edges.codes).items():
            by_action[code] = by_action.get(code, 0) + count
        ran, ends = edges.labels, edges.ends
        over = [(i, ends[i]) for i in compress(range(len(ends)), ends)]  # rounds ended
        tally = Counter(ran)
        tally.update(x for _, x in over)
        last = len(ran) - 1
        # each tuple's first index: a dict built from the edges backwards keeps it
        first = dict(zip(reversed(ran), range(last, -1, -1), strict=True))
        first_ends = {labels: i for i, labels in reversed(over)}
        order = sorted([(i, 1, labels) for labels, i in first.items()]
                       + [(i, 0, labels) for labels, i in first_ends.items()])
        counts, covered = g.label_counts, g.covered
        pending: dict[Label, tuple[int, Action, int]] = {}
        for i, _, labels in order:
            for label in labels:
                counts[label] = counts.get(label, 0) + tally[labels]
                if label not in covered and label not in pending:
                    pending[label] = (int(src[i]), edges.action(i), i)
            tally[labels] = 0  # counted once (a tuple both an edge's labels and ends)
        return pending

    def _tally_flat(self, g: PackedGraph, edges: FlatBatch, src: npt.NDArray[np.int32],
                    by_action: dict[int, int]) -> dict[Label, tuple[int, Action, int]]:
        """:meth:`_tally` over labels as numbers: counted by ``bincount``; a label not
        yet covered gets its first edge (a round's ends before the edge's labels, then
        the label's place in them), and new labels are counted in that order, so counts,
        witnesses and their order are :meth:`_tally`'s."""
        codes = np.frombuffer(edges.codes, dtype=np.uint8)
        for code, count in enumerate(np.bincount(codes).tolist()):
            if count:
                by_action[code] = by_action.get(code, 0) + count
        table = edges.labels_table
        n = len(table)
        tally = np.bincount(edges.end_ids, minlength=n) + \
            np.bincount(edges.label_ids, minlength=n)
        counts, covered = g.label_counts, g.covered
        present = np.nonzero(tally)[0].tolist()
        new = [i for i in present if table[i] not in covered]
        for i in present:
            if table[i] in counts and i not in new:  # already counted: its place stays
                counts[table[i]] += int(tally[i])
        pending: dict[Label, tuple[int, Action, int]] = {}
        if not new:
            return pending
        first = _first_keys(edges, new, n)
        for i in sorted(new, key=lambda i: int(first[i])):
            label = table[i]
            counts[label] = counts.get(label, 0) + int(tally[i])
            at = int(first[i]) >> 17
            pending[label] = (int(src[at]), edges.action(at), at)
        return pending

    def _chunk(self, g: PackedGraph, lo: int, hi: int, seen: Visited,
               by_action: dict[int, int]) -> None:
        succ = self.successor()
        width = self.layout.width
        frontier = g.records.read(lo, hi).tobytes()  # a record is a slice of it
        clock = time.process_time()
        edges: Batch | FlatBatch
        if isinstance(succ, GeneratedSuccessor):
            edges = succ.flat_batch(frontier, width, hi - lo) if succ.c_expand is not None \
                else succ.batch(frontier, width, hi - lo)
        else:
            edges = batch(succ, frontier, width, hi - lo)
        counts = np.asarray(edges.counts, dtype=np.int64)
        numbers = np.arange(lo, hi, dtype=np.int32)
        # a state with no edge is stuck, unless its round is over
        over = np.frombuffer(frontier, dtype=np.uint8)[0::width] == OVER_CODE
        g.stuck.extend(numbers[(counts == 0) & ~over].tolist())
        src = np.repeat(numbers, counts)
        codes = edges.codes
        children = edges.children
        pending = self._tally_flat(g, edges, src, by_action) \
            if isinstance(edges, FlatBatch) else self._tally(g, edges, src, by_action)
        k = len(codes)
        g.successor_seconds += time.process_time() - clock
        g.generated += k
        if not k:
            return
        recs = np.frombuffer(children, dtype=np.uint8).reshape(k, self.layout.width)
        ids, firsts = seen.add(self.layout.fingerprints(recs), g.states)
        if len(firsts):
            g.records.append(recs[firsts])
            g.parent.extend(src[firsts].tolist())
        for label, (sid, action, index) in pending.items():
            g.covered[label] = (sid, action, int(ids[index]))
        if self.keep_edges:
            g.src.append(src)
            g.dst.append(ids)
            g.act.append(bytes(codes))
        else:
            g.src.rows += k


def _first_keys(edges: FlatBatch, wanted: list[int], n: int) -> npt.NDArray[np.int64]:
    """Per label number in ``wanted``, the order key of its first place in the batch:
    ``(edge * 2 + stream) << 16 | place``, the ends' stream (0) before the labels' (1)."""
    want = np.zeros(n, dtype=bool)
    want[wanted] = True
    best = np.full(n, np.iinfo(np.int64).max, dtype=np.int64)
    for which, ids, lens in ((0, edges.end_ids, edges.end_lens),
                             (1, edges.label_ids, edges.label_lens)):
        hit = np.nonzero(want[ids])[0]
        if not len(hit):
            continue
        ends = np.cumsum(np.asarray(lens, dtype=np.int64))
        edge = np.searchsorted(ends, hit, side="right")
        place = hit - (ends[edge] - np.asarray(lens, dtype=np.int64)[edge])
        np.minimum.at(best, np.asarray(ids[hit], dtype=np.int64),
                      (edge * 2 + which) << 16 | place)
    return best


def search(config: Config, successor: Choice = "engine", spill: str | None = None,
           chunk: int = CHUNK, edges: bool = True, progress: Progress | None = None,
           max_seconds: float | None = None) -> PackedGraph:
    return PackedSearch(config, successor, spill, chunk, edges, progress, max_seconds).run()


def first_game(cfg: Config) -> ExploreGame:
    """A game of ``cfg``'s table from its first deal: the template records decode into,
    as the search builds it."""
    deal = next(iter(Explorer(cfg).deals()))
    return first_outcome(cfg.players, cfg.rules, cfg.dealer, deal.json)


def cleanup(g: PackedGraph) -> None:
    """Close the graph's files and remove its spill directory."""
    g.close()
    if g.directory is not None:
        for name in os.listdir(g.directory):
            os.remove(os.path.join(g.directory, name))
        os.rmdir(g.directory)
