"""The Z3 relation of one table and player count, compiled for concrete states.

``Spec(rules, n).steps(s)`` over a pre-state of fresh constants is built once;
every step is grouped into a :class:`Family` (one action with one named seat, in
its draw variants: from the pile, or through RESHUFFLE-1). A family knows its
*choices* (the card, the color, UNO said, the actor: the constants of its guard
that are not state) and maps each choice to the engine :class:`Action` it stands
for. Guards, draw constraints and post-states are compiled to Python
(:mod:`.compile`) the first time they are asked for.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

import z3

from unoformal.compare.relation.compile import Compiled, Env, compile_terms
from unoformal.engine.actions import Action, ActionType
from unoformal.rulebook.deck import Deck
from unoformal.rulebook.table import RuleTable
from unoformal.rules.state import PHASED, Domain
from unoformal.verification.z3.actions import Spec, Step
from unoformal.verification.z3.state import (
    DEALT,
    NONE,
    PHASE_NAMES,
    Sym,
    as_number,
    fresh,
)

# Steps that are not a player's action: the deal (END-2, DEAL-2) and the start card
# (START-*), checked when a round starts; the reshuffle, checked inside every draw.
_DEAL_STEPS = ("next_deal",)
_ON_TURN = {
    "draw": ActionType.DRAW, "keep": ActionType.PASS, "pass_nothing_to_draw": ActionType.PASS,
    "stop": ActionType.PASS,
    "accept": ActionType.ACCEPT, "challenge_upheld": ActionType.CHALLENGE,
    "challenge_failed": ActionType.CHALLENGE, "choose_color": ActionType.CHOOSE_COLOR,
    "misplay": ActionType.MISPLAY,
}


def seat_part(step: Step) -> str:
    """The part of a step's variant that names a seat (``target 2``), not its draw modes
    (``Step.drawn_from``)."""
    return ", ".join(p for p in step.variant.split(", ") if p and p != step.drawn_from)


def _name(x: Any) -> str:
    """A constant's name (z3py's ``str`` runs the pretty printer: slow)."""
    c = x.ctx.ref()
    return str(z3.Z3_get_symbol_string(c, z3.Z3_get_decl_name(c, x.decl().ast)))


def _names(x: Any) -> set[str]:
    """The names of the constants a term mentions."""
    out: set[str] = set()
    stack, seen = [x], set()
    while stack:
        e = stack.pop()
        if not z3.is_expr(e) or e.get_id() in seen:
            continue
        seen.add(e.get_id())
        if z3.is_const(e) and e.decl().kind() == z3.Z3_OP_UNINTERPRETED:
            out.add(e.decl().name())
        stack.extend(e.children())
    return out


@dataclass
class Variant:
    """One step of a family: one draw mode."""

    step: Step
    modes: str
    names: dict[str, str] = field(default_factory=dict)  # choice -> its constant's name
    take_names: list[list[str]] = field(default_factory=list)  # each draw's count constants
    _check: Compiled | None = None
    _post: Compiled | None = None
    _offsets: list[Compiled] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.names = {key: _name(x) for key, x in self.step.choices.items()
                      if z3.is_const(x) and not z3.is_int_value(x)}
        self.take_names = [[_name(c) for c in counts] for counts, _ in self.step.takes]

    def check(self, env: Env) -> bool:
        """The guard and the draw constraint hold (choices and chance set in ``env``)."""
        if self._check is None:
            self._check = compile_terms([self.step.guard, self.step.draws], "check")
        guard, draws = self._check(env)
        return bool(guard) and bool(draws)

    def post(self, env: Env) -> tuple[int, ...]:
        """The post-state's fields, in :func:`post_terms` order."""
        if self._post is None:
            self._post = compile_terms(post_terms(self.step.post), "post")
        return self._post(env)

    def set_draws(self, env: Env, drawn: Sequence[Sequence[int]]) -> bool:
        """Set the pile counts of each draw (``Step.takes``) so the hands get ``drawn``
        (cards per face, one list per draw, in order), and hold ``check``; False when no
        counts can. A draw under a branch the step did not take (END-1's last Draw Two,
        which ends the round before its victim draws; the rulebook's draw where a rule
        file's move is made in its place) is a draw of nothing: the engine logs none. So
        the engine's draws are the step's in order, some left out: each such placement
        is tried, those with the last draws left out first (as before a rule file's move
        could be one of two ways)."""
        m = len(self.step.takes)
        if len(drawn) > m:
            return False
        if not self._offsets:
            self._offsets = [compile_terms(list(got), "offset") for _, got in self.step.takes]
        for placed in itertools.combinations(range(m), len(drawn)):
            want = [[0] * len(names) for names in self.take_names]
            for at, cards in zip(placed, drawn, strict=True):
                want[at] = list(cards)
            self._place(env, want)
            if self.check(env):
                return True
        return False

    def _place(self, env: Env, drawn: list[list[int]]) -> None:
        for names, offset, want in zip(self.take_names, self._offsets, drawn, strict=True):
            for c in names:
                env[c] = 0
            base = offset(env)  # the cards the hand gets beyond the pile counts
            for c, b, w in zip(names, base, want, strict=True):
                env[c] = w - b


