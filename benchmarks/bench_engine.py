"""Engine throughput against RLCard's UnoGame, under the same policy, at several player counts.

    python benchmarks/bench_engine.py [--players 2,4,10] [--repeats 5] [--baseline REV]
        [--pure]

Not part of the test suite: timings are measured here, never asserted.

What one step is, for both engines, through their public APIs:

* unoformal (``apply``): ``game.legal_actions(penalties=False)`` (every player's: the
  plays with every color and UNO variant, draw/pass, and the out-of-turn UNO and catch
  actions), the policy's choice, ``game.apply`` (which checks the action against the
  table before applying it). Games run to 500 points (SCORE-2), so one game is several
  rounds; a round is the unit comparable to an RLCard game.
* unoformal (``push``): the same with ``game.push``, python-chess's fast path for an
  action taken from ``legal_actions()`` of the same state.
* RLCard: ``UnoGame.get_legal_actions()``, the policy's choice, ``UnoGame.step``. No
  validation, no out-of-turn actions, no UNO call, no challenge; a drawn card that
  matches is played automatically; one game is one round.

The policies, the same code for both engines:

* ``play-first``: uniform among the plays whenever there is one, else among all legal
  actions. RLCard offers ``draw`` only when nothing is playable, so this is the policy
  its players follow; ours may draw while able to play (DRAW-1), which this policy never does.
* ``uniform``: uniform over the legal actions. Our players then draw often while able to
  play, so hands grow and rounds are far longer than RLCard's.

Fairness: every engine runs in its own long-lived child process (the same interpreter),
repetitions interleaved (each engine once per repetition, in turn), the same seeds in
every repetition, time is each run's CPU time (``time.process_time``), medians reported.
``--baseline REV`` runs a second copy of the engine, the source of git revision ``REV``
(``git archive``, compiled as its install would be: benchmarks/revision.py), in the same
way, for a before/after ratio measured in the same run.
The installed engine is ``engine/game.py`` compiled by mypyc where the build could
(setup.py; the header line says which). ``--pure`` also runs this tree's source without
the compiled module, in the same way: the engine a machine without a C compiler installs.
"""

from __future__ import annotations

import argparse
import cProfile
import io
import json
import os
import pstats
import random
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from revision import checkout
from rich.console import Console
from rich.table import Table

ROOT = Path(__file__).resolve().parent.parent
POLICIES = ("play-first", "uniform")


@dataclass(frozen=True)
class Run:
    """One timed run of one workload."""

    steps: int
    rounds: int  # rounds played (an RLCard game is one round)
    seconds: float  # CPU


def _uniform(rng: random.Random, moves: list[Any]) -> Any:
    return rng.choice(moves)


def _ours_play_first(play: Any) -> Callable[[random.Random, list[Any]], Any]:
    def choose(rng: random.Random, moves: list[Any]) -> Any:
        return rng.choice([a for a in moves if a.type is play] or moves)
    return choose


def _rlcard_play_first(rng: random.Random, moves: list[str]) -> str:
    return rng.choice([a for a in moves if a != "draw"] or moves)


def ours(players: int, policy: str, seeds: list[int], push: bool,
         rules_name: str = "classic") -> Run:
    """Whole games to 500 points on the engine imported in this process, under the
    shipped variant ``rules_name`` (``rlcard``: RLCard's own rule choices, so that a round
    asks for the same decisions as one of RLCard's games)."""
    from unoformal.engine.actions import ActionType
    from unoformal.engine.game import Game

    rules = _module("rulebook.variants", "spec.variants").load_rules(rules_name)

    choose = _uniform if policy == "uniform" else _ours_play_first(ActionType.PLAY)
    names = [f"P{i + 1}" for i in range(players)]
    steps = rounds = 0
    # A table met for the first time builds its commands and lookups (about 50 ms, once per
    # table and process): done before the clock starts, as RLCard's game is made before.
    Game(names, seed=seeds[0], rules=rules)
    start = time.process_time()
    for seed in seeds:
        rng = random.Random(seed)
        game = Game(names, seed=seed, rules=rules)
        step = game.push if push else game.apply
        while not game.game_over:
            if game.round_over:
                game.next_round()
            step(choose(rng, game.legal_actions(penalties=False)))
            steps += 1
        rounds += game.round
    return Run(steps, rounds, time.process_time() - start)


def rlcard(players: int, policy: str, games: int, seed: int) -> Run:
    """RLCard's UnoGame: ``games`` games (rounds) from one seed."""
    import numpy as np
    from rlcard.games.uno.game import UnoGame

    choose = _uniform if policy == "uniform" else _rlcard_play_first
    game = UnoGame(num_players=players)
    game.np_random = np.random.RandomState(seed)
    rng = random.Random(seed)
    steps = 0
    start = time.process_time()
    for _ in range(games):
        game.init_game()
        while not game.is_over():
            game.step(choose(rng, game.get_legal_actions()))
            steps += 1
    return Run(steps, games, time.process_time() - start)


