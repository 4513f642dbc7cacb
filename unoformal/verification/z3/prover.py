"""The prover: one query per (property, action variant), about one player count or
several at once (the number of players a symbol: ``Spec``).

Each query is the invariant on a fresh pre-state plus the negated claim, given
to a tactic pipeline (simplify, solve the post-state equations, then the SMT
core): measured about twice as fast here as one incremental solver with
push/pop, because the incremental solver skips that preprocessing. Each query
has a time-out. A satisfiable query is a
counterexample (verdict *refuted*, at the model's player count); a time-out or
``unknown`` gives the verdict *unknown* with the time spent; otherwise the property
is *proved*. :func:`check_suite` splits the player counts among worker processes.
"""

from __future__ import annotations

import pickle
import subprocess
import sys
import time
from collections.abc import Callable, Collection, Iterable, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

import z3

from unoformal.rulebook.table import RuleTable
from unoformal.runtime import campaign
from unoformal.verification.z3 import answers
from unoformal.verification.z3.actions import Spec, Step, wanted
from unoformal.verification.z3.properties import (
    STEPS_ENABLED,
    TRUE,
    Property,
    Query,
    invariant,
    property_named,
)
from unoformal.verification.z3.solver import make_solver
from unoformal.verification.z3.state import (
    NAMED_AT_0,
    TURN_AT_0,
    Sym,
    concrete,
    f_or,
    fand,
    forget_lists,
    fresh,
)
from unoformal.verification.z3.vacuity import Need, Witnesses

PROVED, REFUTED, UNKNOWN, VACUOUS = "proved", "refuted", "unknown", "vacuous"
# The one vacuous "query" of a property none of whose actions the table has.
SWITCHED_OFF = "no action of this table (switched off)"
DEFAULT_TIMEOUT_MS = 5000
RETRY = 4  # a query that timed out about several counts: the time for each count alone


@dataclass
class Result:
    prop: Property
    n: int
    verdict: str
    seconds: float
    queries: int
    label: str | None = None  # the query that failed or timed out
    model: z3.ModelRef | None = None
    query: Query | None = None
    pre: Sym | None = None
    spec: Spec | None = None
    notes: list[str] = field(default_factory=list)
    # Verdict vacuous: the queries whose hypothesis holds in no invariant state at this
    # count (for ``steps-enabled``: the actions enabled in none).
    vacuous: list[str] = field(default_factory=list)
    # A refutation's counterexample in canonical text: the state, then the steps. Text,
    # so that it comes back from a worker process (a Z3 model cannot).
    shown: tuple[str, list[str]] | None = None

    def counterexample(self) -> tuple[str, list[str]] | None:
        """``shown``, rendered from the model the first time it is asked for (only the
        command prints it; the mutant runner, which refutes often, never asks)."""
        if self.shown is None and self.model is not None:
            assert self.spec is not None and self.pre is not None and self.query is not None
            # imported here: witness loads the engine's records and text form, which only a
            # refutation shown needs
            from unoformal.verification.z3.witness import describe, state_text
            self.shown = (state_text(self.spec, self.model, self.pre, self.spec.table),
                          describe(self.spec, self.model, self.query.steps))
        return self.shown


@dataclass(frozen=True)
class Pre:
    """A universally quantified pre-state with its two hypotheses: the invariant, and the
    invariant without DECK-1's per-face totals (``relaxed``, tried first)."""

    state: Sym
    invariant: Any
    relaxed: Any


Counts = int | tuple[int, ...]


