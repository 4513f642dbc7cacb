"""Whole-game records refereed per CPU second by ``unoformal conform`` on 1 and 2 Dask
workers, against today's per-round conform of the same rounds, in the same run.

Writes ``--games`` whole-game records (version 3; default 100,000 games of 2 players to
``--score`` 200 points, about 3 rounds and 13 KB each), ``--per-file`` of them to a
``.jsonl`` file, each game played from seeds derived from ``--seed`` and its index (the
same files on every run), and the same rounds again as one-round version-2 records (what
conform refereed before game records). The writing is done first, on every core, and is
not measured. Then each ``unoformal conform DIR --json --workers N`` runs as a process of
its own: its wall time, and its CPU time with every process it waited for (its Dask
workers). The whole-game runs must print the same report on every number of workers, byte
for byte, and every record must be clean (exit 0), or no figure is given.

    python benchmarks/bench_conform_games.py                   # 100,000 games
    python benchmarks/bench_conform_games.py --games 5000 --keep DIR
    python benchmarks/bench_conform_games.py --games 5000 --baseline DIR  # git archive

``--baseline DIR``: also run the whole-game conform from the source tree DIR (an earlier
commit, unpacked), whose tasks carried the records' text in the Dask graph.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import os
import pickle
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

PARAMETERS = ("games", "players", "score", "seed", "per_file")


@dataclass(frozen=True)
class Made:
    games: int
    rounds: int
    game_bytes: int
    round_bytes: int


def _config(args: dict[str, int]) -> Any:
    from unoformal.playing.simulate import Config
    from unoformal.rulebook.table import CLASSIC
    from unoformal.rulebook.variants import derive

    rules = derive(CLASSIC, f"to-{args['score']}", f"classic, a game to {args['score']}",
                   {"SCORE-2": {"score": args["score"]}})
    return Config(games=args["games"], players=args["players"], seed=args["seed"],
                  rules=rules)


def _write_file(job: tuple[dict[str, int], int, str]) -> tuple[int, int, int, int]:
    """File ``number``: its games' records (games/), their rounds' (rounds/)."""
    from unoformal.engine.game_writer import game_record
    from unoformal.engine.games import round_record
    from unoformal.engine.record import to_record
    from unoformal.playing.simulate import played

    args, number, folder = job
    config = _config(args)
    first = number * args["per_file"]
    games, rounds = [], []
    for index in range(first, min(first + args["per_file"], args["games"])):
        record = game_record(to_record(played(config, index)[0]), config.rules)
        games.append(json.dumps(record) + "\n")
        rounds += [json.dumps(round_record(record, r)) + "\n"
                   for r in range(len(record["rounds"]))]
    name = f"{number:06d}.jsonl"
    game_text, round_text = "".join(games), "".join(rounds)
    Path(folder, "games", name).write_text(game_text)
    Path(folder, "rounds", name).write_text(round_text)
    return len(games), len(rounds), len(game_text.encode()), len(round_text.encode())


def make(folder: Path, args: dict[str, int]) -> Made:
    """The records, written on every core; or the ones a run with the same parameters
    left in ``folder`` (its manifest)."""
    manifest = folder / "manifest.json"
    if manifest.exists():
        data = json.loads(manifest.read_text())
        if data["parameters"] == args:
            return Made(**data["made"])
    for sub in ("games", "rounds"):
        (folder / sub).mkdir(parents=True, exist_ok=True)
        for old in (folder / sub).glob("*.jsonl"):
            old.unlink()
    files = -(-args["games"] // args["per_file"])
    jobs = [(args, number, str(folder)) for number in range(files)]
    with multiprocessing.get_context("spawn").Pool(os.cpu_count() or 1) as pool:
        counts = pool.map(_write_file, jobs, chunksize=1)
    made = Made(*(sum(c[i] for c in counts) for i in range(4)))
    manifest.write_text(json.dumps({"parameters": args, "made": made.__dict__}))
    return made


@dataclass(frozen=True)
class Run:
    wall: float
    cpu: float
    out: str
    large_graph: bool


def conform(path: Path, workers: int, env: dict[str, str] | None = None) -> Run:
    """``unoformal conform PATH --json --workers N`` as a process of its own."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    # run from the records' folder: ``python -m`` puts the working directory first on the
    # path, which would import this checkout's unoformal ahead of a --baseline tree
    done = subprocess.run([sys.executable, "-m", "unoformal", "conform", str(path), "--json",
                           "--workers", str(workers)], capture_output=True, text=True,
                          env={**os.environ, **(env or {})}, cwd=path.parent, check=False)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode != 0:
        raise SystemExit(f"conform {path} --workers {workers}: exit {done.returncode} "
                         f"(every record should be clean): {done.stderr[-500:]}")
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return Run(wall, cpu, done.stdout, "large graph" in done.stderr)


