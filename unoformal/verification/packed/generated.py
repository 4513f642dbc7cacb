"""A successor function over packed records, generated as Python source from the commands.

:class:`GeneratedSuccessor` reads the same nodes as ``CommandSuccessor`` (``commands.py``)
with the same listing, but into source text instead of closures: per control key (phase,
turn, UNO window, offender: what the listing branches on) one function that lists the
moves with every guard inlined as an expression over the record, and per listed move one
function that runs its effect as straight-line reads and writes of the state at fixed
offsets. What is known when the source is written is folded in: the binding of each move
(its seat, card, color, UNO call), the table's values (the match row, the reverse at two
players, ``keep_top``), and the control fields the key fixes, as far as the effect leaves
them known (a phase set, a window cleared). A conditional write (the UNO window opening,
the round ending) splits the rest of the effect in two, so each copy knows its fields.

Why: the closures cost a call per node and a runner per chain; here a guard is one
expression and an effect one function (``docs/explorer.md``, "What is not built yet").

The state is the record as a ``bytearray`` with each hand's size after the record's bytes
(kept by the effects: a card placed, cards drawn), so no guard sums a hand. The pile is
the rest of the deck, recomputed only where a draw needs its faces. Chance is the
explorer's, as ``Reader.take`` enumerates it (mirrored in ``_DRAW``). The source of a
key is written and compiled the first time a record of that key is met, and a move's
effect the first time it is listed; a node class with no generated reading is refused by
name (``Unread``) when the successor is built, by a walk over every node of the table.
"""

from __future__ import annotations
import __future__

import dataclasses
import hashlib
import json
import re
import sys
from array import array
from collections.abc import Callable, Iterable
from functools import partial
from pathlib import Path
from typing import Any

import numpy as np

from unoformal.engine.actions import Action
from unoformal.language import conditions as c
from unoformal.language import effects as e
from unoformal.language.commands import Command
from unoformal.language.conditions import Conjunct
from unoformal.language.protocols import Binding, Who
from unoformal.rulebook.cards import Kind
from unoformal.rules.state import COLOR as NAMING
from unoformal.rules.state import DRAWN, OVER, PHASES, PLAY, RESPOND, START
from unoformal.verification.explore.chance import ExploreGame
from unoformal.verification.packed import ctrans, native
from unoformal.verification.packed.commands import CommandSuccessor
from unoformal.verification.packed.layout import KIND_INDEX, NONE, OVER_CODE, Layout
from unoformal.verification.packed.reading import (
    _READS_DRAWN,
    COLOR,
    DIR,
    DRAWN_AT,
    KIND,
    OFFENDER,
    PENDING,
    PH,
    PREV,
    TOP,
    TURN,
    UNO_WINDOW,
    WD4,
    WINNER,
    Label,
    Unread,
    _multisets,
)
from unoformal.verification.packed.successor import ACTION_INDEX, Batch, Edge, FlatBatch

_P = {p: i for i, p in enumerate(PHASES)}
_RESPOND, _OVER = _P[RESPOND], _P[OVER]
_HEADER = 15  # the control bytes: the only slots whose values the writer tracks

# The state while a move runs: the record's bytes, then each hand's size. A bytearray, not
# a list: a copy and the child's bytes are then each one copy of memory (a list's were a
# loop over its ints: 0.41 of a child's 0.5 us).
State = bytearray

# A value while the source is written: a constant (an int or a bool), or source text that
# reads it from the state at run time.
Val = int | str
Key = tuple[int, int, int, int]  # phase, turn, UNO window, offender (as the record holds)
# The edges as the source writes them: four entries an edge, in order (the child's
# record, its action's number in ``GeneratedSuccessor.actions``, its labels, its ends),
# so no tuple is made per edge; ``GeneratedSuccessor.batch`` reads them as arrays.
Flat = list[Any]


class _Slot(str):
    """Source reading one tracked slot of the state (a control field, a hand's size)."""

    slot: int


class _Eq(str):
    """Source saying a tracked slot holds a constant: where it holds, the slot is known."""

    slot: int
    value: int


class _And(str):
    """Source of several conditions that all hold."""

    parts: list[str]


def _slot(text: str, slot: int) -> _Slot:
    out = _Slot(text)
    out.slot = slot
    return out


def _src(x: Val) -> str:
    return x if isinstance(x, str) else repr(x)


def _op(fmt: str, fn: Callable[..., Any], *xs: Val) -> Val:
    """``fn`` of constants folded now, else the source ``fmt`` of them."""
    if all(not isinstance(x, str) for x in xs):
        folded: Val = fn(*xs)
        return folded
    return "(" + fmt.format(*(_src(x) for x in xs)) + ")"


def _eq(a: Val, b: Val) -> Val:
    out = _op("{} == {}", lambda x, y: x == y, a, b)
    if isinstance(a, _Slot) and not isinstance(b, str):
        said = _Eq(out)
        said.slot, said.value = a.slot, int(b)
        return said
    return out


def _ne(a: Val, b: Val) -> Val:
    return _op("{} != {}", lambda x, y: x != y, a, b)


def _ge(a: Val, b: Val) -> Val:
    return _op("{} >= {}", lambda x, y: x >= y, a, b)


def _not(a: Val) -> Val:
    return _op("not {}", lambda x: not x, a)


def _is(a: Val, value: bool) -> Val:
    """``bool(a) == value``, for a condition (read for its truth only)."""
    return a if value else _not(a)


def _all(xs: Iterable[Val]) -> Val:
    """``and``, in order, constants folded (a False one ends it)."""
    left: list[str] = []
    for x in xs:
        if isinstance(x, str):
            left.append(x)
        elif not x:
            return False  # the source before it reads the state only: nothing to keep
    if len(left) < 2:
        return left[0] if left else True
    out = _And("(" + " and ".join(left) + ")")
    out.parts = left
    return out


def _any(xs: Iterable[Val]) -> Val:
    left: list[str] = []
    for x in xs:
        if isinstance(x, str):
            left.append(x)
        elif x:
            return True
    return False if not left else "(" + " or ".join(left) + ")"


def _pick(cond: Val, a: Val, b: Val) -> Val:
    if not isinstance(cond, str):
        return a if cond else b
    if not isinstance(a, str) and not isinstance(b, str) and a == b:
        return a
    return f"({_src(a)} if {cond} else {_src(b)})"


def _n(x: int | None) -> int:
    return NONE if x is None else x


class _Names:
    """The generated source's namespace: the values it names (labels, actions, rows)."""

    def __init__(self) -> None:
        self.ns: dict[str, Any] = {}
        self._names: dict[Any, str] = {}

    def of(self, value: Any, prefix: str, key: Any = None) -> str:
        key = (prefix, id(value) if key is None else key)
        name = self._names.get(key)
        if name is None:
            name = self._names[key] = f"{prefix}{len(self._names)}"
            self.ns[name] = value
        return name


