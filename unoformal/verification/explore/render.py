"""Pictures through graphviz: DOT always (pydot), PNG when the ``dot`` binary exists."""

from __future__ import annotations

import shutil
from pathlib import Path

import pydot

from unoformal.errors import InvalidInputError
from unoformal.inputs import atomic_path, write_text
from unoformal.rules.state import PHASES
from unoformal.verification.explore.graph import ACTION_TYPES, StateGraph

WHOLE_LIMIT = 300  # above this many states, draw a neighbourhood instead
COLORS = {"over": "palegreen", "start": "salmon", "respond": "lightgoldenrod",
          "drawn": "lightblue", "color": "plum", "play": "white", "more": "lightcyan"}


def neighbourhood(graph: StateGraph, focus: list[int], radius: int = 1) -> set[int]:
    """The states on ``focus`` (a witness path) and those within ``radius`` edges."""
    nodes = set(focus)
    for _ in range(radius):
        grown = set(nodes)
        for s, d in zip(graph.src, graph.dst, strict=True):
            if s in nodes:
                grown.add(d)
        nodes = grown
    return nodes


def to_dot(graph: StateGraph, nodes: set[int] | None = None,
           marked: set[int] | None = None) -> pydot.Dot:
    marked = marked or set()
    if nodes is None and graph.states > WHOLE_LIMIT:
        raise InvalidInputError(f"{graph.states:,} states are too many to draw; a "
                                "witness's neighbourhood is drawn instead")
    chosen = set(range(graph.states)) if nodes is None else nodes
    dot = pydot.Dot(graph_type="digraph", rankdir="LR")
    for sid in sorted(chosen):
        phase = PHASES[graph.phase[sid]]
        dot.add_node(pydot.Node(
            str(sid), label=f"{sid}\\n{phase} d{graph.depth[sid]}", style="filled",
            fillcolor="red" if sid in marked else COLORS.get(phase, "white"),
            shape="doublecircle" if graph.parent[sid] < 0 else "box"))
    for e in range(graph.edges):
        s, d = graph.src[e], graph.dst[e]
        if s in chosen and d in chosen:
            dot.add_edge(pydot.Edge(str(s), str(d), label=ACTION_TYPES[graph.act[e]].value))
    return dot


def write(dot: pydot.Dot, path: str | Path, png: bool) -> None:
    path = Path(path)
    if png:
        if shutil.which("dot") is None:
            raise InvalidInputError("--png needs the graphviz 'dot' program (Debian: "
                                    "apt-get install graphviz); --dot FILE writes the DOT "
                                    "text without it")
        with atomic_path(str(path), "picture") as temporary:
            dot.write(temporary, format="png")
    else:
        write_text(str(path), dot.to_string(), "DOT file")
