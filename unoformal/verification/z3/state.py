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
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, fields, replace
from functools import cache
from typing import Any

import z3

from unoformal.rulebook.cards import Kind
from unoformal.rulebook.deck import Deck
from unoformal.rules.state import SYMBOLIC, Domain

# Phase codes. The names match the engine's phase strings (PHASES) except DEALT.
PLAY, DRAWN, RESPOND, COLOR, OVER, DEALT, STUCK, MORE = range(8)
PHASE_NAMES = {PLAY: "play", DRAWN: "drawn", RESPOND: "respond", COLOR: "color", MORE: "more",
               OVER: "over", DEALT: "dealt", STUCK: "start"}
PHASE_CODE = {name: code for code, name in PHASE_NAMES.items()}  # engine phase -> code
KINDS: tuple[Kind, ...] = tuple(Kind)
NONE = -1

_counter = itertools.count()

# The seat a pre-state's symmetry reduction fixed to seat 0 (``Sym.anchor``; None: none).
TURN_AT_0 = "turn"  # the player to move
NAMED_AT_0 = "named"  # the seat an action names out of turn: catch target, adviser, dealer

Expr = Any  # z3.ArithRef | z3.BoolRef: z3 ships no type information


@cache
def ival(k: int) -> Expr:
    """``z3.IntVal(k)``, built once per number (terms are immutable, so shared)."""
    return z3.IntVal(k)


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


def when(x: Expr, k: int, then: Expr, other: Expr) -> Expr:
    """``If(x == k, then, other)``, decided in Python when ``x`` is a number."""
    value = concrete(x)
    if value is not None:
        return then if value == k else other
    return fite(feq(x, k), then, other)


# Fast n-ary constructors. z3py's ``And``/``Or``/``Sum`` coerce and sort-check every
# argument in Python, which took about half the run time of a proof (profiled); the
# arguments here are already Z3 terms of one sort, so the terms are built directly.
def _terms(args: tuple[Any, ...]) -> list[Any]:
    if len(args) == 1 and isinstance(args[0], (list, tuple)):
        return list(args[0])
    if len(args) == 1 and not z3.is_expr(args[0]) and not isinstance(args[0], (bool, int)):
        return list(args[0])  # a generator
    return list(args)


def _array(xs: list[Any]) -> Any:
    arr = (z3.Ast * len(xs))()
    for i, x in enumerate(xs):
        arr[i] = x.as_ast()
    return arr


def fsum(*args: Any) -> Expr:
    """``z3.Sum`` over integer terms (Python ints allowed)."""
    xs = [x if z3.is_expr(x) else ival(x) for x in _terms(args)]
    if not xs:
        return ival(0)
    if len(xs) == 1:
        return xs[0]
    ctx = xs[0].ctx
    return z3.ArithRef(z3.Z3_mk_add(ctx.ref(), len(xs), _array(xs)), ctx)


def fdot(xs: Sequence[Expr], weights: Sequence[int]) -> Expr:
    """``sum(x * w)`` over the non-zero weights (the multiplications built by the C API:
    z3py's ``*`` coerces both sides, and a hand's points are 54 of them)."""
    terms = []
    for x, w in zip(xs, weights, strict=True):
        if w == 1:
            terms.append(x)
        elif w:
            ctx = x.ctx
            terms.append(z3.ArithRef(z3.Z3_mk_mul(ctx.ref(), 2, _array([ival(w), x])), ctx))
    return fsum(terms)


# Terms over one list of counts (a hand's total, its points), built once per list: an
# action leaves the hands it does not touch the very same lists in its post-state, so
# every post-state and property shares them. Keyed by the list's id, the list kept alive
# with the term so the id stays its own; cleared when large, and by ``forget_lists``.
# Each entry: the list, its total, and whether ``with_total`` gave that total.
_PER_LIST: dict[tuple[int, tuple[int, ...] | None], tuple[list[Expr], Expr, bool]] = {}