@lru_cache(maxsize=4)
def _setup(rules: RuleTable, n: Counts, symmetry: bool) -> tuple[Spec, list[Pre]]:
    """The compiled table and the pre-states with their invariant, shared by every
    property checked for the same table and player count, or counts (the actions are
    built once).
    Under the symmetry reduction the direction of play is split into its two values
    (left and right are not symmetric: DEAL-3 names the left), so every seat an action
    names is a known number; the mirror symmetry of the other actions is in ``_asked``."""
    spec = Spec(rules, n)
    spec.forks = True  # MERCY's steps forked by the seat they give cards to (Spec.variants)
    seats = spec.n
    if not symmetry:
        states = [fresh(seats, spec.deck, knocks=spec.knocks, tag=spec.tag("s"))]
    else:
        states = [fresh(seats, spec.deck, turn=0, direction=d, anchor=TURN_AT_0,
                        knocks=spec.knocks, tag=spec.tag("s")) for d in (1, -1)]
        states += [fresh(seats, spec.deck, direction=d, anchor=NAMED_AT_0, knocks=spec.knocks,
                         tag=spec.tag("s")) for d in (1, -1)]
    return spec, [Pre(s, invariant(spec, s), invariant(spec, s, totals=False))
                  for s in states]


def forget() -> None:
    """Drop what the prover keeps between runs: the compiled tables (``_setup``), the
    queries of ``check`` (``_listed``) and the state's per-list terms. For a process that
    checks many tables in turn (the matrix's workers): what is kept of the earlier ones
    is of no use to the next, and it slowed each later run. Measured (compiled, one
    process, eight pair tasks of the matrix in turn): a pair's task run again after six
    others took 5.6-5.8 s where it first took 3.7-3.8 s; with this after each task,
    4.0-4.2 s (the objects the garbage collector tracks: 73,000, not 169,000)."""
    _setup.cache_clear()
    _listed.cache_clear()
    forget_lists()


def actions_read(rules: RuleTable, n: int) -> set[str]:
    """Every table entry the actions for ``n`` players read."""
    spec, states = _setup(rules, n, True)
    return {rule for pre in states for step in spec.steps(pre.state) for rule in step.reads}


def property_reads(rules: RuleTable, prop: Property, n: int,
                   kinds: Collection[str] | None = None) -> set[str]:
    """Every table entry the actions ``prop`` asks about at ``n`` players read, or cite
    (``Step.reads``, ``Step.rule_ids``); for ``steps-enabled``, the actions of ``kinds``
    (every action when None)."""
    spec, states = _setup(rules, n, True)
    if prop is STEPS_ENABLED:
        steps = [step for pre in states for step in _stepped(spec, pre)
                 if kinds is None or step.kind in kinds]
    else:
        steps = [step for _, queries in _listed(rules, prop, n, True)
                 for query in queries for step in query.steps]
    return {rule for step in steps for rule in (*step.reads, *step.rule_ids)}


def check(rules: RuleTable, prop: Property, n: int, timeout_ms: int = DEFAULT_TIMEOUT_MS,
          symmetry: bool = True, only: Callable[[Query], bool] | None = None,
          vacuity: bool = True) -> Result:
    """Prove ``prop`` for ``n`` players, inductively from every invariant state.

    Symmetry reduction (like a TLC ``SYMMETRY`` set, here over seat rotation): every
    action, the invariant and every property are unchanged when all seats are
    renumbered by the same rotation (seats only appear as "the player to move", "the
    next seat in the direction of play", "the dealer's left"...), so it is enough to
    check the states whose player to move is seat 0. That one equation lets the solver
    drop every "which seat" case split and makes queries about twenty times faster.
    The actions that name a seat out of turn (the dealer's start card, a catch, an
    advice: one step per seat) are checked the other way round, rotated so that the seat
    they name is seat 0, with any player to move: one step instead of one per seat.
    ``symmetry=False`` checks every seat (the tests compare both). ``only`` keeps the
    queries it accepts (the mutant runner asks about the changed rule first).
    ``vacuity``: also ask whether each query's hypothesis holds in some invariant state
    (``vacuity.py``; the mutant runner, which looks for counterexamples only, does not)."""
    start = time.perf_counter()
    spec, states = _setup(rules, n, symmetry)
    if only is None:
        work: list[tuple[Pre, Iterable[Query]]] = [
            (pre, prop.queries(spec, pre.state)) for pre in states]
    else:
        work = [(pre, filter(only, queries)) for pre, queries in
                _listed(rules, prop, n, symmetry)]
    tally = _Tally([n])
    held = _Held()
    asked = ((pre, q) for pre, queries in work for q in queries if _asked(pre.state, q))
    done: list[tuple[Pre, Query]] = []
    for pre, query in asked:
        _alone(spec, pre, query, tally, timeout_ms)
        done.append((pre, query))
        if not tally.live:
            break
    if vacuity:
        for pre in states:
            held.ask(Witnesses(spec, pre.invariant, timeout_ms),
                     _stepped(spec, pre) if prop is STEPS_ENABLED else None,
                     [(prop, q) for p, q in done if p is pre], {prop.name: tally})
        held.settle({prop.name: tally})
    tally.seconds = time.perf_counter() - start
    return _tallied(prop, n, tally, spec)


