"""Engine throughput: random legal play, steps/s and games/s, against RLCard's UnoGame.

Run with ``python benchmarks/bench_engine.py`` (``--quick`` for a short run,
``--profile`` for the engine's hot spots under the same workload). Not part of
the test suite: timings are measured here, never asserted.

What one step is:

* unoformal, raw loop: ``game.legal_actions()`` for *all* players (on-turn plays
  with every color and UNO variant, draw/pass, and the out-of-turn UNO, catch
  and advice actions of every player; misplays of the player to move), a uniform
  choice among them minus the penalty actions misplay/advise, and ``game.apply``,
  which validates the action against the rule table before applying it (and
  handles penalties, challenges, reshuffles, scoring). Games run to 500 points
  (SCORE-2), so one game is several rounds.
* unoformal, plays first: as the raw loop, but the random choice is among the
  plays whenever there is one (RLCard's players never draw while they can play),
  so rounds are about as short as RLCard's and hands as small.
* unoformal, simulate loop: the same through :func:`unoformal.simulate.play_game`
  with random bots behind their seats (per-step grouping of the options by seat,
  out-of-turn reactions first).
* RLCard: ``UnoGame.get_legal_actions()`` for the player to move, a uniform
  choice, ``UnoGame.step`` (which computes the legal actions once more for the
  next state). No validation, no out-of-turn actions, no UNO call, no challenge;
  a drawn card that matches is played automatically; one game is one round.

Fairness: same process, same player count, repetitions interleaved (ours, then
RLCard, per repetition), the same seeds in every repetition, medians reported.
Time is the process's CPU time (``time.process_time``), so other programs on a
shared machine disturb the figures less than they would wall-clock time.
"""

from __future__ import annotations

import argparse
import cProfile
import io
import pstats
import random
import statistics
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass

from rich.console import Console
from rich.table import Table

from unoformal.bots import RandomBot
from unoformal.engine.actions import ActionType
from unoformal.engine.game import Game
from unoformal.simulate import play_game
from unoformal.spec.table import CLASSIC

RAW = "unoformal (raw)"


@dataclass(frozen=True)
class Run:
    """One timed repetition of one workload."""

    steps: int
    games: int
    rounds: int
    legal: int  # legal actions listed, summed over steps (0 when not counted)
    seconds: float


@dataclass(frozen=True)
class Workload:
    name: str
    what: str
    run: Callable[[], Run]


def ours_raw(players: int, seeds: list[int], validate: bool = True,
             plays_first: bool = False) -> Run:
    """Random legal play straight on the engine (as in tests/test_smoke.py); with
    ``validate=False`` the chosen action is pushed without the second check; with
    ``plays_first`` the choice is among the plays whenever there is one, which gives
    rounds as short as RLCard's (its players never draw while they can play)."""
    names = [f"P{i + 1}" for i in range(players)]
    steps = rounds = legal = 0
    start = time.process_time()
    for seed in seeds:
        rng = random.Random(seed)
        game = Game(names, seed=seed, rules=CLASSIC)
        while not game.game_over:
            if game.round_over:
                game.next_round()
            moves = game.legal_actions(penalties=False)
            legal += len(moves)
            if plays_first:
                moves = [a for a in moves if a.type is ActionType.PLAY] or moves
            if validate:
                game.apply(rng.choice(moves))
            else:
                game.push(rng.choice(moves))
            steps += 1
        rounds += game.round
    return Run(steps, len(seeds), rounds, legal, time.process_time() - start)


def ours_simulate(players: int, seeds: list[int]) -> Run:
    """Random bots through the simulation loop (what ``unoformal simulate`` runs)."""
    names = [f"P{i + 1}" for i in range(players)]
    steps = rounds = 0
    start = time.process_time()
    for seed in seeds:
        game = Game(names, seed=seed, rules=CLASSIC)
        bots = [RandomBot(random.Random(seed * 100 + i)) for i in range(players)]
        steps += play_game(game, bots)
        rounds += game.round
    return Run(steps, len(seeds), rounds, 0, time.process_time() - start)


def rlcard_raw(players: int, games: int, seed: int) -> Run:
    """RLCard's raw UnoGame loop: one game is one round."""
    import numpy as np
    from rlcard.games.uno.game import UnoGame

    game = UnoGame(num_players=players)
    game.np_random = np.random.RandomState(seed)
    rng = random.Random(seed)
    steps = legal = 0
    start = time.process_time()
    for _ in range(games):
        game.init_game()
        while not game.is_over():
            moves = game.get_legal_actions()
            legal += len(moves)
            game.step(rng.choice(moves))
            steps += 1
    return Run(steps, games, games, legal, time.process_time() - start)


def rlcard_available() -> bool:
    try:
        import rlcard.games.uno.game  # noqa: F401
    except ImportError:
        return False
    return True


def median(runs: list[Run], rate: Callable[[Run], float]) -> float:
    return statistics.median(rate(r) for r in runs)


def measure(workloads: list[Workload], repeats: int, console: Console) -> dict[str, list[Run]]:
    results: dict[str, list[Run]] = {w.name: [] for w in workloads}
    for rep in range(repeats):
        for w in workloads:
            run = w.run()
            results[w.name].append(run)
            console.print(f"  repetition {rep + 1}/{repeats}  {w.name:<22} "
                          f"{run.steps / run.seconds:>10,.0f} steps/s  "
                          f"({run.steps} steps, {run.seconds:.2f} s CPU)", highlight=False)
    return results


