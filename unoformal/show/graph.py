"""A small state graph as page data: nodes drawn as in ``explore --picture``, each with
its state, and the edge from its BFS parent (the action and the rules it exercised), so a
click on a node steps the trace from its deal to it.

The selection, roles (stuck, trap, no round end, over, deal), witness path, box labels
and layout are the picture's own (:mod:`unoformal.verification.explore.picture`); only
the drawing moves from matplotlib to the page's SVG.
"""

from __future__ import annotations

from itertools import pairwise
from typing import Any

from unoformal.engine.actions import Action
from unoformal.errors import InvalidInputError
from unoformal.inputs import MAX_PAGE_STATES
from unoformal.show import trace
from unoformal.verification.explore.analysis import Findings, analyse
from unoformal.verification.explore.chance import ExploreGame, outcomes
from unoformal.verification.explore.coverage import Labeler, catalogue
from unoformal.verification.explore.graph import Config, StateGraph, explore, preset_config
from unoformal.verification.explore.picture import (
    LEGEND,
    edges,
    focus,
    games,
    label,
    layout,
    node_styles,
    select,
)
from unoformal.verification.explore.witness import path_to

Json = dict[str, Any]
# Pixels per inch of the picture's layout: wider than tall, for the actions on the arrows.
PX, PY = 110, 64
BOX = (170, 70)  # a node's box, pixels
MARGIN = 100


def preset_page(name: str, limit: int) -> Json:
    """Explore the preset ``name`` and make its page."""
    return graph_page(preset_config(name), limit)


def graph_page(config: Config, limit: int) -> Json:
    graph = explore(config)  # Ctrl-C goes on (no partial graph): no page is written
    found = analyse(graph)
    _check_fits(graph, found, limit)
    chosen = select(graph, found, limit)
    nodes = chosen.nodes
    known = games(graph, sorted({s for n in nodes for s in path_to(graph, n)}))
    steps = set(pairwise(chosen.path))
    arrows, _ = edges(graph, nodes)
    styles = node_styles(graph, found, nodes, chosen.path)
    pos = layout(graph, nodes)
    return {"kind": "graph", "title": f"state graph of {config.name}",
            "source": f"explore --preset {config.name}", "players": list(config.players),
            "steps": [],
            "table": trace.table_data(config.rules, _cited(graph)),
            "graph": {
                "heading": f"{graph.states:,} states, {graph.edges:,} edges",
                "lines": _lines(graph, found, chosen.what, chosen.note),
                "legend": dict(LEGEND),
                "box": list(BOX), **_frame(pos),
                "nodes": [_node(sid, known[sid], styles[sid].role, styles[sid].witness,
                                pos[sid], _low(pos)) for sid in nodes],
                "edges": [{"s": s, "d": d, "label": a, "witness": (s, d) in steps}
                          for (s, d), a in sorted(arrows.items())],
                "states": {str(s): trace.snapshot(g) for s, g in sorted(known.items())},
                "parent": {str(s): _parent(graph, known, s) for s in sorted(known)},
                "focus": chosen.path[-1] if chosen.path else None}}


def _check_fits(graph: StateGraph, found: Findings, limit: int) -> None:
    """A page draws at least the witness path; a longer one is refused here, before the
    picture's selection would refuse it with the advice of ``explore --picture``."""
    path, what = focus(graph, found)
    states = len(set(path))
    if states <= limit:
        return
    more = f"raise --limit (at most {MAX_PAGE_STATES:,}), or " \
        if states <= MAX_PAGE_STATES else ""
    raise InvalidInputError(
        f"{graph.states:,} states, and the shortest path to {what} alone has {states}: "
        f"the page shows at most {limit}; {more}write the whole graph with 'unoformal "
        f"explore --preset {graph.config.name} --dot FILE'", key="--limit")


def _lines(graph: StateGraph, found: Findings, what: str, note: str) -> list[str]:
    lines = [f"the witness (thick blue): the shortest path to {what}",
             f"stuck states {len(found.stuck)}, traps {len(found.real_traps())}, "
             f"round-over states {found.round_over}",
             "click a state to step through the path from its deal to it"]
    return [*lines, note] if note else lines


def _frame(pos: dict[int, tuple[float, float]]) -> Json:
    width = max(x for x, _ in pos.values()) * PX + 2 * MARGIN
    height = -min(y for _, y in pos.values()) * PY + 2 * MARGIN
    return {"width": round(width), "height": round(height)}


def _low(pos: dict[int, tuple[float, float]]) -> float:
    return min(y for _, y in pos.values())


def _node(sid: int, game: ExploreGame, role: str, witness: bool,
          at: tuple[float, float], low: float) -> Json:
    """A box; the picture's rows turned upside down, so the first deal is at the top."""
    x, y = at
    return {"id": sid, "x": round(x * PX + MARGIN), "y": round((y - low) * PY + MARGIN),
            "role": role.replace(" ", "-"), "witness": witness,
            "lines": label(sid, game).splitlines()}


def _parent(graph: StateGraph, known: dict[int, ExploreGame], sid: int) -> list[Any]:
    """``[parent, action, labels, reveal]`` of a state (a deal: ``[-1, None, labels]``)."""
    parent = graph.parent[sid]
    if parent < 0:
        return [-1, None, trace.initial_labels(known[sid]), None]
    action, child = _edge(graph, known[parent], sid)
    labels = [trace.label(r, b, child.rules) for r, b in Labeler(child).edge(child)]
    return [parent, str(action), labels, trace.reveal(child, action)]


def _edge(graph: StateGraph, game: ExploreGame, sid: int) -> tuple[Action, ExploreGame]:
    """The action and outcome that lead from ``game`` to state ``sid``."""
    want = graph.keys[sid]
    for action in game.legal_actions(penalties=graph.config.penalties):
        for _, child in outcomes(game, action, True):
            if graph.keyer.key(child) == want:
                return action, child
    raise AssertionError(f"no successor of #{graph.parent[sid]} is #{sid}")


def _cited(graph: StateGraph) -> set[str]:
    """Every rule whose branches a state of this table may exercise."""
    return {"HIDDEN-1", "END-2", *(b.rule for b in catalogue(graph.config.rules))}
