"""Moves as guarded commands: one statement per move, read by the engine, the Z3 relation
and the words, as a TLA+ spec names one action per move and a GDL description answers
"legal" and "next" from one text.

A :class:`Command` has a name and the rules it cites, who may make it (``actor``: the
player to move, or anyone out of turn), the choices it takes (a ``target`` seat), a guard
and an effect:

- the guard is a tuple of :class:`Conjunct`, each a condition on the state tagged with the
  rule it keeps and the words of a refusal. The engine refuses a move by its first failing
  conjunct, so the rule and the words a user reads are the ones that decided;
- the effect is a sequence of primitives over the state schema's fields
  (:mod:`unoformal.rules.state`): :class:`Take` (a draw: the chance player's node, with the
  rule that makes it), :class:`Clear` (a control field set to none), :class:`SetPhase`,
  :class:`PassTurn` (the turn goes *k* seats on), :class:`SetColor` and a few more.

Table values are folded in when a command is built for a table (a Python ``if`` on a value
stays a Python ``if``; a value the guard needs is a :class:`Fixed` conjunct), so a
command is as cheap to run as code written by hand. Every node has three readings: on a
concrete game (``holds`` / ``run``), as Z3 terms over a symbolic state (``encode``), and
in words (``text``, the refusal template). The backends meet the commands through
:class:`Concrete` (a base class the engine's Game subclasses) and :class:`Symbolic` (a
protocol the relation meets), so this module imports neither the engine nor the relation.

A choice or a seat is named by :class:`Who`; a binding gives each its value: seats (ints)
for the engine, terms (or ints) for the relation.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from dataclasses import dataclass
from enum import Enum
from typing import Any, Protocol

from mypy_extensions import mypyc_attr

from unoformal.rulebook.cards import Kind
from unoformal.rulebook.deck import Deck
from unoformal.rulebook.table import CardEffect
from unoformal.rulebook.words import KIND_NAMES
from unoformal.rules.lang import check_template
from unoformal.rules.state import DRAWN, RESPOND

Term = Any  # a Z3 term (or a Python int the relation folds); opaque here

# A conjunct's rule when it is that of the draw card being answered (the state says which)
PENDING_RULE = "{pending_rule}"


class Who(Enum):
    """A seat a command names: who acts, or the seat chosen as its target."""

    ACTOR = "actor"
    TARGET = "target"
    OFFENDER = "offender"  # who played the draw card being answered (the state says)
    CARD = "card"  # the card a move names (a face of the deck), not a seat
    COLOR = "color"  # the color a move names (an index of the deck's colors)
    NEXT = "next player"  # the seat after the actor's in the direction of play (the state's)
    TO_MOVE = "player to move"  # the state's turn (the first player, once a start card says)


class Actor(Enum):
    """Who may make a move."""

    ON_TURN = "the player to move"
    ANYONE = "any player, in turn or not"
    OTHER = "any player but the one to move"  # a play out of turn (JUMP-IN)
    DEALER = "the dealer (the order of the cards is chance's)"


class Binding:
    """The values of a move's seats: ints on a concrete game, terms in the relation.

    A plain class, not a dataclass: one is made for every move the engine checks or
    runs, and mypyc compiles a plain class to a native one (a frozen dataclass stays an
    interpreted class whose ``__init__`` cost more than the rest of a play)."""

    def __init__(self, actor: Any, target: Any = None, offender: Any = None,
                 card: Any = None, color: Any = None, uno: Any = False) -> None:
        self.actor = actor
        self.target = target
        self.offender = offender
        self.card = card
        self.color = color
        self.uno = uno  # a play that says UNO with the card (UNO-1)

    def of(self, who: Who) -> Any:
        if who is Who.ACTOR:
            return self.actor
        if who is Who.TARGET:
            return self.target
        if who is Who.OFFENDER:
            return self.offender
        if who is Who.CARD:
            return self.card
        if who is Who.COLOR:
            return self.color
        raise ValueError(f"the {who.value} is the state's, not the move's: seat_of() reads it")


# A native base class, not a Protocol: compiled (unoformal/runtime/compiled.py), a
# condition's read of ``game.phase`` is then a field of a C struct and ``game._take(...)``
# a call through a table of methods, where through a Protocol each was a Python attribute
# lookup and a call with its ints boxed, on every conjunct of every move. The engine's Game
# is its one subclass; this module still imports no backend.
@mypyc_attr(allow_interpreted_subclasses=True)
class Concrete:
    """What the concrete backend reads and changes of a game: the engine's Game, which
    subclasses it and defines every method (each here only names what is missing)."""

    names: list[str]
    hands: list[list[int]]
    phase: str
    turn: int
    color: int | None
    drawn: int | None
    reveal: tuple[int, int, tuple[int, ...]] | None
    # Why the turn or phase is what it is (see Game.cause): a class default, so states
    # read from text start with none.
    cause: tuple[str, int, int | None, int, bool] | None = None
    deck: Deck
    uno_window: int | None
    direction: int
    winner: int | None
    pending: int
    pending_kind: Kind | None
    offender: int | None
    prev_color: int | None
    wd4_legal: bool
    f_kind: list[Kind]
    f_color: list[int | None]
    # Coverage: the labels of what ran are appended here while it is a list (None: not
    # counted, the engine's default; see :class:`Shows`); a copy starts so.
    ran: list[tuple[str, str]] | None = None
    pile: list[int]
    dealer: int
    n: int

    @property
    def top(self) -> int | None:
        raise _unread(self, "top", "the engine")

    @property
    def game_over(self) -> bool:
        raise _unread(self, "game_over", "the engine")

    def _can_draw(self, count: int) -> bool:
        raise _unread(self, "_can_draw", "the engine")

    def available(self) -> int:
        raise _unread(self, "available", "the engine")

    def _can_play(self, p: int, face: int) -> bool:
        raise _unread(self, "_can_play", "the engine")

    def _next(self, seat: int, steps: int = 1) -> int:
        raise _unread(self, "_next", "the engine")

    def _color_name(self, color: int | None) -> str | None:
        raise _unread(self, "_color_name", "the engine")

    def _match_row(self) -> list[bool]:
        raise _unread(self, "_match_row", "the engine")

    def _can_effect(self, effect: CardEffect) -> bool:
        raise _unread(self, "_can_effect", "the engine")

    def _wd4_blocking(self, p: int, face: int) -> str | None:
        raise _unread(self, "_wd4_blocking", "the engine")

    def _wd4_legal_without(self, p: int, face: int) -> bool:
        raise _unread(self, "_wd4_legal_without", "the engine")

    def _can_play_any(self, p: int) -> bool:
        raise _unread(self, "_can_play_any", "the engine")

    def _place(self, p: int, face: int, color: int | None, judges: bool,
               names_color: bool) -> None:
        raise _unread(self, "_place", "the engine")

    def _take(self, p: int, count: int, rule: str) -> None:
        raise _unread(self, "_take", "the engine")

    def _pending_rule(self) -> str:
        raise _unread(self, "_pending_rule", "the engine")

    def _answers_said(self) -> str:
        raise _unread(self, "_answers_said", "the engine")

    def _was_caused_by(self, rule_id: str, victim: int, card: int) -> None:
        raise _unread(self, "_was_caused_by", "the engine")

    def _penalty_card(self) -> int:
        raise _unread(self, "_penalty_card", "the engine")

    def _resolved(self, victim: int, keeps_turn: bool) -> None:
        raise _unread(self, "_resolved", "the engine")

    def _reverse_is_skip(self) -> bool:
        raise _unread(self, "_reverse_is_skip", "the engine")

    def _round_end_check(self) -> None:
        raise _unread(self, "_round_end_check", "the engine")

    def _end_round(self, winner: int) -> None:
        raise _unread(self, "_end_round", "the engine")

    def _turn_up(self, face: int) -> None:
        raise _unread(self, "_turn_up", "the engine")

    def _turn_again(self, rule: str) -> None:
        raise _unread(self, "_turn_again", "the engine")

    def _start_at(self, seats: int, direction: int, face: int) -> None:
        raise _unread(self, "_start_at", "the engine")

    def _note_start(self, rule: str, face: int) -> None:
        raise _unread(self, "_note_start", "the engine")

    def _random_color(self, rule: str) -> None:
        raise _unread(self, "_random_color", "the engine")

    def _deal_next(self, cards: int) -> None:
        raise _unread(self, "_deal_next", "the engine")


class Symbolic(Protocol):
    """What the symbolic backend offers (z3/actions.py's Spec)."""

    def true(self) -> Term: ...

    def false(self) -> Term: ...

    def both(self, terms: list[Term]) -> Term: ...

    def either(self, terms: list[Term]) -> Term: ...

    def same(self, a: Term, b: Term) -> Term: ...

    def differ(self, a: Term, b: Term) -> Term: ...

    def none(self) -> Term: ...

    def hand_size(self, s: Any, seat: Term) -> Term: ...

    def can_draw(self, s: Any, count: int) -> Term: ...

    def take(self, s: Any, who: Term, count: int, tag: str) -> tuple[Any, Term, list[Term]]: ...

    def cleared(self, s: Any, field: str) -> Any: ...

    def phase_is(self, s: Any, phase: str) -> Term: ...

    def pending_in(self, s: Any, kinds: tuple[Kind, ...]) -> Term: ...

    def negated(self, term: Term) -> Term: ...

    def copied(self, s: Any, source: str, field: str) -> Any: ...

    def resolved(self, s: Any, victim: Term, keeps_turn: bool) -> Any: ...

    def cards_left(self, s: Any, cards: int) -> Term: ...

    def can_play_any(self, s: Any, seat: Term) -> Term: ...

    def drawn_playable(self, s: Any) -> Term: ...

    def holds_card(self, s: Any, seat: Term, card: Term) -> Term: ...

    def card_playable(self, s: Any, seat: Term, card: Term) -> Term: ...

    def kept(self, s: Any, drawn: list[Term], tag: str) -> tuple[Any, Term]: ...

    def phase_set(self, s: Any, phase: str) -> Any: ...

    def turn_passed(self, s: Any, seat: Term, steps: int) -> Any: ...

    def colored(self, s: Any, color: Term) -> Any: ...

    def holds_kind(self, s: Any, seat: Term, kind: Kind) -> Term: ...

    def matches_kind(self, s: Any, card: Term, kind: Kind) -> Term: ...

    def can_effect(self, s: Any, effect: CardEffect) -> Term: ...

    def wd4_legal_without(self, s: Any, seat: Term, card: Term) -> Term: ...

    def placed(self, s: Any, b: Binding, judges: bool, names_color: bool,
               kind: Kind) -> Any: ...

    def window_opened(self, s: Any, seat: Term, says: Term, cards_left: int) -> Any: ...

    def next_seat(self, s: Any, seat: Term) -> Term: ...

    def decided(self, cond: Term) -> bool | None: ...

    def chosen(self, cond: Term, then: Any, otherwise: Any) -> Any: ...

    def picked(self, cond: Term, then: Term, otherwise: Term) -> Term: ...

    def reverse_skips(self) -> Term: ...

    def goes_out(self, s: Any, seat: Term) -> Term: ...

    def hands_passed(self, s: Any, actor: Term, target: Term | None) -> Any: ...

    def is_top(self, s: Any, card: Term) -> Term: ...

    def flipped(self, s: Any) -> Any: ...

    def pending_added(self, s: Any, cards: int, kind: Kind) -> Any: ...

    def marked(self, s: Any, field: str, seat: Term) -> Any: ...

    def round_end_check(self, s: Any) -> Any: ...

    def turned_up(self, s: Any, face: Term, kind: Kind) -> Any: ...

    def started_at(self, s: Any, dealer: Term, seats: int, direction: int, face: Term,
                   kind: Kind) -> Any: ...

    def random_color(self, s: Any, tag: str) -> tuple[Any, Term]: ...

    def only_kind_left(self, s: Any, kind: Kind) -> Term: ...

    def game_over(self, s: Any) -> Term: ...

    def dealer_passed(self, s: Any, to_winner: bool) -> Any: ...

    def dealt_anew(self, s: Any, cards: int, tag: str) -> tuple[Any, Term]: ...


def seat_of(game: Concrete, b: Binding, who: Who) -> Any:
    """The seat ``who`` names on a concrete game: a choice of the move, or the player after
    the actor in the direction of play (read from the state when the step runs)."""
    if who is Who.NEXT:
        return game._next(b.actor)
    return game.turn if who is Who.TO_MOVE else b.of(who)


def seat_term(spec: Symbolic, s: Any, b: Binding, who: Who) -> Term:
    """The seat ``who`` names over the symbolic state ``s``."""
    if who is Who.NEXT:
        return spec.next_seat(s, b.actor)
    return s.turn if who is Who.TO_MOVE else b.of(who)


# ------------------------------------------------------------------ conditions


def _unread(node: object, method: str, reading: str) -> TypeError:
    """A node written without one of its readings: every node is read three ways."""
    return TypeError(f"{type(node).__name__} has no reading for {reading}: define its "
                     f"{method}()")


# The node bases are plain classes, not abc.ABC: the build compiles this module with mypyc
# (unoformal/runtime/compiled.py), whose native classes cannot take ABCMeta. A node class that
# leaves a reading out is refused when that reading is asked for, naming the class and the
# reading (tests/verification/test_commands.py).
# A user's own conditions and effects subclass these in Python (docs/how-a-rule-is-written.md).
@mypyc_attr(allow_interpreted_subclasses=True)
class Cond:
    """A condition on a state, given a move's seats."""

    def holds(self, game: Concrete, b: Binding) -> bool:
        """Whether it holds on the concrete ``game``."""
        raise _unread(self, "holds", "the engine")

    def encode(self, spec: Symbolic, s: Any, b: Binding) -> Term:
        """Its Z3 term over the symbolic state ``s``."""
        raise _unread(self, "encode", "the Z3 relation")

    def text(self) -> str:
        """How it reads (the rules document)."""
        raise _unread(self, "text", "the words")

    def in_phase(self, phase: str) -> Cond | bool:
        """What is left of it in a state known to be in ``phase``: True or False when the
        phase alone decides it, else a condition that holds in such a state exactly when
        this one does (by default itself). The engine asks a guard so specialised where
        it knows the phase (:func:`in_phase`); words and refusals read the whole."""
        return self


@dataclass(frozen=True)
class Fixed(Cond):
    """A table value the guard needs, folded when the command is built."""

    value: bool
    says: str  # what the value means when it holds

    def holds(self, game: Concrete, b: Binding) -> bool:
        return self.value

    def encode(self, spec: Symbolic, s: Any, b: Binding) -> Term:
        return spec.true() if self.value else spec.false()

    def in_phase(self, phase: str) -> Cond | bool:
        return self.value

    def text(self) -> str:
        return self.says


@dataclass(frozen=True)
class SomeWindow(Cond):
    """Someone's UNO window is open (UNO-1)."""

    def holds(self, game: Concrete, b: Binding) -> bool:
        return game.uno_window is not None

    def encode(self, spec: Symbolic, s: Any, b: Binding) -> Term:
        return spec.differ(s.uno_window, spec.none())

    def text(self) -> str:
        return "someone's UNO window is open"


@dataclass(frozen=True)
class WindowOf(Cond):
    """The UNO window open is ``who``'s (UNO-1)."""

    who: Who

    def holds(self, game: Concrete, b: Binding) -> bool:
        window = game.uno_window
        return window is not None and window == b.of(self.who)

    def encode(self, spec: Symbolic, s: Any, b: Binding) -> Term:
        return spec.same(s.uno_window, b.of(self.who))

    def text(self) -> str:
        return f"the UNO window open is the {self.who.value}'s"


@dataclass(frozen=True)
class Differ(Cond):
    """Two of the move's seats are different players."""

    a: Who
    b: Who

    def holds(self, game: Concrete, b: Binding) -> bool:
        return bool(b.of(self.a) != b.of(self.b))

    def encode(self, spec: Symbolic, s: Any, b: Binding) -> Term:
        return spec.differ(b.of(self.a), b.of(self.b))

    def text(self) -> str:
        return f"the {self.a.value} is not the {self.b.value}"


@dataclass(frozen=True)
class HandIs(Cond):
    """``who`` holds exactly ``cards`` cards."""

    who: Who
    cards: int

    def holds(self, game: Concrete, b: Binding) -> bool:
        return len(game.hands[b.of(self.who)]) == self.cards

    def encode(self, spec: Symbolic, s: Any, b: Binding) -> Term:
        return spec.same(spec.hand_size(s, b.of(self.who)), self.cards)

    def text(self) -> str:
        return f"the {self.who.value} holds {self.cards} card{'s' * (self.cards != 1)}"


@dataclass(frozen=True)
class CanDraw(Cond):
    """``cards`` cards can be drawn (EXT-SHORT: the pile and the discard below the top,
    unless the table draws what is left)."""

    cards: int

    def holds(self, game: Concrete, b: Binding) -> bool:
        return game._can_draw(self.cards)

    def encode(self, spec: Symbolic, s: Any, b: Binding) -> Term:
        return spec.can_draw(s, self.cards)

    def text(self) -> str:
        return f"{self.cards} card{'s' * (self.cards != 1)} can be drawn"


@dataclass(frozen=True)
class CanDrawPending(Cond):
    """The cards pending can be drawn (EXT-SHORT)."""

    def holds(self, game: Concrete, b: Binding) -> bool:
        return game._can_draw(game.pending)

    def encode(self, spec: Symbolic, s: Any, b: Binding) -> Term:
        return spec.can_draw(s, s.pending)

    def text(self) -> str:
        return "the cards pending can be drawn"


@dataclass(frozen=True)
class PhaseIs(Cond):
    """The round is in ``phase`` (a phase of the state schema)."""

    phase: str

    def holds(self, game: Concrete, b: Binding) -> bool:
        return bool(game.phase == self.phase)

    def encode(self, spec: Symbolic, s: Any, b: Binding) -> Term:
        return spec.phase_is(s, self.phase)

    def text(self) -> str:
        return f"the round is in its {self.phase} phase"

    def in_phase(self, phase: str) -> Cond | bool:
        return phase == self.phase


@dataclass(frozen=True)
class PhaseNot(Cond):
    """The round is not in ``phase``: it waits for something else first (a color named,
    a draw card answered)."""

    phase: str

    def holds(self, game: Concrete, b: Binding) -> bool:
        return bool(game.phase != self.phase)

    def encode(self, spec: Symbolic, s: Any, b: Binding) -> Term:
        return spec.negated(spec.phase_is(s, self.phase))

    def text(self) -> str:
        return f"the round is not in its {self.phase} phase"

    def in_phase(self, phase: str) -> Cond | bool:
        return phase != self.phase


@dataclass(frozen=True)
class PendingIn(Cond):
    """The draw card being answered is of one of ``kinds``."""

    kinds: tuple[Kind, ...]

    def holds(self, game: Concrete, b: Binding) -> bool:
        return game.pending_kind in self.kinds

    def encode(self, spec: Symbolic, s: Any, b: Binding) -> Term:
        return spec.pending_in(s, self.kinds)

    def text(self) -> str:
        names = " or ".join(KIND_NAMES[k] for k in self.kinds) or "no card"
        return f"the card being answered is a {names}"


@dataclass(frozen=True)
class Legal(Cond):
    """The Wild Draw Four being answered was played legally (WD4-1), or not."""

    value: bool

    def holds(self, game: Concrete, b: Binding) -> bool:
        return game.wd4_legal == self.value

    def encode(self, spec: Symbolic, s: Any, b: Binding) -> Term:
        return s.wd4_legal if self.value else spec.negated(s.wd4_legal)

    def text(self) -> str:
        return f"the Wild Draw Four was played {'legally' if self.value else 'illegally'}"


@dataclass(frozen=True)
class Offends(Cond):
    """The move's offender is the one the state names (the relation builds one step per
    offender seat; on a concrete game the binding takes the state's)."""

    def holds(self, game: Concrete, b: Binding) -> bool:
        return bool(game.offender == b.offender)

    def encode(self, spec: Symbolic, s: Any, b: Binding) -> Term:
        return spec.same(s.offender, b.offender)

    def text(self) -> str:
        return "the offender is the player who played the draw card"


@dataclass(frozen=True)
class PhaseIn(Cond):
    """The round is in one of ``phases``."""

    phases: tuple[str, ...]

    def holds(self, game: Concrete, b: Binding) -> bool:
        return game.phase in self.phases

    def in_phase(self, phase: str) -> Cond | bool:
        return phase in self.phases

    def encode(self, spec: Symbolic, s: Any, b: Binding) -> Term:
        return spec.either([spec.phase_is(s, phase) for phase in self.phases])

    def text(self) -> str:
        return f"the round is in its {' or '.join(self.phases)} phase"


@dataclass(frozen=True)
class CardsLeft(Cond):
    """At least ``cards`` cards are left to draw: the pile, and what RESHUFFLE-1 would
    return from the discard (or fewer, when ``value`` is False)."""

    cards: int
    value: bool = True

    def holds(self, game: Concrete, b: Binding) -> bool:
        return (game.available() >= self.cards) == self.value

    def encode(self, spec: Symbolic, s: Any, b: Binding) -> Term:
        left = spec.cards_left(s, self.cards)
        return left if self.value else spec.negated(left)

    def text(self) -> str:
        if self.cards == 1:
            return "a card is left to draw" if self.value else "nothing is left to draw"
        return f"{'at least' if self.value else 'fewer than'} {self.cards} cards are left to draw"


@dataclass(frozen=True)
class CanPlay(Cond):
    """``who`` holds a card they may play now (or holds none, when ``value`` is False)."""

    who: Who
    value: bool

    def holds(self, game: Concrete, b: Binding) -> bool:
        return game._can_play_any(b.of(self.who)) == self.value

    def encode(self, spec: Symbolic, s: Any, b: Binding) -> Term:
        able = spec.can_play_any(s, b.of(self.who))
        return able if self.value else spec.negated(able)

    def text(self) -> str:
        return f"the {self.who.value} holds {'a' if self.value else 'no'} card they may play"


@dataclass(frozen=True)
class DrawnPlayable(Cond):
    """The card the actor just drew may be played (or not, when ``value`` is False)."""

    value: bool

    def holds(self, game: Concrete, b: Binding) -> bool:
        drawn = game.drawn
        return (drawn is not None and game._can_play(b.actor, drawn)) == self.value

    def encode(self, spec: Symbolic, s: Any, b: Binding) -> Term:
        playable = spec.drawn_playable(s)
        return playable if self.value else spec.negated(playable)

    def text(self) -> str:
        return f"the card just drawn {'may' if self.value else 'may not'} be played"


@dataclass(frozen=True)
class HoldsCard(Cond):
    """The card the move names is in the actor's hand."""

    def holds(self, game: Concrete, b: Binding) -> bool:
        return b.card in game.hands[b.actor]

    def encode(self, spec: Symbolic, s: Any, b: Binding) -> Term:
        return spec.holds_card(s, b.actor, b.card)

    def text(self) -> str:
        return "the card is in the actor's hand"


@dataclass(frozen=True)
class IsTop(Cond):
    """The card the move names is identical to the top of the discard pile: the same
    face (color and number or symbol; faces are the deck's designs)."""

    def holds(self, game: Concrete, b: Binding) -> bool:
        return bool(b.card == game.top)

    def encode(self, spec: Symbolic, s: Any, b: Binding) -> Term:
        return spec.is_top(s, b.card)

    def text(self) -> str:
        return "the card is identical to the top of the discard pile"


@dataclass(frozen=True)
class CardPlayable(Cond):
    """The card the move names may be played now (or not, when ``value`` is False)."""

    value: bool

    def holds(self, game: Concrete, b: Binding) -> bool:
        return game._can_play(b.actor, b.card) == self.value

    def encode(self, spec: Symbolic, s: Any, b: Binding) -> Term:
        playable = spec.card_playable(s, b.actor, b.card)
        return playable if self.value else spec.negated(playable)

    def text(self) -> str:
        return f"the card {'may' if self.value else 'may not'} be played now"


@dataclass(frozen=True)
class UnoCall(Cond):
    """A play that says UNO says it with the next-to-last card (``with_cards`` in hand),
    where the table lets a call go with the card (``allowed``); one that does not say it
    always holds."""

    allowed: bool
    with_cards: int

    def holds(self, game: Concrete, b: Binding) -> bool:
        return not b.uno or (self.allowed and len(game.hands[b.actor]) == self.with_cards)

    def encode(self, spec: Symbolic, s: Any, b: Binding) -> Term:
        if not self.allowed:
            return spec.negated(b.uno)
        return spec.either([spec.negated(b.uno),
                            spec.same(spec.hand_size(s, b.actor), self.with_cards)])

    def text(self) -> str:
        if not self.allowed:
            return "the play does not say UNO"
        return (f"a play that says UNO is made holding {self.with_cards} cards (the "
                "next-to-last card)")


@dataclass(frozen=True)
class DrawnOnly(Cond):
    """After a draw only the card drawn may be played (and not even it, unless the table
    lets it: ``may_play_drawn``)."""

    may_play_drawn: bool

    def holds(self, game: Concrete, b: Binding) -> bool:
        return game.phase != DRAWN or (self.may_play_drawn and b.card == game.drawn)

    def in_phase(self, phase: str) -> Cond | bool:
        return True if phase != DRAWN else self

    def encode(self, spec: Symbolic, s: Any, b: Binding) -> Term:
        other = spec.negated(spec.phase_is(s, DRAWN))
        if not self.may_play_drawn:
            return other
        return spec.either([other, spec.same(b.card, s.drawn)])

    def text(self) -> str:
        if not self.may_play_drawn:
            return "the player has not just drawn"
        return "the player has not just drawn, or the card is the one drawn"


@dataclass(frozen=True)
class Unanswering(Cond):
    """``cond`` holds, unless the card answers a draw card (an answer is judged by
    NOSTACK-1's own conjunct alone: ``unoformal.rules.effects.answers``)."""

    cond: Cond

    def holds(self, game: Concrete, b: Binding) -> bool:
        return game.phase == RESPOND or self.cond.holds(game, b)

    def in_phase(self, phase: str) -> Cond | bool:
        return True if phase == RESPOND else self.cond.in_phase(phase)

    def encode(self, spec: Symbolic, s: Any, b: Binding) -> Term:
        return spec.either([spec.phase_is(s, RESPOND), self.cond.encode(spec, s, b)])

    def text(self) -> str:
        return f"{self.cond.text()} (unless it answers a draw card)"


@dataclass(frozen=True)
class Matches(Cond):
    """PLAY-1: the card (of ``kind``) matches the discard's top: same color, number or
    symbol, or a wild (the table's matching)."""

    kind: Kind

    def holds(self, game: Concrete, b: Binding) -> bool:
        return bool(game._match_row()[b.card])

    def encode(self, spec: Symbolic, s: Any, b: Binding) -> Term:
        return spec.matches_kind(s, b.card, self.kind)

    def text(self) -> str:
        return "the card matches the top of the discard pile"


@dataclass(frozen=True)
class Wd4Legal(Cond):
    """WD4-1: no card left in the actor's hand once the card is played makes a Wild Draw
    Four illegal (the table's reading, ``unoformal.rules.challenge``)."""

    def holds(self, game: Concrete, b: Binding) -> bool:
        return game._wd4_legal_without(b.actor, b.card)

    def encode(self, spec: Symbolic, s: Any, b: Binding) -> Term:
        return spec.wd4_legal_without(s, b.actor, b.card)

    def text(self) -> str:
        return "no card left in the actor's hand makes the Wild Draw Four illegal"


@dataclass(frozen=True)
class CanEffect(Cond):
    """EXT-SHORT off: the card's victim can draw the cards it names."""

    effect: CardEffect

    def holds(self, game: Concrete, b: Binding) -> bool:
        return game._can_effect(self.effect)

    def encode(self, spec: Symbolic, s: Any, b: Binding) -> Term:
        return spec.can_effect(s, self.effect)

    def text(self) -> str:
        return "its victim can draw the cards it names"


@dataclass(frozen=True)
class GoesOut(Cond):
    """END-1: the actor has just played their last card, and nobody went out before."""

    def holds(self, game: Concrete, b: Binding) -> bool:
        return not game.hands[b.actor] and game.winner is None

    def encode(self, spec: Symbolic, s: Any, b: Binding) -> Term:
        return spec.goes_out(s, b.actor)

    def text(self) -> str:
        return "the actor has just gone out, the first to"


@dataclass(frozen=True)
class OffenderHolds(Cond):
    """EXT-LAST: no draw card waits for an answer, or the player who played it still
    holds a card (one who went out with it is not passed the penalty back)."""

    def holds(self, game: Concrete, b: Binding) -> bool:
        offender = game.offender
        return game.phase != RESPOND or offender is None or bool(game.hands[offender])

    def encode(self, spec: Symbolic, s: Any, b: Binding) -> Term:
        return spec.either([spec.negated(spec.phase_is(s, RESPOND)),
                            spec.negated(spec.same(spec.hand_size(s, s.offender), 0))])

    def text(self) -> str:
        return ("no draw card waits for an answer, or the player who played it still holds "
                "a card")


@dataclass(frozen=True)
class ReverseSkips(Cond):
    """TWO-1: at this number of players a Reverse acts as a Skip (the table's counts)."""

    def holds(self, game: Concrete, b: Binding) -> bool:
        return game._reverse_is_skip()

    def encode(self, spec: Symbolic, s: Any, b: Binding) -> Term:
        return spec.reverse_skips()

    def text(self) -> str:
        return "a Reverse acts as a Skip at this number of players (TWO-1)"


# The fields of a conjunct's words, each filled by Conjunct.refusal
CONJUNCT_FIELDS = ("actor", "to_move", "target", "window", "held", "pending", "card",
                   "offender", "top", "color", "blocking", "may")


@dataclass(frozen=True)
class Conjunct:
    """One condition of a guard, the rule it keeps, and the words of a refusal: a template
    filled from the game (``{actor}``, ``{target}``, ``{window}``, ``{held}``,
    ``{pending}``, ``{card}``, ``{offender}``, ``{top}``, ``{color}``, ``{blocking}``: the
    card that makes a Wild Draw Four illegal, in WD4-1's words; ``{may}``: what the victim
    of a draw card waiting for an answer may do). ``rule`` may be :data:`PENDING_RULE`,
    the rule of that draw card (WD4-2, or D2-1 under stacking), which the state names.
    ``caused``: the refusal also names what made the state so (the draw that leaves only
    the drawn card to play, the draw card that waits), as the engine's causes do."""

    cond: Cond
    rule: str
    words: str
    caused: bool = False

    def __post_init__(self) -> None:
        # A user's house rule builds conjuncts too: a template that names no field of
        # refusal()'s, or formats one unbounded, is refused here rather than when a move
        # is refused (a KeyError then, or a string of any size).
        check_template(self.words, CONJUNCT_FIELDS, f"{self.cited()}'s words", key="words")

    def cited(self) -> str:
        """The rule as the rules document shows it."""
        return "the rule of the card being answered" if self.rule == PENDING_RULE \
            else self.rule

    def refusal(self, game: Concrete, b: Binding) -> tuple[str, str]:
        names = game.names
        window = game.uno_window
        target = b.target
        values = {"actor": names[b.actor], "to_move": names[game.turn],
                  "target": names[target] if target is not None else "-",
                  "window": names[window] if window is not None else "-",
                  "held": str(len(game.hands[target])) if target is not None else "-",
                  "pending": str(game.pending),
                  "card": game.deck.code(b.card) if b.card is not None else "-"}
        words = self.words
        if "{offender}" in words:
            offender = game.offender
            values["offender"] = names[offender] if offender is not None else "-"
        if "{top}" in words or "{color}" in words:
            top = game.top
            values["top"] = game.deck.code(top) if top is not None else "-"
            values["color"] = f"{game._color_name(game.color)}"
        if "{blocking}" in words:
            values["blocking"] = game._wd4_blocking(b.actor, b.card) or "-"
        if "{may}" in words:
            values["may"] = game._answers_said()
        rule = game._pending_rule() if self.rule == PENDING_RULE else self.rule
        return rule, words.format(**values)


# --------------------------------------------------------------------- effects


@mypyc_attr(allow_interpreted_subclasses=True)
class Effect:
    """A primitive change of the state."""

    def run(self, game: Concrete, b: Binding) -> None:
        """Make the change on the concrete ``game``."""
        raise _unread(self, "run", "the engine")

    def encode(self, spec: Symbolic, s: Any, b: Binding, tag: str) -> tuple[Any, list[Term]]:
        """The symbolic state after the change, and the constraints on what chance gave."""
        raise _unread(self, "encode", "the Z3 relation")

    def text(self) -> str:
        """How it reads."""
        raise _unread(self, "text", "the words")

    def lines(self) -> list[str]:
        """How it reads in the rules document: a line per primitive, a branch indented."""
        return [f"- then {self.text()}"]

    def walk(self) -> tuple[Effect, ...]:
        """This primitive and those under it, in order."""
        return (self,)

    def counted(self) -> tuple[Label, ...]:
        """What coverage may count of this primitive itself (not of those under it)."""
        return ()

    def replaced(self, change: Callable[[Effect], Effect]) -> Effect:
        """This primitive, and those under it, as ``change`` makes them (a planted bug)."""
        return change(self)


@dataclass(frozen=True)
class Take(Effect):
    """``who`` draws ``cards`` cards: a chance node, the draw made under ``rule``.
    ``keeps``: the last card drawn becomes the one the actor may still play (DRAW-1's
    draw), none when nothing could be drawn."""

    who: Who
    cards: int
    rule: str
    part: str = ""  # names this draw's chance constants apart from the command's others
    keeps: bool = False

    def run(self, game: Concrete, b: Binding) -> None:
        who = seat_of(game, b, self.who)
        hand = game.hands[who]
        before = len(hand)
        game._take(who, self.cards, self.rule)
        if self.keeps:
            game.drawn = hand[-1] if len(hand) > before else None

    def encode(self, spec: Symbolic, s: Any, b: Binding, tag: str) -> tuple[Any, list[Term]]:
        who = seat_term(spec, s, b, self.who)
        post, cons, drawn = spec.take(s, who, self.cards, tag + self.part)
        if not self.keeps:
            return post, [cons]
        post, which = spec.kept(post, drawn, tag + self.part)
        return post, [cons, which]

    def text(self) -> str:
        cards = f"{self.cards} card{'s' * (self.cards != 1)}"
        kept = "; the last card drawn is the one they may play" if self.keeps else ""
        return f"the {self.who.value} draws {cards} ({self.rule}){kept}"


@dataclass(frozen=True)
class Clear(Effect):
    """A control field of the state schema is set to none."""

    field: str

    def run(self, game: Concrete, b: Binding) -> None:
        setattr(game, self.field, None)

    def encode(self, spec: Symbolic, s: Any, b: Binding, tag: str) -> tuple[Any, list[Term]]:
        return spec.cleared(s, self.field), []

    def text(self) -> str:
        return f"`{self.field}` is set to none"


@dataclass(frozen=True)
class TakePending(Effect):
    """``who`` draws the cards pending, under the rule of the card being answered."""

    who: Who

    def run(self, game: Concrete, b: Binding) -> None:
        game._take(b.of(self.who), game.pending, game._pending_rule())

    def encode(self, spec: Symbolic, s: Any, b: Binding, tag: str) -> tuple[Any, list[Term]]:
        post, cons, _ = spec.take(s, b.of(self.who), s.pending, tag)
        return post, [cons]

    def text(self) -> str:
        return f"the {self.who.value} draws the cards pending"


@dataclass(frozen=True)
class Copy(Effect):
    """A control field takes another's value (the color before a Wild Draw Four)."""

    source: str
    field: str

    def run(self, game: Concrete, b: Binding) -> None:
        setattr(game, self.field, getattr(game, self.source))

    def encode(self, spec: Symbolic, s: Any, b: Binding, tag: str) -> tuple[Any, list[Term]]:
        return spec.copied(s, self.source, self.field), []

    def text(self) -> str:
        return f"`{self.field}` takes the value of `{self.source}`"


@dataclass(frozen=True)
class Reveal(Effect):
    """CHAL-1: the offender's hand is shown to the actor. Only a view reads it, so the
    relation (which holds no view, ``unoformal.rules.state``) leaves the state as it is."""

    def run(self, game: Concrete, b: Binding) -> None:
        game.reveal = b.actor, b.offender, tuple(sorted(game.hands[b.offender]))

    def encode(self, spec: Symbolic, s: Any, b: Binding, tag: str) -> tuple[Any, list[Term]]:
        return s, []

    def text(self) -> str:
        return "the offender's hand is shown to the actor"


@dataclass(frozen=True)
class Caused(Effect):
    """The refusals that follow name ``rule`` as their cause (the draw card settled); the
    rule of the card being answered when None. Bookkeeping of the engine, no state."""

    rule: str | None

    def run(self, game: Concrete, b: Binding) -> None:
        rule = self.rule if self.rule is not None else game._pending_rule()
        game._was_caused_by(rule, b.actor, game._penalty_card())

    def encode(self, spec: Symbolic, s: Any, b: Binding, tag: str) -> tuple[Any, list[Term]]:
        return s, []

    def text(self) -> str:
        return f"{self.rule or 'the rule of the card answered'} is named as the cause"


@dataclass(frozen=True)
class Resolve(Effect):
    """The draw card is settled: nothing pending, the actor keeps the turn or it passes,
    and END-1 is checked."""

    keeps_turn: bool

    def run(self, game: Concrete, b: Binding) -> None:
        game._resolved(b.actor, self.keeps_turn)

    def encode(self, spec: Symbolic, s: Any, b: Binding, tag: str) -> tuple[Any, list[Term]]:
        return spec.resolved(s, b.actor, self.keeps_turn), []

    def text(self) -> str:
        turn = "the actor keeps the turn" if self.keeps_turn else "the turn passes"
        return f"the draw card is settled and {turn} (END-1 is checked)"


@dataclass(frozen=True)
class SetPhase(Effect):
    """The round goes to ``phase`` (a phase of the state schema)."""

    phase: str

    def run(self, game: Concrete, b: Binding) -> None:
        game.phase = self.phase

    def encode(self, spec: Symbolic, s: Any, b: Binding, tag: str) -> tuple[Any, list[Term]]:
        return spec.phase_set(s, self.phase), []

    def text(self) -> str:
        return f"the round goes to its {self.phase} phase"


@dataclass(frozen=True)
class PassTurn(Effect):
    """The turn goes ``steps`` seats on from the actor, in the direction of play."""

    steps: int = 1

    def run(self, game: Concrete, b: Binding) -> None:
        game.turn = game._next(b.actor, self.steps)

    def encode(self, spec: Symbolic, s: Any, b: Binding, tag: str) -> tuple[Any, list[Term]]:
        return spec.turn_passed(s, b.actor, self.steps), []

    def text(self) -> str:
        if self.steps == 1:
            return "the turn passes to the next player"
        return f"the turn goes {self.steps} seats on"


@dataclass(frozen=True)
class SetColor(Effect):
    """The color the move names becomes the current color."""

    def run(self, game: Concrete, b: Binding) -> None:
        game.color = b.color

    def encode(self, spec: Symbolic, s: Any, b: Binding, tag: str) -> tuple[Any, list[Term]]:
        return spec.colored(s, b.color), []

    def text(self) -> str:
        return "the color named becomes the current color"


@dataclass(frozen=True)
class NoteCause(Effect):
    """The actor's move is named, under ``rule``, as what decided whose turn it is (with
    the card just drawn, if any); None: nothing is. Bookkeeping of the engine's refusal
    words, no state, so the relation reads it as no change."""

    rule: str | None

    def run(self, game: Concrete, b: Binding) -> None:
        rule = self.rule
        game.cause = None if rule is None else (rule, b.actor, game.drawn, b.actor, False)

    def encode(self, spec: Symbolic, s: Any, b: Binding, tag: str) -> tuple[Any, list[Term]]:
        return s, []

    def text(self) -> str:
        if self.rule is None:
            return "no earlier move is named as the cause any more"
        return f"the move is named as the cause ({self.rule})"


@dataclass(frozen=True)
class PlaceCard(Effect):
    """The card goes from the actor's hand onto the discard pile; the current color
    becomes the one named (``names_color``: a wild, WILD-1) or the card's; nothing is
    drawn any more. ``judges``: WD4-1's verdict on the hand left and the color before the
    card are noted, for a challenge (CHAL-1..4)."""

    kind: Kind
    judges: bool
    names_color: bool

    def run(self, game: Concrete, b: Binding) -> None:
        game._place(b.actor, b.card, b.color, self.judges, self.names_color)

    def encode(self, spec: Symbolic, s: Any, b: Binding, tag: str) -> tuple[Any, list[Term]]:
        return spec.placed(s, b, self.judges, self.names_color, self.kind), []

    def text(self) -> str:
        color = "the color named" if self.names_color else "the card's color"
        judged = ("; whether it was played legally (WD4-1) and the color before it are "
                  "noted") if self.judges else ""
        return f"the card goes onto the discard pile and {color} is the current one{judged}"


@dataclass(frozen=True)
class OpenWindow(Effect):
    """UNO-1: a player left with ``cards_left`` cards who did not say UNO with the card
    can be caught until the next turn begins."""

    cards_left: int

    def run(self, game: Concrete, b: Binding) -> None:
        if len(game.hands[b.actor]) == self.cards_left and not b.uno:
            game.uno_window = b.actor

    def encode(self, spec: Symbolic, s: Any, b: Binding, tag: str) -> tuple[Any, list[Term]]:
        return spec.window_opened(s, b.actor, b.uno, self.cards_left), []

    def text(self) -> str:
        cards = f"{self.cards_left} card{'s' * (self.cards_left != 1)}"
        return f"if the actor holds {cards} and did not say UNO, their UNO window opens"


@dataclass(frozen=True)
class FlipDirection(Effect):
    """The direction of play is reversed (REV-1)."""

    def run(self, game: Concrete, b: Binding) -> None:
        game.direction = -game.direction

    def encode(self, spec: Symbolic, s: Any, b: Binding, tag: str) -> tuple[Any, list[Term]]:
        return spec.flipped(s), []

    def text(self) -> str:
        return "the direction of play is reversed"


@dataclass(frozen=True)
class AddPending(Effect):
    """A draw card waits for its victim's answer: ``cards`` more are pending than the
    card it answers left (none when it answers nothing), of the card's ``kind``."""

    cards: int
    kind: Kind

    def run(self, game: Concrete, b: Binding) -> None:
        game.pending = (game.pending if game.phase == RESPOND else 0) + self.cards
        game.pending_kind = self.kind

    def encode(self, spec: Symbolic, s: Any, b: Binding, tag: str) -> tuple[Any, list[Term]]:
        return spec.pending_added(s, self.cards, self.kind), []

    def text(self) -> str:
        return (f"{self.cards} more cards are pending, those of a {KIND_NAMES[self.kind]} "
                "(added to any the card answers)")


@dataclass(frozen=True)
class Mark(Effect):
    """A seat field of the state schema takes the seat ``who`` names (who played the
    draw card being answered: ``offender``)."""

    field: str
    who: Who

    def run(self, game: Concrete, b: Binding) -> None:
        setattr(game, self.field, seat_of(game, b, self.who))

    def encode(self, spec: Symbolic, s: Any, b: Binding, tag: str) -> tuple[Any, list[Term]]:
        return spec.marked(s, self.field, seat_term(spec, s, b, self.who)), []

    def text(self) -> str:
        return f"`{self.field}` is the {self.who.value}"


@dataclass(frozen=True)
class NoteEffect(Effect):
    """The card's effect is named, under ``rule``, as what decided whose turn it is (the
    card on the discard, the next player as its victim, and whether the card was the one
    just drawn); None: nothing is. Bookkeeping of the engine's refusal words and causes,
    no state, so the relation reads it as no change. Runs before the turn moves and the
    phase changes, whose values it reads."""

    rule: str | None

    def run(self, game: Concrete, b: Binding) -> None:
        rule = self.rule
        game.cause = None if rule is None else (rule, b.actor, game.top, game._next(b.actor),
                                                game.phase == DRAWN)

    def encode(self, spec: Symbolic, s: Any, b: Binding, tag: str) -> tuple[Any, list[Term]]:
        return s, []

    def text(self) -> str:
        if self.rule is None:
            return "no earlier move is named as the cause any more"
        return f"the card is named as the cause ({self.rule})"


@dataclass(frozen=True)
class PassHands(Effect):
    """SEVEN-O: the actor's hand and the target's change places (``swap``), or every
    hand moves to the next seat in the direction of play. The UNO window then stays open
    only while its player holds one card (UNO-1: a window is about a hand of one)."""

    swap: bool

    def run(self, game: Concrete, b: Binding) -> None:
        hands = game.hands
        if self.swap:
            a, t = b.actor, b.target
            hands[a], hands[t] = hands[t], hands[a]
        else:
            n, d = len(hands), game.direction
            hands[:] = [hands[(p - d) % n] for p in range(n)]
        w = game.uno_window
        if w is not None and len(hands[w]) != 1:
            game.uno_window = None

    def encode(self, spec: Symbolic, s: Any, b: Binding, tag: str) -> tuple[Any, list[Term]]:
        return spec.hands_passed(s, b.actor, b.target if self.swap else None), []

    def text(self) -> str:
        if self.swap:
            return ("the actor's hand and the target's change places; the UNO window stays "
                    "open only while its player holds one card")
        return ("every hand passes to the next player in the direction of play; the UNO "
                "window stays open only while its player holds one card")


@dataclass(frozen=True)
class NoteOut(Effect):
    """END-1: a player who has just played their last card, the first to go out, is noted
    as the winner-to-be; they win once every draw is resolved (:class:`EndIfOut`). The
    relation holds no winner before the round ends (its round's end finds the seat with no
    cards), so it reads this as no change."""

    def run(self, game: Concrete, b: Binding) -> None:
        if not game.hands[b.actor] and game.winner is None:
            game.winner = b.actor

    def encode(self, spec: Symbolic, s: Any, b: Binding, tag: str) -> tuple[Any, list[Term]]:
        return s, []

    def text(self) -> str:
        return "a player who has just gone out first is noted as the winner-to-be (END-1)"


@dataclass(frozen=True)
class EndIfOut(Effect):
    """END-1 and SCORE-1: if the player who went out still holds no card, they win and
    the round ends; if a challenge gave them cards back, it goes on."""

    def run(self, game: Concrete, b: Binding) -> None:
        game._round_end_check()

    def encode(self, spec: Symbolic, s: Any, b: Binding, tag: str) -> tuple[Any, list[Term]]:
        return spec.round_end_check(s), []

    def text(self) -> str:
        return "if the player who went out holds no card, they win the round (END-1, SCORE-1)"


@dataclass(frozen=True)
class EndRound(Effect):
    """END-1 and SCORE-1: the actor, out of cards, wins the round at once."""

    def run(self, game: Concrete, b: Binding) -> None:
        game._end_round(b.actor)

    def encode(self, spec: Symbolic, s: Any, b: Binding, tag: str) -> tuple[Any, list[Term]]:
        return spec.round_end_check(s), []  # the one seat with no cards: the actor's

    def text(self) -> str:
        return "the actor wins the round and scores it (END-1, SCORE-1)"


def encode_all(steps: tuple[Effect, ...], spec: Symbolic, s: Any, b: Binding,
               tag: str) -> tuple[Any, list[Term]]:
    """The symbolic state after ``steps`` in order, and their constraints on chance."""
    cons: list[Term] = []
    for step in steps:
        s, more = step.encode(spec, s, b, tag)
        cons += more
    return s, cons


@dataclass(frozen=True)
class When(Effect):
    """A branch of an effect: ``then`` when ``cond`` holds at this point of the effect,
    else ``otherwise``; ``labels`` name the two ways for coverage and the words.

    The relation builds only the way a table value or the player counts asked about
    decide (``Symbolic.decided``); else both, the condition choosing between their states,
    the chance constants of ``otherwise`` named apart by ``part``."""

    cond: Cond
    then: tuple[Effect, ...]
    otherwise: tuple[Effect, ...]
    labels: tuple[str, str]
    part: str = ""
    # what coverage counts of each way (None: nothing)
    covers: tuple[Label | None, Label | None] = (None, None)

    def run(self, game: Concrete, b: Binding) -> None:
        holds = self.cond.holds(game, b)
        if game.ran is not None:
            _count(game, self.covers[0] if holds else self.covers[1])
        for step in self.then if holds else self.otherwise:
            step.run(game, b)

    def counted(self) -> tuple[Label, ...]:
        return tuple(x for x in self.covers if x is not None)

    def encode(self, spec: Symbolic, s: Any, b: Binding, tag: str) -> tuple[Any, list[Term]]:
        cond = self.cond.encode(spec, s, b)
        known = spec.decided(cond)
        if known is not None:
            return encode_all(self.then if known else self.otherwise, spec, s, b, tag)
        a, then = encode_all(self.then, spec, s, b, tag)
        o, otherwise = encode_all(self.otherwise, spec, s, b, tag + self.part)
        return spec.chosen(cond, a, o), [spec.picked(cond, spec.both(then),
                                                       spec.both(otherwise))]

    def text(self) -> str:
        return f"if {self.cond.text()}: {self.labels[0]}; otherwise {self.labels[1]}"

    def lines(self) -> list[str]:
        said = [f"- if {self.cond.text()} (`{self.labels[0]}`):"]
        said += [f"  {line}" for step in self.then for line in step.lines()] or \
            ["  - then nothing more"]
        said.append(f"- otherwise (`{self.labels[1]}`):")
        said += [f"  {line}" for step in self.otherwise for line in step.lines()] or \
            ["  - then nothing more"]
        return said

    def walk(self) -> tuple[Effect, ...]:
        return (self, *(e for step in self.then + self.otherwise for e in step.walk()))

    def replaced(self, change: Callable[[Effect], Effect]) -> Effect:
        return change(dataclasses.replace(
            self, then=tuple(step.replaced(change) for step in self.then),
            otherwise=tuple(step.replaced(change) for step in self.otherwise)))


@dataclass(frozen=True)
class Branch:
    """One outcome of a command, taken when ``when`` holds (a command's branches exclude
    each other); its label names it in the relation and in coverage."""

    label: str
    cites: tuple[str, ...]
    when: Cond
    guard: tuple[Conjunct, ...]
    effect: tuple[Effect, ...]


# ------------------------------------------------------------------ the start card


@dataclass(frozen=True)
class OnlyKindLeft(Cond):
    """Every card left in the pile is a ``kind`` (START-WD4's card turned again finds no
    other, EXT-START)."""

    kind: Kind

    def holds(self, game: Concrete, b: Binding) -> bool:
        kinds = game.f_kind
        return all(kinds[c] is self.kind for c in game.pile)

    def encode(self, spec: Symbolic, s: Any, b: Binding) -> Term:
        return spec.only_kind_left(s, self.kind)

    def text(self) -> str:
        return f"every card left in the pile is a {KIND_NAMES[self.kind]}"


@dataclass(frozen=True)
class TurnUp(Effect):
    """DEAL-2: the card on top of the pile (the move's card, a ``kind``: chance's) is
    turned onto the discard."""

    kind: Kind

    def run(self, game: Concrete, b: Binding) -> None:
        game._turn_up(b.card)

    def encode(self, spec: Symbolic, s: Any, b: Binding, tag: str) -> tuple[Any, list[Term]]:
        return spec.turned_up(s, b.card, self.kind), []

    def text(self) -> str:
        return "the card on top of the pile is turned onto the discard"


@dataclass(frozen=True)
class TurnAgain(Effect):
    """START-WD4: the card goes back into the pile, shuffled, and another is turned: a
    chance node (the pile's new order), under ``rule``. The state is the dealt one again,
    so the relation reads it as no change."""

    rule: str

    def run(self, game: Concrete, b: Binding) -> None:
        game._turn_again(self.rule)

    def encode(self, spec: Symbolic, s: Any, b: Binding, tag: str) -> tuple[Any, list[Term]]:
        return s, []

    def text(self) -> str:
        return "the card goes back into the pile, which is shuffled, and another is turned"


@dataclass(frozen=True)
class StartAt(Effect):
    """DEAL-3 or the start rule: the player ``seats`` to the dealer's left plays first, in
    ``direction`` (+1 to the left), on the color of the card turned (a ``kind``)."""

    seats: int
    direction: int
    kind: Kind

    def run(self, game: Concrete, b: Binding) -> None:
        game._start_at(self.seats, self.direction, b.card)

    def encode(self, spec: Symbolic, s: Any, b: Binding, tag: str) -> tuple[Any, list[Term]]:
        return spec.started_at(s, b.actor, self.seats, self.direction, b.card, self.kind), []

    def text(self) -> str:
        who = "the dealer" if self.seats == 0 else f"the player {self.seats} to the " \
            "dealer's left"
        way = "to the left" if self.direction == 1 else "to the right"
        return f"{who} plays first, {way}, on the card's color"


@dataclass(frozen=True)
class NoteStart(Effect):
    """The start card is named, under ``rule``, as what decided who moves first (the
    refusals that follow name it). Bookkeeping of the engine, no state."""

    rule: str

    def run(self, game: Concrete, b: Binding) -> None:
        game._note_start(self.rule, b.card)

    def encode(self, spec: Symbolic, s: Any, b: Binding, tag: str) -> tuple[Any, list[Term]]:
        return s, []

    def text(self) -> str:
        return f"{self.rule} is named as the cause"


@dataclass(frozen=True)
class RandomColor(Effect):
    """The current color is chance's, each of the deck's colors alike (a start Wild under
    ``color_at_random``), under ``rule``."""

    rule: str

    def run(self, game: Concrete, b: Binding) -> None:
        game._random_color(self.rule)

    def encode(self, spec: Symbolic, s: Any, b: Binding, tag: str) -> tuple[Any, list[Term]]:
        post, cons = spec.random_color(s, tag)
        return post, [cons]

    def text(self) -> str:
        return "the color is drawn at random, each color alike"


@dataclass(frozen=True)
class PassOn(Effect):
    """The turn goes ``steps`` seats on from the player to move (a start card's first
    player loses their turn)."""

    steps: int = 1

    def run(self, game: Concrete, b: Binding) -> None:
        game.turn = game._next(game.turn, self.steps)

    def encode(self, spec: Symbolic, s: Any, b: Binding, tag: str) -> tuple[Any, list[Term]]:
        return spec.turn_passed(s, s.turn, self.steps), []

    def text(self) -> str:
        return "the player to move loses the turn"


# -------------------------------------------------------------------- the deal


@dataclass(frozen=True)
class GameOver(Cond):
    """Someone has reached the target score (SCORE-2)."""

    def holds(self, game: Concrete, b: Binding) -> bool:
        return game.game_over

    def encode(self, spec: Symbolic, s: Any, b: Binding) -> Term:
        return spec.game_over(s)

    def text(self) -> str:
        return "someone has reached the target score"


@dataclass(frozen=True)
class PassDeal(Effect):
    """END-2: the deal passes to the round's winner (``to_winner``), or to the dealer's
    left."""

    to_winner: bool

    def run(self, game: Concrete, b: Binding) -> None:
        winner = game.winner
        if self.to_winner and winner is not None:
            game.dealer = winner
        else:
            game.dealer = (game.dealer + 1) % game.n

    def encode(self, spec: Symbolic, s: Any, b: Binding, tag: str) -> tuple[Any, list[Term]]:
        return spec.dealer_passed(s, self.to_winner), []

    def text(self) -> str:
        return "the round's winner deals" if self.to_winner else \
            "the player to the dealer's left deals"


@dataclass(frozen=True)
class Deal(Effect):
    """DEAL-2: everything is shuffled and ``cards`` dealt to each player, the rest the
    pile, the start card not yet turned; the scores stay. A chance node (the shuffle)."""

    cards: int

    def run(self, game: Concrete, b: Binding) -> None:
        game._deal_next(self.cards)

    def encode(self, spec: Symbolic, s: Any, b: Binding, tag: str) -> tuple[Any, list[Term]]:
        post, cons = spec.dealt_anew(s, self.cards, tag)
        return post, [cons]

    def text(self) -> str:
        return f"everything is shuffled and {self.cards} cards are dealt to each player"


# -------------------------------------------------------------------- coverage


@dataclass(frozen=True)
class Label:
    """A branch of a rule that coverage counts when it runs: ``rule``'s ``branch``, what it
    is in words, the kinds of card it needs (none dealt: it is dead "by deck"), and whether
    only the mover may know it ran (``secret``)."""

    rule: str
    branch: str
    text: str
    kinds: tuple[Kind, ...] = ()
    # HIDDEN-1: what the mover's own hidden cards decide (a Wild Draw Four's legality
    # when played, the victim's unanswerable draw card): known to the mover alone, so a
    # seat's view (unoformal.show.seat) leaves it out for every other seat
    secret: bool = False


def _count(game: Concrete, label: Label | None) -> None:
    ran = game.ran
    if ran is not None and label is not None:
        ran.append((label.rule, label.branch))


@dataclass(frozen=True)
class Shows(Effect):
    """Coverage: this point of the effect ran, and it is ``label``. No state changes, so
    the relation reads it as none; the engine notes it only while coverage is counted
    (``ran`` a list), one test of a field otherwise."""

    label: Label

    def run(self, game: Concrete, b: Binding) -> None:
        _count(game, self.label)

    def encode(self, spec: Symbolic, s: Any, b: Binding, tag: str) -> tuple[Any, list[Term]]:
        return s, []

    def text(self) -> str:
        return f"it counts as `{self.label.rule} {self.label.branch}`"

    def lines(self) -> list[str]:
        return []  # the rules document lists what coverage counts apart

    def counted(self) -> tuple[Label, ...]:
        return (self.label,)


@dataclass(frozen=True)
class Sorts(Effect):
    """Coverage: which of two labels this point of the effect is, by ``cond`` on the state
    here (``yes`` when it holds; None: no label). ``cond`` is asked only while coverage is
    counted, and only of the concrete game: the relation reads this as no change."""

    cond: Cond
    yes: Label | None
    no: Label | None = None

    def run(self, game: Concrete, b: Binding) -> None:
        if game.ran is not None:
            _count(game, self.yes if self.cond.holds(game, b) else self.no)

    def encode(self, spec: Symbolic, s: Any, b: Binding, tag: str) -> tuple[Any, list[Term]]:
        return s, []

    def text(self) -> str:
        said = [f"`{x.rule} {x.branch}`" for x in (self.yes, self.no) if x is not None]
        return f"it counts as {' or '.join(said)}, by whether {self.cond.text()}"

    def lines(self) -> list[str]:
        return []

    def counted(self) -> tuple[Label, ...]:
        return tuple(x for x in (self.yes, self.no) if x is not None)


@dataclass(frozen=True)
class Both(Cond):
    """Every one of ``parts`` holds."""

    parts: tuple[Cond, ...]

    def holds(self, game: Concrete, b: Binding) -> bool:
        return all(part.holds(game, b) for part in self.parts)

    def encode(self, spec: Symbolic, s: Any, b: Binding) -> Term:
        return spec.both([part.encode(spec, s, b) for part in self.parts])

    def text(self) -> str:
        return " and ".join(part.text() for part in self.parts)

    def in_phase(self, phase: str) -> Cond | bool:
        left: list[Cond] = []
        for part in self.parts:
            known = part.in_phase(phase)
            if known is False:
                return False
            if known is not True:
                left.append(known)
        return True if not left else left[0] if len(left) == 1 else Both(tuple(left))


@dataclass(frozen=True)
class Either(Cond):
    """At least one of ``parts`` holds: the language's disjunction (a rule that allows a
    move in one state or another, stated once for the engine, Z3 and the words)."""

    parts: tuple[Cond, ...]

    def holds(self, game: Concrete, b: Binding) -> bool:
        for part in self.parts:  # noqa: SIM110 - compiled, a loop beats any()
            if part.holds(game, b):
                return True
        return False

    def encode(self, spec: Symbolic, s: Any, b: Binding) -> Term:
        return spec.either([part.encode(spec, s, b) for part in self.parts])

    def text(self) -> str:
        return " or ".join(f"({part.text()})" if isinstance(part, Both) else part.text()
                           for part in self.parts) or "never"

    def in_phase(self, phase: str) -> Cond | bool:
        left: list[Cond] = []
        for part in self.parts:
            known = part.in_phase(phase)
            if known is True:
                return True
            if known is not False:
                left.append(known)
        return False if not left else left[0] if len(left) == 1 else Either(tuple(left))


@dataclass(frozen=True)
class Unless(Cond):
    """``part`` does not hold."""

    part: Cond

    def holds(self, game: Concrete, b: Binding) -> bool:
        return not self.part.holds(game, b)

    def encode(self, spec: Symbolic, s: Any, b: Binding) -> Term:
        return spec.negated(self.part.encode(spec, s, b))

    def text(self) -> str:
        return f"not ({self.part.text()})"

    def in_phase(self, phase: str) -> Cond | bool:
        known = self.part.in_phase(phase)
        return (not known) if isinstance(known, bool) else Unless(known)


@dataclass(frozen=True)
class SaysUno(Cond):
    """The move says UNO with its card (UNO-1)."""

    def holds(self, game: Concrete, b: Binding) -> bool:
        return bool(b.uno)

    def text(self) -> str:
        return "the player says UNO with the card"


@dataclass(frozen=True)
class CardOfColor(Cond):
    """The move's card is of the current color."""

    def holds(self, game: Concrete, b: Binding) -> bool:
        return bool(game.f_color[b.card] == game.color)

    def text(self) -> str:
        return "the card is of the current color"


@dataclass(frozen=True)
class NamesCurrent(Cond):
    """The color the move names is the current one (WILD-1)."""

    def holds(self, game: Concrete, b: Binding) -> bool:
        return bool(b.color == game.color)

    def text(self) -> str:
        return "the color named is the current color"


@dataclass(frozen=True)
class OnOtherColor(Cond):
    """The discard's top is a card of ``kind`` of another color than the move's card."""

    kind: Kind

    def holds(self, game: Concrete, b: Binding) -> bool:
        top = game.top
        return top is not None and game.f_kind[top] is self.kind \
            and game.f_color[top] != game.f_color[b.card]

    def text(self) -> str:
        return f"the top of the discard is a {KIND_NAMES[self.kind]} of another color"


@dataclass(frozen=True)
class HoldsKind(Cond):
    """The actor holds a card of ``kind``."""

    kind: Kind

    def holds(self, game: Concrete, b: Binding) -> bool:
        kinds = game.f_kind
        for face in game.hands[b.actor]:  # noqa: SIM110 - compiled, a loop beats any()
            if kinds[face] is self.kind:
                return True
        return False

    def encode(self, spec: Symbolic, s: Any, b: Binding) -> Term:
        return spec.holds_kind(s, b.actor, self.kind)

    def text(self) -> str:
        return f"the actor holds a {KIND_NAMES[self.kind]}"


@dataclass(frozen=True)
class ColorKept(Cond):
    """The color before the Wild Draw Four is the one its player named (CHAL-4)."""

    def holds(self, game: Concrete, b: Binding) -> bool:
        return game.prev_color == game.color

    def text(self) -> str:
        return "the color before the Wild Draw Four is the one named"


def _first_failing(guard: tuple[Conjunct, ...], game: Concrete,
                   b: Binding) -> Conjunct | None:
    for part in guard:
        if not part.cond.holds(game, b):
            return part
    return None


def in_phase(guard: tuple[Conjunct, ...], phase: str) -> tuple[Conjunct, ...] | None:
    """``guard`` in a state known to be in ``phase`` (``Cond.in_phase``): the conjuncts
    the phase does not decide, each reduced to what is left of it; None when the phase
    alone refuses it. It holds in such a state exactly when ``guard`` does; which
    conjunct fails first, and its words, are asked of the whole guard."""
    out: list[Conjunct] = []
    for part in guard:
        left = part.cond.in_phase(phase)
        if left is False:
            return None
        if left is not True:
            out.append(part if left is part.cond else dataclasses.replace(part, cond=left))
    return tuple(out)


def _uncounted(steps: tuple[Effect, ...]) -> tuple[Effect, ...]:
    out: list[Effect] = []
    for step in steps:
        if isinstance(step, (Shows, Sorts)):
            continue
        if isinstance(step, When):
            step = dataclasses.replace(step, then=_uncounted(step.then),
                                       otherwise=_uncounted(step.otherwise))
        out.append(step)
    return tuple(out)


def labels_of(command: Command) -> list[Label]:
    """What coverage may count of ``command``, in the order of its effect."""
    steps = command.effect + tuple(s for branch in command.branches for s in branch.effect)
    return [label for step in steps for node in step.walk() for label in node.counted()]


# -------------------------------------------------------------------- commands


@dataclass(frozen=True)
class Command:
    """One move: who makes it, what it chooses, when it is allowed, what it does."""

    name: str
    cites: tuple[str, ...]
    actor: Actor
    choices: tuple[Who, ...]
    guard: tuple[Conjunct, ...]
    effect: tuple[Effect, ...]
    prose: str  # what the move is, in a sentence (the rules document)
    branches: tuple[Branch, ...] = ()  # its outcomes, after the common effect

    def taken(self, game: Concrete, b: Binding) -> Branch | None:
        """The branch the state takes (None for a command without branches)."""
        for branch in self.branches:
            if branch.when.holds(game, b):
                return branch
        return None

    def failing(self, game: Concrete, b: Binding) -> Conjunct | None:
        """The first conjunct that fails, or None when allowed: the command's conjuncts,
        then those of the branch the state takes."""
        return self.failing_of(self.guard, game, b)

    def failing_of(self, guard: tuple[Conjunct, ...], game: Concrete,
                   b: Binding) -> Conjunct | None:
        """:meth:`failing`, the command's guard given as ``guard``: its own, or it reduced
        for the phase the state is known to be in (:func:`in_phase`)."""
        part = _first_failing(guard, game, b)
        if part is not None:
            return part
        branch = self.taken(game, b)
        return None if branch is None else _first_failing(branch.guard, game, b)

    def refusal(self, game: Concrete, b: Binding) -> tuple[str, str] | None:
        """The rule and words of the first conjunct that fails, or None when allowed."""
        part = self.failing(game, b)
        return None if part is None else part.refusal(game, b)

    def allows(self, game: Concrete, b: Binding) -> bool:
        return self.failing(game, b) is None

    def run(self, game: Concrete, b: Binding) -> str:
        """Make the move; the label of the branch that ran (the command's name when it
        has none)."""
        for step in self.effect:
            step.run(game, b)
        branch = self.taken(game, b)
        if branch is None:
            return self.name
        for step in branch.effect:
            step.run(game, b)
        return branch.label

    def uncounted(self) -> Command:
        """The command without what coverage counts (``Shows``, ``Sorts``): what the
        engine runs while nobody counts, so that a label costs nothing in play."""
        return dataclasses.replace(
            self, effect=_uncounted(self.effect),
            branches=tuple(dataclasses.replace(b, effect=_uncounted(b.effect))
                           for b in self.branches))

    def encode_guard(self, spec: Symbolic, s: Any, b: Binding) -> Term:
        return spec.both([part.cond.encode(spec, s, b) for part in self.guard])

    def encode_effect(self, spec: Symbolic, s: Any, b: Binding, tag: str,
                      branch: Branch | None = None) -> tuple[Any, list[Term]]:
        """The post-state and the constraints on the cards chance handed out (of the
        common effect, then ``branch``'s)."""
        return encode_all(self.effect + (branch.effect if branch is not None else ()),
                          spec, s, b, tag)

    def encode_branch(self, spec: Symbolic, s: Any, b: Binding, branch: Branch) -> Term:
        """The guard of ``branch``: the command's, the branch's condition and its own."""
        parts = [part.cond.encode(spec, s, b) for part in self.guard]
        parts.append(branch.when.encode(spec, s, b))
        parts += [part.cond.encode(spec, s, b) for part in branch.guard]
        return spec.both(parts)

    def text(self) -> list[str]:
        """The command in words: the lines of the rules document's "how it is played"."""
        lines = [f"`{self.name}` ({', '.join(self.cites)}): {self.prose}",
                 f"- who: {self.actor.value}"
                 + (f"; chooses a {', '.join(c.value for c in self.choices)}"
                    if self.choices else "")]
        lines += [f"- only if {part.cond.text()} ({part.cited()})" for part in self.guard]
        lines += [line for step in self.effect for line in step.lines()]
        for branch in self.branches:
            lines.append(f"- `{branch.label}` ({', '.join(branch.cites)}), when "
                         f"{branch.when.text()}:")
            lines += [f"  - only if {part.cond.text()} ({part.cited()})"
                      for part in branch.guard]
            lines += [f"  {line}" for step in branch.effect for line in step.lines()]
        return lines