def forget_lists() -> None:
    """Drop every list's term (``per_list``), and so the lists and terms it keeps alive.
    A list registered by ``with_total`` and asked after this gets its plain sum: an equal
    term, which the solver may find harder (so the prover forgets its compiled tables at
    the same time, ``prover.forget``)."""
    _PER_LIST.clear()


def per_list(xs: list[Expr], weights: tuple[int, ...] | None = None) -> Expr:
    """``fsum(xs)``, or ``fdot(xs, weights)``, built once per list."""
    key = (id(xs), weights)
    known = _PER_LIST.get(key)
    if known is None or known[0] is not xs:
        if len(_PER_LIST) > 100_000:
            _PER_LIST.clear()
        known = (xs, fsum(xs) if weights is None else fdot(xs, weights), False)
        _PER_LIST[key] = known
    return known[1]


def with_total(xs: list[Expr], total: Expr) -> list[Expr]:
    """``xs``, its total (``per_list``) known to be ``total``: an equal, smaller term than
    the sum of ``xs`` (the hands exchanged by SEVEN-O: a choice between the totals of the
    hands they came from, not a sum of choices face by face, which the solver found hard)."""
    if len(_PER_LIST) > 100_000:
        _PER_LIST.clear()
    _PER_LIST[(id(xs), None)] = (xs, total, True)
    return xs


def _registered(xs: list[Expr]) -> bool:
    """Whether ``xs``'s total was given by ``with_total`` (not the sum of ``xs``)."""
    known = _PER_LIST.get((id(xs), None))
    return known is not None and known[0] is xs and known[2]


def _term(x: Any) -> Any:
    """A Z3 term for ``x`` (a term, a Python bool or int)."""
    if isinstance(x, bool):
        return z3.BoolVal(x)
    return x if z3.is_expr(x) else ival(x)


def _ast(x: Any) -> Any:
    return _term(x).as_ast()


def _relation(make: Any, a: Expr, b: Expr | int) -> Expr:
    ctx = a.ctx
    return z3.BoolRef(make(ctx.ref(), a.as_ast(), _ast(b)), ctx)


def feq(a: Expr, b: Expr | int) -> Expr:
    """``a == b`` built by the C API (``b`` may be a Python int; so below)."""
    return _relation(z3.Z3_mk_eq, a, b)


def fge(a: Expr, b: Expr | int) -> Expr:
    """``a >= b`` built by the C API."""
    return _relation(z3.Z3_mk_ge, a, b)


def fle(a: Expr, b: Expr | int) -> Expr:
    """``a <= b`` built by the C API."""
    return _relation(z3.Z3_mk_le, a, b)


def flt(a: Expr, b: Expr | int) -> Expr:
    """``a < b`` built by the C API."""
    return _relation(z3.Z3_mk_lt, a, b)


def fimplies(a: Expr, b: Expr) -> Expr:
    """``Implies(a, b)`` built by the C API."""
    return _relation(z3.Z3_mk_implies, a, b)


def fnot(a: Expr) -> Expr:
    """``Not(a)`` built by the C API."""
    ctx = a.ctx
    return z3.BoolRef(z3.Z3_mk_not(ctx.ref(), a.as_ast()), ctx)


def fne(a: Expr, b: Expr | int) -> Expr:
    """``a != b`` built by the C API (z3py builds the same ``distinct`` term)."""
    ctx = a.ctx
    return z3.BoolRef(z3.Z3_mk_distinct(ctx.ref(), 2, _array([a, _term(b)])), ctx)


def fsub(a: Expr, b: Expr | int) -> Expr:
    """``a - b`` built by the C API."""
    ctx = a.ctx
    return z3.ArithRef(z3.Z3_mk_sub(ctx.ref(), 2, _array([a, _term(b)])), ctx)


def one_if(c: Expr) -> Expr:
    """``If(c, 1, 0)``: one card when ``c`` holds."""
    return fite(c, 1, 0)


