"""Benchmark: the explorer and Spin on the same preset, in the same run.

    python benchmarks/bench_spin.py [PRESET ...] [--cc=-O2]

For each preset: the explorer's distinct states per CPU second and its peak memory per
state (the growth of the process's peak RSS while it explores, over its states: the
games, the keys, the graph), then
Spin's on the program ``unoformal explore --promela PRESET`` writes: states per CPU second
of pan's search alone and with the program's generation and build (``spin -a``, gcc), and
pan's bytes per state (its state vector and the hash table's overhead: "equivalent memory
usage for states"). Spin's count less its initial and dealt states must equal the
explorer's; a
mismatch is printed and the run exits 1. Not a test: the figures depend on the machine;
docs/explorer.md records the last ones. Each preset runs in a fresh process, so the peak
memory is its own.
"""

from __future__ import annotations

import argparse
import json
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from unoformal.verification.explore.graph import explore, preset_config
from unoformal.verification.promela.model import program
from unoformal.verification.promela.spin import count, missing

MB = 1024 * 1024


def measure(name: str, cc: str) -> dict[str, object]:
    """Both tools' figures for preset ``name`` (run in this process)."""
    config = preset_config(name)
    base = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024  # the imports
    start = time.process_time()
    graph = explore(config)
    explorer_cpu = time.process_time() - start
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
    start = time.process_time()
    model = program(config)
    written = time.process_time() - start
    with tempfile.TemporaryDirectory() as tmp:
        spin = count(model.text, Path(tmp), optimize=cc, hash_bits=24)
    states = model.explorer_states(spin.states)  # less the initial and dealt states
    return {
        "preset": name, "states": graph.states, "spin_states": states,
        "agree": states == graph.states, "options": model.options,
        "explorer_cpu_s": round(explorer_cpu, 2),
        "explorer_states_per_cpu_s": round(graph.states / explorer_cpu),
        "explorer_peak_bytes_per_state": round((peak - base) / graph.states),
        "spin_write_cpu_s": round(written, 2),
        "spin_build_cpu_s": round(spin.build_seconds, 2),
        "spin_search_cpu_s": round(spin.search_seconds, 2),
        "spin_states_per_cpu_s_search": round(spin.states / max(spin.search_seconds, 0.01)),
        "spin_states_per_cpu_s_all": round(
            spin.states / (written + spin.build_seconds + spin.search_seconds)),
        "spin_vector_bytes": spin.vector_bytes,
        "spin_bytes_per_state": round(spin.state_mb * MB / spin.states),
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("presets", nargs="*", default=["duel", "tiny"])
    parser.add_argument("--cc", default="-O2", help="gcc's optimisation of pan (default -O2)")
    parser.add_argument("--child", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        print(json.dumps(measure(args.child, args.cc)))
        return 0
    why = missing()
    if why is not None:
        print(f"error: {why}", file=sys.stderr)
        return 2
    ok = True
    for name in args.presets:
        done = subprocess.run([sys.executable, __file__, "--child", name, f"--cc={args.cc}"],
                              capture_output=True, text=True, check=False)
        if done.returncode != 0:
            said = done.stderr.strip().splitlines()
            print(f"error: {name}: {said[-1] if said else 'failed'}", file=sys.stderr)
            return 2
        row = json.loads(done.stdout)
        ok = ok and bool(row["agree"])
        print(json.dumps(row))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
