"""``unoformal play``: a game in a terminal against the bots (unoformal.playing.session)."""

from __future__ import annotations

import argparse
import json
import os
import random
import sys
import tempfile
from collections.abc import Callable
from typing import IO, Any

from unoformal.commands import SUMMARY
from unoformal.commands.options import output_file, seed, short_text, whole
from unoformal.engine.game import Game
from unoformal.engine.game_writer import game_record
from unoformal.engine.record import to_record
from unoformal.errors import InvalidInputError, UnoError
from unoformal.inputs import MAX_PLAYERS, decode_line, read_lines, write_text
from unoformal.playing.bots import BOTS
from unoformal.playing.session import Table, play, sit
from unoformal.rulebook.variants import load_rules_arg

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
    p.add_argument("--game", action="store_true",
                   help="save a game record (version 3): every round with its deal, chance "
                        "and end (winner, points, scores) stated, not only the seed")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    chosen = args.seed if args.seed is not None else random.SystemRandom().randrange(10**9)
    try:
        table = _table(args, chosen)
    except UnoError as err:
        print(f"error: {err.line()}", file=sys.stderr)
        return 2
    out = args.out or f"unoformal-game-{chosen}.json"
    try:
        finished = play(table)
    finally:  # Ctrl-C too: what was played is kept
        saved = _save(table.game, out, chosen, args.game)
    if saved is None:
        return 2
    print(f"{'Game over' if finished else 'Stopped'}; the record is in {saved} "
          f"(replay it: unoformal replay {saved})")
    return 0 if saved == out else 2


def _table(args: argparse.Namespace, chosen: int) -> Table:
    rules = load_rules_arg(args.rules, "--rules")
    lo, hi = rules.players.minimum, rules.players.maximum
    if not lo <= args.players <= hi:
        raise InvalidInputError(f"--players {args.players}: the rules {rules.name!r} allow "
                                f"{lo} to {hi}", "DECK-2")
    bots = [b.strip() for b in args.bots.split(",") if b.strip()]
    if not bots:
        raise InvalidInputError(f"--bots {args.bots!r}: name at least one bot (known: "
                                f"{', '.join(BOTS)})")
    others = [n for n in BOT_NAMES if n != args.name][:args.players - 1]
    game = Game([args.name, *others], seed=chosen, rules=rules)
    table = sit(game, args.name, bots, chosen, _asker(sys.stdin.buffer), print)
    against = ", ".join(f"{name} ({type(bot).__name__})" for name, bot in table.bots.items())
    print(f"unoformal play: you are {args.name}, against {against}; rules {rules.name}; "
          f"seed {chosen}")
    return table


def _asker(stream: IO[bytes]) -> Callable[[str], str | None]:
    """Lines read as bytes, bounded and decoded here (a byte that is not UTF-8 is
    refused like a bad move, whatever the locale); None at the end of input."""
    lines = read_lines(stream)

    def ask(prompt: str) -> str | None:
        print(prompt, end="", flush=True)
        raw = next(lines, None)
        if isinstance(raw, InvalidInputError):
            raise raw
        return None if raw is None else decode_line(raw).removesuffix("\n")
    return ask


def _save(game: Game, out: str, chosen: int, whole_game: bool = False) -> str | None:
    """Save the record at ``out``, else at a fallback it names, else print it: a game
    just played is never lost. Where it went (None: printed). The record states the
    rules as ``to_record`` does, a variant file's overrides embedded and never its path
    (which a version-2 record refuses), so it replays from any folder, the file gone.
    ``whole_game``: the game record (version 3) of it, every round stated."""
    record = to_record(game)
    if whole_game:
        try:
            record = game_record(record, game.rules)
        except InvalidInputError as err:  # too long to be one: the game is still saved
            print(f"error: cannot write the game record: {err.line()}; saving the "
                  "one-round record instead", file=sys.stderr)
    text = json.dumps(record, indent=1) + "\n"
    fallbacks = [f"unoformal-game-{chosen}.json",
                 os.path.join(tempfile.gettempdir(), f"unoformal-game-{chosen}.json")]
    why = ""
    for place in [out, *(f for f in fallbacks if f != out)]:
        try:
            write_text(place, text, "record")
        except InvalidInputError as err:
            why = why or err.line()
            continue
        if place != out:
            print(f"error: cannot save the record: {why}; saved it to {place} instead",
                  file=sys.stderr)
        return place
    print(f"error: cannot save the record: {why}; here it is on standard output",
          file=sys.stderr)
    print(text, end="")
    return None
