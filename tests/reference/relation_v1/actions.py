"""FROZEN copy of ``unoformal/verification/z3/actions.py`` at commit
ed011c437587181f89c5ffab7c7df077b48d22a0: today's hand-written transition relation,
kept as the reference the redesign's generated relation must agree with
(``tests/reference/relation_agree.py``). Do not edit it to follow main.

It reads the live package only for plain data (``unoformal.rulebook``: the rule table, the
deck, the cards); the state, ``Sym`` and the term helpers are the frozen copies in
``.state``. Two changes from the copied file, neither a change of meaning:

- imports: ``.state`` instead of ``unoformal.verification.z3.state``;
- WD4-1 (``Spec.wd4_legal``): today's file reads the rule language's statement
  (``unoformal.rules.challenge.wd4_blocks``), which is live code the redesign grows, not
  data; here it is the hand-written reading the statement replaced, frozen the same way
  in ``tests/verification/test_rules_lang.py`` and proved identical to the statement
  there, for every shipped variant.

The module docstring of the original follows.

The transition relation: one named Z3 action per rule-table entry.

Written like a TLA+ spec. Each action is a function from a symbolic pre-state
to a :class:`Step`: its guard (``ENABLED``, with the action's own choices such
as the card played) and its post-state as expressions over the pre-state.
``next`` is their disjunction (:func:`next_relation`).

Every number, switch and effect is read from the rule table, with the meaning
the engine (:mod:`unoformal.engine.game`) gives it: the Python code below only
sequences those values, exactly as the engine's methods do, and each function
names the engine method it mirrors. No rule is restated here; the properties
that check the rules are stated separately, in the rulebook's own words
(:mod:`.properties`).
"""

from __future__ import annotations

import inspect
import itertools
import types
from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass, field
from typing import Any, cast

import z3

from unoformal.rulebook.cards import Kind
from unoformal.rulebook.deck import Deck
from unoformal.rulebook.table import (
    CardEffect,
    ChallengeOutcome,
    Holding,
    NextDealer,
    Rule,
    RuleTable,
    StartRule,
)

