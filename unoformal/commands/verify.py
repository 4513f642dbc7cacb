"""``unoformal verify``: prove the rule table's properties with Z3 (see docs/verification.md)."""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import tomli_w
import z3
from rich.console import Console
from rich.progress import (
    BarColumn,
    Progress,
    TaskProgressColumn,
    TextColumn,
    TimeElapsedColumn,
)
from rich.table import Table

from unoformal.commands import SUMMARY
from unoformal.commands.options import rules_and_counts, whole
from unoformal.errors import InvalidInputError
from unoformal.inputs import MAX_JOBS, MAX_PLAYERS, MAX_TIMEOUT_MS, ascii_int, show
from unoformal.rulebook.table import RuleTable
from unoformal.runtime import campaign, interrupts
from unoformal.verification.z3 import mutants as mutation
from unoformal.verification.z3.manifest import (
    INHERITED,
    MANIFEST,
    OWN,
    Expectation,
    changed_rules,
    expected,
)
from unoformal.verification.z3.mutants import Outcome, score
from unoformal.verification.z3.properties import PROPERTIES, STEPS_ENABLED, Property
from unoformal.verification.z3.prover import (
    DEFAULT_TIMEOUT_MS,
    REFUTED,
    VACUOUS,
    Result,
    check_suite,
    property_reads,
)
from unoformal.verification.z3.prover import Progress as ProofProgress

# Mutants are killed with two players (TWO-1) and three (its non-vacuity witness, and
# rules such as WD4-2's reverse that only show from three on): enough, and 5x cheaper.
MUTANT_COUNTS = (2, 3)


def _player_counts(text: str) -> list[int]:
    """``--players``: ``4``, ``2-10`` or ``2,3,10``; every number is bounded (by
    ``MAX_PLAYERS``) before a range is expanded, the rules' own DECK-2 range after."""
    counts: list[int] = []
    try:
        for part in text.split(","):
            lo, sep, hi = part.partition("-")
            first = ascii_int(lo, "--players", 1, MAX_PLAYERS)
            last = ascii_int(hi, "--players", first, MAX_PLAYERS) if sep else first
            counts += range(first, last + 1)
    except InvalidInputError:
        raise argparse.ArgumentTypeError(
            f"{show(text)}: expected N, A-B (A <= B) or a comma list of player counts, "
            f"each from 1 to {MAX_PLAYERS}") from None
    return counts


def register(sub: Any) -> None:
    p = sub.add_parser("verify", help=SUMMARY["verify"])
    p.add_argument("--rules", default=None, help="variant name or .toml file (default classic)")
    p.add_argument("--players", type=_player_counts, default=None,
                   help="player counts: N, A-B or a comma list, e.g. 2,3 (default: every "
                        "count the rules allow, 2-10 for DECK-2; with --mutants 2,3; timings "
                        "in docs/verification.md)")
    p.add_argument("--property", action="append", default=None, dest="properties",
                   help="only this property (repeatable)")
    p.add_argument("--timeout", type=whole(1, MAX_TIMEOUT_MS), default=DEFAULT_TIMEOUT_MS,
                   help="per-query solver time-out in ms (verdict unknown when reached)")
    p.add_argument("--jobs", type=whole(1, MAX_JOBS), default=min(2, os.cpu_count() or 1),
                   help="tasks, each checking a run of neighbouring player counts at once, "
                        "on as many worker processes unless --workers or --scheduler says "
                        "otherwise (default: up to 2 cores)")
    p.add_argument("--json", action="store_true", help="print the verdicts as JSON")
    p.add_argument("--quiet", action="store_true",
                   help="print only the last line: the count of verdicts as expected, or of "
                        "unexpected ones")
    p.add_argument("--mutants", action="store_true",
                   help="mutate the table and report which property kills each mutant")
    p.add_argument("--check-equivalents", action="store_true",
                   help="with --mutants: also run the mutants the manifest calls equivalent")
    p.add_argument("--no-witness", action="store_true",
                   help="do not search a replayable record for refutations")
    campaign.add_arguments(p)
    p.set_defaults(run=run)


