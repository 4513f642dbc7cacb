"""``unoformal verify``: prove the rule table's properties with Z3 (see docs/verification.md)."""

from __future__ import annotations

import argparse
import json
import os
import sys
import textwrap
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import replace
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
    OFF,
    OWN,
    Expectation,
    changed_rules,
    expected,
)
from unoformal.verification.z3.mutants import Outcome, score
from unoformal.verification.z3.properties import (
    STEPS_ENABLED,
    Property,
    properties_of,
)
from unoformal.verification.z3.prover import (
    DEFAULT_TIMEOUT_MS,
    REFUTED,
    VACUOUS,
    Result,
    check_suite,
    property_reads,
)
from unoformal.verification.z3.prover import Progress as ProofProgress
from unoformal.verification.z3.reach import DEFAULT_DEPTH, NOT_PROVED, Reach

MAX_REACH_DEPTH = 8  # each depth costs about as much as all those before it
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
    p.add_argument("--details", action="store_true",
                   help="also print every verdict (property x player count, with its time "
                        "and action) and each refutation's counterexample state, steps and "
                        "record (all of them are in --json too)")
    p.add_argument("--mutants", action="store_true",
                   help="mutate the table and report which property kills each mutant")
    p.add_argument("--check-equivalents", action="store_true",
                   help="with --mutants: also run the mutants the manifest calls equivalent")
    p.add_argument("--no-witness", action="store_true",
                   help="do not search a game from a deal for refutations (each then stays "
                        "a refutation of the inductive step only)")
    p.add_argument("--reach-depth", type=whole(0, MAX_REACH_DEPTH), default=DEFAULT_DEPTH,
                   help="steps from a deal (the start card first) the search for a game "
                        "reaching each refutation looks through before the violating "
                        f"action (default {DEFAULT_DEPTH}; none found: the property is "
                        "'not proved at this strength', not refuted)")
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
    names = {p.name for p in properties_of(rules)}
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
    props = [p for p in properties_of(rules)
             if args.properties is None or p.name in args.properties]
    # Never wrapped: in a file or a pipe rich would fold lines at 80 columns, splitting
    # the names a reader looks up (and 100-card states over many lines).
    console = Console(stderr=args.json, soft_wrap=True)
    shown = sys.stderr.isatty() and not (args.quiet or args.json)
    with _progress(sum(1 for n in counts for p in props if p.players(n)), shown) as report:
        done = check_suite(rules, props, counts, args.timeout, args.jobs, progress=report,
                           where=getattr(args, "where", None))
    results: list[_Checked] = [
        (result, expected(rules, result.prop.name, result.n)) for result in done]
    reaches = {} if args.no_witness else _reaches(rules, results, args.reach_depth)
    bad = [(r, want) for r, want in results
           if not want.met_by(r.verdict, r.vacuous, _reached(reaches.get(id(r))))]
    details = getattr(args, "details", False)
    if args.json:
        print(json.dumps([_row(r, w, reaches.get(id(r))) for r, w in results], indent=2))
    elif details and not args.quiet:
        _details(console, rules, results, reaches)
    elif not args.quiet:
        _summary(console, rules, counts, results, reaches)
    if bad and not (args.quiet or args.json):
        for result, want in bad:
            if result.verdict == VACUOUS:
                _vacuous(console, result, want)
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
    return f"{len(results)} {verdicts} as in {_sources(results)}"


def _sources(results: list[_Checked]) -> str:
    """Where the expected verdicts came from, as the header names each: the manifest
    (the rules switched off included), what the variant inherits (from its base and the
    tables it plays), its own [[expect]]."""
    said = {w.source for _, w in results}
    parts = [words for sources, words in (
        ((MANIFEST, OFF), "the manifest"), ((INHERITED,), "what it inherits"),
        ((OWN,), "its own [[expect]]")) if said & set(sources)] or ["the manifest"]
    return parts[0] if len(parts) == 1 else ", ".join(parts[:-1]) + " and " + parts[-1]


def _reaches(rules: RuleTable, results: list[_Checked], depth: int) -> dict[int, Reach]:
    """For every refutation, the bounded search for a game from a deal that reaches a
    violation of the property (:mod:`unoformal.verification.z3.reach`), by ``id`` of the
    result: each property once, about the counts it is refuted at."""
    from unoformal.verification.z3.reach import search
    refuted: dict[str, list[Result]] = {}
    for result, _ in results:
        if result.verdict == REFUTED:
            refuted.setdefault(result.prop.name, []).append(result)
    out: dict[int, Reach] = {}
    for rows in refuted.values():
        found = search(rules, rows[0].prop, [r.n for r in rows], depth)
        out.update((id(r), found[r.n]) for r in rows)
    return out


