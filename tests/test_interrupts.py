"""Ctrl-C: every long command ends with exit 130, the word "interrupted" and no traceback,
whether SIGINT goes to the command alone or to its whole process group (as a terminal
sends it); verify's worker processes end with it.

The commands run as real processes, each in its own session so the group signal reaches
only them. How fast they end is measured, not asserted (docs/inputs.md, "What bad input gets"):
here a command only has to end well before the minute the workers used to keep running.
"""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import pytest

GRACE = 15.0  # seconds a command may take to end: far beyond the ~0.2 s measured
START_S = 120.0  # seconds a command may take to get going on a loaded machine


def _start(*args: str, ready: bool = True) -> subprocess.Popen[str]:
    """The command, started; with ``ready``, once it runs ``main`` (its Ctrl-C watcher
    thread is up): a loaded machine can take seconds to start Python, and a signal
    before then tests the interpreter's start, not the command."""
    proc = subprocess.Popen([sys.executable, "-m", "unoformal", *args],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            start_new_session=True)
    if ready:
        _wait_for(lambda: _threads(proc.pid) >= 2, START_S)
    return proc


def _threads(pid: int) -> int:
    try:
        return len(list(Path(f"/proc/{pid}/task").iterdir()))
    except OSError:
        return 0


def _children(pid: int) -> list[int]:
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(fields[1]) == pid:
                found.append(int(entry.name))
    return found


def _wait_for(condition: Callable[[], bool], seconds: float) -> None:
    end = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < end, "the command never got going"
        time.sleep(0.05)


def _group_gone(pgid: int) -> bool:
    try:
        os.killpg(pgid, 0)
    except ProcessLookupError:
        return True
    return False


def _interrupt(proc: subprocess.Popen[str], group: bool) -> str:
    if group:
        os.killpg(proc.pid, signal.SIGINT)
    else:
        proc.send_signal(signal.SIGINT)
    try:
        _, err = proc.communicate(timeout=GRACE)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.communicate()
        raise AssertionError("the command did not end on Ctrl-C") from None
    assert proc.returncode == 130, err
    assert "Traceback" not in err and err.strip().endswith("interrupted"), err
    _wait_for(lambda: _group_gone(proc.pid), GRACE)  # no worker left behind
    return err


@pytest.mark.parametrize("group", [False, True], ids=["process", "group"])
def test_verify_ends_on_ctrl_c_with_its_workers(group: bool) -> None:
    """Two Dask workers, each proving its share in a process of its own: the whole tree
    ends (``_interrupt`` waits for the process group to be empty)."""
    proc = _start("verify", "--players", "2-10", "--jobs", "2", "--no-witness")

    def proving() -> bool:  # a share's process under a worker
        return any(_children(worker) for worker in _children(proc.pid))

    _wait_for(proving, START_S)
    time.sleep(1.0)
    _interrupt(proc, group)


def test_verify_in_one_process_ends_on_ctrl_c_inside_a_query() -> None:
    """Z3 in the command's own process: the watcher interrupts the running query."""
    proc = _start("verify", "--players", "2-10", "--jobs", "1", "--no-witness")
    time.sleep(3.0)
    _interrupt(proc, group=True)


@pytest.mark.parametrize("group", [False, True], ids=["process", "group"])
def test_simulate_ends_on_ctrl_c(group: bool) -> None:
    proc = _start("simulate", "--games", "1000000", "--workers", "1", "--json")
    time.sleep(2.5)
    _interrupt(proc, group)


@pytest.mark.parametrize("group", [False, True], ids=["process", "group"])
def test_a_campaign_on_a_local_cluster_ends_on_ctrl_c_with_its_workers(group: bool) -> None:
    """Dask worker processes are shut down with the cluster; no traceback, no log line
    (the workers' own standard error is the null device), exit 130."""
    proc = _start("simulate", "--games", "1000000", "--workers", "2", "--json")
    _wait_for(lambda: len(_children(proc.pid)) >= 3, START_S)  # two workers (and a tracker)
    time.sleep(2.0)
    err = _interrupt(proc, group)
    assert "distributed" not in err


@pytest.mark.parametrize("wait", [0.3, 1.0])
def test_a_campaign_ends_on_ctrl_c_while_its_cluster_starts(wait: float) -> None:
    proc = _start("simulate", "--games", "1000000", "--workers", "2", "--json")
    time.sleep(wait)
    assert "distributed" not in _interrupt(proc, group=True)


def _guard_line() -> int:
    source = (Path(__file__).parents[1] / "unoformal" / "__main__.py").read_text()
    return next(n for n, line in enumerate(source.splitlines(), 1)
                if line.startswith("signal.signal(signal.SIGINT"))


def _ours(traceback: str) -> list[str]:
    """The frames of this package's modules in ``traceback``, but for those Python runs
    before the entry point's guard is set: the package's ``__init__`` and the lines of
    ``__main__`` above the guard."""
    guard = _guard_line()
    early = re.compile(r'/unoformal/(__init__\.py|__main__\.py", line (\d+))')
    found = []
    for line in traceback.splitlines():
        match = early.search(line)
        if "/unoformal/" in line and not (match and (match[2] is None or int(match[2]) < guard)):
            found.append(line)
    return found


@pytest.mark.parametrize("wait", [0.05, 0.15, 0.3, 0.6])
def test_ctrl_c_while_the_command_loads_ends_it_without_a_traceback(wait: float) -> None:
    """SIGINT while the modules load: the entry point's guard ends the command (before
    it, an import's traceback was printed). On a loaded machine the signal may land
    before the interpreter has run a line of ours: then no frame of ours may show."""
    proc = _start("simulate", "--games", "1000000", "--workers", "2", "--json", ready=False)
    time.sleep(wait)
    os.killpg(proc.pid, signal.SIGINT)
    _, err = proc.communicate(timeout=GRACE)
    if proc.returncode != 130:
        assert not _ours(err), err
        return
    assert "Traceback" not in err and err.strip().endswith("interrupted"), err