from .state import (
    COLOR,
    DEALT,
    DRAWN,
    KINDS,
    NONE,
    OVER,
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
    fresh_tag,
    fsub,
    fsum,
    ite_chain,
    ival,
    one_if,
    per_list,
)


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
        self._modes: list[bool] = []  # which draws of the action being built reshuffle
        self._takes = 0
        self._take_log: list[tuple[tuple[Expr, ...], tuple[Expr, ...]]] = []
        self._built: dict[int, tuple[Sym, list[tuple[int, list[Step]]]]] = {}
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
        uno = z3.If(fand(feq(s.uno, who), fsum(drawn) > 0), ival(NONE), s.uno)
        return post.evolve(hands=self.added(s.hands, who, drawn), uno=uno), cons, drawn

    def added(self, hands: list[list[Expr]], who: Expr,
              cards: Sequence[Expr]) -> list[list[Expr]]:
        """``cards`` added to the hand of ``who``. A known seat leaves every other hand the
        very same list, a pure frame: no ``h + 0`` terms for the solver, and the properties
        can skip what an action does not touch (``is``)."""
        seat = concrete(who)
        if seat is not None:
            return [[fsum(x, y) for x, y in zip(h, cards, strict=True)] if p == seat else h
                    for p, h in enumerate(hands)]
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
        """WD4-1 on the hand left after playing it, as written by hand before the rule
        language (frozen: ``tests/verification/test_rules_lang.py``, ``_frozen_z3``)."""
        if self.rules.wd4_legality.illegal_when_holding is Holding.CARD_OF_CURRENT_COLOR:
            return fand([fimplies(feq(s.color, self.fcolor[g]), feq(hand[g], 0))
                         for g in range(self.nfaces) if self.fcolor[g] != NONE])
        return fand([z3.Implies(self.matches(s, ival(g), self.deck.faces[g].kind, [g]),
                                hand[g] == 0) for g in range(self.nfaces)
                     if self.deck.faces[g].kind is not Kind.WILD_DRAW_FOUR])

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

    def can_effect(self, s: Sym, effect: CardEffect) -> Expr:
        """Engine ``_can_effect`` (EXT-SHORT)."""
        if effect.victim_may_challenge:
            return z3.BoolVal(True)
        return self.can_draw(s, effect.victim_draws)

    def can_answer(self, s: Sym, kind: Kind) -> Expr:
        """Engine ``_can_answer`` (NOSTACK-1 or its stacking variant)."""
        st = self.rules.no_stacking
        if not (st.victim_may_answer and kind in st.answers):
            return z3.BoolVal(False)
        may = f_or([s.pkind == KINDS.index(k) for k in st.answers])
        if self.rules.last_draw_card_drawn.enabled:
            # amended: EXT-LAST, the offender's last card is not answered
            may = fand(may, z3.Not(s.seat_total(s.offender) == 0))
        return may

    def can_play(self, s: Sym, f: Expr, kind: Kind, hand_after: Sequence[Expr]) -> Expr:
        """Engine ``_can_play`` in the play and drawn phases (not answering)."""
        domain = self.faces_of(kind)
        normal = [self.matches(s, f, kind, domain), self.can_effect(s, self.rules.effect(kind))]
        if kind is Kind.WILD_DRAW_FOUR and not self.rules.wd4_legality.bluff_playable:
            normal.append(self.wd4_legal(s, hand_after))
        drawn_ok = z3.BoolVal(self.rules.draw.may_play_drawn) and (f == s.drawn)
        return fand(*normal, f_or(s.phase == PLAY, fand(s.phase == DRAWN, drawn_ok)))

    def game_over(self, s: Sym) -> Expr:
        """Engine ``game_over`` (SCORE-2)."""
        return f_or([score >= self.rules.target.score for score in s.scores])

    # ------------------------------------------------------- shared effects

    def round_end_check(self, s: Sym) -> Sym:
        """Engine ``_round_end_check`` and ``_end_round`` (END-1, SCORE-1): the first seat
        with no cards wins and scores every card left in the hands."""
        empty = [self.if_seated(p, feq(s.hand_total(p), 0)) for p in range(self.n)]
        over = f_or(empty)
        winner: Expr = ival(NONE)
        for p in reversed(range(self.n)):
            winner = fite(empty[p], p, winner)
        points = fsum([self.hand_points(h) for h in s.hands])
        return s.evolve(
            phase=fite(over, OVER, s.phase), winner=fite(over, winner, s.winner),
            points=fite(over, points, s.points), uno=fite(over, NONE, s.uno),
            scores=[fite(fand(over, feq(winner, p)), fsum(sc, points), sc)
                    for p, sc in enumerate(s.scores)])

    def hand_points(self, hand: list[Expr]) -> Expr:
        """SCORE-1's points of a hand (built once per hand list: ``per_list``)."""
        return per_list(hand, self.deck.points)

    def resolved(self, s: Sym, victim: Expr, keeps_turn: bool) -> Sym:
        """Engine ``_resolved``: the draw card is settled; END-1 is checked after it."""
        turn = victim if keeps_turn else self.seat_after(victim, s.direction, 1)
        return self.round_end_check(s.evolve(
            pending=ival(0), pkind=ival(NONE), offender=ival(NONE),
            phase=ival(PLAY), turn=turn))

    def card_effect(self, s: Sym, p: Expr, effect: CardEffect, carried: Expr,
                    tag: str, as_skip: bool | None = None) -> tuple[Sym, Expr]:
        """Engine ``_card_effect``: SKIP-1, REV-1, D2-1, WILD-1, WD4-2, TWO-1, NOSTACK-1.
        A Reverse acts as a Skip at some player counts (TWO-1): when only some of the
        counts asked about are those, both are built and the count chooses."""
        skips = effect.skips
        direction = s.direction
        if effect.reverses and as_skip is None:
            cond = self.reverse_as_skip()
            if not (z3.is_true(cond) or z3.is_false(cond)):
                a, cons_a = self.card_effect(s, p, effect, carried, tag, True)
                b, cons_b = self.card_effect(s, p, effect, carried, tag + ".rev", False)
                return choose(cond, a, b), fite(cond, cons_a, cons_b)
            as_skip = z3.is_true(cond)
        if effect.reverses:
            if as_skip:
                skips += 1
            else:
                d = concrete(direction)
                direction = ival(-d) if d is not None else -direction
        s = s.evolve(direction=direction)
        victim = self.seat_after(p, direction, 1)
        cons = z3.BoolVal(True)
        if effect.victim_draws:
            stack = self.rules.no_stacking
            if effect.victim_may_challenge or (stack.victim_may_answer
                                               and effect.kind in stack.answers):
                return s.evolve(phase=ival(RESPOND), turn=victim,
                                pending=carried + effect.victim_draws,
                                pkind=ival(KINDS.index(effect.kind)), offender=p), cons
            s, cons, _ = self.take(s, victim, effect.victim_draws, tag + ".victim")
        s = s.evolve(turn=self.seat_after(p, direction, 1 + skips), phase=ival(PLAY))
        return self.round_end_check(s), cons

    # ------------------------------------------------------------ actions

    def play(self, s: Sym, kind: Kind) -> Step:
        """Engine ``_can_play`` / ``_do_play``: the player to move plays a card of ``kind``
        (PLAY-1, DRAW-1, NOSTACK-1, WD4-1, UNO-1), then its effect from the table."""
        tag = fresh_tag(f"play.{kind.name.lower()}")
        domain = self.faces_of(kind)
        effect = self.rules.effect(kind)
        f, c, says = z3.Int(f"{tag}.face"), z3.Int(f"{tag}.color"), z3.Bool(f"{tag}.uno")
        hand = s.seat_hand(s.turn)
        after = [fsub(hand[g], one_if(feq(f, g))) if g in domain else hand[g]
                 for g in range(self.nfaces)]
        total = s.seat_total(s.turn)
        uno = self.rules.uno
        say_ok = z3.BoolVal(uno.say_with_card and uno.enabled) and total == uno.says_with
        ncolors = len(self.deck.colors)
        color_ok = fand(c >= 0, c < ncolors) if effect.chooses_color else c == NONE
        guard = fand(
            f_or([feq(f, g) for g in domain]), fge(self.select(hand, f, domain), 1),
            f_or(self.can_play(s, f, kind, after),
                  fand(s.phase == RESPOND, self.can_answer(s, kind))),
            z3.Implies(says, say_ok), color_ok)
        answering = s.phase == RESPOND
        post = s.evolve(
            hands=self.replaced(s.hands, s.turn, after),
            disc=[fsum(s.disc[g], one_if(feq(s.top, g))) for g in range(self.nfaces)],
            top=f, drawn=ival(NONE),
            color=c if effect.chooses_color else self.lookup(self.fcolor, f, domain),
            uno=z3.If(fand(total - 1 == uno.cards_left, z3.Not(says)), s.turn, NONE)
            if uno.enabled else ival(NONE))  # UNO-1 off: no call, no window
        if effect.victim_may_challenge:
            post = post.evolve(legal=self.wd4_legal(s, after), prev=s.color)
        placed = post
        post, cons = self.card_effect(post, s.turn, effect, z3.If(answering, s.pending, 0), tag)
        end = self.rules.end_of_round
        stack = self.rules.no_stacking
        if effect.victim_draws and (
                not end.resolve_final_draw
                # amended: EXT-LAST off, a last card stacking could answer
                or (stack.victim_may_answer and kind in stack.answers
                    and not self.rules.last_draw_card_drawn.enabled)):
            # END-1 switched off: going out first with a draw card ends the round at once
            out = fand(feq(total, 1), *[self.for_seated(q, z3.Not(feq(s.hand_total(q), 0)))
                                        for q in range(self.n)])
            ended = self.round_end_check(placed)
            post, cons = choose(out, ended, post), f_or(out, cons)
        ids = tuple(dict.fromkeys(("PLAY-1", effect.id)))
        return Step(f"play_{kind.name.lower()}", ids, s, guard, post, s.turn, f,
                    {"face": f, "color": c, "uno": says}, draws=cons)

    def replaced(self, hands: list[list[Expr]], who: Expr,
                 hand: list[Expr]) -> list[list[Expr]]:
        """The hand of ``who`` replaced (other hands the same lists when the seat is known)."""
        seat = concrete(who)
        if seat is not None:
            return [hand if p == seat else h for p, h in enumerate(hands)]
        return [[fite(feq(who, p), x, y) for x, y in zip(hand, h, strict=True)]
                for p, h in enumerate(hands)]

    def draw(self, s: Sym) -> Step:
        """Engine ``_do_draw`` (DRAW-1): draw, then play the drawn card or keep it."""
        tag = fresh_tag("draw")
        rule = self.rules.draw
        may = z3.BoolVal(True)
        if not rule.may_draw_when_able_to_play:
            hand = s.seat_hand(s.turn)
            may = fand([z3.Not(fand(hand[g] >= 1, self.can_play(
                s, ival(g), self.deck.faces[g].kind,
                [hand[h] - (1 if h == g else 0) for h in range(self.nfaces)])))
                for g in range(self.nfaces)])
        post, cons, got = self.take(s.evolve(uno=ival(NONE)), s.turn, rule.cards, tag)
        x = z3.Int(f"{tag}.face")
        all_faces = list(range(self.nfaces))
        guard = fand(s.phase == PLAY, self.available(s) >= 1, may)
        # The engine keeps the last card drawn, or none when nothing was drawn.
        some = fsum(got) >= 1
        which = fand(cons, z3.If(some, fand(x >= 0, x < self.nfaces,
                                                self.select(got, x, all_faces) >= 1),
                                   x == NONE))
        return Step("draw", ("DRAW-1",), s, guard,
                    post.evolve(drawn=x, phase=ival(DRAWN)), s.turn, x, {"face": x},
                    draws=which)

    def keep(self, s: Sym) -> Step:
        """Engine ``_do_pass`` after a draw (DRAW-1): keep the drawn card, the turn passes;
        with ``must_play_drawn`` only a drawn card that cannot be played (engine
        ``_may_keep``)."""
        post = s.evolve(drawn=ival(NONE), phase=ival(PLAY),
                        turn=self.seat_after(s.turn, s.direction, 1))
        guard = s.phase == DRAWN
        if self.rules.draw.must_play_drawn:
            guard = fand(guard, z3.Not(self.drawn_playable(s)))
        return Step("keep", ("DRAW-1",), s, guard, post, s.turn)

    def drawn_playable(self, s: Sym) -> Expr:
        """Engine ``_can_play`` of the drawn card (DRAW-1), whatever its kind."""
        hand = s.seat_hand(s.turn)
        return f_or([fand(feq(s.drawn, g), self.can_play(
            s, ival(g), self.deck.faces[g].kind,
            [fsub(hand[h], 1) if h == g else hand[h] for h in range(self.nfaces)]))
            for g in range(self.nfaces)])

    def pass_empty(self, s: Sym) -> Step:
        """Engine ``_do_pass`` with nothing to draw (EXT-PASS)."""
        rule = self.rules.pass_when_nothing_to_draw
        guard = fand(z3.BoolVal(rule.enabled), s.phase == PLAY, self.available(s) < 1)
        post = s.evolve(drawn=ival(NONE), phase=ival(PLAY),
                        turn=self.seat_after(s.turn, s.direction, 1))
        return Step("pass_nothing_to_draw", (rule.id,), s, guard, post, s.turn)

    def accept(self, s: Sym) -> Step:
        """Engine ``_do_accept`` (WD4-2; D2-1 under stacking): draw what is pending."""
        tag = fresh_tag("accept")
        post, cons, _ = self.take(s, s.turn, s.pending, tag)
        guard = fand(s.phase == RESPOND, self.can_draw(s, s.pending))
        return Step("accept", (self.rules.wild_draw_four.id,), s, guard,
                    self.resolved(post, s.turn, keeps_turn=False), s.turn, draws=cons,
                    off=not self.responds())

    def challenge(self, s: Sym, upheld: bool, offender: int | None) -> Step:
        """Engine ``_do_challenge`` (CHAL-1..4): the table says who draws and who moves.
        One step per offender seat when the offender draws (None: any offender)."""
        tag = fresh_tag("challenge")
        rules = self.rules
        outcome: ChallengeOutcome = rules.challenge_upheld if upheld else rules.challenge_failed
        kinds = [k for k in self.kinds if rules.effect(k).victim_may_challenge]
        off = s.offender if offender is None else ival(offender)
        post, c1, _ = self.take(s, off, outcome.offender_draws, tag + ".offender")
        post, c2, _ = self.take(post, s.turn, outcome.challenger_draws, tag + ".challenger")
        if not rules.challenge_color.named_color_stays:
            post = post.evolve(color=s.prev)
        guard = fand(
            s.phase == RESPOND, s.offender == off,
            f_or([s.pkind == KINDS.index(k) for k in kinds]),
            z3.Not(s.legal) if upheld else s.legal,
            self.can_draw(s, max(outcome.offender_draws, outcome.challenger_draws)))
        name = "challenge_upheld" if upheld else "challenge_failed"
        return Step(name, (outcome.id, rules.challenge_color.id), s, guard,
                    self.resolved(post, s.turn, outcome.challenger_keeps_turn), s.turn,
                    draws=fand(c1, c2), variant="" if offender is None else f"offender {offender}",
                    off=not kinds)

    def responds(self) -> bool:
        """Whether any card's victim accepts (or challenges, or answers) before drawing,
        as engine ``_card_effect`` decides: else no play leads to RESPOND."""
        st = self.rules.no_stacking
        return any(self.rules.effect(k).victim_draws and (
            self.rules.effect(k).victim_may_challenge
            or (st.victim_may_answer and k in st.answers)) for k in self.kinds)

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
        """Engine ``_do_uno`` (UNO-1): say UNO before an accusation."""
        a, seated = self._actor(fresh_tag("uno"))
        uno = self.rules.uno
        guard = fand(seated, self._in_round(s), s.uno == a,
                       z3.BoolVal(uno.say_before_accusation and uno.enabled))
        return Step("uno", (self.rules.uno.id,), s, guard, s.evolve(uno=ival(NONE)), a,
                    choices={"actor": a}, off=not uno.enabled)

    def catch(self, s: Sym, target: int) -> Step:
        """Engine ``_do_catch`` (UNO-1): the caught player draws the penalty. One step per
        target seat, so the draw goes to a known hand (smaller queries)."""
        tag = fresh_tag("catch")
        a, seated = self._actor(tag)
        uno = self.rules.uno
        t = ival(target)
        one = (s.hand_total(target) == uno.cards_left if uno.catch_only_with_one_card
               else z3.BoolVal(True))
        post, cons, _ = self.take(s, t, uno.penalty, tag)
        guard = fand(z3.BoolVal(uno.enabled), seated, self._in_round(s), s.uno == target,
                     a != target, one, self.can_draw(s, uno.penalty))
        return Step("catch", (uno.id,), s, guard, post.evolve(uno=ival(NONE)), a,
                    choices={"actor": a}, draws=cons, variant=f"target {target}",
                    off=not uno.enabled)

    def misplay(self, s: Sym) -> Step:
        """Engine ``_do_misplay`` (MISPLAY-1): a card that may not be played is shown,
        taken back, and its player draws the penalty."""
        tag = fresh_tag("misplay")
        rule = self.rules.misplay
        f = z3.Int(f"{tag}.face")
        hand = s.seat_hand(s.turn)
        wrong = []
        for kind in self.kinds:
            domain = self.faces_of(kind)
            after = [fsub(hand[g], one_if(feq(f, g))) for g in range(self.nfaces)]
            wrong.append(fand(f_or([feq(f, g) for g in domain]),
                                z3.Not(self.can_play(s, f, kind, after))))
        post, cons, _ = self.take(s.evolve(uno=ival(NONE)), s.turn, rule.cards, tag)
        post = post.evolve(drawn=ival(NONE))
        if rule.turn_passes:
            post = post.evolve(phase=ival(PLAY),
                               turn=self.seat_after(s.turn, s.direction, 1))
        guard = fand(f_or(s.phase == PLAY, s.phase == DRAWN), f >= 0, f < self.nfaces,
                       self.select(hand, f, list(range(self.nfaces))) >= 1, f_or(wrong))
        return Step("misplay", (rule.id,), s, guard, post, s.turn, f, {"face": f}, draws=cons)

    def advise(self, s: Sym, adviser: int) -> Step:
        """Engine ``_do_advise`` (ADVICE-1): the adviser draws the penalty (one step per
        adviser seat)."""
        tag = fresh_tag("advise")
        rule = self.rules.advice
        a = ival(adviser)
        post, cons, _ = self.take(s, a, rule.cards, tag)
        guard = self.if_seated(adviser, fand(z3.BoolVal(rule.enabled), self._in_round(s),
                                             self.can_draw(s, rule.cards)))
        return Step("advise", (rule.id,), s, guard, post, a, choices={"actor": a}, draws=cons,
                    variant=f"adviser {adviser}")

    def choose_color(self, s: Sym) -> Step:
        """Engine ``_do_choose_color`` (START-WILD): the first player names the color."""
        c = z3.Int(f"{fresh_tag('choose')}.color")
        guard = fand(s.phase == COLOR, c >= 0, c < len(self.deck.colors))
        return Step("choose_color", (self.rules.start_wild.id,), s, guard,
                    s.evolve(color=c, phase=ival(PLAY)), s.turn, choices={"color": c},
                    off=not self.colors_chosen())

    def reshuffle(self, s: Sym) -> Step:
        """Engine ``_reshuffle`` (RESHUFFLE-1) alone, as it happens inside every draw:
        the pile is empty and a card is needed. Checked on its own, not part of ``next``."""
        pile, top = self.reshuffled(s)
        guard = fand(s.pile_total() == 0, self._in_round(s))
        post = s.evolve(pile=pile, top=top, disc=[ival(0)] * self.nfaces)
        return Step("reshuffle", (self.rules.reshuffle.id,), s, guard, post, s.turn,
                    in_next=False)

    def start_card(self, s: Sym, kind: Kind, dealer: int) -> list[Step]:
        """Engine ``_turn_start_card`` (DEAL-2, DEAL-3, START-*, EXT-START) for a start card
        of ``kind``: one action, or two when the table turns another card. One step per
        dealer seat, so the first player is a known seat: the symmetry reduction fixes the
        player to move, not the dealer, and a symbolic first player made the start card
        that draws (START-D2) the slowest query of the suite."""
        tag = fresh_tag(f"start.{kind.name.lower()}")
        rules = self.rules
        domain = self.faces_of(kind)
        t = z3.Int(f"{tag}.face")
        base = fand(feq(s.phase, DEALT), feq(s.dealer, dealer), f_or([feq(t, g) for g in domain]),
                    fge(self.select(s.pile, t, domain), 1))
        pile = [fsub(s.pile[g], one_if(feq(t, g))) if g in domain else s.pile[g]
                for g in range(self.nfaces)]
        start = rules.start_rule(kind)
        name = f"start_{kind.name.lower()}"
        ids = (start.id,) if start is not None else (rules.first_turn.id,)
        if start is None or not start.turn_another_card:
            post, cons = self._started(s.evolve(pile=pile, top=t), t, kind, start, tag, dealer)
            return [Step(name, ("DEAL-2", *ids), s, base, post, s.dealer, t,
                         _start_choices(t, start, post), draws=cons, variant=f"dealer {dealer}")]
        # Only cards with this same start rule left: EXT-START decides (engine loop).
        same = [g for g in range(self.nfaces)
                if rules.start_rule(self.deck.faces[g].kind) == start]
        only_same = fsum([pile[g] for g in range(self.nfaces) if g not in same]) == 0
        again = Step(name, ("DEAL-2", *ids), s, fand(base, z3.Not(only_same)), s, s.dealer,
                     t, {"face": t}, variant=f"dealer {dealer}")
        ext = rules.start_with_only_wd4_left
        if ext.enabled:
            post, cons = self._started(s.evolve(pile=pile, top=t), t, kind, rules.start_wild,
                                       tag, dealer)
        else:
            post, cons = s.evolve(pile=pile, top=t, phase=ival(STUCK)), z3.BoolVal(True)
        chosen = _start_choices(t, rules.start_wild if ext.enabled else None, post)
        left = Step(f"{name}_only_left", ("DEAL-2", ext.id), s, fand(base, only_same),
                    post, s.dealer, t, chosen, draws=cons, variant=f"dealer {dealer}")
        return [again, left]

    def _started(self, s: Sym, t: Expr, kind: Kind, start: object, tag: str,
                 dealer: int) -> tuple[Sym, Expr]:
        rules = self.rules
        first_turn = rules.first_turn
        rule = start if start is not None else None
        offset = getattr(rule, "first_seat", first_turn.first_seat)
        direction = ival(getattr(rule, "direction", first_turn.direction).step)
        first = self.seat_after(ival(dealer), ival(1), offset)
        s = s.evolve(direction=direction, turn=first, phase=ival(PLAY),
                     color=self.lookup(self.fcolor, t, self.faces_of(kind)))
        if rule is None:
            return s, z3.BoolVal(True)
        s, cons = self._start_color(s, rule, tag)
        draws = int(getattr(rule, "first_player_draws", 0))
        if draws:
            s, took, _ = self.take(s, first, draws, tag)
            cons = fand(cons, took)
        if getattr(rule, "first_player_loses_turn", False):
            s = s.evolve(turn=self.seat_after(first, direction, 1))
        if getattr(rule, "first_player_chooses_color", False):
            s = s.evolve(phase=ival(COLOR))
        return s, cons

    def _start_color(self, s: Sym, rule: object, tag: str) -> tuple[Sym, Expr]:
        """Engine ``_start_color``: with ``color_at_random`` the start card's color is a
        chance outcome, any of the deck's colors (``Step.choices['color']``)."""
        if not getattr(rule, "color_at_random", False):
            return s, z3.BoolVal(True)
        c = z3.Int(f"{tag}.color")
        return s.evolve(color=c), fand(c >= 0, c < len(self.deck.colors))

    def next_deal(self, s: Sym) -> Step:
        """Engine ``next_round`` / ``_deal_shuffled`` (END-2, DEAL-2): a new deal of
        hand_size cards each; the dealer role moves as the table says."""
        tag = fresh_tag("deal")
        size = self.rules.deal.hand_size
        faces = range(self.nfaces)
        hands = [[z3.Int(f"{tag}.hand{p}.{self.deck.code(g)}") for g in faces]
                 for p in range(self.n)]
        held = [fsum([h[g] for h in hands]) for g in faces]
        copies = self.deck.copies
        cons = fand(
            *[x >= 0 for h in hands for x in h],
            *[fsum(h) == self.when_seated(p, size, 0) for p, h in enumerate(hands)],
            *[held[g] <= copies[g] for g in faces])
        fits = self.count_in([c for c in self.counts if self.deck.size > size * c])
        if self.rules.next_round.next_dealer is NextDealer.WINNER:
            dealer = s.winner
        else:  # the seat to the dealer's left (engine: dealer + 1)
            dealer = self.seat_after(s.dealer, ival(1), 1)
        post = dealt(hands, [copies[g] - held[g] for g in faces], dealer, s.scores)
        guard = fand(s.phase == OVER, z3.Not(self.game_over(s)), fits)
        return Step("next_deal", (self.rules.next_round.id, self.rules.deal.id), s, guard, post,
                    s.dealer, draws=cons, dealt=tuple(tuple(h) for h in hands))

    # --------------------------------------------------------------- next

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
        for step in out:
            step.reads = reads
        return [step for step in out if not step.off]

    def _logged(self, build: Callable[[Sym], list[Step]], s: Sym) -> list[Step]:
        """``build(s)``, each step noting the draws it makes (``Step.takes``)."""
        self._take_log = []
        steps = build(s)
        for step in steps:
            step.takes = tuple(self._take_log)
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
        for kind in self.kinds:
            out.append((f"play_{kind.name.lower()}",
                        lambda s, k=kind: [self.play(s, k)], None, False))  # type: ignore[misc]
        simple: list[tuple[str, Callable[[Sym], Step]]] = [
            ("draw", self.draw), ("keep", self.keep), ("pass_nothing_to_draw", self.pass_empty),
            ("reshuffle", self.reshuffle), ("accept", self.accept),
            ("uno", self.say_uno), ("misplay", self.misplay)]
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


def _start_choices(t: Expr, rule: object, post: Sym) -> dict[str, Expr]:
    """A start step's chance outcomes: the card turned and, when the start rule draws it
    at random (``color_at_random``), the color (validation binds both from the engine)."""
    if getattr(rule, "color_at_random", False):
        return {"face": t, "color": post.color}
    return {"face": t}


def _join(a: str, b: str) -> str:
    return f"{a}, {b}" if a else b


def next_relation(spec: Spec, s: Sym, t: Sym, leave_out: Collection[str] = ()) -> Expr:
    """``Next(s, t)``: some action leads from ``s`` to ``t`` (the disjunction, as in TLA+);
    the actions named in ``leave_out`` are not part of it."""
    return f_or([fand(step.relation, equal(step.post, t)) for step in spec.steps(s)
                 if step.in_next and step.name not in leave_out])
