"""Exhaustive exploration of one round's state graph, by breadth-first search.

States are canonical keys (:mod:`.keys`); transitions are the engine's own
(:mod:`.chance`). Every deal of the small deck, for a fixed dealer, is an initial
state. The search records, for every state, its BFS parent and depth (shortest
witnesses), and the edges as flat integer arrays, so a million-state graph fits in
memory; :meth:`StateGraph.to_networkx` gives the networkx graph of small ones.
"""

from __future__ import annotations

import gc
import time
from array import array
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

import networkx as nx

from unoformal.engine.actions import Action, ActionType
from unoformal.rulebook.deck import Deck
from unoformal.rulebook.table import RuleTable
from unoformal.rules.state import OVER, PHASES, RESPOND
from unoformal.verification.explore import memory
from unoformal.verification.explore.chance import (
    Deal,
    ExploreGame,
    deal_outcomes,
    first_outcome,
    outcomes,
)
from unoformal.verification.explore.coverage import Label, Labeler
from unoformal.verification.explore.keys import Keyer
from unoformal.verification.explore.presets import PRESETS, small_rules

ACTION_TYPES = list(ActionType)
ACTION_INDEX = {t: i for i, t in enumerate(ACTION_TYPES)}
OVER_INDEX = PHASES.index(OVER)


@dataclass(frozen=True)
class Config:
    rules: RuleTable
    players: tuple[str, ...]
    name: str = "custom"
    symmetry: bool = False
    penalties: bool = True
    memory_budget: int = 8 * memory.GIB
    max_states: int | None = None

    @property
    def dealer(self) -> str:
        """The last seat deals, so the first seat plays first (DEAL-3)."""
        return self.players[-1]

    def __reduce__(self) -> tuple[type[Config], tuple[Any, ...]]:
        # Compiled (setup.py), the default pickling sets the fields back one by one,
        # which a frozen class refuses; a Dask worker receives its Config pickled.
        return (Config, (self.rules, self.players, self.name, self.symmetry,
                         self.penalties, self.memory_budget, self.max_states))


def preset_config(name: str, symmetry: bool = False, **options: Any) -> Config:
    """The configuration of the named preset (``options``: the other ``Config`` fields)."""
    preset = PRESETS[name]
    return Config(small_rules(preset.size, extra=preset.extra, name=name),
                  tuple(preset.size.players_list()), name, symmetry, preset.size.penalties,
                  **options)


@dataclass
class Root:
    deal: dict[str, Any]
    script: tuple[int, ...]


@dataclass
class StateGraph:
    config: Config
    keyer: Keyer
    keys: list[bytes] = field(default_factory=list)
    index: dict[bytes, int] = field(default_factory=dict)
    parent: array[int] = field(default_factory=lambda: array("i"))
    depth: array[int] = field(default_factory=lambda: array("i"))
    phase: bytearray = field(default_factory=bytearray)
    expanded: bytearray = field(default_factory=bytearray)
    orbit: array[int] = field(default_factory=lambda: array("i"))
    src: array[int] = field(default_factory=lambda: array("i"))
    dst: array[int] = field(default_factory=lambda: array("i"))
    act: bytearray = field(default_factory=bytearray)
    roots: dict[int, Root] = field(default_factory=dict)
    # first witness of each label: (source state or -1 for a deal, action, target state)
    covered: dict[Label, tuple[int, Action | None, int]] = field(default_factory=dict)
    controls: set[tuple[Any, ...]] = field(default_factory=set)
    layer_states: list[int] = field(default_factory=list)
    layer_edges: list[dict[str, int]] = field(default_factory=list)
    stopped: str | None = None  # why the search stopped early, if it did
    started: float = field(default_factory=time.perf_counter)
    seconds: float = 0.0
    peak_bytes: int = 0

    def seconds_so_far(self) -> float:
        return time.perf_counter() - self.started

    @property
    def states(self) -> int:
        return len(self.keys)

    @property
    def edges(self) -> int:
        return len(self.src)

    @property
    def complete(self) -> bool:
        return self.stopped is None

    def over(self, sid: int) -> bool:
        return self.phase[sid] == OVER_INDEX

    def add(self, key: bytes, parent: int, depth: int, game: ExploreGame) -> int:
        sid = len(self.keys)
        self.keys.append(key)
        self.index[key] = sid
        self.parent.append(parent)
        self.depth.append(depth)
        self.phase.append(PHASES.index(game.phase))
        self.expanded.append(0)
        if self.keyer.symmetry:
            self.orbit.append(self.keyer.orbit(game))
        self.controls.add(control(game))
        return sid

    def to_networkx(self, nodes: set[int] | None = None) -> nx.MultiDiGraph:
        """The graph (or the part on ``nodes``) as networkx, actions on the edges."""
        graph = nx.MultiDiGraph()
        for sid in range(self.states) if nodes is None else sorted(nodes):
            graph.add_node(sid, phase=PHASES[self.phase[sid]], depth=self.depth[sid])
        for e in range(self.edges):
            s, d = self.src[e], self.dst[e]
            if nodes is None or (s in nodes and d in nodes):
                graph.add_edge(s, d, action=ACTION_TYPES[self.act[e]].value)
        return graph