@dataclass
class Family:
    """One action (one named seat) in its draw variants, with its choices."""

    name: str
    seat: str
    variants: list[Variant]
    choices: dict[str, list[int]]  # choice ("face", "color", "uno", "actor") -> its domain
    mover: int | None  # the acting seat when the step fixes it (adviser), else None
    _all: Compiled | None = None
    _cases: dict[int, list[tuple[dict[str, int], Action]]] = field(default_factory=dict)

    def bind(self, env: Env, choice: dict[str, int], variant: Variant | None = None) -> None:
        """Set a choice's constants (those of ``variant``, by default the first) in ``env``."""
        names = (variant or self.variants[0]).names
        for key, value in choice.items():
            env[names[key]] = value

    def guard(self, env: Env) -> bool:
        """The guard of a family without choices (a deal)."""
        return bool(self.tests()(env)[0])

    def tests(self) -> Compiled:
        """Every instance's guard at once, the choice of each substituted and simplified
        (a card's ite-chains collapse) and the subterms all instances share computed once:
        one call per state instead of one per instance."""
        if self._all is None:
            step = self.variants[0].step
            consts = {key: step.choices[key] for key in self.choices}
            terms = []
            for choice in self.instances():
                pairs = [(consts[k], z3.BoolVal(bool(v)) if z3.is_bool(consts[k])
                          else z3.IntVal(v)) for k, v in choice.items()]
                terms.append(z3.simplify(z3.substitute(step.guard, *pairs)) if pairs
                             else step.guard)
            self._all = compile_terms(terms, "guards")
        return self._all

    def instances(self) -> Iterator[dict[str, int]]:
        keys = list(self.choices)
        for values in itertools.product(*(self.choices[k] for k in keys)):
            yield dict(zip(keys, values, strict=True))


def post_terms(t: Sym) -> list[Any]:
    """Every field of a state, in a fixed order (see :func:`projection_of`)."""
    head = [t.phase, t.turn, t.direction, t.color, t.top, t.dealer, t.uno_window]
    cards = [x for h in t.hands for x in h] + list(t.disc) + list(t.pile)
    tail = [as_number(getattr(t, f.name)) for f in PHASED]
    return head + cards + list(t.scores) + [as_number(x) for x in t.out] + tail



