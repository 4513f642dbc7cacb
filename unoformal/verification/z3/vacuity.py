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
literal; a formula is added once and checked at each count (measured on the classic
table at 2-7 players: 1-3 ms a check; a fresh solver with the tactic pipeline the proofs
use, about 16 ms). The needs about one action are asked together first (its relation
and every hypothesis about it, which also answers ``steps-enabled`` for it); only where
they conflict (a claim about a player with two cards, another about more) is the
relation asked alone, then each hypothesis, after evaluating it in the models kept so
far (a counterexample's model, which satisfies the whole query, among them).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import z3

from unoformal.verification.z3 import answers
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
        """Answer every need. The needs about one action first all together (its relation
        and every hypothesis about it), then, at the counts where they conflict, the
        relation alone (where it holds nowhere, neither does a need that requires it),
        then each need. Each formula is added once and checked at each count: it is
        internalized once (measured: a third less time than one formula per count).
        (Merging the actions of one phase into one query per count was tried: their
        hypotheses conflict too often to gain, measured.)"""
        groups: dict[int, list[Need]] = {}
        for need in needs:
            groups.setdefault(need.near.get_id(), []).append(need)
        for group in groups.values():
            near = group[0].near
            self._kept.append(near)  # its id stays its own while models are kept by it
            counts = sorted({n for need in group for n in need.counts})
            if not z3.is_true(near):
                every = fand(near, *[x.assume for x in group])
                # A model of everything answers the whole group: no need to keep it.
                failed = [n for n, a in self._each_count(near, every, counts, False).items()
                          if a != z3.sat]
                for n in counts:
                    if n not in failed:
                        for need in group:
                            if n in need.counts:
                                need.answers.setdefault(n, z3.sat)
                for n, answer in self._each_count(near, near, failed).items():
                    for need in group:
                        if answer == z3.unsat and need.given.eq(near) and n in need.counts:
                            need.answers[n] = z3.unsat
            for need in group:
                left = [n for n in need.counts if n not in need.answers
                        and not self._kept_model_satisfies(near, need, n)]
                need.answers.update(self._each_count(near, need.whole, left))

    def _each_count(self, near: Any, formula: Any, counts: list[int],
                    keep: bool = True) -> dict[int, Any]:
        """``formula`` at each of ``counts`` (added once); a model is kept by ``near``
        (when ``keep``: getting a model costs about as much as a third of a check). An
        answer the run's answers hold (``answers.py``) is not asked again, and one found
        is kept there."""
        known = answers.current()
        keys: dict[int, bytes] = {}
        out: dict[int, Any] = {}
        if known is not None:
            for n in counts:
                keys[n] = known.key(self.invariant, formula, n)
                got = known.get(keys[n])
                if got is not None:
                    out[n] = z3.sat if got else z3.unsat
        left = [n for n in counts if n not in out]
        if not left:
            return {n: out[n] for n in counts}
        solver = self._solving()
        solver.push()
        solver.add(formula)
        for n in left:
            at = self._at.get(n)
            out[n] = answer = solver.check() if at is None else solver.check(at)
            self.asked += 1
            if answer == z3.sat and keep:
                self.models.setdefault((near.get_id(), n), []).append(solver.model())
            elif answer == z3.unknown:
                self.why_unknown = str(solver.reason_unknown())
            if known is not None and answer != z3.unknown:
                known.learn(keys[n], answer == z3.sat)
        solver.pop()
        return {n: out[n] for n in counts}

    def _kept_model_satisfies(self, near: Any, need: Need, n: int) -> bool:
        if any(z3.is_true(model.eval(need.whole, True))
               for model in self.models.get((near.get_id(), n), ())):
            need.answers[n] = z3.sat
            return True
        return False

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
