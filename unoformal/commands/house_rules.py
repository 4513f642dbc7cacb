"""``unoformal house-rules``: the catalogue of house rules, and its matrix.

Without options it lists the catalogue. With ``--out`` it runs the matrix
(:mod:`unoformal.verification.matrix`: every rule and pair through ``verify`` and the
explorer, every second reading against the default) and writes it as Markdown
(docs/house-rules.md), with a picture and each ambiguity's record beside it.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path
from typing import Any

from unoformal.commands import SUMMARY
from unoformal.errors import InvalidInputError
from unoformal.runtime import campaign

DEFAULT_COUNTS = "2-10"
DEFAULT_PAIR_COUNTS = "2-4"


def register(sub: Any) -> None:
    p = sub.add_parser("house-rules", help=SUMMARY["house-rules"])
    p.add_argument("--list", action="store_true", help="list the catalogue (the default)")
    p.add_argument("--out", default=None, metavar="FILE",
                   help="run the matrix and write it as Markdown to FILE "
                        "(docs/house-rules.md); its picture (.svg) and the ambiguities' "
                        "records (a folder) go beside it, named after it")
    p.add_argument("--players", default=DEFAULT_COUNTS,
                   help=f"player counts of a rule's verdicts (default {DEFAULT_COUNTS})")
    p.add_argument("--pair-players", default=DEFAULT_PAIR_COUNTS,
                   help="player counts of a pair's verdicts (default "
                        f"{DEFAULT_PAIR_COUNTS}: 105 pairs at 2-10 take about as long "
                        "again as the rest)")
    p.add_argument("--only", action="append", default=None, metavar="RULE",
                   help="only this catalogue rule and its pairs (repeatable)")
    campaign.add_arguments(p)
    p.set_defaults(run=run)


def _counts(text: str, option: str) -> tuple[int, ...]:
    from unoformal.commands.verify import _player_counts

    try:
        counts = tuple(_player_counts(text))
    except argparse.ArgumentTypeError as err:
        raise InvalidInputError(f"{option}: {err}") from None
    if any(not 2 <= n <= 10 for n in counts):
        raise InvalidInputError(f"{option} {text}: player counts are 2 to 10 (DECK-2)",
                                "DECK-2")
    return counts


def run(args: argparse.Namespace) -> int:
    from unoformal.catalogue import rules
    from unoformal.show.matrix import catalogue_text

    if args.out is None:
        print(catalogue_text())
        return 0
    try:
        counts = _counts(args.players, "--players")
        pair_counts = _counts(args.pair_players, "--pair-players")
        known = {r.name for r in rules()}
        unknown = [n for n in args.only or () if n not in known]
        if unknown:
            raise InvalidInputError(f"--only {', '.join(unknown)}: no such rule in the "
                                    f"catalogue ({', '.join(sorted(known))})")
        where = campaign.options(args, bar=sys.stderr.isatty())
    except InvalidInputError as err:
        print(f"error: {err.line()}", file=sys.stderr)
        return 2
    return _write(args, counts, pair_counts, where)


def _write(args: argparse.Namespace, counts: tuple[int, ...], pair_counts: tuple[int, ...],
           where: campaign.Options) -> int:
    from unoformal.show.matrix import markdown, picture, write_records
    from unoformal.verification.matrix import build

    out = Path(args.out)
    started = time.perf_counter()
    m = build(counts, pair_counts, where, args.only or ())
    records = out.with_suffix("")
    command = " ".join(["unoformal house-rules --out", args.out,
                        *([f"--players {args.players}"] if args.players != DEFAULT_COUNTS
                          else []),
                        *([f"--pair-players {args.pair_players}"]
                          if args.pair_players != DEFAULT_PAIR_COUNTS else []),
                        *(f"--only {n}" for n in args.only or ())])
    # written to a temporary name first, so Ctrl-C leaves no half page
    text = markdown(m, command, records.name)
    write_records(m, records)
    for path, body in ((out.with_suffix(".svg"), picture(m)), (out, text)):
        part = path.with_name(path.name + ".part")
        part.write_text(body, "utf-8")
        part.replace(path)
    print(f"{out}: {len(m.singles)} rules, {len(m.pairs)} pairs, {len(m.ambiguities)} "
          f"reading comparisons in {time.perf_counter() - started:.0f} s")
    return 0
