"""``unoformal conform PATH...``: referee many records (any engine's logs) in one process
and print their first deviations by cause rule ID; ``--engine rlcard`` plays RLCard's UNO
and referees what it did."""

from __future__ import annotations

import argparse
import contextlib
import json
import sys
from typing import Any

from unoformal.commands import SUMMARY
from unoformal.commands.options import output_file, seed, short_text, whole
from unoformal.errors import InvalidInputError
from unoformal.inputs import MAX_GAMES, atomic_output
from unoformal.rulebook.variants import load_rules_arg
from unoformal.runtime import campaign

ENGINES = ("rlcard",)


def register(sub: Any) -> None:
    p = sub.add_parser(
        "conform", help=SUMMARY["conform"],
        description="Replay every record (each .json file, each line of a .jsonl file, every "
                    "such file in a folder) and count the first deviation of each under its "
                    "cause: the rule that made the state what it was (TWO-1, START-D2 ...), "
                    "else the rule the refused action broke; then list every deviation of each "
                    "record (past a deviation the engine's move is taken as the record states "
                    "it, each resynchronisation said, a record whose next state cannot be "
                    "known stopped there) and count them per rule, distinct ones apart from "
                    "repeats (--first: the first only). A record that is not a record is "
                    "counted as malformed and the run goes on. Many records are refereed "
                    "as Dask tasks on every core (see --workers), each task reading about "
                    "1 MiB of them itself (whole files, or a large .jsonl file's lines cut "
                    "at line starts), with the same tally on any number of workers. Exit "
                    "status 0 when every "
                    "record is clean, 1 otherwise, 2 for bad options.")
    p.add_argument("paths", nargs="*", metavar="PATH", help="records: folders, .json, .jsonl")
    p.add_argument("--engine", choices=ENGINES, default=None,
                   help="play this engine's games (seeded random legal moves) and referee "
                        "them instead of reading PATHs")
    p.add_argument("--games", type=whole(1, MAX_GAMES), default=100,
                   help="--engine: games per player count (default 100)")
    p.add_argument("--players", type=short_text, default="2,4",
                   help="--engine: comma-separated player counts (default 2,4)")
    p.add_argument("--seed", type=seed, default=0, help="--engine: master seed (default 0)")
    p.add_argument("--rules", default=None,
                   help="referee under this variant (default: each record's own; classic "
                        "for --engine)")
    p.add_argument("--save", type=output_file, default=None, metavar="FILE.jsonl",
                   help="--engine: also write the records played, one per line")
    p.add_argument("--json", action="store_true",
                   help='print {"games", "clean", "malformed", "deviations", "examples", ...}; '
                        'without --first, also "every_deviation", "per_rule", "distinct", '
                        '"listed"')
    p.add_argument("--first", action="store_true",
                   help="stop each record at its first deviation: only the first deviations' "
                        "table (or --json keys), exactly as conform printed it before every "
                        "deviation was listed")
    campaign.add_arguments(p)
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from unoformal.compare.records import Tally, conform

    try:
        rules = load_rules_arg(args.rules, "--rules") if args.rules is not None else None
        if args.engine is not None:
            tally = _engine(args, rules)
        elif not args.paths:
            raise InvalidInputError("name records to referee (PATH ...) or --engine")
        else:
            for path in args.paths:
                _exists(path)
            tally = conform(args.paths, rules, campaign.options(args, bar=not args.json),
                            every=not args.first)
    except InvalidInputError as err:
        print(f"error: {err.line()}", file=sys.stderr)
        return 2
    _print(tally, args.json)
    assert isinstance(tally, Tally)
    return 0 if tally.clean == tally.games else 1


def _exists(path: str) -> None:
    import os

    if not os.path.exists(path):
        raise InvalidInputError("no such file or folder", source=path)


def _counts(text: str) -> list[int]:
    counts = []
    for part in text.split(","):
        try:
            counts.append(whole(2, 10, "DECK-2")(part.strip()))
        except argparse.ArgumentTypeError as err:
            raise InvalidInputError(f"--players: {err}") from None
    return counts


def _engine(args: argparse.Namespace, rules: Any) -> Any:
    from unoformal.adapters.rlcard import available, play
    from unoformal.compare.listing import Listing
    from unoformal.compare.records import Tally
    from unoformal.rulebook.variants import load_rules

    available()
    table = rules if rules is not None else load_rules(None)
    tally = Tally(listing=None if args.first else Listing())
    with contextlib.ExitStack() as stack:  # --save: written whole or not at all
        save = stack.enter_context(atomic_output(args.save, "--save")) if args.save else None
        for players in _counts(args.players):
            for i in range(args.games):
                game_seed = (args.seed * 1_000_003 + i) % 2**63
                record = play(players, game_seed, table)
                if save is not None:
                    save.write(json.dumps(record) + "\n")
                tally.add(record, f"rlcard:{players}p:seed={game_seed}", table)
    return tally


def _print(tally: Any, as_json: bool) -> None:
    if as_json:
        print(json.dumps(tally.to_json(), indent=1))
    else:
        print(tally.table())
