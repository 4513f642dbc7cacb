"""The catalogue's matrix: what each house rule, and each pair of them, does to the
rulebook's properties and to the small-deck state graphs, and where a rule's readings
part. Every cell is found by a tool, with its witness; nothing is stated by a reader.

- **rule x property:** ``verify`` of the rule's default reading at the given player
  counts, beside classic's verdict on the same property.
- **rule x explorer finding:** stuck states, states from which no round end is
  reachable, rounds that can go on for ever and rules that never fire, on small decks,
  each kept only where it differs from classic's on the same deck.
- **pairs:** two rules joined (``rulebook.variants.combine``): refused where both set one
  value differently; otherwise a property that holds (or is not vacuous) for each rule
  alone and not for the pair, and a finding of the explorer the pair has and neither
  rule has alone.
- **ambiguities:** for a rule with several readings, the states of a small deck where
  the default reading and another give different successors, with the first such
  state's record from a deal (the explorer's witness, which the engine replays).

Written by ``unoformal house-rules`` as docs/house-rules.md (:mod:`unoformal.show.matrix`).
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, cast

from unoformal.catalogue import CatalogueRule, Reading, find, rules
from unoformal.engine.record import with_rules
from unoformal.errors import InvalidInputError, VariantError
from unoformal.rulebook.table import RuleTable
from unoformal.rulebook.variants import load_rules
from unoformal.runtime import campaign
from unoformal.verification.explore import analyse, explore
from unoformal.verification.explore.graph import Config, StateGraph
from unoformal.verification.explore.presets import PRESETS, small_rules
from unoformal.verification.explore.report import summary
from unoformal.verification.explore.witness import WitnessError, witness
from unoformal.verification.z3 import answers
from unoformal.verification.z3.answers import Answers
from unoformal.verification.z3.properties import properties_of
from unoformal.verification.z3.prover import check_suite, forget

# The small decks the explorer runs each rule on: tiny has both wild cards and the
# misplay and advice moves (draw, play and challenge rules); three has three players,
# a Reverse, a Draw Two and a Wild Draw Four (stacking and turn order).
DECKS = ("tiny", "three")
# A pair is explored on tiny alone: 105 pairs on three (200,000-300,000 states each)
# would take most of the matrix's time (docs/house-rules.md says so beside the pairs).
PAIR_DECKS = ("tiny",)
WITNESS_TRIES = 20  # differing states tried, in BFS order, for a record that replays



@dataclass
class Verdicts:
    """A table's verdict per property, over the player counts asked: ``proved 2-10``,
    ``refuted 3-10, proved 2`` ..."""

    by_property: dict[str, str]

    def differs(self, other: Verdicts) -> list[str]:
        return [p for p, v in self.by_property.items() if other.by_property.get(p) != v]


@dataclass
class Findings:
    """What the explorer finds on one deck, reduced to what a rule can change."""

    stuck: int
    no_round_end: int | None
    traps: int | None
    endless: bool | None
    dead: tuple[str, ...]
    # why the explorer could not take the table on this deck (a count past what its keys
    # hold: double score's points), a finding of its own; "" where it ran
    refused: str = ""

    def lines(self) -> list[str]:
        if self.refused:
            return [f"not explored: {self.refused}"]
        out = []
        if self.stuck:
            out.append(f"{self.stuck} stuck state(s)")
        if self.no_round_end:
            out.append(f"{self.no_round_end} state(s) with no round end reachable")
        if self.traps:
            out.append(f"{self.traps} trap(s)")
        if self.endless:
            out.append("a round can go on for ever")
        return out


@dataclass
class Single:
    rule: CatalogueRule
    table: RuleTable
    verdicts: Verdicts
    breaks: list[tuple[str, str, str]]  # property, classic's verdict, this rule's
    found: dict[str, Findings]
    new: dict[str, list[str]]  # per deck: findings classic does not have there


@dataclass
class Pair:
    a: str
    b: str
    refused: str | None = None
    pair_only: list[tuple[str, str]] = field(default_factory=list)  # property, verdict
    new: dict[str, list[str]] = field(default_factory=dict)


@dataclass
class Ambiguity:
    rule: str
    default: str
    other: str
    deck: str
    states: int  # states of the deck both readings reach
    differ: int  # of those, the states whose successors differ
    witness: dict[str, Any] | None = None  # a record from a deal to the first
    where: str = ""  # that state, as the engine's state text


@dataclass
class Matrix:
    counts: tuple[int, ...]
    pair_counts: tuple[int, ...]
    classic: Verdicts
    classic_found: dict[str, Findings]
    singles: list[Single]
    pairs: list[Pair]
    ambiguities: list[Ambiguity]


PerCount = dict[str, dict[int, str]]  # each property's verdict at each player count


def verdicts(table: RuleTable, counts: Sequence[int],
             known: dict[bytes, bool] | None = None) -> tuple[PerCount, dict[bytes, bool]]:
    """``verify``'s verdicts of ``table`` at ``counts``, and what the prover found that a
    later run may be given (``answers.py``): given ``known`` (None: the run keeps
    nothing), the queries those answers settle are not asked again."""
    kept = None if known is None else Answers(known)
    with answers.using(kept):
        results = check_suite(table, properties_of(table), counts)
    per: PerCount = {}
    for r in results:
        per.setdefault(r.prop.name, {})[r.n] = r.verdict
    return per, {} if kept is None else kept.learned


def _lines(per: PerCount, counts: Sequence[int]) -> Verdicts:
    """One line per property over ``counts``: ``refuted 3-10, proved 2``."""
    out = {}
    for name, at in per.items():
        got: dict[str, list[int]] = {}
        for n in sorted(at):
            if n in counts:
                got.setdefault(at[n], []).append(n)
        if got:
            out[name] = ", ".join(f"{v} {span(ns)}" for v, ns in sorted(
                got.items(), key=lambda item: item[1][0]))
    return Verdicts(out)


def span(ns: list[int]) -> str:
    """Player counts as a reader writes them: ``2-10``, ``2``, ``2,3,5``."""
    ns = sorted(ns)
    if ns == list(range(ns[0], ns[-1] + 1)):
        return str(ns[0]) if len(ns) == 1 else f"{ns[0]}-{ns[-1]}"
    return ",".join(map(str, ns))


def findings(table: RuleTable, deck: str) -> tuple[Findings, StateGraph]:
    """The explorer on the small ``deck`` under ``table``."""
    preset = PRESETS[deck]
    small = small_rules(preset.size, base=table, extra=preset.extra, name=deck)
    config = Config(small, tuple(preset.size.players_list()), deck, False,
                    preset.size.penalties)
    graph = explore(config)
    found = analyse(graph)
    data = summary(graph, found)
    dead = tuple(sorted(f"{d['rule']} {d['branch']}" for d in data["dead"]
                        if "not in this deck" not in d["why"]))
    return Findings(data["stuck"], data["no_round_end"], data["traps"],
                    data["endless_round"], dead), graph


def _new(found: Findings, against: Sequence[Findings]) -> list[str]:
    """``found``'s findings that none of ``against`` has (a dead rule only where it is
    dead here and fires in each of them)."""
    seen = {line for f in against for line in f.lines()}
    out = [line for line in found.lines() if line not in seen]
    alive = set.intersection(*(set(found.dead) - set(f.dead) for f in against)) \
        if against else set(found.dead)
    out += [f"{d}: never fires" for d in sorted(alive)]
    return out


@dataclass
class Run:
    """What one task finds of one table: its verdicts at the counts asked, the explorer's
    findings on the decks asked, for a catalogue rule where each of its other readings
    parts from the default on those decks, and what the prover found (``answers.py``)
    for the runs of pairs with this rule."""

    per: PerCount
    found: dict[str, Findings]
    table: RuleTable
    ambiguities: list[Ambiguity] = field(default_factory=list)
    answers: dict[bytes, bool] = field(default_factory=dict)


def run_table(item: tuple[str, tuple[int, ...], tuple[str, ...]]) -> Run:
    """A task (module level: it runs in a worker): the table ``name`` names (a catalogue
    rule or classic) at the pairs' player counts, keeping what the prover found for the
    pairs' runs. A rule's readings are compared here, on the default reading's graphs
    this task explores anyway: as tasks of their own, each comparison explored the
    default again (half of its time)."""
    name, counts, decks = item
    table = load_rules(name)
    per, learned = verdicts(table, counts, {})
    explored = {deck: _explored(table, deck) for deck in decks}
    found = {deck: f for deck, (f, _) in explored.items()}
    named = find(name)  # a catalogue rule (not classic)
    asked = [] if named is None else [
        ambiguity(named[0], other, deck, explored[deck][1])
        for other in named[0].readings[1:] for deck in decks]
    return Run(per, found, table, asked, learned)


def run_counts(item: tuple[str, tuple[int, ...]]) -> PerCount:
    """A task: the verdicts of the table ``name`` names at the player counts the pairs are
    not checked at (``build`` asks the others in the table's own task)."""
    name, counts = item
    return verdicts(load_rules(name), counts)[0]


def _explored(table: RuleTable, deck: str) -> tuple[Findings, StateGraph | None]:
    """:func:`findings`, or why the explorer refused the table on ``deck`` (its words),
    so one rule the explorer cannot hold is a finding, not the end of the matrix."""
    try:
        return findings(table, deck)
    except InvalidInputError as err:
        return Findings(0, None, None, None, (), refused=err.message), None


def run_pair(item: tuple[str, tuple[int, ...], tuple[str, ...], dict[bytes, bool]]
             ) -> Run | str:
    """A pair's task: its run, given what the prover found for classic and for each of
    the two rules alone (``known``: the queries the pair shares with them, almost all of
    its queries, are not asked again), or why the two cannot be combined."""
    name, counts, decks, known = item
    try:
        table = load_rules(name)
    except (VariantError, InvalidInputError) as err:
        return getattr(err, "message", str(err))
    per = verdicts(table, counts, known)[0]
    return Run(per, {deck: _explored(table, deck)[0] for deck in decks}, table)


def single(rule: CatalogueRule, run: Run, rest: PerCount, counts: Sequence[int],
           classic: Verdicts, classic_found: dict[str, Findings]) -> Single:
    """The rule's verdicts at ``counts`` (from its own task and its ``rest`` of them)
    where they differ from classic's, and its findings classic does not have."""
    mine = _lines(_joined(run.per, rest), counts)
    breaks = [(p, classic.by_property.get(p, "(not a property of classic)"), v)
              for p, v in mine.by_property.items() if classic.by_property.get(p) != v]
    new = {deck: _new(run.found[deck], [classic_found[deck]]) for deck in run.found}
    return Single(rule, run.table, mine, breaks, run.found, new)


def _joined(per: PerCount, rest: PerCount) -> PerCount:
    return {name: {**per.get(name, {}), **rest.get(name, {})}
            for name in dict.fromkeys([*per, *rest])}


def pair(a: str, b: str, alone: dict[str, Run], counts: Sequence[int],
         got: Run | str) -> Pair:
    """What the pair breaks that neither rule breaks alone, or why it is refused."""
    out = Pair(a, b)
    if isinstance(got, str):
        out.refused = got
        return out
    each = [_lines(alone[x].per, counts).by_property for x in (a, b)]
    for prop, verdict in _lines(got.per, counts).by_property.items():
        if verdict not in [e.get(prop) for e in each] and _worse(verdict):
            out.pair_only.append((prop, verdict))
    out.new = {deck: _new(got.found[deck], [alone[a].found[deck], alone[b].found[deck]])
               for deck in got.found}
    return out


def _worse(verdict: str) -> bool:
    return any(word in verdict for word in ("refuted", "vacuous", "unknown"))


def ambiguity(rule: CatalogueRule, other: Reading, deck: str,
              default_graph: StateGraph | None = None) -> Ambiguity:
    """Both readings' graphs of ``deck`` (the default's explored here unless given); the
    states both reach whose successors differ, and the first such state's record from a
    deal (under the default reading)."""
    name = rule.name
    if default_graph is None:
        default_graph = findings(load_rules(name), deck)[1]
    other_graph = findings(load_rules(f"{name}@{other.name}"), deck)[1]
    mine, theirs = _successors(default_graph), _successors(other_graph)
    common = sorted(set(mine) & set(theirs), key=lambda k: default_graph.index[k])
    differ = [k for k in common if mine[k] != theirs[k]]
    out = Ambiguity(name, rule.default.name, other.name, deck, len(common), len(differ))
    for key in differ[:WITNESS_TRIES]:
        try:
            found = witness(default_graph, default_graph.index[key])
        except WitnessError:  # a path through a reshuffle no seed below the bound replays
            continue
        # the small deck's table embedded, so the record replays with no file beside it
        out.witness = with_rules(found.record, default_graph.config.rules)
        out.where = found.game.to_text()
        break
    return out


def _successors(graph: StateGraph) -> dict[bytes, frozenset[tuple[int, bytes]]]:
    """Each expanded state's successors, by key (the key of a state does not depend on
    the table, so two readings' graphs of one deck share keys)."""
    out: dict[bytes, set[tuple[int, bytes]]] = {}
    for e in range(graph.edges):
        out.setdefault(graph.keys[graph.src[e]], set()).add(
            (graph.act[e], graph.keys[graph.dst[e]]))
    for sid in range(graph.states):
        if graph.expanded[sid]:
            out.setdefault(graph.keys[sid], set())
    return {k: frozenset(v) for k, v in out.items()}


Task = tuple[str, Any]  # what a task runs ("table", "counts" or "pair") and its item


def run_task(task: Task) -> Run | PerCount | str:
    """One task of the matrix's campaigns (module level: it runs in a worker). A worker
    runs hundreds of tables, so each task starts with the prover's caches empty
    (``prover.forget``): the terms kept of earlier tables slowed the later ones."""
    forget()
    what, item = task
    if what == "table":
        return run_table(item)
    if what == "counts":
        return run_counts(item)
    return run_pair(item)


def build(counts: Sequence[int], pair_counts: Sequence[int],
          where: campaign.Options | None = None, only: Sequence[str] = (),
          decks: Sequence[str] = DECKS, pair_decks: Sequence[str] = PAIR_DECKS) -> Matrix:
    """The whole matrix over the catalogue (or the rules ``only`` names), as campaign
    tasks (``where``: local workers or a cluster; the same matrix on any number), the
    explorer on ``decks`` (a pair's on ``pair_decks``).

    Two campaigns. First each table (classic and every rule) at the pairs' counts, with
    its explorer runs and the comparisons of its readings, keeping what the prover
    found. Then each pair, given what was found for classic and its two rules (the
    pair's queries are almost all theirs, term for term: ``answers.py``), beside each
    table at its other counts (the longest tasks, so the second campaign's work, not
    the first's, waits on them)."""
    decks, pair_decks = tuple(decks), tuple(pair_decks)
    opts = where or campaign.Options(workers=1, bar=False)
    chosen = [r for r in rules() if not only or r.name in only]
    counts, pair_counts = tuple(counts), tuple(pair_counts)
    names = ["classic", *(r.name for r in chosen)]
    # a rule no command reads (of stated chance, of views): a pair with it is the other rule
    couples = [(a.name, b.name) for a, b in itertools.combinations(chosen, 2)
               if not (a.reading_of or b.reading_of)]
    runs = dict(zip(names, cast(list[Run], campaign.run(
        run_task, [("table", (n, pair_counts, decks)) for n in names], opts,
        label="house rules: tables", unit="tables")), strict=True))
    rest = tuple(n for n in counts if n not in pair_counts)
    tasks: list[Task] = [("counts", (n, rest)) for n in names if rest]
    tasks += [("pair", (f"{a}+{b}", pair_counts, pair_decks,
                        {**runs["classic"].answers, **runs[a].answers, **runs[b].answers}))
              for a, b in couples]
    done = campaign.run(run_task, tasks, opts, label="house rules: pairs", unit="tasks")
    split = len(tasks) - len(couples)  # the tables' other counts, then the pairs
    others = dict(zip(names if rest else [], cast(list[PerCount], done[:split]), strict=True))
    got = cast(list[Run | str], done[split:])
    classic = _lines(_joined(runs["classic"].per, others.get("classic", {})), counts)
    singles = [single(r, runs[r.name], others.get(r.name, {}), counts, classic,
                      runs["classic"].found) for r in chosen]
    pairs = [pair(a, b, runs, pair_counts, g) for (a, b), g in zip(couples, got, strict=True)]
    ambiguities = [a for run in runs.values() for a in run.ambiguities]
    return Matrix(counts, pair_counts, classic, runs["classic"].found, singles, pairs,
                  ambiguities)
