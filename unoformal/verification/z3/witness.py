"""Counterexamples: a refuting model as a concrete state and as a game record.

The model's pre-state prints in the engine's canonical text form. When the
violation is reachable from a deal, a second search finds a path from a dealt
position (hands and pile only) through the start card and at most one more
action; the path becomes a game record (the engine issue's format) whose deal
is the model's hands and whose ``draw_pile`` lists the start card first, then
the cards drawn along the path, then the rest. The record is replayed with
:func:`unoformal.engine.record.replay` and called replayable only when the
engine plays every action and ends in the model's state (seat to move, phase,
direction, top card, hand sizes).
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any

import z3

from unoformal.engine.actions import Action, ActionType
from unoformal.engine.record import replay
from unoformal.engine.text import encode
from unoformal.rulebook.cards import Kind
from unoformal.rulebook.table import RuleTable
from unoformal.verification.z3.actions import Spec, Step
from unoformal.verification.z3.properties import Property, Query, invariant
from unoformal.verification.z3.solver import make_solver
from unoformal.verification.z3.state import DEALT, KINDS, NONE, PHASE_NAMES, Sym, fresh


@dataclass
class Witness:
    record: dict[str, Any] | None
    replayable: bool
    mismatch: str | None
    actions: list[str]


def names(n: int) -> list[str]:
    return [f"P{i + 1}" for i in range(n)]


def val(m: z3.ModelRef, e: Any) -> int:
    v = m.eval(e, model_completion=True)
    return bool(z3.is_true(v)) if z3.is_bool(v) else int(v.as_long())


def players_of(spec: Spec, m: z3.ModelRef) -> list[str]:
    """The model's players (its number of players, when a query was about several)."""
    return names(val(m, spec.count))


def cards(spec: Spec, m: z3.ModelRef, zone: list[Any]) -> list[str]:
    return [spec.deck.code(f) for f in range(spec.nfaces) for _ in range(val(m, zone[f]))]


def state_text(spec: Spec, m: z3.ModelRef, s: Sym, rules: RuleTable) -> str:
    """The model's state in the canonical text form (the deal, before a start card): the
    schema's symbolic fields read off the model, the others as a new game has them."""
    who = players_of(spec, m)

    def seat(x: Any) -> int | None:
        return val(m, x) if 0 <= val(m, x) < len(who) else None

    def color(x: Any) -> int | None:
        return val(m, x) if 0 <= val(m, x) < len(spec.deck.colors) else None

    def faces(zone: list[Any]) -> list[int]:
        return [f for f in range(spec.nfaces) for _ in range(val(m, zone[f]))]

    top, kind, drawn = val(m, s.top), val(m, s.pending_kind), val(m, s.drawn)
    values = {
        "rules": rules, "names": who, "dealer": seat(s.dealer), "round": 1,
        "turn": seat(s.turn), "direction": val(m, s.direction), "color": color(s.color),
        "phase": PHASE_NAMES[val(m, s.phase)],
        "hands": [faces(h) for h in s.hands[:len(who)]],
        "pile": faces(s.pile)[::-1], "discard": faces(s.disc) + ([top] if top != NONE else []),
        "scores": [val(m, x) for x in s.scores[:len(who)]], "uno_window": seat(s.uno_window),
        "drawn": drawn if 0 <= drawn < spec.nfaces else None, "pending": val(m, s.pending),
        "pending_kind": KINDS[kind] if 0 <= kind < len(KINDS) else None,
        "offender": seat(s.offender), "wd4_legal": bool(val(m, s.wd4_legal)),
        "prev_color": color(s.prev_color), "reveal": None, "winner": seat(s.winner),
        "round_points": val(m, s.round_points), "seed": 0, "shuffles": 0,
        # MERCY's seats out, in seat order (the model does not say in which order they left)
        "out": tuple(p for p, x in enumerate(s.out[:len(who)]) if val(m, x))}
    return encode(values, spec.deck)


def action_of(spec: Spec, m: z3.ModelRef, step: Step) -> Action | None:
    """The engine action a step stands for (None for the start card, deal, reshuffle)."""
    who = players_of(spec, m)
    player = who[val(m, step.mover)]
    name = step.name
    if name.startswith(("play_", "jump_")):
        face = val(m, step.face)
        color = None
        if spec.rules.effect(spec.deck.faces[face].kind).chooses_color:
            color = spec.deck.colors[val(m, step.choices["color"])].value
        target = step.choices.get("target")
        return Action(player, ActionType.PLAY, spec.deck.code(face), color,
                      None if target is None else who[val(m, target)],
                      bool(val(m, step.choices["uno"])))
    simple = {"draw": ActionType.DRAW, "keep": ActionType.PASS, "accept": ActionType.ACCEPT,
              "pass_nothing_to_draw": ActionType.PASS, "stop": ActionType.PASS,
              "challenge_upheld": ActionType.CHALLENGE,
              "challenge_failed": ActionType.CHALLENGE, "uno": ActionType.UNO,
              "advise": ActionType.ADVISE}
    if name in simple:
        return Action(player, simple[name])
    if name == "catch":
        return Action(player, ActionType.CATCH, target=who[val(m, step.pre.uno_window)])
    if name == "misplay":
        return Action(player, ActionType.MISPLAY, spec.deck.code(val(m, step.face)))
    if name == "choose_color":
        return Action(player, ActionType.CHOOSE_COLOR,
                      color=spec.deck.colors[val(m, step.choices["color"])].value)
    return None


