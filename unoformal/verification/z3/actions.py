"""The transition relation: one named Z3 action per rule-table entry.

Written like a TLA+ spec. Each action is a function from a symbolic pre-state
to a :class:`Step`: its guard (``ENABLED``, with the action's own choices such
as the card played) and its post-state as expressions over the pre-state.
``next`` is their disjunction (:func:`next_relation`).

Every move is a guarded command of the rule language (:mod:`unoformal.rules`):
the actions here encode each command's guard and effect (the ``Symbolic`` reading
of its nodes, the methods below such as ``take``, ``placed`` and ``resolved``),
exactly as the engine runs them. What is not yet a command or a primitive of one
(a card's effect once played, the start card, the next deal) is written here by
hand, naming the engine method it mirrors. No rule is restated here; the
properties that check the rules are stated separately, in the rulebook's own
words (:mod:`.properties`).
"""

from __future__ import annotations

import functools
import inspect
import itertools
import types
from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass, field
from typing import Any, cast

import z3

from unoformal.language.commands import Command
from unoformal.language.effects import Effect, RandomColor
from unoformal.language.protocols import Binding, Who
from unoformal.rulebook.cards import Kind
from unoformal.rulebook.deck import Deck
from unoformal.rulebook.table import (
    CardEffect,
    Partners,
    Rule,
    RuleTable,
    StartRule,
    partner_of,
)
from unoformal.rules import deal as deal_commands
from unoformal.rules import play as card_play
from unoformal.rules import respond, turn
from unoformal.rules import start as start_commands
from unoformal.rules import uno as out_of_turn
from unoformal.rules.challenge import wd4_blocks, wd4_excuses
from unoformal.rules.effects import waits
from unoformal.verification.z3.state import (
    COLOR,
    DEALT,
    KINDS,
    NONE,
    OVER,
    PHASE_CODE,
    PLAY,
    RESPOND,
    STUCK,
    TURN_AT_0,
    Expr,
    Sym,
    choose,
    concrete,
    dealt,
    equal,
    f_or,
    fand,
    feq,
    fge,
    fimplies,
    fite,
    fle,
    flt,
    fne,
    fnot,
    fsub,
    fsum,
    ite_chain,
    ival,
    one_if,
    per_list,
    with_total,
)


@dataclass
class PassKept:
    """MERCY's pass of the hands over the players still in (``PassHands`` with no
    target), as the conservation property reads it.

    Each hand it gives is a choice among every seat's hand, by an ite-chain over the seat
    before it in, itself an ite-chain over the out flags; the solver could not decide
    whether such a play keeps each face's count (35-42 s at 5 players, where SEVEN-O
    alone takes 0.4 s; a time-out at 6-10). What the pass keeps of one face's counts is a lemma
    about the out flags alone: for any counts of a face, seat by seat, the counts it
    gives (``column``, the very function the relation's hands are built by) have the
    same total, and are non-negative where the counts were. The conservation property
    asks the lemma once, about one column of fresh counts (``lemma``), asks that the
    hands the pass was given are non-negative (``signed``), and asks the play with the
    counts the pass gave replaced by fresh counts (``abstract``) of which only those
    two are known. The play is one instance of that last query (each fresh count set to
    the count the pass gave), so where the three are unsatisfiable, the play keeps
    every count."""

    name: str  # the fresh counts' names start with it (numbered per table, as ``tag``'s)
    column: Callable[[list[Expr]], list[Expr]]
    given: list[list[Expr]]  # the hands it was given, [face][seat]
    gave: list[list[Expr]]  # the hands it gave, [face][seat]
    # each hand's total after it, as ``with_total`` registers it: the same choice, over
    # the totals of the hands it was given
    totals: list[Expr]

    @staticmethod
    def keeps(given: list[Expr], gave: list[Expr]) -> Expr:
        """The lemma about one column: its total is kept, and where its counts are
        non-negative, so is each count given."""
        return fand(feq(fsum(gave), fsum(given)),
                    fimplies(fand(*[fge(x, 0) for x in given]),
                             fand(*[fge(x, 0) for x in gave])))

    def signed(self) -> Expr:
        """Every count of the hands the pass was given is non-negative."""
        return fand(*[fge(x, 0) for column in self.given for x in column])

    def lemma(self) -> Expr:
        """The lemma about one column of fresh counts."""
        counts = [z3.Int(f"{self.name}.column[{p}]") for p in range(len(self.given[0]))]
        return self.keeps(counts, self.column(counts))

    def abstract(self) -> tuple[list[tuple[Expr, Expr]], list[Expr]]:
        """Each count the pass gave, paired with a fresh count in its place (a term given
        twice has one), and the lemma's instance for each face over the fresh counts."""
        fresh: dict[int, tuple[Expr, Expr]] = {}
        facts = []
        for f, (given, gave) in enumerate(zip(self.given, self.gave, strict=True)):
            counts = []
            for p, x in enumerate(gave):
                if z3.is_int_value(x):  # a number is no term of the pass's to stand for
                    counts.append(x)
                    continue
                if x.get_id() not in fresh:
                    fresh[x.get_id()] = (x, z3.Int(f"{self.name}.gave[{p}][{f}]"))
                counts.append(fresh[x.get_id()][1])
            facts.append(self.keeps(given, counts))
        # a hand's total after the pass: a fresh count too, of which nothing is known
        for p, total in enumerate(self.totals):
            if not z3.is_int_value(total) and total.get_id() not in fresh:
                fresh[total.get_id()] = (total, z3.Int(f"{self.name}.total[{p}]"))
        return list(fresh.values()), facts


@dataclass
class Step:
    """One action from one pre-state: ``guard`` holds iff it may happen with these choices."""

    name: str
    rule_ids: tuple[str, ...]
    pre: Sym
    guard: Expr  # enabled, given the action's choices
    post: Sym
    mover: Expr  # the seat acting (the player to move, or the out-of-turn actor)
    face: Expr = NONE  # the card played, misplayed, drawn or turned (-1 when none)
    choices: dict[str, Expr] = field(default_factory=dict)
    in_next: bool = True  # False for sub-actions checked alone (the reshuffle)
    draws: Expr = True  # which cards the chance of the draw pile hands out
    variant: str = ""  # which of the action's draws needed the reshuffle
    drawn_from: str = ""  # that part of ``variant``, without the seat it names
    reads: frozenset[str] = frozenset()  # every table entry read to build it
    named: int | None = None  # the seat it names out of turn (one step per seat)
    chiral: bool = False  # names a side (DEAL-3's left) rather than the direction of play
    # Each draw the action makes, in order: the counts taken from the pile (Z3 constants)
    # and the cards the hand gets; validation sets the first from the engine's draws.
    takes: tuple[tuple[tuple[Expr, ...], tuple[Expr, ...]], ...] = ()
    dealt: tuple[tuple[Expr, ...], ...] = ()  # next_deal: the hands dealt (Z3 constants)
    # A table value makes this no action of the table (UNO-1 off: no uno, no catch; no
    # card whose victim may challenge or answer: no challenge, no accept; no start rule
    # that lets the first player choose: no choose_color): left out of the relation
    # (``Spec.steps``). A guard false for any other reason stays, for steps-enabled.
    off: bool = False
    # MERCY's passes of the hands the action makes (``PassKept``): what each keeps of a
    # face's counts, a lemma the conservation property proves and then uses
    kept: tuple[PassKept, ...] = ()

    @property
    def label(self) -> str:
        return f"{self.name}[{self.variant}]" if self.variant else self.name

    @property
    def kind(self) -> str:
        """The action and where its draws come from, whatever seat it names: what must be
        enabled in some invariant state (the vacuity check of ``prover``)."""
        return f"{self.name}[{self.drawn_from}]" if self.drawn_from else self.name

    @property
    def relation(self) -> Expr:
        """The whole transition condition: enabled, and the cards drawn are possible."""
        return fand(self.guard, self.draws)


def _face_of(hands: list[list[Expr]], face: int, seat: int) -> Expr:
    """The count of ``face`` in the hand of ``seat``."""
    return hands[seat][face]


# An action's builder: name, builder, the seat it names (or None), chiral.
_Builder = tuple[str, Callable[[Sym], list[Step]], int | None, bool]


class _Reads:
    """The rule table as the action builders see it: every entry read is noted (methods
    such as ``effect`` run on this view, so the entries they look up are noted too).
    Each step then cites every entry it compiles (``Step.reads``), not only the ones it
    is named after: the mutant runner asks first about the actions a changed entry
    can affect."""

    def __init__(self, table: RuleTable) -> None:
        self.table = table
        self.seen: set[str] = set()

    def note_read(self, rule_id: str) -> None:
        """An entry read other than as an attribute (a house rule whose change a command
        built here takes: unoformal.rules.house)."""
        self.seen.add(rule_id)

    def __getattr__(self, name: str) -> Any:
        method = getattr(type(self.table), name, None)
        if inspect.isfunction(method):
            return types.MethodType(method, self)
        value = getattr(self.table, name)
        if isinstance(value, Rule):
            self.seen.add(value.id)
        return value


