"""What the explorer finds in a state graph: stuck states, traps, endless rounds, dead
rules and branches, unreachable control states."""

from __future__ import annotations

from array import array
from collections import deque
from collections.abc import Collection
from dataclasses import dataclass, field
from typing import Any

import networkx as nx

from unoformal.rulebook.deck import Deck
from unoformal.rules.state import OVER, RESPOND, START, phases_of
from unoformal.verification.explore.coverage import OUTSIDE, Branch, Label, catalogue
from unoformal.verification.explore.graph import Config, StateGraph

SCC_LIMIT = 200_000  # bottom components are listed (networkx) up to this many doomed states


@dataclass
class Csr:
    """Edges as compressed rows: the targets of ``s`` are ``to[start[s]:start[s+1]]``."""

    start: array[int]
    to: array[int]

    def row(self, s: int) -> array[int]:
        return self.to[self.start[s]:self.start[s + 1]]


def csr(n: int, src: array[int], dst: array[int]) -> Csr:
    start = array("i", [0]) * (n + 1)
    for s in src:
        start[s + 1] += 1
    for i in range(n):
        start[i + 1] += start[i]
    fill = array("i", start[:n])
    to = array("i", [0]) * len(src)
    for s, d in zip(src, dst, strict=True):
        to[fill[s]] = d
        fill[s] += 1
    return Csr(start, to)


@dataclass
class Findings:
    stuck: list[int] = field(default_factory=list)
    round_over: int = 0
    doomed: list[int] = field(default_factory=list)  # no round end reachable (AG EF fails)
    traps: list[list[int]] = field(default_factory=list)  # bottom components without an end
    cycle: list[int] | None = None  # a cycle of states: the round can go on forever
    idle_loops: int = 0  # actions that change nothing (e.g. advising with nothing to draw)
    covered: dict[tuple[str, str], tuple[int, Any, int]] = field(default_factory=dict)
    dead: list[tuple[Branch, str]] = field(default_factory=list)  # (branch, why)
    unreached: list[str] = field(default_factory=list)
    outside: dict[str, str] = field(default_factory=dict)

    def more_than_stuck(self, members: list[int]) -> bool:
        """Whether a bottom component is a trap of its own, not one stuck state (those
        are reported as stuck)."""
        return len(members) > 1 or members[0] not in self.stuck

    def real_traps(self) -> list[list[int]]:
        return [m for m in self.traps if self.more_than_stuck(m)]


def analyse(graph: StateGraph) -> Findings:
    found = Findings(covered=dict(graph.covered))
    n = graph.states
    out_degree = array("i", [0]) * n
    for s in graph.src:
        out_degree[s] += 1
    found.round_over = sum(1 for sid in range(n) if graph.over(sid))
    found.stuck = [sid for sid in range(n) if graph.expanded[sid] and not graph.over(sid)
                   and out_degree[sid] == 0]
    found.dead = dead_branches(graph)
    found.unreached = unreached(graph)
    found.outside = {rule.id: OUTSIDE[rule.id] for _, rule in graph.config.rules.entries()
                     if rule.id in OUTSIDE}
    if not graph.complete:
        return found  # reachability claims need the whole graph
    back = csr(n, graph.dst, graph.src)
    ends = reach(back, [sid for sid in range(n) if graph.over(sid)], n)
    found.doomed = [sid for sid in range(n) if not ends[sid]]
    found.traps = bottom_components(graph, found.doomed)
    found.idle_loops = sum(1 for s, d in zip(graph.src, graph.dst, strict=True) if s == d)
    found.cycle = find_cycle(graph)
    return found


def reach(rows: Csr, seeds: list[int], n: int) -> bytearray:
    seen = bytearray(n)
    queue = deque(seeds)
    for s in seeds:
        seen[s] = 1
    while queue:
        s = queue.popleft()
        for t in rows.row(s):
            if not seen[t]:
                seen[t] = 1
                queue.append(t)
    return seen


def bottom_components(graph: StateGraph, doomed: list[int]) -> list[list[int]]:
    """Strongly connected components of the doomed states with no edge out: the traps
    (a stuck state is a trivial one). Listed by size, largest first."""
    if not doomed or len(doomed) > SCC_LIMIT:
        return [doomed] if doomed else []
    sub = nx.DiGraph()
    sub.add_nodes_from(doomed)
    nodes = set(doomed)
    for s, d in zip(graph.src, graph.dst, strict=True):
        if s in nodes and d in nodes:
            sub.add_edge(s, d)
    cond = nx.condensation(sub)
    bottoms = [sorted(cond.nodes[c]["members"]) for c in cond.nodes if cond.out_degree(c) == 0]
    return sorted(bottoms, key=lambda m: (-len(m), graph.depth[m[0]]))