def describe(spec: Spec, m: z3.ModelRef, steps: list[Step]) -> list[str]:
    out = []
    for step in steps:
        action = action_of(spec, m, step)
        out.append(str(action) if action is not None else step.label)
    return out


def _dealt(spec: Spec, s: Sym) -> Any:
    return z3.And(invariant(spec, s), s.phase == DEALT, *[x == 0 for x in s.scores])


def _paths(spec: Spec, s0: Sym) -> list[list[Step]]:
    """Start card, then at most one more action (short records first)."""
    starts = spec.steps(s0, tuple(f"start_{k.name.lower()}" for k in spec.kinds))
    out: list[list[Step]] = [[]] + [[st] for st in starts if st.in_next]
    number = [st for st in starts if st.name == f"start_{Kind.NUMBER.name.lower()}"]
    for st in number:
        for step in spec.steps(st.post):
            if step.in_next and step.name not in ("next_deal",) and \
                    not step.name.startswith("start_") and "reshuffle" not in step.variant:
                out.append([st, step])
    return out


def find_record(rules: RuleTable, prop: Property, n: int, label: str,
                budget_s: float = 30.0, timeout_ms: int = 3000) -> Witness | None:
    """A record from a deal to the violation of ``prop`` at ``label``, if one is found."""
    start = time.perf_counter()
    spec = Spec(rules, n)
    s0 = fresh(n, spec.deck, "deal", knocks=spec.knocks)
    base = _dealt(spec, s0)
    for path in _paths(spec, s0):
        if time.perf_counter() - start > budget_s:
            return None
        last = path[-1].post if path else s0
        for query in prop.queries(spec, last):
            if query.label != label:
                continue
            solver = make_solver(timeout_ms)
            solver.add(base, *[st.relation for st in path], query.formula)
            if solver.check() == z3.sat:
                return _witness(spec, rules, solver.model(), s0, path, query)
    return None


def _witness(spec: Spec, rules: RuleTable, m: z3.ModelRef, s0: Sym, path: list[Step],
             query: Query) -> Witness:
    steps = path + query.steps
    who = names(spec.n)
    order: list[str] = []
    if steps and steps[0].name.startswith("start_"):
        order.append(spec.deck.code(val(m, steps[0].face)))
    taken: dict[str, int] = {}
    for step in steps:
        for f in range(spec.nfaces):
            gone = val(m, step.pre.pile[f]) - val(m, step.post.pile[f])
            if step.name.startswith("start_") and f == val(m, step.face):
                gone -= 1
            for _ in range(max(gone, 0)):
                order.append(spec.deck.code(f))
                taken[spec.deck.code(f)] = taken.get(spec.deck.code(f), 0) + 1
    rest = cards(spec, m, s0.pile)
    for code in order:
        rest.remove(code)
    actions = [a for a in (action_of(spec, m, st) for st in steps) if a is not None]
    record = {"rules": rules.name, "players": who, "dealer": who[val(m, s0.dealer)], "seed": 0,
              "deal": {"hands": {who[p]: cards(spec, m, s0.hands[p]) for p in range(spec.n)},
                       "draw_pile": order + rest},
              "actions": [a.to_json() for a in actions]}
    described = describe(spec, m, steps)
    if not steps or not steps[0].name.startswith("start_"):
        return Witness(record, False, "the violation is at the deal itself", described)
    mismatch = _replay_check(spec, rules, m, record, steps[-1].post)
    return Witness(record, mismatch is None, mismatch, described)


def _replay_check(spec: Spec, rules: RuleTable, m: z3.ModelRef, record: dict[str, Any],
                  end: Sym) -> str | None:
    try:
        result = replay(record, rules=rules)
    except Exception as err:  # a record the engine refuses is reported, not raised
        return f"the engine refuses the record: {err}"
    if result.error is not None:
        return f"action {result.error_index} refused: {result.error}"
    g = result.game
    want = {"turn": val(m, end.turn), "phase": PHASE_NAMES[val(m, end.phase)],
            "direction": val(m, end.direction),
            "top": val(m, end.top), "sizes": [sum(val(m, x) for x in h) for h in end.hands]}
    have = {"turn": g.turn, "phase": g.phase, "direction": g.direction,
            "top": g.top if g.top is not None else NONE, "sizes": [len(h) for h in g.hands]}
    if want != have:
        return f"engine ends in {have}, the model in {want}"
    return None