class Spec:
    """The rule table compiled for ``players``: one player count, or several at once.
    ``table`` is the table itself; ``rules``, what the actions read, is a view of it
    that notes the entries read.

    With several counts the number of players is a symbol (``count``, one of
    ``counts``) and a state has a seat for the largest count: the seats from ``count``
    on are empty (the invariant says so), so one query is about every count at once.
    With one count, ``count`` is that number and every seat has a player."""

    def __init__(self, rules: RuleTable, players: int | Collection[int]) -> None:
        self.table = rules
        self._reads = _Reads(rules)
        self.rules = cast(RuleTable, self._reads)
        self.counts = (players,) if isinstance(players, int) else tuple(sorted(set(players)))
        self.n = max(self.counts)  # seats in a state
        self.count: Expr = ival(self.n) if len(self.counts) == 1 else z3.Int("players")
        self.deck = Deck.of(rules)
        faces = self.deck.faces
        self.nfaces = len(faces)
        ci = self.deck.color_index
        self.fcolor = [ci[f.color] if f.color is not None else NONE for f in faces]
        self.fkind = [KINDS.index(f.kind) for f in faces]
        self.frank = [f.rank if f.rank is not None else NONE for f in faces]
        self.kinds = [k for k in KINDS if self.faces_of(k)]
        # MERCY: players are knocked out during a round (read off the table, not noted:
        # only the steps of a table with it on cite it)
        self.knocks = rules.mercy.enabled
        self._modes: list[bool] = []  # which draws of the action being built reshuffle
        self._takes = 0
        self._take_log: list[tuple[tuple[Expr, ...], tuple[Expr, ...]]] = []
        self._kept_log: list[PassKept] = []  # the passes of hands of the step being built
        self._step_pre: Sym | None = None  # the pre-state of the step being built (KnockOut)
        self._passes = itertools.count()  # their names, numbered per table as ``tag``'s
        self._built: dict[int, tuple[Sym, list[tuple[int, list[Step]]]]] = {}
        # the names of this table's symbols (``tag``), numbered from 0 for each table
        self._names = itertools.count()
        # whether ``variants`` forks a step under MERCY: the prover's symmetric pre-states
        # (``prover._setup``) ask it; ``validate``, which reads each choice of a step off
        # its terms, does not
        self.forks = False
        # MERCY's fork (``variants``): the pre-state's out flags while a step is built, the
        # first choice of a next seat made on them, whether a hand was written at a seat
        # not known, and the seat taken for that choice in the instance being built
        self._fork_out: list[Expr] | None = None
        self._fork: tuple[int, int, Expr] | None = None
        self._unknown_hand = False
        self._forked: tuple[int, int, int] | None = None
        # and the seat a play's target is in the instance being built (a target chosen
        # is then a number), once a play with a target was built in a fork's first pass
        self._targeted = False
        self._target: int | None = None
        self._builders: list[_Builder] | None = None

    # ------------------------------------------------------------- lookups

    def faces_of(self, kind: Kind) -> list[int]:
        return [i for i, f in enumerate(self.deck.faces) if f.kind is kind]

    def lookup(self, table: Sequence[int], x: Expr, domain: Sequence[int]) -> Expr:
        """``table[x]`` for a symbolic face ``x`` known to lie in ``domain``."""
        values = {table[g] for g in domain}
        if len(values) == 1:
            return ival(values.pop())
        return ite_chain(x, [(g, ival(table[g])) for g in domain[:-1]],
                         ival(table[domain[-1]]))

    def is_kind(self, x: Expr, kind: Kind) -> Expr:
        return f_or([feq(x, g) for g in self.faces_of(kind)])

    def select(self, vector: Sequence[Expr], x: Expr, domain: Sequence[int]) -> Expr:
        """``vector[x]`` for a symbolic face ``x`` in ``domain``."""
        return ite_chain(x, [(g, vector[g]) for g in domain[:-1]], vector[domain[-1]])

    def seat_after(self, seat: Expr, direction: Expr, steps: int, fewer: bool = False) -> Expr:
        """The seat ``steps`` places on in ``direction`` (engine ``_next``). ``fewer``: the
        caller asks only where ``steps`` is below the number of players."""
        if len(self.counts) == 1:
            return self._seat_after_at(self.n, seat, direction, steps)
        if fewer or steps < self.counts[0]:
            return self._seat_after_some(seat, direction, steps)
        return ite_chain(self.count, [(c, self._seat_after_at(c, seat, direction, steps))
                                      for c in self.counts[:-1]],
                         self._seat_after_at(self.counts[-1], seat, direction, steps))

    def _seat_after_at(self, n: int, seat: Expr, direction: Expr, steps: int) -> Expr:
        """``seat_after`` with ``n`` players."""
        d, p0 = concrete(direction), concrete(seat)
        if d is not None and p0 is not None:
            return ival((p0 + d * steps) % n)
        if d is not None:
            return ite_chain(seat, [(p, ival((p + d * steps) % n)) for p in range(n - 1)],
                             ival((n - 1 + d * steps) % n))
        cases = [(p, z3.If(direction == 1, ival((p + steps) % n),
                           ival((p - steps) % n))) for p in range(n - 1)]
        last = n - 1
        return ite_chain(seat, cases, z3.If(direction == 1, ival((last + steps) % n),
                                            ival((last - steps) % n)))

    def _seat_after_some(self, seat: Expr, direction: Expr, steps: int) -> Expr:
        """``seat_after`` from a seat that has a player, when the number of players is a
        symbol and ``steps`` is below every count asked about (or the caller has checked
        it is below the symbol): one wrap around the table at most."""
        d = concrete(direction)
        if d is None:
            return fite(feq(direction, 1), self._seat_after_some(seat, ival(1), steps),
                        self._seat_after_some(seat, ival(-1), steps))
        p0, move = concrete(seat), d * steps
        if p0 is not None:
            x = p0 + move
            if 0 <= x < self.counts[0]:
                return ival(x)
            if x < 0:
                return fsum(self.count, x)
            return fite(fge(ival(x), self.count), fsub(ival(x), self.count), ival(x))
        x = fsum(seat, move)
        if move >= 0:
            return fite(fge(x, self.count), fsub(x, self.count), x)
        return fite(flt(x, 0), fsum(x, self.count), x)

    def is_out(self, s: Sym, seat: Expr | int) -> Expr:
        """MERCY: ``seat`` is knocked out of the round (false outright under a table that
        knocks nobody out)."""
        if not s.out:
            return z3.BoolVal(False)
        p = concrete(seat)
        if p is not None:
            return s.out[p]
        return ite_chain(seat, [(q, s.out[q]) for q in range(self.n - 1)], s.out[self.n - 1])

    def seat_on(self, s: Sym, seat: Expr, direction: Expr, steps: int) -> Expr:
        """``seat_after`` over the players in the round (engine ``_next``): under MERCY,
        each step passes the seats knocked out by, at most every other seat."""
        if not s.out:
            return self.seat_after(seat, direction, steps)
        x = seat
        for _ in range(steps):
            x = self._next_forked(s, x, direction)
        return x

    def _next_forked(self, s: Sym, seat: Expr, direction: Expr) -> Expr:
        """``_next_in``; on the pre-state of a step being built (``variants``), a choice
        among seats is noted (the first), and in an instance of the fork it is the seat
        that instance takes."""
        p, d = concrete(seat), concrete(direction)
        if s.out is not self._fork_out or p is None or d is None:
            return self._next_in(s, seat, direction)
        if self._forked is not None and self._forked[:2] == (p, d):
            return ival(self._forked[2])
        x = self._next_in(s, seat, direction)
        if self._fork is None and concrete(x) is None:
            self._fork = (p, d, x)
        return x

    def _candidates(self, s: Sym, p: int, d: int) -> list[int]:
        """The seats ``_next_in`` from ``p`` in direction ``d`` can be: each seat after
        ``p`` not known to be passed by, then ``p`` itself (every other one passed)."""
        seats = [(p + d * i) % self.n for i in range(1, self.n)]
        return [q for q in seats if not (z3.is_false(self.seated(q)) or z3.is_true(s.out[q]))
                ] + [p]

    def _next_in(self, s: Sym, seat: Expr, direction: Expr) -> Expr:
        """The first seat in after ``seat``: the seats after it in turn, each taken unless
        it is out (``seat`` itself when every other one is). Built from a known seat and
        direction, each a choice of the cases, so a term is a list of candidates rather
        than a nest of ite-chains over ite-chains (which left 10-player queries
        undecided)."""
        d = concrete(direction)
        if d is None:
            return fite(feq(direction, 1), self._next_in(s, seat, ival(1)),
                        self._next_in(s, seat, ival(-1)))
        p = concrete(seat)
        if p is None:
            return ite_chain(seat, [(q, self._next_in(s, ival(q), direction))
                                    for q in range(self.n - 1)],
                             self._next_in(s, ival(self.n - 1), direction))
        # the seats in turn from p, as numbers: a seat with no player (several counts at
        # once: seats from the count on) is passed by like a seat out
        out: Expr = ival(p)
        for i in reversed(range(1, self.n)):
            q = (p + d * i) % self.n
            here, gone = self.seated(q), s.out[q]
            if z3.is_false(here) or z3.is_true(gone):
                continue  # decided here (a state given seat by seat): passed by
            if z3.is_true(here) and z3.is_false(gone):
                out = ival(q)
            else:
                out = fite(fand(here, fnot(gone)), ival(q), out)
        return out

    def players_in(self, s: Sym) -> Expr:
        """How many players are in the round (MERCY's knocked out apart)."""
        if not s.out:
            return self.count
        return fsub(self.count, fsum([one_if(x) for x in s.out]))

    def seated(self, p: Expr | int) -> Expr:
        """Seat ``p`` has a player (true outright for a seat below every count)."""
        seat = concrete(p)
        if seat is not None and seat < self.counts[0]:
            return z3.BoolVal(True)
        return flt(ival(p) if isinstance(p, int) else p, self.count)

    def if_seated(self, p: Expr | int, x: Expr) -> Expr:
        """``x`` and seat ``p`` has a player (``x`` itself when it always has one)."""
        seated = self.seated(p)
        return x if z3.is_true(seated) else fand(seated, x)

    def when_seated(self, p: int, x: Expr | int, other: Expr | int) -> Expr | int:
        """``x`` when seat ``p`` has a player, else ``other`` (``x`` when it always has one)."""
        seated = self.seated(p)
        return x if z3.is_true(seated) else fite(seated, x, other)

    def for_seated(self, p: Expr | int, x: Expr) -> Expr:
        """``x`` when seat ``p`` has a player (``x`` itself when it always has one)."""
        seated = self.seated(p)
        return x if z3.is_true(seated) else fimplies(seated, x)

    def count_in(self, counts: Collection[int]) -> Expr:
        """The number of players is one of ``counts`` (given that it is one of
        ``self.counts``: true or false outright when all or none of them are)."""
        inside = [c for c in self.counts if c in counts]
        if len(inside) in (0, len(self.counts)):
            return z3.BoolVal(bool(inside))
        return self.one_of(inside)

    def one_of(self, counts: Sequence[int]) -> Expr:
        """The number of players is one of ``counts``."""
        return f_or([feq(self.count, c) for c in counts])

    def reverse_as_skip(self) -> Expr:
        """TWO-1 from the table: the player counts at which a Reverse acts as a Skip."""
        return self.count_in([c for c in self.counts if self.rules.reverse_is_skip(c)])

    # ------------------------------------------------ drawing (RESHUFFLE-1)

    def available(self, s: Sym) -> Expr:
        """Engine ``available``: the pile plus what RESHUFFLE-1 would return."""
        extra = 0 if self.rules.reshuffle.keep_top else z3.If(s.top != NONE, 1, 0)
        return s.pile_total() + s.disc_total() + extra

    def can_draw(self, s: Sym, count: Expr | int) -> Expr:
        """Engine ``_can_draw`` (EXT-SHORT)."""
        if self.rules.draw_what_is_left.enabled:
            return z3.BoolVal(True)
        return self.available(s) >= count

    def reshuffled(self, s: Sym) -> tuple[list[Expr], Expr]:
        """Engine ``_reshuffle`` (RESHUFFLE-1): the new pile and the top card left."""
        if self.rules.reshuffle.keep_top:
            return [fsum(s.pile[f], s.disc[f]) for f in range(self.nfaces)], s.top
        return ([fsum(s.pile[f], s.disc[f], one_if(feq(s.top, f))) for f in range(self.nfaces)],
                ival(NONE))

    def take(self, s: Sym, who: Expr, count: Expr | int,
             tag: str) -> tuple[Sym, Expr, list[Expr]]:
        """Engine ``_take``: ``who`` draws ``count`` cards. Either the pile has enough, or
        the whole pile is drawn, the discard is reshuffled (RESHUFFLE-1) and the rest
        (what is left of it, EXT-SHORT) drawn from the new pile. The two cases are
        separate variants of the action (see :meth:`variants`), which keeps each query
        small. Returns the state, the constraint on the cards drawn, and those cards."""
        if isinstance(count, int) and count == 0:
            return s, z3.BoolVal(True), [ival(0)] * self.nfaces
        reshuffle = self._modes.pop(0) if self._modes else False
        self._takes += 1
        faces = range(self.nfaces)
        total = s.pile_total()
        d = [z3.Int(f"{tag}.d.{self.deck.code(f)}") for f in faces]
        if not reshuffle:
            cons = fand(fge(total, count), *[fge(x, 0) for x in d],
                        *[fle(d[f], s.pile[f]) for f in faces], feq(fsum(d), count))
            post = s.evolve(pile=[fsub(s.pile[f], d[f]) for f in faces])
            drawn = d
        else:
            newpile, top = self.reshuffled(s.evolve(pile=[ival(0)] * self.nfaces))
            left = fsum(newpile)
            want = count - total
            cons = fand(flt(total, count), *[fge(x, 0) for x in d],
                        *[fle(d[f], newpile[f]) for f in faces],
                          fsum(d) == z3.If(want < left, want, left))
            post = s.evolve(pile=[fsub(newpile[f], d[f]) for f in faces],
                            disc=[ival(0)] * self.nfaces, top=top)
            drawn = [fsum(s.pile[f], d[f]) for f in faces]
        self._take_log.append((tuple(d), tuple(drawn)))
        # UNO-1: a hand grown back holds no forgotten UNO (engine ``_take``)
        uno = z3.If(fand(feq(s.uno_window, who), fsum(drawn) > 0), ival(NONE), s.uno_window)
        return post.evolve(hands=self.added(s.hands, who, drawn), uno_window=uno), cons, drawn

    def added(self, hands: list[list[Expr]], who: Expr,
              cards: Sequence[Expr]) -> list[list[Expr]]:
        """``cards`` added to the hand of ``who``. A known seat leaves every other hand the
        very same list, a pure frame: no ``h + 0`` terms for the solver, and the properties
        can skip what an action does not touch (``is``)."""
        seat = concrete(who)
        if seat is not None:
            return [[fsum(x, y) for x, y in zip(h, cards, strict=True)] if p == seat else h
                    for p, h in enumerate(hands)]
        self._unknown_hand = True
        return [[fsum(x, fite(feq(who, p), y, 0)) for x, y in zip(h, cards, strict=True)]
                for p, h in enumerate(hands)]

    # --------------------------------------------------------- predicates

    def matches(self, s: Sym, f: Expr, kind: Kind, domain: Sequence[int]) -> Expr:
        """Engine ``_matches`` (PLAY-1) for a face ``f`` of ``kind``."""
        m = self.rules.matching
        if kind.is_wild:
            return z3.BoolVal(m.wild_any_time)
        parts = []
        if m.by_color:
            parts.append(self.lookup(self.fcolor, f, domain) == s.color)
        top_same = self.is_kind(s.top, kind)
        if kind is Kind.NUMBER:
            if m.by_number:
                numbers = self.faces_of(Kind.NUMBER)
                parts.append(fand(top_same, self.lookup(self.frank, f, domain)
                                    == self.lookup(self.frank, s.top, numbers)))
        elif m.by_symbol:
            parts.append(top_same)
        return f_or(parts) if parts else z3.BoolVal(False)

    def wd4_legal(self, s: Sym, hand: Sequence[Expr]) -> Expr:
        """WD4-1 on the hand left after playing it: no card the rule's statement
        (``unoformal.rules.challenge.wd4_blocks``) names is held. A face it can never name
        is left out, so each face's term is as small as one written out by hand."""
        blocks = wd4_blocks(self.rules)
        terms = [(g, blocks.encode(self, s, g)) for g in range(self.nfaces)]
        legal = fand([fimplies(t, feq(hand[g], 0)) for g, t in terms if t is not None])
        excuses = wd4_excuses(self.rules)  # WD4-1's house rule: another wild card held
        if excuses is None:
            return legal
        held = [(g, excuses.encode(self, s, g)) for g in range(self.nfaces)]
        return f_or([legal, *[fand(t, fge(hand[g], 1)) for g, t in held if t is not None]])

    # ---- what the rule language's symbolic backend asks (unoformal.language.cards.Symbolic)

    def kind_of(self, face: int) -> Kind:
        return self.deck.faces[face].kind

    def color_is_current(self, s: Sym, face: int) -> Expr | None:
        color = self.fcolor[face]
        return None if color == NONE else feq(s.color, color)

    def playable(self, s: Sym, face: int) -> Expr:
        return self.matches(s, ival(face), self.deck.faces[face].kind, [face])

    def true(self) -> Expr:
        return z3.BoolVal(True)

    def is_true(self, term: Expr) -> bool:
        return bool(z3.is_true(term))

    def both(self, terms: list[Expr]) -> Expr:
        return fand(terms)

    def negated(self, term: Expr) -> Expr:
        return z3.Not(term)

    # The rest of the commands' protocol (unoformal.language.protocols.Symbolic).
    def false(self) -> Expr:
        return z3.BoolVal(False)

    def same(self, a: Expr | int, b: Expr | int) -> Expr:
        return feq(a, b) if z3.is_expr(a) else feq(ival(a), b)

    def differ(self, a: Expr | int, b: Expr | int) -> Expr:
        return fne(a, b) if z3.is_expr(a) else fne(ival(a), b)

    def at_least(self, a: Expr, b: int) -> Expr:
        return fge(a, ival(b))

    def none(self) -> Expr:
        return ival(NONE)

    def phase_is(self, s: Sym, phase: str) -> Expr:
        return feq(s.phase, PHASE_CODE[phase])

    def pending_in(self, s: Sym, kinds: tuple[Kind, ...]) -> Expr:
        # Only a kind the deck has can be pending (a play put it there).
        return f_or([feq(s.pending_kind, KINDS.index(k)) for k in kinds if k in self.kinds])

    def copied(self, s: Sym, source: str, field: str) -> Sym:
        return s.evolve(**{field: getattr(s, source)})

    def hand_size(self, s: Sym, seat: Expr | int) -> Expr:
        p = concrete(seat)
        return s.hand_total(p) if p is not None else s.seat_total(seat)

    def cleared(self, s: Sym, field: str) -> Sym:
        return s.evolve(**{field: ival(NONE)})

    def either(self, terms: list[Expr]) -> Expr:
        return f_or(terms)

    def cards_left(self, s: Sym, cards: int) -> Expr:
        return fge(self.available(s), cards)

    def can_play_any(self, s: Sym, seat: Expr) -> Expr:
        """Whether ``seat`` holds a card it may play (the play's ``playable``, card by card)."""
        hand = s.seat_hand(seat)
        return f_or([fand(hand[g] >= 1, self.can_play(s, seat, ival(g), self.deck.faces[g].kind))
                     for g in range(self.nfaces)])

    def holds_card(self, s: Sym, seat: Expr, card: Expr) -> Expr:
        return self.select(s.seat_hand(seat), card, list(range(self.nfaces))) >= 1

    def card_playable(self, s: Sym, seat: Expr, card: Expr) -> Expr:
        """The play's ``playable`` of a card chosen symbolically, whatever its kind."""
        return f_or([fand(f_or([feq(card, g) for g in self.faces_of(kind)]),
                          self.can_play(s, seat, card, kind)) for kind in self.kinds])

    def kept(self, s: Sym, drawn: list[Expr], tag: str) -> tuple[Sym, Expr]:
        """DRAW-1: the last card drawn is the one the player may play (a chance choice
        among the cards drawn: the engine keeps the last); none when nothing was drawn."""
        x = z3.Int(f"{tag}.face")
        which = z3.If(fsum(drawn) >= 1,
                      fand(x >= 0, x < self.nfaces,
                           self.select(drawn, x, list(range(self.nfaces))) >= 1),
                      x == NONE)
        return s.evolve(drawn=x), which

    def phase_set(self, s: Sym, phase: str) -> Sym:
        return s.evolve(phase=ival(PHASE_CODE[phase]))

    def turn_passed(self, s: Sym, seat: Expr, steps: int) -> Sym:
        return s.evolve(turn=self.seat_on(s, seat, s.direction, steps))

    def colored(self, s: Sym, color: Expr) -> Sym:
        return s.evolve(color=color)

    def can_effect(self, s: Sym, effect: CardEffect) -> Expr:
        """Engine ``_can_effect`` (EXT-SHORT off): the victim can draw what the card
        names, counted once the card is played: the old top then joins what RESHUFFLE-1
        returns, and the card itself too unless the top is kept."""
        if effect.victim_may_challenge or self.rules.draw_what_is_left.enabled:
            return z3.BoolVal(True)
        left = s.pile_total() + s.disc_total() + z3.If(s.top != NONE, 1, 0) \
            + (0 if self.rules.reshuffle.keep_top else 1)
        return left >= effect.victim_draws

    def holds_kind(self, s: Sym, seat: Expr, kind: Kind) -> Expr:
        hand = s.seat_hand(seat)
        return f_or([hand[f] >= 1 for f in self.faces_of(kind)])

    def can_play(self, s: Sym, seat: Expr, f: Expr, kind: Kind) -> Expr:
        """Whether ``seat`` may play ``f``, a card of ``kind`` in its hand: the conjuncts of
        the play command's ``playable`` (unoformal.rules.play)."""
        # Built afresh through the view (not cached), so each step notes the entries its
        # guard reads (Step.reads, which the mutant runner asks first).
        b = Binding(seat, None, None, f)
        return fand([part.cond.encode(self, s, b)
                     for part in card_play.playable(self.rules, kind)])

    def matches_kind(self, s: Sym, card: Expr, kind: Kind) -> Expr:
        return self.matches(s, card, kind, self.faces_of(kind))

    def wd4_legal_without(self, s: Sym, seat: Expr, card: Expr) -> Expr:
        """WD4-1 on the hand of ``seat`` once the Wild Draw Four ``card`` is played."""
        hand = s.seat_hand(seat)
        domain = self.faces_of(Kind.WILD_DRAW_FOUR)
        return self.wd4_legal(s, [fsub(hand[g], one_if(feq(card, g))) if g in domain
                                  else hand[g] for g in range(self.nfaces)])

    def placed(self, s: Sym, b: Binding, judges: bool, names_color: bool, kind: Kind) -> Sym:
        """The ``PlaceCard`` primitive: the card from the hand onto the discard."""
        domain = self.faces_of(kind)
        f = b.card
        hand = s.seat_hand(b.actor)
        after = [fsub(hand[g], one_if(feq(f, g))) if g in domain else hand[g]
                 for g in range(self.nfaces)]
        post = s.evolve(
            hands=self.replaced(s.hands, b.actor, after),
            disc=[fsum(s.disc[g], one_if(feq(s.top, g))) for g in range(self.nfaces)],
            top=f, drawn=ival(NONE),
            color=b.color if names_color else self.lookup(self.fcolor, f, domain))
        if judges:
            post = post.evolve(wd4_legal=self.wd4_legal(s, after), prev_color=s.color)
        return post

    def window_opened(self, s: Sym, seat: Expr, says: Expr, cards_left: int) -> Sym:
        """The ``OpenWindow`` primitive (UNO-1)."""
        opens = fand(feq(self.hand_size(s, seat), cards_left), z3.Not(says))
        return s.evolve(uno_window=z3.If(opens, seat, s.uno_window))

    def next_seat(self, s: Sym, seat: Expr) -> Expr:
        """The seat after ``seat`` in the direction of play (``Who.NEXT``)."""
        return self.seat_on(s, seat, s.direction, 1)

    def decided(self, cond: Expr) -> bool | None:
        """Whether a branch's condition is settled by the table or the counts asked."""
        if isinstance(cond, bool):
            return cond
        return True if z3.is_true(cond) else False if z3.is_false(cond) else None

    def chosen(self, cond: Expr, then: Sym, otherwise: Sym) -> Sym:
        return choose(cond, then, otherwise)

    def picked(self, cond: Expr, then: Expr, otherwise: Expr) -> Expr:
        return fite(cond, then, otherwise)

    def reverse_skips(self, s: Sym) -> Expr:
        """``ReverseSkips`` (TWO-1), over the players in the round (MERCY)."""
        if not s.out:
            return self.reverse_as_skip()
        counts = [c for c in range(2, self.n + 1) if self.rules.reverse_is_skip(c)]
        return f_or([feq(self.players_in(s), c) for c in counts])

    def goes_out(self, s: Sym, seat: Expr) -> Expr:
        """``GoesOut`` (END-1): ``seat`` holds no card and every other seat does (the
        relation's reading of "nobody went out before": its winner is found at the
        round's end, from the hands)."""
        seat = ival(seat) if isinstance(seat, int) else seat  # a seat given as a number
        out = s.out  # MERCY: a seat out holds no card either, and never went out
        return fand(feq(self.hand_size(s, seat), 0),
                    *[self.for_seated(q, f_or(feq(seat, q), z3.Not(feq(s.hand_total(q), 0)),
                                              *out[q:q + 1]))
                      for q in range(self.n)])

    def hands_passed(self, s: Sym, actor: Expr, target: Expr | None) -> Sym:
        """The ``PassHands`` primitive (SEVEN-O): the hands of ``actor`` and ``target``
        change places, or (no target) each hand moves to the next seat in the direction of
        play; a UNO window on a hand that no longer holds one card closes."""
        actor = ival(actor) if isinstance(actor, int) else actor  # seats given as numbers
        target = ival(target) if isinstance(target, int) else target
        a, t = concrete(actor), None if target is None else concrete(target)
        if a is not None and t is not None:  # two known seats: the others the same lists
            hands = list(s.hands)
            if a != t:
                hands[a], hands[t] = s.hands[t], s.hands[a]
        elif target is not None:
            mine, theirs = s.seat_hand(actor), s.seat_hand(target)
            hands = [with_total([fite(feq(actor, p), y, fite(feq(target, p), x, h))
                                 for x, y, h in zip(mine, theirs, own, strict=True)],
                                fite(feq(actor, p), s.seat_total(target),
                                     fite(feq(target, p), s.seat_total(actor),
                                          s.hand_total(p))))
                     for p, own in enumerate(s.hands)]
        elif s.out:  # MERCY: from the seat before over the players in; a seat out keeps its own
            hands = self._passed_in(s)
        else:
            hands = [with_total(h, self.when_seated(p, self._total_before(s, p),
                                                    s.hand_total(p)))
                     for p, h in enumerate(self._passed_on(s))]
        # The window's hand after the exchange, as a total of the state before it (its
        # totals are shared terms; the new hands' would be sums of fresh ite-terms).
        w = s.uno_window
        if target is not None:
            held = fite(feq(w, actor), s.seat_total(target),
                        fite(feq(w, target), s.seat_total(actor), s.seat_total(w)))
            keeps = fand(w != NONE, held == 1)
        elif s.out:
            keeps = f_or([fand(feq(w, q), per_list(hands[q]) == 1) for q in range(self.n)])
        else:  # seat by seat, from the totals before: no ite-chain over a symbolic seat
            keeps = f_or([fand(feq(w, q), self._total_before(s, q) == 1)
                          for q in range(self.n)])
        return s.evolve(hands=hands, uno_window=z3.If(keeps, w, ival(NONE)))

    def _passed_in(self, s: Sym) -> list[list[Expr]]:
        """MERCY's ``PassHands`` with no target: each seat in gets the hand of the seat in
        before it (``seat_on``), a seat out keeps its own. Built face by face from one
        function of a column of counts (``_pass_column``), which is noted with the hands
        it was given and gave (``PassKept``): the conservation property proves what it
        keeps of any column once, and uses it for every face."""
        before = [self.seat_on(s, ival(p), -s.direction, 1) for p in range(self.n)]
        column = functools.partial(self._pass_column, s, before)
        given = [[h[f] for h in s.hands] for f in range(self.nfaces)]
        gave = [column(c) for c in given]
        totals = column([s.hand_total(p) for p in range(self.n)])
        self._kept_log.append(PassKept(f"passed#{next(self._passes)}", column, given, gave,
                                       totals))
        return [with_total([c[p] for c in gave], totals[p]) for p in range(self.n)]

    def _pass_column(self, s: Sym, before: list[Expr], column: list[Expr]) -> list[Expr]:
        """One face's counts (``column``, seat by seat) after MERCY's pass: a seat in gets
        the count of the seat in before it (``before``), a seat out keeps its own."""
        n = self.n
        return [cast(Expr, self.when_seated(p, fite(s.out[p], column[p], ite_chain(
                    before[p], [(q, column[q]) for q in range(n - 1)], column[n - 1])),
                    column[p]))
                for p in range(n)]

    def _last_seated(self, of: Callable[[int], Expr]) -> Expr:
        """``of(seat)`` for the last seated seat: a choice by the number of players."""
        out = of(self.counts[-1] - 1)
        for c in reversed(self.counts[:-1]):
            out = fite(feq(self.count, c), of(c - 1), out)
        return out

    def _total_before(self, s: Sym, p: int) -> Expr:
        """The number of cards of the seat before ``p`` in the direction of play (the
        hand ``p`` gets when every hand is passed on)."""
        n = self.n
        left = s.hand_total(p - 1) if p > 0 else self._last_seated(s.hand_total)
        right = s.hand_total(0) if p + 1 >= n else fite(self.seated(p + 1),
                                                        s.hand_total(p + 1), s.hand_total(0))
        return fite(feq(s.direction, 1), left, right)

    def _passed_on(self, s: Sym) -> list[list[Expr]]:
        """Each seated hand replaced by the one of the seat before it in the direction of
        play. Written seat by seat, not through ``seat_hand`` of a symbolic seat: the
        hand before seat p is seat p-1's or p+1's (the last seated one's, or seat 0's, at
        the ends), which keeps each term a choice of two where ite-chains over every seat
        left the solver's UNO queries at 8-10 players undecided."""
        hands, n = s.hands, self.n
        last = [self._last_seated(functools.partial(_face_of, hands, f))
                for f in range(self.nfaces)]
        left = feq(s.direction, 1)
        out = []
        for p in range(n):
            before = hands[p - 1] if p > 0 else last
            after = hands[0] if p + 1 >= n else [
                fite(self.seated(p + 1), x, y) for x, y in zip(hands[p + 1], hands[0],
                                                               strict=True)]
            out.append([cast(Expr, self.when_seated(p, fite(left, x, y), h))
                        for x, y, h in zip(before, after, hands[p], strict=True)])
        return out

    def same_number(self, s: Sym, card: Expr) -> Expr:
        """``SameNumber`` (SEVERAL): the card and the top are number cards of one number."""
        return f_or([fand(f_or([feq(card, g) for g in faces]),
                          f_or([feq(s.top, g) for g in faces]))
                     for faces in self.deck.numbers.values()])

    def holds_top_number(self, s: Sym, seat: Expr) -> Expr:
        """``HoldsTopNumber`` (SEVERAL): ``seat`` holds a number card of the top's number."""
        hand = s.seat_hand(seat)
        return f_or([fand(f_or([feq(s.top, g) for g in faces]),
                          f_or([hand[g] >= 1 for g in faces]))
                     for faces in self.deck.numbers.values()])

    def is_top(self, s: Sym, card: Expr) -> Expr:
        """``IsTop`` (JUMP-IN): the card is the face on top of the discard pile."""
        return feq(s.top, card)

    def flipped(self, s: Sym) -> Sym:
        """``FlipDirection`` (REV-1)."""
        d = concrete(s.direction)
        return s.evolve(direction=ival(-d) if d is not None else -s.direction)

    def pending_added(self, s: Sym, cards: int, kind: Kind) -> Sym:
        """``AddPending`` (WD4-2, NOSTACK-1): what the card answers, if any, and ``cards``."""
        return s.evolve(pending=z3.If(s.phase == RESPOND, s.pending, 0) + cards,
                        pending_kind=ival(KINDS.index(kind)))

    def marked(self, s: Sym, field: str, seat: Expr) -> Sym:
        """``Mark``: a seat field takes ``seat``."""
        return s.evolve(**{field: seat})

    def game_over(self, s: Sym) -> Expr:
        """Engine ``game_over`` (SCORE-2)."""
        return f_or([score >= self.rules.target.score for score in s.scores])

    # ------------------------------------------------------- shared effects

    def round_end_check(self, s: Sym) -> Sym:
        """Engine ``_round_end_check`` and ``_end_round`` (END-1, SCORE-1): the first seat
        with no cards wins and scores every card left in the hands."""
        empty = [self.if_seated(p, feq(s.hand_total(p), 0) if not s.out
                                else fand(feq(s.hand_total(p), 0), z3.Not(s.out[p])))
                 for p in range(self.n)]
        over = f_or(empty)
        winner: Expr = ival(NONE)
        for p in reversed(range(self.n)):
            winner = fite(empty[p], p, winner)
        points = fsum([self.hand_points(h) for h in s.hands])
        scoring: list[Expr] = [feq(winner, p) for p in range(self.n)]
        partners = self.rules.points.partners
        if partners is not Partners.NONE:  # SCORE-1's teams: the seat opposite, as much
            mate = self._partner(winner)
            scoring = [f_or(w, feq(mate, p)) for p, w in enumerate(scoring)]
            if partners is Partners.OPPONENTS:  # the partner's hand is not counted
                points = fsub(points, fsum([fite(feq(mate, q), self.hand_points(h), ival(0))
                                            for q, h in enumerate(s.hands)]))
        return s.evolve(
            phase=fite(over, OVER, s.phase), winner=fite(over, winner, s.winner),
            round_points=fite(over, points, s.round_points),
            uno_window=fite(over, NONE, s.uno_window),
            scores=[fite(fand(over, w), fsum(sc, points), sc)
                    for w, sc in zip(scoring, s.scores, strict=True)])

    def _partner(self, seat: Expr) -> Expr:
        """SCORE-1's teams: the seat opposite ``seat`` at an even count of 4 or more, else
        none (engine ``Game.partner``), per player count asked about."""
        def at(n: int) -> Expr:
            out: Expr = ival(NONE)
            for p in reversed(range(n)):
                mate = partner_of(self.rules, n, p)
                out = fite(feq(seat, p), ival(NONE if mate is None else mate), out)
            return out

        return ite_chain(self.count, [(c, at(c)) for c in self.counts[:-1]],
                         at(self.counts[-1]))

    def round_won(self, s: Sym) -> Sym:
        """Engine ``_end_round`` from a play that ends the round at once: the seat with no
        cards wins, and a draw card left waiting is settled (nothing pending)."""
        return self.round_end_check(s).evolve(pending=ival(0), pending_kind=ival(NONE),
                                              offender=ival(NONE))

    def hand_points(self, hand: list[Expr]) -> Expr:
        """SCORE-1's points of a hand (built once per hand list: ``per_list``)."""
        return per_list(hand, self.deck.points)

    def resolved(self, s: Sym, victim: Expr, keeps_turn: bool) -> Sym:
        """Engine ``_resolved``: the draw card is settled; END-1 is checked after it."""
        turn = victim if keeps_turn else self.seat_on(s, victim, s.direction, 1)
        return self.round_end_check(s.evolve(
            pending=ival(0), pending_kind=ival(NONE), offender=ival(NONE),
            phase=ival(PLAY), turn=turn))

    # ------------------------------------------------------------ actions

    def play_names(self) -> tuple[str, ...]:
        """The play commands' names, in rulebook order (a kind's, then its ranks')."""
        return tuple(c.name for c in card_play.plays(self.table).all())

    def jump_names(self) -> tuple[str, ...]:
        """The commands that play a card out of turn (a house rule's jump), in the plays'
        order."""
        return tuple(c.name for c in card_play.plays(self.table).jumps.values())

    def played_by(self, name: str) -> str:
        """The play command a play or jump command ``name`` plays the card of."""
        return "play_" + name.removeprefix("jump_") if name.startswith("jump_") else name

    def play_faces(self, name: str) -> list[int]:
        """The faces the play (or jump) command ``name`` plays."""
        return card_play.plays(self.table).faces(self.deck, self.played_by(name))

    def play_kind(self, name: str) -> Kind:
        """The kind of card the play (or jump) command ``name`` plays."""
        return card_play.plays(self.table).kind(self.played_by(name))

    def play(self, s: Sym, name: str, jumper: int | None = None) -> Step:
        """The play command ``name`` (unoformal.rules.play: PLAY-1, DRAW-1, NOSTACK-1,
        WD4-1, UNO-1, EXT-SHORT), then the card's effect from the table; or, with a
        ``jumper`` seat, the jump command ``name`` (a house rule's play out of turn): that
        seat, not the player to move, plays the card (one step per jumper seat)."""
        kind = self.play_kind(name)
        tag = self.tag(name.replace("_", ".", 1))
        domain = self.play_faces(name)
        effect = self.rules.effect(kind)
        f, c, says = z3.Int(f"{tag}.face"), z3.Int(f"{tag}.color"), z3.Bool(f"{tag}.uno")
        command = card_play.command(self.rules, name)  # through the view: its reads are noted
        choices: dict[str, Expr] = {"face": f, "color": c, "uno": says}
        target: Expr | None = None
        target_ok = self.true()
        if Who.TARGET in command.choices:  # a seat the player chooses (its guard: whom)
            self._targeted = self._fork_out is not None
            target = choices["target"] = (z3.Int(f"{tag}.target") if self._target is None
                                          else ival(self._target))
            target_ok = fand(target >= 0, self.seated(target))
        if jumper is not None:  # out of turn: a seated player other than the one to move
            target_ok = fand(target_ok, self.seated(jumper), fne(ival(jumper), s.turn))
        actor = s.turn if jumper is None else ival(jumper)
        b = Binding(actor, target, None, f, c, says)
        ncolors = len(self.deck.colors)
        color_ok = fand(c >= 0, c < ncolors) if effect.chooses_color else c == NONE
        # The choices' domains (a face of the command, a color when it names one, a seated
        # target when it names one), then the command's guard.
        guard = fand(f_or([feq(f, g) for g in domain]), color_ok, target_ok,
                     command.encode_guard(self, s, b))
        post, cons = command.encode_effect(self, s, b, tag)
        return Step(command.name, command.cites, s, guard, post, actor, f, choices,
                    draws=fand(cons), variant="" if jumper is None else f"jumper {jumper}")

    def replaced(self, hands: list[list[Expr]], who: Expr,
                 hand: list[Expr]) -> list[list[Expr]]:
        """The hand of ``who`` replaced (other hands the same lists when the seat is known)."""
        seat = concrete(who)
        if seat is not None:
            return [hand if p == seat else h for p, h in enumerate(hands)]
        return [[fite(feq(who, p), x, y) for x, y in zip(hand, h, strict=True)]
                for p, h in enumerate(hands)]

    def _on_turn(self, command: Command, s: Sym, tag: str, b: Binding,
                 **more: Any) -> Step:
        """The step of an on-turn command: its guard, its effect, the draws it makes."""
        post, cons = command.encode_effect(self, s, b, tag)
        return Step(command.name, command.cites, s, command.encode_guard(self, s, b), post,
                    s.turn, draws=fand(cons), **more)

    def draw(self, s: Sym) -> Step:
        """DRAW-1's ``draw`` command (unoformal.rules.turn): draw, then play the drawn
        card or keep it."""
        tag = self.tag("draw")
        x = z3.Int(f"{tag}.face")  # the card kept to play (Take's ``keeps``)
        return self._on_turn(turn.draw(self.rules), s, tag, Binding(s.turn), face=x,
                             choices={"face": x})

    def keep(self, s: Sym) -> Step:
        """DRAW-1's ``keep`` command (unoformal.rules.turn): keep the drawn card, the turn
        passes."""
        return self._on_turn(turn.keep(self.rules), s, "", Binding(s.turn))

    def stop(self, s: Sym) -> Step:
        """SEVERAL's ``stop`` command (unoformal.rules.turn): no more cards of the number,
        the turn passes."""
        command = turn.stop(self.rules)
        assert command is not None  # built only where the house rule is on
        return self._on_turn(command, s, "", Binding(s.turn))

    def drawn_playable(self, s: Sym) -> Expr:
        """The play's ``playable`` of the drawn card (DRAW-1), whatever its kind."""
        return f_or([fand(feq(s.drawn, g), self.can_play(s, s.turn, ival(g),
                                                         self.deck.faces[g].kind))
                     for g in range(self.nfaces)])

    def pass_empty(self, s: Sym) -> Step:
        """EXT-PASS's ``pass_nothing_to_draw`` command (unoformal.rules.turn)."""
        return self._on_turn(turn.pass_nothing_to_draw(self.rules), s, "", Binding(s.turn))

    def accept(self, s: Sym) -> Step:
        """WD4-2's ``accept`` command (unoformal.rules.respond; D2-1 under stacking): draw
        what is pending."""
        tag = self.tag("accept")
        command = respond.accept(self.rules)  # through the view: its reads are noted
        b = Binding(s.turn, None, s.offender)
        post, cons = command.encode_effect(self, s, b, tag)
        return Step(command.name, command.cites, s, command.encode_guard(self, s, b), post,
                    s.turn, draws=fand(cons), off=not self.responds())

    def challenge(self, s: Sym, upheld: bool, offender: int | None) -> Step:
        """The ``challenge`` command's branch (unoformal.rules.respond, CHAL-1..4): the
        table says who draws and who moves. One step per offender seat when the offender
        draws (None: any offender)."""
        tag = self.tag("challenge")
        command = respond.challenge(self.rules)
        branch = command.branches[1 if upheld else 0]
        off = s.offender if offender is None else ival(offender)
        b = Binding(s.turn, None, off)
        post, cons = command.encode_effect(self, s, b, tag, branch)
        kinds = [k for k in self.kinds if self.rules.effect(k).victim_may_challenge]
        return Step(branch.label, branch.cites, s, command.encode_branch(self, s, b, branch),
                    post, s.turn, draws=fand(cons),
                    variant="" if offender is None else f"offender {offender}", off=not kinds)

    def responds(self) -> bool:
        """Whether any card's victim accepts (or challenges, or answers) before drawing,
        as the card effects decide (unoformal.rules.effects): else no play leads to
        RESPOND."""
        return any(waits(self.rules, k) for k in self.kinds)

    def colors_chosen(self) -> bool:
        """Whether any start rule lets the first player choose the color (engine
        ``_turn_start_card``): else the game is never in COLOR."""
        starts = [getattr(self.rules, name) for name, rule in self.table.entries()
                  if isinstance(rule, StartRule)]  # through self.rules: the reads noted
        return any(rule.first_player_chooses_color and rule.enabled for rule in starts)

    def _in_round(self, s: Sym) -> Expr:
        return fand(s.phase != OVER, s.phase != DEALT, s.phase != STUCK)

    def _actor(self, tag: str) -> tuple[Expr, Expr]:
        a = z3.Int(f"{tag}.actor")
        return a, fand(a >= 0, flt(a, self.count))

    def say_uno(self, s: Sym) -> Step:
        """UNO-1's ``uno`` command (unoformal.rules.uno): say UNO before an accusation."""
        a, seated = self._actor(self.tag("uno"))
        command = out_of_turn.say_uno(self.rules)  # through the view: its reads are noted
        b = Binding(a)
        guard = fand(seated, self._in_round(s), command.encode_guard(self, s, b))
        post, _ = command.encode_effect(self, s, b, "")
        return Step(command.name, command.cites, s, guard, post, a, choices={"actor": a},
                    off=not self.rules.uno.enabled)

    def catch(self, s: Sym, target: int) -> Step:
        """UNO-1's ``catch`` command (unoformal.rules.uno): the caught player draws the
        penalty. One step per target seat, so the draw goes to a known hand (smaller
        queries)."""
        tag = self.tag("catch")
        a, seated = self._actor(tag)
        command = out_of_turn.catch(self.rules)
        b = Binding(a, ival(target))
        guard = fand(seated, self._in_round(s), command.encode_guard(self, s, b))
        post, cons = command.encode_effect(self, s, b, tag)
        return Step(command.name, command.cites, s, guard, post, a, choices={"actor": a},
                    draws=fand(cons), variant=f"target {target}",
                    off=not self.rules.uno.enabled)

    def misplay(self, s: Sym) -> Step:
        """MISPLAY-1's ``misplay`` command (unoformal.rules.turn): a card that may not be
        played is shown, taken back, and its player draws the penalty."""
        tag = self.tag("misplay")
        f = z3.Int(f"{tag}.face")
        step = self._on_turn(turn.misplay(self.rules), s, tag, Binding(s.turn, card=f),
                             face=f, choices={"face": f})
        step.guard = fand(f >= 0, f < self.nfaces, step.guard)  # the choice: a face
        return step

    def advise(self, s: Sym, adviser: int) -> Step:
        """ADVICE-1's ``advise`` command (unoformal.rules.uno): the adviser draws the
        penalty (one step per adviser seat)."""
        tag = self.tag("advise")
        command = out_of_turn.advise(self.rules)
        a = ival(adviser)
        b = Binding(a)
        post, cons = command.encode_effect(self, s, b, tag)
        guard = self.if_seated(adviser, fand(self._in_round(s),
                                             command.encode_guard(self, s, b)))
        return Step(command.name, command.cites, s, guard, post, a, choices={"actor": a},
                    draws=fand(cons), variant=f"adviser {adviser}")

    def choose_color(self, s: Sym) -> Step:
        """START-WILD's ``choose_color`` command (unoformal.rules.turn): the first player
        names the color."""
        c = z3.Int(f"{self.tag('choose')}.color")
        step = self._on_turn(turn.choose_color(self.rules), s, "", Binding(s.turn, color=c),
                             choices={"color": c}, off=not self.colors_chosen())
        step.guard = fand(c >= 0, c < len(self.deck.colors), step.guard)  # the choice
        return step

    def reshuffle(self, s: Sym) -> Step:
        """Engine ``_reshuffle`` (RESHUFFLE-1) alone, as it happens inside every draw:
        the pile is empty and a card is needed. Checked on its own, not part of ``next``."""
        pile, top = self.reshuffled(s)
        guard = fand(s.pile_total() == 0, self._in_round(s))
        post = s.evolve(pile=pile, top=top, disc=[ival(0)] * self.nfaces)
        return Step("reshuffle", (self.rules.reshuffle.id,), s, guard, post, s.turn,
                    in_next=False)

    def start_card(self, s: Sym, kind: Kind, dealer: int) -> list[Step]:
        """The ``start_<kind>`` command (DEAL-2, DEAL-3, START-*, EXT-START,
        ``unoformal.rules.start``) for a start card of ``kind``: one action, or two when the
        table turns another card (its branches). One step per dealer seat, so the first
        player is a known seat: the symmetry reduction fixes the player to move, not the
        dealer, and a symbolic first player made the start card that draws (START-D2)
        the slowest query of the suite. The card is chance's: any face of the kind the pile
        holds."""
        tag = self.tag(f"start.{kind.name.lower()}")
        rules = self.rules
        domain = self.faces_of(kind)
        t = z3.Int(f"{tag}.face")
        base = fand(feq(s.phase, DEALT), feq(s.dealer, dealer), f_or([feq(t, g) for g in domain]),
                    fge(self.select(s.pile, t, domain), 1))
        command = start_commands.start(rules, kind)  # through the view: its reads are noted
        b = Binding(ival(dealer), card=t)
        variant = f"dealer {dealer}"
        if not command.branches:
            post, cons = command.encode_effect(self, s, b, tag)
            return [Step(command.name, command.cites, s, base, post, s.dealer, t,
                         _start_choices(t, command.effect, post), draws=fand(*cons),
                         variant=variant)]
        out = []
        for branch in command.branches:  # START-WD4: turned again, or the only kind left
            post, cons = command.encode_effect(self, s, b, tag, branch)
            cites = command.cites if branch.label == command.name else \
                (rules.deal.id, *branch.cites)
            out.append(Step(branch.label, cites, s, fand(base, branch.when.encode(self, s, b)),
                            post, s.dealer, t, _start_choices(t, branch.effect, post),
                            draws=fand(*cons), variant=variant))
        return out

    # The start card's primitives (unoformal.rules.start), in the engine's own words.

    def turned_up(self, s: Sym, face: Expr, kind: Kind) -> Sym:
        """Engine ``_turn_up``: the card (of ``kind``) from the pile onto the discard."""
        domain = self.faces_of(kind)
        pile = [fsub(s.pile[g], one_if(feq(face, g))) if g in domain else s.pile[g]
                for g in range(self.nfaces)]
        return s.evolve(pile=pile, top=face)

    def started_at(self, s: Sym, dealer: Expr, seats: int, direction: int, face: Expr,
                   kind: Kind) -> Sym:
        """Engine ``_start_at``: who plays first, which way, on the card's color."""
        return s.evolve(direction=ival(direction), turn=self.seat_after(dealer, ival(1), seats),
                        phase=ival(PLAY),
                        color=self.lookup(self.fcolor, face, self.faces_of(kind)))

    def random_color(self, s: Sym, tag: str) -> tuple[Sym, Expr]:
        """Engine ``_random_color``: the color is chance's, any of the deck's
        (``Step.choices['color']``, which validation binds from the engine)."""
        c = z3.Int(f"{tag}.color")
        return s.evolve(color=c), fand(c >= 0, c < len(self.deck.colors))

    def only_kind_left(self, s: Sym, kinds: tuple[Kind, ...]) -> Expr:
        return fsum([s.pile[g] for g in range(self.nfaces)
                     if self.deck.faces[g].kind not in kinds]) == 0

    def next_deal(self, s: Sym) -> Step:
        """The ``next_deal`` command (END-2, DEAL-2, ``unoformal.rules.deal``): a new deal
        of hand_size cards each; the dealer role moves as the table says."""
        tag = self.tag("deal")
        command = deal_commands.next_deal(self.rules)  # through the view: reads noted
        b = Binding(s.dealer)
        post, cons = command.encode_effect(self, s, b, tag)
        return Step(command.name, command.cites, s, command.encode_guard(self, s, b), post,
                    s.dealer, draws=fand(*cons), dealt=tuple(tuple(h) for h in post.hands))

    # The next deal's primitives (unoformal.rules.deal), in the engine's own words.

    def dealer_passed(self, s: Sym, to_winner: bool, before_mover: int | None = None) -> Sym:
        """Engine ``PassDeal``: to the winner, to the seat to the dealer's left, or to the
        seat ``before_mover`` places before the player to move."""
        if before_mover is not None:
            return s.evolve(dealer=self.seat_after(s.turn, ival(-1), before_mover)
                            if before_mover else s.turn)
        return s.evolve(dealer=s.winner if to_winner else self.seat_after(s.dealer, ival(1), 1))

    def dealt_anew(self, s: Sym, cards: int, tag: str) -> tuple[Sym, Expr]:
        """Engine ``_deal_next``: ``cards`` each from the whole deck, the rest the pile (the
        hands are chance's: Z3 constants, ``Step.dealt``); the scores stay."""
        faces = range(self.nfaces)
        hands = [[z3.Int(f"{tag}.hand{p}.{self.deck.code(g)}") for g in faces]
                 for p in range(self.n)]
        held = [fsum([h[g] for h in hands]) for g in faces]
        copies = self.deck.copies
        cons = fand(
            *[x >= 0 for h in hands for x in h],
            *[fsum(h) == self.when_seated(p, cards, 0) for p, h in enumerate(hands)],
            *[held[g] <= copies[g] for g in faces])
        return dealt(hands, [copies[g] - held[g] for g in faces], s.dealer, s.scores,
                     knocks=bool(s.out)), cons

    def dealt_in(self, s: Sym) -> Sym:
        """The ``DealtIn`` primitive (MERCY): nobody is out of the next round."""
        return s.evolve(out=[z3.BoolVal(False)] * self.n) if s.out else s

    # --------------------------------------------------------------- next

    def tag(self, prefix: str) -> str:
        """A unique prefix for the names of a symbol of this table's (a choice of a step, a
        pre-state of the prover): ``draw@3``. Numbered per table, not per process, so that
        one query built for two tables from the same terms is the same term, text and all
        (the prover's answers are kept by a query's text: ``prover.Answers``); the ``@``
        keeps them apart from ``state.fresh_tag``'s names, which a query may mix with
        them (a witness's dealt state)."""
        return f"{prefix}@{next(self._names)}"

    def steps(self, s: Sym, names: Sequence[str] | None = None) -> list[Step]:
        """Every action from ``s`` (or only those named), in rulebook order, each in its
        variants: one per combination of its draws needing the reshuffle or not.
        Built once per state and shared by every property that asks."""
        cached = self._built.get(id(s))
        if cached is None or cached[0] is not s:
            cached = (s, [])
            self._built[id(s)] = cached
        done = dict(cached[1])
        out: list[Step] = []
        for i, (name, build, named, chiral) in enumerate(self.builders()):
            if names is not None and not any(n == name or n.startswith(name + "_")
                                             for n in names):
                continue
            if not wanted(s, named, chiral):
                continue
            if i not in done:
                done[i] = self.variants(build, s)
                for step in done[i]:
                    step.named, step.chiral = named, chiral
                cached[1].append((i, done[i]))
            out.extend(step for step in done[i] if names is None or step.name in names)
        return out

    def variants(self, build: Callable[[Sym], list[Step]], s: Sym) -> list[Step]:
        """The steps ``build`` makes from ``s``, one per combination of its draws' sources.

        MERCY: with seats out as flags, the player after a known seat is a choice among
        seats, and a hand drawn into at that choice (a Draw Two's victim) made every hand
        a case split: such a query at 10 players took 66 s, against 0.1 s under classic
        (measured). So a step that draws into the hand of a seat not known is forked:
        one instance per seat the first such choice can be, that seat a number in it and
        the choice equal to it beside its draws (``Step.draws``: which instance applies,
        as which draws reshuffle; the step is enabled whichever it is). A play that
        chooses a seat (SEVEN-O's swap) is forked by that seat, a number in each instance
        (its guard refuses the seats it cannot choose). The instances together are the
        step, as the reshuffle's variants are (``Step.kind`` names them all)."""
        if not (self.knocks and self.forks) or self._fork_out is not None:
            return self._variants(build, s)
        self._fork_out, self._fork, self._unknown_hand = s.out, None, False
        self._targeted = False
        try:
            first = self._variants(build, s)
            fork = self._fork
            out: list[Step] = []
            if self._targeted:  # a hand given to the seat the player chooses (SEVEN-O)
                for seat in range(self.n):
                    self._target = seat
                    for step in self._variants(build, s):
                        step.variant = _join(step.variant, f"target {seat}")
                        out.append(step)
                return out
            if fork is None or not self._unknown_hand:
                return first
            p, d, choice = fork
            for seat in self._candidates(s, p, d):
                self._forked = (p, d, seat)
                for step in self._variants(build, s):
                    step.draws = fand(step.draws, feq(choice, seat))
                    step.variant = _join(step.variant, f"next in {seat}")
                    out.append(step)
            return out
        finally:
            self._fork_out, self._fork, self._forked = None, None, None
            self._targeted, self._target = False, None

    def _variants(self, build: Callable[[Sym], list[Step]], s: Sym) -> list[Step]:
        self._modes, self._takes = [], 0
        self._reads.seen = set()
        first = self._logged(build, s)
        takes = self._takes
        out = list(first)
        for modes in itertools.product((False, True), repeat=takes):
            if not any(modes):
                continue
            self._modes = list(modes)
            for step in self._logged(build, s):
                step.drawn_from = "+".join("reshuffle" if m else "pile" for m in modes)
                step.variant = _join(step.variant, step.drawn_from)
                out.append(step)
        if takes:
            for step in first:
                step.drawn_from = "+".join(["pile"] * takes)
                step.variant = _join(step.variant, step.drawn_from)
        self._modes = []
        reads = frozenset(self._reads.seen)
        if self.knocks:
            reads |= {self.table.mercy.id}
            for step in out:
                self._mercy(step)
        for step in out:
            step.reads = reads
        return [step for step in out if not step.off]

    def _mercy(self, step: Step) -> None:
        """MERCY on a step (engine ``_gone``): in a round, a player out neither moves nor
        is named. (The knock-out after the move is the command's last step, ``KnockOut``.)"""
        s = step.pre
        named = [fnot(self.is_out(s, step.mover))]
        target = step.choices.get("target")
        if target is not None:
            named.append(fnot(self.is_out(s, target)))
        step.guard = fand(step.guard, fimplies(self._in_round(s), fand(*named)))

    def knocked_out(self, t: Sym, at: int, to_pile: bool) -> Sym:
        """The ``KnockOut`` primitive (engine ``_knock_out_at``): unless the round is over,
        every seat holding ``at`` cards or more is out, and every seat out gives its cards
        to the draw pile (``to_pile``) or the discard pile; a player to move knocked out
        passes the turn on (nothing waits for them); the last player in wins, and the
        round scores nothing. Only a seat whose hand the step changed is asked (against
        the pre-state of the step being built, ``_logged``'s): in a round every other one
        is under the limit, or out with no card (the state text refuses anything else,
        and so does a deal)."""
        pre = self._step_pre
        live = self._in_round(t)
        asked = [pre is None or t.hands[p] is not pre.hands[p] for p in range(self.n)]
        out = [f_or(x, cast(Expr, self.if_seated(p, fand(live, fge(t.hand_total(p), at)))))
               if asked[p] else x for p, x in enumerate(t.out)]
        # what each seat gives up: its hand, where it goes out (a difference and a sum, so
        # the deck's count of each face is kept term for term)
        moved = [[fite(fand(live, x), y, ival(0)) for y in h] if asked[p] else []
                 for p, (x, h) in enumerate(zip(out, t.hands, strict=True))]
        hands = [[fsub(y, m) for y, m in zip(h, moved[p], strict=True)] if moved[p] else h
                 for p, h in enumerate(t.hands)]
        zones: dict[str, list[Expr]] = {}
        if any(asked):
            given = [fsum([m[g] for m in moved if m]) for g in range(self.nfaces)]
            zone = "pile" if to_pile else "disc"
            zones[zone] = [fsum(x, y) for x, y in zip(getattr(t, zone), given, strict=True)]
        u = t.evolve(out=out, hands=hands, **zones)
        w = t.uno_window
        gone = fand(live, self.is_out(u, t.turn))
        u = u.evolve(
            uno_window=fite(fand(w != NONE, self.is_out(u, w)), ival(NONE), w),
            turn=fite(gone, self.seat_on(u, t.turn, t.direction, 1), t.turn),
            phase=fite(fand(gone, t.phase != COLOR), PLAY, t.phase),
            drawn=fite(gone, NONE, t.drawn),
            pending=fite(gone, 0, t.pending), pending_kind=fite(gone, NONE, t.pending_kind),
            offender=fite(gone, NONE, t.offender))
        # END-1: a draw card left waiting by the player to move, knocked out, is settled;
        # its player, if they went out with it, wins
        u = choose(gone, self.round_end_check(u), u)
        last = fand(self._in_round(u), feq(self.players_in(u), 1))
        winner: Expr = ival(NONE)
        for p in reversed(range(self.n)):
            winner = fite(fand(self.seated(p), fnot(out[p])), p, winner)
        return u.evolve(
            phase=fite(last, OVER, u.phase), winner=fite(last, winner, u.winner),
            round_points=fite(last, 0, u.round_points),
            uno_window=fite(last, NONE, u.uno_window), pending=fite(last, 0, u.pending),
            drawn=fite(last, NONE, u.drawn),
            pending_kind=fite(last, NONE, u.pending_kind),
            offender=fite(last, NONE, u.offender))

    def _logged(self, build: Callable[[Sym], list[Step]], s: Sym) -> list[Step]:
        """``build(s)``, each step noting the draws it makes (``Step.takes``) and the
        passes of the hands (``Step.kept``) made while it was built."""
        self._take_log, self._kept_log = [], []
        self._step_pre = s
        try:
            steps = build(s)
        finally:
            self._step_pre = None
        for step in steps:
            step.takes = tuple(self._take_log)
            step.kept = tuple(self._kept_log)
        return steps

    def _offenders(self, upheld: bool) -> list[int | None]:
        """A challenge step per offender seat when the offender draws, else one step for any
        offender (nothing goes to the offender's hand, so no seat needs to be known)."""
        outcome = self.rules.challenge_upheld if upheld else self.rules.challenge_failed
        return list(range(self.n)) if outcome.offender_draws else [None]

    def builders(self) -> list[_Builder]:
        """Each action's builder, with the seat it names out of turn (the dealer, the
        caught player, the adviser; None for the others) and whether it is chiral (names
        the dealer's left, DEAL-3 and END-2, rather than the direction of play). Made
        once per compiled table: every property asks ``steps`` for every pre-state."""
        if self._builders is None:
            self._builders = self._make_builders()
        return self._builders

    def _make_builders(self) -> list[_Builder]:
        out: list[_Builder] = []
        for kind in self.kinds:
            out += [(f"start_{kind.name.lower()}",
                     lambda s, k=kind, d=d: self.start_card(s, k, d),  # type: ignore[misc]
                     d, True) for d in range(self.n)]
        out.append(("choose_color", lambda s: [self.choose_color(s)], None, False))
        for name in self.play_names():
            out.append((name, lambda s, k=name: [self.play(s, k)], None, False))  # type: ignore[misc]
        for name in self.jump_names():  # one builder per jumper seat, as for the adviser
            out += [(name, lambda s, k=name, p=p: [self.play(s, k, p)], p, False)  # type: ignore[misc]
                    for p in range(self.n)]
        simple: list[tuple[str, Callable[[Sym], Step]]] = [
            ("draw", self.draw), ("keep", self.keep), ("pass_nothing_to_draw", self.pass_empty),
            ("reshuffle", self.reshuffle), ("accept", self.accept),
            ("uno", self.say_uno), ("misplay", self.misplay)]
        if self.rules.several.enabled:  # SEVERAL's pass, where the house rule is on
            simple.append(("stop", self.stop))
        out += [(name, lambda s, b=build: [b(s)], None, False)  # type: ignore[misc]
                for name, build in simple]
        out.append(("next_deal", lambda s: [self.next_deal(s)], None, True))
        # One builder per seat: each step draws into one known hand. The offender of a
        # challenge is not a named seat: the challenger is the player to move.
        for upheld, name in ((True, "challenge_upheld"), (False, "challenge_failed")):
            out += [(name, lambda s, p=p, u=upheld: [self.challenge(s, u, p)],  # type: ignore[misc]
                     None, False) for p in self._offenders(upheld)]
        out += [("catch", lambda s, p=p: [self.catch(s, p)], p, False)  # type: ignore[misc]
                for p in range(self.n)]
        out += [("advise", lambda s, p=p: [self.advise(s, p)], p, False)  # type: ignore[misc]
                for p in range(self.n)]
        return out