class Model:
    """The compiled relation of ``rules`` at ``n`` players."""

    def __init__(self, rules: RuleTable, n: int) -> None:
        self.rules, self.n = rules, n
        self.spec = Spec(rules, n)
        self.deck: Deck = self.spec.deck
        self.nfaces = len(self.deck.faces)
        self.pre = fresh(n, self.deck, "v", knocks=self.spec.knocks)
        self.families: list[Family] = []
        self.deals: list[Family] = []
        self.starts: list[Family] = []
        self._group(self.spec.steps(self.pre))
        outs = len(self.pre.out)  # MERCY's flags: none under any other table
        self._var_names = [str(x) for x in post_terms(self.pre)[:-len(PHASED) - outs]]
        self._outs = [str(x) for x in self.pre.out]
        # The phase's own fields: (constant's name, whether a flag), in schema order.
        self._tail = [(str(getattr(self.pre, f.name)), f.domain is Domain.FLAG)
                      for f in PHASED]

    def _group(self, steps: list[Step]) -> None:
        by_key: dict[tuple[str, str], list[Step]] = {}
        for step in steps:
            if step.in_next:
                by_key.setdefault((step.name, seat_part(step)), []).append(step)
        for (name, seat), group in by_key.items():
            # A start card is chance, not a choice: the engine turns the pile's top card.
            choices = {} if name.startswith("start_") else self._choices(group[0])
            fam = Family(name, seat, [Variant(s, s.drawn_from) for s in group],
                         choices, _fixed(group[0].mover))
            if name in _DEAL_STEPS:
                self.deals.append(fam)
            elif name.startswith("start_"):
                self.starts.append(fam)
            else:
                self.families.append(fam)

    def _choices(self, step: Step) -> dict[str, list[int]]:
        """The choices a step's guard reads, with their domains (a choice the guard does not
        read, such as the card a draw gets, is chance)."""
        used = _names(step.guard)
        out: dict[str, list[int]] = {}
        for key, var in step.choices.items():
            if not z3.is_const(var) or z3.is_int_value(var) or _name(var) not in used:
                continue
            out[key] = self._domain(step, key)
        return out

    def _domain(self, step: Step, key: str) -> list[int]:
        if key == "face":
            if step.name.startswith(("play_", "jump_")):
                return self.spec.play_faces(step.name)
            return list(range(self.nfaces))
        if key == "color":
            if step.name.startswith(("play_", "jump_")) and \
                    not self.rules.effect(self.spec.play_kind(step.name)).chooses_color:
                return [NONE]
            return list(range(len(self.deck.colors)))
        if key == "uno":
            return [0, 1]
        if key in ("actor", "target"):
            return list(range(self.n))
        raise ValueError(f"{step.name}: unknown choice {key!r}")

    # ---------------------------------------------------------------- states

    def env(self, values: Sequence[int]) -> Env:
        """The environment of a pre-state given in :func:`post_terms` order."""
        k = len(self._var_names)
        env = dict(zip(self._var_names, values[:k], strict=True))
        for name, v in zip(self._outs, values[k:k + len(self._outs)], strict=True):
            env[name] = bool(v)
        rest = values[k + len(self._outs):]
        for (name, flag), v in zip(self._tail, rest, strict=True):
            env[name] = bool(v) if flag else v
        return env

    def cases(self, fam: Family, turn: int, names: Sequence[str]
              ) -> list[tuple[dict[str, int], Action]]:
        """A family's instances at this turn, each with the action it stands for (made once
        per family and turn), in the order of :meth:`Family.tests`."""
        known = fam._cases.get(turn)
        if known is None:
            known = fam._cases[turn] = [(choice, self.action(fam, choice, turn, names))
                                        for choice in fam.instances()]
        return known

    def action(self, fam: Family, choice: dict[str, int], turn: int,
               names: Sequence[str]) -> Action:
        """The engine action a family's instance stands for."""
        values = choice
        face, color = values.get("face"), values.get("color")
        card = self.deck.code(face) if face is not None else None
        cname = self.deck.colors[color].value if color is not None and color != NONE else None
        actor = values.get("actor", fam.mover if fam.mover is not None else turn)
        name = names[actor]
        if fam.name.startswith(("play_", "jump_")):
            target = values.get("target")
            return Action(name, ActionType.PLAY, card, cname,
                          None if target is None else names[target], bool(values.get("uno")))
        if fam.name == "uno":
            return Action(name, ActionType.UNO)
        if fam.name == "catch":
            target = int(fam.seat.split(" ")[-1])
            return Action(name, ActionType.CATCH, target=names[target])
        if fam.name == "advise":
            return Action(name, ActionType.ADVISE)
        kind = _ON_TURN[fam.name]
        return Action(name, kind, card if kind is ActionType.MISPLAY else None, cname)


def _fixed(x: Any) -> int | None:
    return int(x.as_long()) if z3.is_int_value(x) else None


def projection_of(values: Sequence[int], n: int, nfaces: int, outs: int = 0
                  ) -> tuple[Any, ...]:
    """A state as both sides define it: the fields every phase reads, and those the state
    schema reads only in some phases only there (``Field.phases``: the drawn card in
    ``drawn``; the pending draw in ``respond``; the winner and points in ``over``). A
    stale value elsewhere is read by neither side."""
    head = tuple(values[:7])
    ncards = (n + 2) * nfaces
    cards = tuple(values[7:7 + ncards])
    scores = tuple(values[7 + ncards:7 + ncards + n + outs])  # MERCY's flags after them
    tail = values[7 + ncards + n + outs:]
    phase = PHASE_NAMES[head[0]]
    extra = tuple(int(v) for f, v in zip(PHASED, tail, strict=True) if f.read_in(phase))
    return head + cards + scores + extra


def describe(values: Sequence[int], n: int, deck: Deck) -> str:
    """A projection in words (mismatch reports)."""
    nf = len(deck.faces)
    phase, turn, direction, color, top, dealer, uno = values[:7]

    def bag(start: int) -> str:
        return " ".join(deck.code(f) for f in range(nf) for _ in range(values[start + f]))

    hands = "; ".join(f"hand{p}=[{bag(7 + p * nf)}]" for p in range(n))
    extra = values[7 + (n + 2) * nf + n:]
    return (f"{PHASE_NAMES.get(phase, phase)} turn={turn} dir={direction} color={color} "
            f"top={deck.code(top) if top != NONE else '-'} dealer={dealer} uno={uno} {hands}; "
            f"disc=[{bag(7 + n * nf)}]; pile=[{bag(7 + (n + 1) * nf)}]; "
            f"scores={list(values[7 + (n + 2) * nf:7 + (n + 2) * nf + n])} extra={list(extra)}")


__all__ = ["DEALT", "Family", "Model", "Variant", "describe", "projection_of"]