def _asked(s: Sym, query: Query) -> bool:
    """Whether a pre-state of the symmetry reduction asks ``query``: when it needs every
    step of it (``actions.wanted``); a query with no step, about the state alone, is asked
    once, by the turn-0 states whose direction is 1."""
    if not query.steps:
        return s.anchor != NAMED_AT_0 and concrete(s.direction) != -1
    return all(wanted(s, step.named, step.chiral) for step in query.steps)


@lru_cache(maxsize=64)
def _listed(rules: RuleTable, prop: Property, n: int,
            symmetry: bool) -> list[tuple[Pre, list[Query]]]:
    """Every query of ``prop`` with its pre-state, built once for the runs that ask them
    in several passes (``only``): the mutant runner asks a property's queries about the
    changed rule first and the others later. The pre-states are kept with the queries:
    ``_setup`` may have built new ones since."""
    spec, states = _setup(rules, n, symmetry)
    return [(pre, list(prop.queries(spec, pre.state))) for pre in states]


def _solve(pre: Pre, formula: Any, timeout_ms: int, relaxed: bool = True,
           settles: Sequence[tuple[Any, Any]] = ()) -> tuple[Any, z3.Solver]:
    """The query under the relaxed hypothesis first: no property but conservation needs
    each face's number of copies, and without those 54 sums over every zone the solver
    is two to five times faster (measured). Unsatisfiable there means unsatisfiable
    under the invariant too (it implies the relaxed one), so proofs stay inductive over
    every invariant state; anything else is decided again under the invariant, so a
    counterexample is always an invariant state. ``relaxed=False`` asks under the
    invariant only (a query just refuted at another player count). ``settles``: the
    (relation, claim) of each query that the answer unsatisfiable settles, kept in the
    run's answers (``answers.py``) under the hypothesis it was found under."""
    for hypothesis in (pre.relaxed, pre.invariant) if relaxed else (pre.invariant,):
        solver = make_solver(timeout_ms)
        solver.add(hypothesis, formula)
        answer = solver.check()
        if answer == z3.unsat:
            known = answers.current()
            if known is not None:
                for given, claim in settles:
                    known.learn(known.key(hypothesis, given, claim), False)
            break
    return answer, solver


def _known_unsat(pre: Pre, given: Any, claim: Any) -> bool:
    """Whether the run's answers (``answers.py``) hold the query "``given`` and ``claim``"
    to be unsatisfiable in ``pre``: under the relaxed hypothesis (so under the
    invariant, which implies it) or under the invariant."""
    known = answers.current()
    return known is not None and any(
        known.get(known.key(hypothesis, given, claim)) is False
        for hypothesis in (pre.relaxed, pre.invariant))


# ------------------------------------------------- every property together


