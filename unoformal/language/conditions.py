"""The language's conditions on a state, given a move's seats (:class:`Cond`), each with
three readings: ``holds`` on a concrete game, ``encode`` as a Z3 term, ``text`` in words;
``in_phase`` reduces one where the phase is known. The combinators :class:`Both`,
:class:`Either` and :class:`Unless`, the value folded from a table (:class:`Fixed`), and
the state's facts (:class:`PhaseIs`, :class:`HoldsCard`, :class:`CardsLeft` ...). A
:class:`Conjunct` is a condition in a guard, with the rule it keeps and the words of a
refusal."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from mypy_extensions import mypyc_attr

from unoformal.language.cards import check_template
from unoformal.language.protocols import (
    Binding,
    Concrete,
    Symbolic,
    Term,
    Who,
    _unread,
    seat_of,
    seat_term,
)
from unoformal.rulebook.cards import Kind
from unoformal.rulebook.table import CardEffect
from unoformal.rulebook.words import KIND_NAMES
from unoformal.rules.state import DRAWN, RESPOND

# A conjunct's rule when it is that of the draw card being answered (the state says which)
PENDING_RULE = "{pending_rule}"


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
class SameSeat(Cond):
    """The seat ``a`` names is the seat ``b`` names: a choice of the move or a seat the
    state decides (``Who.NEXT``, read before the move's effect runs)."""

    a: Who
    b: Who

    def holds(self, game: Concrete, b: Binding) -> bool:
        return bool(seat_of(game, b, self.a) == seat_of(game, b, self.b))

    def encode(self, spec: Symbolic, s: Any, b: Binding) -> Term:
        return spec.same(seat_term(spec, s, b, self.a), seat_term(spec, s, b, self.b))

    def text(self) -> str:
        return f"the {self.a.value} is the {self.b.value}"



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
class HandAtLeast(Cond):
    """``who`` holds at least ``cards`` cards (fewer, when ``value`` is False): a house
    rule's hand limit."""

    who: Who
    cards: int
    value: bool = True

    def holds(self, game: Concrete, b: Binding) -> bool:
        return (len(game.hands[b.of(self.who)]) >= self.cards) == self.value

    def encode(self, spec: Symbolic, s: Any, b: Binding) -> Term:
        at_least = spec.at_least(spec.hand_size(s, b.of(self.who)), self.cards)
        return at_least if self.value else spec.negated(at_least)

    def text(self) -> str:
        return (f"the {self.who.value} holds {'at least' if self.value else 'fewer than'} "
                f"{self.cards} card{'s' * (self.cards != 1)}")



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

    def in_phase(self, phase: str) -> Cond | bool:
        return True if phase != RESPOND else self

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
        return spec.reverse_skips(s)

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



@dataclass(frozen=True)
class OnlyKindLeft(Cond):
    """Every card left in the pile is a ``kind``, or one of ``also`` (START-WD4's card
    turned again finds no other, EXT-START; where a start Wild goes back too, a pile of
    Wilds and Wild Draw Fours has none either)."""

    kind: Kind
    also: tuple[Kind, ...] = ()

    def holds(self, game: Concrete, b: Binding) -> bool:
        kinds, kind, also = game.f_kind, self.kind, self.also
        return all(kinds[c] is kind or kinds[c] in also for c in game.pile)

    def encode(self, spec: Symbolic, s: Any, b: Binding) -> Term:
        return spec.only_kind_left(s, (self.kind, *self.also))

    def text(self) -> str:
        names = " or a ".join(KIND_NAMES[k] for k in (self.kind, *self.also))
        return f"every card left in the pile is a {names}"



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



@dataclass(frozen=True)
class SameNumber(Cond):
    """SEVERAL: the move's card is a number card of the top's number (the top a number
    card too)."""

    def holds(self, game: Concrete, b: Binding) -> bool:
        top = game.top
        rank = game.f_rank[b.card]
        return top is not None and rank is not None and game.f_kind[top] is Kind.NUMBER \
            and game.f_kind[b.card] is Kind.NUMBER and game.f_rank[top] == rank

    def encode(self, spec: Symbolic, s: Any, b: Binding) -> Term:
        return spec.same_number(s, b.card)

    def text(self) -> str:
        return "the card is a number card of the top's number"



@dataclass(frozen=True)
class HoldsTopNumber(Cond):
    """SEVERAL: the actor holds a number card of the top's number (the top a number)."""

    def holds(self, game: Concrete, b: Binding) -> bool:
        top = game.top
        if top is None or game.f_kind[top] is not Kind.NUMBER:
            return False
        rank, kinds, ranks = game.f_rank[top], game.f_kind, game.f_rank
        for face in game.hands[b.actor]:
            if kinds[face] is Kind.NUMBER and ranks[face] == rank:
                return True
        return False

    def encode(self, spec: Symbolic, s: Any, b: Binding) -> Term:
        return spec.holds_top_number(s, b.actor)

    def text(self) -> str:
        return "the actor holds a number card of the top's number"

