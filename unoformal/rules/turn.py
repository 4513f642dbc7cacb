"""The moves of a turn other than a play: drawing, keeping the drawn card, passing with
nothing to draw, a misplay's penalty, and the first player's color for a start Wild,
stated once as guarded commands (:mod:`unoformal.language`) for a table (DRAW-1,
EXT-PASS, MISPLAY-1, START-WILD).

Whether a card may be played is the play's to say (``unoformal.rules.play.playable``,
which the engine's ``_can_play`` and the relation's ``Spec.can_play`` read); the
conditions here ask it.

The engine routes a move to its command after two checks that belong to no move: it must
be the actor's turn (PLAY-1), and a round waiting for a color or for an answer to a draw
card takes only that (START-WILD, WD4-2).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from unoformal.language.commands import Command
from unoformal.language.conditions import (
    PENDING_RULE,
    Both,
    CanDraw,
    CanPlay,
    CardPlayable,
    CardsLeft,
    Conjunct,
    DrawnPlayable,
    Fixed,
    HoldsCard,
    PhaseIn,
    PhaseIs,
    PhaseNot,
    SomeWindow,
    Unless,
    WindowOf,
)
from unoformal.language.coverage import Label
from unoformal.language.effects import (
    Clear,
    Effect,
    NoteCause,
    SetColor,
    SetPhase,
    Shows,
    Sorts,
    Take,
)
from unoformal.language.protocols import Actor, Who
from unoformal.rulebook.cards import Kind
from unoformal.rulebook.table import CatchUntil, RuleTable
from unoformal.rules.ends import PASS_ENDS, TURN_ENDS
from unoformal.rules.house import changed
from unoformal.rules.state import COLOR, DRAWN, MORE, PLAY, RESPOND

# DRAW-1 in the refusal of a pass before any draw: what a pass is in the rules
PASS_AFTER_DRAWING = "pass only after drawing (keep the drawn card)"

def color_first(table: RuleTable) -> Conjunct:
    """START-WILD: while the first player is to name the color, no other move is made."""
    return Conjunct(PhaseNot(COLOR), table.start_wild.id,
                    "the first player must choose the color first")


# WD4-2 (D2-1 under stacking): while a draw card waits, its victim may only answer it; the
# refusal says how, under the rule of that card.
ANSWER_FIRST = Conjunct(PhaseNot(RESPOND), PENDING_RULE, "{actor} must {may}", caused=True)


def waiting(table: RuleTable) -> tuple[Conjunct, ...]:
    """What a move other than an answer waits for: the color, then the answer."""
    return color_first(table), ANSWER_FIRST


def turn_begins(table: RuleTable) -> tuple[Effect, ...]:
    """UNO-1: a turn begins (a play, a draw, a misplay) and any UNO window closes; coverage
    counts it when the window was another player's, whose missed UNO is now safe. Read
    ``any-time`` (UNO-1's catch_until), a turn closes nothing: the window lasts while its
    player holds the card (a hand grown back, a catch or a late UNO closes it)."""
    if table.uno.catch_until is CatchUntil.ANY_TIME:
        return ()
    closes = Label(table.uno.id, "window-closes", "the next turn begins: the missed UNO is "
                   "safe")
    return (Sorts(Both((SomeWindow(), Unless(WindowOf(Who.ACTOR)))), closes),
            Clear("uno_window"))


def draw(table: RuleTable) -> Command:
    """DRAW-1: the player to move draws, then may play the card drawn or keep it."""
    rule = table.draw
    guard = [
        *waiting(table),
        *((Conjunct(PhaseNot(MORE), table.several.id, "after a number card a player plays "
                    "more of its number or passes, and draws no card"),)
          if table.several.enabled else ()),
        Conjunct(PhaseIs(PLAY), rule.id, "one draw per turn", caused=True),
        Conjunct(CardsLeft(1), table.pass_when_nothing_to_draw.id, "nothing is left to draw"),
    ]
    if not rule.may_draw_when_able_to_play:
        guard.append(Conjunct(CanPlay(Who.ACTOR, False), rule.id,
                              "a player able to play may not draw in these rules"))
    return changed(table, Command(
        "draw", (rule.id,), Actor.ON_TURN, (), tuple(guard),
        (*turn_begins(table), Shows(Label(rule.id, "draw", "a player draws")),
         Take(Who.ACTOR, rule.cards, rule.id, keeps=True), SetPhase(DRAWN),
         NoteCause(rule.id)),
        "the player to move draws from the pile instead of playing"))


def keep(table: RuleTable) -> Command:
    """DRAW-1: after drawing, the player keeps the card drawn and the turn passes."""
    rule = table.draw
    guard = [*waiting(table), Conjunct(PhaseIs(DRAWN), rule.id, PASS_AFTER_DRAWING)]
    if rule.must_play_drawn:
        guard.append(Conjunct(DrawnPlayable(False), rule.id,
                              "{actor} may not keep the drawn card", caused=True))
    return changed(table, Command(
        "keep", (rule.id,), Actor.ON_TURN, (), tuple(guard),
        (Shows(Label(rule.id, "keep-drawn", "the drawn card kept: the turn ends")),
         NoteCause(None), *PASS_ENDS),
        "a player who drew keeps the card and passes"))


def stop(table: RuleTable) -> Command | None:
    """SEVERAL: a player who kept the turn after a number card passes, ending it (none
    where the house rule is off)."""
    rule = table.several
    if not rule.enabled:
        return None
    return changed(table, Command(
        "stop", (rule.id,), Actor.ON_TURN, (),
        (Conjunct(PhaseIs(MORE), rule.id, "only after a number card may a player stop"),),
        (Shows(Label(rule.id, "stop", "no more cards of the number: the turn ends")),
         NoteCause(None), *TURN_ENDS),
        "a player who kept the turn after a number card plays no more and passes"))


def pass_nothing_to_draw(table: RuleTable) -> Command:
    """EXT-PASS: with nothing left to draw, the player to move passes."""
    rule = table.pass_when_nothing_to_draw
    return changed(table, Command(
        "pass_nothing_to_draw", (rule.id,), Actor.ON_TURN, (),
        # One conjunct, so a rule file that lets a player pass otherwise (a hand limit)
        # restates when, in its words, with `when`
        (*waiting(table),
         Conjunct(Both((Fixed(rule.enabled, "a player with nothing to draw passes"),
                        PhaseIs(PLAY), CardsLeft(1, False))), table.draw.id,
                  PASS_AFTER_DRAWING)),
        (Shows(Label(rule.id, "pass", "nothing to draw: the player passes")),
         NoteCause(None), *PASS_ENDS),
        "a player who cannot play and finds nothing left to draw passes"))


def misplay(table: RuleTable) -> Command:
    """MISPLAY-1: a card that may not be played is shown, taken back, and the penalty
    drawn; the table says whether the turn passes."""
    rule = table.misplay
    effect: list[Effect] = [
        *turn_begins(table),
        Shows(Label(rule.id, "misplay", "an incorrect card taken back, penalty, turn passes")),
        Take(Who.ACTOR, rule.cards, rule.id), Clear("drawn")]
    if rule.turn_passes:
        effect += [*TURN_ENDS, NoteCause(rule.id)]
    return changed(table, Command(
        "misplay", (rule.id,), Actor.ON_TURN, (Who.CARD,),
        (*waiting(table),
         Conjunct(PhaseIn((PLAY, DRAWN)), rule.id, "nothing to misplay now"),
         Conjunct(HoldsCard(), rule.id, "{card} is not in {actor}'s hand"),
         Conjunct(CardPlayable(False), rule.id, "{card} is a legal play, not a misplay"),
         Conjunct(CanDraw(rule.cards), table.draw_what_is_left.id,
                  "not enough cards are left for the penalty")),
        tuple(effect),
        "the player to move shows a card that may not be played and takes it back"))


def choose_color(table: RuleTable) -> Command:
    """START-WILD: the first player names the color of a Wild turned up to start."""
    rule = table.start_wild
    return changed(table, Command(
        "choose_color", (rule.id,), Actor.ON_TURN, (Who.COLOR,),
        (ANSWER_FIRST, Conjunct(PhaseIs(COLOR), rule.id, "nothing to choose_color now")),
        (Shows(Label(rule.id, "choose-color", "the first player names the color",
                     (Kind.WILD,))),
         SetColor(), SetPhase(PLAY)),
        "the first player names the color of the Wild turned up to start"))


@dataclass(frozen=True)
class Turn:
    """The section's commands built for one table."""

    draw: Command
    keep: Command
    pass_nothing_to_draw: Command
    misplay: Command
    choose_color: Command
    stop: Command | None = None  # SEVERAL's pass, where the house rule is on

    def all(self) -> tuple[Command, ...]:
        return (self.draw, self.keep, self.pass_nothing_to_draw, self.misplay,
                self.choose_color, *((self.stop,) if self.stop is not None else ()))


@cache
def turn(table: RuleTable) -> Turn:
    """The turn moves of ``table`` (built once per table)."""
    return Turn(draw(table), keep(table), pass_nothing_to_draw(table), misplay(table),
                choose_color(table), stop(table))
