"""Benchmark of the packed explorer against today's explorer, in the same run.

    python benchmarks/bench_packed.py [PRESET ...] [--spill DIR] [--max-seconds S]
                                      [--successors engine,commands,generated,compiled,c]

For each preset, today's explorer (``unoformal.verification.explore``) and the packed
search (``unoformal.verification.packed``) each run in a fresh process, one after the
other, so peak memory is each one's own. Reported: distinct states, edges, CPU seconds,
distinct states per CPU second and the ratio packed/explorer, peak resident memory and
bytes a state (peak RSS over states; the packed search's visited set alone; its files on
disk with ``--spill``), the packed search's bookkeeping-only ceiling (states over the CPU
seconds spent outside the successor function) and the TLC-style probability of a
fingerprint collision. Not a test: the figures depend on the machine and its load;
docs/explorer.md records them.

``--successors`` names the packed search's successor functions to run, each in its own
process (default all three): ``engine`` (``EngineSuccessor``, the engine's ``push``),
``commands`` (``CommandSuccessor``, the commands read over records into closures) and
``generated`` (``GeneratedSuccessor``, the commands written as Python source), and, asked
by name, ``compiled`` (the same source compiled by mypyc into the user's cache the first
time a table is met: ``packed/native.py``) and ``c`` (the same source translated to C,
``packed/ctrans.py``, and built by the C compiler into the same cache). A build is
reported apart, in wall seconds (the compiler's own processes, so not in the CPU seconds
the states per CPU second are counted over).

A preset the explorer cannot hold (``--packed-only``, or a name of
``unoformal.verification.packed.presets.FAR``) runs the packed search alone.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from typing import Any

CHILD = r"""
import json, sys, time
from unoformal.verification.explore import memory
which, name, spill, max_seconds = sys.argv[1], sys.argv[2], sys.argv[3] or None, sys.argv[4]
successor = which.split(":")[1] if ":" in which else "engine"
max_seconds = float(max_seconds) if max_seconds else None
cpu = time.process_time()
if which == "explorer":
    from unoformal.verification.explore.graph import explore, preset_config
    g = explore(preset_config(name))
    cpu = time.process_time() - cpu
    out = {"states": g.states, "edges": g.edges, "cpu": cpu, "complete": g.complete}
else:
    from unoformal.verification.packed.presets import config
    from unoformal.verification.packed.run import summary
    from unoformal.verification.packed.search import cleanup, search
    g = search(config(name), successor=successor, spill=spill, max_seconds=max_seconds)
    cpu = time.process_time() - cpu
    s = summary(g)
    cleanup(g)
    out = {"states": g.states, "edges": g.edges, "cpu": cpu, "complete": g.complete,
           "stopped": g.stopped, "ceiling": s["bookkeeping_ceiling"],
           "visited_bytes_per_state": s["visited_bytes_per_state"],
           "disk_bytes_per_state": s["disk_bytes_per_state"],
           "record_bytes": s["record_bytes"], "collision": s["collision"],
           "build": g.build, "compile": g.compile_seconds}
out["peak"] = memory.peak_rss()
print(json.dumps(out))
"""


def run(which: str, name: str, spill: str | None, max_seconds: float | None) -> dict[str, Any]:
    done = subprocess.run([sys.executable, "-c", CHILD, which, name, spill or "",
                           "" if max_seconds is None else str(max_seconds)],
                          capture_output=True, text=True, check=True)
    result: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
    return result


def _build(r: dict[str, Any]) -> str:
    """The generated successor's module: compiled now (its wall seconds, outside the
    CPU seconds: the compiler's own processes), cached, or pure Python (why)."""
    how = r.get("build")
    if how is None:
        return ""
    return f"{how} ({r['compile']:.1f} s)" if how == "compiled" else how


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__)
    p.add_argument("presets", nargs="*", default=["actions", "big"])
    p.add_argument("--spill", metavar="DIR", help="the packed search's files under DIR")
    p.add_argument("--max-seconds", type=float, default=None,
                   help="stop the packed search after this many CPU seconds")
    p.add_argument("--packed-only", action="store_true")
    p.add_argument("--successors", default="engine,commands,generated",
                   help="the packed search's successor functions, comma-separated")
    p.add_argument("--json", action="store_true")
    args = p.parse_args()
    from unoformal.verification.packed.presets import FAR
    rows = []
    for name in args.presets:
        row: dict[str, Any] = {"preset": name}
        for succ in args.successors.split(","):
            row[f"packed:{succ}"] = run(f"packed:{succ}", name, args.spill, args.max_seconds)
        if not args.packed_only and name not in FAR:
            row["explorer"] = run("explorer", name, None, None)
        rows.append(row)
    if args.json:
        print(json.dumps(rows, indent=1))
        return 0
    print("| preset | search | states | edges | CPU s | states per CPU s | ratio | "
          "peak RSS | bytes/state (peak RSS) | visited set B/state | disk B/state | "
          "ceiling | collision (TLC optimistic) | successor build (compile s) |")
    print("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|")
    for row in rows:
        base = row.get("explorer")
        for which in ("explorer", *(k for k in row if k.startswith("packed:"))):
            r = row.get(which)
            if r is None:
                continue
            rate = r["states"] / r["cpu"]
            ratio = f"{rate / (base['states'] / base['cpu']):.2f}" if base else ""
            extra = ["", "", "", "", ""] if which == "explorer" else [
                str(r["visited_bytes_per_state"]), str(r["disk_bytes_per_state"]),
                f"{r['ceiling']:,}", f"{r['collision']['optimistic']:.1e}", _build(r)]
            done = "" if r["complete"] else f" (stopped: {r.get('stopped')})"
            print(f"| {row['preset']} | {which}{done} | {r['states']:,} | {r['edges']:,} | "
                  f"{r['cpu']:.1f} | {rate:,.0f} | {ratio} | {r['peak'] / 2**20:,.0f} MiB | "
                  f"{r['peak'] / max(1, r['states']):,.0f} | " + " | ".join(extra) + " |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
