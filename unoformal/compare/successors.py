"""Cross-check: the engine's successors equal the Z3 transition relation's successors.

On a small preset (``micro``, ``duel``, ...) every reachable state of one round is
mapped to a concrete Z3 state (:func:`to_sym`); ``next_relation`` is asserted from it
and every model of the post-state is enumerated with blocking clauses. The engine's
successors come from the explorer's chance-branching successor function
(:func:`unoformal.verification.explore.chance.outcomes` over ``legal_actions()``).
Both sides are reduced to the same :class:`Projection` and compared as sets.

The projection is what both state types define: phase, player to move, direction,
color, dealer, UNO window, scores, the top discard, and per-face counts of every
hand, of the discard below the top and of the draw pile. Left out, because only the
engine has them: seed, shuffle counter, pile *order*, history, the CHAL-1 reveal.
Fields meaningful in one phase only are compared only in that phase (as the
explorer's keys do): the drawn card in ``drawn``; the pending draw, its kind, the
offender, the WD4-1 verdict and the color before the Wild Draw Four in
``respond``; the winner and the round's points in ``over``. A stale value there is
never read by either side.

Two more comparisons close the loop at the ends of a round:

* **Deals.** Each dealt hand set (Z3 phase ``dealt``, DEAL-2) is compared with the
  engine's initial states of every deal with those hands (every start card, START-*
  choices). START-WD4's "put it back and turn another" is a stutter step in Z3 (the
  ``dealt`` state again); the engine runs the loop inside one deal, so the Z3 set is
  compared without that stutter.
* **Round over.** The explorer plays one round: it expands no ``over`` state, so
  ``next_deal`` (END-2) is not compared.
"""

from __future__ import annotations

import random
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, NamedTuple

import z3

from unoformal.engine.game import Game
from unoformal.rulebook.deck import Deck
from unoformal.rulebook.table import RuleTable
from unoformal.rulebook.variants import derive
from unoformal.rules.state import PHASED, SYMBOLIC
from unoformal.verification.explore.chance import (
    ExploreGame,
    deal_outcomes,
    first_outcome,
    outcomes,
)
from unoformal.verification.explore.graph import Config, Explorer, preset_config
from unoformal.verification.explore.keys import Keyer
from unoformal.verification.explore.presets import PRESETS
from unoformal.verification.z3.actions import Spec, next_relation
from unoformal.verification.z3.state import (
    DEALT,
    NONE,
    PHASE_CODE,
    PHASE_NAMES,
    Expr,
    Sym,
    as_number,
    concrete_state,
    dealt,
    equal,
    fresh,
)

PENALTY_STEPS = ("advise", "misplay")  # MISPLAY-1, ADVICE-1: left out with --no-penalties
MAX_MODELS = 100_000  # a guard against a runaway enumeration, far above any preset


class Projection(NamedTuple):
    """A state as both sides define it (see the module docstring)."""

    phase: int
    turn: int
    direction: int
    color: int
    top: int
    dealer: int
    uno_window: int
    hands: tuple[tuple[int, ...], ...]
    disc: tuple[int, ...]
    pile: tuple[int, ...]
    scores: tuple[int, ...]
    extra: tuple[int, ...]  # the phase's own fields (drawn / pending draw / winner)

    def text(self, deck: Deck) -> str:
        def bag(counts: Sequence[int]) -> str:
            return _bag(counts, deck)

        top = deck.code(self.top) if self.top != NONE else "-"
        hands = "; ".join(f"hand{p}=[{bag(h)}]" for p, h in enumerate(self.hands))
        return (f"{PHASE_NAMES[self.phase]} turn={self.turn} dir={self.direction} "
                f"color={self.color} top={top} uno={self.uno_window} {hands}; "
                f"disc=[{bag(self.disc)}]; pile=[{bag(self.pile)}]; "
                f"scores={list(self.scores)} extra={list(self.extra)}")


def _bag(counts: Sequence[int], deck: Deck) -> str:
    return " ".join(deck.code(f) for f, k in enumerate(counts) for _ in range(k))


