"""Ctrl-C ends a command at once, even while a solver runs in C code.

Python turns SIGINT into ``KeyboardInterrupt`` only between bytecodes, so a Z3 query
of several seconds would hold it back (and Z3's own Ctrl-C handler, when on, turns
the signal into an "unknown" verdict instead). :func:`watch` has Python's signal
handler also write to a pipe that a thread waits on; the thread runs the hooks
registered with :func:`on_interrupt` (``z3`` registers its context's interrupt),
the C code returns, and the pending ``KeyboardInterrupt`` is raised.
"""

from __future__ import annotations

import os
import signal
import threading
from collections.abc import Callable

_hooks: list[Callable[[], None]] = []
_watching = False


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
    threading.Thread(target=_wait, args=(read,), name="interrupts", daemon=True).start()
    _watching = True


def _wait(fd: int) -> None:
    while True:
        data = os.read(fd, 64)
        if not data:
            return
        if signal.SIGINT in data:
            for hook in list(_hooks):
                hook()