def report(workloads: list[Workload], results: dict[str, list[Run]], console: Console) -> None:
    table = Table(title="Random legal play (median of repetitions)")
    for column in ("loop", "steps/s", "games/s", "rounds/s", "steps/round",
                   "legal actions/step", "steps/s min-max"):
        table.add_column(column, justify="left" if column == "loop" else "right")
    for w in workloads:
        runs = results[w.name]
        rates = [r.steps / r.seconds for r in runs]
        first = runs[0]
        legal = f"{first.legal / first.steps:.1f}" if first.legal else "-"
        table.add_row(
            w.name, f"{median(runs, lambda r: r.steps / r.seconds):,.0f}",
            f"{median(runs, lambda r: r.games / r.seconds):,.2f}",
            f"{median(runs, lambda r: r.rounds / r.seconds):,.1f}",
            f"{first.steps / first.rounds:,.0f}", legal, f"{min(rates):,.0f}-{max(rates):,.0f}")
    console.print(table)
    for w in workloads:
        console.print(f"  {w.name}: {w.what}", highlight=False)
    if "rlcard" in results:
        ours = median(results[RAW], lambda r: r.steps / r.seconds)
        theirs = median(results["rlcard"], lambda r: r.steps / r.seconds)
        ratio = ours / theirs
        # Each repetition runs both back to back, so its ratio shares the machine's load.
        paired = statistics.median(
            (a.steps / a.seconds) / (b.steps / b.seconds)
            for a, b in zip(results[RAW], results["rlcard"], strict=True))
        verdict = "met" if ratio >= 2 else "NOT met"
        console.print(f"steps/s ratio {RAW} / rlcard: {ratio:.2f}x of the medians, "
                      f"{paired:.2f}x median of per-repetition ratios "
                      f"(target >= 2x: {verdict})", highlight=False)
        console.print("A unoformal game runs to 500 points (several rounds); an RLCard game "
                      "is one round: compare unoformal rounds/s with RLCard games/s.",
                      highlight=False)


def profile(players: int, seeds: list[int], top: int, console: Console) -> None:
    """cProfile of the raw loop, then of the plays-first loop: the engine's hot spots
    under long rounds (big hands) and under short ones (a deal every ~60 steps)."""
    for name, plays_first in ((RAW, False), ("unoformal (plays first)", True)):
        profiler = cProfile.Profile()
        profiler.enable()
        ours_raw(players, seeds, plays_first=plays_first)
        profiler.disable()
        out = io.StringIO()
        stats = pstats.Stats(profiler, stream=out)
        stats.sort_stats("tottime").print_stats(top)
        console.rule(f"profile: {name}")
        console.print(out.getvalue(), highlight=False, markup=False)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--quick", action="store_true", help="a short run (a few seconds)")
    parser.add_argument("--players", type=int, default=4, help="players per game (default 4)")
    parser.add_argument("--games", type=int, default=None,
                        help="unoformal games (to 500) per repetition (default 3; quick 1)")
    parser.add_argument("--rlcard-games", type=int, default=None,
                        help="RLCard games (rounds) per repetition (default 2000; quick 300)")
    parser.add_argument("--repeats", type=int, default=None,
                        help="repetitions, median reported (default 7; quick 3)")
    parser.add_argument("--seed", type=int, default=0, help="first seed (default 0)")
    parser.add_argument("--profile", action="store_true",
                        help="after the timings, profile the raw and plays-first loops (cProfile)")
    parser.add_argument("--top", type=int, default=25, help="profile rows to print")
    args = parser.parse_args(argv)
    games = args.games or (1 if args.quick else 3)
    rl_games = args.rlcard_games or (300 if args.quick else 2000)
    repeats = args.repeats or (3 if args.quick else 7)
    seeds = [args.seed + i for i in range(games)]
    console = Console()
    workloads = [
        Workload(RAW, "legal actions of all players (out-of-turn included), every action "
                 "validated by apply(), penalties, challenges, scoring",
                 lambda: ours_raw(args.players, seeds)),
        Workload("unoformal (raw, push)", "the same, but push() skips re-validating an "
                 "action taken from legal_actions()",
                 lambda: ours_raw(args.players, seeds, validate=False)),
        Workload("unoformal (plays first)", "as raw, but the random choice is among the "
                 "plays whenever there is one: rounds about as long as RLCard's",
                 lambda: ours_raw(args.players, seeds, plays_first=True)),
        Workload("unoformal (simulate)", "random bots behind their seats via play_game() "
                 "(options grouped per seat, reactions first, apply())",
                 lambda: ours_simulate(args.players, seeds)),
    ]
    if rlcard_available():
        workloads.append(Workload("rlcard", "UnoGame: legal actions of the mover only "
                                  "(computed twice per step), no validation, no out-of-turn",
                                  lambda: rlcard_raw(args.players, rl_games, args.seed)))
    else:
        console.print("rlcard is not installed: measuring unoformal only "
                      "(pip install 'unoformal[bench]')")
    console.print(f"Python {sys.version.split()[0]}, {args.players} players, {repeats} "
                  f"repetitions; unoformal seeds {seeds}, RLCard {rl_games} games per "
                  "repetition", highlight=False)
    results = measure(workloads, repeats, console)
    report(workloads, results, console)
    if args.profile:
        profile(args.players, seeds, args.top, console)
    return 0


if __name__ == "__main__":
    sys.exit(main())