def _interruptible() -> None:
    """Ctrl-C stops a query at once (see :mod:`unoformal.runtime.interrupts`), rather than Z3
    catching it and calling the verdict "unknown"."""
    z3.set_param("ctrl_c", False)
    interrupts.on_interrupt(_interrupt_z3)


def _interrupt_z3() -> None:
    z3.main_ctx().interrupt()


def run(args: argparse.Namespace) -> int:
    _interruptible()
    try:
        rules, wanted = rules_and_counts(args.rules, args.players,
                                         lambda lo, hi: list(range(lo, hi + 1)))
        args.where = campaign.options(args, bar=False,
                                      workers=None if args.mutants else args.jobs)
    except InvalidInputError as err:
        print(f"error: {err.line()}", file=sys.stderr)
        return 2
    names = {p.name for p in PROPERTIES}
    unknown = [p for p in args.properties or [] if p not in names]
    if unknown:
        print(f"error: unknown property {', '.join(unknown)}; known: {', '.join(sorted(names))}",
              file=sys.stderr)
        return 2
    if args.mutants:
        return _mutants(rules, args)
    return _verify(rules, wanted, args)


_Checked = tuple[Result, Expectation]


def _verify(rules: RuleTable, counts: list[int], args: argparse.Namespace) -> int:
    props = [p for p in PROPERTIES if args.properties is None or p.name in args.properties]
    console = Console(stderr=args.json)
    shown = sys.stderr.isatty() and not (args.quiet or args.json)
    with _progress(sum(1 for n in counts for p in props if p.players(n)), shown) as report:
        done = check_suite(rules, props, counts, args.timeout, args.jobs, progress=report,
                           where=getattr(args, "where", None))
    results: list[_Checked] = [
        (result, expected(rules, result.prop.name, result.n)) for result in done]
    bad = [(r, want) for r, want in results if not want.met_by(r.verdict, r.vacuous)]
    witnesses = {} if args.no_witness else _witnesses(rules, results)
    if args.json:
        print(json.dumps([_row(r, w, witnesses.get(id(r))) for r, w in results], indent=2))
    elif not args.quiet:
        _table(console, rules, results)
        for result, want in [] if args.quiet else results:
            if result.verdict == REFUTED:
                _counterexample(console, rules, result, want, witnesses.get(id(result)))
            elif result.verdict == VACUOUS:
                _vacuous(console, result, want)
        if bad and not args.quiet:
            _unexpected(console, rules, bad)
    console.print(verdict_line(results, bad), markup=False, highlight=False)
    return 1 if bad else 0


@contextmanager
def _progress(verdicts: int, shown: bool) -> Iterator[ProofProgress | None]:
    """A progress bar on the terminal (stderr), gone when the run ends; nothing when
    stderr is not a terminal, with --quiet or with --json."""
    if not shown:
        yield None
        return
    columns = (TextColumn("{task.description}"), BarColumn(), TaskProgressColumn(),
               TimeElapsedColumn())
    with Progress(*columns, console=Console(stderr=True), transient=True) as bar:
        what = f"verdicts (properties x player counts) of {verdicts}"
        task = bar.add_task(f"proving: 0 {what}", total=1.0)

        def report(fraction: float, known: int) -> None:
            bar.update(task, completed=fraction, description=f"proving: {known} {what}")

        yield report


def verdict_line(results: list[_Checked], bad: list[_Checked]) -> str:
    """The one line every run ends with: all as expected, or how many are not."""
    verdicts = "verdict" if len(results) == 1 else "verdicts"
    if bad:
        return f"{len(bad)} unexpected (of {len(results)} {verdicts})"
    where = ("the manifest" if all(w.source == MANIFEST for _, w in results)
             else "the manifest and the variant's own [[expect]]")
    return f"{len(results)} {verdicts} as in {where}"