def fite(c: Expr, a: Expr | int, b: Expr | int) -> Expr:
    """``If(c, a, b)`` built by the C API (``a``/``b`` integers or terms of one sort)."""
    ctx = c.ctx
    ast = z3.Z3_mk_ite(ctx.ref(), c.as_ast(), _ast(a), _ast(b))
    boolean = isinstance(a, (z3.BoolRef, bool))
    return z3.BoolRef(ast, ctx) if boolean else z3.ArithRef(ast, ctx)


def _bools(args: tuple[Any, ...]) -> list[Any]:
    return [x if z3.is_expr(x) else z3.BoolVal(bool(x)) for x in _terms(args)]


def _nary(make: Any, empty: bool, args: tuple[Any, ...]) -> Expr:
    """One n-ary Boolean term built by the C API in one call (z3py checks each argument)."""
    xs = _bools(args)
    if not xs:
        return z3.BoolVal(empty)
    ctx = xs[0].ctx
    return z3.BoolRef(make(ctx.ref(), len(xs), _array(xs)), ctx)


def fand(*args: Any) -> Expr:
    """``z3.And`` over Boolean terms (Python bools allowed)."""
    return _nary(z3.Z3_mk_and, True, args)


def f_or(*args: Any) -> Expr:
    """``z3.Or`` over Boolean terms (Python bools allowed)."""
    return _nary(z3.Z3_mk_or, False, args)


def ite_chain(selector: Expr, cases: Sequence[tuple[int, Expr]], default: Expr) -> Expr:
    """``selector == k1 ? v1 : selector == k2 ? v2 : ... : default`` (a lookup table)."""
    value = concrete(selector)
    if value is not None:
        return next((v for k, v in cases if k == value), default)
    out = default
    for key, value in reversed(cases):
        out = fite(feq(selector, key), value, out)
    return out


@dataclass
class Sym:
    """One symbolic state (expressions over Z3 constants, or the constants themselves)."""

    # The state schema's symbolic fields (unoformal.rules.state.SYMBOLIC), by its names;
    # the discard is two fields here: its top card and the faces below it.
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
    pending_kind: Expr  # index in KINDS of the pending draw card
    offender: Expr
    wd4_legal: Expr  # Bool: the pending Wild Draw Four was legal (WD4-1)
    prev_color: Expr  # color current when the Wild Draw Four was played
    uno_window: Expr  # seat whose UNO window is open
    winner: Expr
    round_points: Expr
    scores: list[Expr]
    anchor: str | None = None  # which seat the symmetry reduction fixed to 0 (prover)
    # MERCY: per seat, whether it is knocked out of the round (Bools); empty under a table
    # that knocks nobody out, so every other table's terms are as they were
    out: list[Expr] = field(default_factory=list)
    _cache: dict[str, Any] = field(default_factory=dict, repr=False, compare=False)

    def evolve(self, **changes: Any) -> Sym:
        """The state after a change: not a symmetry-reduced pre-state any more."""
        return replace(self, _cache={}, anchor=None, **changes)

    # Totals are used by many actions and properties: each sum is built once per list.
    def hand_total(self, p: int) -> Expr:
        return per_list(self.hands[p])

    def pile_total(self) -> Expr:
        return per_list(self.pile)

    def disc_total(self) -> Expr:
        return per_list(self.disc)

    def seat_hand(self, seat: Expr) -> list[Expr]:
        """The hand of a symbolic seat, face by face."""
        value = concrete(seat)
        if value is not None:
            return self.hands[value]
        # Keyed by the term's id; the term is kept with the hand, so the id stays its own.
        key = f"seat:{seat.get_id()}"
        known = self._cache.get(key)
        if known is None or not known[0].eq(seat):
            faces = range(len(self.pile))
            known = self._cache[key] = (seat, [
                ite_chain(seat, [(p, self.hands[p][f]) for p in range(self.n - 1)],
                          self.hands[self.n - 1][f]) for f in faces])
        out: list[Expr] = known[1]
        return out

    def seat_total(self, seat: Expr) -> Expr:
        return ite_chain(seat, [(p, self.hand_total(p)) for p in range(self.n - 1)],
                         self.hand_total(self.n - 1))

    def face_total(self, f: int) -> Expr:
        """Copies of face ``f`` in every zone together (DECK-1)."""
        key = f"face{f}"
        if key not in self._cache:
            self._cache[key] = fsum([h[f] for h in self.hands]
                                    + [self.pile[f], self.disc[f], one_if(feq(self.top, f))])
        return self._cache[key]