@dataclass
class _Tally:
    """One property's part of a run: the player counts it is checked at, those not yet
    refuted (``live``: its queries are asked about them), and what was found."""

    counts: list[int]
    seconds: float = 0.0
    queries: int = 0
    refuted: dict[int, tuple[Query, z3.ModelRef, Pre]] = field(default_factory=dict)
    unknown: dict[int, str] = field(default_factory=dict)
    vacuous: dict[int, list[str]] = field(default_factory=dict)
    live: set[int] = field(init=False)

    def __post_init__(self) -> None:
        self.live = set(self.counts)


# What a long run reports as it goes (``progress`` below): the share of the work done,
# from 0 to 1, and how many verdicts (property x player count) are known.
Progress = Callable[[float, int], None]


def check_together(rules: RuleTable, props: Sequence[Property], counts: Counts,
                   timeout_ms: int = DEFAULT_TIMEOUT_MS, symmetry: bool = True,
                   vacuity: bool = True,
                   tick: Callable[[float], None] | None = None) -> list[Result]:
    """``check`` for every property of ``props`` at once, at every player count of
    ``counts`` (a property at those it applies to) at once.

    Several counts are one query: the number of players is a symbol and a state has a
    seat for the largest count (``Spec``), so a query is unsatisfiable exactly when the
    property holds at every count it is asked about. A counterexample is at one count:
    the property is refuted there, and the query is asked again about the others.

    The queries of every property about one action share its transition relation
    (``Query.given``), so they are asked first as one query: the hypothesis, the relation,
    and the disjunction of what each property says cannot happen across it. That query is
    unsatisfiable exactly when each of them is: then every property holds across that
    action. Otherwise the properties that fail there are asked alone, as ``check`` asks
    them, and the others together again; so the verdicts are those of ``check``, and a
    counterexample is one of the property's own queries. A property's time is the time
    of its own queries plus an equal share of each joint query it took part in.

    ``vacuity``: then every query's hypothesis, and every action (``steps-enabled``), is
    asked whether it holds in some invariant state at each count (``vacuity.py``), after
    the queries about that pre-state, whose counterexamples' models it reuses.

    ``tick``, if given, is told the share of the pre-states' query groups asked so far
    (the verdicts are known only at the end: a query is about every count at once)."""
    every = (counts,) if isinstance(counts, int) else tuple(sorted(set(counts)))
    spec, states = _setup(rules, every[0] if len(every) == 1 else every, symmetry)
    tallies = {p.name: _Tally([n for n in every if p.players(n)]) for p in props}
    props = [p for p in props if tallies[p.name].counts]
    held = _Held()
    for at, pre in enumerate(states):
        witnesses = Witnesses(spec, pre.invariant, timeout_ms) if vacuity else None
        groups: dict[int, list[tuple[Property, Query]]] = {}
        for prop in props:
            start = time.perf_counter()
            queries = [q for q in prop.queries(spec, pre.state) if _asked(pre.state, q)]
            tallies[prop.name].seconds += time.perf_counter() - start
            for query in queries:
                groups.setdefault(query.given.get_id(), []).append((prop, query))
        for asked, members in enumerate(groups.values()):
            _ask_together(spec, pre, members, tallies, timeout_ms, witnesses)
            if tick is not None:
                tick((at + (asked + 1) / (len(groups) + 1)) / len(states))
        if witnesses is not None:
            steps = _stepped(spec, pre) if STEPS_ENABLED.name in tallies else None
            held.ask(witnesses, steps, [m for members in groups.values() for m in members],
                     tallies)
    held.settle(tallies)
    return [_tallied(prop, n, tallies[prop.name], spec) for n in every for prop in props
            if n in tallies[prop.name].counts]