def control(g: ExploreGame) -> tuple[Any, ...]:
    """The control state: everything but the cards."""
    respond = g.phase == RESPOND
    return (g.phase, g.turn, g.direction, g.uno_window,
            g.pending_kind.value if respond and g.pending_kind else None,
            g.wd4_legal if respond else None, g.color is None)


Progress = Callable[[StateGraph, int], None]


class Explorer:
    def __init__(self, config: Config, progress: Progress | None = None) -> None:
        self.config = config
        self.deck = Deck.of(config.rules)
        self.keyer = Keyer(self.deck, config.symmetry, config.rules.knocks_out())
        self.progress = progress
        self.limit = memory.limit(config.memory_budget)

    def deals(self) -> Iterator[Deal]:
        """Every deal: hands as multisets per seat, a start card, the rest as a multiset.
        Deals whose start card goes back (START-WD4) come last, so an initial state is
        witnessed by a deal without a shuffle whenever one exists."""
        size = self.config.rules.deal.hand_size
        n = len(self.config.players)
        later = []
        for hands, rest in _split(list(self.deck.copies), [size] * n):
            for start in sorted({c for c, k in enumerate(rest) if k}):
                left = list(rest)
                left[start] -= 1
                pile = [start, *_faces(left)]
                deal = Deal({"hands": {name: self._codes(h) for name, h in
                                       zip(self.config.players, hands, strict=True)},
                             "draw_pile": [self.deck.code(f) for f in pile]},
                            tuple(tuple(_faces(h)) for h in hands), pile)
                rule = self.config.rules.start_rule(self.deck.faces[start].kind)
                if rule is not None and rule.turn_another_card:
                    later.append(deal)
                else:
                    yield deal
        yield from later

    def _codes(self, counts: list[int]) -> list[str]:
        return [self.deck.code(f) for f in _faces(counts)]

    def run(self, partial: bool = False) -> StateGraph:
        """The graph; on Ctrl-C, with ``partial``, the graph so far (``stopped`` says
        so), else the ``KeyboardInterrupt`` goes on: a caller that takes a graph for
        whole (a page, a picture) must not get half of one unawares."""
        graph = StateGraph(self.config, self.keyer)
        # The search makes no reference cycles (every state, game and key is freed by its
        # reference count), but the cycle collector would walk every live frontier game
        # again and again: half the CPU time of `actions`. It is off while the search runs.
        collecting = gc.isenabled()
        gc.disable()
        try:
            frontier = self._initial(graph)
            depth = 0
            while frontier and graph.stopped is None:
                frontier = self._layer(graph, frontier, depth)
                depth += 1
        except KeyboardInterrupt:
            if not partial:
                raise
            graph.stopped = "interrupted"
        finally:
            if collecting:
                gc.enable()
        graph.seconds = graph.seconds_so_far()
        layers = [0] * (max(graph.depth, default=-1) + 1)
        for d in graph.depth:
            layers[d] += 1
        graph.layer_states = layers
        graph.peak_bytes = memory.peak_rss()
        return graph

    def _initial(self, graph: StateGraph) -> list[tuple[int, ExploreGame]]:
        cfg = self.config
        frontier = []
        labeler: Labeler | None = None
        template: ExploreGame | None = None
        for deal in self.deals():
            if template is None:
                template = first_outcome(cfg.players, cfg.rules, cfg.dealer, deal.json)
            for script, game in deal_outcomes(template, deal):
                labeler = labeler or Labeler(game)
                key = self.keyer.key(game)
                sid = graph.index.get(key)
                if sid is None:
                    sid = graph.add(key, -1, 0, game)
                    graph.roots[sid] = Root(deal.json, script)
                    frontier.append((sid, game))
                for label in labeler.initial(game):
                    graph.covered.setdefault(label, (-1, None, sid))
        self.labeler = labeler
        return frontier

    def _layer(self, graph: StateGraph, frontier: list[tuple[int, ExploreGame]],
               depth: int) -> list[tuple[int, ExploreGame]]:
        nxt: list[tuple[int, ExploreGame]] = []
        by_action: dict[ActionType, int] = {}
        for done, (sid, game) in enumerate(frontier):
            self._expand(graph, sid, game, depth, nxt, by_action)
            if done % 512 == 511 and self._check(graph):
                break
        graph.layer_edges.append(dict(sorted((t.value, k) for t, k in by_action.items())))
        return nxt

    def _check(self, graph: StateGraph) -> bool:
        if self.progress is not None:
            self.progress(graph, len(graph.layer_edges))
        cap = self.config.max_states
        if cap is not None and graph.states >= cap:
            graph.stopped = f"state limit {cap:,} reached"
        elif memory.rss() > self.limit:
            graph.stopped = f"memory budget {self.limit / memory.GIB:.1f} GiB reached"
        return graph.stopped is not None

    def _expand(self, graph: StateGraph, sid: int, game: ExploreGame, depth: int,
                nxt: list[tuple[int, ExploreGame]], by_action: dict[ActionType, int]) -> None:
        labeler = self.labeler
        assert labeler is not None
        key_of, index, covered = self.keyer.key, graph.index, graph.covered
        src, dst, act = graph.src, graph.dst, graph.act
        for action in game.legal_actions(penalties=self.config.penalties):
            kind = action.type  # an enum's .value is a slow descriptor: counted by member
            code = ACTION_INDEX[kind]
            # An (action, target) pair is one edge. legal_actions lists an action once
            # (tests/engine/test_stateful.py), so only this action's outcomes can repeat a
            # target: a short list, where a set per action cost an allocation each.
            targets: list[int] = []
            for _, child in outcomes(game, action, True):
                key = key_of(child)
                cid = index.get(key)
                if cid is None:
                    cid = graph.add(key, sid, depth + 1, child)
                    if child.phase == OVER:
                        graph.expanded[cid] = 1  # a round-over state has no move
                        for label in labeler.over(child):
                            covered.setdefault(label, (sid, action, cid))
                    else:
                        nxt.append((cid, child))
                if cid in targets:
                    continue
                targets.append(cid)
                src.append(sid)
                dst.append(cid)
                act.append(code)
                by_action[kind] = by_action.get(kind, 0) + 1
                for label in labeler.edge(child):
                    if label not in covered:
                        covered[label] = (sid, action, cid)
        graph.expanded[sid] = 1


def _faces(counts: list[int]) -> list[int]:
    return [f for f, k in enumerate(counts) for _ in range(k)]


def _split(counts: list[int], sizes: list[int]) -> Iterator[tuple[list[list[int]], list[int]]]:
    """Every way to take hands of the given sizes (as count vectors) from ``counts``."""
    if not sizes:
        yield [], counts
        return
    for hand in _bags(list(counts), sizes[0], 0):
        rest = [c - h for c, h in zip(counts, hand, strict=True)]
        for hands, left in _split(rest, sizes[1:]):
            yield [hand, *hands], left


def _bags(counts: list[int], size: int, start: int) -> Iterator[list[int]]:
    """Every sub-multiset of ``size`` cards, as a count vector."""
    if size == 0:
        yield [0] * len(counts)
        return
    for face in range(start, len(counts)):
        if counts[face]:
            counts[face] -= 1
            for bag in _bags(counts, size - 1, face):
                bag[face] += 1
                yield bag
            counts[face] += 1


def explore(config: Config, progress: Progress | None = None,
            partial: bool = False) -> StateGraph:
    return Explorer(config, progress).run(partial)
