"""``unoformal explore --backend packed``: the packed search through the explorer's verb.
Where the explorer could hold the graph, its report is the explorer's; beyond that, the
arrays' report says the same counts and findings."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from unoformal.commands.cli import main
from unoformal.verification.explore.graph import preset_config
from unoformal.verification.packed import bridge, native
from unoformal.verification.packed.report import as_explorer
from unoformal.verification.packed.search import cleanup, search

# What differs between two runs of one search: timings, memory, and the packed backend's
# own figures.
TIMED = {"seconds", "states_per_second", "peak_memory_mib"}
PACKED_ONLY = {"backend", "record_bytes", "peak_bytes_per_state", "cpu_seconds",
               "collision", "workers", "worker_cpu_seconds", "first_stuck",
               "first_stuck_path"}
# What the arrays alone cannot say: control states unreached need every state decoded.
DECODED = frozenset({"unreached", "outside_round"})


def _json(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, dict[str, Any]]:
    code = main(["explore", *argv, "--json"])
    return code, json.loads(capsys.readouterr().out)


def _same(data: dict[str, Any], skip: frozenset[str] = frozenset()) -> dict[str, Any]:
    return {k: v for k, v in data.items() if k not in TIMED | PACKED_ONLY | skip}


@pytest.mark.parametrize("preset", ["duel", "reverse"])
def test_a_graph_the_explorer_holds_is_reported_as_the_explorers(
        capsys: pytest.CaptureFixture[str], preset: str) -> None:
    code, graph = _json(capsys, "--preset", preset)
    packed_code, packed = _json(capsys, "--preset", preset, "--backend", "packed")
    assert code == packed_code == 0
    assert packed["backend"] == "packed" and "backend" not in graph
    assert _same(packed) == _same(graph)
    assert 0 < packed["collision"]["birthday"] < 1e-9


def test_beyond_the_bridge_the_arrays_say_the_same(
        capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    _, graph = _json(capsys, "--preset", "reverse")
    monkeypatch.setattr(bridge, "LIMIT", 100)
    code, arrays = _json(capsys, "--preset", "reverse", "--backend", "packed")
    assert code == 0
    assert arrays["unreached"] is None  # the arrays' report, not the bridge's
    assert _same(arrays, DECODED) == _same(graph, DECODED)


def test_stuck_states_beyond_the_bridge_come_with_their_path(
        capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    # EXT-SHORT off: a Draw Two the pile cannot pay leaves the round stuck
    argv = ["--numbers", "1,1", "--wilds", "0", "--no-penalties", "--off", "EXT-SHORT"]
    _, graph = _json(capsys, *argv)
    monkeypatch.setattr(bridge, "LIMIT", 100)
    code, arrays = _json(capsys, *argv, "--backend", "packed")
    assert code == 0 and graph["stuck"] > 0 and graph["no_round_end"] > 0
    assert _same(arrays, DECODED) == _same(graph, DECODED)
    path = arrays["first_stuck_path"]
    # from a deal (the first layer's states) to the stuck state, one layer a step
    assert path[0] < arrays["perft"][0] and path[-1] == arrays["first_stuck"]
    assert path == sorted(path) and len(path) <= arrays["depth"]


def test_witnesses_beyond_the_bridge_are_refused_by_name(
        capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch,
        tmp_path: Path) -> None:
    monkeypatch.setattr(bridge, "LIMIT", 100)
    folder = tmp_path / "w"
    code = main(["explore", "--preset", "duel", "--backend", "packed", "--no-progress",
                 "--witnesses", str(folder)])
    captured = capsys.readouterr()
    assert code == 2
    assert "states 2,476" in captured.out and "packed backend: 32-byte records" in captured.out
    assert captured.err.strip() == (
        "error: --witnesses: not written: 2,476 states are more than the explorer's graph "
        "holds (100); the witnesses and pictures need it")
    assert not folder.exists()


def test_witnesses_within_the_bridge_replay(capsys: pytest.CaptureFixture[str],
                                            tmp_path: Path) -> None:
    folder = tmp_path / "w"
    code = main(["explore", "--preset", "duel", "--backend", "packed", "--no-progress",
                 "--witnesses", str(folder)])
    assert code == 0
    records = sorted(folder.glob("*.json"))
    assert records
    capsys.readouterr()
    assert main(["replay", str(records[0])]) == 0


@pytest.mark.parametrize("argv, words", [
    (["--symmetry", "--backend", "packed"], "--symmetry: the packed backend has no color"),
    (["--workers", "2"], "--spill, --workers and --successor are the packed backend's"),
])
def test_what_a_backend_cannot_do_is_refused(capsys: pytest.CaptureFixture[str],
                                             argv: list[str], words: str) -> None:
    assert main(["explore", "--preset", "micro", *argv]) == 2
    err = capsys.readouterr().err
    assert words in err and "Traceback" not in err


def test_dask_workers_give_the_single_process_report(
        capsys: pytest.CaptureFixture[str]) -> None:
    _, one = _json(capsys, "--preset", "micro", "--backend", "packed")
    code, dask = _json(capsys, "--preset", "micro", "--backend", "packed", "--workers", "1")
    assert code == 0 and dask["workers"] == 1
    assert _same(dask) == _same(one)


def test_the_presets_that_reach_further_are_listed_and_run(
        capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["explore", "--list"]) == 0
    assert "every2-quiet" in capsys.readouterr().out
    code, data = _json(capsys, "--preset", "every2", "--backend", "packed",
                       "--max-states", "3000")
    assert code == 1 and not data["complete"] and data["states"] >= 3000
    assert data["preset"] == "every2"


def test_a_search_stopped_inside_a_layer_reports_no_false_stuck_state() -> None:
    # a chunk of 97 states: the state limit stops the search inside a layer, whose later
    # states were never expanded (the bridge had counted them as expanded, so stuck)
    g = search(preset_config("actions", max_states=3000), chunk=97)
    try:
        assert not g.complete and g.layer_start[-1] > g.expanded
        graph, found = as_explorer(g) or (None, None)
        assert graph is not None and found is not None
        assert found.stuck == g.stuck == []
        assert all(graph.expanded[:g.expanded])  # beyond, only the finished rounds
        assert not any(graph.expanded[s] for s in range(g.expanded, g.states)
                       if not graph.over(s))
    finally:
        cleanup(g)


@pytest.mark.skipif(native.c_missing() is not None, reason="no C build here")
def test_the_c_successor_gives_the_same_report(
        capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch,
        tmp_path: Path) -> None:
    """``--successor c``: the explorer's report, word for word, and the module's build
    in the packed line (built, then cached)."""
    monkeypatch.setenv(native.CACHE_ENV, str(tmp_path))
    _, engine = _json(capsys, "--preset", "reverse", "--backend", "packed")
    code, c = _json(capsys, "--preset", "reverse", "--backend", "packed", "--successor", "c")
    assert code == 0 and c["successor_build"] == "compiled"
    assert "successor_build" not in engine
    assert _same(c, frozenset({"successor_build"})) == _same(engine)
    _, again = _json(capsys, "--preset", "reverse", "--backend", "packed", "--successor", "c")
    assert again["successor_build"] == "cached"


@pytest.mark.parametrize(("argv", "words"), [
    (["--preset", "duel", "--successor", "c"], "are the packed backend's"),
    (["--preset", "duel", "--backend", "packed", "--successor", "c", "--workers", "2"],
     "the Dask workers run the engine's successor"),
    (["--preset", "duel", "--rules", "seven-o", "--backend", "packed", "--successor", "c"],
     "PassHands has no reading over packed records; --successor engine reads every table"),
])
def test_the_c_successor_where_it_cannot_run_is_refused_by_name(
        capsys: pytest.CaptureFixture[str], argv: list[str], words: str) -> None:
    assert main(["explore", *argv]) == 2
    captured = capsys.readouterr()
    assert words in captured.err and "Traceback" not in captured.err