# The fields of a state that hold terms (the others: player count, symmetry, cache).
STATE_FIELDS = tuple(f.name for f in fields(Sym) if f.name not in ("n", "anchor", "_cache"))


def choose(c: Expr, a: Sym, b: Sym) -> Sym:
    """``a`` where ``c`` holds, else ``b``, field by field (a field both share is kept)."""
    def pick(x: Any, y: Any) -> Any:
        if x is y:
            return x
        if isinstance(x, list):
            return [pick(u, v) for u, v in zip(x, y, strict=True)]
        return z3.If(c, x, y)

    def hand(x: list[Expr], y: list[Expr]) -> list[Expr]:
        """A hand picked: where either hand's total was given (``with_total``), its
        total is the choice of the two totals, not the sum of choices face by face."""
        out: list[Expr] = pick(x, y)
        if out is not x and (_registered(x) or _registered(y)):
            with_total(out, z3.If(c, per_list(x), per_list(y)))
        return out
    hands = a.hands if a.hands is b.hands else [hand(x, y) for x, y in
                                                 zip(a.hands, b.hands, strict=True)]
    return b.evolve(hands=hands, **{name: pick(getattr(a, name), getattr(b, name))
                                    for name in STATE_FIELDS if name != "hands"})


def fresh(n: int, deck: Deck, prefix: str = "s", turn: int | None = None,
          direction: int | None = None, anchor: str | None = None,
          knocks: bool = False, tag: str | None = None) -> Sym:
    """A state of fresh constants: the universally quantified state of a proof
    (with the player to move fixed to ``turn`` under the symmetry reduction, and the
    seat the reduction fixed named by ``anchor``); ``knocks``: the table knocks players
    out of a round (MERCY), so the state says who is out. ``tag``: the names' prefix,
    given (``Spec.tag``), instead of a new one made from ``prefix``."""
    t = fresh_tag(prefix) if tag is None else tag
    faces = range(len(deck.faces))

    def ints(name: str) -> list[Expr]:
        return [z3.Int(f"{t}.{name}.{deck.code(f)}") for f in faces]

    return Sym(
        n=n, hands=[ints(f"hand{p}") for p in range(n)], pile=ints("pile"), disc=ints("disc"),
        top=z3.Int(f"{t}.top"),
        turn=z3.Int(f"{t}.turn") if turn is None else ival(turn),
        direction=z3.Int(f"{t}.dir") if direction is None else ival(direction),
        color=z3.Int(f"{t}.color"), phase=z3.Int(f"{t}.phase"), dealer=z3.Int(f"{t}.dealer"),
        drawn=z3.Int(f"{t}.drawn"), pending=z3.Int(f"{t}.pending"),
        # The constants keep their names from before the state schema named the fields
        # (pkind, legal, prev, uno, points): Z3's search, and so the models it finds (the
        # witnesses and counterexamples the tests pin), depend on the names.
        pending_kind=z3.Int(f"{t}.pkind"), offender=z3.Int(f"{t}.offender"),
        wd4_legal=z3.Bool(f"{t}.legal"), prev_color=z3.Int(f"{t}.prev"),
        uno_window=z3.Int(f"{t}.uno"), winner=z3.Int(f"{t}.winner"),
        round_points=z3.Int(f"{t}.points"),
        scores=[z3.Int(f"{t}.score{p}") for p in range(n)], anchor=anchor,
        out=[z3.Bool(f"{t}.out{p}") for p in range(n)] if knocks else [])