def _reached(reach: Reach | None) -> bool | None:
    """Whether the search reached the refutation; None where it tells neither way (not
    searched, or stopped short of its bound)."""
    return None if reach is None or not (reach.reached or reach.complete) else reach.reached


def conclusion(result: Result, reach: Reach | None) -> str:
    """What a verdict means for a reader: a refutation no game was searched for is one of
    the inductive step only."""
    if result.verdict != REFUTED:
        return result.verdict
    return "refuted (inductive step; no game searched)" if reach is None else reach.conclusion


def _row(result: Result, want: Expectation, reach: Reach | None) -> dict[str, Any]:
    row: dict[str, Any] = {
        "property": result.prop.name, "rules": list(result.prop.rule_ids),
        "players": result.n, "verdict": result.verdict, "expected": want.verdict,
        "expected_from": _source(want), "as_expected": want.met_by(
            result.verdict, result.vacuous, _reached(reach)),
        "seconds": round(result.seconds, 3), "queries": result.queries,
        "action": result.label, "vacuous": result.vacuous,
        "conclusion": conclusion(result, reach)}
    if want.reached is not None:
        row["expected_reached"] = want.reached
    shown = result.counterexample()
    if shown is not None:
        row["state"], row["steps"] = shown
        if reach is not None:
            row["reach"] = reach.to_json()
            row["replayable"] = reach.reached
            if reach.record is not None:
                row["record"] = reach.record
    return row


def _source(want: Expectation) -> str:
    """Where an expectation comes from, in words."""
    if want.source == OWN:
        return "the variant's own [[expect]]"
    if want.source == INHERITED:
        return f"inherited from {want.variant}"
    if want.source == OFF and " reads " in want.reason.split(":", 1)[0]:
        # a property of a value's other reading (Property.needs "ID.value=reading")
        return f"another reading ({want.reason.split(' in this table', 1)[0]})"
    if want.source == OFF and " has no " in want.reason.split(":", 1)[0]:
        # a house rule's value left unset (Property.needs "ID.value"): named as the
        # table names it, so the header stays one short phrase per source
        rule_id, _, rest = want.reason.partition(" has no ")
        return f"switched off ({rule_id}.{rest.split(' in this table', 1)[0]})"
    if want.source == OFF:
        return f"switched off ({want.reason.split(' is off', 1)[0]})"
    return f"manifest ({want.variant})"


def _summary(console: Console, rules: RuleTable, counts: list[int],
             results: list[_Checked], reaches: dict[int, Reach]) -> None:
    """One row per property: its verdicts by runs of player counts, and whether they are
    the expected ones; then why the manifest expects each refutation or vacuity, so that
    a "refuted" on the official rules reads as the witness it is; then each refutation
    no game from a deal reached, which is "not proved at this strength", not refuted."""
    sources = ", ".join(dict.fromkeys(_source(w) for _, w in results))
    _say(console, f"unoformal verify: rules {rules.name}, players {_counts(counts)}; "
                  f"expected verdicts: {sources}")
    # The rule IDs last: the widest column, and the one a narrow terminal may fold.
    rows = [["property", "verdicts (players)", "expected", "rule IDs"]]
    expected_not_proved: list[tuple[Property, str, Expectation]] = []
    for prop, checked in _by_property(results).items():
        verdicts = ", ".join(f"{v} {n}" for v, n in _runs_of(
            [(_word(r, reaches.get(id(r))), r.n) for r, _ in checked]))
        rows.append([prop.name, verdicts, _met(checked, reaches), " ".join(prop.rule_ids)])
        wanted = [(r, w) for r, w in checked if w.verdict != "proved"]
        if wanted and all(_meets(r, w, reaches) for r, w in checked):
            shown = ", ".join(f"{v} {n}" for v, n in _runs_of(
                [(_word(r, reaches.get(id(r))), r.n) for r, _ in wanted]))
            expected_not_proved.append((prop, shown, wanted[0][1]))
    for line in plain_table(rows):
        _say(console, line)
    if expected_not_proved:
        _say(console, "\nAs expected, and why (the manifest's reasons):")
        # Properties with one reason and one verdict share a line: a table without a
        # house rule has several properties of it, each vacuous for the same reason.
        grouped: dict[tuple[str, str], list[str]] = {}
        for prop, shown, want in expected_not_proved:
            grouped.setdefault((shown, want.reason), []).append(prop.name)
        for (shown, reason), names in grouped.items():
            _say(console, textwrap.fill(f"{', '.join(names)} {shown}: {reason}", WIDTH,
                                        initial_indent="  ", subsequent_indent="    ",
                                        break_long_words=False, break_on_hyphens=False))
    _unreached(console, results, reaches)
    if any(r.verdict in (REFUTED, VACUOUS) for r, _ in results):
        _say(console, "Each counterexample (state, steps, record) and vacuous query: add "
                      "--details, or --json.")


