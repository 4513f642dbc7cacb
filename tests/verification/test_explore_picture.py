"""Pictures of state graphs that show the cards (``unoformal explore --picture``):
matplotlib only, no graphviz; boxes hold the hands, top card, color and whose turn;
stuck states, traps and the witness are highlighted; large graphs are cut to a limit."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from unoformal.commands.cli import main
from unoformal.errors import InvalidInputError
from unoformal.verification.explore.analysis import Findings, analyse
from unoformal.verification.explore.graph import Config, StateGraph, explore, preset_config
from unoformal.verification.explore.picture import (
    DEAL,
    DOOMED,
    OVER_ROLE,
    PICTURE_LIMIT,
    PLAIN,
    STUCK,
    TRAP,
    draw,
    focus,
    node_styles,
    select,
)
from unoformal.verification.explore.presets import Size, small_rules
from unoformal.verification.explore.witness import witness

# One color, ranks 0-1 and a Wild Draw Four, 2 players, 1 card, EXT-SHORT off: 26 states,
# four of them stuck (a Wild Draw Four's victim with fewer than 4 cards left to draw).
STUCK_ARGS = ["--colors", "1", "--numbers", "1,1", "--wilds", "0", "--off", "EXT-SHORT"]


@pytest.fixture(scope="module")
def stuck_graph() -> tuple[StateGraph, Findings]:
    size = Size(colors=1, numbers=(1, 1), wilds=0)
    rules = small_rules(size, extra={"EXT-SHORT": {"enabled": False}}, name="custom")
    graph = explore(Config(rules, tuple(size.players_list()), "custom"))
    return graph, analyse(graph)


def test_ext_short_styles_mark_exactly_the_stuck_states_and_the_witness(
        stuck_graph: tuple[StateGraph, Findings]) -> None:
    graph, found = stuck_graph
    assert graph.states == 26 and len(found.stuck) == 4
    path, what = focus(graph, found)
    assert path[-1] == found.stuck[0] and what == f"stuck state #{found.stuck[0]}"
    styles = node_styles(graph, found, list(range(graph.states)), path)
    assert {s for s, st in styles.items() if st.role == STUCK} == set(found.stuck)
    assert {s for s, st in styles.items() if st.witness} == set(path)
    assert {s for s, st in styles.items() if st.role == OVER_ROLE} == \
        {s for s in range(graph.states) if graph.over(s)}
    assert {s for s, st in styles.items() if st.role == DEAL} == \
        {s for s in range(graph.states) if graph.parent[s] < 0 and s not in found.stuck}


def test_a_trap_and_doomed_states_get_their_own_roles(
        stuck_graph: tuple[StateGraph, Findings]) -> None:
    """No small preset has a trap of more than one state, so plant one in the findings:
    the style follows the findings, not the graph's shape."""
    graph, found = stuck_graph
    a, b, c = [s for s in range(graph.states) if s not in found.stuck
               and not graph.over(s) and graph.parent[s] >= 0][:3]
    planted = Findings(stuck=list(found.stuck), traps=[[a, b]], doomed=[a, b, c])
    styles = node_styles(graph, planted, [a, b, c], [])
    assert [styles[s].role for s in (a, b, c)] == [TRAP, TRAP, DOOMED]
    assert node_styles(graph, found, [a, b, c], [])[c].role == PLAIN
    path, what = focus(graph, Findings(traps=[[a, b]], doomed=[a, b]))
    assert path[-1] in (a, b) and what.startswith("a trap")


def test_svg_labels_hold_the_cards_of_the_stuck_state(
        tmp_path: Path, stuck_graph: tuple[StateGraph, Findings]) -> None:
    """The stuck state's box shows what the engine's replay of its witness shows."""
    graph, found = stuck_graph
    out = tmp_path / "g.svg"
    assert draw(graph, found, out).note == ""  # 26 states: drawn whole
    svg = out.read_text()
    state = witness(graph, found.stuck[0]).game.state_json()
    assert state["phase"] == "respond"
    assert f"top {state['top']}  color {state['color']}" in svg
    for name, hand in state["hands"].items():
        assert f"{name}: {' '.join(hand) or '-'}" in svg
    assert f"#{found.stuck[0]} {state['to_play']} answers W+4" in svg
    assert "stuck: no move, round not over" in svg  # the legend names the highlight


def test_a_large_graph_is_cut_to_the_limit_around_the_witness(tmp_path: Path) -> None:
    graph = explore(preset_config("tiny"))
    found = analyse(graph)
    chosen = select(graph, found)
    assert graph.states > PICTURE_LIMIT
    assert len(chosen.nodes) <= PICTURE_LIMIT and set(chosen.path) <= set(chosen.nodes)
    assert f"of {graph.states:,} states" in chosen.note and "cycle" in chosen.note
    out = tmp_path / "tiny.svg"
    draw(graph, found, out)
    svg = out.read_text()
    assert chosen.note in svg
    hands = []
    for sid in dict.fromkeys(chosen.path):  # each witness state, as the engine replays it
        state = witness(graph, sid).game.state_json()
        assert f"top {state['top']}  color {state['color']}" in svg
        for name, hand in state["hands"].items():
            assert f"{name}: {' '.join(hand) or '-'}" in svg
            hands.append(len(hand))
    assert max(hands) >= 3  # whole hands shown, not only their first cards
    with pytest.raises(InvalidInputError, match=r"shortest path .* alone has"):
        select(graph, found, limit=2)


def test_explore_picture_needs_no_graphviz(tmp_path: Path) -> None:
    """Run the command with a PATH that holds no program at all, so no ``dot``."""
    empty = tmp_path / "bin"
    empty.mkdir()
    assert shutil.which("dot", path=str(empty)) is None
    env = {**os.environ, "PATH": str(empty)}
    for name in ("g.svg", "g.png"):
        out = tmp_path / name
        done = subprocess.run([sys.executable, "-m", "unoformal", "explore", *STUCK_ARGS,
                               "--picture", str(out), "--no-progress"],
                              env=env, capture_output=True, text=True, check=False)
        assert done.returncode == 0, done.stderr
        assert f"wrote {out}; 26 states" in done.stdout
    assert (tmp_path / "g.png").read_bytes().startswith(b"\x89PNG")
    assert "Bob: R0" in (tmp_path / "g.svg").read_text()


def test_the_same_graph_gives_the_same_svg(
        tmp_path: Path, stuck_graph: tuple[StateGraph, Findings]) -> None:
    graph, found = stuck_graph
    draw(graph, found, tmp_path / "a.svg")
    draw(graph, found, tmp_path / "b.svg")
    assert (tmp_path / "a.svg").read_bytes() == (tmp_path / "b.svg").read_bytes()


def test_a_picture_name_matplotlib_cannot_write_is_refused(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["explore", "--preset", "micro", "--picture", str(tmp_path / "g.jpg")]) == 2
    err = capsys.readouterr().err
    assert "must end in .svg, .png, .pdf, not '.jpg'" in err and "Traceback" not in err
