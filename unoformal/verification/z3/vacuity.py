"""Vacuity: a proof means something only if its hypothesis can hold.

A query is "the invariant, the action's relation, the claim's own hypothesis, and the
negated claim". If the invariant and the hypothesis hold in no state (an invariant made
unsatisfiable, an action whose guard is false), the query is unsatisfiable whatever the
claim: the property would be *proved* vacuously. So, for every query asked, the prover
also asks whether its hypothesis (``Query.hypothesis``) holds in some invariant state at
each player count, and for every action of ``Spec.steps`` (each way its draws come out,
``Step.kind``) whether it is enabled in some invariant state.

These are satisfiable queries, the cheap kind, asked of one incremental solver per
pre-state with the invariant asserted once and the player count as an assumption
(measured on the classic table at 2-7 players: 1-3 ms a query; push/pop of the count
the same within the noise; about 16 ms with a fresh solver and the tactic pipeline
the proofs use). Many of them need no solver call: a model found is kept for its relation
and count, and every hypothesis about the same relation is first evaluated in the kept
models (a model of the relation and the hypothesis of one query is a model of the
relation alone, the action's own check); the hypotheses about one relation are asked
first all at once, one query per count, and one at a time only when they conflict. A
counterexample's model, which satisfies the whole query, is offered too.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import z3

from unoformal.verification.z3.actions import Spec
from unoformal.verification.z3.state import fand


@dataclass
class Need:
    """A hypothesis to witness: ``given`` (a relation, or true) and ``assume``, at
    ``counts``; ``near`` is the action's relation it is about (``given`` itself, or the
    relation of the action whose guard a query asks about; true for a query about the
    state alone): its models are tried first, and its needs are asked together.
    ``answers`` gets sat, unsat or unknown for each count."""

    given: Any
    assume: Any
    counts: list[int]
    near: Any
    answers: dict[int, Any] = field(default_factory=dict)

    @property
    def whole(self) -> Any:
        if z3.is_true(self.assume):
            return self.given
        return self.assume if z3.is_true(self.given) else fand(self.given, self.assume)


@dataclass
class Witnesses:
    """Invariant states found for one pre-state (one symbolic state and its invariant),
    kept by the relation they satisfy and their player count."""

    spec: Spec
    invariant: Any
    timeout_ms: int
    models: dict[tuple[int, int], list[z3.ModelRef]] = field(default_factory=dict)
    asked: int = 0  # solver calls, for the benchmark
    why_unknown: str = ""  # the solver's reason, the last time it answered unknown
    _solver: z3.Solver | None = None
    _at: dict[int, Any] = field(default_factory=dict)
    _kept: list[Any] = field(default_factory=list)

    def offer(self, given: Any, model: z3.ModelRef) -> None:
        """``model`` satisfies the invariant and ``given`` (a relation) at its count (a
        counterexample's model)."""
        n = model.eval(self.spec.count, True).as_long()
        self._kept.append(given)  # its id stays its own
        self.models.setdefault((given.get_id(), n), []).append(model)

    def settle(self, needs: Sequence[Need]) -> None:
        """Answer every need, grouped by the relation they are about, count by count.
        (Merging the groups of one phase into one query per count was tried: their
        hypotheses conflict too often to gain, measured.)"""
        groups: dict[int, list[Need]] = {}
        for need in needs:
            groups.setdefault(need.near.get_id(), []).append(need)
        for group in groups.values():
            near = group[0].near
            self._kept.append(near)  # its id stays its own while models are kept by it
            left = sorted({n for need in group for n in need.counts})
            while left:
                if self._at_count(near, group, left.pop(0)) == z3.unsat:
                    self._nowhere_else(near, group, left)

    def _pending(self, near: Any, needs: list[Need], n: int) -> list[Need]:
        return [x for x in needs if n in x.counts and n not in x.answers
                and not self._kept_model_satisfies(near, x, n)]

    def _nowhere_else(self, near: Any, needs: list[Need], left: list[int]) -> None:
        """A relation that holds nowhere at one count may hold at few others (an action
        naming a seat the symmetry reduction pins to one count, such as a challenge's
        offender): one query over every count left says whether it holds at any."""
        counts = [m for m in left if any(m in x.counts for x in needs)]
        if not counts or len(self.spec.counts) == 1:
            return
        if self._check([near], fand(near, self.spec.count_in(set(counts))), None) == z3.unsat:
            for need in needs:
                if need.given.eq(near):
                    for m in counts:
                        if m in need.counts:
                            need.answers[m] = z3.unsat

    def _at_count(self, near: Any, needs: list[Need], n: int) -> Any:
        """The group's needs at ``n`` one query; if they conflict, the relation alone (when
        it holds nowhere, neither does a need that requires it), then one by one. Returns
        the relation's own answer when it was asked (sat otherwise)."""
        pending = self._pending(near, needs, n)
        if not pending or z3.is_true(near):
            for need in pending:
                if not self._kept_model_satisfies(near, need, n):
                    need.answers[n] = self._check([near], need.whole, n)
            return z3.sat
        answer = self._check([near], fand(near, *[x.assume for x in pending]), n)
        if answer == z3.sat:
            for need in pending:
                need.answers[n] = z3.sat
            return z3.sat
        alone = self._check([near], near, n) if answer == z3.unsat else z3.unknown
        for need in pending:
            if alone == z3.unsat and need.given.eq(near):
                need.answers[n] = z3.unsat
            elif not self._kept_model_satisfies(near, need, n):
                need.answers[n] = self._check([near], need.whole, n)
        return alone

    def _kept_model_satisfies(self, near: Any, need: Need, n: int) -> bool:
        if any(z3.is_true(model.eval(need.whole, True))
               for model in self.models.get((near.get_id(), n), ())):
            need.answers[n] = z3.sat
            return True
        return False

    def _check(self, nears: list[Any], formula: Any, n: int | None) -> Any:
        """``formula`` at ``n`` players (None: at the count ``formula`` says); a model is
        kept for each relation of ``nears`` (it satisfies them all)."""
        solver = self._solving()
        solver.push()
        solver.add(formula)
        at = self._at.get(n) if n is not None else None
        answer = solver.check() if at is None else solver.check(at)
        self.asked += 1
        if answer == z3.sat:
            model = solver.model()
            found = model.eval(self.spec.count, True).as_long()
            for near in nears:
                self.models.setdefault((near.get_id(), found), []).append(model)
        elif answer == z3.unknown:
            self.why_unknown = str(solver.reason_unknown())
        solver.pop()
        return answer

    def _solving(self) -> z3.Solver:
        """The solver, made on first use: the invariant, and a literal per player count
        (checked as an assumption) when the pre-state is about several."""
        if self._solver is None:
            self._solver = z3.Solver()
            self._solver.set("timeout", self.timeout_ms)
            self._solver.add(self.invariant)
            if len(self.spec.counts) > 1:
                for n in self.spec.counts:
                    self._at[n] = z3.Bool(f"vacuity.at.{n}")
                    self._solver.add(z3.Implies(self._at[n], self.spec.count_in({n})))
        return self._solver