def wanted(s: Sym, named: int | None, chiral: bool) -> bool:
    """Whether a pre-state of the symmetry reduction needs the steps of an action that
    names the seat ``named`` out of turn (None: none) and is ``chiral`` or not. Turn-0
    states need the actions that name no seat, named-seat-0 states those that name seat
    0 (rotated, the others are the same); states whose direction of play is -1 need only
    the chiral ones: the mirror image (seat ``p`` renumbered ``-p``, the direction
    reversed) maps the other actions, the invariant and every property to themselves,
    and these states to those whose direction is 1."""
    if s.anchor is None:
        return True
    seat_ok = named is None if s.anchor == TURN_AT_0 else named == 0
    return seat_ok and (chiral or concrete(s.direction) == 1)


def _start_choices(t: Expr, steps: tuple[Effect, ...], post: Sym) -> dict[str, Expr]:
    """A start step's chance outcomes: the card turned and, where its command draws the
    color at random (``RandomColor``), the color (validation binds both from the engine)."""
    if any(isinstance(node, RandomColor) for step in steps for node in step.walk()):
        return {"face": t, "color": post.color}
    return {"face": t}


def _join(a: str, b: str) -> str:
    return f"{a}, {b}" if a else b


def next_relation(spec: Spec, s: Sym, t: Sym, leave_out: Collection[str] = ()) -> Expr:
    """``Next(s, t)``: some action leads from ``s`` to ``t`` (the disjunction, as in TLA+);
    the actions named in ``leave_out`` are not part of it."""
    return f_or([fand(step.relation, equal(step.post, t)) for step in spec.steps(s)
                 if step.in_next and step.name not in leave_out])
