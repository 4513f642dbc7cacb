"""The symbolic state: per-zone counts of every face plus the control state.

Like the ``VARIABLES`` of a TLA+ spec. Cards are counted, not ordered: a zone is
one integer per face of ``Deck.of(rules)`` (DECK-1). The discard pile is split
into its top card (``top``, a face index, ``-1`` when there is none) and the
count of each face below it (``disc``), so RESHUFFLE-1 can be stated.

Seats, faces, colors and kinds are small integers; ``-1`` means "none". The
phase numbers extend the engine's phases (``unoformal.engine.game.PHASES``)
with ``DEALT``: hands dealt, start card not yet turned (DEAL-2).
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import Any

import z3

from unoformal.spec.cards import Kind
from unoformal.spec.deck import Deck

# Phase codes. The names match the engine's phase strings (PHASES) except DEALT.
PLAY, DRAWN, RESPOND, COLOR, OVER, DEALT, STUCK = range(7)
PHASE_NAMES = {PLAY: "play", DRAWN: "drawn", RESPOND: "respond", COLOR: "color",
               OVER: "over", DEALT: "dealt", STUCK: "start"}
KINDS: tuple[Kind, ...] = tuple(Kind)
NONE = -1

_counter = itertools.count()

Expr = Any  # z3.ArithRef | z3.BoolRef: z3 ships no type information


def fresh_tag(prefix: str) -> str:
    """A unique prefix for Z3 constant names (each query builds its own)."""
    return f"{prefix}{next(_counter)}"


def concrete(x: Expr) -> int | None:
    """The value of ``x`` when it is a number rather than a symbol."""
    if isinstance(x, int):
        return x
    if z3.is_int_value(x):
        return int(x.as_long())
    return None


def eq(x: Expr, k: int) -> Expr:
    """``x == k``, decided in Python when ``x`` is a number (smaller formulas)."""
    value = concrete(x)
    return z3.BoolVal(value == k) if value is not None else x == k


def when(x: Expr, k: int, then: Expr, other: Expr) -> Expr:
    """``If(x == k, then, other)``, decided in Python when ``x`` is a number."""
    value = concrete(x)
    if value is not None:
        return then if value == k else other
    return z3.If(x == k, then, other)


def ite_chain(selector: Expr, cases: Sequence[tuple[int, Expr]], default: Expr) -> Expr:
    """``selector == k1 ? v1 : selector == k2 ? v2 : ... : default`` (a lookup table)."""
    value = concrete(selector)
    if value is not None:
        return next((v for k, v in cases if k == value), default)
    out = default
    for key, value in reversed(cases):
        out = z3.If(selector == key, value, out)
    return out


@dataclass
class Sym:
    """One symbolic state (expressions over Z3 constants, or the constants themselves)."""

    n: int
    hands: list[list[Expr]]  # [seat][face]
    pile: list[Expr]
    disc: list[Expr]  # below the top card
    top: Expr
    turn: Expr
    direction: Expr  # +1 left, -1 right (REV-1)
    color: Expr
    phase: Expr
    dealer: Expr
    drawn: Expr
    pending: Expr
    pkind: Expr  # index in KINDS of the pending draw card
    offender: Expr
    legal: Expr  # Bool: the pending Wild Draw Four was legal (WD4-1)
    prev: Expr  # color current when the Wild Draw Four was played
    uno: Expr  # seat whose UNO window is open
    winner: Expr
    points: Expr
    scores: list[Expr]
    _cache: dict[str, Any] = field(default_factory=dict, repr=False, compare=False)

    def evolve(self, **changes: Any) -> Sym:
        return replace(self, _cache={}, **changes)

    # Totals are used by many actions and properties: build each sum once.
    def hand_total(self, p: int) -> Expr:
        key = f"h{p}"
        if key not in self._cache:
            self._cache[key] = z3.Sum(self.hands[p])
        return self._cache[key]

    def pile_total(self) -> Expr:
        if "pile" not in self._cache:
            self._cache["pile"] = z3.Sum(self.pile)
        return self._cache["pile"]

    def disc_total(self) -> Expr:
        if "disc" not in self._cache:
            self._cache["disc"] = z3.Sum(self.disc)
        return self._cache["disc"]

    def seat_hand(self, seat: Expr) -> list[Expr]:
        """The hand of a symbolic seat, face by face."""
        key = f"seat:{seat.sexpr() if z3.is_expr(seat) else seat}"
        value = concrete(seat)
        if value is not None:
            return self.hands[value]
        if key not in self._cache:
            faces = range(len(self.pile))
            self._cache[key] = [
                ite_chain(seat, [(p, self.hands[p][f]) for p in range(self.n - 1)],
                          self.hands[self.n - 1][f]) for f in faces]
        out: list[Expr] = self._cache[key]
        return out

    def seat_total(self, seat: Expr) -> Expr:
        return ite_chain(seat, [(p, self.hand_total(p)) for p in range(self.n - 1)],
                         self.hand_total(self.n - 1))

    def face_total(self, f: int) -> Expr:
        """Copies of face ``f`` in every zone together (DECK-1)."""
        key = f"face{f}"
        if key not in self._cache:
            self._cache[key] = (z3.Sum([h[f] for h in self.hands]) + self.pile[f]
                                + self.disc[f] + z3.If(self.top == f, 1, 0))
        return self._cache[key]


def fresh(n: int, deck: Deck, prefix: str = "s", turn: int | None = None,
          direction: int | None = None) -> Sym:
    """A state of fresh constants: the universally quantified state of a proof
    (with the player to move fixed to ``turn`` under the symmetry reduction)."""
    t = fresh_tag(prefix)
    faces = range(len(deck.faces))

    def ints(name: str) -> list[Expr]:
        return [z3.Int(f"{t}.{name}.{deck.code(f)}") for f in faces]

    return Sym(
        n=n, hands=[ints(f"hand{p}") for p in range(n)], pile=ints("pile"), disc=ints("disc"),
        top=z3.Int(f"{t}.top"),
        turn=z3.Int(f"{t}.turn") if turn is None else z3.IntVal(turn),
        direction=z3.Int(f"{t}.dir") if direction is None else z3.IntVal(direction),
        color=z3.Int(f"{t}.color"), phase=z3.Int(f"{t}.phase"), dealer=z3.Int(f"{t}.dealer"),
        drawn=z3.Int(f"{t}.drawn"), pending=z3.Int(f"{t}.pending"),
        pkind=z3.Int(f"{t}.pkind"), offender=z3.Int(f"{t}.offender"),
        legal=z3.Bool(f"{t}.legal"), prev=z3.Int(f"{t}.prev"), uno=z3.Int(f"{t}.uno"),
        winner=z3.Int(f"{t}.winner"), points=z3.Int(f"{t}.points"),
        scores=[z3.Int(f"{t}.score{p}") for p in range(n)])


def equal(a: Sym, b: Sym) -> Expr:
    """``a = b`` field by field (used for ``next`` written as a relation)."""
    pairs: list[tuple[Expr, Expr]] = [
        (a.top, b.top), (a.turn, b.turn), (a.direction, b.direction), (a.color, b.color),
        (a.phase, b.phase), (a.dealer, b.dealer), (a.drawn, b.drawn), (a.pending, b.pending),
        (a.pkind, b.pkind), (a.offender, b.offender), (a.legal, b.legal), (a.prev, b.prev),
        (a.uno, b.uno), (a.winner, b.winner), (a.points, b.points)]
    pairs += list(zip(a.pile, b.pile, strict=True)) + list(zip(a.disc, b.disc, strict=True))
    pairs += list(zip(a.scores, b.scores, strict=True))
    for ha, hb in zip(a.hands, b.hands, strict=True):
        pairs += list(zip(ha, hb, strict=True))
    return z3.And([x == y for x, y in pairs])
