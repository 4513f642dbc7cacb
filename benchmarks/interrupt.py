"""How fast Ctrl-C ends each long command: seconds from SIGINT to exit.

    python benchmarks/interrupt.py [--runs 3]

Each command runs in its own session; SIGINT goes to the process alone, then (another
run) to its whole group, as a terminal sends it. Reports the exit code and the time
to exit; tests/test_interrupts.py checks the exit code and that no worker is left.
"""

from __future__ import annotations

import argparse
import os
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

COMMANDS = {
    # Waits long enough for the local Dask cluster to have started and the shares to prove.
    "verify (2 Dask workers)": (["verify", "--players", "2-10", "--jobs", "2", "--no-witness"],
                                6.0),
    "verify (in process)": (["verify", "--players", "2-10", "--jobs", "1", "--no-witness"], 3.0),
    "simulate (in process)": (["simulate", "--games", "1000000", "--workers", "1", "--json"],
                              2.5),
    "simulate (2 Dask workers)": (["simulate", "--games", "1000000", "--workers", "2",
                                   "--json"], 6.0),
    "explore": (["explore", "--preset", "big", "--no-progress"], 3.0),
}


def measure(args: list[str], wait: float, group: bool) -> tuple[int, float]:
    proc = subprocess.Popen([sys.executable, "-m", "unoformal", *args],
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                            start_new_session=True)
    time.sleep(wait)
    start = time.perf_counter()
    if group:
        os.killpg(proc.pid, signal.SIGINT)
    else:
        proc.send_signal(signal.SIGINT)
    proc.communicate(timeout=120)
    return proc.returncode, time.perf_counter() - start


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    runs = parser.parse_args().runs
    with tempfile.TemporaryDirectory() as folder:
        fifo = Path(folder) / "record.json"
        os.mkfifo(fifo)
        commands = {**COMMANDS, "replay (waiting for input)": (["replay", str(fifo)], 2.0)}
        for name, (args, wait) in commands.items():
            for group in (False, True):
                found = [measure(args, wait, group) for _ in range(runs)]
                codes = sorted({code for code, _ in found})
                times = sorted(t for _, t in found)
                print(f"{name:28s} to the {'group  ' if group else 'process'}: exit {codes}, "
                      f"{times[0]:.2f}-{times[-1]:.2f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
