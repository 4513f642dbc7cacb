"""Pictures of small state graphs that show the cards, with no graphviz needed.

Each state is drawn as a box holding what a player at the table would see if every hand
were face up: whose turn it is (and the phase when it is not a plain turn), the top card
and the current color, and every seat's hand. Stuck states, traps and the states from
which no round end is reachable are filled in warning colors; the *witness* — the
shortest path from a deal to the first finding (a stuck state, a trap, else the cycle
that lets a round go on for ever), as ``unoformal explore --witnesses`` writes it — is
drawn with thick blue borders and arrows.

The layout is networkx's (``multipartite_layout``: one column per BFS depth, as graphviz
draws ``rankdir=LR``); the drawing is matplotlib's, which writes SVG, PNG and PDF by
itself (an optional extra, imported only here, only when a picture is asked for).

The states are not decoded from the explorer's keys: each one is replayed from its BFS
parent with the engine's own successor function (as witnesses are), so a picture shows
exactly the engine's state whatever the key layout.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from itertools import pairwise
from pathlib import Path
from typing import TYPE_CHECKING

import networkx as nx

from unoformal.errors import InvalidInputError
from unoformal.inputs import atomic_path, show
from unoformal.rules.state import COLOR, DRAWN, OVER, PLAY, RESPOND, START
from unoformal.verification.explore.analysis import Findings
from unoformal.verification.explore.chance import ExploreGame
from unoformal.verification.explore.graph import ACTION_TYPES, StateGraph
from unoformal.verification.explore.witness import path_to, step_to

if TYPE_CHECKING:
    from matplotlib.axes import Axes
    from matplotlib.text import Text

# A box of five lines of cards stays readable up to about this many states; beyond it a
# picture is a grey smear, so a larger graph is drawn as a witness and its neighbours.
PICTURE_LIMIT = 60
FORMATS = ("svg", "png", "pdf")

STUCK, TRAP, DOOMED, OVER_ROLE, DEAL, PLAIN = (
    "stuck", "trap", "no round end", "round over", "deal", "state")
FILL = {STUCK: "#e8423f", TRAP: "#f39c34", DOOMED: "#f7c6c0", OVER_ROLE: "#b8e6b0",
        DEAL: "#cfe2f7", PLAIN: "#ffffff"}
WITNESS_COLOR = "#1f4e9c"
LEGEND = {STUCK: "stuck: no move, round not over", TRAP: "trap: a loop with no way out",
          DOOMED: "no round end reachable", OVER_ROLE: "round over", DEAL: "a deal",
          PLAIN: "state"}


@dataclass(frozen=True)
class Style:
    """How one state is drawn: its role (the fill) and whether the witness passes it."""

    role: str
    witness: bool

    @property
    def fill(self) -> str:
        return FILL[self.role]


@dataclass(frozen=True)
class Selection:
    """The states a picture shows, the witness path among them, and what was left out."""

    nodes: list[int]
    path: list[int]
    what: str  # the finding the witness leads to, in words
    note: str  # how the graph was cut to fit, or ""


def check_path(path: str) -> None:
    """Refuse a file name matplotlib cannot write, before anything is explored."""
    suffix = Path(path).suffix.lower().lstrip(".")
    if suffix not in FORMATS:
        raise InvalidInputError(f"{show(path)}: a picture's name must end in "
                                f"{', '.join('.' + f for f in FORMATS)}, not "
                                f"{show(Path(path).suffix or 'nothing')}")


def focus(graph: StateGraph, found: Findings) -> tuple[list[int], str]:
    """The witness path to the first finding, and what it witnesses.

    A stuck state first, then a trap, then any state with no round end reachable, then
    the cycle (the path goes on around it once); with none, the deepest state."""
    if found.stuck:
        return path_to(graph, found.stuck[0]), f"stuck state #{found.stuck[0]}"
    traps = found.real_traps()
    if traps:
        sid = min(traps[0], key=lambda s: graph.depth[s])
        return path_to(graph, sid), f"a trap (entered at #{sid})"
    if found.doomed:
        return (path_to(graph, found.doomed[0]),
                f"state #{found.doomed[0]}, from which no round end is reachable")
    if found.cycle:
        return ([*path_to(graph, found.cycle[0]), *found.cycle[1:]],
                f"a cycle of {len(found.cycle) - 1} states (the round can go on for ever)")
    last = graph.states - 1
    return path_to(graph, last), f"the deepest state, #{last}"


def select(graph: StateGraph, found: Findings, limit: int = PICTURE_LIMIT) -> Selection:
    """Every state of a graph of at most ``limit`` states; else the witness path and as
    many of its states' successors as fit (nearest the finding first). A witness path
    longer than ``limit`` is refused."""
    path, what = focus(graph, found)
    if graph.states <= limit:
        return Selection(list(range(graph.states)), path, what, "")
    on_path = list(dict.fromkeys(path))
    if len(on_path) > limit:
        raise InvalidInputError(
            f"{graph.states:,} states, and the shortest path to {what} alone has "
            f"{len(on_path)}: a picture shows at most {limit} states (use --dot)")
    successors: dict[int, list[int]] = defaultdict(list)
    for s, d in zip(graph.src, graph.dst, strict=True):
        successors[s].append(d)
    chosen = dict.fromkeys(on_path)
    for sid in reversed(on_path):
        for d in successors[sid]:
            if len(chosen) >= limit:
                break
            chosen.setdefault(d)
    note = (f"{len(chosen)} of {graph.states:,} states (a picture shows at most {limit}): "
            f"the shortest path to {what} and its states' successors")
    return Selection(sorted(chosen), path, what, note)


def node_styles(graph: StateGraph, found: Findings, nodes: list[int],
                path: list[int]) -> dict[int, Style]:
    """Each state's role, the most alarming first (stuck, trap, no round end, over,
    deal), and whether it is on the witness path."""
    stuck = set(found.stuck)
    trapped = {s for members in found.real_traps() for s in members}
    doomed = set(found.doomed)
    witnessed = set(path)
    styles = {}
    for sid in nodes:
        if sid in stuck:
            role = STUCK
        elif sid in trapped:
            role = TRAP
        elif sid in doomed:
            role = DOOMED
        elif graph.over(sid):
            role = OVER_ROLE
        elif graph.parent[sid] < 0:
            role = DEAL
        else:
            role = PLAIN
        styles[sid] = Style(role, sid in witnessed)
    return styles


def games(graph: StateGraph, nodes: list[int]) -> dict[int, ExploreGame]:
    """The engine's state of each node, replayed down the BFS tree from its deal."""
    cfg = graph.config
    known: dict[int, ExploreGame] = {}

    def state(sid: int) -> ExploreGame:
        if sid not in known:
            parent = graph.parent[sid]
            if parent < 0:
                root = graph.roots[sid]
                known[sid] = ExploreGame.deal(cfg.players, cfg.rules, cfg.dealer, root.deal,
                                              root.script)
            else:
                known[sid] = step_to(graph, state(parent), sid)
        return known[sid]

    return {sid: state(sid) for sid in nodes}


