"""``unoformal vectors``: test vectors for other engines, one JSON line per state (see
``docs/vectors.md`` and :mod:`unoformal.compare.vectors`)."""

from __future__ import annotations

import argparse
import contextlib
import json
import sys
from collections.abc import Iterator
from typing import IO, Any

from unoformal.commands import SUMMARY
from unoformal.commands.options import output_file, seed, whole
from unoformal.errors import InvalidInputError, UnoError
from unoformal.inputs import MAX_GAMES, atomic_output
from unoformal.rulebook.variants import load_rules_arg

MAX_VECTOR_STATES = 1_000_000


def register(sub: Any) -> None:
    p = sub.add_parser(
        "vectors", help=SUMMARY["vectors"],
        description="Write one JSON line per state: its canonical text, every player's legal "
                    "actions and the successor text of each (with the new pile of any "
                    "reshuffle), from an explorer preset's state graph or from full-deck "
                    "games of seeded random play. See docs/vectors.md.")
    source = p.add_mutually_exclusive_group(required=True)
    source.add_argument("--preset", default=None,
                        help="states of this explorer preset's graph, breadth first "
                             "(micro, duel, tiny ...: see unoformal explore --help)")
    source.add_argument("--games", type=whole(1, MAX_GAMES), default=None,
                        help="states of this many rounds of seeded random play, full deck")
    source.add_argument("--record", default=None, metavar="FILE",
                        help="the states of a record as it is played: any version, a game "
                             "record (version 3) across all its rounds (--max-states caps it)")
    p.add_argument("--players", type=whole(2, 10, "DECK-2"), default=4,
                   help="--games: players per game (default 4)")
    p.add_argument("--max-states", type=whole(1, MAX_VECTOR_STATES), default=1000,
                   help="--preset, --record: at most this many states (default 1000)")
    p.add_argument("--rules", default=None, help="variant name or TOML file (default classic)")
    p.add_argument("--seed", type=seed, default=0, help="--games: master seed (default 0)")
    p.add_argument("--out", type=output_file, default=None,
                   help="write the lines here (default: standard output)")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    try:
        lines = _lines(args)
        first = next(lines, None)  # bad options are refused before anything is written
    except UnoError as err:
        print(f"error: unoformal vectors: {err.line()}", file=sys.stderr)
        return 2
    try:
        with _output(args.out) as out:
            count = 0
            for line in _chain(first, lines):
                out.write(json.dumps(line) + "\n")
                count += 1
    except InvalidInputError as err:  # the output failed while written (a full disk)
        print(f"error: unoformal vectors: {err.line()}", file=sys.stderr)
        return 2
    print(f"{count} states written", file=sys.stderr)
    return 0


def _lines(args: argparse.Namespace) -> Iterator[dict[str, Any]]:
    from unoformal.compare import vectors

    if args.record is not None:
        from unoformal.engine.record import load_record

        table = load_rules_arg(args.rules, "--rules") if args.rules is not None else None
        record = load_record(args.record)
        return vectors.record_vectors(record, table, args.max_states)
    rules = load_rules_arg(args.rules, "--rules")
    if args.preset is not None:
        from unoformal.verification.explore.presets import PRESETS

        if args.preset not in PRESETS:
            raise InvalidInputError(f"--preset {args.preset!r}: expected one of "
                                    f"{', '.join(PRESETS)}")
        return vectors.preset_vectors(args.preset, args.rules, args.max_states)
    if not rules.players.minimum <= args.players <= rules.players.maximum:
        raise InvalidInputError(f"--players {args.players}: {rules.name} allows "
                                f"{rules.players.minimum} to {rules.players.maximum}", "DECK-2")
    return vectors.game_vectors(rules, args.games, args.players, args.seed)


def _chain(first: dict[str, Any] | None,
           rest: Iterator[dict[str, Any]]) -> Iterator[dict[str, Any]]:
    if first is not None:
        yield first
        yield from rest


@contextlib.contextmanager
def _output(path: str | None) -> Iterator[IO[str]]:
    if path is None:
        yield sys.stdout
        return
    with atomic_output(path, "vectors") as handle:  # whole or not at all
        yield handle
