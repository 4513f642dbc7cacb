"""The prover: one query per (property, action variant, player count).

Each query is the invariant on a fresh pre-state plus the negated claim, given
to a tactic pipeline (simplify, solve the post-state equations, then the SMT
core): measured about twice as fast here as one incremental solver with
push/pop, because the incremental solver skips that preprocessing. Each query
has a time-out. A satisfiable query is a
counterexample (verdict *refuted*); a time-out or ``unknown`` gives the verdict
*unknown* with the time spent; otherwise the property is *proved*.
:func:`check_suite` runs many (property, player count) pairs in worker processes.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from functools import lru_cache
from multiprocessing import get_context
from typing import Any

import z3

from unoformal.spec.table import RuleTable
from unoformal.verification.z3.actions import Spec, wanted
from unoformal.verification.z3.properties import Property, Query, invariant, property_named
from unoformal.verification.z3.state import (
    NAMED_AT_0,
    TURN_AT_0,
    Sym,
    concrete,
    f_or,
    fand,
    fresh,
)

PROVED, REFUTED, UNKNOWN = "proved", "refuted", "unknown"
DEFAULT_TIMEOUT_MS = 5000


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
    # A refutation's counterexample in canonical text: the state, then the steps. Text,
    # so that it comes back from a worker process (a Z3 model cannot).
    shown: tuple[str, list[str]] | None = None

    def counterexample(self) -> tuple[str, list[str]] | None:
        """``shown``, rendered from the model the first time it is asked for (only the
        command prints it; the mutant runner, which refutes often, never asks)."""
        if self.shown is None and self.model is not None:
            assert self.spec is not None and self.pre is not None and self.query is not None
            # witness renders states in the engine's text form (and imports the prover)
            from unoformal.verification.z3.witness import describe, state_text
            self.shown = (state_text(self.spec, self.model, self.pre, self.spec.table),
                          describe(self.spec, self.model, self.query.steps))
        return self.shown


def make_solver(timeout_ms: int) -> z3.Solver:
    tactic = z3.Then("simplify", "propagate-values", "solve-eqs", "elim-uncnstr", "simplify",
                     "smt")
    solver = tactic.solver()
    solver.set("timeout", timeout_ms)
    return solver


@dataclass(frozen=True)
class Pre:
    """A universally quantified pre-state with its two hypotheses: the invariant, and the
    invariant without DECK-1's per-face totals (``relaxed``, tried first)."""

    state: Sym
    invariant: Any
    relaxed: Any


@lru_cache(maxsize=4)
def _setup(rules: RuleTable, n: int, symmetry: bool) -> tuple[Spec, list[Pre]]:
    """The compiled table and the pre-states with their invariant, shared by every
    property checked for the same table and player count (the actions are built once).
    Under the symmetry reduction the direction of play is split into its two values
    (left and right are not symmetric: DEAL-3 names the left), so every seat an action
    names is a known number; the mirror symmetry of the other actions is in ``_asked``."""
    spec = Spec(rules, n)
    if not symmetry:
        states = [fresh(n, spec.deck)]
    else:
        states = [fresh(n, spec.deck, turn=0, direction=d, anchor=TURN_AT_0) for d in (1, -1)]
        states += [fresh(n, spec.deck, direction=d, anchor=NAMED_AT_0) for d in (1, -1)]
    return spec, [Pre(s, invariant(spec, s), invariant(spec, s, totals=False))
                  for s in states]


def actions_read(rules: RuleTable, n: int) -> set[str]:
    """Every table entry the actions for ``n`` players read."""
    spec, states = _setup(rules, n, True)
    return {rule for pre in states for step in spec.steps(pre.state) for rule in step.reads}


