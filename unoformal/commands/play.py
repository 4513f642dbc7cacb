"""``unoformal play``: a game in the terminal against the bots (see :mod:`unoformal.play`)."""

from __future__ import annotations

import argparse
import json
import random
import sys
from pathlib import Path
from typing import Any

from unoformal.bots import BOTS
from unoformal.commands import SUMMARY
from unoformal.commands.options import output_file, seed, short_text, whole
from unoformal.engine.game import Game
from unoformal.engine.record import to_record
from unoformal.errors import UnoError
from unoformal.inputs import MAX_PLAYERS, load_rules_arg
from unoformal.play import Table, play, sit

BOT_NAMES = ("Ada", "Bo", "Cy", "Dee", "Eli", "Fay", "Gus", "Hal", "Ivy", "Jo", "Kit")


def register(sub: Any) -> None:
    p = sub.add_parser(
        "play", help=SUMMARY["play"],
        description="Play UNO against the bots from one seat, seeing only that seat's "
                    "view. Choose a move by its number or type it ('play R5', 'draw', "
                    "'uno', 'catch Ada'); 'quit' or the end of input stops. The game record "
                    "is saved at the end, replayable with 'unoformal replay'. Reads one "
                    "line per move, so it also plays from a pipe.")
    p.add_argument("--players", type=whole(1, MAX_PLAYERS), default=3,
                   help="players, you included, within the rules' DECK-2 range (default 3)")
    p.add_argument("--name", type=short_text, default="You", help="your name (default You)")
    p.add_argument("--bots", type=short_text, default="greedy",
                   help=f"comma-separated bots for the other seats, cycled (known: "
                        f"{', '.join(BOTS)}; default greedy)")
    p.add_argument("--seed", type=seed, default=None,
                   help="seed of the deal and the bots (default: a random one, printed)")
    p.add_argument("--rules", default=None, help="variant name or TOML file (default classic)")
    p.add_argument("--out", type=output_file, default=None,
                   help="where to save the record (default unoformal-game-SEED.json)")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    chosen = args.seed if args.seed is not None else random.SystemRandom().randrange(10**9)
    try:
        table = _table(args, chosen)
    except UnoError as err:
        print(f"error: {err.line()}", file=sys.stderr)
        return 2
    out = Path(args.out or f"unoformal-game-{chosen}.json")
    try:
        finished = play(table)
    finally:  # Ctrl-C too: what was played is kept
        _save(table.game, out, args.rules)
    print(f"{'Game over' if finished else 'Stopped'}; the record is in {out} "
          f"(replay it: unoformal replay {out})")
    return 0


def _table(args: argparse.Namespace, chosen: int) -> Table:
    rules = load_rules_arg(args.rules, "--rules")
    bots = [b.strip() for b in args.bots.split(",") if b.strip()]
    others = [n for n in BOT_NAMES if n != args.name][:max(args.players - 1, 0)]
    game = Game([args.name, *others], seed=chosen, rules=rules)
    table = sit(game, args.name, bots, chosen, _ask, print)
    against = ", ".join(f"{name} ({type(bot).__name__})" for name, bot in table.bots.items())
    print(f"unoformal play: you are {args.name}, against {against}; rules {rules.name}; "
          f"seed {chosen}")
    return table


def _ask(prompt: str) -> str | None:
    try:
        return input(prompt)
    except EOFError:
        return None


def _save(game: Game, out: Path, rules_arg: str | None) -> None:
    record = to_record(game)
    if rules_arg is not None and rules_arg.endswith(".toml"):
        # A file's variant is named by its path, so the record replays from anywhere.
        record["rules"] = str(Path(rules_arg).resolve())
    out.write_text(json.dumps(record, indent=1) + "\n", encoding="utf-8")