def test_simulate_reports_the_games_played_before_ctrl_c() -> None:
    proc = _start("simulate", "--games", "1000000", "--workers", "1", "--json")
    time.sleep(2.5)
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=GRACE)
    assert proc.returncode == 130 and "interrupted after" in err, err
    partial = json.loads(out)
    assert 0 < partial["games"] < 1_000_000


LOST = """
import gc, signal, sys, time
from unoformal.runtime import interrupts
# As the command's entry point does (unoformal.__main__ and cli.main): Ctrl-C handled
# whatever this process inherited. A process started in the background by a
# non-interactive shell (a CI job run with `&`) inherits SIGINT ignored, and there
# Python's interrupt_main, which the watcher uses, does nothing.
signal.signal(signal.SIGINT, signal.default_int_handler)
interrupts.watch()

class Finalized:
    def __del__(self):
        raise KeyboardInterrupt  # as Ctrl-C does when it lands in a finalizer

try:
    Finalized()
    gc.collect()
    # the watcher's thread raises it as soon as it runs: wait for it up to a deadline
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline:
        pass
except KeyboardInterrupt:
    print("raised again")
else:
    print("lost")
"""


def test_a_ctrl_c_lost_in_a_finalizer_is_raised_again() -> None:
    """Python cannot raise an exception out of ``__del__``: a Ctrl-C landing there was
    printed and forgotten, and the command went on. The hook raises it again."""
    done = subprocess.run([sys.executable, "-c", LOST], capture_output=True, text=True,
                          timeout=60)
    assert done.stdout.strip() == "raised again", done.stdout + done.stderr
    assert "Traceback" not in done.stderr, done.stderr


HALF_BUILT = """
import sys
from unoformal.commands import cli

class HalfBuilt:  # as a Z3 term whose constructor Ctrl-C cut short: no context to free
    def __del__(self):
        self.ctx.ref()

held = HalfBuilt()
sys.exit(cli._interrupted())  # held is collected at exit, after "interrupted"
"""


def test_an_object_ctrl_c_cut_short_adds_nothing_after_interrupted() -> None:
    """A finalizer failing on an object the interrupt left half-built (Z3's AstRef.__del__:
    no attribute 'ctx') printed "Exception ignored ... Traceback" at exit, after
    "interrupted", in one run of the Ctrl-C test of `verify` in one process."""
    done = subprocess.run([sys.executable, "-c", HALF_BUILT], capture_output=True, text=True,
                          timeout=60)
    assert done.returncode == 130
    assert done.stderr == "interrupted\n", done.stderr


@pytest.mark.parametrize("workers", [[], ["--workers", "2"]], ids=["one-process", "dask"])
def test_the_packed_explorer_ends_on_ctrl_c_with_its_partial_report_and_no_file_left(
        workers: list[str], tmp_path: Path) -> None:
    """``explore --backend packed``: the search stops between chunks (or layers, on Dask
    workers), the partial report is printed, the spilled records and edges are removed."""
    proc = _start("explore", "--preset", "big", "--backend", "packed", "--no-progress",
                  "--spill", str(tmp_path), *workers)
    if workers:
        _wait_for(lambda: len(_children(proc.pid)) >= 3, START_S)  # two workers (and a tracker)
    time.sleep(2.5)
    os.killpg(proc.pid, signal.SIGINT)
    out, err = proc.communicate(timeout=GRACE * 4)
    assert proc.returncode == 130, err
    assert "Traceback" not in err and err.strip().endswith(
        "interrupted (the partial results above)"), err
    assert "INCOMPLETE: interrupted" in out and "stuck states 0" in out, out
    _wait_for(lambda: _group_gone(proc.pid), GRACE)
    assert not list(tmp_path.iterdir())


def test_an_interrupt_wrapped_by_python_is_still_an_interrupt(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """Ctrl-C inside a dataclass's ``__set_name__`` while a module loads (CI caught one
    importing distributed's tornado) reaches ``main`` as a RuntimeError caused by the
    KeyboardInterrupt, possibly before the watcher thread has noted the signal: it still
    ends with exit 130 and no traceback. A RuntimeError of its own is not taken for one."""
    import argparse

    from unoformal.commands import cli
    from unoformal.runtime import interrupts

    def wrapped(args: argparse.Namespace) -> int:
        try:
            raise KeyboardInterrupt
        except KeyboardInterrupt as stop:
            raise RuntimeError("Error calling __set_name__ on 'Field' instance") from stop

    def plain(args: argparse.Namespace) -> int:
        raise RuntimeError("a defect of its own")

    monkeypatch.setattr(sys, "unraisablehook", sys.unraisablehook)  # _interrupted sets it
    monkeypatch.setattr(interrupts, "received", lambda: False)
    monkeypatch.setattr(signal, "signal", lambda *a: None)  # keep pytest's own handler
    monkeypatch.setattr(cli, "_parse", lambda argv: argparse.Namespace(run=wrapped))
    assert cli.main([]) == cli.EXIT_INTERRUPTED
    assert "Traceback" not in capsys.readouterr().err
    monkeypatch.setattr(cli, "_parse", lambda argv: argparse.Namespace(run=plain))
    with pytest.raises(RuntimeError, match="of its own"):
        cli.main([])