def _ask_together(spec: Spec, pre: Pre, members: list[tuple[Property, Query]],
                  tallies: dict[str, _Tally], timeout_ms: int,
                  witnesses: Witnesses | None = None) -> None:
    """The members' joint query, until it is unsatisfiable. A counterexample to it shows
    which properties fail here (those whose ``fails`` it satisfies): each of those is
    asked alone, query by query in its own order (so the query reported is the one
    ``check`` reports), and the others together again. When the counterexample already
    refutes a property's first query here, it is that query's counterexample (asking it
    alone again would only find another). After a time-out each member is asked alone.
    A member the run's answers hold unsatisfiable (``answers.py``) is not asked: as if
    the joint query had been unsatisfiable for it."""
    live = _unanswered(spec, pre, _unrefuted(members, tallies), tallies)
    while len(live) > 1:
        start = time.perf_counter()
        fails = [_within(spec, tallies[p.name].live, q.fails) for p, q in live]
        given = live[0][1].given
        joint = fand(given, f_or(fails))
        answer, solver = _solve(pre, joint, timeout_ms, settles=[(given, f) for f in fails])
        share = (time.perf_counter() - start) / len(live)
        for prop, _ in live:
            tallies[prop.name].seconds += share
        if answer == z3.unknown:
            break
        if answer == z3.unsat:
            for prop, _ in live:
                tallies[prop.name].queries += 1
            return
        model = solver.model()
        if witnesses is not None:  # an invariant state where the relation holds: reused
            witnesses.offer(live[0][1].given, model)
        failing = {p.name for (p, _), f in zip(live, fails, strict=True)
                   if z3.is_true(model.eval(f, True))}
        first: dict[str, Query] = {}
        for (prop, query), f in zip(live, fails, strict=True):
            tally = tallies[prop.name]
            if prop.name not in failing:
                continue
            if first.setdefault(prop.name, query) is query and z3.is_true(model.eval(f, True)):
                _refuted(spec, pre, query, tally, model)
                _each_count(spec, pre, query, tally, timeout_ms)
            else:
                _alone(spec, pre, query, tally, timeout_ms)
        live = [(p, q) for p, q in _unrefuted(live, tallies) if p.name not in failing]
    for prop, query in live:
        _alone(spec, pre, query, tallies[prop.name], timeout_ms)


def _unanswered(spec: Spec, pre: Pre, members: list[tuple[Property, Query]],
                tallies: dict[str, _Tally]) -> list[tuple[Property, Query]]:
    """The members whose query about their live counts the run's answers do not hold
    unsatisfiable; each of the others is counted as a query asked."""
    if answers.current() is None:
        return members
    out = []
    for prop, query in members:
        tally = tallies[prop.name]
        if _known_unsat(pre, query.given, _within(spec, tally.live, query.fails)):
            tally.queries += 1
        else:
            out.append((prop, query))
    return out


