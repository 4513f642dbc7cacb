"""``unoformal simulate``: whole games between bots, with seat win rates and game lengths."""

from __future__ import annotations

import argparse
import json
import sys
import time
from typing import Any

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table

from unoformal.bots import BOTS
from unoformal.commands.options import seed, short_text, whole
from unoformal.errors import UnoError
from unoformal.inputs import MAX_GAME_ACTIONS, MAX_GAMES, MAX_PLAYERS, load_rules_arg
from unoformal.simulate import MAX_ACTIONS, Config, GameResult, Summary, check, simulate

DEFAULT_BOTS = "random,greedy"


def register(sub: Any) -> None:
    p = sub.add_parser(
        "simulate", help="play whole games between bots; print seat win rates",
        description="Play whole games (to the target score, SCORE-2) between bots and "
                    "print total actions, rounds, each seat's win rate and the mean game "
                    "length. Everything follows from --seed: game i uses seeds derived "
                    "from (seed, i).")
    p.add_argument("--games", type=whole(1, MAX_GAMES), default=100,
                   help="games to play (default 100)")
    p.add_argument("--players", type=whole(1, MAX_PLAYERS), default=4,
                   help="players per game, within the rules' DECK-2 range (default 4)")
    p.add_argument("--seed", type=seed, default=0,
                   help="master seed, 0 to 2**63-1 (default 0)")
    p.add_argument("--rules", default=None, help="variant name or TOML file (default classic)")
    p.add_argument("--bots", type=short_text, default=DEFAULT_BOTS,
                   help="comma-separated bots, cycled over the seats P1, P2, ... "
                        f"(known: {', '.join(BOTS)}; default {DEFAULT_BOTS!r}: seat 1 random, "
                        "seat 2 greedy, seat 3 random ...)")
    p.add_argument("--penalties", action="store_true",
                   help="let bots also choose misplay and advise (MISPLAY-1, ADVICE-1); off "
                        "by default since these exist to referee humans")
    p.add_argument("--max-actions", type=whole(1, MAX_GAME_ACTIONS), default=MAX_ACTIONS,
                   help=f"safety cap on actions per game (default {MAX_ACTIONS}); a game "
                        "hitting it is an error naming its seed")
    p.add_argument("--json", action="store_true",
                   help="print the results as JSON on stdout (no progress bar there)")
    p.set_defaults(run=run)


def _config(args: argparse.Namespace) -> Config:
    rules = load_rules_arg(args.rules, "--rules")
    bots = tuple(b.strip() for b in args.bots.split(",") if b.strip())
    config = Config(games=args.games, players=args.players, seed=args.seed, rules=rules,
                    bots=bots, penalties=args.penalties, max_actions=args.max_actions)
    check(config)
    return config


def run(args: argparse.Namespace) -> int:
    try:
        config = _config(args)
    except UnoError as err:
        if args.json:
            print(json.dumps({"error": err.to_json()}))
        print(f"error: {err.line()}", file=sys.stderr)
        return 2
    console = Console(stderr=args.json)
    start = time.perf_counter()
    try:
        summary = _run_with_progress(config, console, hide=args.json)
    except UnoError as err:
        print(f"error: {err.line()}", file=sys.stderr)
        return 1
    elapsed = time.perf_counter() - start
    if args.json:
        print(json.dumps(summary.to_json(), indent=2))
    else:
        _print(console, summary, elapsed)
    return 0


def _run_with_progress(config: Config, console: Console, hide: bool) -> Summary:
    """The run, with a progress bar (on stderr, and only on a terminal, for --json)."""
    columns = (TextColumn("[bold]simulate"), BarColumn(), MofNCompleteColumn(),
               TextColumn("games  {task.fields[moves]} actions"), TimeElapsedColumn())
    with Progress(*columns, console=console, transient=hide,
                  disable=hide and not console.is_terminal) as bar:
        task = bar.add_task("games", total=config.games, moves=0)
        moves = 0

        def advance(result: GameResult) -> None:
            nonlocal moves
            moves += result.actions
            bar.update(task, advance=1, moves=moves)

        return simulate(config, advance)


def _print(console: Console, summary: Summary, elapsed: float) -> None:
    data = summary.to_json()
    console.print(f"{data['games']} games, {data['players']} players, rules {data['rules']!r} "
                  f"(target {data['target']}), seed {data['seed']}")
    table = Table()
    for column in ("seat", "bot", "wins", "win rate"):
        table.add_column(column, justify="right" if column != "bot" else "left")
    for seat in data["seats"]:
        table.add_row(seat["name"], seat["bot"], str(seat["wins"]), f"{seat['win_rate']:.1%}")
    console.print(table)
    per_game, rounds = data["actions_per_game"], data["rounds_per_game"]
    console.print(f"moves (total actions): {data['moves']}")
    console.print(f"rounds: {data['rounds']}")
    console.print(f"actions per game: mean {per_game['mean']:.1f} "
                  f"(min {per_game['min']}, max {per_game['max']})")
    console.print(f"rounds per game: mean {rounds['mean']:.2f} "
                  f"(min {rounds['min']}, max {rounds['max']})")
    console.print(f"time: {elapsed:.2f} s ({data['games'] / elapsed:.1f} games/s, "
                  f"{data['moves'] / elapsed:.0f} actions/s)")