class _Writer:
    """One function's source: its lines, what is known of the state's control fields at
    the line being written, and the labels that ran so far (``pre``: named constants not
    yet in the run-time list ``ran``; ``ran``: whether that list exists yet)."""

    def __init__(self, gen: GeneratedSuccessor, var: str, known: dict[int, int],
                 b: Binding | None = None) -> None:
        self.g, self.r = gen, gen.reader
        self.b = Binding(None) if b is None else b  # an effect's move (a listing has many)
        self.var = var
        self.known = dict(known)
        self.lines: list[str] = []
        self.depth = 1
        self.pre: list[str] = []
        self.ran = False
        self.chance = False  # an effect with more than one outcome: children deduplicated
        self.facts: set[str] = set()  # conditions known to hold here (a listing writes none)

    # ------------------------------------------------------------- writing

    def emit(self, line: str) -> None:
        self.lines.append("    " * self.depth + line)

    def block(self, head: str, body: Callable[[], None]) -> None:
        self.emit(head)
        self.depth += 1
        before = len(self.lines)
        body()
        if len(self.lines) == before:
            self.emit("pass")
        self.depth -= 1

    def when(self, cond: Val, body: Callable[[], None]) -> None:
        """``body`` where ``cond`` holds, in a listing (which writes nothing, so what an
        ``if`` around it says still holds inside: not asked again)."""
        if isinstance(cond, _And):
            cond = _all(part for part in cond.parts if part not in self.facts)
        elif isinstance(cond, str) and cond in self.facts:
            cond = True
        if not isinstance(cond, str):
            if cond:
                body()
            return
        saved = set(self.facts), dict(self.known)
        self.facts.add(cond)
        self.learn(cond)
        self.block(f"if {cond}:", body)
        self.facts, self.known = saved

    def learn(self, cond: str) -> None:
        """The slots ``cond`` says, known where it holds."""
        if isinstance(cond, _Eq):
            self.known[cond.slot] = cond.value
        elif isinstance(cond, _And):
            for part in cond.parts:
                self.learn(part)

    def split(self, cond: Val, yes: Callable[[], None], no: Callable[[], None]) -> None:
        """The rest of an effect written twice, once where ``cond`` holds and once where it
        does not, each with what it knows (nothing is written after a split)."""
        if not isinstance(cond, str):
            (yes if cond else no)()
            return
        saved = dict(self.known), list(self.pre), self.ran
        self.learn(cond)
        self.block(f"if {cond}:", yes)
        self.known, self.pre, self.ran = dict(saved[0]), list(saved[1]), saved[2]
        before = len(self.lines)
        self.block("else:", no)
        if self.lines[before + 1:] == ["    " * (self.depth + 1) + "pass"]:
            del self.lines[before:]  # an empty arm: no ``else`` at all

    def tracked(self, i: Val) -> bool:
        """The slots whose values are followed as the source is written: the control
        fields and the hands' sizes (every write to them goes through ``set``/``add``)."""
        width = self.g.width
        return not isinstance(i, str) and (i < _HEADER or width <= i < width + self.r.n)

    def at(self, i: Val) -> Val:
        """The state's slot ``i``: its value if known, else the source reading it."""
        if not isinstance(i, str) and i in self.known:
            return self.known[i]
        text = f"{self.var}[{_src(i)}]"
        return _slot(text, i) if self.tracked(i) and not isinstance(i, str) else text

    def set(self, i: Val, v: Val) -> None:
        if not isinstance(i, str) and self.known.get(i, -1) == v and not isinstance(v, str):
            return  # already so
        self.emit(f"{self.var}[{_src(i)}] = {_src(v)}")
        if self.tracked(i) and not isinstance(i, str):
            if isinstance(v, str):
                self.known.pop(i, None)
            else:
                self.known[i] = v

    def add(self, i: int, delta: int) -> None:
        was = self.known.get(i)
        if was is None:
            self.emit(f"{self.var}[{i}] {'+' if delta > 0 else '-'}= {abs(delta)}")
        else:
            self.set(i, was + delta)

    def forget(self, *slots: int) -> None:
        for i in slots:
            self.known.pop(i, None)

    # ------------------------------------------------------------- the state's values

    def hand(self, p: Val, face: Val = 0) -> Val:
        r = self.r
        return _op("{} + {} * " + str(r.nf) + " + {}", lambda a, b, f: r.base + b * r.nf + f,
                   r.base, p, face)

    def size(self, p: Val) -> Val:
        return self.at(_op("{} + {}", lambda a, b: a + b, self.g.width, p))

    def available(self) -> Val:
        """``Reader.available``: the pile and the discard are the deck less the hands; the
        top is not returned when RESHUFFLE-1 keeps it."""
        sizes = [self.size(p) for p in range(self.r.n)]
        keep = _ne(self.at(TOP), NONE) if self.r.keep_top else 0
        return "(" + " - ".join([str(self.g.total), *map(_src, sizes), _src(keep)]) + ")"

    def next(self, seat: Val, steps: int = 1) -> Val:
        n = self.r.n
        if self.r.out_at is not None:  # MERCY: over the players still in (``AROUND``)
            return _pick(_eq(self.at(DIR), 0), f"AROUND({self.var}, {_src(seat)}, {steps})",
                         f"AROUND({self.var}, {_src(seat)}, {-steps})")
        ahead = _op("({} + " + str(steps) + ") % " + str(n), lambda x: (x + steps) % n, seat)
        back = _op("({} - " + str(steps) + ") % " + str(n), lambda x: (x - steps) % n, seat)
        return _pick(_eq(self.at(DIR), 0), ahead, back)

    def seat(self, b: Binding, who: Who) -> Val:
        if who is Who.NEXT:
            return self.next(b.actor)
        if who is Who.TO_MOVE:
            return self.at(TURN)
        seat: Val = _n(b.of(who))
        return seat

    # ------------------------------------------------------------- guards

    def guard(self, command: Command, parts: tuple[Conjunct, ...], b: Binding) -> Val:
        """``Reader.guard``: the conjuncts, then those of the branch the state takes."""
        conds = [self.cond(part.cond, b) for part in parts]
        rest: Val = True
        for br in reversed(command.branches):
            more = _all(self.cond(p.cond, b) for p in br.guard)
            rest = _pick(self.cond(br.when, b), more, rest)
        return _all([*conds, rest])

    def cond(self, node: c.Cond, b: Binding) -> Val:
        made: Val = getattr(self.g, "c_" + type(node).__name__)(self, node, b)
        return made

    def can_play(self, p: Val, face: Val) -> Val:
        """``Game._can_play``: the face's ``playable`` conjuncts, reduced for the phase,
        asked of the phase the state is in (written per phase where it is not known)."""
        if isinstance(p, str) or isinstance(face, str):
            raise Unread("a card asked of a seat or face known only at run time")
        f = self.g.cs.faces[face]
        b = Binding(p, None, None, face)
        phase = self.known.get(PH)
        if phase is not None:
            parts = f.able[phase]
            return False if parts is None else self.guard(f.command, parts, b)
        out: Val = False
        for code, parts in enumerate(f.able):
            if parts is not None:
                self.known[PH] = code
                out = _pick(_eq(f"{self.var}[{PH}]", code), self.guard(f.command, parts, b),
                            out)
                self.forget(PH)
        return out

    # ------------------------------------------------------------- effects

    def steps(self, seq: tuple[e.Effect, ...], k: Callable[[], None]) -> None:
        """The steps in order, then ``k``: each step writes the rest after itself (a draw
        inside its loop over the outcomes, a split in each arm)."""
        if not seq:
            k()
            return
        head, tail = seq[0], seq[1:]
        getattr(self.g, "e_" + type(head).__name__)(self, head, lambda: self.steps(tail, k))

    def label(self, label: Label | None) -> None:
        if label is not None:
            self.pre.append(self.g.names.of(label, "L", label))

    def flush(self) -> None:
        """The labels so far into the run-time list (a draw or a conditional label
        appends to it next)."""
        if not self.ran:
            self.emit(f"ran = [{', '.join(self.pre)}]")
            self.ran = True
        elif self.pre:
            self.emit(f"ran += ({', '.join(self.pre)},)")
        self.pre = []

    def sorts(self, cond: Val, yes: Label | None, no: Label | None) -> None:
        if not isinstance(cond, str):
            self.label(yes if cond else no)
            return
        self.flush()
        names = self.g.names
        if yes is not None:
            self.emit(f"if {cond}: ran.append({names.of(yes, 'L', yes)})")
            if no is not None:
                self.emit(f"else: ran.append({names.of(no, 'L', no)})")
        elif no is not None:
            self.emit(f"if not {cond}: ran.append({names.of(no, 'L', no)})")

    def finish(self, action: Action) -> None:
        """The child stored as ``Reader.store`` writes it (the fields its phase does not
        read cleared), and its edge."""
        g = self.g
        phase = self.known.get(PH)
        if g.writing is not None:
            g.writing.update(self.child_keys())
        if phase is None:
            self.emit("c = STORE(t)")
            ends = f"(SCORE(t) if t[{PH}] == {_OVER} else ())"
        else:
            if not _READS_DRAWN[phase]:
                self.set(DRAWN_AT, NONE)
            if phase != _RESPOND:
                self.set(PENDING, 0)
                self.set(WD4, 0)
                for i in (KIND, OFFENDER, PREV):
                    self.set(i, NONE)
            if phase != _OVER:
                self.set(WINNER, NONE)
                self.set(12, 0)
                self.set(13, 0)
            self.emit(f"c = bytes(t[:{g.width}])")
            ends = "SCORE(t)" if phase == _OVER else "()"
        if not self.ran:
            labels = g.names.of(tuple(g.names.ns[x] for x in self.pre), "K",
                                ("K", *self.pre))
        else:
            labels = f"(*ran, {', '.join(self.pre)})" if self.pre else "tuple(ran)"
        # the edge as four entries of ``out`` (``Flat``): no tuple made per edge
        edge = (f"out.append(c); out.append({g.number(action)}); out.append({labels}); "
                f"out.append({ends})")
        if self.chance:
            self.emit("if c not in seen:")
            self.emit("    seen.append(c)")
            self.emit("    " + edge)
        else:
            self.emit(edge)


    def child_keys(self) -> list[Key]:
        """The keys the child may have, from what is known of its control fields here
        (each one not known: any value it can hold; an offender only in an answer, as
        ``Reader.store`` clears it elsewhere)."""
        n, k = self.r.n, self.known
        seats = [*range(n), NONE]

        def of(slot: int, values: Iterable[int]) -> list[int]:
            return [k[slot]] if slot in k else list(values)
        return [(ph, turn, window, offender)
                for ph in of(PH, range(len(PHASES))) for turn in of(TURN, range(n))
                for window in of(UNO_WINDOW, seats)
                for offender in (of(OFFENDER, seats) if ph == _RESPOND else [NONE])]


