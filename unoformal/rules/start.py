"""Turning the start card, stated once as a guarded command per kind of card
(:mod:`unoformal.language`) for a table: DEAL-2's card turned, DEAL-3's first player,
the START-* rules and EXT-START.

The dealer makes the move; which card is on top of the pile is chance's (the relation
lets it be any card of the kind left in the pile). One command per kind, as the
relation has one action per kind (``start_number``, ``start_skip`` ...). A kind whose
start rule turns another card (START-WD4) has two branches: ``again``, the card goes back
and the pile is shuffled (the dealt state again, and the command is made once more for
the new top card), and ``only_left``, where the pile holds nothing else: EXT-START makes
it a Wild start card, or, switched off, the round is stuck (no rule says what to do).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from functools import cache

from unoformal.language.commands import Command
from unoformal.language.conditions import OnlyKindLeft, Unless
from unoformal.language.coverage import Label
from unoformal.language.effects import (
    Branch,
    Effect,
    NoteStart,
    PassOn,
    RandomColor,
    SetPhase,
    Shows,
    StartAt,
    Take,
    TurnAgain,
    TurnUp,
)
from unoformal.language.protocols import Actor, Who
from unoformal.rulebook.cards import Kind
from unoformal.rulebook.deck import Deck
from unoformal.rulebook.table import RuleTable, StartRule
from unoformal.rulebook.words import KIND_NAMES
from unoformal.rules.house import knocking
from unoformal.rules.state import COLOR, START

_K = Kind
_WD4 = (_K.WILD_DRAW_FOUR,)
# What coverage counts of a start (the kinds a label needs: dead "by deck" without them)
_TEXTS = {
    _K.DRAW_TWO: "Draw Two start: the first player draws and is skipped",
    _K.SKIP: "Skip start: the first player is skipped",
    _K.REVERSE: "Reverse start: the dealer plays first, to the right",
    _K.WILD: "Wild start: the first player chooses the color",
}


def started(table: RuleTable, kind: Kind, rule: StartRule | None,
            counted: bool = True) -> tuple[Effect, ...]:
    """Who plays first, in which direction and on which color (DEAL-3, or ``rule``), and
    what the start rule does to the first player. ``counted``: coverage counts the rule's
    start (not where EXT-START stands a Wild Draw Four in for a Wild: that is its own)."""
    if rule is None:
        first = table.first_turn
        return (StartAt(first.first_seat, first.direction.step, kind),
                Shows(Label(first.id, "number-start", "a number start card: the dealer's "
                            "left plays first")))
    steps: list[Effect] = [StartAt(rule.first_seat, rule.direction.step, kind)]
    if counted and rule.kind in _TEXTS:
        steps.append(Shows(Label(rule.id, "start", _TEXTS[rule.kind], (rule.kind,))))
    steps.append(NoteStart(rule.id))
    if rule.color_at_random:
        steps.append(RandomColor(rule.id))
    if rule.first_player_draws:
        steps.append(Take(Who.TO_MOVE, rule.first_player_draws, rule.id, ".first"))
    if rule.first_player_loses_turn:
        steps.append(PassOn(1))
    if rule.first_player_chooses_color:
        steps.append(SetPhase(COLOR))
    return tuple(steps)


def start(table: RuleTable, kind: Kind) -> Command:
    """The dealer turns a start card of ``kind``; its start rule (or DEAL-3) applies."""
    rule = table.start_rule(kind)
    name = f"start_{kind.name.lower()}"
    cites = (table.deal.id, rule.id if rule is not None else table.first_turn.id)
    prose = f"the dealer turns the top card of the pile to start: a {KIND_NAMES[kind]}"
    if rule is None or not rule.turn_another_card:
        return knocking(table, Command(name, cites, Actor.DEALER, (Who.CARD,), (),
                                       (TurnUp(kind), *started(table, kind, rule)), prose))
    ext = table.start_with_only_wd4_left
    # Every kind whose start card goes back: where a start Wild goes back too, a pile of
    # Wilds and Wild Draw Fours is one where no start card can stay
    back = tuple(k for k in Kind if k is not kind and (other := table.start_rule(k))
                 is not None and other.turn_another_card)
    if ext.enabled:
        left: tuple[Effect, ...] = (
            TurnUp(kind), Shows(Label(ext.id, "wd4-stays", "only Wild Draw Fours left: the "
                                      "start card stays as a Wild", _WD4)),
            *started(table, kind, _stays(table), counted=False))
    else:
        left = (TurnUp(kind), SetPhase(START))  # EXT-START off: stuck, no rule says more
    return knocking(table, Command(
        name, cites, Actor.DEALER, (Who.CARD,), (), (), prose,
        (Branch(name, (rule.id,), Unless(OnlyKindLeft(kind, back)), (),
                (Shows(Label(rule.id, "turned-again", f"{KIND_NAMES[kind]} start: back in "
                             "the deck, another card turned", (kind,))), TurnAgain(rule.id))),
         Branch(f"{name}_only_left", (ext.id,), OnlyKindLeft(kind, back), (), left))))


def _stays(table: RuleTable) -> StartRule:
    """EXT-START's start card that stays: START-WILD, whose color the first player
    names even where a start Wild goes back (nothing else would name it)."""
    wild = table.start_wild
    if wild.first_player_chooses_color or wild.color_at_random:
        return wild
    return replace(wild, first_player_chooses_color=True, turn_another_card=False)


@dataclass(frozen=True)
class Starts:
    """The start of each kind of card the deck holds, built for one table."""

    commands: dict[Kind, Command]

    def all(self) -> tuple[Command, ...]:
        return tuple(self.commands.values())


@cache
def starts(table: RuleTable) -> Starts:
    """The start commands of ``table``, one per kind its deck holds (built once)."""
    held = {face.kind for face in Deck.of(table).faces}
    return Starts({k: start(table, k) for k in Kind if k in held})