def graph(path: Path) -> str:
    """What the whole-game run sends to Dask: its tasks and their pickled bytes."""
    from unoformal.compare import records

    files = list(records.pieces([str(path)]))
    total = sum(piece.size for piece in files)
    most = max(records.BATCH_BYTES, -(-total // records.MAX_TASKS))
    found = [part for piece in files for part in records.split(piece, most)]
    tasks = [(batch, None, True) for batch in records.batches(found, most)]
    return (f"{len(tasks)} tasks of {len(found)} pieces of {len(files)} files; "
            f"{len(pickle.dumps(tasks)) / 1000:,.1f} kB pickled for "
            f"{total / 1e6:,.1f} MB of records")


def line(name: str, run: Run, records: int, rounds: int, unit: str) -> str:
    return (f"  {name:<28} wall {run.wall:8.2f} s  CPU {run.cpu:8.2f} s  "
            f"{records / run.cpu:8,.0f} {unit} per CPU s  {rounds / run.cpu:8,.0f} rounds "
            f"per CPU s{'  (Dask: Sending large graph)' if run.large_graph else ''}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0] if __doc__ else None)
    parser.add_argument("--games", type=int, default=100_000)
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--score", type=int, default=200, help="the game's target (SCORE-2)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--per-file", type=int, default=1000, help="game records a file")
    parser.add_argument("--workers", default="1,2", help="whole-game runs' worker counts")
    parser.add_argument("--repeat", type=int, default=1,
                        help="runs of each setting, interleaved (medians reported)")
    parser.add_argument("--keep", type=Path, default=None,
                        help="write the records here and keep them (reused by a run with the "
                             "same parameters)")
    parser.add_argument("--baseline", type=Path, default=None,
                        help="an earlier commit's source tree: its whole-game conform too")
    args = parser.parse_args(argv)
    params = {name: getattr(args, name) for name in PARAMETERS}
    load = os.getloadavg()
    print(f"{os.cpu_count()} cores, load average {load[0]:.1f} {load[1]:.1f} {load[2]:.1f}")
    with tempfile.TemporaryDirectory() as tmp:
        folder = (args.keep if args.keep is not None else Path(tmp)).resolve()
        start = time.perf_counter()
        made = make(folder, params)
        print(f"{made.games:,} whole-game records ({made.rounds:,} rounds, "
              f"{made.rounds / made.games:.2f} a game; {made.game_bytes / 1e6:,.1f} MB in "
              f"{-(-made.games // args.per_file)} files) and {made.rounds:,} one-round "
              f"records ({made.round_bytes / 1e6:,.1f} MB), written in "
              f"{time.perf_counter() - start:,.1f} s (not measured)")
        print(f"whole-game graph: {graph(folder / 'games')}")
        workers = [int(w) for w in args.workers.split(",")]
        base = {"PYTHONPATH": str(args.baseline.resolve())} if args.baseline else None
        settings: list[tuple[str, Path, int, dict[str, str] | None]] = [
            *((f"whole games, {w} worker(s)", folder / "games", w, None) for w in workers),
            *((f"baseline, {w} worker(s)", folder / "games", w, base)
              for w in (workers if base else [])),
            ("one-round records, 1 worker", folder / "rounds", 1, None)]
        runs: dict[str, list[Run]] = {name: [] for name, *_ in settings}
        first: str | None = None
        for rep in range(args.repeat):  # interleaved: a change of load weighs on all alike
            for name, path, count, env in settings if rep % 2 == 0 else settings[::-1]:
                run = conform(path, count, env)
                runs[name].append(run)
                if path.name == "games":
                    first = run.out if first is None else first
                    if run.out != first:
                        raise SystemExit(f"{name} gave another report than the first run")
        for name, *_ in settings:
            done = runs[name]
            median = Run(statistics.median(r.wall for r in done),
                         statistics.median(r.cpu for r in done), "",
                         any(r.large_graph for r in done))
            one = "one-round" in name
            print(line(name, median, made.rounds if one else made.games, made.rounds,
                       "records") + (f"  (walls {', '.join(f'{r.wall:.2f}' for r in done)})"
                                     if len(done) > 1 else ""))
        assert first is not None
        data = json.loads(first)
        print(f"report: {data['games']:,} games, {data['clean']:,} clean; the same in every "
              "whole-game run, byte for byte")
    load = os.getloadavg()
    print(f"load average after: {load[0]:.1f} {load[1]:.1f} {load[2]:.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