def label(sid: int, game: ExploreGame) -> str:
    """The box's text: the state number and who acts, the top card and color, the hands."""
    code = game.deck.code
    top = code(game.top) if game.top is not None else "none"
    color = game.deck.colors[game.color].value if game.color is not None else "none"
    lines = [f"#{sid} {_who(game)}", f"top {top}  color {color}"]
    for name, hand in zip(game.names, game.hands, strict=True):
        lines.append(f"{name}: {' '.join(game.hand(name)) if hand else '-'}")
    if game.uno_window is not None and game.phase != OVER:
        lines.append(f"UNO window: {game.names[game.uno_window]}")
    return "\n".join(lines)


def _who(game: ExploreGame) -> str:
    """Whose turn, and the phase when it is not a plain turn."""
    name = game.to_play
    if game.phase == PLAY:
        return f"{name} to play"
    if game.phase == DRAWN:
        drawn = game.deck.code(game.drawn) if game.drawn is not None else "a card"
        return f"{name} drew {drawn}: play or keep"
    if game.phase == COLOR:
        return f"{name} to name a color"
    if game.phase == RESPOND:
        kind = game.pending_kind.value if game.pending_kind else "a draw card"
        return f"{name} answers {kind} (draw {game.pending})"
    if game.phase == OVER:
        return f"over: {game.names[game.winner]} out" if game.winner is not None else "over"
    assert game.phase == START
    return f"start, {name} first"


