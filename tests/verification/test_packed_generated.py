"""The successor generated as source from the commands (``packed/generated.py``) against
the engine: the same successors on every state of the small presets, the same edges with
the same labels in the same order, the same search and perft tables; wrong readings
planted in the generator are caught, and a node it cannot write is refused by name."""

from __future__ import annotations

import json
from collections.abc import Callable

import numpy as np
import pytest

from unoformal.language import effects as e
from unoformal.rulebook.cards import Kind
from unoformal.verification.explore import preset_config
from unoformal.verification.explore.perft import compare
from unoformal.verification.packed.commands import Unsupported
from unoformal.verification.packed.generated import GeneratedSuccessor, _Writer
from unoformal.verification.packed.layout import Layout
from unoformal.verification.packed.reading import Unread
from unoformal.verification.packed.search import search

from .test_packed import DATA, edge_lists_differ, mismatches, reachable


@pytest.mark.parametrize("name", ["micro", "duel", "tiny", "wd4", "skip", "reverse", "circle"])
def test_successors_equal_the_engines_on_every_state(name: str) -> None:
    """``circle`` has 3 players: a Reverse flips the direction, the next seat is known
    only at run time."""
    assert mismatches(name, GeneratedSuccessor) == 0


@pytest.mark.parametrize("name", ["duel", "reverse"])
def test_edges_and_labels_are_engine_successors(name: str) -> None:
    assert edge_lists_differ(name, GeneratedSuccessor) == 0


@pytest.mark.parametrize("name", ["micro", "duel", "tiny", "wd4"])
def test_perft_tables_unchanged(name: str) -> None:
    g = search(preset_config(name), successor="generated")
    assert compare(json.loads((DATA / f"perft_{name}.json").read_text()), g.perft()) is None
    assert g.complete


def test_the_search_is_the_engines() -> None:
    got, want = search(preset_config("duel"), successor="generated"), \
        search(preset_config("duel"))
    assert np.array_equal(got.records.read(), want.records.read())
    assert list(got.parent) == list(want.parent)
    assert np.array_equal(got.dst.read(), want.dst.read())
    assert np.array_equal(got.act.read(), want.act.read())
    assert got.covered == want.covered and got.label_counts == want.label_counts
    assert got.stuck == want.stuck


# ---------------------------------------------------------------- planted wrong readings

Step = Callable[[GeneratedSuccessor, _Writer, e.Effect, Callable[[], None]], None]


def planted(name: str, wrong: Step) -> type[GeneratedSuccessor]:
    """A GeneratedSuccessor that writes the effect node ``name`` as ``wrong`` does."""
    return type("Plant", (GeneratedSuccessor,), {name: wrong})


def _short_draw_two(g: GeneratedSuccessor, w: _Writer, n: e.Effect,
                    k: Callable[[], None]) -> None:
    """A Draw Two's victim draws one card fewer."""
    assert isinstance(n, e.Take)
    cards = n.cards - 1 if n.rule == "D2-1" else n.cards
    g._take(w, w.seat(w.b, n.who), cards, n.keeps, k)


def _color_stays(g: GeneratedSuccessor, w: _Writer, n: e.Effect,
                 k: Callable[[], None]) -> None:
    """A number card placed leaves the color as it was."""
    assert isinstance(n, e.PlaceCard)
    if n.kind is not Kind.NUMBER:
        GeneratedSuccessor.e_PlaceCard(g, w, n, k)
        return

    def back() -> None:
        w.set(3, "color")
        k()
    w.emit("color = t[3]")
    GeneratedSuccessor.e_PlaceCard(g, w, n, back)


def _no_flip(g: GeneratedSuccessor, w: _Writer, n: e.Effect, k: Callable[[], None]) -> None:
    """A Reverse leaves the direction as it was."""
    k()


def _no_window(g: GeneratedSuccessor, w: _Writer, n: e.Effect, k: Callable[[], None]) -> None:
    """Going down to one card never opens the UNO window."""
    k()


@pytest.mark.parametrize(("name", "plant"), [
    ("reverse", planted("e_Take", _short_draw_two)),
    ("duel", planted("e_PlaceCard", _color_stays)),
    ("duel", planted("e_OpenWindow", _no_window)),
    ("circle", planted("e_FlipDirection", _no_flip)),
])
def test_a_planted_wrong_reading_is_caught(name: str, plant: type[GeneratedSuccessor]) -> None:
    assert mismatches(name, plant) > 0


def test_a_node_without_a_generated_reading_is_refused_by_name() -> None:
    states = reachable("micro")
    layout = Layout(states[0].deck, states[0].n)
    with pytest.raises(Unread, match="PassTurn has no generated reading over packed records"):
        type("Odd", (GeneratedSuccessor,), {"e_PassTurn": None})(layout, states[0], True)


def test_a_table_this_reading_lacks_is_refused_by_name() -> None:
    """SEVEN-O's passed hands have no reading here: named, not read some other way."""
    from unoformal.verification.packed.presets import config
    with pytest.raises((Unsupported, Unread), match=r"PassHands|SEVEN-O"):
        search(config("seven-o"), successor="generated")
