"""Ctrl-C while ``show`` explores a preset's graph: exit 130, ``interrupted``, no page
and no temporary file; the explorer itself passes the interruption on to every caller
that did not ask for a partial graph."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from unoformal.commands.cli import main
from unoformal.verification.explore.graph import Explorer, explore, preset_config

START_S = 120.0  # a loaded machine may take this long to start Python and load show
GRACE = 30.0


def _ctrl_c(*args: object) -> None:
    """A Ctrl-C as the search reports its progress (every 512 states of a layer: tiny's
    layers are larger): the progress callback is a Python call even where the explorer
    is compiled (a compiled method cannot be patched)."""
    raise KeyboardInterrupt


def _interrupt_layers(monkeypatch: pytest.MonkeyPatch) -> None:
    """show's exploration, interrupted as it reports progress (show calls it through its own
    module, which is pure Python)."""
    from unoformal.show import graph as show_graph

    def interrupted(config: object, *args: object, **kwargs: object) -> object:
        return Explorer(config, _ctrl_c).run()  # type: ignore[arg-type]
    monkeypatch.setattr(show_graph, "explore", interrupted)


def test_the_explorer_passes_ctrl_c_on_unless_asked_for_a_partial_graph() -> None:
    with pytest.raises(KeyboardInterrupt):
        explore(preset_config("tiny"), _ctrl_c)
    partial = explore(preset_config("tiny"), _ctrl_c, partial=True)  # what `explore` reports
    assert partial.stopped == "interrupted"


def test_ctrl_c_in_shows_graph_page_leaves_no_page(tmp_path: Path,
                                                   monkeypatch: pytest.MonkeyPatch,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    _interrupt_layers(monkeypatch)
    # main reports an interruption by changing these process-wide: restored afterwards
    monkeypatch.setattr(sys, "unraisablehook", sys.unraisablehook)
    handler = signal.getsignal(signal.SIGINT)
    try:
        code = main(["show", "--preset", "tiny", "--out", str(tmp_path / "g.html")])
    finally:
        signal.signal(signal.SIGINT, handler)
    out, err = capsys.readouterr()
    assert code == 130 and err == "interrupted\n" and "wrote" not in out, (out, err)
    assert os.listdir(tmp_path) == []


def test_ctrl_c_during_show_preset_big_exits_130_without_a_page(tmp_path: Path) -> None:
    proc = subprocess.Popen([sys.executable, "-m", "unoformal", "show", "--preset", "big",
                             "--out", "big.html"], cwd=tmp_path, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, start_new_session=True)
    end = time.monotonic() + START_S
    # running main (its Ctrl-C watcher thread is up), then well into the exploration
    while len(list(Path(f"/proc/{proc.pid}/task").iterdir())) < 2:
        assert time.monotonic() < end, "show never got going"
        time.sleep(0.05)
    time.sleep(3.0)
    proc.send_signal(signal.SIGINT)
    try:
        out, err = proc.communicate(timeout=GRACE)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.communicate()
        raise AssertionError("show did not end on Ctrl-C") from None
    assert proc.returncode == 130, (out, err)
    assert "Traceback" not in err and err.strip().endswith("interrupted"), err
    assert "wrote" not in out, out
    assert os.listdir(tmp_path) == []  # no page, no temporary file
