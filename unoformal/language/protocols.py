"""The rule language's ground: who a move names (:class:`Who`, :class:`Actor`), the seats a
move binds (:class:`Binding`), and the two interfaces its interpreters meet. :class:`Concrete`
is a base class the engine's Game subclasses: it declares the state's fields and the
engine's methods a node calls, so that, compiled, a condition reads ``game.phase`` as a
field of a C struct. :class:`Symbolic` is a protocol the Z3 relation's Spec meets. The
language imports neither the engine nor the relation."""

from __future__ import annotations

from enum import Enum
from typing import Any, Protocol

from mypy_extensions import mypyc_attr

from unoformal.rulebook.cards import Kind
from unoformal.rulebook.deck import Deck
from unoformal.rulebook.table import CardEffect

Term = Any  # a Z3 term (or a Python int the relation folds); opaque here



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
    f_rank: list[int | None]
    # Coverage: the labels of what ran are appended here while it is a list (None: not
    # counted, the engine's default; see :class:`Shows`); a copy starts so.
    ran: list[tuple[str, str]] | None = None
    pile: list[int]
    dealer: int
    n: int
    # END-2's elimination (a house rule): the seats that have left the game, in order
    out: tuple[int, ...] = ()

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

    def _knock_out_at(self, at: int, to_pile: bool) -> None:
        raise _unread(self, "_knock_out_at", "the engine")

    def _can_play(self, p: int, face: int) -> bool:
        raise _unread(self, "_can_play", "the engine")

    def _next(self, seat: int, steps: int = 1) -> int:
        raise _unread(self, "_next", "the engine")

    def _around(self, seat: int, steps: int) -> int:
        raise _unread(self, "_around", "the engine")

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

    def at_least(self, a: Term, b: int) -> Term: ...

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

    def reverse_skips(self, s: Any) -> Term: ...

    def goes_out(self, s: Any, seat: Term) -> Term: ...

    def hands_passed(self, s: Any, actor: Term, target: Term | None) -> Any: ...

    def is_top(self, s: Any, card: Term) -> Term: ...

    def flipped(self, s: Any) -> Any: ...

    def pending_added(self, s: Any, cards: int, kind: Kind) -> Any: ...

    def marked(self, s: Any, field: str, seat: Term) -> Any: ...

    def round_end_check(self, s: Any) -> Any: ...

    def round_won(self, s: Any) -> Any: ...

    def same_number(self, s: Any, card: Term) -> Term: ...

    def holds_top_number(self, s: Any, seat: Term) -> Term: ...

    def turned_up(self, s: Any, face: Term, kind: Kind) -> Any: ...

    def started_at(self, s: Any, dealer: Term, seats: int, direction: int, face: Term,
                   kind: Kind) -> Any: ...

    def random_color(self, s: Any, tag: str) -> tuple[Any, Term]: ...

    def only_kind_left(self, s: Any, kinds: tuple[Kind, ...]) -> Term: ...

    def game_over(self, s: Any) -> Term: ...

    def dealer_passed(self, s: Any, to_winner: bool, before_mover: int | None = None) -> Any: ...

    def dealt_anew(self, s: Any, cards: int, tag: str) -> tuple[Any, Term]: ...

    def dealt_in(self, s: Any) -> Any: ...

    def knocked_out(self, s: Any, at: int, to_pile: bool) -> Any: ...



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



def _unread(node: object, method: str, reading: str) -> TypeError:
    """A node written without one of its readings: every node is read three ways."""
    return TypeError(f"{type(node).__name__} has no reading for {reading}: define its "
                     f"{method}()")
