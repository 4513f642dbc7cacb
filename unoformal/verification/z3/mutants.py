"""Mutation checks: the proofs must be able to fail.

Every mutant is one table value changed through ``unoformal.rulebook.variants.derive``
(integers up and down, switches flipped, enumerations to each other value);
the whole verifier is run on it with no change to verification code, and the
first property that fails kills it. A mutant no property kills survives: it is
either explained as equivalent in the manifest (the model has no state that
depends on it) or a gap to close with a new property. A change the table's schema
refuses (a range, a cross-field check, a switch no interpreter reads) is no rule
table at all: it is not generated as a mutant, and :func:`refused` lists it with the
reason.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from enum import Enum
from typing import Any

from unoformal.rulebook.schema import settable
from unoformal.rulebook.table import RuleTable
from unoformal.rulebook.variants import VariantError, derive
from unoformal.runtime import campaign
from unoformal.verification.z3.manifest import equivalents, expected
from unoformal.verification.z3.properties import PROPERTIES, STEPS_ENABLED, Property, Query
from unoformal.verification.z3.prover import REFUTED, actions_read, check


@dataclass(frozen=True)
class Mutant:
    rule_id: str
    key: str
    value: Any

    @property
    def name(self) -> str:
        value = self.value.value if isinstance(self.value, Enum) else self.value
        return f"{self.rule_id}.{self.key}={value}"

    def table(self, base: RuleTable) -> RuleTable:
        return derive(base, f"mutant:{self.name}", f"mutant {self.name}",
                      {self.rule_id: {self.key: self.value}})


@dataclass
class Outcome:
    mutant: Mutant
    killed_by: str | None  # "property (n players, action)"
    seconds: float
    equivalent: str | None = None


def _values(value: Any) -> list[Any]:
    if isinstance(value, bool):
        return [not value]
    if isinstance(value, int):
        return sorted({value + 1, max(value - 1, 0)} - {value})
    if isinstance(value, Enum):
        return [v for v in type(value) if v is not value]
    return []


def candidates(base: RuleTable) -> Iterator[Mutant]:
    """Each numeric value, each switch (guard clause) and each effect, changed once."""
    seen: set[str] = set()
    for _, entry in base.entries():
        if entry.id in seen:
            continue  # derive() changes the first entry with an ID
        seen.add(entry.id)
        # What a variant may set: no switch where no interpreter reads it, no label
        # (the ``kind`` an entry is found by).
        for key in settable(entry):
            value = getattr(entry, key)
            if isinstance(value, tuple):
                continue  # DECK-1 counts per rank, NOSTACK-1 answers: not mutated
            for new in _values(value):
                yield Mutant(entry.id, key, new)


def mutants(base: RuleTable) -> Iterator[Mutant]:
    """The candidates the table's schema admits."""
    for mutant in candidates(base):
        if _refusal(mutant, base) is None:
            yield mutant


def refused(base: RuleTable) -> list[tuple[Mutant, str]]:
    """The candidates the schema refuses, each with the refusal (skipped, and counted by
    ``unoformal verify --mutants`` callers that want the figure)."""
    out = []
    for mutant in candidates(base):
        why = _refusal(mutant, base)
        if why is not None:
            out.append((mutant, why))
    return out


def _refusal(mutant: Mutant, base: RuleTable) -> str | None:
    try:
        mutant.table(base)
    except VariantError as err:
        return str(err)
    return None


def run(base: RuleTable, players: tuple[int, ...] = (2, 3), timeout_ms: int = 3000,
        on_done: Callable[[Outcome], None] | None = None,
        check_equivalents: bool = False,
        where: campaign.Options | None = None) -> list[Outcome]:
    """Run every property on every mutant until one kills it, each mutant one campaign
    task (:mod:`unoformal.runtime.campaign`; ``where`` None: in this process), the outcomes in
    the order of :func:`mutants`. Mutants the manifest explains as equivalent are
    reported without running (each would cost a whole suite) unless
    ``check_equivalents``."""
    explained = equivalents()
    jobs = [(base, mutant, players, timeout_ms,
             explained.get(f"{mutant.rule_id}.{mutant.key}", explained.get(mutant.rule_id)),
             check_equivalents) for mutant in mutants(base)]
    return campaign.run(outcome, jobs, where or campaign.Options(workers=1, bar=False),
                        label="mutants", unit="mutants",
                        on_result=None if on_done is None else lambda _, o: on_done(o))