def _witnesses(rules: RuleTable, results: list[_Checked]) -> dict[int, Any]:
    """A replayable record for the first refutation of each property (smallest n)."""
    from unoformal.verification.z3.witness import find_record
    out: dict[int, Any] = {}
    done: set[str] = set()
    for result, _ in results:
        if result.verdict != REFUTED or result.prop.name in done or result.label is None:
            continue
        done.add(result.prop.name)
        out[id(result)] = find_record(rules, result.prop, result.n, result.label)
    return out


def _row(result: Result, want: Expectation, witness: Any) -> dict[str, Any]:
    row: dict[str, Any] = {
        "property": result.prop.name, "rules": list(result.prop.rule_ids),
        "players": result.n, "verdict": result.verdict, "expected": want.verdict,
        "expected_from": _source(want), "as_expected": want.met_by(result.verdict,
                                                                   result.vacuous),
        "seconds": round(result.seconds, 3), "queries": result.queries,
        "action": result.label, "vacuous": result.vacuous}
    shown = result.counterexample()
    if shown is not None:
        row["state"], row["steps"] = shown
        if witness is not None:
            row["record"] = witness.record
            row["replayable"] = witness.replayable
    return row


def _source(want: Expectation) -> str:
    """Where an expectation comes from, in words."""
    if want.source == OWN:
        return "the variant's own [[expect]]"
    if want.source == INHERITED:
        return f"inherited from {want.variant}"
    return f"manifest ({want.variant})"


def _table(console: Console, rules: RuleTable, results: list[_Checked]) -> None:
    table = Table(title=f"unoformal verify — rules {rules.name}",
                  caption="time: the property's own queries and its share of the queries "
                          "asked together (one per action for every property, about every "
                          "player count of a worker at once), and of the vacuity checks")
    # Names fold onto a second line rather than being cut ("conservat…") on a narrow
    # terminal: they are what a reader looks up.
    for col in ("property", "rule IDs", "players", "verdict", "expected", "time", "action"):
        table.add_column(col, overflow="fold")
    for result, want in results:
        style = "green" if want.met_by(result.verdict, result.vacuous) else "bold red"
        shown = want.verdict if want.source == MANIFEST else f"{want.verdict} ({want.source})"
        action = ", ".join(result.vacuous) if result.vacuous else result.label or ""
        table.add_row(result.prop.name, " ".join(result.prop.rule_ids), str(result.n),
                      f"[{style}]{result.verdict}[/]", shown, f"{result.seconds:.2f}s",
                      action)
    console.print(table)


def _vacuous(console: Console, result: Result, want: Expectation) -> None:
    if want.met_by(result.verdict, result.vacuous):
        return
    what = ("never enabled" if result.prop is STEPS_ENABLED
            else "hypothesis holds in no invariant state")
    console.print(f"\n[bold]{result.prop.name}[/] vacuous with {result.n} players "
                  f"(UNEXPECTED): {what}: " + ", ".join(result.vacuous))


def _counterexample(console: Console, rules: RuleTable, result: Result, want: Expectation,
                    witness: Any) -> None:
    shown = result.counterexample()
    assert shown is not None
    state, steps = shown
    tag = "expected" if want.met_by(result.verdict) else "UNEXPECTED"
    console.print(f"\n[bold]{result.prop.name}[/] refuted with {result.n} players "
                  f"at {result.label} ({tag})")
    console.print("  state:  " + state, soft_wrap=True)
    console.print("  steps:  " + "; ".join(steps))
    if witness is None:
        return
    word = "replayable" if witness.replayable else f"not replayable ({witness.mismatch})"
    console.print(f"  record ({word}): " + json.dumps(witness.record), soft_wrap=True)


