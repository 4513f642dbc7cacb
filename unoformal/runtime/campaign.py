"""Long campaigns: embarrassingly parallel jobs run as Dask (``dask.distributed``) tasks.

Every command that runs many independent pieces of work (``simulate``'s games,
``validate``'s player counts, ``conform``'s records, ``verify``'s shares of player counts
and its mutants) hands them to :func:`run`, under one contract that makes a result
independent of where it was computed:

- the work is split into tasks **fixed before any starts**, by the job alone (never by the
  number of workers);
- each task is deterministic from its arguments (its seeds derived from the job's seed and
  the task's index);
- results are combined **in task order**.

So a seed gives the same output on one worker, on two, or on a cluster of many machines
(``--scheduler ADDRESS``; each worker needs the same ``unoformal`` installed).

Where the tasks run: with ``--workers 1`` in this process, with no cluster and without
importing Dask at all; likewise by default for a job the command calls small (starting
a local cluster costs about 2 s of wall time: it would only slow it down). Otherwise a
``LocalCluster`` of one single-threaded worker process per core (``--workers N`` to
choose), or the running cluster ``--scheduler`` names. A progress bar follows the futures
as they finish, on a terminal only.

Ctrl-C ends the run: the futures are cancelled, the cluster is shut down and
``KeyboardInterrupt`` goes on to the command (exit 130). Local worker processes ignore
SIGINT (a terminal sends it to the whole process group); Dask's own log lines about the
shutdown are silenced. A task that raises one of this package's errors re-raises it here
as it was; any other exception, or a worker lost, becomes a :class:`TaskError` naming the
task.
"""

from __future__ import annotations

import argparse
import contextlib
import functools
import gc
import os
import signal
import sys
import threading
import warnings
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

from unoformal.errors import InvalidInputError, UnoError

T = TypeVar("T")
R = TypeVar("R")

MAX_WORKERS = 1024
CONNECT_TIMEOUT_S = 10  # to reach a --scheduler; Dask's default is 30 s
CLOSE_TIMEOUT_S = 3  # to shut a local cluster down before its processes are killed


class TaskError(UnoError):
    """A task that failed with an exception outside this package's family, or whose
    worker was lost: named by its job and index."""


@dataclass(frozen=True)
class Options:
    """Where a campaign's tasks run: ``workers`` local processes (None: one per core),
    or the cluster at ``scheduler``; ``bar``: show a progress bar (on a terminal)."""

    workers: int | None = None
    scheduler: str | None = None
    bar: bool = True

    def local(self, tasks: int, small: bool) -> bool:
        """Run in this process: one worker asked for, or (by default) a small job or a
        single task."""
        if self.scheduler is not None:
            return False
        if self.workers is not None:
            return self.workers == 1
        return small or tasks <= 1

    def processes(self, tasks: int) -> int:
        """Local worker processes: as asked, else one per core; never more than tasks."""
        want = self.workers if self.workers is not None else cores()
        return max(1, min(want, tasks))