def find_cycle(graph: StateGraph) -> list[int] | None:
    """A cycle of two or more states, if any (the round can go on forever even when
    every action changes the state), found nearest the deals. Self-loops (actions that
    change nothing) are counted apart as ``idle_loops``.

    Peel states that cannot be on or lead to a cycle (no successor left); what remains
    leads to a cycle; walk from its shallowest state until a state repeats."""
    n = graph.states
    keep = [e for e in range(graph.edges) if graph.src[e] != graph.dst[e]]
    src = array("i", (graph.src[e] for e in keep))
    dst = array("i", (graph.dst[e] for e in keep))
    fwd, back = csr(n, src, dst), csr(n, dst, src)
    out_degree = array("i", [0]) * n
    for s in src:
        out_degree[s] += 1
    left = array("i", out_degree)
    alive = bytearray([1]) * n
    queue = deque(sid for sid in range(n) if left[sid] == 0)
    while queue:
        s = queue.popleft()
        alive[s] = 0
        for p in back.row(s):
            left[p] -= 1
            if left[p] == 0:
                queue.append(p)
    rest = [sid for sid in range(n) if alive[sid]]
    if not rest:
        return None
    walk = [min(rest, key=lambda s: graph.depth[s])]
    where = {walk[0]: 0}
    while True:
        nxt = next(t for t in fwd.row(walk[-1]) if alive[t])
        if nxt in where:
            return [*walk[where[nxt]:], nxt]
        where[nxt] = len(walk)
        walk.append(nxt)


def dead_branches(graph: StateGraph) -> list[tuple[Branch, str]]:
    return dead_of(graph.config, set(graph.covered), graph.stopped)


def dead_of(config: Config, covered: Collection[Label], stopped: str | None
            ) -> list[tuple[Branch, str]]:
    """The branches of ``config``'s table not in ``covered``, each with why: a search's
    own (the explorer's graph, or the packed search's arrays); ``stopped``: why the
    search stopped, None for a complete one."""
    rules = config.rules
    deck = Deck.of(rules)
    dealt = {face.kind for face, k in zip(deck.faces, deck.copies, strict=True) if k}
    out = []
    for branch in catalogue(rules):
        if (branch.rule, branch.name) in covered:
            continue
        if not config.penalties and branch.rule in (rules.misplay.id, rules.advice.id):
            why = "not explored (penalty actions left out)"
        elif branch.kinds and not dealt & set(branch.kinds):
            why = "not in this deck (no " + ", ".join(k.value for k in branch.kinds) + ")"
        elif stopped is not None:
            why = f"not seen before the search stopped ({stopped})"
        else:
            why = "never enabled in any reachable state"
        out.append((branch, why))
    return out


def unreached(graph: StateGraph) -> list[str]:
    """Control states the state type allows that no deal reaches: phases, and per phase
    the direction, the UNO window, the pending draw card and the WD4-1 verdict."""
    rules = graph.config.rules
    n = len(graph.config.players)
    seen_phase = {c[0] for c in graph.controls}
    phases = phases_of(rules)
    out = [f"phase {p!r} never reached" for p in phases if p not in seen_phase]
    draws = [k.value for k in rules.drawing_kinds()]
    for phase in phases:
        if phase not in seen_phase or phase in (START,):
            continue
        rows = [c for c in graph.controls if c[0] == phase]
        fields: list[tuple[str, int, list[Any]]] = [
            ("direction", 2, [1, -1]), ("UNO window", 3, [None, *range(n)])]
        if phase == RESPOND:
            fields += [("pending kind", 4, draws), ("WD4-1 legal", 5, [True, False])]
        if phase == OVER:
            fields = [("UNO window", 3, [None, *range(n)])]
        for name, at, domain in fields:
            have = {c[at] for c in rows}
            for value in domain:
                if value not in have:
                    shown = _show(name, value, graph)
                    out.append(f"phase {phase!r}: {name} = {shown} never reached")
    return out


def _show(name: str, value: Any, graph: StateGraph) -> str:
    if value is None:
        return "none"
    if name == "direction":
        return "left" if value == 1 else "right"
    if name == "UNO window":
        return str(graph.config.players[value])
    return str(value)