def edges(graph: StateGraph, nodes: list[int]) -> tuple[dict[tuple[int, int], str],
                                                         dict[int, str]]:
    """The arrows among ``nodes`` with their actions (several actions between the same
    two states share one arrow), and per state its idle actions (self-loops: the state
    does not change), which go into the box instead of a loop."""
    chosen = set(nodes)
    arrows: dict[tuple[int, int], list[str]] = defaultdict(list)
    idle: dict[int, list[str]] = defaultdict(list)
    for s, d, a in zip(graph.src, graph.dst, graph.act, strict=True):
        if s in chosen and d in chosen:
            action = ACTION_TYPES[a].value
            bucket = idle[s] if s == d else arrows[(s, d)]
            if action not in bucket:
                bucket.append(action)
    return ({k: "/".join(v) for k, v in arrows.items()},
            {k: "/".join(v) for k, v in idle.items()})


def layout(graph: StateGraph, nodes: list[int]) -> dict[int, tuple[float, float]]:
    """One column per BFS depth, states top to bottom in discovery order (siblings stay
    together): networkx's ``multipartite_layout``, taken back to its grid (it spaces
    columns and rows alike) and spread to inches on the page, so that a box never
    overlaps its neighbour however tall a column is."""
    g = nx.DiGraph()
    for sid in nodes:  # sorted: discovery order, which groups a state's successors
        g.add_node(sid, layer=graph.depth[sid])
    raw = {sid: (float(x), float(y)) for sid, (x, y) in
           nx.multipartite_layout(g, subset_key="layer").items()}
    unit = _grid_unit(raw)
    left = min(x for x, _ in raw.values())
    top = max(y for _, y in raw.values())
    # columns stay centred on each other, as graphviz draws them
    return {sid: ((x - left) / unit * COLUMN_INCHES, -(top - y) / unit * ROW_INCHES)
            for sid, (x, y) in raw.items()}


def _grid_unit(raw: dict[int, tuple[float, float]]) -> float:
    """The distance of two neighbouring columns (of two rows, with one column) in the
    layout's scale: networkx scales both alike."""
    xs = sorted({round(x, 9) for x, _ in raw.values()})
    ys = sorted({round(y, 9) for _, y in raw.values()})
    values = xs if len(xs) > 1 else ys
    return min((b - a for a, b in pairwise(values)), default=1.0)


COLUMN_INCHES = 2.9
ROW_INCHES = 1.25
LEGEND_INCHES = 1.0
MIN_WIDTH = 8.0


def draw(graph: StateGraph, found: Findings, path: str | Path,
         limit: int = PICTURE_LIMIT) -> Selection:
    """Write the picture to ``path`` (its suffix picks SVG, PNG or PDF); returns what
    was drawn. SVG keeps the labels as text, so the cards can be searched."""
    check_path(str(path))
    try:
        import matplotlib
        from matplotlib.figure import Figure
    except ImportError:
        raise InvalidInputError("--picture needs matplotlib: pip install 'unoformal[plot]'") \
            from None
    chosen = select(graph, found, limit)
    pos = layout(graph, chosen.nodes)
    width = max(x for x, _ in pos.values()) + COLUMN_INCHES
    width = max(width, MIN_WIDTH)
    height = -min(y for _, y in pos.values()) + 2 * ROW_INCHES + LEGEND_INCHES
    figure = Figure(figsize=(width, height))
    ax = figure.add_axes((0.0, 0.0, 1.0, 1.0))
    ax.set_axis_off()
    # data units are inches: the boxes sit on a grid, the legend in a band above it
    ax.set_xlim(-COLUMN_INCHES / 2, width - COLUMN_INCHES / 2)
    ax.set_ylim(-height + ROW_INCHES + LEGEND_INCHES, ROW_INCHES + LEGEND_INCHES)
    _draw(ax, graph, found, chosen, pos)
    # No date and a fixed id salt: the same graph gives the same file.
    metadata = {"Software": None} if str(path).endswith(".png") else {"Date": None}
    with matplotlib.rc_context({"svg.fonttype": "none", "svg.hashsalt": "unoformal"}), \
            atomic_path(str(path), "picture") as temporary:
        figure.savefig(temporary, metadata=metadata, dpi=100,
                       format=str(path).rsplit(".", 1)[-1])
    return chosen