def _module(*names: str) -> Any:
    """The first of ``names`` (under ``unoformal.``) that the imported package holds: a
    baseline revision may be from before a module moved (``spec/`` became ``rulebook/``,
    ``compiled`` went into ``runtime/``). Only the package's own folder counts, so that an
    editable install of this tree cannot lend a baseline a module of today's."""
    import importlib

    import unoformal
    home = Path(unoformal.__file__).parent
    for name in names:
        parts = name.split(".")
        if (home.joinpath(*parts[:-1]) / f"{parts[-1]}.py").exists():
            return importlib.import_module(f"unoformal.{name}")
    raise ImportError(f"none of {names} in {home}")


def child() -> None:
    """Serve workloads, one JSON line in, one out, on the engine this process imports."""
    import unoformal
    try:
        built = _module("runtime.compiled", "compiled").build()
    except ImportError:  # a baseline from before the compiled build
        built = "pure Python"
    print(json.dumps({"engine": unoformal.__file__, "build": built}), flush=True)
    for line in sys.stdin:
        job = json.loads(line)
        if job["engine"] == "rlcard":
            run = rlcard(job["players"], job["policy"], job["games"], job["seed"])
        else:
            run = ours(job["players"], job["policy"], job["seeds"], job["engine"] == "push",
                       job["rules"])
        print(json.dumps(asdict(run)), flush=True)


