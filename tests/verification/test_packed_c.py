"""The generated successor's source translated to C (``packed/ctrans.py``) against the
engine: the same edges, labels and ends in the same order on every state of the small
presets, the same search (records, numbers, parents, edges, coverage and its order) as
the Python source's; wrong readings planted in the translation are caught; what it
cannot read is refused by name, and the search then runs the Python source."""

from __future__ import annotations

import ast
import os
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from unoformal.verification.explore import preset_config
from unoformal.verification.explore.chance import ExploreGame
from unoformal.verification.packed import ctrans, native
from unoformal.verification.packed.generated import GeneratedSuccessor, key_of
from unoformal.verification.packed.layout import Layout
from unoformal.verification.packed.search import PackedGraph, PackedSearch, search
from unoformal.verification.packed.successor import Edge, EngineSuccessor, Successor

from .test_packed import edge_lists_differ, reachable
from .test_packed_mercy import config as mercy_config
from .test_packed_mercy import knocked_out

pytestmark = pytest.mark.skipif(native.c_missing() is not None,
                                reason=f"no C build here: {native.c_missing()}")


@pytest.fixture(autouse=True)
def cache(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> Path:
    """One cache for the module's C builds (a build is a second or two)."""
    where = tmp_path_factory.getbasetemp() / "c-cache"
    monkeypatch.setenv(native.CACHE_ENV, str(where))
    return where


class CSuccessor(GeneratedSuccessor):
    """The C reading as a successor of one record (the tests' comparisons), its module
    written from the keys of every state of ``preset``; every record is the C module's
    (none left to the Python source)."""

    preset = ""

    def __init__(self, layout: Layout, template: ExploreGame, penalties: bool) -> None:
        super().__init__(layout, template, penalties)
        keys = {key_of(np.frombuffer(layout.encode(g), np.uint8))
                for g in reachable(self.preset)}
        built = self.compile_c(sorted(keys))
        assert built.module is not None, built.how

    def __call__(self, rec: bytes) -> list[Edge]:
        b = self.flat_batch(rec, self.width, 1)
        assert self.fallbacks == 0
        table = b.labels_table
        out, at, end_at = [], 0, 0
        for i in range(len(b.numbers)):
            k, m = int(b.label_lens[i]), int(b.end_lens[i])
            labels = tuple(table[x] for x in b.label_ids[at:at + k].tolist())
            ends = tuple(table[x] for x in b.end_ids[end_at:end_at + m].tolist())
            at, end_at = at + k, end_at + m
            out.append(Edge(b.action(i), b.codes[i], b.children[i * self.width:
                                                              (i + 1) * self.width],
                            labels, ends))
        return out


def on(name: str) -> type[CSuccessor]:
    return type("CSuccessor", (CSuccessor,), {"preset": name})


@pytest.mark.parametrize("name", ["micro", "duel", "skip", "reverse", "wd4", "circle"])
def test_edges_labels_and_ends_are_the_engines_in_order(name: str) -> None:
    """Every state of the preset: the engine's edges, in its order, with its labels and
    ends (``circle`` has 3 players: the next seat after a Reverse is known at run time)."""
    assert edge_lists_differ(name, on(name)) == 0


def _same(got: PackedGraph, want: PackedGraph) -> None:
    assert np.array_equal(got.records.read(), want.records.read())
    assert list(got.parent) == list(want.parent)
    assert np.array_equal(got.src.read(), want.src.read())
    assert np.array_equal(got.dst.read(), want.dst.read())
    assert np.array_equal(got.act.read(), want.act.read())
    assert got.perft() == want.perft() and got.stuck == want.stuck
    # the coverage and the witnesses, in the order the search met them
    assert list(got.covered.items()) == list(want.covered.items())
    assert list(got.label_counts.items()) == list(want.label_counts.items())


@pytest.mark.parametrize("name", ["duel", "tiny", "wd4", "circle", "challenge"])
def test_the_search_is_the_python_sources(name: str) -> None:
    """``challenge`` has 148,698 states, in chunks of 2,048 records. The module, written
    from the deals' keys and what the source tells of their children, holds every key
    the search meets: no record is left to the Python source."""
    run = PackedSearch(preset_config(name), "c", chunk=2048)
    got = run.run()
    assert got.build in ("compiled", "cached")
    assert run._generated is not None and run._generated.fallbacks == 0
    _same(got, search(preset_config(name), successor="generated", chunk=2048))


def test_a_key_the_module_lacks_runs_as_python_source_in_order() -> None:
    """A module written from no key: every record is the Python source's, onto the same
    streams, and the search is unchanged."""
    cfg = preset_config("duel")
    orig = GeneratedSuccessor.compile_c

    def from_nothing(self: GeneratedSuccessor, seeds: Any, where: Any = None) -> native.Built:
        return orig(self, [], where)
    try:
        GeneratedSuccessor.compile_c = from_nothing  # type: ignore[method-assign]
        got = search(cfg, successor="c")
    finally:
        GeneratedSuccessor.compile_c = orig  # type: ignore[method-assign]
    assert got.build in ("compiled", "cached")
    _same(got, search(cfg, successor="generated"))


# ------------------------------------------------------------------ plants


def _plant_draw(monkeypatch: pytest.MonkeyPatch) -> None:
    """A card drawn with the UNO window open leaves it open (one-card draws)."""
    text = "                if (closes) s2[{window}] = {none};\n"
    assert text in ctrans._DRAW_C
    monkeypatch.setattr(ctrans, "_DRAW_C", ctrans._DRAW_C.replace(text, "", 1))


def _plant_compare(monkeypatch: pytest.MonkeyPatch) -> None:
    """``>=`` read as ``>``: a guard on a count one short."""
    monkeypatch.setitem(ctrans._CMPOPS, ast.GtE, ">")


def _plant_seen(monkeypatch: pytest.MonkeyPatch) -> None:
    """Two outcomes of a draw with one record are two edges."""
    old = "        if (memcmp(s->at + (size_t)j * W, c, W) == 0) return 1;\n"
    assert old in ctrans._PRELUDE
    monkeypatch.setattr(ctrans, "_PRELUDE", ctrans._PRELUDE.replace(old, "", 1))


def _plant_order(monkeypatch: pytest.MonkeyPatch) -> None:
    """The multisets of a draw of two or more listed from the last face down."""
    tail = " {{\n        if (pile[f]) {{\n            pile[f] -= 1;"
    old = "    for (int f = lo; f < {nf}; f++)" + tail
    new = "    for (int f = {nf} - 1; f >= lo; f--)" + tail
    assert old in ctrans._DRAW_C
    monkeypatch.setattr(ctrans, "_DRAW_C", ctrans._DRAW_C.replace(old, new, 1))


def differs_somewhere(name: str) -> bool:
    """Whether some state's edges differ from the engine's (``edge_lists_differ``,
    stopping at the first)."""
    states = reachable(name)
    layout = Layout(states[0].deck, states[0].n)
    pen = preset_config(name).penalties
    mine, engine = on(name)(layout, states[0], pen), EngineSuccessor(layout, states[0], pen)

    def edges(succ: Successor, rec: bytes) -> list[Any]:
        return [(str(x.action), x.code, x.child, x.labels, sorted(x.ends)) for x in succ(rec)]
    return any(edges(mine, r) != edges(engine, r) for r in map(layout.encode, states))


@pytest.mark.parametrize(("plant", "name"), [
    (_plant_draw, "tiny"), (_plant_compare, "duel"), (_plant_order, "wd4")])
def test_a_planted_wrong_reading_is_caught(plant: Any, name: str,
                                           monkeypatch: pytest.MonkeyPatch) -> None:
    plant(monkeypatch)  # unplanted, test_edges_labels_and_ends_are_the_engines_in_order
    assert differs_somewhere(name)


# no preset's draw has two outcomes with one record, so the seen list is shown on a
# module of its own: one child appended twice, each under ``if c not in seen``
_TWICE = """\
def PILE(t: bytearray) -> list[int]:
    return [1, 1]
def K_0_0_255_255(s: bytearray, out: list[Any]) -> None:
    s += bytes((sum(s[10:12]), sum(s[12:14]),))
    E1(s, out)
def E1(s: bytearray, out: list[Any]) -> None:
    t = s[:]
    ran: list[Any]
    seen: list[bytes] = []
    ran = [L0]
    t[9] = t[16] + 1
    c = bytes(t[:16])
    if c not in seen:
        seen.append(c)
        out.append(c); out.append(0); out.append(tuple(ran)); out.append(())
    if c not in seen:
        seen.append(c)
        out.append(c); out.append(1); out.append((*ran, L1)); out.append(())
"""


@pytest.mark.parametrize("planted", [False, True])
def test_a_child_met_twice_is_one_edge(planted: bool, tmp_path: Path,
                                       monkeypatch: pytest.MonkeyPatch) -> None:
    if planted:
        _plant_seen(monkeypatch)
    values = {"L0": ("DRAW-1", "draw"), "L1": ("DRAW-1", "keep")}
    tr = ctrans.Translator(_TWICE, values, [(0, 0, 255, 255)], 2,
                           ctrans.DrawConstants(10, 2, 16, 14, True, "L0", "L1"))
    text = tr.c_source()
    built = native.load_c(native.c_name(text), lambda: text, tmp_path)
    assert built.module is not None, built.how
    bufs = [bytearray() for _ in range(7)]
    # phase 0 and turn 0 (bytes 0, 1), no UNO window (4), no offender (8); hand 0 holds
    # two cards (10, 11), hand 1 one (12)
    record = bytes([0, 0, 0, 0, 255, 0, 0, 0, 255, 0, 1, 1, 1, 0, 0, 0])
    assert built.module.expand(record, 1, 0, *bufs) == 1
    children, numbers = bufs[0], np.frombuffer(bytes(bufs[1]), np.int32).tolist()
    assert numbers == ([0, 1] if planted else [0])
    assert children[:16] == record[:9] + bytes([3]) + record[10:]  # byte 9: hand 0's size + 1
    assert np.frombuffer(bytes(bufs[2]), np.uint16).tolist()[:1] == [tr.label("L0")]


# ------------------------------------------------------------------ refusals


def test_a_construct_outside_the_language_is_refused_by_name_and_line() -> None:
    body = "def E1(s: bytearray, out: list[Any]) -> None:\n    t = s[:]\n    x = len(t)\n"
    tr = ctrans.Translator(body, {}, [], 2, ctrans.DrawConstants(15, 8, 40, 31, True,
                                                                  "L0", "L1"))
    with pytest.raises(ctrans.Untranslatable, match=r"a call C cannot read \(line 3: len"):
        tr.c_source()


@pytest.mark.parametrize("mercy", [False, True])
def test_a_refused_table_runs_the_python_source_saying_why(
        mercy: bool, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch,
        tmp_path: Path) -> None:
    """Under MERCY too, whose knock-out is a function the module's source defines (the
    source written for the C module is run as Python)."""
    monkeypatch.setenv(native.CACHE_ENV, str(tmp_path))  # nothing cached: translated

    def refuse(self: ctrans.Translator) -> str:
        raise ctrans.Untranslatable("a test's refusal")
    monkeypatch.setattr(ctrans.Translator, "c_source", refuse)
    monkeypatch.setattr(native, "_said", set())
    cfg = mercy_config(tmp_path, "duel", 2, 2) if mercy else preset_config("duel")
    got = search(cfg, successor="c")
    assert "not translated (a test's refusal)" in capsys.readouterr().err
    assert got.build is not None and got.build.startswith("pure Python")
    _same(got, search(cfg, successor="generated"))


@pytest.mark.parametrize(("preset", "players"), [("duel", 2), ("circle", 3)])
def test_mercys_knock_out_is_the_python_sources(preset: str, players: int,
                                                 tmp_path: Path) -> None:
    """MERCY at a limit of 2 (tests/verification/test_packed_mercy.py's cases): the
    knock-out (``KNOCK_*``), the next seat over the players left in (``AROUND``), TWO-1
    by the players left (``circle``: a Reverse), the last player in's hand not scored,
    the child's phase known only at run time (``STORE``)."""
    cfg = mercy_config(tmp_path, preset, players, 2)
    run = PackedSearch(cfg, "c")
    got = run.run()
    assert got.build in ("compiled", "cached") and run._generated is not None
    assert run._generated.fallbacks == 0
    assert knocked_out(got)[2] > 0  # rounds won by the last player in
    _same(got, search(cfg, successor="generated"))


def test_a_planted_knock_out_is_caught(tmp_path: Path,
                                       monkeypatch: pytest.MonkeyPatch) -> None:
    """A knock-out one card late (the limit read as ``>``, not ``>=``)."""
    orig = ctrans.Translator._seats

    def late(self: ctrans.Translator, f: Any, name: str, value: Any, out: list[str],
             pad: str, st: Any) -> None:
        for cond in value.generators[0].ifs:
            for node in ast.walk(cond):
                if isinstance(node, ast.Compare):
                    node.ops = [ast.Gt() if isinstance(o, ast.GtE) else o for o in node.ops]
        orig(self, f, name, value, out, pad, st)
    monkeypatch.setattr(ctrans.Translator, "_seats", late)
    # a module of its own name (one already imported is not imported again)
    signed = ctrans.signature()
    monkeypatch.setattr(ctrans, "signature", lambda: signed + " planted: late")
    cfg = mercy_config(tmp_path, "duel", 2, 2)
    got = search(cfg, successor="c")
    assert got.build in ("compiled", "cached")
    assert got.perft() != search(cfg, successor="generated").perft()


def test_a_failed_build_caches_nothing(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CC", "false")
    built = native.load_c(native.c_name("int x;"), lambda: "int x;\n", tmp_path)
    assert built.module is None and "the C build failed" in built.how
    assert os.listdir(tmp_path) == []
