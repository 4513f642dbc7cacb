"""The successor generated as source from the commands (``packed/generated.py``) against
the engine: the same successors on every state of the small presets, the same edges with
the same labels in the same order, the same search and perft tables; wrong readings
planted in the generator are caught, and a node it cannot write is refused by name."""

from __future__ import annotations

import json
import subprocess
from collections.abc import Callable
from importlib.machinery import EXTENSION_SUFFIXES
from pathlib import Path

import numpy as np
import pytest

from unoformal.language import effects as e
from unoformal.rulebook.cards import Kind
from unoformal.verification.explore import preset_config
from unoformal.verification.explore.perft import compare
from unoformal.verification.packed import native
from unoformal.verification.packed.commands import Unsupported
from unoformal.verification.packed.generated import GeneratedSuccessor, _Writer, key_of
from unoformal.verification.packed.layout import Layout
from unoformal.verification.packed.reading import Unread
from unoformal.verification.packed.search import search

from .test_packed import DATA, edge_lists_differ, mismatches, reachable


@pytest.fixture(autouse=True)
def pure(monkeypatch: pytest.MonkeyPatch) -> None:
    """Nothing compiles here unless a test says so (``search(successor="compiled")`` is
    the compiling choice; a compile costs tens of seconds): the module's own tests below
    compile what they compile into tmp_path."""
    monkeypatch.setenv(native.PURE_ENV, "1")


def test_only_the_compiled_choice_compiles(monkeypatch: pytest.MonkeyPatch) -> None:
    """``generated`` runs the source as written; ``compiled`` asks for the module."""
    monkeypatch.delenv(native.PURE_ENV)
    asked: list[str] = []

    def compile_(self: GeneratedSuccessor, *args: object, **kw: object) -> native.Built:
        asked.append("compile")
        return native.Built("pure Python (a test)")
    monkeypatch.setattr(GeneratedSuccessor, "compile", compile_)
    search(preset_config("micro"), successor="generated")
    assert asked == []
    g = search(preset_config("micro"), successor="compiled")
    assert asked == ["compile"] and g.states == search(preset_config("micro")).states


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


# ---------------------------------------------------------------- the module, compiled


def _micro() -> tuple[list[bytes], GeneratedSuccessor]:
    """micro's records, and a generated successor of its table."""
    states = reachable("micro")
    layout = Layout(states[0].deck, states[0].n)
    return [layout.encode(g) for g in states], \
        GeneratedSuccessor(layout, states[0], preset_config("micro").penalties)


def test_the_compiled_module_gives_the_pure_successors(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Only the keys micro's records hold (the compile is the test's cost: 2 keys, about
    500 lines, against the 14 keys the search would write)."""
    monkeypatch.delenv(native.PURE_ENV)
    if native.missing() is not None:
        pytest.skip(f"nothing compiles here: {native.missing()}")
    monkeypatch.setenv("MYPYC_OPT_LEVEL", "0")  # the same successors, in less compile time
    records, pure = _micro()
    compiled = _micro()[1]
    built = compiled.compile({key_of(r) for r in records}, tmp_path, reach=False)
    assert built.how == "compiled" and built.module is not None
    assert all(compiled.fns[key_of(r)].__module__ == built.module.__name__ for r in records)
    assert [compiled(r) for r in records] == [pure(r) for r in records]
    again = _micro()[1]
    assert again.compile({key_of(r) for r in records}, tmp_path, reach=False).how == "cached"
    assert [again(r) for r in records] == [pure(r) for r in records]


def test_the_module_is_named_by_its_table() -> None:
    """The same table writes the same text (so one cached module); another table, or a
    value the source names (a label), another name."""
    records, gen = _micro()
    seeds = {key_of(r) for r in records}
    text = gen.module(seeds).text
    assert _micro()[1].module(seeds).text == text
    duel = reachable("duel")
    other = GeneratedSuccessor(Layout(duel[0].deck, duel[0].n), duel[0], True)
    assert native.module_name(other.module(seeds).text) != native.module_name(text)
    renamed = _micro()[1]
    label = next(k for k, v in renamed.names.ns.items() if k.startswith("L"))
    renamed.names.ns[label] = ("SCORE-1", "renamed")
    assert native.module_name(renamed.module(seeds).text) != native.module_name(text)


def _failing(returncode: int) -> Callable[..., subprocess.CompletedProcess[str]]:
    """A compiler run that leaves half an extension behind and exits with ``returncode``
    (-9: killed)."""
    def run(args: list[str], cwd: Path, **_: object) -> subprocess.CompletedProcess[str]:
        name = args[-1].removesuffix(".py")
        (Path(cwd) / f"{name}{EXTENSION_SUFFIXES[0]}").write_bytes(b"\x7fELF half")
        if returncode == 0:
            raise KeyboardInterrupt
        return subprocess.CompletedProcess(args, returncode, "", "error: the build broke")
    return run


@pytest.mark.parametrize("returncode", [1, -9])
def test_a_failed_build_falls_back_saying_so_and_caches_nothing(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
        returncode: int) -> None:
    monkeypatch.delenv(native.PURE_ENV)
    monkeypatch.setattr(native, "missing", lambda: None)  # as if it could compile
    records, gen = _micro()
    monkeypatch.setattr(subprocess, "run", _failing(returncode))
    monkeypatch.setattr(native, "_said", set())
    built = gen.compile({key_of(r) for r in records}, tmp_path)
    assert built.how.startswith("pure Python (the mypyc build failed") and not built.module
    assert "the generated successor runs as pure Python" in capsys.readouterr().err
    assert list(tmp_path.iterdir()) == []
    assert [gen(r) for r in records] == [_micro()[1](r) for r in records]


def test_an_interrupted_build_caches_nothing(tmp_path: Path,
                                             monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(native.PURE_ENV)
    monkeypatch.setattr(native, "missing", lambda: None)
    records, gen = _micro()
    monkeypatch.setattr(subprocess, "run", _failing(0))
    with pytest.raises(KeyboardInterrupt):
        gen.compile({key_of(r) for r in records}, tmp_path)
    assert list(tmp_path.iterdir()) == []


def test_a_module_too_long_to_compile_in_minutes_runs_as_pure_python(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    """A MERCY table's module (55,000 lines) did not compile in 16 minutes: past
    ``MAX_LINES`` no build is started, and stderr says why."""
    monkeypatch.delenv(native.PURE_ENV)
    monkeypatch.setattr(native, "missing", lambda: None)  # as if it could compile
    monkeypatch.setattr(native, "MAX_LINES", 10)
    monkeypatch.setattr(subprocess, "run", _failing(0))  # a build started is interrupted
    monkeypatch.setattr(native, "_said", set())
    records, gen = _micro()
    built = gen.compile({key_of(r) for r in records}, tmp_path)
    assert built.how.startswith("pure Python (its module is ") and not built.module
    assert "over the 10 mypyc compiles in minutes" in capsys.readouterr().err
    assert list(tmp_path.iterdir()) == []