class Worker:
    """A child process running this file with ``source`` first on its path."""

    def __init__(self, source: Path) -> None:
        env = dict(os.environ, PYTHONPATH=str(source))
        self.proc = subprocess.Popen([sys.executable, __file__, "--child"], env=env,
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        hello = self._read()
        self.engine, self.build = hello["engine"], hello["build"]
        if not str(self.engine).startswith(str(source)):
            raise SystemExit(f"the child imported {self.engine}, not the engine in {source}")

    def _read(self) -> dict[str, Any]:
        assert self.proc.stdout is not None
        line = self.proc.stdout.readline()
        if not line:
            raise SystemExit("a benchmark child process ended early")
        return dict(json.loads(line))

    def run(self, job: dict[str, Any]) -> Run:
        assert self.proc.stdin is not None
        self.proc.stdin.write(json.dumps(job) + "\n")
        self.proc.stdin.flush()
        return Run(**self._read())

    def close(self) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.close()
        self.proc.wait()


def pure(into: str) -> Path:
    """This tree's package without the compiled engine, under ``into``: pure Python."""
    from unoformal.runtime.compiled import copy_source

    dest = Path(into) / "pure"
    copy_source(dest, ROOT)
    return dest


def rate(runs: list[Run], per: Callable[[Run], float]) -> float:
    return statistics.median(per(r) for r in runs)


def steps_per_s(r: Run) -> float:
    return r.steps / r.seconds


def rounds_per_s(r: Run) -> float:
    return r.rounds / r.seconds


def measure(args: argparse.Namespace, workers: dict[str, Worker],
            console: Console) -> dict[tuple[int, str, str], list[Run]]:
    results: dict[tuple[int, str, str], list[Run]] = {}
    seeds = [args.seed + i for i in range(args.games)]
    for engine, worker in workers.items():  # warm up: the lookups, caches, RLCard's imports
        for players in args.players:
            worker.run({"engine": engine, "players": players, "policy": "uniform",
                        "seeds": seeds[:1], "games": 20, "seed": args.seed,
                        "rules": args.rules})
    for rep in range(args.repeats):
        for players in args.players:
            for policy in POLICIES:
                for engine, worker in workers.items():
                    job: dict[str, Any] = {"engine": engine, "players": players,
                                           "policy": policy, "seeds": seeds,
                                           "games": args.rlcard_games, "seed": args.seed,
                                           "rules": args.rules}
                    run = worker.run(job)
                    results.setdefault((players, policy, engine), []).append(run)
        console.print(f"  repetition {rep + 1}/{args.repeats} done", highlight=False)
    return results


def report(args: argparse.Namespace, engines: list[str],
           results: dict[tuple[int, str, str], list[Run]], console: Console) -> None:
    table = Table(title=f"Steps per CPU second, median of {args.repeats} interleaved "
                  "repetitions")
    for column in ("players", "policy", "engine", "steps/s", "ratio to RLCard",
                   "steps/round", "rounds/s"):
        table.add_column(column, justify="left" if column in ("policy", "engine") else "right")
    for players in args.players:
        for policy in POLICIES:
            theirs = results[(players, policy, "rlcard")]
            for engine in engines:
                runs = results[(players, policy, engine)]
                ratio = "" if engine == "rlcard" else \
                    f"{rate(runs, steps_per_s) / rate(theirs, steps_per_s):.2f}x {policy}"
                table.add_row(str(players), policy, engine, f"{rate(runs, steps_per_s):,.0f}",
                              ratio, f"{runs[0].steps / runs[0].rounds:.1f}",
                              f"{rate(runs, rounds_per_s):,.0f}")
    console.print(table)
    for players in args.players:
        theirs = results[(players, "play-first", "rlcard")]
        for engine in ("apply", "pure"):
            if engine not in engines:
                continue
            mine = results[(players, "play-first", engine)]
            console.print(f"{players} players, play-first: unoformal ({engine}) "
                          f"{rate(mine, rounds_per_s):,.0f} rounds/s, RLCard "
                          f"{rate(theirs, rounds_per_s):,.0f} games/s: "
                          f"{rate(mine, rounds_per_s) / rate(theirs, rounds_per_s):.2f}x",
                          highlight=False)
    if "baseline" in engines:
        for players in args.players:
            for policy in POLICIES:
                # each repetition ran both back to back: its ratio shares the machine's load
                paired = statistics.median(
                    steps_per_s(a) / steps_per_s(b) for a, b in zip(
                        results[(players, policy, "apply")],
                        results[(players, policy, "baseline")], strict=True))
                console.print(f"{players} players, {policy}: apply() {paired:.2f}x the "
                              f"baseline {args.baseline} (median of per-repetition ratios)",
                              highlight=False)


def profile(players: int, policy: str, seeds: list[int], top: int, console: Console,
            rules: str = "classic") -> None:
    """cProfile of the engine in this process under one policy."""
    sys.path.insert(0, str(ROOT))
    ours(players, policy, seeds, push=False, rules_name=rules)  # warm up: imports, caches
    profiler = cProfile.Profile()
    profiler.enable()
    ours(players, policy, seeds, push=False, rules_name=rules)
    profiler.disable()
    out = io.StringIO()
    pstats.Stats(profiler, stream=out).sort_stats("tottime").print_stats(top)
    console.rule(f"profile: {players} players, {policy}")
    console.print(out.getvalue(), highlight=False, markup=False)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--players", default="2,4,10",
                        help="player counts, comma-separated (default 2,4,10)")
    parser.add_argument("--games", type=int, default=6,
                        help="unoformal games (to 500 points) per run (default 6)")
    parser.add_argument("--rlcard-games", type=int, default=600,
                        help="RLCard games (rounds) per run (default 600)")
    parser.add_argument("--repeats", type=int, default=5, help="repetitions (default 5)")
    parser.add_argument("--seed", type=int, default=0, help="first seed (default 0)")
    parser.add_argument("--baseline", metavar="REV",
                        help="also measure the engine of this git revision (e.g. main)")
    parser.add_argument("--pure", action="store_true",
                        help="also measure this tree's engine as pure Python (without the "
                             "module setup.py compiles)")
    parser.add_argument("--profile", metavar="POLICY", choices=POLICIES,
                        help="profile the engine under this policy instead (cProfile)")
    parser.add_argument("--top", type=int, default=25, help="profile rows to print")
    parser.add_argument("--rules", default="classic",
                        help="our engine's shipped variant (default classic; rlcard: RLCard's "
                             "own rule choices, rounds asking the same decisions)")
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.child:
        child()
        return 0
    args.players = [int(p) for p in args.players.split(",")]
    console = Console(width=110)
    if args.profile:
        for players in args.players:
            profile(players, args.profile, [args.seed + i for i in range(args.games)],
                    args.top, console, args.rules)
        return 0
    with tempfile.TemporaryDirectory() as tmp:
        current = Worker(ROOT)
        workers = {"apply": current, "push": current, "rlcard": current}
        if args.baseline:
            workers["baseline"] = Worker(checkout(args.baseline, tmp))
        if args.pure:
            workers["pure"] = Worker(pure(tmp))
        console.print(f"Python {sys.version.split()[0]}; {args.repeats} repetitions; "
                      f"unoformal {args.games} games to 500 points from seed {args.seed} under "
                      f"{args.rules}, "
                      f"RLCard {args.rlcard_games} games per run", highlight=False)
        for name, worker in workers.items():
            if name != "rlcard":
                console.print(f"  {name}: {worker.build}, {worker.engine}", highlight=False)
        results = measure(args, workers, console)
        for worker in {id(w): w for w in workers.values()}.values():
            worker.close()
    report(args, list(workers), results, console)
    return 0


if __name__ == "__main__":
    sys.exit(main())