@dataclass(frozen=True)
class Mismatch:
    """One pre-state whose successor sets differ."""

    preset: str
    state: str  # the engine's canonical text (``to_text``), or the dealt hands
    engine_only: tuple[str, ...]  # "successor  <- engine actions"
    z3_only: tuple[str, ...]  # "successor  <- Z3 steps"

    def to_json(self) -> dict[str, Any]:
        return {"preset": self.preset, "state": self.state,
                "engine_only": list(self.engine_only), "z3_only": list(self.z3_only)}


@dataclass
class Summary:
    preset: str
    states: int = 0  # reachable states of the round (the explorer's count)
    compared: int = 0  # states whose successors were compared
    deals: int = 0  # dealt hand sets compared
    transitions: int = 0  # distinct (state, successor) pairs compared
    seconds: float = 0.0
    mismatches: list[Mismatch] = field(default_factory=list)

    def text(self) -> str:
        return (f"{self.preset}: {self.compared} of {self.states} states and {self.deals} deals, "
                f"{self.transitions} transitions, {len(self.mismatches)} mismatches, "
                f"{self.seconds:.1f} s")


# ---------------------------------------------------------------- engine side


def _counts(cards: Sequence[int], nfaces: int) -> tuple[int, ...]:
    out = [0] * nfaces
    for c in cards:
        out[c] += 1
    return tuple(out)


def _n(value: int | None) -> int:
    return NONE if value is None else value


def project(game: Game) -> Projection:
    """The engine state's projection: what both sides hold of a round, and the fields
    the state schema reads only in some phases (``Field.phases``) only there."""
    nf = len(game.deck.faces)
    sym = to_sym(game)
    extra = tuple(_number(getattr(sym, f.name)) for f in PHASED if f.read_in(game.phase))
    return Projection(
        PHASE_CODE[game.phase], game.turn, game.direction, _n(game.color),
        game.discard[-1] if game.discard else NONE, game.dealer, _n(game.uno_window),
        tuple(_counts(h, nf) for h in game.hands), _counts(game.discard[:-1], nf),
        _counts(game.pile, nf), tuple(game.scores), extra)


def _number(term: Expr) -> int:
    return int(z3.is_true(term)) if z3.is_bool(term) else int(term.as_long())


def to_sym(game: Game) -> Sym:
    """The engine state as a concrete Z3 state (every field a Z3 value)."""
    nf = len(game.deck.faces)
    return concrete_state({f.name: getattr(game, f.name) for f in SYMBOLIC}, game.n, nf,
                          knocks=game.rules.knocks_out())


def dealt_sym(hands: Sequence[tuple[int, ...]], deck: Deck, dealer: int,
              scores: Sequence[int], knocks: bool = False) -> Sym:
    """Z3's ``dealt`` state (DEAL-2, before the start card), as ``next_deal`` leaves it."""
    iv = z3.IntVal
    held = [sum(h[f] for h in hands) for f in range(len(deck.faces))]
    return dealt([[iv(k) for k in h] for h in hands],
                 [iv(deck.copies[f] - k) for f, k in enumerate(held)], iv(dealer),
                 [iv(x) for x in scores], knocks=knocks)


def engine_successors(game: ExploreGame, penalties: bool) -> dict[Projection, list[str]]:
    """Every successor by the explorer's successor function, with the actions to it."""
    out: dict[Projection, list[str]] = {}
    for action in game.legal_actions(penalties=penalties):
        for _, child in outcomes(game, action):
            names = out.setdefault(project(child), [])
            if str(action) not in names:
                names.append(str(action))
    return out


# -------------------------------------------------------------------- Z3 side


def _fields(t: Sym, phase: int) -> list[Expr]:
    """The projection's Z3 expressions, in :class:`Projection` order, for ``phase``."""
    head = [t.phase, t.turn, t.direction, t.color, t.top, t.dealer, t.uno_window]
    cards = [x for h in t.hands for x in h] + list(t.disc) + list(t.pile)
    tail = [as_number(getattr(t, f.name)) for f in PHASED if f.read_in(PHASE_NAMES[phase])]
    return head + cards + list(t.scores) + tail


