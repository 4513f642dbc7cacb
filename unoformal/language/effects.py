"""The language's effects: primitives over the state schema's fields (:class:`Take`, a
draw and the chance player's node; :class:`SetPhase`, :class:`PassTurn`, :class:`SetColor`
...), each run on a concrete game (``run``) and encoded as a Z3 transition
(``encode``), with its words (``text``); :class:`When`, a branch on a condition; the start
card's and the next deal's steps; and coverage's points (:class:`Shows`, :class:`Sorts`)."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from mypy_extensions import mypyc_attr

from unoformal.language.conditions import Cond, Conjunct
from unoformal.language.coverage import Label, _count
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
from unoformal.rulebook.words import KIND_NAMES
from unoformal.rules.state import DRAWN, RESPOND


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
        else:  # from the seat before, over the players in (END-2: a seat out keeps none)
            d, out = game.direction, game.out
            hands[:] = [hands[p] if p in out else hands[game._around(p, -d)]
                        for p in range(len(hands))]
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
    """END-1 and SCORE-1: the actor, out of cards, wins the round at once; a draw card
    left waiting is nobody's any more (nothing is pending in a round that is over)."""

    def run(self, game: Concrete, b: Binding) -> None:
        game._end_round(b.actor)

    def encode(self, spec: Symbolic, s: Any, b: Binding, tag: str) -> tuple[Any, list[Term]]:
        return spec.round_won(s), []  # the one seat with no cards: the actor's

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



@dataclass(frozen=True)
class KnockOut(Effect):
    """MERCY, the last step of every move of a round: every player in the round holding
    ``at`` cards or more is knocked out at once, in seat order, their cards under the
    draw pile (``to_pile``) or under the discard pile; a player to move knocked out
    passes the turn on (a draw card waiting for them is drawn by nobody; END-1: its
    player, if they went out with it, wins); the last player in wins the round, which
    scores nothing. Nothing is knocked out before the round starts or once it is over."""

    at: int
    to_pile: bool
    rule: str  # the rule it states (MERCY), for the words: no move cites it

    def run(self, game: Concrete, b: Binding) -> None:
        game._knock_out_at(self.at, self.to_pile)

    def encode(self, spec: Symbolic, s: Any, b: Binding, tag: str) -> tuple[Any, list[Term]]:
        return spec.knocked_out(s, self.at, self.to_pile), []

    def text(self) -> str:
        where = "draw pile" if self.to_pile else "discard pile"
        return (f"every player in the round holding {self.at} cards or more is knocked out, "
                f"their cards under the {where}; a player to move knocked out passes the "
                f"turn on, and the last player in wins the round ({self.rule})")


@dataclass(frozen=True)
class Instead(Effect):
    """A step of a move that a house rule replaces: ``steps`` are made where the move said
    ``was`` (none: the rule drops it). It changes nothing itself; it keeps what the step
    was and which rule changed it, for the words."""

    rule: str
    was: str  # the replaced step's words
    steps: tuple[Effect, ...]

    def run(self, game: Concrete, b: Binding) -> None:
        for step in self.steps:
            step.run(game, b)

    def encode(self, spec: Symbolic, s: Any, b: Binding, tag: str) -> tuple[Any, list[Term]]:
        return encode_all(self.steps, spec, s, b, tag)

    def text(self) -> str:
        now = "; ".join(step.text() for step in self.steps) or "nothing"
        return f"instead of \"{self.was}\" ({self.rule}): {now}"

    def lines(self) -> list[str]:
        said = [f"- instead of \"{self.was}\" ({self.rule}):"]
        return said + ([f"  {line}" for step in self.steps for line in step.lines()]
                       or ["  - then nothing"])

    def walk(self) -> tuple[Effect, ...]:
        return (self, *(e for step in self.steps for e in step.walk()))

    def replaced(self, change: Callable[[Effect], Effect]) -> Effect:
        return change(dataclasses.replace(
            self, steps=tuple(step.replaced(change) for step in self.steps)))


@dataclass(frozen=True)
class DealtIn(Effect):
    """MERCY: the players knocked out of the round are back for the next one (before the
    deal passes, so every seat counts)."""

    def run(self, game: Concrete, b: Binding) -> None:
        game.out = ()

    def encode(self, spec: Symbolic, s: Any, b: Binding, tag: str) -> tuple[Any, list[Term]]:
        return spec.dealt_in(s), []

    def text(self) -> str:
        return "every player knocked out of the round is back in (MERCY)"



@dataclass(frozen=True)
class PassDeal(Effect):
    """END-2: the deal passes to the round's winner (``to_winner``), or to the dealer's
    left; or, ``before_mover`` set, to the player that many seats before the one to move
    (who then plays first, DEAL-3)."""

    to_winner: bool
    before_mover: int | None = None

    def run(self, game: Concrete, b: Binding) -> None:
        # seats are counted over the players still in the game (END-2's elimination)
        winner, back = game.winner, self.before_mover
        if back is not None:
            # a player to move who has just left the game: the next one in, to the left
            mover = game._around(game.turn, 1) if game.turn in game.out else game.turn
            game.dealer = game._around(mover, -back)
        elif self.to_winner and winner is not None:
            game.dealer = winner
        else:
            game.dealer = game._around(game.dealer, 1)

    def encode(self, spec: Symbolic, s: Any, b: Binding, tag: str) -> tuple[Any, list[Term]]:
        return spec.dealer_passed(s, self.to_winner, self.before_mover), []

    def text(self) -> str:
        if self.before_mover is not None:
            return (f"the player {self.before_mover} seat(s) before the player to move "
                    "deals")
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