def _draw(ax: Axes, graph: StateGraph, found: Findings, chosen: Selection,
          pos: dict[int, tuple[float, float]]) -> None:
    styles = node_styles(graph, found, chosen.nodes, chosen.path)
    arrows, idle = edges(graph, chosen.nodes)
    boxes = _boxes(ax, graph, chosen.nodes, styles, idle, pos)
    steps = set(pairwise(chosen.path))
    for (s, d), actions in sorted(arrows.items()):
        _arrow(ax, boxes[s], boxes[d], actions, (s, d) in steps)
    _legend(ax, graph, styles, chosen)


def _boxes(ax: Axes, graph: StateGraph, nodes: list[int], styles: dict[int, Style],
           idle: dict[int, str], pos: dict[int, tuple[float, float]]) -> dict[int, Text]:
    state = games(graph, nodes)
    boxes = {}
    for sid in nodes:
        text = label(sid, state[sid]) + (f"\nidle: {idle[sid]}" if sid in idle else "")
        style = styles[sid]
        boxes[sid] = ax.text(
            *pos[sid], text, ha="center", va="center", fontsize=6.5, family="monospace",
            bbox={"boxstyle": "round,pad=0.35", "facecolor": style.fill,
                  "edgecolor": WITNESS_COLOR if style.witness else "#555555",
                  "linewidth": 2.4 if style.witness else 0.7}, zorder=3)
    return boxes


def _arrow(ax: Axes, source: Text, target: Text, actions: str, on_path: bool) -> None:
    color = WITNESS_COLOR if on_path else "#888888"
    start, end = source.get_position(), target.get_position()
    ax.annotate(
        "", xy=end, xytext=start,
        zorder=3.5,  # above the boxes: below them, a box hides the head pointing at it
        arrowprops={"arrowstyle": "-|>", "mutation_scale": 12, "color": color,
                    "patchA": source.get_bbox_patch(), "patchB": target.get_bbox_patch(),
                    "shrinkA": 2, "shrinkB": 2, "linewidth": 1.8 if on_path else 0.6,
                    "connectionstyle": "arc3,rad=0.08"})
    # nearer the source than the target, so the labels of a pair of opposite arrows
    # do not fall on each other
    at = (0.6 * start[0] + 0.4 * end[0], 0.6 * start[1] + 0.4 * end[1])
    ax.text(*at, actions, fontsize=5.5, ha="center", va="center", zorder=4,
            color=WITNESS_COLOR if on_path else "#444444",
            bbox={"boxstyle": "square,pad=0.1", "facecolor": "white", "edgecolor": "none",
                  "alpha": 0.8})


def _legend(ax: Axes, graph: StateGraph, styles: dict[int, Style],
            chosen: Selection) -> None:
    from matplotlib.patches import Patch

    roles = [r for r in FILL if any(s.role == r for s in styles.values())]
    handles = [Patch(facecolor=FILL[r], edgecolor="#555555", label=LEGEND[r]) for r in roles]
    handles.append(Patch(facecolor="white", edgecolor=WITNESS_COLOR, linewidth=2.4,
                         label=f"witness: {chosen.what}"))
    cfg = graph.config
    title = f"{cfg.name} under {cfg.rules.name}: {graph.states:,} states"
    ax.legend(handles=handles, loc="upper left", fontsize=7, title=title, ncols=3,
              title_fontsize=7, framealpha=0.9, alignment="left")
    if chosen.note:
        ax.text(0.01, 0.005, chosen.note, transform=ax.transAxes, fontsize=6.5,
                va="bottom", ha="left")