def check(rules: RuleTable, prop: Property, n: int, timeout_ms: int = DEFAULT_TIMEOUT_MS,
          symmetry: bool = True, only: Callable[[Query], bool] | None = None) -> Result:
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
    queries it accepts (the mutant runner asks about the changed rule first)."""
    start = time.perf_counter()
    spec, states = _setup(rules, n, symmetry)
    if only is None:
        work: list[tuple[Pre, Iterable[Query]]] = [
            (pre, prop.queries(spec, pre.state)) for pre in states]
    else:
        work = [(pre, filter(only, queries)) for pre, queries in
                _listed(rules, prop, n, symmetry)]
    tally = _Tally()
    asked = ((pre, q) for pre, queries in work for q in queries if _asked(pre.state, q))
    for pre, query in asked:
        _alone(pre, query, tally, timeout_ms)
        if tally.refuted is not None:
            break
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


def _solve(pre: Pre, formula: Any, timeout_ms: int) -> tuple[Any, z3.Solver]:
    """The query under the relaxed hypothesis first: no property but conservation needs
    each face's number of copies, and without those 54 sums over every zone the solver
    is two to five times faster (measured). Unsatisfiable there means unsatisfiable
    under the invariant too (it implies the relaxed one), so proofs stay inductive over
    every invariant state; anything else is decided again under the invariant, so a
    counterexample is always an invariant state."""
    for hypothesis in (pre.relaxed, pre.invariant):
        solver = make_solver(timeout_ms)
        solver.add(hypothesis, formula)
        answer = solver.check()
        if answer == z3.unsat:
            break
    return answer, solver


# ------------------------------------------------- every property together


@dataclass
class _Tally:
    """One property's part of a joint run (``check_together``)."""

    seconds: float = 0.0
    queries: int = 0
    refuted: tuple[Query, z3.ModelRef, Pre] | None = None
    unknown: str | None = None


def check_together(rules: RuleTable, props: Sequence[Property], n: int,
                   timeout_ms: int = DEFAULT_TIMEOUT_MS, symmetry: bool = True) -> list[Result]:
    """``check`` for every property of ``props`` (that applies to ``n`` players) at once.

    The queries of every property about one action share its transition relation
    (``Query.given``), so they are asked first as one query: the hypothesis, the relation,
    and the disjunction of what each property says cannot happen across it. That query is
    unsatisfiable exactly when each of them is: then every property holds across that
    action. Otherwise the properties that fail there are asked alone, as ``check`` asks
    them, and the others together again; so the verdicts are those of ``check``, and a
    counterexample is one of the property's own queries. A property's time is the time
    of its own queries plus an equal share of each joint query it took part in."""
    props = [p for p in props if p.players(n)]
    spec, states = _setup(rules, n, symmetry)
    tallies = {p.name: _Tally() for p in props}
    for pre in states:
        groups: dict[int, list[tuple[Property, Query]]] = {}
        for prop in props:
            start = time.perf_counter()
            queries = [q for q in prop.queries(spec, pre.state) if _asked(pre.state, q)]
            tallies[prop.name].seconds += time.perf_counter() - start
            for query in queries:
                groups.setdefault(query.given.get_id(), []).append((prop, query))
        for members in groups.values():
            _ask_together(pre, members, tallies, timeout_ms)
    return [_tallied(prop, n, tallies[prop.name], spec) for prop in props]


def _ask_together(pre: Pre, members: list[tuple[Property, Query]], tallies: dict[str, _Tally],
                  timeout_ms: int) -> None:
    """The members' joint query, until it is unsatisfiable. A counterexample to it shows
    which properties fail here (those whose ``fails`` it satisfies): each of those is
    asked alone, query by query in its own order (so the counterexample reported is the
    same in every process and run), and the others together again. After a time-out
    each member is asked alone."""
    live = _unrefuted(members, tallies)
    while len(live) > 1:
        start = time.perf_counter()
        joint = fand(live[0][1].given, f_or([q.fails for _, q in live]))
        answer, solver = _solve(pre, joint, timeout_ms)
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
        failing = {p.name for p, q in live if z3.is_true(model.eval(q.fails, True))}
        for prop, query in live:
            if prop.name in failing:
                _alone(pre, query, tallies[prop.name], timeout_ms)
        live = [(p, q) for p, q in _unrefuted(live, tallies) if p.name not in failing]
    for prop, query in live:
        _alone(pre, query, tallies[prop.name], timeout_ms)