def outcome(job: tuple[RuleTable, Mutant, tuple[int, ...], int, str | None, bool]) -> Outcome:
    """A campaign task: one mutant, killed by the first property that fails on it, or
    equivalent for the reason ``why`` (then not run, unless ``check``)."""
    base, mutant, players, timeout_ms, why, check = job
    start = time.perf_counter()
    killer = None
    if why is None or check:
        killer = _kill(base, mutant.table(base), REFUTABLE, players, timeout_ms)
    return Outcome(mutant, killer, time.perf_counter() - start,
                   why if killer is None else None)


# Every property that a counterexample can refute (steps-enabled is found vacuous or not).
REFUTABLE = tuple(p for p in PROPERTIES if p is not STEPS_ENABLED)

# Cheap, focused properties first (measured): the ones that quantify over every action
# come last.
_LAST = ("reshuffle-keeps-top", "seated", "scoring", "one-card-per-turn", "conservation",
         "invariant")


def changed_rules(base: RuleTable, table: RuleTable) -> set[str]:
    """The IDs of the entries ``table`` changes from ``base`` (a mutant, or any table
    derived from its base)."""
    pairs = zip(base.rulebook_entries(), table.rulebook_entries(), strict=True)
    return {new.id for (_, old), (_, new) in pairs if old != new} | \
        set(table.house_changed(base))


_Work = list[tuple[Property, Callable[[Query], bool]]]


def _plan(props: tuple[Property, ...], ids: set[str]) -> list[_Work]:
    """The work in order of relevance to the changed rules ``ids``: the cheap properties
    that cite one of them, each with its queries about one (an action that reads it)
    first; then the queries about one in every other property; then the rest, the
    properties that cite one first. Every query is asked once, and the first
    counterexample ends the run."""
    def about(query: Query) -> bool:
        return any(ids.intersection(step.reads.union(step.rule_ids)) for step in query.steps)

    def rest(query: Query) -> bool:
        return not about(query)

    order = sorted(props, key=lambda p: _LAST.index(p.name) + 1 if p.name in _LAST else 0)
    cites = [p for p in order if ids.intersection(p.rule_ids)]
    first = [p for p in cites if p.name not in _LAST]
    late = [p for p in cites if p not in first] + [p for p in order if p not in cites]
    return [[(p, only) for p in first for only in (about, rest)],
            [(p, about) for p in late], [(p, rest) for p in late]]


def _kill(base: RuleTable, table: RuleTable, props: tuple[Property, ...],
          players: tuple[int, ...], timeout_ms: int) -> str | None:
    """The first property whose verdict departs from what the manifest expects of ``base``
    (a counterexample: only refutations kill)."""
    ids = changed_rules(base, table)
    first, about, rest = _plan(props, ids)
    for work in (first, about, rest):
        for n in players:
            if work is about and not ids.intersection(actions_read(table, n)):
                continue  # no query is about them: skip building every query twice
            for prop, only in work:
                if not prop.players(n) or expected(base, prop.name, n).verdict == REFUTED:
                    continue
                # Vacuity is not asked: a mutant is killed by a counterexample only.
                result = check(table, prop, n, timeout_ms, only=only, vacuity=False)
                if result.verdict == REFUTED:
                    return f"{prop.name} ({n} players, {result.label})"
    return None


def score(outcomes: list[Outcome]) -> float:
    counted = [o for o in outcomes if o.equivalent is None]
    killed = [o for o in counted if o.killed_by is not None]
    return len(killed) / len(counted) if counted else 1.0