def _counts(cards: Iterable[int], nfaces: int) -> list[Expr]:
    out = [0] * nfaces
    for c in cards:
        out[c] += 1
    return [ival(k) for k in out]


def _none(x: int | None) -> Expr:
    return ival(NONE if x is None else x)


# How each domain of the state schema is held as terms; the discard is two fields here
# (the top card, and the faces below it).
_TERMS: dict[Domain, Callable[[Any, int], Any]] = {
    Domain.SEAT: lambda v, nf: ival(v), Domain.SEAT_OR_NONE: lambda v, nf: _none(v),
    Domain.COLOR_OR_NONE: lambda v, nf: _none(v), Domain.FACE_OR_NONE: lambda v, nf: _none(v),
    Domain.KIND_OR_NONE: lambda v, nf: ival(NONE if v is None else KINDS.index(v)),
    Domain.DIRECTION: lambda v, nf: ival(v), Domain.PHASE: lambda v, nf: ival(PHASE_CODE[v]),
    Domain.COUNT: lambda v, nf: ival(v), Domain.FLAG: lambda v, nf: z3.BoolVal(bool(v)),
    Domain.HANDS: lambda v, nf: [_counts(h, nf) for h in v],
    Domain.PILE: lambda v, nf: _counts(v, nf), Domain.SCORES: lambda v, nf: [ival(x) for x in v],
}


def as_number(term: Expr) -> Expr:
    """A field's term as a number: a flag (``wd4_legal``) as 0 or 1."""
    return z3.If(term, 1, 0) if z3.is_bool(term) else term


def concrete_state(values: Mapping[str, Any], n: int, nfaces: int,
                   knocks: bool = False) -> Sym:
    """The symbolic state of a concrete one, given field by field as the engine holds
    them (the state schema's symbolic fields: :data:`unoformal.rules.state.SYMBOLIC`);
    ``knocks`` as for :func:`fresh`."""
    terms: dict[str, Any] = {}
    for f in SYMBOLIC:
        value = values[f.name]
        if f.domain is Domain.SEATS:
            terms[f.name] = [z3.BoolVal(p in value) for p in range(n)] if knocks else []
        elif f.domain is Domain.DISCARD:
            terms["disc"] = _counts(value[:-1], nfaces)
            terms["top"] = ival(value[-1] if value else NONE)
        else:
            terms[f.name] = _TERMS[f.domain](value, nfaces)
    return Sym(n=n, **terms)


def equal(a: Sym, b: Sym) -> Expr:
    """``a = b`` field by field (used for ``next`` written as a relation)."""
    def leaves(x: Any) -> list[Any]:
        return [leaf for item in x for leaf in leaves(item)] if isinstance(x, list) else [x]
    return fand([x == y for name in STATE_FIELDS
                 for x, y in zip(leaves(getattr(a, name)), leaves(getattr(b, name)),
                                 strict=True)])


def dealt(hands: list[list[Expr]], pile: list[Expr], dealer: Expr, scores: list[Expr],
          knocks: bool = False) -> Sym:
    """DEAL-2's state: the hands dealt, the rest the pile, the start card not yet turned
    (phase ``DEALT``), the scores kept from the rounds before; nobody out (MERCY's
    ``knocks``)."""
    none, zero = ival(NONE), ival(0)
    return Sym(
        n=len(hands), hands=hands, pile=pile, disc=[zero] * len(pile), top=none,
        turn=zero, direction=ival(1), color=none, phase=ival(DEALT), dealer=dealer,
        drawn=none, pending=zero, pending_kind=none, offender=none, wd4_legal=z3.BoolVal(True),
        prev_color=none, uno_window=none, winner=none, round_points=zero, scores=scores,
        out=[z3.BoolVal(False)] * len(hands) if knocks else [])
