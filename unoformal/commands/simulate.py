"""``unoformal simulate``: whole games between bots, with seat win rates and game lengths."""

from __future__ import annotations

import argparse
import json
import sys
import time
from typing import Any

from rich.console import Console
from rich.table import Table

from unoformal.commands import SUMMARY
from unoformal.commands.options import output_file, seed, short_text, whole
from unoformal.engine.game_writer import game_record
from unoformal.engine.record import to_record
from unoformal.errors import InvalidInputError, UnoError
from unoformal.inputs import (
    MAX_FILE_BYTES,
    MAX_GAME_ACTIONS,
    MAX_GAMES,
    MAX_PLAYERS,
    write_text,
)
from unoformal.playing.bots import BOTS
from unoformal.playing.simulate import (
    MAX_ACTIONS,
    SMALL,
    Config,
    GameResult,
    Summary,
    check,
    chunks,
    play_games,
    played,
    simulate,
)
from unoformal.rulebook.variants import load_rules_arg
from unoformal.runtime import campaign

DEFAULT_BOTS = "random,greedy"


def register(sub: Any) -> None:
    p = sub.add_parser(
        "simulate", help=SUMMARY["simulate"],
        description="Play whole games (to the target score, SCORE-2) between bots and "
                    "print total actions, rounds, each seat's win rate and the mean game "
                    "length. Everything follows from --seed: game i uses seeds derived "
                    f"from (seed, i), so the results are the same on any number of "
                    f"workers. From {SMALL:,} games on, the games run as Dask tasks on every "
                    "core (see --workers).")
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
                   help="print the results as JSON on stdout (and no progress bar)")
    p.add_argument("--plot", metavar="FILE", type=output_file, default=None,
                   help="also draw each seat's win rate (95%% confidence interval) and the "
                        "round lengths to FILE (.png, .svg or .pdf; needs matplotlib: pip "
                        "install 'unoformal[plot]')")
    p.add_argument("--records", metavar="FILE", type=output_file, default=None,
                   help="also write every game as one game record (version 3: every round's "
                        "deal, chance and end stated), one a line (JSON lines); each game is "
                        "played again from its seeds to write it")
    campaign.add_arguments(p)
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
        where = campaign.options(args, bar=not args.json)
        if args.plot is not None:
            from unoformal.playing.plots import check_path

            check_path(args.plot)
    except UnoError as err:
        if args.json:
            print(json.dumps({"error": err.to_json()}))
        print(f"error: {err.line()}", file=sys.stderr)
        return 2
    console = Console(stderr=args.json)
    start = time.perf_counter()
    done: list[GameResult] = []
    try:
        summary = _campaign(config, where, console, done)
    except UnoError as err:  # a game that could not end; a --scheduler out of reach
        print(f"error: {err.line()}", file=sys.stderr)
        return 2 if isinstance(err, InvalidInputError) else 1
    except KeyboardInterrupt:  # Ctrl-C: the games played so far, then exit 130
        if done:
            partial = Summary(config, tuple(sorted(done, key=lambda r: r.index)))
            print(f"interrupted after {len(done)} of {config.games} games", file=sys.stderr)
            if args.json:
                print(json.dumps(partial.to_json(), indent=2))
            else:
                _print(console, partial, time.perf_counter() - start)
        raise
    elapsed = time.perf_counter() - start
    if args.json:
        print(json.dumps(summary.to_json(), indent=2))
    else:
        _print(console, summary, elapsed)
    if args.records is not None and _records(config, args.records, console) != 0:
        return 2
    return _plot(summary, args.plot, console)


def _records(config: Config, path: str, console: Console) -> int:
    """Every game of the run as a game record, one a line, at ``path``; a game too long
    to be read back as a record (its actions, its line's bytes) is left out, and said."""
    lines = []
    for index in range(config.games):
        line, why = _record_line(config, index)
        if why is not None:
            print(f"warning: --records: game {index} left out: {why}", file=sys.stderr)
            continue
        lines.append(line)
    try:
        write_text(path, "".join(lines), "records")
    except InvalidInputError as err:
        print(f"error: --records: {err.line()}", file=sys.stderr)
        return 2
    left = config.games - len(lines)
    # soft_wrap: a path is never broken over two lines, whatever the terminal's width
    console.print(f"wrote {len(lines)} game record(s) to {path}"
                  + (f" ({left} left out, too long to be read back)" if left else ""),
                  soft_wrap=True)
    return 0


def _record_line(config: Config, index: int) -> tuple[str, str | None]:
    """Game ``index``'s record as a line, or why it cannot be one."""
    game = played(config, index)[0]
    try:
        record = game_record(to_record(game), config.rules)
    except InvalidInputError as err:  # more actions than a record holds
        return "", f"(seed {game.seed}) {err.message}"
    record["meta"] = {"simulate": {"seed": config.seed, "index": index,
                                   "bots": list(config.seat_bots())}}
    line = json.dumps(record) + "\n"
    if len(line.encode()) > MAX_FILE_BYTES:
        return "", (f"(seed {game.seed}) its record is {len(line.encode()):,} bytes: a line "
                    f"of records holds at most {MAX_FILE_BYTES:,}")
    return line, None


def _plot(summary: Summary, path: str | None, console: Console) -> int:
    if path is None:
        return 0
    from unoformal.playing.plots import plot  # matplotlib only when asked for

    try:
        plot(summary, path)
    except UnoError as err:
        print(f"error: {err.line()}", file=sys.stderr)
        return 2
    except OSError as err:
        print(f"error: --plot {path}: cannot write: {err.strerror}", file=sys.stderr)
        return 2
    console.print(f"wrote {path}", soft_wrap=True)
    return 0


def _campaign(config: Config, where: campaign.Options, console: Console,
              done: list[GameResult]) -> Summary:
    """The games as campaign tasks (:func:`unoformal.playing.simulate.chunks`), or game by game
    in this process when the campaign would run here (so a Ctrl-C keeps every game
    finished); ``done`` fills as they end (what an interrupted run reports). The same
    results either way: each game's seeds come from (seed, index) alone."""
    check(config)
    jobs = [(config, indices) for indices in chunks(config.games)]
    if where.local(len(jobs), small=config.games < SMALL):
        with campaign.progress("simulate", "games", config.games, where.bar,
                               console) as advance:
            return simulate(config, lambda _: advance(1), done)
    results = campaign.run(play_games, jobs, where, label="simulate", unit="games",
                           weights=[len(indices) for _, indices in jobs], console=console,
                           on_result=lambda _, games: done.extend(games))
    return Summary(config, tuple(game for games in results for game in games))


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
