"""The live Z3 relation (``unoformal.verification.z3.actions``) agrees with the frozen one
(``tests.reference.relation_v1``), action by action, proved by Z3.

For a rule table and a player count, both relations are built from ONE fresh symbolic
pre-state: the live ``Sym`` of fresh constants, and the frozen ``Sym`` made of the very
same constants, field by field through :data:`FIELDS` (live field name -> frozen field
name: a field renamed on main is one line there). No symmetry reduction: the pre-state
is fully symbolic (the player to move, the direction, every seat), so every named step of
``Spec.steps`` is asked, at every seat it names (``catch[target 3]``, ``start_number[dealer
1]``...), in every variant of its draws (``[pile]``, ``[reshuffle]``).

An action is identified by its label (``Step.label``: the name and the variant); both
relations must have the same labels. A step's own choices (the card played, the color
named, the seat acting, the cards each draw takes, the hands dealt) are Z3 constants each
relation makes for itself: the frozen step's are replaced by the live step's, matched by
role (``Step.choices`` by key, ``Step.takes`` and ``Step.dealt`` by position), never by
name. Then, for each action:

- guard: ``guard_live <=> guard_frozen`` (unsat of their XOR);
- draws (the chance constraint on the cards drawn, ``Step.draws``):
  ``guard => (draws_live <=> draws_frozen)``;
- post-state: ``guard and draws => post_live.f == post_frozen.f`` for every field ``f`` of
  :data:`FIELDS`, count by count (each hand's face, the pile's, ...), and for the seat
  acting (``mover``) and the card named (``face``);
- ``in_next``, ``named``, ``chiral``: equal (they decide what the prover asks). The rule
  IDs a step cites and the entries it reads are citations, not meaning: not compared.

Two terms that are the same Z3 term (Z3 shares equal terms) are equal without a query:
while the live relation is today's code, nearly every comparison is settled so. Any
other is asked with no hypothesis first; if that fails it is asked again under the
prover's invariant (``unoformal.verification.z3.properties.invariant``: TypeOK plus the
strengthening, DECK-1's totals included), and a query proved only there is a pass noted
"under the invariant" (the relations differ only in states no game reaches). A
difference is shown with the model of that second query, an invariant state, in words.
Every query has a timeout; an unknown is a failure, not a pass.

Run: ``python -m tests.reference.relation_agree [--variants all|a,b] [--players 2-10]
[--workers N] [--timeout SECONDS]``.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable, Collection, Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from typing import Any

import z3

from tests.reference import FROZEN_VARIANTS
from unoformal.rulebook.table import RuleTable
from unoformal.rulebook.variants import load_rules
from unoformal.verification.z3 import actions as live_actions
from unoformal.verification.z3 import state as live_state
from unoformal.verification.z3.properties import invariant

from .relation_v1 import actions as frozen_actions
from .relation_v1 import state as frozen_state

# The live Sym's fields -> the frozen Sym's (a field renamed on main: change its key).
FIELDS: dict[str, str] = {
    "hands": "hands",
    "pile": "pile",
    "disc": "disc",
    "top": "top",
    "turn": "turn",
    "direction": "direction",
    "color": "color",
    "phase": "phase",
    "dealer": "dealer",
    "drawn": "drawn",
    "pending": "pending",
    "pending_kind": "pkind",
    "offender": "offender",
    "wd4_legal": "legal",
    "prev_color": "prev",
    "uno_window": "uno",
    "winner": "winner",
    "round_points": "points",
    "scores": "scores",
}
# Live fields the frozen relation has not: each empty under every table it is compared
# on (MERCY's flags, Sym.out, hold nothing where nobody is knocked out).
LIVE_ONLY = frozenset({"out"})

TIMEOUT_S = 30.0  # per query
STEP_FLAGS = ("in_next", "named", "chiral")


@dataclass(frozen=True)
class Difference:
    """One way the relations differ: the action (its label, or ``*`` for the set of
    actions), the part that differs (``guard``, ``draws``, ``post.<live field>``,
    ``mover``, ``face``, ``actions``, ...), and in words why, from a Z3 model."""

    action: str
    part: str
    words: str

    def __str__(self) -> str:
        return f"{self.action}: {self.part}: {self.words}"


@dataclass
class Report:
    """The check of one table at one player count."""

    variant: str
    players: int
    actions: int = 0  # labels compared (both relations' together)
    proved: int = 0  # actions whose every part was proved equal
    queries: int = 0  # asked of Z3 (the others were the same term)
    seconds: float = 0.0
    differences: list[Difference] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.differences and self.proved == self.actions

    def parts_differing(self) -> set[tuple[str, str]]:
        return {(d.action, d.part) for d in self.differences}


class FieldsOutOfDate(Exception):
    """:data:`FIELDS` does not name every field of the live and of the frozen ``Sym``."""


def check_fields() -> None:
    live = set(live_state.STATE_FIELDS) - LIVE_ONLY
    frozen = set(frozen_state.STATE_FIELDS)
    if set(FIELDS) != live or set(FIELDS.values()) != frozen:
        raise FieldsOutOfDate(
            f"FIELDS is out of date: live fields not in it {sorted(live - set(FIELDS))}, "
            f"keys not live {sorted(set(FIELDS) - live)}, frozen fields not in it "
            f"{sorted(frozen - set(FIELDS.values()))}, values not frozen "
            f"{sorted(set(FIELDS.values()) - frozen)}")


def pre_states(spec: Any, n: int) -> tuple[Any, Any]:
    """One fresh symbolic pre-state, as a live ``Sym`` and as a frozen one made of the
    same constants (the frozen fields named through :data:`FIELDS`)."""
    live = live_state.fresh(n, spec.deck, "agree")
    assert not any(getattr(live, name) for name in LIVE_ONLY)  # nothing the frozen lacks
    frozen = frozen_state.Sym(n=n, **{FIELDS[name]: getattr(live, name)
                                      for name in live_state.STATE_FIELDS
                                      if name not in LIVE_ONLY})
    return live, frozen


# ------------------------------------------------------------------ terms


def _term(x: Any) -> Any:
    if isinstance(x, bool):
        return z3.BoolVal(x)
    if isinstance(x, int):
        return z3.IntVal(x)
    return x


def _is_constant(x: Any) -> bool:
    return (z3.is_expr(x) and z3.is_const(x)
            and x.decl().kind() == z3.Z3_OP_UNINTERPRETED)


def _leaves(x: Any, name: str) -> Iterator[tuple[str, Any]]:
    """A field's terms with their names (``hands[1][5]`` is seat 1's count of face 5)."""
    if isinstance(x, list):
        for i, item in enumerate(x):
            yield from _leaves(item, f"{name}[{i}]")
    else:
        yield name, x


class _Renaming:
    """The frozen step's own constants replaced by the live step's (by the C API, with
    the arrays built once per step: z3py's ``substitute`` checks every pair in Python,
    on every call, which took most of the check's time)."""

    def __init__(self, pairs: list[tuple[Any, Any]]) -> None:
        pairs = [(f, v) for f, v in pairs if not f.eq(v)]
        self.ids = {f.get_id() for f, _ in pairs}
        self.n = len(pairs)
        self.ctx = pairs[0][0].ctx if pairs else None
        self.keep = pairs  # the terms the arrays point into stay alive
        self.sources = (z3.Ast * self.n)(*[f.as_ast() for f, _ in pairs])
        self.targets = (z3.Ast * self.n)(*[v.as_ast() for _, v in pairs])

    def __call__(self, x: Any) -> Any:
        x = _term(x)
        if not self.n or (_is_constant(x) and x.get_id() not in self.ids):
            return x
        ast = z3.Z3_substitute(self.ctx.ref(), x.as_ast(), self.n, self.sources, self.targets)
        return z3.z3._to_expr_ref(ast, self.ctx)


def _pairs(live: Any, frozen: Any) -> tuple[list[tuple[Any, Any]], list[str]]:
    """The frozen step's constants matched to the live step's by role, and what could not
    be matched (different choices, a different number of draws)."""
    pairs: list[tuple[Any, Any]] = []
    odd: list[str] = []
    if set(live.choices) != set(frozen.choices):
        odd.append(f"choices live {sorted(live.choices)}, frozen {sorted(frozen.choices)}")
    for key in sorted(set(live.choices) & set(frozen.choices)):
        a, b = live.choices[key], frozen.choices[key]
        if _is_constant(a) and _is_constant(b):
            pairs.append((b, a))
    if len(live.takes) != len(frozen.takes):
        odd.append(f"draws live {len(live.takes)}, frozen {len(frozen.takes)}")
    for (a, _), (b, _) in zip(live.takes, frozen.takes, strict=False):
        pairs += [(y, x) for x, y in zip(a, b, strict=True) if _is_constant(y)]
    if len(live.dealt) != len(frozen.dealt):
        odd.append(f"hands dealt live {len(live.dealt)}, frozen {len(frozen.dealt)}")
    for a, b in zip(live.dealt, frozen.dealt, strict=False):
        pairs += [(y, x) for x, y in zip(a, b, strict=True) if _is_constant(y)]
    return pairs, odd


# ----------------------------------------------------------------- queries


class _Asker:
    """Z3 queries with a timeout: with no hypothesis, then under the invariant."""

    def __init__(self, hypothesis: Callable[[], Any], timeout_ms: int) -> None:
        self._hypothesis = hypothesis
        self._built: Any = None
        self.timeout_ms = timeout_ms
        self.count = 0

    def hypothesis(self) -> Any:
        if self._built is None:
            self._built = self._hypothesis()
        return self._built

    def _check(self, formulas: Sequence[Any]) -> tuple[Any, Any]:
        self.count += 1
        solver = z3.Solver()
        solver.set("timeout", self.timeout_ms)
        solver.add(*formulas)
        verdict = solver.check()
        if verdict == z3.sat:
            return verdict, solver.model()
        return verdict, solver.reason_unknown() if verdict == z3.unknown else None

    def ask(self, *formulas: Any) -> tuple[str, Any]:
        """``("proved", None)``, ``("invariant", None)`` (proved only under the
        invariant), ``("differs", model)`` or ``("unknown", reason)``: the formulas are the
        difference, so unsat is agreement."""
        verdict, _ = self._check(formulas)
        if verdict == z3.unsat:
            return "proved", None
        verdict, found = self._check([self.hypothesis(), *formulas])
        if verdict == z3.unsat:
            return "invariant", None
        if verdict == z3.sat:
            return "differs", found
        return "unknown", found


# ------------------------------------------------------------------- words


class _Words:
    """A model in words: the pre-state's control fields, a step's choices, a count."""

    def __init__(self, spec: Any, pre: Any) -> None:
        self.spec, self.pre = spec, pre
        self.codes = [spec.deck.code(g) for g in range(spec.nfaces)]

    def value(self, m: Any, x: Any) -> Any:
        v = m.eval(_term(x), model_completion=True)
        if z3.is_true(v) or z3.is_false(v):
            return z3.is_true(v)
        return v.as_long() if z3.is_int_value(v) else str(v)

    def face(self, k: Any) -> str:
        return self.codes[k] if isinstance(k, int) and 0 <= k < len(self.codes) else str(k)

    def color(self, k: Any) -> str:
        colors = self.spec.deck.colors
        return colors[k].value if isinstance(k, int) and 0 <= k < len(colors) else str(k)

    def state(self, m: Any) -> str:
        s = self.pre
        v = lambda x: self.value(m, x)  # noqa: E731
        phase = live_state.PHASE_NAMES.get(v(s.phase), v(s.phase))
        hands = "; ".join(
            f"seat {p}: " + " ".join(f"{v(h[g])}x{self.codes[g]}" for g in range(len(h))
                                     if v(h[g]) != 0)
            for p, h in enumerate(s.hands))
        return (f"phase {phase}, turn {v(s.turn)}, direction {v(s.direction)}, top "
                f"{self.face(v(s.top))}, color {self.color(v(s.color))}, drawn "
                f"{self.face(v(s.drawn))}, pending {v(s.pending)}, offender {v(s.offender)}, "
                f"uno window {v(s.uno_window)}, dealer {v(s.dealer)}, hands [{hands}]")

    def choices(self, m: Any, step: Any) -> str:
        out = []
        for key, x in sorted(step.choices.items()):
            k = self.value(m, x)
            shown = self.face(k) if key == "face" else self.color(k) if key == "color" else k
            out.append(f"{key} {shown}")
        return ", ".join(out)

    def leaf(self, name: str) -> str:
        """``hands[1][5]`` -> ``hands[seat 1][R5]`` (faces by their codes)."""
        if name.startswith(("hands[", "pile[", "disc[")):
            head, _, rest = name.partition("[")
            parts = rest.rstrip("]").split("][")
            if head == "hands":
                return f"hands[seat {parts[0]}][{self.codes[int(parts[1])]}]"
            return f"{head}[{self.codes[int(parts[0])]}]"
        return name


# ------------------------------------------------------------------- check


def _labelled(steps: Sequence[Any]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for step in steps:
        label, k = step.label, 1
        while label in out:  # two steps of one label: told apart by their order
            k += 1
            label = f"{step.label}#{k}"
        out[label] = step
    return out


def check(rules: RuleTable, players: int, variant: str = "",
          timeout_s: float = TIMEOUT_S, names: Collection[str] | None = None) -> Report:
    """Prove the live relation equal to the frozen one for ``rules`` at ``players``
    (only the actions called ``names``, when given)."""
    check_fields()
    start = time.perf_counter()
    report = Report(variant or "?", players)
    live_spec = live_actions.Spec(rules, players)
    frozen_spec = frozen_actions.Spec(rules, players)
    live_pre, frozen_pre = pre_states(live_spec, players)
    live = _labelled([s for s in live_spec.steps(live_pre) if names is None or s.name in names])
    frozen = _labelled([s for s in frozen_spec.steps(frozen_pre)
                        if names is None or s.name in names])
    asker = _Asker(lambda: invariant(live_spec, live_pre), int(timeout_s * 1000))
    words = _Words(live_spec, live_pre)
    labels = list(live) + [label for label in frozen if label not in live]
    report.actions = len(labels)
    for label in labels:
        if label not in frozen:
            report.differences.append(Difference(label, "actions",
                                                 "an action of the live relation only"))
            continue
        if label not in live:
            report.differences.append(Difference(label, "actions",
                                                 "an action of the frozen relation only"))
            continue
        found = _compare(live[label], frozen[label], label, asker, words, report.notes)
        report.differences += found
        report.proved += not found
    report.queries = asker.count
    report.seconds = time.perf_counter() - start
    return report


def _compare(a: Any, b: Any, label: str, asker: _Asker, words: _Words,
             notes: list[str]) -> list[Difference]:
    """The differences between the live step ``a`` and the frozen step ``b``."""
    out: list[Difference] = []
    pairs, odd = _pairs(a, b)
    out += [Difference(label, "choices", text) for text in odd]
    rename = _Renaming(pairs)
    for flag in STEP_FLAGS:
        if getattr(a, flag) != getattr(b, flag):
            out.append(Difference(label, flag, f"live {getattr(a, flag)}, frozen "
                                               f"{getattr(b, flag)}"))

    def settle(part: str, *difference: Any) -> Any:
        """Ask; a difference's model, or None when proved (an unknown is a failure)."""
        verdict, found = asker.ask(*difference)
        if verdict == "invariant":
            notes.append(f"{label}: {part} proved under the invariant only")
        elif verdict == "unknown":
            out.append(Difference(label, part, f"unknown to Z3 ({found}): not proved"))
        elif verdict == "differs":
            return found
        return None

    guard_a, guard_b = _term(a.guard), rename(b.guard)
    if not guard_a.eq(guard_b):
        m = settle("guard", z3.Xor(guard_a, guard_b))
        if m is not None:
            out.append(Difference(label, "guard", (
                f"enabled in live {words.value(m, guard_a)}, in frozen "
                f"{words.value(m, guard_b)}; choices {words.choices(m, a)}; "
                f"state {words.state(m)}")))
    draws_a, draws_b = _term(a.draws), rename(b.draws)
    if not draws_a.eq(draws_b):
        m = settle("draws", guard_a, z3.Xor(draws_a, draws_b))
        if m is not None:
            drawn = [sum(words.value(m, x) for x in cards) for _, cards in a.takes]
            out.append(Difference(label, "draws", (
                f"the cards drawn: {drawn} card(s) per draw allowed by live "
                f"{words.value(m, draws_a)}, by frozen {words.value(m, draws_b)}; "
                f"state {words.state(m)}")))
    leaves = [(f"post.{live_name}", leaf, x, y)
              for live_name, frozen_name in FIELDS.items()
              for (leaf, x), (_, y) in zip(_leaves(getattr(a.post, live_name), live_name),
                                           _leaves(getattr(b.post, frozen_name), live_name),
                                           strict=True)]
    leaves += [("mover", "mover", a.mover, b.mover), ("face", "face", a.face, b.face)]
    unequal = []
    for part, leaf, x, y in leaves:
        if x is y:  # one Python object: a term of the shared pre-state, left as it was
            continue
        x, y = _term(x), rename(y)
        if not x.eq(y):
            unequal.append((part, leaf, x, y))
    if unequal:
        m = settle(", ".join(sorted({part for part, *_ in unequal})), guard_a, draws_a,
                   z3.Or([x != y for _, _, x, y in unequal]))
        if m is not None:
            for part, leaf, x, y in unequal:
                vx, vy = words.value(m, x), words.value(m, y)
                if vx != vy:
                    out.append(Difference(label, part, (
                        f"{words.leaf(leaf)} after it: live {vx}, frozen {vy}; choices "
                        f"{words.choices(m, a)}; state {words.state(m)}")))
    return out


# --------------------------------------------------------------------- CLI


def _job(job: tuple[str, int, float]) -> Report:
    name, n, timeout_s = job
    return check(load_rules(name), n, name, timeout_s)


def run(variants: Sequence[str], players: Sequence[int], workers: int = 1,
        timeout_s: float = TIMEOUT_S) -> list[Report]:
    """Every (variant, players), in this order (the order of the result too)."""
    jobs = [(name, n, timeout_s) for name in variants for n in players]
    if workers <= 1:
        return [_job(job) for job in jobs]
    with ProcessPoolExecutor(max_workers=workers) as pool:
        return list(pool.map(_job, jobs))


def _players(text: str) -> list[int]:
    out: list[int] = []
    for part in text.split(","):
        lo, _, hi = part.partition("-")
        out += range(int(lo), int(hi or lo) + 1)
    return sorted(set(out))


def table(reports: Sequence[Report]) -> str:
    rows = [("variant", "players", "actions", "proved", "queries", "seconds")]
    rows += [(r.variant, str(r.players), str(r.actions), str(r.proved), str(r.queries),
              f"{r.seconds:.1f}") for r in reports]
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    return "\n".join("  ".join(cell.ljust(w) if i == 0 else cell.rjust(w)
                               for i, (cell, w) in enumerate(zip(row, widths, strict=True)))
                     for row in rows)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tests.reference.relation_agree",
                                     description=__doc__.split("\n\n")[0])
    parser.add_argument("--variants", default="all",
                        help="all, or shipped variant names separated by commas")
    parser.add_argument("--players", default="2-10", help="e.g. 2-10 or 2,3,5")
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--timeout", type=float, default=TIMEOUT_S,
                        help="seconds per Z3 query (an unknown is a failure)")
    args = parser.parse_args(argv)
    names = sorted(FROZEN_VARIANTS) if args.variants == "all" else args.variants.split(",")
    unknown = [name for name in names if name not in FROZEN_VARIANTS]
    if unknown:
        parser.error(f"not shipped variants: {', '.join(unknown)}")
    start = time.perf_counter()
    reports = run(names, _players(args.players), args.workers, args.timeout)
    print(table(reports))
    for r in reports:
        for note in r.notes:
            print(f"note {r.variant} {r.players}: {note}")
        for d in r.differences:
            print(f"DIFFERS {r.variant} {r.players}: {d}")
    bad = [r for r in reports if not r.ok]
    total = sum(r.actions for r in reports)
    print(f"{len(reports) - len(bad)}/{len(reports)} (variant, players) agree, {total} actions, "
          f"{time.perf_counter() - start:.1f} s wall")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
