"""One share of ``check_suite``'s player counts, checked in a Python process of its own:
``python -m unoformal.verification.z3.share`` reads the pickled task on standard input
and writes the pickled rows on standard output.

Why a process of its own: the counterexample Z3 finds depends on everything asked
before in the same process (its context numbers and shares terms), and a Dask worker
runs task after task (on a shared cluster, other runs' too). A new process per share
gives a command the same counterexamples on any number of workers, as the worker pool
it replaces did (one new process per share).
"""

from __future__ import annotations

import os
import pickle
import signal
import sys
import threading
import time


def _exit_with(parent: int) -> None:
    """End this process when its parent has gone (a worker ended by Ctrl-C or a cluster's
    shutdown): no share goes on proving for nobody."""
    while os.getppid() == parent:
        time.sleep(0.2)
    os._exit(1)


def main() -> None:
    # The parent (a Dask worker, or the command itself) is the one Ctrl-C ends.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    threading.Thread(target=_exit_with, args=(os.getppid(),), daemon=True).start()
    from unoformal.verification.z3.prover import check_share

    job = pickle.loads(sys.stdin.buffer.read())
    sys.stdout.buffer.write(pickle.dumps(check_share(job)))


if __name__ == "__main__":
    main()