def _value(model: z3.ModelRef, x: Expr) -> int:
    return int(model.eval(x, model_completion=True).as_long())


def _from_values(values: list[int], n: int, nf: int) -> Projection:
    head, rest = values[:7], values[7:]
    hands = tuple(tuple(rest[p * nf:(p + 1) * nf]) for p in range(n))
    rest = rest[n * nf:]
    disc, pile, rest = tuple(rest[:nf]), tuple(rest[nf:2 * nf]), rest[2 * nf:]
    phase, turn, direction, color, top, dealer, uno = head
    return Projection(phase, turn, direction, color, top, dealer, uno, hands, disc, pile,
                      tuple(rest[:n]), tuple(rest[n:]))


def relation(spec: Spec, s: Sym, t: Sym, penalties: bool) -> Expr:
    """``next_relation``; without penalties, the same disjunction less MISPLAY-1 and
    ADVICE-1 (the explorer leaves those actions out with ``--no-penalties``)."""
    return next_relation(spec, s, t, () if penalties else PENALTY_STEPS)


def _enumerate(solver: z3.Solver, t: Sym, nf: int) -> set[Projection]:
    out: set[Projection] = set()
    while solver.check() == z3.sat:
        if len(out) >= MAX_MODELS:
            raise RuntimeError(f"more than {MAX_MODELS} successors of one state")
        model = solver.model()
        exprs = _fields(t, _value(model, t.phase))
        values = [_value(model, x) for x in exprs]
        out.add(_from_values(values, t.n, nf))
        solver.add(z3.Not(z3.And([x == v for x, v in zip(exprs, values, strict=True)])))
    return out


class Successors:
    """``next_relation`` built once per (player to move, direction) over a symbolic
    pre-state; each concrete state is asserted in a solver scope and its successors
    enumerated there. Building the relation dominates the time, so this is much faster
    than a relation per state, and it asks the very same relation."""

    def __init__(self, rules: RuleTable, n: int, penalties: bool = True) -> None:
        self.rules, self.n, self.penalties = rules, n, penalties
        self.spec = Spec(rules, n)
        self._built: dict[tuple[int, int], tuple[Sym, Sym, z3.Solver]] = {}

    def __call__(self, s: Sym) -> set[Projection]:
        turn, direction = _value_of(s.turn), _value_of(s.direction)
        built = self._built.get((turn, direction))
        if built is None:
            knocks = self.spec.knocks
            pre = fresh(self.n, self.spec.deck, "p", turn=turn, direction=direction,
                        knocks=knocks)
            t = fresh(self.n, self.spec.deck, "x", knocks=knocks)
            solver = z3.Solver()
            solver.add(relation(self.spec, pre, t, self.penalties))
            built = self._built[(turn, direction)] = (pre, t, solver)
        pre, t, solver = built
        solver.push()
        solver.add(equal(pre, s))
        try:
            return _enumerate(solver, t, self.spec.nfaces)
        finally:
            solver.pop()


def sym_projection(s: Sym) -> Projection:
    """The projection of a concrete Z3 state (checks :func:`to_sym` against
    :func:`project`)."""
    values = [_value_of(x) for x in _fields(s, _value_of(s.phase))]
    return _from_values(values, s.n, len(s.pile))


def _value_of(x: Expr) -> int:
    return int(z3.simplify(x).as_long())


def z3_steps_to(rules: RuleTable, s: Sym, target: Projection) -> list[str]:
    """The Z3 steps (with variants) that lead from ``s`` to ``target`` (diagnosis)."""
    spec = Spec(rules, s.n)
    t = fresh(s.n, spec.deck, "y", knocks=spec.knocks)
    want = z3.And([x == v for x, v in zip(_fields(t, target.phase), _flat(target),
                                          strict=True)])
    names = []
    for step in spec.steps(s):
        solver = z3.Solver()
        solver.add(step.relation, equal(step.post, t), want)
        if step.in_next and solver.check() == z3.sat:
            names.append(step.label)
    return names


