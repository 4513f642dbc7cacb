"""The successor over records read from the commands (``packed/commands.py``) against the
engine: the same successors on every state of the small presets, the same edges with the
same labels in the same order, the same search; planted wrong readings are caught."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import pytest

from unoformal.language import effects as e
from unoformal.language.protocols import Binding
from unoformal.rulebook.cards import Kind
from unoformal.verification.explore import preset_config
from unoformal.verification.packed.commands import CommandSuccessor, Unsupported
from unoformal.verification.packed.layout import Layout
from unoformal.verification.packed.reading import Reader, State, Step, Unread
from unoformal.verification.packed.search import search

from .test_packed import edge_lists_differ, mismatches, reachable


@pytest.mark.parametrize("name", ["micro", "duel", "tiny", "wd4", "skip", "reverse"])
def test_successors_equal_the_engines_on_every_state(name: str) -> None:
    assert mismatches(name, CommandSuccessor) == 0


@pytest.mark.parametrize("name", ["duel", "reverse"])
def test_edges_and_labels_are_engine_successors(name: str) -> None:
    assert edge_lists_differ(name, CommandSuccessor) == 0


@pytest.mark.parametrize("name", ["duel", "wd4"])
def test_the_search_is_the_engines(name: str) -> None:
    got, want = search(preset_config(name), successor="commands"), search(preset_config(name))
    assert np.array_equal(got.records.read(), want.records.read())
    assert list(got.parent) == list(want.parent)
    assert np.array_equal(got.dst.read(), want.dst.read())
    assert np.array_equal(got.act.read(), want.act.read())
    assert got.covered == want.covered and got.label_counts == want.label_counts
    assert got.perft() == want.perft() and got.stuck == want.stuck


# ---------------------------------------------------------------- planted wrong readings

def planted(change: Callable[[Reader, e.Effect], e.Effect]) -> type[CommandSuccessor]:
    """A CommandSuccessor whose reader reads each effect node as ``change`` makes it."""

    class Planted(Reader):
        def effect(self, node: e.Effect) -> Step:
            return super().effect(change(self, node))

    return type("Plant", (CommandSuccessor,), {"reader_class": Planted})


def _short_draw_two(r: Reader, node: e.Effect) -> e.Effect:
    if isinstance(node, e.Take) and node.rule == "D2-1":
        return e.Take(node.who, node.cards - 1, node.rule, node.part, node.keeps)
    return node


class _ColorStays(Reader):
    """A number card placed leaves the color as it was."""

    def e_PlaceCard(self, n: e.PlaceCard) -> Step:
        place = super().e_PlaceCard(n)
        if n.kind is not Kind.NUMBER:
            return place

        def step(s: State, b: Binding, ran: list[tuple[str, str]]) -> None:
            color = s[3]
            place(s, b, ran)
            s[3] = color
        return step


def _no_window(r: Reader, node: e.Effect) -> e.Effect:
    if isinstance(node, e.OpenWindow):
        return e.OpenWindow(node.cards_left + 100)
    return node


@pytest.mark.parametrize(("name", "plant"), [
    ("reverse", planted(_short_draw_two)),  # a Draw Two's victim draws one card fewer
    ("duel", type("Plant", (CommandSuccessor,), {"reader_class": _ColorStays})),
    ("duel", planted(_no_window)),  # going down to one card never opens the UNO window
])
def test_a_planted_wrong_reading_is_caught(name: str, plant: type[CommandSuccessor]) -> None:
    assert mismatches(name, plant) > 0


def test_a_node_without_a_reading_is_refused_by_name() -> None:
    class Odd(e.Effect):
        pass

    states = reachable("micro")
    layout = Layout(states[0].deck, states[0].n)
    with pytest.raises(Unread, match="Odd has no reading over packed records"):
        planted(lambda r, node: Odd() if isinstance(node, e.PassTurn) else node)(
            layout, states[0], True)


def test_a_table_this_reading_lacks_is_refused_by_name() -> None:
    """SEVEN-O's passed hands have no reading here: named, not read some other way."""
    from unoformal.verification.packed.presets import config
    cfg = config("seven-o")
    with pytest.raises((Unsupported, Unread), match=r"PassHands|SEVEN-O"):
        search(cfg, successor="commands")