NOT_PROVED_WORD = "not proved"  # the table's short word for reach.NOT_PROVED


def _word(result: Result, reach: Reach | None) -> str:
    """A verdict in the table: a refutation no game from a deal reached is "not proved"."""
    if result.verdict == REFUTED and reach is not None and not reach.reached:
        return NOT_PROVED_WORD
    return result.verdict


def _meets(result: Result, want: Expectation, reaches: dict[int, Reach]) -> bool:
    return want.met_by(result.verdict, result.vacuous, _reached(reaches.get(id(result))))


def _unreached(console: Console, results: list[_Checked], reaches: dict[int, Reach]) -> None:
    """The refutations no game from a deal reached, by property: what the search says."""
    missed: dict[Property, list[Result]] = {}
    for result, _ in results:
        reach = reaches.get(id(result))
        if reach is not None and not reach.reached:
            missed.setdefault(result.prop, []).append(result)
    if not missed:
        return
    bound = next(iter(reaches.values())).bound
    _say(console, "")
    _say(console, textwrap.fill(
        f"{NOT_PROVED_WORD}: the prover's counterexample is a state satisfying the "
        f"invariant, and the search found no game from a deal (at most {bound} step(s)) "
        f"that breaks the property: that state may be unreachable, so these are "
        f"{NOT_PROVED} (the invariant too weak to prove them, or the bound too short), "
        "not refuted:", WIDTH))
    for prop, rows in missed.items():
        counts = ", ".join(n for _, n in _runs_of([(0, r.n) for r in rows]))
        why = "; ".join(dict.fromkeys(reaches[id(r)].searched() for r in rows))
        _say(console, textwrap.fill(f"{prop.name} {counts}: {why}", WIDTH,
                                    initial_indent="  ", subsequent_indent="    ",
                                    break_long_words=False, break_on_hyphens=False))


WIDTH = 88  # the reasons' paragraphs; the table's rows are as wide as their cells


def _met(checked: list[_Checked], reaches: dict[int, Reach]) -> str:
    """"as expected", or what was expected instead; the variant's own ``[[expect]]``
    named where it decided (the heading names the other sources once)."""
    own = " (own [[expect]])" if any(w.source == OWN for _, w in checked) else ""
    if all(_meets(r, w, reaches) for r, w in checked):
        return "as expected" + own
    wanted = [replace(r, verdict=w.verdict if w.reached is not False else NOT_PROVED_WORD)
              for r, w in checked]
    shown = ", ".join(f"{v} {n}" for v, n in _runs(wanted))
    return f"UNEXPECTED: {shown} expected{own}"


def plain_table(rows: list[list[str]]) -> list[str]:
    """Rows as lines of columns padded to their widest cell, never wrapped or cut."""
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    return ["  ".join(cell.ljust(w) for cell, w in zip(row, widths, strict=True)).rstrip()
            for row in rows]


def _counts(counts: list[int]) -> str:
    return ", ".join(n for _, n in _runs_of([(0, c) for c in sorted(set(counts))]))


def _say(console: Console, text: str) -> None:
    console.print(text, markup=False, highlight=False)