def _flat(p: Projection) -> list[int]:
    return [p.phase, p.turn, p.direction, p.color, p.top, p.dealer, p.uno_window,
            *(x for h in p.hands for x in h), *p.disc, *p.pile, *p.scores, *p.extra]


# ----------------------------------------------------------------- the check


def reachable(config: Config) -> tuple[list[ExploreGame], dict[tuple[tuple[int, ...], ...],
                                                                list[ExploreGame]]]:
    """Every reachable state of one round (BFS over the explorer's successor function,
    deduplicated by its canonical keys), and the initial states grouped by dealt hands."""
    explorer = Explorer(config)
    keyer = Keyer(explorer.deck, seats_out=config.rules.knocks_out())
    nf = len(explorer.deck.faces)
    seen: set[bytes] = set()
    states: list[ExploreGame] = []
    by_hands: dict[tuple[tuple[int, ...], ...], list[ExploreGame]] = {}
    template: ExploreGame | None = None
    for deal in explorer.deals():
        template = template or first_outcome(config.players, config.rules, config.dealer,
                                             deal.json)
        hands = tuple(_counts(h, nf) for h in deal.hands)
        for _, game in deal_outcomes(template, deal):
            by_hands.setdefault(hands, []).append(game)
            _visit(game, keyer, seen, states)
    done = 0
    while done < len(states):
        game = states[done]
        done += 1
        for action in game.legal_actions(penalties=config.penalties):
            for _, child in outcomes(game, action):
                _visit(child, keyer, seen, states)
    return states, by_hands