def _unexpected(console: Console, rules: RuleTable, bad: list[_Checked]) -> None:
    """What to do about verdicts that depart from the expected ones: for a table that
    inherits its expectations, which of its changes the property's actions read, and
    the ``[[expect]]`` entries that would record the verdicts (copy-pasteable TOML)."""
    console.print(f"\n{len(bad)} verdict(s) differ from the expected ones.")
    changed = changed_rules(rules)
    entries = []
    for prop, rows in _by_property(bad).items():
        results = [r for r, _ in rows]
        want = rows[0][1]
        reads = sorted(set(changed) & property_reads(
            rules, prop, results[0].n, set(results[0].vacuous) or None))
        if want.source == INHERITED:
            why = (f"it reads {', '.join(reads)}, which {rules.name} changes"
                   if reads else f"none of the entries {rules.name} changes "
                   f"({', '.join(changed)}) is read by its actions: a finding")
            console.print(f"  {prop.name}: {want.verdict} for {want.variant} expected; "
                          f"{why}")
        what = ", ".join(reads or changed)
        reason = (f"{rules.name} changes {what}" if what else rules.name) + \
            " (say why this verdict is right)"
        for verdict, players in _runs(results):
            entries.append({"property": prop.name, "players": players, "verdict": verdict,
                            "reason": reason})
    console.print("If these verdicts are right for your variant, add to its file:\n")
    console.print(tomli_w.dumps({"expect": entries}), markup=False, highlight=False,
                  soft_wrap=True)


def _by_property(bad: list[_Checked]) -> dict[Property, list[_Checked]]:
    out: dict[Property, list[_Checked]] = {}
    for result, want in bad:
        out.setdefault(result.prop, []).append((result, want))
    return out


def _runs(results: list[Result]) -> list[tuple[str, str]]:
    """(verdict, players) for each run of neighbouring counts with one verdict: ``3-10``."""
    out: list[tuple[str, int, int]] = []
    for r in sorted(results, key=lambda r: r.n):
        if out and out[-1][0] == r.verdict and out[-1][2] == r.n - 1:
            out[-1] = (r.verdict, out[-1][1], r.n)
        else:
            out.append((r.verdict, r.n, r.n))
    return [(v, f"{lo}" if lo == hi else f"{lo}-{hi}") for v, lo, hi in out]


def _mutants(rules: RuleTable, args: argparse.Namespace) -> int:
    total = sum(1 for _ in mutation.mutants(rules))
    console = Console(stderr=args.json)
    players = tuple(args.players) if args.players is not None else MUTANT_COUNTS
    with Progress(console=console, transient=True) as progress:
        task = progress.add_task("mutants", total=total)
        outcomes = mutation.run(rules, players, args.timeout, lambda o: progress.advance(task),
                                args.check_equivalents, getattr(args, "where", None))
    if args.json:
        print(json.dumps({"score": score(outcomes), "mutants": [
            {"mutant": o.mutant.name, "killed_by": o.killed_by, "equivalent": o.equivalent,
             "seconds": round(o.seconds, 3)} for o in outcomes]}, indent=2))
    elif not args.quiet:
        table = Table(title=f"mutants of {rules.name}")
        for col in ("mutant", "killed by", "time"):
            table.add_column(col, overflow="fold")
        for o in outcomes:
            killer = o.killed_by or (f"[yellow]equivalent: {o.equivalent}[/]" if o.equivalent
                                     else "[bold red]SURVIVED[/]")
            table.add_row(o.mutant.name, killer, f"{o.seconds:.2f}s")
        console.print(table)
    console.print(mutant_line(outcomes), markup=False, highlight=False)
    return 1 if any(o.killed_by is None and o.equivalent is None for o in outcomes) else 0


def mutant_line(outcomes: list[Outcome]) -> str:
    """The line ``--mutants`` ends with: how many were killed, equivalent, survived."""
    killed = sum(1 for o in outcomes if o.killed_by is not None)
    equivalent = sum(1 for o in outcomes if o.killed_by is None and o.equivalent is not None)
    survived = len(outcomes) - killed - equivalent
    return (f"{killed} killed, {equivalent} equivalent, {survived} survived (mutation score "
            f"{score(outcomes):.0%}: killed / mutants not explained as equivalent)")