def cores() -> int:
    """The cores this process may run on (its affinity, not the machine's count)."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """``--workers`` and ``--scheduler``, the same in every command that runs a campaign."""
    from unoformal.commands.options import short_text, whole

    group = parser.add_argument_group("campaign (Dask)")
    group.add_argument("--workers", type=whole(1, MAX_WORKERS), default=None,
                       help="local worker processes (default: one per core for a large "
                            "job, this process alone for a small one; 1: this process, "
                            "without Dask); results are the same for any number")
    group.add_argument("--scheduler", type=short_text, default=None, metavar="ADDRESS",
                       help="run the tasks on the running Dask cluster at ADDRESS "
                            "(tcp://host:8786), whose workers have unoformal installed")


def options(args: argparse.Namespace, bar: bool = True,
            workers: int | None = None) -> Options:
    """The campaign options a command line gave, ``workers`` when it gave neither
    (``--workers`` and ``--scheduler`` together are refused: the cluster decides its own
    workers)."""
    if args.workers is not None and args.scheduler is not None:
        raise InvalidInputError("--workers and --scheduler: give one; a running cluster "
                                "has its own workers")
    if args.workers is None and args.scheduler is None:
        return Options(workers, None, bar)
    return Options(args.workers, args.scheduler, bar)


def run(fn: Callable[[T], R], items: Sequence[T], opts: Options, *, label: str,
        unit: str = "tasks", weights: Sequence[int] | None = None, small: bool = False,
        console: Console | None = None,
        on_result: Callable[[int, R], None] | None = None) -> list[R]:
    """``fn(item)`` for every item, as one task each; the results in the order of
    ``items``. ``weights`` (default 1 each) are what the progress bar counts, in
    ``unit``; ``on_result(index, result)`` is called as each task ends (in the order they
    end). ``fn`` must be a module-level function and the items picklable."""
    sizes = list(weights) if weights is not None else [1] * len(items)
    with progress(label, unit, sum(sizes), opts.bar, console) as advance:
        def done(index: int, result: R) -> None:
            advance(sizes[index])
            if on_result is not None:
                on_result(index, result)

        if opts.local(len(items), small):
            return _in_process(fn, items, label, done)
        return _distributed(fn, items, opts, label, done)


def _in_process(fn: Callable[[T], R], items: Sequence[T], label: str,
                done: Callable[[int, R], None]) -> list[R]:
    out = []
    for index, item in enumerate(items):
        result = _guarded(fn, item, label, index)
        out.append(result)
        done(index, result)
    return out


def _guarded(fn: Callable[[T], R], item: T, label: str, index: int) -> R:
    try:
        return fn(item)
    except (UnoError, KeyboardInterrupt):
        raise
    except Exception as err:  # a bug in a task: named, not a traceback
        raise _failed(label, index, err) from err


def _failed(label: str, index: int, err: BaseException) -> TaskError:
    return TaskError(f"{label}: task {index} failed: {type(err).__name__}: {err}")


def _distributed(fn: Callable[[T], R], items: Sequence[T], opts: Options, label: str,
                 done: Callable[[int, R], None]) -> list[R]:
    from distributed import as_completed  # Dask only when a cluster is used

    with _collected_here(), _client(opts, len(items)) as client:
        futures = client.map(functools.partial(_in_worker, fn), items, pure=False)
        where = {future.key: index for index, future in enumerate(futures)}
        results: dict[int, R] = {}
        try:
            for future in as_completed(futures):
                index = where[future.key]
                results[index] = _outcome(future, label, index)
                done(index, results[index])
        except BaseException:  # Ctrl-C or a failed task: stop the others now
            client.cancel(futures, force=True)
            raise
    return [results[i] for i in range(len(items))]


def _in_worker(fn: Callable[[T], R], item: T) -> R:
    """``fn(item)`` as a Dask worker runs it: with no cyclic garbage collection in the
    worker's other threads, ever, and all of it in this (the task's) thread when the task
    ends. A worker process runs its tasks beside its own event-loop thread; a Z3 term
    collected there frees itself through Z3 while the task's thread uses it, and Z3's
    contexts are not thread-safe: the matrix (``house-rules``) died of it, a pair's task
    failing with "Z3Exception: Overflow encountered when expanding vector", and an
    earlier run lost workers, replaced mid-run. Off for good in a worker process (it is
    the campaign's), so that no collection started between two tasks runs into the
    next."""
    gc.disable()
    try:
        return fn(item)
    finally:
        gc.collect()


def _outcome(future: Any, label: str, index: int) -> Any:
    if future.status == "finished":
        return future.result()
    if future.status == "error":
        err = future.exception()
        if isinstance(err, UnoError):
            raise err
        raise _failed(label, index, err)
    raise TaskError(f"{label}: task {index} {future.status} by the cluster")


@contextlib.contextmanager
def _collected_here() -> Iterator[None]:
    """No cyclic garbage collection while Dask's threads run in this process, and all of it
    in this thread before and after. Collected in Dask's event-loop thread, a Z3 term left
    over from earlier work (a test's, a property's) frees itself through Z3 while this
    thread may be using Z3, whose contexts are not thread-safe: a CI run died of it, a
    segmentation fault in ``Z3_dec_ref`` called from that thread."""
    was = gc.isenabled()
    gc.collect()
    gc.disable()
    try:
        yield
    finally:
        if was:
            gc.enable()
        gc.collect()


@contextlib.contextmanager
def _client(opts: Options, tasks: int) -> Iterator[Any]:
    """A client of the cluster ``opts`` names, or of a new local one, closed on leaving
    (whatever the reason) with Dask's shutdown messages silenced."""
    _silence_dask()
    from distributed import Client

    if opts.scheduler is not None:
        try:
            client = Client(opts.scheduler, timeout=CONNECT_TIMEOUT_S)
        except (OSError, ValueError, TypeError) as err:
            raise InvalidInputError(f"--scheduler {opts.scheduler}: cannot reach a Dask "
                                    f"scheduler there: {err}") from None
        with _closing(client):
            yield client
        return
    cluster = local_cluster(opts.processes(tasks))
    try:
        with _closing(Client(cluster)) as client:
            yield client
    except BaseException:  # Ctrl-C, a failed task: the workers are killed first
        shut_down(cluster, now=True)
        raise
    shut_down(cluster)


def shut_down(cluster: Any, now: bool = False) -> None:
    """Close a local cluster (Ctrl-C ignored meanwhile); ``now``: kill its worker
    processes first (measured: 0.2 s from Ctrl-C to "interrupted" instead of 3 s, the
    close's time-out, while the workers prove). Any worker the close left running is
    killed too: a worker ends gracefully on SIGTERM, after its task, and would hold this
    process's exit (which waits for its children)."""
    nannies = list(getattr(cluster, "workers", {}).values())
    processes = [p for p in map(_process, nannies) if p is not None]
    if now:
        for nanny in nannies:
            nanny.auto_restart = False  # no new worker for the one killed
        _kill(processes)
    with _closing(cluster):
        pass
    _kill(processes)
    # Dask closes at exit every cluster not closed yet, again, waiting up to 10 s (and
    # printing a traceback if interrupted): this one is done with.
    from distributed.deploy.spec import SpecCluster

    getattr(SpecCluster, "_instances", set()).discard(cluster)


def _kill(processes: list[Any]) -> None:
    for process in processes:
        with contextlib.suppress(Exception):
            process.kill()  # multiprocessing's: only if not yet ended and reaped


def _process(nanny: Any) -> Any:
    """The ``multiprocessing.Process`` of a nanny's worker (Dask's own handle on it acts
    through the cluster's event loop, stopped once it is closed)."""
    return getattr(getattr(getattr(nanny, "process", None), "process", None), "_process", None)


def local_cluster(workers: int) -> Any:
    """A ``LocalCluster`` of ``workers`` single-threaded worker processes, quiet: their
    standard error is the null device, so nothing they print (a traceback when a Ctrl-C
    to the process group ends them, a log line) reaches the user. Ctrl-C stays this
    process's to handle, during the start too."""
    import logging

    from distributed import LocalCluster
    from distributed.deploy.spec import SpecCluster

    known = set(getattr(SpecCluster, "_instances", ()))
    # A random port for its HTTP server, and no warning printed when one is taken.
    with _stderr_discarded(), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            return LocalCluster(n_workers=workers, threads_per_worker=1, processes=True,
                                dashboard_address=":0", silence_logs=logging.CRITICAL)
        except BaseException:
            # Ctrl-C during the start: close the cluster half built (Dask would at exit,
            # printing a traceback), standard error still discarded: a worker process
            # that its nanny spawns meanwhile fails to start and says so (measured: 1 run
            # in 40 interrupted at 0.2-0.7 s printed that traceback).
            for cluster in set(getattr(SpecCluster, "_instances", ())) - known:
                shut_down(cluster, now=True)
            raise


@contextlib.contextmanager
def _stderr_discarded() -> Iterator[None]:
    """File descriptor 2 on the null device meanwhile: what the processes started
    meanwhile inherit as their standard error."""
    sys.stderr.flush()
    saved = os.dup(2)
    null = os.open(os.devnull, os.O_WRONLY)
    try:
        os.dup2(null, 2)
        yield
    finally:
        os.dup2(saved, 2)
        os.close(saved)
        os.close(null)


@contextlib.contextmanager
def _closing(thing: Any) -> Iterator[Any]:
    try:
        yield thing
    finally:
        # A second Ctrl-C while the cluster shuts down must not leave it running.
        with _sigint_ignored(), contextlib.suppress(Exception):
            thing.close(timeout=CLOSE_TIMEOUT_S)


@contextlib.contextmanager
def _sigint_ignored() -> Iterator[None]:
    """SIGINT ignored meanwhile (only the main thread can set a handler: elsewhere, as
    it was)."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    before = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, before)


def _silence_dask() -> None:
    """Dask logs warnings when a cluster closes with tasks running (and on every task
    error); the command reports what matters itself."""
    import logging  # here: 10 ms of simulate's start-up otherwise

    for name in ("distributed", "dask", "tornado", "asyncio"):
        logging.getLogger(name).setLevel(logging.CRITICAL)


@contextlib.contextmanager
def progress(label: str, unit: str, total: int, show: bool,
             console: Console | None) -> Iterator[Callable[[int], None]]:
    """A progress bar on ``console`` (stderr by default), only when it is a terminal and
    ``show``; yields the function that advances it."""
    console = console if console is not None else Console(stderr=True)
    columns = (TextColumn(f"[bold]{label}"), BarColumn(), MofNCompleteColumn(),
               TextColumn(unit), TimeElapsedColumn())
    with Progress(*columns, console=console, transient=True,
                  disable=not (show and console.is_terminal)) as progress:
        task = progress.add_task(label, total=total)
        yield lambda size: progress.advance(task, size)
