"""Benchmark: the explorer and Spin on the same preset, in the same run.

    python benchmarks/bench_spin.py [PRESET ...] [--cc=-O2] [--compiled] [--c]

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

``--compiled`` adds the packed search with the generated successor compiled by mypyc
(``search(successor="compiled")``, ``packed/native.py``), in a fresh process of its own
(its peak memory its own): its distinct states per CPU second (the module's source
written, the search; mypyc's compile, the first time a table is met, is a process of
its own, reported apart in wall seconds), the ratio to pan's search, and its bytes a
state (the record, plus the visited set's fingerprint and number; and the growth of the
process's peak RSS over its states). Its count must equal the explorer's too. ``--c``
adds the same with the source translated to C (``search(successor="c")``,
``packed/ctrans.py``; its build, seconds of the C compiler, reported apart), its keys
prefixed ``c_``.
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


def measure_compiled(name: str, successor: str = "compiled") -> dict[str, object]:
    """The compiled packed search's figures for preset ``name`` (run in this process),
    its keys prefixed by the successor's name."""
    from unoformal.verification.packed.run import summary
    from unoformal.verification.packed.search import cleanup, search

    config = preset_config(name)
    base = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
    start = time.process_time()
    g = search(config, successor=successor)
    cpu = time.process_time() - start
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
    s = summary(g)
    cleanup(g)
    p = successor
    return {f"{p}_states": g.states, f"{p}_build": g.build,
            f"{p}_compile_wall_s": round(g.compile_seconds or 0.0, 1),
            f"{p}_cpu_s": round(cpu, 2),
            f"{p}_states_per_cpu_s": round(g.states / max(cpu, 0.01)),
            f"{p}_record_bytes": s["record_bytes"],
            f"{p}_visited_bytes_per_state": s["visited_bytes_per_state"],
            f"{p}_peak_bytes_per_state": round((peak - base) / max(1, g.states))}


def _child(args: list[str]) -> dict[str, object]:
    done = subprocess.run([sys.executable, __file__, *args], capture_output=True, text=True,
                          check=False)
    if done.returncode != 0:
        said = done.stderr.strip().splitlines()
        raise RuntimeError(said[-1] if said else "failed")
    row: dict[str, object] = json.loads(done.stdout.strip().splitlines()[-1])
    return row


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("presets", nargs="*", default=["duel", "tiny"])
    parser.add_argument("--cc", default="-O2", help="gcc's optimisation of pan (default -O2)")
    parser.add_argument("--compiled", action="store_true",
                        help="also the packed search, its generated successor compiled")
    parser.add_argument("--c", action="store_true",
                        help="also the packed search, its generated successor in C")
    parser.add_argument("--child", help=argparse.SUPPRESS)
    parser.add_argument("--child-compiled", help=argparse.SUPPRESS)
    parser.add_argument("--child-successor", default="compiled", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        print(json.dumps(measure(args.child, args.cc)))
        return 0
    if args.child_compiled:
        print(json.dumps(measure_compiled(args.child_compiled, args.child_successor)))
        return 0
    why = missing()
    if why is not None:
        print(f"error: {why}", file=sys.stderr)
        return 2
    ok = True
    packed = [p for p, asked in (("compiled", args.compiled), ("c", args.c)) if asked]
    for name in args.presets:
        try:
            row = _child(["--child", name, f"--cc={args.cc}"])
            for p in packed:
                row |= _child(["--child-compiled", name, f"--child-successor={p}"])
        except RuntimeError as err:
            print(f"error: {name}: {err}", file=sys.stderr)
            return 2
        for p in packed:
            row[f"{p}_agree"] = row[f"{p}_states"] == row["states"]
            row[f"{p}_over_spin_search"] = round(
                int(str(row[f"{p}_states_per_cpu_s"]))
                / max(1, int(str(row["spin_states_per_cpu_s_search"]))), 3)
            ok = ok and bool(row[f"{p}_agree"])
        ok = ok and bool(row["agree"])
        print(json.dumps(row))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