@dataclass
class _Held:
    """Across the pre-states of a run: the player counts at which each query's hypothesis
    (by property and ``Query.kind``; ``steps-enabled``: each ``Step.kind``) held in some
    invariant state, at which it was asked, and the solver's reason where it could not
    tell."""

    asked: dict[tuple[str, str], set[int]] = field(default_factory=dict)
    held: dict[tuple[str, str], set[int]] = field(default_factory=dict)
    unknown: dict[tuple[str, str], dict[int, str]] = field(default_factory=dict)

    def ask(self, witnesses: Witnesses, steps: Sequence[Step] | None,
            asked: Sequence[tuple[Property, Query]], tallies: dict[str, _Tally]) -> None:
        """Witness, in this pre-state, each query's hypothesis at the counts not refuted
        and not witnessed yet, and each action's relation (``steps``, when
        ``steps-enabled`` is checked) at every count."""
        start = time.perf_counter()
        needs: list[tuple[tuple[str, str], Need]] = []
        for prop, query in asked:
            tally = tallies[prop.name]
            key = (prop.name, query.kind)
            counts = self._wanted(key, [n for n in tally.counts if n not in tally.refuted])
            if counts:
                near = query.steps[0].relation if query.steps else TRUE
                needs.append((key, Need(query.given, query.assume, counts, near)))
        for step in steps or ():
            key = (STEPS_ENABLED.name, step.kind)
            counts = self._wanted(key, tallies[STEPS_ENABLED.name].counts)
            if counts:
                needs.append((key, Need(step.relation, TRUE, counts, step.relation)))
        witnesses.settle([need for _, need in needs])
        for key, need in needs:
            self._record(key, need.answers, witnesses.why_unknown)
        share = (time.perf_counter() - start) / max(1, len({k[0] for k, _ in needs}))
        for name in {k[0] for k, _ in needs}:
            tallies[name].seconds += share

    def _wanted(self, key: tuple[str, str], counts: Iterable[int]) -> list[int]:
        """The counts of ``counts`` at which ``key`` has no witness yet."""
        self.asked.setdefault(key, set()).update(counts)
        held = self.held.setdefault(key, set())
        return [n for n in counts if n not in held]

    def _record(self, key: tuple[str, str], answers: dict[int, Any], why: str) -> None:
        for n, answer in answers.items():
            if answer == z3.sat:
                self.held[key].add(n)
            elif answer == z3.unknown:
                self.unknown.setdefault(key, {}).setdefault(n, why)

    def settle(self, tallies: dict[str, _Tally]) -> None:
        """A query (or action) whose hypothesis held at no pre-state makes its property
        vacuous at that count; one the solver could not decide, unknown."""
        for key, counts in self.asked.items():
            tally = tallies[key[0]]
            for n in sorted(counts - self.held[key]):
                if n in tally.refuted:
                    continue
                why = self.unknown.get(key, {}).get(n)
                if why is not None:
                    tally.unknown.setdefault(n, f"hypothesis of {key[1]}: {why}")
                else:
                    tally.vacuous.setdefault(n, []).append(key[1])


def _stepped(spec: Spec, pre: Pre) -> list[Step]:
    """Every action of this pre-state, as the symmetry reduction asks them."""
    return [step for step in spec.steps(pre.state) if wanted(pre.state, step.named, step.chiral)]


def _within(spec: Spec, counts: set[int], formula: Any) -> Any:
    """``formula`` at one of ``counts`` players (``formula`` itself at every count)."""
    at = spec.count_in(counts)
    return formula if z3.is_true(at) else fand(at, formula)


def _alone(spec: Spec, pre: Pre, query: Query, tally: _Tally, timeout_ms: int) -> None:
    """``query`` alone, about every live count. A counterexample refutes the property at
    its count; the query is then asked about each other live count on its own (a query
    refuted at one count usually is at others, and a query about one count is the
    faster: measured, the TWO-1 witness at 3 to 10 players in 1.1 s instead of 1.7 s),
    under the invariant at once (the relaxed hypothesis would only be refuted too). A
    query about several counts that times out is asked about each count on its own too,
    with ``RETRY`` times the time: SEVEN-O's pass of the hands (the seat before the first
    is the last seated one) took 25 s under the invariant about 2-10 players at once, and
    1 to 5 s about each on this machine's two busy cores."""
    known = dict(tally.unknown)
    answer = _ask(spec, pre, query, tally, set(tally.live), timeout_ms, relaxed=True)
    if answer == z3.sat:
        _each_count(spec, pre, query, tally, timeout_ms)
    elif answer == z3.unknown and len(tally.live) > 1:
        for n in sorted(tally.live):
            decided = _ask_again(spec, pre, query, tally, n, timeout_ms, relaxed=True)
            if decided != z3.unknown and n not in known:
                del tally.unknown[n]  # this query's time-out, decided about n alone
            if decided == z3.sat:
                _each_count(spec, pre, query, tally, timeout_ms)


def _each_count(spec: Spec, pre: Pre, query: Query, tally: _Tally, timeout_ms: int) -> None:
    for n in sorted(tally.live):
        _ask_again(spec, pre, query, tally, n, timeout_ms, relaxed=False)


