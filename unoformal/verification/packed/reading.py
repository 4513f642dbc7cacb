"""The command nodes read over a packed record: each condition becomes a closure
``(state, binding) -> bool``, each effect a closure that changes the state in place or
(a draw: chance) hands back its outcomes, with the table's values folded in.

The state is the record as a ``list`` of ints (``Reader.load``), with two fields held
as the engine holds them while a move runs (the WD4-1 verdict, True outside an answer;
END-1's winner-to-be, the seat with no card), and put back as ``Layout.encode`` writes
them (``Reader.store``). A node class without a reading here raises :class:`Unread`,
naming it, when the successor is built.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from unoformal.language import conditions as c
from unoformal.language import effects as e
from unoformal.language.commands import Command
from unoformal.language.conditions import Conjunct
from unoformal.language.protocols import Binding, Who
from unoformal.rulebook.cards import Kind
from unoformal.rules.state import COLOR as NAMING
from unoformal.rules.state import DRAWN, OVER, PHASES, PLAY, RESPOND, START, read_in
from unoformal.verification.explore.chance import ExploreGame
from unoformal.verification.packed.layout import AT, KIND_INDEX, NONE, Layout

State = list[int]
Label = tuple[str, str]
Outcomes = list[tuple[State, list[Label]]]
Cond = Callable[[State, Binding], bool]
# a step: changes the state in place (None), or gives its outcomes (chance, a branch)
Step = Callable[[State, Binding, list[Label]], Outcomes | None]
Chain = Callable[[State, Binding, list[Label]], Outcomes]
Guard = Callable[[State, Binding], bool]
Run = Callable[[State, Binding], Outcomes]

PH, TURN, DIR, COLOR, UNO_WINDOW, DRAWN_AT = 0, 1, 2, 3, 4, 5
PENDING, KIND, OFFENDER, WD4, PREV, WINNER, TOP = 6, 7, 8, 9, 10, 11, 14
_P = {p: i for i, p in enumerate(PHASES)}
_READS_DRAWN = [any(f.name == "drawn" for f in read_in(p)) for p in PHASES]
_SEAT_FIELDS = {"uno_window", "drawn", "offender", "winner", "color", "prev_color"}


class Unread(TypeError):
    """A node of the rule language with no reading over records."""


def _v(x: int) -> int | None:
    return None if x == NONE else x


def _n(x: int | None) -> int:
    return NONE if x is None else x


class Reader:
    """The readings of one table and player count (see the module)."""

    def __init__(self, layout: Layout, template: ExploreGame,
                 can_play: Callable[[State, int, int], bool]) -> None:
        rules = template.rules
        self.n, self.nf = layout.n, layout.nf
        self.base, self.disc = layout.counts, layout.discard_at
        self.copies = list(layout.copies)
        self.kind = list(template.f_kind)
        self.fcolor = [_n(x) for x in template.f_color]
        self.points = list(layout.deck.points)
        self.keep_top = rules.reshuffle.keep_top
        self.what_is_left = rules.draw_what_is_left.enabled
        self.short = (rules.draw_what_is_left.id, "draw-what-is-left")
        self.reshuffled = (rules.reshuffle.id, "reshuffle")
        self.reverse_skips = rules.reverse_is_skip(self.n)
        # MERCY: who is out of the round (a byte per seat, ``Layout.out_at``), and TWO-1
        # asked of the players still in (``Game._reverse_is_skip``)
        self.out_at = layout.out_at if layout.seats_out else None
        self.skips_with = [rules.reverse_is_skip(k) for k in range(self.n + 1)]
        self.uno_with = template.t.uno_with
        self.excused = template.t.wd4_excused
        self.can_play = can_play
        self.match, self.block = self._rows(template)

    def _rows(self, template: ExploreGame) -> tuple[dict[tuple[int, int], list[bool]],
                                                     dict[tuple[int, int], list[bool]]]:
        """PLAY-1's match row and WD4-1's row per (color, top), folded from the table's
        statements as the engine reads them (``Game._match_row``, ``_block_row``)."""
        g = template.copy()
        match, block = {}, {}
        for color in [*range(len(g.deck.colors)), None]:
            for top in [*range(self.nf), None]:
                g.color, g.discard = color, ([] if top is None else [top])
                g._match_key = g._block_key = -1
                match[_n(color), _n(top)] = list(g._match_row())
                block[_n(color), _n(top)] = list(g._block_row())
        return match, block

    # ------------------------------------------------------------- the record

    def hand_at(self, p: int) -> int:
        return self.base + p * self.nf

    def load(self, rec: bytes) -> State:
        s = list(rec)
        if s[PH] != _P[RESPOND]:
            s[WD4] = 1
        if s[PH] != _P[OVER]:  # (MERCY: a seat out holds no card either, and never went out)
            s[WINNER] = next((p for p in range(self.n)
                              if not self.size(s, p) and not self.is_out(s, p)), NONE)
        return s

    def store(self, s: State) -> bytes:
        out = list(s)
        phase = s[PH]
        if not _READS_DRAWN[phase]:
            out[DRAWN_AT] = NONE
        if phase != _P[RESPOND]:
            out[PENDING] = out[WD4] = 0
            out[KIND] = out[OFFENDER] = out[PREV] = NONE
        if phase != _P[OVER]:
            out[WINNER] = NONE
            out[12] = out[13] = 0
        return bytes(out)

    def size(self, s: State, p: int) -> int:
        at = self.base + p * self.nf
        return sum(s[at:at + self.nf])

    def pile(self, s: State) -> list[int]:
        left = list(self.copies)
        nf = self.nf
        for at in range(self.base, self.disc + nf, nf):
            for f in range(nf):
                left[f] -= s[at + f]
        if s[TOP] != NONE:
            left[s[TOP]] -= 1
        return left

    def discard_size(self, s: State) -> int:
        return sum(s[self.disc:self.disc + self.nf]) + (s[TOP] != NONE)

    def available(self, s: State) -> int:
        """``Game.available``: the pile and what RESHUFFLE-1 would return."""
        keep = 1 if self.keep_top and s[TOP] != NONE else 0
        return sum(self.pile(s)) + self.discard_size(s) - keep

    def is_out(self, s: State, p: int) -> bool:
        """MERCY: whether seat ``p`` is knocked out of the round."""
        return self.out_at is not None and s[self.out_at + p] == 1

    def next(self, s: State, seat: int, steps: int = 1) -> int:
        """``Game._next``: over the players still in."""
        return self.around(s, seat, steps * (1 if s[DIR] == 0 else -1))

    def around(self, s: State, seat: int, steps: int) -> int:
        """``Game._around``: ``steps`` seats on (left when positive), over the seats out."""
        n, out = self.n, self.out_at
        if out is None or not any(s[out:out + n]):
            return (seat + steps) % n
        way = 1 if steps > 0 else -1
        for _ in range(abs(steps)):
            seat = (seat + way) % n
            while s[out + seat]:
                seat = (seat + way) % n
        return seat

    def seat(self, s: State, b: Binding, who: Who) -> Any:
        if who is Who.NEXT:
            return self.next(s, b.actor)
        return s[TURN] if who is Who.TO_MOVE else b.of(who)

    def score_labels(self, s: State) -> tuple[Label, ...]:
        """SCORE-1's labels of a finished round (``Labeler.over``)."""
        out: list[Label] = []
        for p in range(self.n):
            if p == s[WINNER]:
                continue
            at = self.hand_at(p)
            for f in range(self.nf):
                kind = self.kind[f]
                label = ("SCORE-1", "numbers" if kind is Kind.NUMBER else
                         "wilds" if kind.is_wild else "actions")
                out += [label] * s[at + f]
        return tuple(out)

    def wd4_legal(self, s: State, p: int, without: int | None) -> bool:
        """WD4-1 on ``p``'s hand (one ``without`` card left out): ``Game._wd4_is_legal``."""
        row = self.block[s[COLOR], s[TOP]]
        at = self.hand_at(p)
        held = [f for f in range(self.nf) if s[at + f] - (f == without) > 0]
        if self.excused is not None and any(self.excused[f] for f in held):
            return True
        return not any(row[f] for f in held)

    # ------------------------------------------------------------- guards

    def guard(self, command: Command, parts: tuple[Conjunct, ...]) -> Guard:
        """``Command.failing_of(parts, ...) is None``: the conjuncts, then those of the
        branch the state takes."""
        conds = [self.cond(part.cond) for part in parts]
        branches = [(self.cond(br.when), [self.cond(p.cond) for p in br.guard])
                    for br in command.branches]

        def holds(s: State, b: Binding) -> bool:
            for cond in conds:
                if not cond(s, b):
                    return False
            for when, more in branches:
                if when(s, b):
                    return all(cond(s, b) for cond in more)
            return True
        return holds

    def cond(self, node: c.Cond) -> Cond:
        reading = getattr(self, "c_" + type(node).__name__, None)
        if reading is None or type(node).__module__ != c.__name__:
            raise Unread(f"{type(node).__name__} has no reading over packed records")
        made: Cond = reading(node)
        return made

    def c_Fixed(self, n: c.Fixed) -> Cond:
        value = n.value
        return lambda s, b: value

    def c_SomeWindow(self, n: c.SomeWindow) -> Cond:
        return lambda s, b: s[UNO_WINDOW] != NONE

    def c_WindowOf(self, n: c.WindowOf) -> Cond:
        who = n.who
        return lambda s, b: s[UNO_WINDOW] != NONE and s[UNO_WINDOW] == b.of(who)

    def c_Differ(self, n: c.Differ) -> Cond:
        x, y = n.a, n.b
        return lambda s, b: bool(b.of(x) != b.of(y))

    def c_SameSeat(self, n: c.SameSeat) -> Cond:
        x, y = n.a, n.b
        return lambda s, b: bool(self.seat(s, b, x) == self.seat(s, b, y))

    def c_HandIs(self, n: c.HandIs) -> Cond:
        who, cards = n.who, n.cards
        return lambda s, b: self.size(s, b.of(who)) == cards

    def c_HandAtLeast(self, n: c.HandAtLeast) -> Cond:
        who, cards, value = n.who, n.cards, n.value
        return lambda s, b: (self.size(s, b.of(who)) >= cards) == value

    def c_CanDraw(self, n: c.CanDraw) -> Cond:
        cards = n.cards
        return lambda s, b: self.what_is_left or self.available(s) >= cards

    def c_CanDrawPending(self, n: c.CanDrawPending) -> Cond:
        return lambda s, b: self.what_is_left or self.available(s) >= s[PENDING]

    def c_PhaseIs(self, n: c.PhaseIs) -> Cond:
        code = _P[n.phase]
        return lambda s, b: s[PH] == code

    def c_PhaseNot(self, n: c.PhaseNot) -> Cond:
        code = _P[n.phase]
        return lambda s, b: s[PH] != code

    def c_PhaseIn(self, n: c.PhaseIn) -> Cond:
        codes = frozenset(_P[p] for p in n.phases)
        return lambda s, b: s[PH] in codes

    def c_PendingIn(self, n: c.PendingIn) -> Cond:
        codes = frozenset(KIND_INDEX[k] for k in n.kinds)
        return lambda s, b: s[KIND] in codes

    def c_Legal(self, n: c.Legal) -> Cond:
        value = n.value
        return lambda s, b: (s[WD4] == 1) == value

    def c_Offends(self, n: c.Offends) -> Cond:
        return lambda s, b: _v(s[OFFENDER]) == b.offender

    def c_CardsLeft(self, n: c.CardsLeft) -> Cond:
        cards, value = n.cards, n.value
        return lambda s, b: (self.available(s) >= cards) == value

    def c_CanPlay(self, n: c.CanPlay) -> Cond:
        who, value = n.who, n.value

        def holds(s: State, b: Binding) -> bool:
            p = b.of(who)
            at = self.hand_at(p)
            able = any(s[at + f] and self.can_play(s, p, f) for f in range(self.nf))
            return able == value
        return holds

    def c_DrawnPlayable(self, n: c.DrawnPlayable) -> Cond:
        value = n.value
        return lambda s, b: (s[DRAWN_AT] != NONE
                             and self.can_play(s, b.actor, s[DRAWN_AT])) == value

    def c_HoldsCard(self, n: c.HoldsCard) -> Cond:
        return lambda s, b: s[self.hand_at(b.actor) + b.card] > 0

    def c_IsTop(self, n: c.IsTop) -> Cond:
        return lambda s, b: bool(b.card == _v(s[TOP]))

    def c_CardPlayable(self, n: c.CardPlayable) -> Cond:
        value = n.value
        return lambda s, b: self.can_play(s, b.actor, b.card) == value

    def c_UnoCall(self, n: c.UnoCall) -> Cond:
        allowed, cards = n.allowed, n.with_cards
        return lambda s, b: not b.uno or (allowed and self.size(s, b.actor) == cards)

    def c_DrawnOnly(self, n: c.DrawnOnly) -> Cond:
        may, drawn = n.may_play_drawn, _P[DRAWN]
        return lambda s, b: s[PH] != drawn or (may and b.card == _v(s[DRAWN_AT]))

    def c_Unanswering(self, n: c.Unanswering) -> Cond:
        inner, respond = self.cond(n.cond), _P[RESPOND]
        return lambda s, b: s[PH] == respond or inner(s, b)

    def c_Matches(self, n: c.Matches) -> Cond:
        return lambda s, b: self.match[s[COLOR], s[TOP]][b.card]

    def c_Wd4Legal(self, n: c.Wd4Legal) -> Cond:
        return lambda s, b: self.wd4_legal(s, b.actor, b.card)

    def c_CanEffect(self, n: c.CanEffect) -> Cond:
        if n.effect.victim_may_challenge or self.what_is_left:
            return lambda s, b: True
        keep, draws = 1 if self.keep_top else 0, n.effect.victim_draws
        return lambda s, b: (sum(self.pile(s)) + self.discard_size(s) + 1 - keep) >= draws

    def c_GoesOut(self, n: c.GoesOut) -> Cond:
        return lambda s, b: self.size(s, b.actor) == 0 and s[WINNER] == NONE

    def c_OffenderHolds(self, n: c.OffenderHolds) -> Cond:
        respond = _P[RESPOND]
        return lambda s, b: (s[PH] != respond or s[OFFENDER] == NONE
                             or self.size(s, s[OFFENDER]) > 0)

    def c_ReverseSkips(self, n: c.ReverseSkips) -> Cond:
        value, out = self.reverse_skips, self.out_at
        if out is None:
            return lambda s, b: value
        skips, count = self.skips_with, self.n
        return lambda s, b: skips[count - sum(s[out:out + count])]

    def c_Both(self, n: c.Both) -> Cond:
        parts = [self.cond(p) for p in n.parts]
        return lambda s, b: all(p(s, b) for p in parts)

    def c_Either(self, n: c.Either) -> Cond:
        parts = [self.cond(p) for p in n.parts]
        return lambda s, b: any(p(s, b) for p in parts)

    def c_Unless(self, n: c.Unless) -> Cond:
        part = self.cond(n.part)
        return lambda s, b: not part(s, b)

    def c_SaysUno(self, n: c.SaysUno) -> Cond:
        return lambda s, b: bool(b.uno)

    def c_CardOfColor(self, n: c.CardOfColor) -> Cond:
        return lambda s, b: self.fcolor[b.card] == s[COLOR]

    def c_NamesCurrent(self, n: c.NamesCurrent) -> Cond:
        return lambda s, b: bool(b.color == _v(s[COLOR]))

    def c_OnOtherColor(self, n: c.OnOtherColor) -> Cond:
        kind = n.kind
        return lambda s, b: (s[TOP] != NONE and self.kind[s[TOP]] is kind
                             and self.fcolor[s[TOP]] != self.fcolor[b.card])

    def c_HoldsKind(self, n: c.HoldsKind) -> Cond:
        faces = [f for f in range(self.nf) if self.kind[f] is n.kind]
        return lambda s, b: any(s[self.hand_at(b.actor) + f] for f in faces)

    def c_ColorKept(self, n: c.ColorKept) -> Cond:
        return lambda s, b: s[PREV] == s[COLOR]

    # ------------------------------------------------------------- effects

    def run(self, command: Command) -> Run:
        """``Command.run`` on a copy of the state: the common effect, then the effect of
        the branch the state takes then; every outcome with the labels that ran."""
        common = self.chain(command.effect)
        branches = [(self.cond(br.when), self.chain(br.effect)) for br in command.branches]

        def then(s: State, b: Binding, ran: list[Label]) -> Outcomes:
            for when, chain in branches:
                if when(s, b):
                    return chain(s, b, ran)
            return [(s, ran)]

        def run(s: State, b: Binding) -> Outcomes:
            out: Outcomes = []
            for s2, ran in common(list(s), b, []):
                out += then(s2, b, ran) if branches else [(s2, ran)]
            return out
        return run

    def chain(self, steps: tuple[e.Effect, ...]) -> Chain:
        """The steps in order; a step with several outcomes runs the rest on each."""
        made = [self.effect(step) for step in steps]
        rests: list[Chain] = []

        def at(i: int) -> Chain:
            def go(s: State, b: Binding, ran: list[Label]) -> Outcomes:
                for j in range(i, len(made)):
                    out = made[j](s, b, ran)
                    if out is not None:
                        if j + 1 == len(made):
                            return out
                        rest = rests[j + 1]
                        return [o for s2, r2 in out for o in rest(s2, b, r2)]
                return [(s, ran)]
            return go
        rests.extend(at(i) for i in range(len(made) + 1))
        return rests[0]

    def effect(self, node: e.Effect) -> Step:
        reading = getattr(self, "e_" + type(node).__name__, None)
        if reading is None or type(node).__module__ != e.__name__:
            raise Unread(f"{type(node).__name__} has no reading over packed records")
        made: Step = reading(node)
        return made

    def _field(self, name: str) -> int:
        if name not in _SEAT_FIELDS:
            raise Unread(f"a field {name!r} set or copied has no reading over records")
        return AT[name]

    def e_Clear(self, n: e.Clear) -> Step:
        at = self._field(n.field)

        def step(s: State, b: Binding, ran: list[Label]) -> None:
            s[at] = NONE
        return step

    def e_Copy(self, n: e.Copy) -> Step:
        src, dst = self._field(n.source), self._field(n.field)

        def step(s: State, b: Binding, ran: list[Label]) -> None:
            s[dst] = s[src]
        return step

    def e_Mark(self, n: e.Mark) -> Step:
        at, who = self._field(n.field), n.who

        def step(s: State, b: Binding, ran: list[Label]) -> None:
            s[at] = _n(self.seat(s, b, who))
        return step

    def _nothing(self, n: e.Effect) -> Step:
        """Bookkeeping of the engine's words (a cause, a hand shown): no field of the
        record, as the relation reads it."""
        return lambda s, b, ran: None

    e_Reveal = e_Caused = e_NoteCause = e_NoteEffect = _nothing

    def e_Resolve(self, n: e.Resolve) -> Step:
        keeps, play = n.keeps_turn, _P[PLAY]

        def step(s: State, b: Binding, ran: list[Label]) -> None:
            s[PENDING], s[KIND], s[OFFENDER], s[PH] = 0, NONE, NONE, play
            s[TURN] = b.actor if keeps else self.next(s, b.actor)
            self.round_end_check(s)
        return step

    def e_SetPhase(self, n: e.SetPhase) -> Step:
        code = _P[n.phase]

        def step(s: State, b: Binding, ran: list[Label]) -> None:
            s[PH] = code
        return step

    def e_PassTurn(self, n: e.PassTurn) -> Step:
        steps = n.steps

        def step(s: State, b: Binding, ran: list[Label]) -> None:
            s[TURN] = self.next(s, b.actor, steps)
        return step

    def e_SetColor(self, n: e.SetColor) -> Step:
        def step(s: State, b: Binding, ran: list[Label]) -> None:
            s[COLOR] = _n(b.color)
        return step

    def e_PlaceCard(self, n: e.PlaceCard) -> Step:
        judges, names = n.judges, n.names_color

        def step(s: State, b: Binding, ran: list[Label]) -> None:
            p, card = b.actor, b.card
            s[self.hand_at(p) + card] -= 1
            if judges:
                s[WD4] = 1 if self.wd4_legal(s, p, None) else 0
                s[PREV] = s[COLOR]
            if s[TOP] != NONE:
                s[self.disc + s[TOP]] += 1
            s[TOP] = card
            s[COLOR] = _n(b.color) if names else self.fcolor[card]
            s[DRAWN_AT] = NONE
        return step

    def e_OpenWindow(self, n: e.OpenWindow) -> Step:
        left = n.cards_left

        def step(s: State, b: Binding, ran: list[Label]) -> None:
            if self.size(s, b.actor) == left and not b.uno:
                s[UNO_WINDOW] = b.actor
        return step

    def e_FlipDirection(self, n: e.FlipDirection) -> Step:
        def step(s: State, b: Binding, ran: list[Label]) -> None:
            s[DIR] ^= 1
        return step

    def e_AddPending(self, n: e.AddPending) -> Step:
        cards, kind, respond = n.cards, KIND_INDEX[n.kind], _P[RESPOND]

        def step(s: State, b: Binding, ran: list[Label]) -> None:
            s[PENDING] = (s[PENDING] if s[PH] == respond else 0) + cards
            s[KIND] = kind
        return step

    def e_NoteOut(self, n: e.NoteOut) -> Step:
        def step(s: State, b: Binding, ran: list[Label]) -> None:
            if not self.size(s, b.actor) and s[WINNER] == NONE:
                s[WINNER] = b.actor
        return step

    def e_EndIfOut(self, n: e.EndIfOut) -> Step:
        def step(s: State, b: Binding, ran: list[Label]) -> None:
            self.round_end_check(s)
        return step

    def e_EndRound(self, n: e.EndRound) -> Step:
        def step(s: State, b: Binding, ran: list[Label]) -> None:
            self.end_round(s, b.actor)
        return step

    def e_When(self, n: e.When) -> Step:
        cond, then, otherwise = self.cond(n.cond), self.chain(n.then), self.chain(n.otherwise)
        yes, no = (None if x is None else (x.rule, x.branch) for x in n.covers)

        def step(s: State, b: Binding, ran: list[Label]) -> Outcomes:
            holds = cond(s, b)
            label = yes if holds else no
            if label is not None:
                ran.append(label)
            return (then if holds else otherwise)(s, b, ran)
        return step

    def e_Instead(self, n: e.Instead) -> Step:
        return self.chain(n.steps)  # a house rule's steps where the move's own one was

    def e_Shows(self, n: e.Shows) -> Step:
        label = (n.label.rule, n.label.branch)

        def step(s: State, b: Binding, ran: list[Label]) -> None:
            ran.append(label)
        return step

    def e_Sorts(self, n: e.Sorts) -> Step:
        cond = self.cond(n.cond)
        yes, no = (None if x is None else (x.rule, x.branch) for x in (n.yes, n.no))

        def step(s: State, b: Binding, ran: list[Label]) -> None:
            label = yes if cond(s, b) else no
            if label is not None:
                ran.append(label)
        return step

    def e_KnockOut(self, n: e.KnockOut) -> Step:
        at, to_pile = n.at, n.to_pile

        def step(s: State, b: Binding, ran: list[Label]) -> None:
            self.knock_out(s, at, to_pile)
        return step

    def e_Take(self, n: e.Take) -> Step:
        who, cards, keeps = n.who, n.cards, n.keeps

        def step(s: State, b: Binding, ran: list[Label]) -> Outcomes:
            return self.take(s, ran, self.seat(s, b, who), cards, keeps)
        return step

    def e_TakePending(self, n: e.TakePending) -> Step:
        who = n.who

        def step(s: State, b: Binding, ran: list[Label]) -> Outcomes:
            return self.take(s, ran, b.of(who), s[PENDING], False)
        return step

    # ------------------------------------------------------------- engine primitives

    def round_end_check(self, s: State) -> None:
        """``Game._round_end_check`` (END-1)."""
        w = s[WINNER]
        if w == NONE:
            return
        if self.size(s, w):
            s[WINNER] = NONE
            return
        self.end_round(s, w)

    def end_round(self, s: State, w: int) -> None:
        """``Game._end_round`` (SCORE-1): the cards left in the other hands (MERCY's last
        player in holds cards, not counted)."""
        points = 0
        for p in range(self.n):
            if p == w:
                continue
            at = self.hand_at(p)
            points += sum(self.points[f] * s[at + f] for f in range(self.nf))
        s[12], s[13] = points & 0xFF, points >> 8
        s[WINNER], s[PH], s[UNO_WINDOW] = w, _P[OVER], NONE
        s[PENDING], s[KIND], s[OFFENDER] = 0, NONE, NONE

    def knock_out(self, s: State, at: int, to_pile: bool) -> None:
        """``Game._knock_out_at`` (MERCY, the last step of every move of a round): every
        seat holding ``at`` cards or more (or a seat out holding any) is out, at once, in
        seat order, its cards under the draw pile (the pile is the rest of the deck: the
        counts go) or under the discard pile (below the top: ``commands._refuse`` refuses
        the table where the discard can be empty); a player to move knocked out passes the
        turn on; the last player in wins the round."""
        out = self.out_at
        assert out is not None  # a table that knocks out has the seats out in its record
        if s[PH] == _P[OVER] or s[PH] == _P[START]:
            return
        n, nf = self.n, self.nf
        knocked = [p for p in range(n)
                   if (size := self.size(s, p)) >= at or (size and s[out + p])]
        if not knocked:
            return
        for p in knocked:  # ``Game._knock_out``
            base = self.hand_at(p)
            for f in range(nf):
                if not to_pile:
                    s[self.disc + f] += s[base + f]
                s[base + f] = 0
            if s[WINNER] == p:
                s[WINNER] = NONE
            s[out + p] = 1
        if s[UNO_WINDOW] != NONE and s[out + s[UNO_WINDOW]]:
            s[UNO_WINDOW] = NONE
        if s[out + s[TURN]]:  # their turn ends: the next player in plays
            s[TURN] = self.around(s, s[TURN], 1 if s[DIR] == 0 else -1)
            if s[PH] != _P[NAMING]:
                s[PH] = _P[PLAY]
            s[DRAWN_AT] = NONE
            s[PENDING], s[KIND], s[OFFENDER] = 0, NONE, NONE
            self.round_end_check(s)
        if s[PH] != _P[OVER] and sum(s[out:out + n]) == n - 1:  # the last one in wins
            s[DRAWN_AT] = NONE
            self.end_round(s, next(p for p in range(n) if not s[out + p]))

    def take(self, s: State, ran: list[Label], p: int, count: int, keeps: bool) -> Outcomes:
        """``Game._take`` with the explorer's chance (``explore.chance.Enumerate``): every
        multiset of the pile's faces once, in the lexicographic order of its sorted faces;
        a pile too small is drawn whole, then RESHUFFLE-1, then the rest."""
        out: Outcomes = []
        self._draw(s, ran, p, count, count, -1, keeps, out)
        return out

    def _draw(self, s: State, ran: list[Label], p: int, count: int, left: int, last: int,
              keeps: bool, out: Outcomes) -> None:
        pile = self.pile(s) if left else []
        if left and not any(pile):
            self._reshuffle(s, ran)
            pile = self.pile(s)
            if not any(pile):
                self._drawn(s, ran, p, count, count - left, last, keeps, out)
                return
        size = sum(pile)
        if left >= size > 0:
            at = self.hand_at(p)
            for f in range(self.nf):
                s[at + f] += pile[f]
                if pile[f]:
                    last = f
            self._draw(s, ran, p, count, left - size, last, keeps, out)
            return
        if not left:
            self._drawn(s, ran, p, count, count, last, keeps, out)
            return
        for faces in _multisets(pile, left, 0):
            s2, at = list(s), self.hand_at(p)
            for f in faces:
                s2[at + f] += 1
            self._drawn(s2, list(ran), p, count, count, faces[-1], keeps, out)

    def _drawn(self, s: State, ran: list[Label], p: int, count: int, taken: int, last: int,
               keeps: bool, out: Outcomes) -> None:
        if taken and s[UNO_WINDOW] == p:
            s[UNO_WINDOW] = NONE
        if taken < count:
            ran.append(self.short)
        if keeps:
            s[DRAWN_AT] = last if taken else NONE
        out.append((s, ran))

    def _reshuffle(self, s: State, ran: list[Label]) -> None:
        """RESHUFFLE-1: the discard below the top (and the top too, unless kept)."""
        for f in range(self.nf):
            s[self.disc + f] = 0
        if not self.keep_top:
            s[TOP] = NONE
        ran.append(self.reshuffled)


def _multisets(pile: list[int], k: int, lo: int) -> list[list[int]]:
    """Every multiset of ``k`` faces of ``pile`` (counts) from face ``lo`` on, as sorted
    face lists, in lexicographic order."""
    if k == 0:
        return [[]]
    out: list[list[int]] = []
    for f in range(lo, len(pile)):
        if pile[f]:
            pile[f] -= 1
            out += [[f, *rest] for rest in _multisets(pile, k - 1, f)]
            pile[f] += 1
    return out