# ``Reader.take`` with the hand sizes kept, written per table (``_draw_source`` fills in
# its offsets, sizes and labels): every multiset of the pile's faces once, in the
# lexicographic order of its sorted faces; a pile too small is drawn whole, then
# RESHUFFLE-1, then the rest (``explore.chance``'s order). ``_draw``'s recursion as a
# loop, the pile's counts carried along as the state changes rather than recomputed from
# it. Source, not a class: the table's values are constants in it, and mypyc compiles it
# with the rest (the draw was 44 % of the successor's time on ``big``).
_DRAW = """\
def PILE(t: bytearray) -> list[int]:
    return [{pile}]
def DRAW(s: bytearray, ran: list[Any], p: int, count: int,
         keeps: bool) -> list[tuple[bytearray, list[Any]]]:
    if not count:  # nothing to draw (a pending count of 0): one outcome, as it was
        return [DRAWN(s, ran, p, 0, 0, -1, keeps)]
    pile = PILE(s)
    if count < sum(pile):  # the common draw first: no reshuffle, none short
        return FROM_PILE(s, ran, p, count, keeps, pile)
    at = {base} + p * {nf}
    left = count
    last = -1
    while True:
        if left and not any(pile):
            RESHUFFLE(s, ran, pile)
            if not any(pile):  # nothing left to draw: short
                return [DRAWN(s, ran, p, count, count - left, last, keeps)]
        size = sum(pile)
        if left >= size > 0:  # the whole pile, then the rest after a reshuffle
            for f in range({nf}):
                k = pile[f]
                if k:
                    s[at + f] += k
                    last = f
            s[{width} + p] += size
            left -= size
            pile = [0] * {nf}
            continue
        if not left:
            return [DRAWN(s, ran, p, count, count, last, keeps)]
        return FROM_PILE(s, ran, p, left, keeps, pile)
def FROM_PILE(s: bytearray, ran: list[Any], p: int, left: int, keeps: bool,
              pile: list[int]) -> list[tuple[bytearray, list[Any]]]:
    at = {base} + p * {nf}
    size = {width} + p
    closes = s[{window}] == p
    out: list[tuple[bytearray, list[Any]]] = []
    if left == 1:  # one card: a multiset per face held, in face order
        for f in range({nf}):
            if pile[f]:
                s2 = s[:]
                s2[at + f] += 1
                s2[size] += 1
                if closes:
                    s2[{window}] = {none}
                if keeps:
                    s2[{drawn}] = f
                out.append((s2, ran[:]))
        return out
    for faces in MULTISETS(pile, left):
        s2 = s[:]
        for f in faces:
            s2[at + f] += 1
        s2[size] += left
        if closes:
            s2[{window}] = {none}
        if keeps:
            s2[{drawn}] = faces[-1]
        out.append((s2, ran[:]))
    return out
def DRAWN(s: bytearray, ran: list[Any], p: int, count: int, taken: int, last: int,
          keeps: bool) -> tuple[bytearray, list[Any]]:
    if taken and s[{window}] == p:
        s[{window}] = {none}
    if taken < count:
        ran.append({short})
    if keeps:
        s[{drawn}] = last if taken else {none}
    return s, ran
def RESHUFFLE(s: bytearray, ran: list[Any], pile: list[int]) -> None:
    for f in range({nf}):
        pile[f] += s[{disc} + f]
        s[{disc} + f] = 0
{top}    ran.append({reshuffled})
"""
# RESHUFFLE-1 without ``keep_top``: the top goes back into the pile too
_TOP_BACK = """\
    if s[{top}] != {none}:
        pile[s[{top}]] += 1
        s[{top}] = {none}
"""


# ``Game._around`` over the players still in (MERCY), for ``_Writer.next``
_AROUND = """\
def AROUND(t: bytearray, seat: int, steps: int) -> int:
    way = 1 if steps > 0 else -1
    for _ in range(steps if steps > 0 else -steps):
        seat = (seat + way) % {n}
        while t[{out} + seat]:
            seat = (seat + way) % {n}
    return seat
"""
# ``Reader.knock_out`` (MERCY's ``Game._knock_out_at``), for one limit and one pile; the
# hands' sizes are kept after the record (``{size} + p``)
_KNOCK = """\
def {name}(t: bytearray) -> None:
    knocked = [p for p in range({n}) if t[{size} + p] >= {at} or (t[{size} + p] and t[{out} + p])]
    for p in knocked:
        base = {base} + p * {nf}
        for f in range({nf}):{under}
            t[base + f] = 0
        t[{size} + p] = 0
        if t[{winner}] == p:
            t[{winner}] = {none}
        t[{out} + p] = 1
    window = t[{window}]
    if window != {none} and t[{out} + window]:
        t[{window}] = {none}
    turn = t[{turn}]
    if t[{out} + turn]:
        t[{turn}] = AROUND(t, turn, 1 if t[{dir}] == 0 else -1)
        if t[{ph}] != {naming}:
            t[{ph}] = {play}
        t[{drawn}] = {none}
        t[{pending}] = 0
        t[{kind}] = {none}
        t[{offender}] = {none}
        w = t[{winner}]
        if w != {none}:
            if t[{size} + w]:
                t[{winner}] = {none}
            else:
                END(t, w)
    if t[{ph}] != {over} and {gone} == {last}:
        t[{drawn}] = {none}
        for p in range({n}):
            if not t[{out} + p]:
                END(t, p)
                break
"""


class _Multisets:
    """``reading._multisets`` from face 0, remembered per pile and size."""

    def __init__(self) -> None:
        self.memo: dict[tuple[tuple[int, ...], int], list[list[int]]] = {}

    def __call__(self, pile: list[int], k: int) -> list[list[int]]:
        key = (tuple(pile), k)
        found = self.memo.get(key)
        if found is None:
            found = self.memo[key] = _multisets(pile, k, 0)
        return found


@dataclasses.dataclass
class Module:
    """A module's text (``header`` then ``body``), the keys it lists, and the values its
    header declares, set on it once imported."""

    text: str
    body: str
    keys: list[Key]
    values: dict[str, Any]