def _ask_again(spec: Spec, pre: Pre, query: Query, tally: _Tally, n: int, timeout_ms: int,
               relaxed: bool) -> Any:
    """``query`` about ``n`` players alone; after a time-out, once more with ``RETRY``
    times the time (a time-out here is the query's own, no other count's)."""
    known = tally.unknown.get(n)
    answer = _ask(spec, pre, query, tally, {n}, timeout_ms, relaxed)
    if answer != z3.unknown:
        return answer
    if known is None:
        tally.unknown.pop(n, None)
    return _ask(spec, pre, query, tally, {n}, timeout_ms * RETRY, relaxed)


def _ask(spec: Spec, pre: Pre, query: Query, tally: _Tally, counts: set[int], timeout_ms: int,
         relaxed: bool) -> Any:
    if not counts:
        return z3.unsat
    tally.queries += 1
    claim = _within(spec, counts, query.fails)  # the query's answers are kept by its parts
    if _known_unsat(pre, query.given, claim):
        return z3.unsat
    start = time.perf_counter()
    answer, solver = _solve(pre, _within(spec, counts, query.formula), timeout_ms, relaxed,
                            settles=[(query.given, claim)])
    tally.seconds += time.perf_counter() - start
    if answer == z3.sat:
        _refuted(spec, pre, query, tally, solver.model())
    elif answer == z3.unknown:
        for n in counts:
            tally.unknown.setdefault(n, f"{query.label}: {solver.reason_unknown()}")
    return answer


def _refuted(spec: Spec, pre: Pre, query: Query, tally: _Tally, model: z3.ModelRef) -> None:
    """``model`` refutes ``query`` at its number of players."""
    n = model.eval(spec.count, True).as_long()
    tally.refuted[n] = (query, model, pre)
    tally.live.discard(n)


def _unrefuted(members: list[tuple[Property, Query]],
               tallies: dict[str, _Tally]) -> list[tuple[Property, Query]]:
    return [(p, q) for p, q in members if tallies[p.name].live]


def _tallied(prop: Property, n: int, tally: _Tally, spec: Spec) -> Result:
    """The result at ``n`` players. The time of a query about several counts is shared
    equally among them."""
    seconds = tally.seconds / len(tally.counts)
    if n in tally.refuted:
        query, model, pre = tally.refuted[n]
        return Result(prop, n, REFUTED, seconds, tally.queries, query.label, model,
                      query, pre.state, spec)
    vacuous = tally.vacuous.get(n, [])
    if not tally.queries and prop is not STEPS_ENABLED:
        # every action the property speaks of is switched off by the table
        vacuous = vacuous or [SWITCHED_OFF]
    if vacuous:
        return Result(prop, n, VACUOUS, seconds, tally.queries, vacuous[0],
                      notes=[f"holds in no invariant state: {label}" for label in vacuous],
                      vacuous=list(vacuous))
    unknown = tally.unknown.get(n)
    result = Result(prop, n, PROVED if unknown is None else UNKNOWN, seconds, tally.queries,
                    unknown)
    if unknown is not None:
        result.notes.append(unknown)
    return result


# ------------------------------------------------------- a suite in parallel

_Row = tuple[str, int, str, float, int, str | None, list[str], list[str],
             tuple[str, list[str]] | None]


_Job = tuple[RuleTable, Sequence[str], tuple[int, ...], int, bool]


def check_share(job: _Job) -> list[_Row]:
    """Every named property at every count of one share, in one run, in this process."""
    rules, names, counts, timeout_ms, vacuity = job
    # Z3's own Ctrl-C handler would turn a Ctrl-C to the process group into an "unknown"
    # verdict; the command ends the workers instead.
    z3.set_param("ctrl_c", False)
    props = [property_named(name, rules) for name in names]
    return [(r.prop.name, r.n, r.verdict, r.seconds, r.queries, r.label, r.notes, r.vacuous,
             r.counterexample())
            for r in check_together(rules, props, counts, timeout_ms, vacuity=vacuity)]