def _details(console: Console, rules: RuleTable, results: list[_Checked],
             reaches: dict[int, Reach]) -> None:
    """Every verdict, one row each, then each refutation's counterexample (--details)."""
    _say(console, f"unoformal verify: rules {rules.name}, every verdict")
    rows = [["property", "rule IDs", "players", "verdict", "expected", "time", "action"]]
    for result, want in results:
        shown = want.verdict if want.source == MANIFEST else f"{want.verdict} ({want.source})"
        if want.reached is False:
            shown = f"{shown}, {NOT_PROVED_WORD}"
        if not _meets(result, want, reaches):
            shown += " UNEXPECTED"
        action = ", ".join(result.vacuous) if result.vacuous else result.label or ""
        verdict = result.verdict
        if _word(result, reaches.get(id(result))) == NOT_PROVED_WORD:
            verdict += f", {NOT_PROVED_WORD}"
        rows.append([result.prop.name, " ".join(result.prop.rule_ids), str(result.n),
                     verdict, shown, f"{result.seconds:.2f}s", action])
    for line in plain_table(rows):
        _say(console, line)
    _say(console, "time: the property's own queries and its share of the queries asked "
                  "together (one per action for every property, about every player count "
                  "of a worker at once), and of the vacuity checks")
    for result, want in results:
        if result.verdict == REFUTED:
            _counterexample(console, result, want, reaches)


def _vacuous(console: Console, result: Result, want: Expectation) -> None:
    if want.met_by(result.verdict, result.vacuous):
        return
    what = ("never enabled" if result.prop is STEPS_ENABLED
            else "hypothesis holds in no invariant state")
    console.print(f"\n[bold]{result.prop.name}[/] vacuous with {result.n} players "
                  f"(UNEXPECTED): {what}: " + ", ".join(result.vacuous))


def _counterexample(console: Console, result: Result, want: Expectation,
                    reaches: dict[int, Reach]) -> None:
    """A refutation: the prover's counterexample (a state satisfying the invariant), then
    what the search from a deal found: the game that reaches a violation, or why none."""
    shown = result.counterexample()
    assert shown is not None
    state, steps = shown
    reach = reaches.get(id(result))
    tag = "expected" if _meets(result, want, reaches) else "UNEXPECTED"
    console.print(f"\n[bold]{result.prop.name}[/] refuted with {result.n} players "
                  f"at {result.label} ({tag})")
    console.print("  state:  " + state, soft_wrap=True)
    console.print("  steps:  " + "; ".join(steps))
    if reach is None:
        return
    _say(console, "  reach:  " + reach.sentence())
    if reach.record is not None:
        console.print("  record (replayable): " + json.dumps(reach.record), soft_wrap=True)


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
    return _runs_of([(r.verdict, r.n) for r in results])


def _runs_of(pairs: list[tuple[Any, int]]) -> list[tuple[Any, str]]:
    """(value, counts) for each run of neighbouring counts with one value: ``3-10``."""
    out: list[tuple[Any, int, int]] = []
    for value, n in sorted(pairs, key=lambda p: p[1]):
        if out and out[-1][0] == value and out[-1][2] == n - 1:
            out[-1] = (value, out[-1][1], n)
        else:
            out.append((value, n, n))
    return [(v, f"{lo}" if lo == hi else f"{lo}-{hi}") for v, lo, hi in out]


def _mutants(rules: RuleTable, args: argparse.Namespace) -> int:
    total = sum(1 for _ in mutation.mutants(rules))
    console = Console(stderr=args.json, soft_wrap=True)
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
        # Plain rows, as verify's verdicts: never folded inside a mutant's name.
        rows = [["mutant", "time", "killed by"]]
        for o in outcomes:
            killer = o.killed_by or (f"equivalent: {o.equivalent}" if o.equivalent
                                     else "SURVIVED")
            rows.append([o.mutant.name, f"{o.seconds:.2f}s", killer])
        _say(console, f"mutants of {rules.name}")
        for line in plain_table(rows):
            _say(console, line)
    console.print(mutant_line(outcomes), markup=False, highlight=False)
    return 1 if any(o.killed_by is None and o.equivalent is None for o in outcomes) else 0


def mutant_line(outcomes: list[Outcome]) -> str:
    """The line ``--mutants`` ends with: how many were killed, equivalent, survived."""
    killed = sum(1 for o in outcomes if o.killed_by is not None)
    equivalent = sum(1 for o in outcomes if o.killed_by is None and o.equivalent is not None)
    survived = len(outcomes) - killed - equivalent
    return (f"{killed} killed, {equivalent} equivalent, {survived} survived (mutation score "
            f"{score(outcomes):.0%}: killed / mutants not explained as equivalent)")