class GeneratedSuccessor:
    """The successors of a record, from source generated from the table's commands (see
    the module)."""

    command_class: type[CommandSuccessor] = CommandSuccessor  # the listing (and its reader)

    def __init__(self, layout: Layout, template: ExploreGame, penalties: bool) -> None:
        self.cs = cs = self.command_class(layout, template, penalties)
        self.reader = cs.reader
        self.layout, self.penalties, self.n = layout, penalties, layout.n
        self.width = layout.width
        self.total = sum(layout.copies)
        t = template.t.counted
        assert t is not None
        self.table = t
        self.misplay = t.turn.misplay
        oot = t.out_of_turn
        self.advise, self.say_uno, self.catch = oot.advise, oot.say_uno, oot.catch
        self.names = names = _Names()
        # the actions the source names, by number (``out``'s second entry of an edge),
        # declared in the module (so its name changes with them)
        self.actions: list[Action] = []
        self.codes: list[int] = []  # each action's type, as ``Edge.code``
        self._numbers: dict[int, int] = {}
        names.ns.update(ACTIONS=self.actions, STORE=self._store, NONE=NONE,
                        MULTISETS=_Multisets())
        self.fns: dict[Key, Callable[[State, Flat], None]] = {}
        # the module's loop over records (``_EXPAND``), once a module is loaded
        self.expand: Callable[[bytes, int, int, Flat, list[int]], int] | None = None
        self.source: dict[str, str] = {}
        # while a module is written (``compile``): the keys its effects' children may
        # have, and the effects listed but not yet written; None: each written as met
        self.writing: set[Key] | None = None
        self.todo: dict[str, tuple[dict[int, int], Action, Command, Binding]] = {}
        self.built = native.Built("pure Python (not compiled)")
        # the C reading (compile_c): its loop over records, and its labels' numbers
        self.c_expand: Callable[..., int] | None = None
        self.labels_table: list[Label] = []
        self._label_ids: dict[Label, int] = {}
        self.fallbacks = 0  # records the C module lacked the key of: the Python source's
        self._unrun: Module | None = None
        self._compile_round_end()
        self._define("DRAW", self._draw_source())
        if layout.seats_out:
            self._define("AROUND", _AROUND.format(n=self.n, out=layout.out_at))
        self._check()

    # ------------------------------------------------------------- the refusals

    def _commands(self) -> list[Command]:
        cs = self.cs
        listed = [f.command for f in cs.faces]
        listed += [m.command for row in cs.menu for m in row if m is not None]
        return [*listed, self.misplay, self.advise, self.say_uno, self.catch]

    def _check(self) -> None:
        """Every node of every command has a generated reading, or the table is refused
        by the node's name now, before any record is read."""
        for command in self._commands():
            for part in command.guard:
                self._walk(part.cond)
            for br in command.branches:
                self._walk(br.when)
                for part in br.guard:
                    self._walk(part.cond)
                for step in br.effect:
                    self._walk(step)
            for step in command.effect:
                self._walk(step)

    def _walk(self, node: object) -> None:
        if isinstance(node, c.Cond | e.Effect):
            prefix, module = ("c_", c) if isinstance(node, c.Cond) else ("e_", e)
            name = type(node).__name__
            if type(node).__module__ != module.__name__ or \
                    getattr(self, prefix + name, None) is None:
                raise Unread(f"{name} has no generated reading over packed records")
            for name in ("field", "source"):
                if isinstance(getattr(node, name, None), str):
                    self.reader._field(getattr(node, name))
        if dataclasses.is_dataclass(node):
            for f in dataclasses.fields(node):
                value = getattr(node, f.name)
                for item in value if isinstance(value, tuple) else (value,):
                    if isinstance(item, c.Cond | e.Effect | Conjunct):
                        self._walk(item)

    # ------------------------------------------------------------- run time

    def __call__(self, rec: bytes) -> list[Edge]:
        out: Flat = []
        self._one(rec, out)
        actions, codes = self.actions, self.codes
        return [Edge(actions[a], codes[a], child, labels, ends) for child, a, labels, ends
                in zip(out[0::4], out[1::4], out[2::4], out[3::4], strict=True)]

    def _one(self, rec: bytes, out: Flat) -> None:
        """``rec``'s edges onto ``out`` (``Flat``), its key's listing written if new."""
        key = (rec[PH], rec[TURN], rec[UNO_WINDOW], rec[OFFENDER])
        fn = self.fns.get(key)
        if fn is None:
            fn = self.fns[key] = self._make(key)
        fn(bytearray(rec), out)

    def batch(self, frontier: bytes, width: int, count: int) -> Batch:
        """The first ``count`` records of ``frontier`` expanded into one ``Flat`` list,
        by the module's loop (``_EXPAND``) while it knows the records' keys, a record of
        a key it lacks here (its listing written as met)."""
        out: Flat = []
        counts: list[int] = []
        i = 0
        while i < count:
            if self.expand is not None:
                i = self.expand(frontier, count, i, out, counts)
                if i >= count:
                    break
            row = i * width
            if frontier[row] == OVER_CODE:
                counts.append(0)  # a finished round has no move
            else:
                before = len(out)
                self._one(frontier[row:row + width], out)
                counts.append((len(out) - before) >> 2)
            i += 1
        numbers: list[int] = out[1::4]
        codes = np.array(self.codes, dtype=np.uint8)[np.array(numbers, dtype=np.intp)]
        return Batch(b"".join(out[0::4]), codes.tobytes(), out[2::4], out[3::4], counts,
                     numbers, self.actions)

    def compile_c(self, seeds: Iterable[Key], where: Path | None = None) -> native.Built:
        """The module of :meth:`module` translated to C (``ctrans``) and built by the C
        compiler into the cache; :meth:`flat_batch` then runs it. Its Python source runs
        too, for a key the C module lacks. A ``Built`` without a module (``how`` says
        why: a construct the translation refuses, no compiler, a failed build) leaves
        this successor as it was."""
        module = self.module(seeds)
        r = self.reader
        consts = ctrans.DrawConstants(
            r.base, r.nf, self.width, r.disc, r.keep_top,
            self.names.of(r.short, "L", r.short), self.names.of(r.reshuffled, "L", r.reshuffled))
        name = native.c_name(module.text, ctrans.signature(), repr(consts), str(self.n))

        def translate() -> str:
            return ctrans.Translator(module.body, dict(self.names.ns), module.keys, self.n,
                                     consts).c_source()
        self._unrun = module  # its Python source runs when a record needs it
        try:
            built = native.load_c(name, translate, where)
        except ctrans.Untranslatable as err:
            built = native.Built(f"not translated ({err})")
        if built.module is None:  # the module's source, as pure Python
            self._run_module()
            return built
        self.c_expand = built.module.expand
        self.labels_table = [tuple(x) for x in json.loads(built.module.labels())]
        self._label_ids = {lab: i for i, lab in enumerate(self.labels_table)}
        self.built = built
        return built

    def _run_module(self) -> None:
        """The Python source of the C module's keys run, for a record it lacks (written
        as met: its effects may be the module's)."""
        if self._unrun is not None:
            module, self._unrun = self._unrun, None
            self._run(module.body, "module")
            for key in module.keys:
                self.fns[key] = self.names.ns[_key_name(key)]

    def _label_id(self, label: Label) -> int:
        found = self._label_ids.get(label)
        if found is None:
            found = self._label_ids[label] = len(self.labels_table)
            self.labels_table.append(label)
        return found

    def flat_batch(self, frontier: bytes, width: int, count: int) -> FlatBatch:
        """:meth:`batch` by the C module (:meth:`compile_c`), its labels as numbers; a
        record whose key the module lacks is expanded by the Python source, onto the
        same streams."""
        assert self.c_expand is not None
        bufs = [bytearray() for _ in range(7)]
        children, numbers, lab_ids, lab_lens, end_ids, end_lens, counts = bufs
        i = 0
        while i < count:
            i = self.c_expand(frontier, count, i, *bufs)
            if i >= count:
                break
            row = i * width
            out: Flat = []
            self.fallbacks += 1
            self._run_module()
            self._one(frontier[row:row + width], out)
            for child, a, labels, ends in zip(out[0::4], out[1::4], out[2::4], out[3::4],
                                              strict=True):
                children += child
                numbers += int(a).to_bytes(4, sys.byteorder, signed=True)
                lab_ids += array("H", [self._label_id(x) for x in labels]).tobytes()
                lab_lens.append(len(labels))
                end_ids += array("H", [self._label_id(x) for x in ends]).tobytes()
                end_lens += len(ends).to_bytes(2, sys.byteorder)
            counts += (len(out) >> 2).to_bytes(4, sys.byteorder, signed=True)
            i += 1
        # the streams read in place (each bytearray is this batch's own), not copied
        nums = np.frombuffer(numbers, dtype=np.int32)
        codes = np.array(self.codes, dtype=np.uint8)[nums]
        return FlatBatch(children, codes.tobytes(),
                         np.frombuffer(counts, dtype=np.int32), nums, self.actions,
                         np.frombuffer(lab_ids, dtype=np.uint16),
                         np.frombuffer(lab_lens, dtype=np.uint8),
                         np.frombuffer(end_ids, dtype=np.uint16),
                         np.frombuffer(end_lens, dtype=np.uint16), self.labels_table)

    def number(self, action: Action) -> int:
        """The action's number in the source (its place in ``actions``)."""
        n = self._numbers.get(id(action))
        if n is None:
            n = self._numbers[id(action)] = len(self.actions)
            self.actions.append(action)
            self.codes.append(ACTION_INDEX[action.type])
        return n

    def _store(self, t: State) -> bytes:
        """``Reader.store`` where the child's phase is known only at run time."""
        phase = t[PH]
        if not _READS_DRAWN[phase]:
            t[DRAWN_AT] = NONE
        if phase != _RESPOND:
            t[PENDING] = t[WD4] = 0
            t[KIND] = t[OFFENDER] = t[PREV] = NONE
        if phase != _OVER:
            t[WINNER] = NONE
            t[12] = t[13] = 0
        return bytes(t[:self.width])

    def _wd4(self, p: int, without: int | None) -> str:
        """``Reader.wd4_legal`` for seat ``p`` (its ``without`` card left out), written
        with WD4-1's rows folded: per (color, top), the hand's slots that make it a bluff
        (a card of the color held) and how many of each it may hold; the excused faces
        (any held clears it) first."""
        r, names = self.reader, self.names
        name = f"WD4_{p}_{_n(without)}"
        if name in names.ns or (self.writing is not None and name in self.source):
            return name
        at = r.hand_at(p)
        allowed = {f: 1 if f == without else 0 for f in range(r.nf)}
        rows = {color << 8 | top: tuple((at + f, allowed[f]) for f in range(r.nf) if row[f])
                for (color, top), row in r.block.items()}
        lines = [f"def {name}(t):"]
        if r.excused is not None:
            excused = [f for f in range(r.nf) if r.excused[f]]
            held = " or ".join(f"t[{at + f}] > {allowed[f]}" for f in excused)
            lines.append(f"    if {held or 'False'}: return True")
        lines += [f"    for at, may in {names.of(rows, 'B', ('B', p, without))}"
                  f"[t[{COLOR}] << 8 | t[{TOP}]]:",
                  "        if t[at] > may: return False", "    return True"]
        self._define(name, "\n".join(lines) + "\n")
        return name

    def _compile_round_end(self) -> None:
        """``Reader.end_round`` (SCORE-1's points: the cards left, each at its face's
        points) and ``Reader.score_labels`` (a label per card left, by its kind), written
        per face: ``END(t, winner)`` and ``SCORE(t)``."""
        r, names = self.reader, self.names
        cells = [(p, f, r.hand_at(p) + f) for p in range(r.n) for f in range(r.nf)]
        points = " + ".join(f"{r.points[f]} * t[{at}]" for _, f, at in cells if r.points[f])
        lines = ["def END(t, w):", f"    points = {points or 0}"]
        if r.out_at is not None:  # MERCY's last player in holds cards, not counted
            for p in range(r.n):
                mine = " + ".join(f"{r.points[f]} * t[{r.hand_at(p) + f}]"
                                  for f in range(r.nf) if r.points[f])
                if mine:
                    lines.append(f"    if w == {p}: points -= {mine}")
        lines += ["    t[12], t[13] = points & 0xFF, points >> 8",
                 f"    t[{WINNER}], t[{PH}], t[{UNO_WINDOW}] = w, {_OVER}, {NONE}",
                 f"    t[{PENDING}], t[{KIND}], t[{OFFENDER}] = 0, {NONE}, {NONE}",
                 "def SCORE(t):", f"    w = t[{WINNER}]", "    out = []"]
        for p in range(r.n):
            lines.append(f"    if w != {p}:")
            for f in range(r.nf):
                kind = r.kind[f]
                label = ("SCORE-1", "numbers" if kind is Kind.NUMBER else
                         "wilds" if kind.is_wild else "actions")
                lines.append(f"        out += ({names.of(label, 'L', label)},) * "
                             f"t[{r.hand_at(p) + f}]")
        lines.append("    return tuple(out)")
        self._define("END", "\n".join(lines) + "\n")

    def _draw_source(self) -> str:
        """The draw (``_DRAW``) for this table; the pile's counts are the deck less the
        hands, the discard and the top."""
        r, names = self.reader, self.names
        rows = []
        for f in range(r.nf):
            held = " - ".join(f"t[{at + f}]" for at in range(r.base, r.disc + r.nf, r.nf))
            rows.append(f"{r.copies[f]} - {held} - (t[{TOP}] == {f})")
        top = "" if r.keep_top else _TOP_BACK.format(top=TOP, none=NONE)
        return _DRAW.format(pile=", ".join(rows), base=r.base, nf=r.nf, width=self.width,
                            window=UNO_WINDOW, none=NONE, drawn=DRAWN_AT, disc=r.disc,
                            short=names.of(r.short, "L", r.short), top=top,
                            reshuffled=names.of(r.reshuffled, "L", r.reshuffled))

    # ------------------------------------------------------------- the listing

    def _known(self, key: Key) -> dict[int, int]:
        """The control fields a record of ``key`` holds, as ``Reader.load`` reads them."""
        phase, turn, window, offender = key
        known = {PH: phase, TURN: turn, UNO_WINDOW: window, OFFENDER: offender}
        if phase != _RESPOND:
            known.update({PENDING: 0, KIND: NONE, PREV: NONE, WD4: 1})
        if not _READS_DRAWN[phase]:
            known[DRAWN_AT] = NONE
        if phase != _OVER:
            known.update({12: 0, 13: 0})
        return known

    def _make(self, key: Key) -> Callable[[State, Flat], None]:
        """The listing of ``key``'s records (``CommandSuccessor.listed``), compiled."""
        made: Callable[[State, Flat], None] = self.names.ns[self._listing(key)]
        return made

    def _listing(self, key: Key) -> str:
        """The listing's source written (and run, unless a module is being written)."""
        phase, turn, window, _ = key
        w = _Writer(self, "s", self._known(key))
        name = _key_name(key)
        if phase not in self.cs.no_moves:
            self._load(w, phase)
            self._listed(w, turn, None if window == NONE else window)
        if len(w.lines) == 0:
            w.emit("pass")
        self._compile(name, w.lines)
        return name

    # ------------------------------------------------------------- one module, compiled

    def compile(self, seeds: Iterable[Key], where: Path | None = None,
                reach: bool = True) -> native.Built:
        """The module of :meth:`module`, compiled by mypyc and cached (``native``; in
        ``where``, else the user's cache), else run as pure Python: the same source
        either way. A key met later that the module lacks is written as met."""
        module = self.module(seeds, reach)
        built = native.load(module.text, where)
        ns = self.names.ns
        if built.module is None:
            self._run(module.body, "module")
        else:
            for name, value in module.values.items():
                setattr(built.module, name, value)
            ns.update({name: getattr(built.module, name) for name in _defined(module.body)})
        for key in module.keys:
            self.fns[key] = ns[_key_name(key)]
        self.expand = ns["EXPAND"]
        self.built = built
        return built

    def module(self, seeds: Iterable[Key], reach: bool = True) -> Module:
        """One module's source: the listings of ``seeds`` and, with ``reach``, of every
        key reachable from them as far as the source tells (the keys each effect's child
        may have), with every effect they list."""
        keys = self._write_all(seeds, reach)
        body = "".join(self.source.values()) + self._expand_source(keys)
        header, values = self._header(body)
        return Module(header + body, body, keys, values)

    def _write_all(self, seeds: Iterable[Key], reach: bool) -> list[Key]:
        """The keys written, in sorted waves (the source, so the module's name, is the
        same every run); those written whole."""
        first = set(seeds)
        self.writing = set(first)
        tried: set[Key] = set()
        written: list[Key] = []
        try:
            while wave := sorted((self.writing if reach else first) - tried):
                for key in wave:
                    tried.add(key)
                    if self._write_key(key):
                        written.append(key)
        finally:
            self.writing, self.todo = None, {}
        return written

    def _write_key(self, key: Key) -> bool:
        """``key``'s listing and every effect it lists written, or none of it."""
        assert self.writing is not None
        kept = dict(self.source), dict(self.todo), set(self.writing)
        try:
            self._listing(key)
            while self.todo:
                name, args = next(iter(self.todo.items()))
                del self.todo[name]
                if name not in self.source:
                    self._effect(name, *args)
        except (TypeError, Unread):
            # a key the source's reading admits but no record holds can bind no seat
            # (an answer with no offender): left out; met, it is written as it was
            self.source, self.todo, self.writing = kept
            return False
        return True

    def _expand_source(self, keys: list[Key]) -> str:
        """``EXPAND``: :meth:`batch`'s loop over records, in the module, each record's
        listing called by its key (by phase, then the rest), up to a record whose key
        the module lacks (its index returned)."""
        w = self.width
        lines = ["def EXPAND(recs: bytes, count: int, i: int, out: list[Any], "
                 "counts: list[int]) -> int:",
                 "    while i < count:",
                 f"        row = i * {w}",
                 f"        ph = recs[row + {PH}]",
                 f"        if ph == {OVER_CODE}:",
                 "            counts.append(0)  # a finished round has no move",
                 "            i += 1",
                 "            continue",
                 f"        rest = recs[row + {TURN}] << 16 | recs[row + {UNO_WINDOW}] << 8"
                 f" | recs[row + {OFFENDER}]",
                 "        before = len(out)"]
        phases = sorted({key[0] for key in keys if key[0] != OVER_CODE})
        word = "if"
        for phase in phases:
            lines.append(f"        {word} ph == {phase}:")
            inner = "if"
            for key in sorted(k for k in keys if k[0] == phase):
                _, turn, window, offender = key
                lines += [f"            {inner} rest == {turn << 16 | window << 8 | offender}:",
                          f"                {_key_name(key)}(bytearray(recs[row:row + {w}]), "
                          "out)"]
                inner = "elif"
            lines += ["            else:", "                return i"]
            word = "elif"
        lines += [f"        {'else:' if phases else 'if True:'}", "            return i",
                  "        counts.append((len(out) - before) >> 2)",
                  "        i += 1",
                  "    return i"]
        return "\n".join(lines) + "\n"

    def _header(self, body: str) -> tuple[str, dict[str, Any]]:
        """The module's names that ``body`` reads and does not define (labels, actions,
        rows, the draw), declared to be set once it is imported; a digest of their values
        in the text, so the module's name changes with them."""
        defined = _defined(body)
        values = {k: v for k, v in sorted(self.names.ns.items())
                  if k not in defined and not k.startswith("__")}
        said = "\n".join(f"{k} = {k if callable(v) else repr(v)}" for k, v in values.items())
        digest = hashlib.sha256(said.encode()).hexdigest()
        lines = ['"""unoformal: a packed successor generated from a rule table '
                 '(unoformal/verification/packed/generated.py)."""',
                 "from typing import Any", f"# values: {digest}",
                 *(f"{k}: Any = None" for k in values)]
        return "\n".join(lines) + "\n", values

    def _compile(self, name: str, body: list[str]) -> None:
        # typed for mypyc: ``out.append`` is then its own list append, not a method call
        self._define(name, f"def {name}(s: bytearray, out: list[Any]) -> None:\n"
                     + "\n".join(body) + "\n")

    def _define(self, name: str, source: str) -> None:
        """``source`` kept (to be read: what a key or a move became; the module's text)
        and run, unless a module is being written, which runs it whole."""
        self.source[name] = source
        if self.writing is None:
            self._run(source, name)

    def _run(self, source: str, name: str) -> None:
        # the annotations are mypyc's: not evaluated here (``Any`` is not in the names)
        flags = __future__.annotations.compiler_flag
        exec(compile(source, f"<generated {name}>", "exec", flags=flags), self.names.ns)

    def _load(self, w: _Writer, phase: int) -> None:
        """``Reader.load``: the hand sizes after the record; WD4-1's verdict true outside
        an answer; END-1's winner-to-be, the first seat with no card."""
        r, width = self.reader, self.width
        spans = ", ".join(f"sum(s[{r.hand_at(p)}:{r.hand_at(p) + r.nf}])" for p in range(r.n))
        w.emit(f"s += bytes(({spans},))")
        if phase != _RESPOND:
            w.emit(f"s[{WD4}] = 1")
        if phase != _OVER:
            winner = str(NONE)
            for p in reversed(range(r.n)):
                # (MERCY: a seat out holds no card either, and never went out)
                gone = "" if r.out_at is None else f" and not s[{r.out_at + p}]"
                winner = f"({p} if not s[{width + p}]{gone} else {winner})"
            w.emit(f"s[{WINNER}] = {winner}")

    def _listed(self, w: _Writer, turn: int, target: int | None) -> None:
        advise = self.penalties and w.guard(self.advise, self.advise.guard, Binding(turn))
        if target is None:
            w.split(advise, lambda: self._everyone(w, turn, True, None),
                    lambda: self._on_turn(w, turn))
        else:
            w.split(advise, lambda: self._everyone(w, turn, True, target),
                    lambda: self._everyone(w, turn, False, target))

    def _everyone(self, w: _Writer, turn: int, advise: bool, target: int | None) -> None:
        """Every seat in order: its advice, its UNO said or its catch, and on its turn
        its moves (``CommandSuccessor.listed``)."""
        out = self.reader.out_at
        for p in range(self.n):
            if out is None:
                self._seat(w, p, turn, advise, target)
            else:  # MERCY: a player knocked out has no move (``Game._listed``)
                w.when(f"not s[{out + p}]", partial(self._seat, w, p, turn, advise, target))

    def _seat(self, w: _Writer, p: int, turn: int, advise: bool, target: int | None) -> None:
        if advise:
            self._move(w, self.cs.advise_actions[p], self.advise, Binding(p))
        if target is not None:
            self._window(w, p, target)
        if p == turn:
            self._on_turn(w, p)

    def _window(self, w: _Writer, p: int, target: int) -> None:
        says, catch = Binding(p), Binding(p, target)

        def say() -> None:
            self._move(w, self.cs.uno_actions[p], self.say_uno, says)

        def caught() -> None:
            w.when(w.guard(self.catch, self.catch.guard, catch),
                   lambda: self._move(w, self.cs.catch_actions[p][target], self.catch, catch))
        w.split(w.guard(self.say_uno, self.say_uno.guard, says), say, caught)

    def _on_turn(self, w: _Writer, p: int) -> None:
        """``CommandSuccessor._on_turn``: the moves of the phase's menu, in its order."""
        offender = w.known[OFFENDER]
        bound_offender = None if offender == NONE else offender
        b = Binding(p, None, bound_offender)
        for move in self.cs.menu[w.known[PH]]:
            if move is None:
                with_uno = _eq(w.size(p), self.reader.uno_with)
                w.split(with_uno, lambda: self._cards(w, p, 1), lambda: self._cards(w, p, 0))
            else:
                w.when(w.guard(move.command, move.parts, b),
                       partial(self._each, w, p, move, bound_offender))

    def _each(self, w: _Writer, p: int, move: Any, offender: int | None) -> None:
        bound = offender if move.answers else None  # ``Game._do_accept``
        for a, color in zip(move.each[p], move.colors[p], strict=True):
            self._move(w, a, move.command, Binding(p, None, bound, None, color))

    def _cards(self, w: _Writer, p: int, with_uno: int) -> None:
        """``CommandSuccessor._cards``: per face held, in face order, its plays where its
        ``playable`` conjuncts hold, else (with penalties, not answering) its misplay."""
        for face in range(self.reader.nf):
            held = _op("{} > 0", lambda x: x > 0, w.at(w.hand(p, face)))  # as HoldsCard
            w.when(held, partial(self._face, w, p, face, with_uno))

    def _face(self, w: _Writer, p: int, face: int, with_uno: int) -> None:
        f = self.cs.faces[face]

        out = self.reader.out_at

        def plays() -> None:
            for action, b in f.plays[p][with_uno]:
                guard = w.guard(f.command, f.rest_parts, b)
                if out is not None and b.target is not None:
                    # a seat knocked out is nobody's target (``Game._add_plays``)
                    guard = _all([f"not s[{out + b.target}]", guard])
                w.when(guard, partial(self._move, w, action, f.command, b))

        def misplay() -> None:
            if self.penalties and w.known[PH] != _RESPOND:
                action, b = f.misplay[p]
                w.when(w.guard(self.misplay, self.misplay.guard, b),
                       lambda: self._move(w, action, self.misplay, b))
        w.split(w.can_play(p, face), plays, misplay)

    def _move(self, w: _Writer, action: Action, command: Command, b: Binding) -> None:
        """A call of the move's effect, written and compiled the first time it runs."""
        known = dict(w.known)
        name = self.names.of(None, "E", ("E", id(action), id(command), *_binding(b),
                                         *sorted(known.items())))

        def first(s: State, out: Flat) -> None:
            self._effect(name, known, action, command, b)
            self.names.ns[name](s, out)
        if self.names.ns[name] is None:
            self.names.ns[name] = first
        if self.writing is not None and name not in self.source:
            self.todo.setdefault(name, (known, action, command, b))
        w.emit(f"{name}(s, out)")

    def _effect(self, name: str, known: dict[int, int], action: Action, command: Command,
                b: Binding) -> None:
        """``Reader.run``: on a copy, the common effect, then the first branch whose
        condition holds; every outcome stored as an edge of ``action``."""
        w = _Writer(self, "t", known, b)
        w.chance = _draws(command)
        w.emit("t = s[:]")
        w.emit("ran: list[Any]")  # declared once: it is made in each arm of a split
        if w.chance:
            w.emit("seen: list[bytes] = []")

        def branches() -> None:
            def at(i: int) -> None:
                if i == len(command.branches):
                    w.finish(action)
                    return
                br = command.branches[i]
                w.split(w.cond(br.when, b), lambda: w.steps(br.effect,
                                                            lambda: w.finish(action)),
                        lambda: at(i + 1))
            at(0)
        w.steps(command.effect, branches)
        self._compile(name, w.lines)

    # ------------------------------------------------------------- conditions (Reader.c_*)

    def c_Fixed(self, w: _Writer, n: c.Fixed, b: Binding) -> Val:
        return bool(n.value)

    def c_SomeWindow(self, w: _Writer, n: c.SomeWindow, b: Binding) -> Val:
        return _ne(w.at(UNO_WINDOW), NONE)

    def c_WindowOf(self, w: _Writer, n: c.WindowOf, b: Binding) -> Val:
        seat = b.of(n.who)
        return False if seat is None else _eq(w.at(UNO_WINDOW), seat)

    def c_Differ(self, w: _Writer, n: c.Differ, b: Binding) -> Val:
        return bool(b.of(n.a) != b.of(n.b))

    def c_SameSeat(self, w: _Writer, n: c.SameSeat, b: Binding) -> Val:
        return _eq(w.seat(b, n.a), w.seat(b, n.b))

    def c_HandIs(self, w: _Writer, n: c.HandIs, b: Binding) -> Val:
        return _eq(w.size(b.of(n.who)), n.cards)

    def c_HandAtLeast(self, w: _Writer, n: c.HandAtLeast, b: Binding) -> Val:
        return _is(_ge(w.size(b.of(n.who)), n.cards), n.value)

    def c_CanDraw(self, w: _Writer, n: c.CanDraw, b: Binding) -> Val:
        return True if self.reader.what_is_left else _ge(w.available(), n.cards)

    def c_CanDrawPending(self, w: _Writer, n: c.CanDrawPending, b: Binding) -> Val:
        return True if self.reader.what_is_left else _ge(w.available(), w.at(PENDING))

    def c_PhaseIs(self, w: _Writer, n: c.PhaseIs, b: Binding) -> Val:
        return _eq(w.at(PH), _P[n.phase])

    def c_PhaseNot(self, w: _Writer, n: c.PhaseNot, b: Binding) -> Val:
        return _ne(w.at(PH), _P[n.phase])

    def c_PhaseIn(self, w: _Writer, n: c.PhaseIn, b: Binding) -> Val:
        return _any(_eq(w.at(PH), _P[p]) for p in n.phases)

    def c_PendingIn(self, w: _Writer, n: c.PendingIn, b: Binding) -> Val:
        return _any(_eq(w.at(KIND), KIND_INDEX[k]) for k in n.kinds)

    def c_Legal(self, w: _Writer, n: c.Legal, b: Binding) -> Val:
        return _is(_eq(w.at(WD4), 1), n.value)

    def c_Offends(self, w: _Writer, n: c.Offends, b: Binding) -> Val:
        return _eq(w.at(OFFENDER), _n(b.offender))

    def c_CardsLeft(self, w: _Writer, n: c.CardsLeft, b: Binding) -> Val:
        return _is(_ge(w.available(), n.cards), n.value)

    def c_CanPlay(self, w: _Writer, n: c.CanPlay, b: Binding) -> Val:
        p = b.of(n.who)
        able = _any(_all([w.at(w.hand(p, f)), w.can_play(p, f)])
                    for f in range(self.reader.nf))
        return _is(able, n.value)

    def c_DrawnPlayable(self, w: _Writer, n: c.DrawnPlayable, b: Binding) -> Val:
        drawn = w.at(DRAWN_AT)
        if isinstance(drawn, str):
            options = [_all([_eq(drawn, f), w.can_play(b.actor, f)])
                       for f in range(self.reader.nf)]
            return _is(_any(options), n.value)
        return _is(drawn != NONE and w.can_play(b.actor, drawn), n.value)

    def c_HoldsCard(self, w: _Writer, n: c.HoldsCard, b: Binding) -> Val:
        return _op("{} > 0", lambda x: x > 0, w.at(w.hand(b.actor, b.card)))

    def c_IsTop(self, w: _Writer, n: c.IsTop, b: Binding) -> Val:
        return _eq(w.at(TOP), _n(b.card))

    def c_CardPlayable(self, w: _Writer, n: c.CardPlayable, b: Binding) -> Val:
        return _is(w.can_play(b.actor, b.card), n.value)

    def c_UnoCall(self, w: _Writer, n: c.UnoCall, b: Binding) -> Val:
        if not b.uno:
            return True
        return n.allowed and _eq(w.size(b.actor), n.with_cards)

    def c_DrawnOnly(self, w: _Writer, n: c.DrawnOnly, b: Binding) -> Val:
        drawn = _ne(w.at(PH), _P[DRAWN])
        return _any([drawn, n.may_play_drawn and _eq(w.at(DRAWN_AT), _n(b.card))])

    def c_Unanswering(self, w: _Writer, n: c.Unanswering, b: Binding) -> Val:
        return _any([_eq(w.at(PH), _RESPOND), w.cond(n.cond, b)])

    def c_Matches(self, w: _Writer, n: c.Matches, b: Binding) -> Val:
        """PLAY-1's row, folded per (color, top) for this card."""
        row = {color << 8 | top: m[b.card] for (color, top), m in self.reader.match.items()}
        color, top = w.at(COLOR), w.at(TOP)
        if not isinstance(color, str) and not isinstance(top, str):
            return bool(row[color << 8 | top])
        name = self.names.of(row, "M", ("M", b.card))
        return f"{name}[{_src(color)} << 8 | {_src(top)}]"

    def c_Wd4Legal(self, w: _Writer, n: c.Wd4Legal, b: Binding) -> Val:
        return f"{self._wd4(b.actor, b.card)}({w.var})"

    def c_CanEffect(self, w: _Writer, n: c.CanEffect, b: Binding) -> Val:
        if n.effect.victim_may_challenge or self.reader.what_is_left:
            return True
        keep = 1 if self.reader.keep_top else 0
        sizes = " - ".join(_src(w.size(p)) for p in range(self.n))
        return f"({self.total} - {sizes} + {1 - keep} >= {n.effect.victim_draws})"

    def c_GoesOut(self, w: _Writer, n: c.GoesOut, b: Binding) -> Val:
        return _all([_eq(w.size(b.actor), 0), _eq(w.at(WINNER), NONE)])

    def c_OffenderHolds(self, w: _Writer, n: c.OffenderHolds, b: Binding) -> Val:
        offender = w.at(OFFENDER)
        return _any([_ne(w.at(PH), _RESPOND), _eq(offender, NONE),
                     _op("{} > 0", lambda x: x > 0, w.size(offender))
                     if offender != NONE else False])

    def c_ReverseSkips(self, w: _Writer, n: c.ReverseSkips, b: Binding) -> Val:
        r = self.reader
        if r.out_at is None or len(set(r.skips_with)) == 1:
            return bool(r.reverse_skips)
        # MERCY: TWO-1 asked of the players still in
        gone = " + ".join(f"{w.var}[{r.out_at + p}]" for p in range(self.n))
        return f"{self.names.of(r.skips_with, 'RS', 'RS')}[{self.n} - ({gone})]"

    def c_Both(self, w: _Writer, n: c.Both, b: Binding) -> Val:
        return _all([w.cond(p, b) for p in n.parts])

    def c_Either(self, w: _Writer, n: c.Either, b: Binding) -> Val:
        return _any([w.cond(p, b) for p in n.parts])

    def c_Unless(self, w: _Writer, n: c.Unless, b: Binding) -> Val:
        return _not(w.cond(n.part, b))

    def c_SaysUno(self, w: _Writer, n: c.SaysUno, b: Binding) -> Val:
        return bool(b.uno)

    def c_CardOfColor(self, w: _Writer, n: c.CardOfColor, b: Binding) -> Val:
        return _eq(w.at(COLOR), self.reader.fcolor[b.card])

    def c_NamesCurrent(self, w: _Writer, n: c.NamesCurrent, b: Binding) -> Val:
        return _eq(w.at(COLOR), _n(b.color))

    def c_OnOtherColor(self, w: _Writer, n: c.OnOtherColor, b: Binding) -> Val:
        r = self.reader
        tops = [f for f in range(r.nf)
                if r.kind[f] is n.kind and r.fcolor[f] != r.fcolor[b.card]]
        return _any(_eq(w.at(TOP), f) for f in tops)

    def c_HoldsKind(self, w: _Writer, n: c.HoldsKind, b: Binding) -> Val:
        faces = [f for f in range(self.reader.nf) if self.reader.kind[f] is n.kind]
        return _any(w.at(w.hand(b.actor, f)) for f in faces)

    def c_ColorKept(self, w: _Writer, n: c.ColorKept, b: Binding) -> Val:
        return _eq(w.at(PREV), w.at(COLOR))

    # ------------------------------------------------------------- effects (Reader.e_*)

    def e_Clear(self, w: _Writer, n: e.Clear, k: Callable[[], None]) -> None:
        w.set(self.reader._field(n.field), NONE)
        k()

    def e_Copy(self, w: _Writer, n: e.Copy, k: Callable[[], None]) -> None:
        w.set(self.reader._field(n.field), w.at(self.reader._field(n.source)))
        k()

    def e_Mark(self, w: _Writer, n: e.Mark, k: Callable[[], None]) -> None:
        w.set(self.reader._field(n.field), w.seat(w.b, n.who))
        k()

    def _nothing(self, w: _Writer, n: e.Effect, k: Callable[[], None]) -> None:
        """Bookkeeping of the engine's words: no field of the record."""
        k()

    e_Reveal = e_Caused = e_NoteCause = e_NoteEffect = _nothing

    def e_Resolve(self, w: _Writer, n: e.Resolve, k: Callable[[], None]) -> None:
        b = w.b
        w.set(PENDING, 0)
        w.set(KIND, NONE)
        w.set(OFFENDER, NONE)
        turn = b.actor if n.keeps_turn else w.next(b.actor)  # read before the phase is set
        w.set(PH, _P[PLAY])
        w.set(TURN, turn)
        self._round_end_check(w, k)

    def e_SetPhase(self, w: _Writer, n: e.SetPhase, k: Callable[[], None]) -> None:
        w.set(PH, _P[n.phase])
        k()

    def e_PassTurn(self, w: _Writer, n: e.PassTurn, k: Callable[[], None]) -> None:
        w.set(TURN, w.next(w.b.actor, n.steps))
        k()

    def e_SetColor(self, w: _Writer, n: e.SetColor, k: Callable[[], None]) -> None:
        w.set(COLOR, _n(w.b.color))
        k()

    def e_PlaceCard(self, w: _Writer, n: e.PlaceCard, k: Callable[[], None]) -> None:
        b, r = w.b, self.reader
        p, card = b.actor, b.card
        w.emit(f"t[{w.hand(p, card)}] -= 1")
        w.add(w.g.width + p, -1)
        if n.judges:
            w.set(WD4, f"(1 if {self._wd4(p, None)}(t) else 0)")
            w.set(PREV, w.at(COLOR))
        top = w.at(TOP)
        if isinstance(top, str):
            w.emit(f"if {top} != {NONE}: t[{r.disc} + {top}] += 1")
        elif top != NONE:
            w.emit(f"t[{r.disc + top}] += 1")
        w.set(TOP, card)
        w.set(COLOR, _n(b.color) if n.names_color else r.fcolor[card])
        w.set(DRAWN_AT, NONE)
        k()

    def e_OpenWindow(self, w: _Writer, n: e.OpenWindow, k: Callable[[], None]) -> None:
        b = w.b
        if b.uno:
            k()
            return

        def opens() -> None:
            w.set(UNO_WINDOW, b.actor)
            k()
        w.split(_eq(w.size(b.actor), n.cards_left), opens, k)

    def e_FlipDirection(self, w: _Writer, n: e.FlipDirection, k: Callable[[], None]) -> None:
        w.set(DIR, _op("{} ^ 1", lambda x: x ^ 1, w.at(DIR)))
        k()

    def e_AddPending(self, w: _Writer, n: e.AddPending, k: Callable[[], None]) -> None:
        before = _pick(_eq(w.at(PH), _RESPOND), w.at(PENDING), 0)
        w.set(PENDING, _op("{} + " + str(n.cards), lambda x: x + n.cards, before))
        w.set(KIND, KIND_INDEX[n.kind])
        k()

    def e_NoteOut(self, w: _Writer, n: e.NoteOut, k: Callable[[], None]) -> None:
        actor = w.b.actor

        def out() -> None:
            w.set(WINNER, actor)
            k()
        w.split(_all([_eq(w.size(actor), 0), _eq(w.at(WINNER), NONE)]), out, k)

    def e_EndIfOut(self, w: _Writer, n: e.EndIfOut, k: Callable[[], None]) -> None:
        self._round_end_check(w, k)

    def e_EndRound(self, w: _Writer, n: e.EndRound, k: Callable[[], None]) -> None:
        self._end_round(w, w.b.actor)
        k()

    def e_When(self, w: _Writer, n: e.When, k: Callable[[], None]) -> None:
        yes, no = (None if x is None else (x.rule, x.branch) for x in n.covers)

        def then() -> None:
            w.label(yes)
            w.steps(n.then, k)

        def otherwise() -> None:
            w.label(no)
            w.steps(n.otherwise, k)
        w.split(w.cond(n.cond, w.b), then, otherwise)

    def e_Instead(self, w: _Writer, n: e.Instead, k: Callable[[], None]) -> None:
        w.steps(n.steps, k)  # a house rule's steps where the move's own one was

    def e_Shows(self, w: _Writer, n: e.Shows, k: Callable[[], None]) -> None:
        w.label((n.label.rule, n.label.branch))
        k()

    def e_Sorts(self, w: _Writer, n: e.Sorts, k: Callable[[], None]) -> None:
        yes, no = (None if x is None else (x.rule, x.branch) for x in (n.yes, n.no))
        w.sorts(w.cond(n.cond, w.b), yes, no)
        k()

    def e_KnockOut(self, w: _Writer, n: e.KnockOut, k: Callable[[], None]) -> None:
        """``Reader.knock_out`` (MERCY): asked here as far as the known fields tell (the
        round under way, a hand at the limit or a seat out holding cards), made by
        ``KNOCK_...`` (the source of ``_KNOCK``), after which the fields it may change are
        known no more."""
        r = self.reader
        out = r.out_at
        assert out is not None  # a table that knocks out has the seats out in its record
        under = _all([_ne(w.at(PH), _OVER), _ne(w.at(PH), _P[START])])
        held = []
        for p in range(self.n):
            size = w.size(p)
            held.append(_any([_ge(size, n.at),
                              _all([_op("{} > 0", lambda x: x > 0, size),
                                    f"{w.var}[{out + p}]"])]))
        name = f"KNOCK_{n.at}_{int(n.to_pile)}"
        if name not in self.source:
            self._define(name, self._knock_source(name, n.at, n.to_pile))

        def knocks() -> None:
            w.emit(f"{name}({w.var})")
            w.forget(PH, TURN, UNO_WINDOW, DRAWN_AT, PENDING, KIND, OFFENDER, WINNER, 12, 13,
                     *range(self.width, self.width + self.n))
            k()
        w.split(_all([under, _any(held)]), knocks, k)

    def _knock_source(self, name: str, at: int, to_pile: bool) -> str:
        r = self.reader
        out = r.out_at
        assert out is not None
        under = "" if to_pile else f"\n            t[{r.disc} + f] += t[base + f]"
        return _KNOCK.format(
            name=name, n=self.n, at=at, size=self.width, out=out, base=r.base, nf=r.nf,
            under=under, winner=WINNER, none=NONE, window=UNO_WINDOW, turn=TURN, dir=DIR,
            ph=PH, naming=_P[NAMING], play=_P[PLAY], drawn=DRAWN_AT, pending=PENDING,
            kind=KIND, offender=OFFENDER, over=_OVER, last=self.n - 1,
            gone=" + ".join(f"t[{out + p}]" for p in range(self.n)))

    def e_Take(self, w: _Writer, n: e.Take, k: Callable[[], None]) -> None:
        self._take(w, w.seat(w.b, n.who), n.cards, n.keeps, k)

    def e_TakePending(self, w: _Writer, n: e.TakePending, k: Callable[[], None]) -> None:
        self._take(w, _n(w.b.of(n.who)), w.at(PENDING), False, k)

    # ------------------------------------------------------------- engine primitives

    def _take(self, w: _Writer, p: Val, count: Val, keeps: bool, k: Callable[[], None]) -> None:
        """A draw: the rest of the effect runs on each outcome (``Reader.take``)."""
        w.flush()
        w.emit(f"for t, ran in DRAW(t, ran, {_src(p)}, {_src(count)}, {keeps}):")
        w.depth += 1
        w.forget(UNO_WINDOW, DRAWN_AT, TOP, *range(self.width, self.width + self.n))
        k()
        w.depth -= 1

    def _round_end_check(self, w: _Writer, k: Callable[[], None]) -> None:
        """``Reader.round_end_check`` (END-1): the winner-to-be still out ends the round."""
        winner = w.at(WINNER)
        if winner == NONE:
            k()
            return
        if isinstance(winner, str):
            w.emit(f"wn = {winner}")
            winner = "wn"

        def ends() -> None:
            self._end_round(w, winner)
            k()

        def back() -> None:
            w.set(WINNER, NONE)
            k()
        w.split(_ne(winner, NONE), lambda: w.split(_eq(w.size(winner), 0), ends, back), k)

    def _end_round(self, w: _Writer, winner: Val) -> None:
        """``Reader.end_round`` (SCORE-1)."""
        w.emit(f"END(t, {_src(winner)})")
        for i, v in ((PH, _P[OVER]), (UNO_WINDOW, NONE), (PENDING, 0), (KIND, NONE),
                     (OFFENDER, NONE)):
            w.known[i] = v
        w.forget(12, 13)
        if isinstance(winner, str):
            w.forget(WINNER)
        else:
            w.known[WINNER] = winner


def key_of(rec: Any) -> Key:
    """A record's control key (``rec``: its bytes, or a row of them)."""
    return int(rec[PH]), int(rec[TURN]), int(rec[UNO_WINDOW]), int(rec[OFFENDER])


def _key_name(key: Key) -> str:
    return "K_" + "_".join(map(str, key))


def _defined(body: str) -> list[str]:
    """The functions a module's source defines."""
    return re.findall(r"^def (\w+)\(", body, re.MULTILINE)


def _binding(b: Binding) -> tuple[Any, ...]:
    return (b.actor, b.target, b.offender, b.card, b.color, b.uno)


def _draws(command: Command) -> bool:
    """Whether the command draws (several outcomes, so its children are deduplicated)."""
    def walk(node: object) -> bool:
        if isinstance(node, e.Take | e.TakePending):
            return True
        if dataclasses.is_dataclass(node):
            for f in dataclasses.fields(node):
                value = getattr(node, f.name)
                for item in value if isinstance(value, tuple) else (value,):
                    if isinstance(item, e.Effect | e.Branch) and walk(item):
                        return True
        return False
    return any(walk(x) for x in (*command.effect, *command.branches))