def _check_counts(job: _Job) -> list[_Row]:
    """A campaign task: :func:`check_share` in a new Python process (see
    :mod:`unoformal.verification.z3.share` for why)."""
    done = subprocess.run([sys.executable, "-m", "unoformal.verification.z3.share"],
                          input=pickle.dumps(job), capture_output=True, check=False)
    if done.returncode != 0:
        last = done.stderr.decode(errors="replace").strip().splitlines()[-1:]
        raise RuntimeError(f"the share {job[2]} ended with status {done.returncode}: "
                           f"{' '.join(last)}")
    rows: list[_Row] = pickle.loads(done.stdout)
    return rows


def shares(counts: Sequence[int], jobs: int) -> list[tuple[int, ...]]:
    """``counts`` split among ``jobs`` workers, fixed before they start, as runs of
    neighbouring counts of about equal total (a worker asks one query about all of its
    counts, whose time grows with the number of counts and of seats: weighing each count
    by its number, 2-7 and 8-10 took 8.0-9.9 s against 9.4-11.5 s for 2-6 and 7-10,
    measured). Fixed, so the same command gives the same counterexamples."""
    rest = sorted(set(counts))
    out: list[tuple[int, ...]] = []
    for left in range(max(1, min(jobs, len(rest))), 0, -1):
        target = sum(rest) / left
        run: list[int] = []
        while len(rest) > left - 1 and (not run or sum(run) < target):
            run.append(rest.pop(0))
        out.append(tuple(run))
    return out


def check_suite(rules: RuleTable, props: Sequence[Property], counts: Sequence[int],
                timeout_ms: int = DEFAULT_TIMEOUT_MS, jobs: int = 1,
                vacuity: bool = True, progress: Progress | None = None,
                where: campaign.Options | None = None) -> list[Result]:
    """``check_together`` for every player count, as ``jobs`` campaign tasks
    (:mod:`unoformal.runtime.campaign`), each with its ``shares`` of the counts, on ``where``
    (default: ``jobs`` local worker processes). Results come back in the order of
    ``counts`` then ``props``. A worker cannot send a Z3 model back: a refutation from a
    worker has its counterexample as text (``Result.shown``) and no model. The same
    command gives the same counterexamples on any number of workers; another ``--jobs``
    (another split) may give another (equally valid) one, never another verdict.
    ``progress`` is told how far the run is, as it goes (in parallel: as shares end)."""
    if jobs <= 1 or len(set(counts)) <= 1:
        tick = None if progress is None else (lambda fraction: progress(fraction, 0))
        done = _in_order(check_together(rules, props, tuple(counts), timeout_ms,
                                        vacuity=vacuity, tick=tick), counts, props)
        if progress is not None:
            progress(1.0, len(done))
        return done
    names = [p.name for p in props]
    parts = shares(counts, jobs)
    ended: list[int] = []

    def share_done(index: int, rows: list[_Row]) -> None:
        ended.append(len(rows))
        if progress is not None:
            progress(len(ended) / len(parts), sum(ended))

    rows = campaign.run(_check_counts, [(rules, names, share, timeout_ms, vacuity)
                                        for share in parts],
                        where or campaign.Options(workers=jobs, bar=False), label="verify",
                        unit="player counts", weights=[len(share) for share in parts],
                        on_result=share_done)
    results = [Result(property_named(name, rules), n, verdict, seconds, queries, label, notes=notes,
                      vacuous=vacuous, shown=shown)
               for part in rows
               for name, n, verdict, seconds, queries, label, notes, vacuous, shown in part]
    return _in_order(results, counts, props)


def _in_order(results: list[Result], counts: Sequence[int],
              props: Sequence[Property]) -> list[Result]:
    at = {(r.prop.name, r.n): r for r in results}
    return [at[(p.name, n)] for n in dict.fromkeys(counts) for p in props if (p.name, n) in at]
