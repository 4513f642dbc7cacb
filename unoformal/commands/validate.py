"""``unoformal validate``: the engine checked step by step against the Z3 relation
compiled from the same table (trace validation; see docs/verification.md)."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from unoformal.commands import SUMMARY
from unoformal.commands.options import output_dir, rules_and_counts, seed, whole
from unoformal.commands.verify import _player_counts
from unoformal.errors import InvalidInputError
from unoformal.runtime import campaign

MAX_STEPS = 10_000_000


def register(sub: Any) -> None:
    p = sub.add_parser("validate", help=SUMMARY["validate"],
                       description="Each player count is one task: with several counts "
                                   "they run as Dask tasks on every core (see --workers); "
                                   "the report is the same on any number of workers.")
    p.add_argument("--rules", default=None, help="variant name or .toml file (default classic)")
    p.add_argument("--players", type=_player_counts, default=None,
                   help="player counts: N, A-B or a comma list (default 2,3,4,10)")
    p.add_argument("--steps", type=whole(1, MAX_STEPS), default=None,
                   help="checked steps per player count (default: until every step and "
                        "branch is covered, at most 30,000)")
    p.add_argument("--seed", type=seed, default=0,
                   help="seed of the games and the bots, 0 to 2**63-1 (default 0)")
    p.add_argument("--out", type=output_dir, default="validate-mismatch",
                   help="folder for the record of each mismatch (written only on a mismatch)")
    p.add_argument("--json", action="store_true",
                   help="print {steps, games, mismatches, uncovered, coverage} as JSON")
    campaign.add_arguments(p)
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from unoformal.compare.relation.run import DEFAULT_PLAYERS, validate

    try:
        rules, players = rules_and_counts(
            args.rules, args.players,
            lambda lo, hi: [n for n in DEFAULT_PLAYERS if lo <= n <= hi])
        where = campaign.options(args, bar=not args.json)
    except InvalidInputError as err:
        print(f"error: {err.line()}", file=sys.stderr)
        return 2
    report = validate(rules, players, args.steps, args.seed, where=where)
    written = _write_records(report.mismatches, Path(args.out), rules) if report.mismatches \
        else []
    if args.json:
        data = report.to_json()
        data["records"] = written
        print(json.dumps(data, indent=1))
    else:
        _print(report, written)
    return 0 if report.ok else 1


def _write_records(mismatches: Any, folder: Path, rules: Any) -> list[str]:
    from unoformal.compare.relation.records import write_mismatch

    folder.mkdir(parents=True, exist_ok=True)
    return [str(write_mismatch(m, folder / f"mismatch-{i}", rules))
            for i, m in enumerate(mismatches)]


def _print(report: Any, written: list[str]) -> None:
    print(f"validate {report.rules}: {report.steps} steps in {report.games} games at "
          f"{', '.join(map(str, report.players))} players, {report.cpu:.1f} CPU s")
    for n, hits in report.coverage.items():
        steps = sum(1 for label in hits if "(" not in label)
        print(f"  {n} players: {steps} steps and variants, "
              f"{sum(1 for label in hits if '(' in label)} branches hit; "
              f"uncovered: {', '.join(report.uncovered[n]) or 'none'}"
              + (f"; hit although listed unreachable: {', '.join(report.unexpected[n])}"
                 if report.unexpected[n] else ""))
    for m, path in zip(report.mismatches, written, strict=True):
        f = m.finding
        print(f"MISMATCH ({f.check}) {f.step} at {m.players} players, after {m.actions} actions: "
              f"{f.detail}")
        if f.engine or f.relation:
            print(f"  engine:   {f.engine}\n  relation: {f.relation}")
        print(f"  replay: unoformal replay {path}")
    verdict = "0 mismatches, nothing uncovered" if report.ok else \
        f"{len(report.mismatches)} mismatches, " \
        f"{sum(len(v) for v in report.uncovered.values())} uncovered, " \
        f"{sum(len(v) for v in report.unexpected.values())} listed unreachable yet hit"
    print(verdict)