def _alone(pre: Pre, query: Query, tally: _Tally, timeout_ms: int) -> None:
    if tally.refuted is not None:
        return
    start = time.perf_counter()
    answer, solver = _solve(pre, query.formula, timeout_ms)
    tally.seconds += time.perf_counter() - start
    tally.queries += 1
    if answer == z3.sat:
        tally.refuted = (query, solver.model(), pre)
    elif answer == z3.unknown and tally.unknown is None:
        tally.unknown = f"{query.label}: {solver.reason_unknown()}"


def _unrefuted(members: list[tuple[Property, Query]],
               tallies: dict[str, _Tally]) -> list[tuple[Property, Query]]:
    return [(p, q) for p, q in members if tallies[p.name].refuted is None]


def _tallied(prop: Property, n: int, tally: _Tally, spec: Spec) -> Result:
    if tally.refuted is not None:
        query, model, pre = tally.refuted
        return Result(prop, n, REFUTED, tally.seconds, tally.queries, query.label, model,
                      query, pre.state, spec)
    verdict = UNKNOWN if tally.unknown is not None else PROVED
    result = Result(prop, n, verdict, tally.seconds, tally.queries, tally.unknown)
    if tally.unknown is not None:
        result.notes.append(tally.unknown)
    return result


# ------------------------------------------------------- a suite in parallel

_Row = tuple[str, int, str, float, int, str | None, list[str], tuple[str, list[str]] | None]


def _check_counts(rules: RuleTable, names: Sequence[str], counts: Sequence[int],
                  timeout_ms: int) -> list[_Row]:
    """Worker: every named property for each count of ``counts``, in that order."""
    props = [property_named(name) for name in names]
    return [(r.prop.name, r.n, r.verdict, r.seconds, r.queries, r.label, r.notes,
             r.counterexample()) for n in counts for r in check_together(rules, props, n,
                                                                           timeout_ms)]


def shares(counts: Sequence[int], jobs: int) -> list[list[int]]:
    """``counts`` split among ``jobs`` workers, fixed before they start: each worker checks
    its counts in order, in its own process, so what Z3 has seen before a count (which
    decides which counterexample it finds) is the same in every run. Largest first, each
    to the least loaded worker, a count weighing ``n + 3`` (a count's time grows about
    linearly: 2 players take about a third of 10, measured)."""
    out: list[list[int]] = [[] for _ in range(max(1, min(jobs, len(counts))))]
    load = [0] * len(out)
    for n in sorted(set(counts), reverse=True):
        i = load.index(min(load))
        out[i].append(n)
        load[i] += n + 3
    return out


def check_suite(rules: RuleTable, props: Sequence[Property], counts: Sequence[int],
                timeout_ms: int = DEFAULT_TIMEOUT_MS, jobs: int = 1) -> list[Result]:
    """``check_together`` for every player count, in ``jobs`` worker processes (the counts
    are independent; one process per core, each with its ``shares``). Results come back in
    the order of ``counts`` then ``props``. A worker cannot send a Z3 model back: a
    refutation from a worker has its counterexample as text (``Result.shown``) and no
    model. The same command gives the same counterexamples; another ``--jobs`` may give
    another (equally valid) one, never another verdict."""
    if jobs <= 1 or len(counts) <= 1:
        return [r for n in counts for r in check_together(rules, props, n, timeout_ms)]
    names = [p.name for p in props]
    rows: dict[tuple[str, int], _Row] = {}
    with ProcessPoolExecutor(jobs, mp_context=get_context("spawn")) as pool:
        futures = [pool.submit(_check_counts, rules, names, share, timeout_ms)
                   for share in shares(counts, jobs)]
        for future in futures:
            rows.update({(row[0], row[1]): row for row in future.result()})
    out: list[Result] = []
    for n in counts:
        for prop in props:
            if prop.players(n):
                _, _, verdict, seconds, queries, label, notes, shown = rows[(prop.name, n)]
                out.append(Result(prop, n, verdict, seconds, queries, label, notes=notes,
                                  shown=shown))
    return out