def stratified(states: list[ExploreGame], sample: int, rng: random.Random) -> list[ExploreGame]:
    """``sample`` states spread evenly over the kinds of state (phase, the pending draw
    card and its WD4-1 verdict): a uniform sample of a large graph would hardly ever
    hold the few states where a challenge is decided."""
    groups: dict[tuple[object, ...], list[ExploreGame]] = {}
    for g in states:
        verdict = g.wd4_legal if g.phase == "respond" else None
        key: tuple[object, ...] = (g.phase, g.pending_kind, verdict)
        groups.setdefault(key, []).append(g)
    out: list[ExploreGame] = []
    keys = sorted(groups, key=str)
    share = max(1, sample // len(keys))
    for kind in keys:
        group = groups[kind]
        out += rng.sample(group, min(share, len(group)))
    return out


def _visit(game: ExploreGame, keyer: Keyer, seen: set[bytes], states: list[ExploreGame]) -> None:
    key = keyer.key(game)
    if key not in seen:
        seen.add(key)
        states.append(game)


def _diff(preset: str, state: str, engine: dict[Projection, list[str]], z3_set: set[Projection],
          rules: RuleTable, s: Sym, deck: Deck) -> Mismatch | None:
    engine_only = sorted(set(engine) - z3_set)
    z3_only = sorted(z3_set - set(engine))
    if not engine_only and not z3_only:
        return None
    return Mismatch(
        preset, state,
        tuple(f"{p.text(deck)}  <- {', '.join(engine[p])}" for p in engine_only),
        tuple(f"{p.text(deck)}  <- {', '.join(z3_steps_to(rules, s, p))}" for p in z3_only))


# What a run reports as it goes: its stage ("states", "deals"), how many of that stage
# are compared, and of how many.
Progress = Callable[[str, int, int], None]


def crosscheck(preset: str, sample: int | None = None, seed: int = 0,
               z3_rules: RuleTable | None = None,
               overrides: dict[str, dict[str, Any]] | None = None,
               progress: Progress | None = None) -> Summary:
    """Compare the successor sets of every reachable state of ``preset`` (or of a
    ``sample`` of them, drawn with ``seed``) and of every deal. ``z3_rules`` is the
    table the Z3 side compiles (default: the engine's); the tests pass a mutated one to
    show that the check notices a difference. ``overrides`` change the preset's table
    on both sides (a switched rule, compared like any other). ``progress`` is told how
    many states, then deals, are compared so far."""
    started = time.perf_counter()
    config = preset_config(preset)
    if overrides:
        config = replace(config, rules=derive(config.rules, f"{config.rules.name}+",
                                              config.rules.description, overrides))
    penalties = config.penalties
    rules = config.rules if z3_rules is None else z3_rules
    states, by_hands = reachable(config)
    summary = Summary(preset, states=len(states))
    chosen = [g for g in states if g.phase != "over"]  # one round: END-2 is not explored
    if sample is not None and sample < len(chosen):
        chosen = stratified(chosen, sample, random.Random(seed))
    successors = Successors(rules, len(config.players), penalties)
    for done, game in enumerate(chosen):
        if progress is not None:
            progress("states", done, len(chosen))
        s = to_sym(game)
        engine = engine_successors(game, penalties)
        z3_set = successors(s)
        summary.compared += 1
        summary.transitions += len(set(engine) | z3_set)
        found = _diff(preset, game.to_text(), engine, z3_set, rules, s, game.deck)
        if found is not None:
            summary.mismatches.append(found)
    for mismatch in _deals(preset, by_hands, successors, summary, progress):
        summary.mismatches.append(mismatch)
    summary.seconds = time.perf_counter() - started
    return summary


def _deals(preset: str, by_hands: dict[tuple[tuple[int, ...], ...], list[ExploreGame]],
           successors: Successors, summary: Summary,
           progress: Progress | None = None) -> Iterator[Mismatch]:
    for done, (hands, games) in enumerate(by_hands.items()):
        if progress is not None:
            progress("deals", done, len(by_hands))
        g0 = games[0]
        s = dealt_sym(hands, g0.deck, g0.dealer, g0.scores, g0.rules.knocks_out())
        engine: dict[Projection, list[str]] = {}
        for game in games:
            engine.setdefault(project(game), []).append("deal")
        # START-WD4's "turn another card" is a stutter step to the dealt state (see top)
        z3_set = {p for p in successors(s) if p.phase != DEALT}
        summary.deals += 1
        summary.transitions += len(set(engine) | z3_set)
        text = "dealt " + "; ".join(f"hand{p}=[{_bag(h, g0.deck)}]"
                                    for p, h in enumerate(hands))
        found = _diff(preset, text, engine, z3_set, successors.rules, s, g0.deck)
        if found is not None:
            yield found


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m unoformal.compare.successors micro duel [--sample N]``"""
    import argparse
    import json
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("presets", nargs="+", choices=sorted(PRESETS))
    parser.add_argument("--sample", type=int, default=None)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    bad = 0
    for name in args.presets:
        summary = _run(name, args.sample, not args.json and sys.stderr.isatty())
        print(summary.text())
        for m in summary.mismatches:
            print(json.dumps(m.to_json(), indent=1) if args.json else
                  f"  {m.state}\n    engine only: {m.engine_only}\n    z3 only: {m.z3_only}")
        bad += len(summary.mismatches)
    return 1 if bad else 0


def _run(preset: str, sample: int | None, shown: bool) -> Summary:
    """One preset, with a progress bar on the terminal (stderr) when ``shown``: a
    spinner while its states are explored, then the states and deals compared."""
    if not shown:
        return crosscheck(preset, sample)
    from rich.console import Console
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        SpinnerColumn,
        TextColumn,
        TimeElapsedColumn,
    )
    columns = (SpinnerColumn(), TextColumn("{task.description}"), BarColumn(),
               MofNCompleteColumn(), TimeElapsedColumn())
    with Progress(*columns, console=Console(stderr=True), transient=True) as bar:
        task = bar.add_task(f"{preset}: exploring", total=None)

        def report(stage: str, done: int, total: int) -> None:
            bar.update(task, description=f"{preset}: {stage} compared", completed=done,
                       total=total)

        return crosscheck(preset, sample, progress=report)


if __name__ == "__main__":
    raise SystemExit(main())
