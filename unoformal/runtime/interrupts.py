"""Ctrl-C ends a command at once, even while a solver runs in C code.

Python turns SIGINT into ``KeyboardInterrupt`` only between bytecodes, so a Z3 query
of several seconds would hold it back (and Z3's own Ctrl-C handler, when on, turns
the signal into an "unknown" verdict instead). :func:`watch` has Python's signal
handler also write to a pipe that a thread waits on; the thread runs the hooks
registered with :func:`on_interrupt` (``z3`` registers its context's interrupt),
the C code returns, and the pending ``KeyboardInterrupt`` is raised.
"""

from __future__ import annotations

import _thread
import os
import signal
import sys
import threading
from collections.abc import Callable

_hooks: list[Callable[[], None]] = []
_watching = False


_received = threading.Event()
_lost = threading.Event()


def _raise_again() -> None:
    """Raise a lost ``KeyboardInterrupt`` in the main thread, from this one (it does
    nothing where SIGINT is ignored, during a cleanup)."""
    while True:
        _lost.wait()
        _lost.clear()
        _thread.interrupt_main()


def received() -> bool:
    """Whether SIGINT has arrived: a Ctrl-C that lands inside a C library's callback (Z3's
    error handler) cannot be raised there, and surfaces as that library's own error."""
    return _received.is_set()


def _unraisable(info: sys.UnraisableHookArgs) -> None:
    """A ``KeyboardInterrupt`` raised inside a finalizer or a C library's callback cannot
    propagate, and Python would only print it: the command would go on as if Ctrl-C had
    never come. It is raised again, at the next point the program can take it."""
    if info.exc_type is not None and issubclass(info.exc_type, KeyboardInterrupt):
        _lost.set()  # raised here, in the hook, it would be lost again
        return
    sys.__unraisablehook__(info)


def end_guard() -> None:
    """Ctrl-C is Python's ``KeyboardInterrupt`` again, if the command's entry point
    (``unoformal.__main__``) had set its guard: a Ctrl-C while the modules load ends the
    program at once with exit 130, not with an import's traceback."""
    handler = signal.getsignal(signal.SIGINT)
    if getattr(handler, "__name__", None) == "_before_main" and \
            threading.current_thread() is threading.main_thread():
        signal.signal(signal.SIGINT, signal.default_int_handler)


def on_interrupt(hook: Callable[[], None]) -> None:
    """Run ``hook`` (from another thread) as soon as SIGINT arrives."""
    if hook not in _hooks:
        _hooks.append(hook)


def watch() -> None:
    """Start the watcher once per process (only the main thread can set it up)."""
    global _watching
    if _watching or threading.current_thread() is not threading.main_thread():
        return
    read, write = os.pipe()
    os.set_blocking(write, False)
    try:
        signal.set_wakeup_fd(write, warn_on_full_buffer=False)
    except ValueError:  # not the main interpreter: no watcher, plain KeyboardInterrupt
        os.close(read)
        os.close(write)
        return
    sys.unraisablehook = _unraisable
    threading.Thread(target=_wait, args=(read,), name="interrupts", daemon=True).start()
    threading.Thread(target=_raise_again, name="interrupts-again", daemon=True).start()
    _watching = True


def _wait(fd: int) -> None:
    while True:
        data = os.read(fd, 64)
        if not data:
            return
        if signal.SIGINT in data:
            _received.set()
            for hook in list(_hooks):
                hook()
