"""Saying UNO, catching a player who did not, and advice: the out-of-turn moves, stated
once as guarded commands (:mod:`unoformal.language`) for a table.

The UNO window itself opens when a card is played (the play commands' ``OpenWindow``,
:mod:`unoformal.rules.play`), closes when a turn begins (their ``Clear`` and the draw's)
and when the offender's hand grows back (``Game._take`` / ``Spec.take``); the moves here
read and close it.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from unoformal.language.commands import Command
from unoformal.language.conditions import (
    CanDraw,
    Conjunct,
    Differ,
    Fixed,
    HandIs,
    SomeWindow,
    WindowOf,
)
from unoformal.language.coverage import Label
from unoformal.language.effects import Clear, Shows, Take
from unoformal.language.protocols import Actor, Who
from unoformal.rulebook.table import CatchUntil, RuleTable
from unoformal.rules.house import changed

SHORT = "not enough cards are left for the penalty"


def say_uno(table: RuleTable) -> Command:
    """UNO-1: the player whose window is open says UNO before anyone catches them."""
    uno = table.uno
    late = "{actor} has no UNO left to say"
    allowed = uno.say_before_accusation and uno.enabled
    return changed(table, Command(
        "uno", (uno.id,), Actor.ANYONE, (),
        (Conjunct(Fixed(allowed, "UNO may be said after the card, before a catch"),
                  uno.id, late),
         Conjunct(WindowOf(Who.ACTOR), uno.id, late)),
        (Shows(Label(uno.id, "said-afterwards", "UNO said afterwards, before an accusation")),
         Clear("uno_window")),
        "a player who played their next-to-last card without saying UNO says it before "
        "anyone catches them"))


def catch(table: RuleTable) -> Command:
    """UNO-1: another player catches the one whose window is open; they draw the penalty."""
    uno = table.uno
    now = "{target} cannot be caught now: "
    nobody = ("nobody has played their next-to-last card without saying UNO since the "
              "turn began" if uno.catch_until is CatchUntil.NEXT_TURN else
              "no forgotten UNO is open to a catch (one lasts while its player holds the "
              "card, until a later one takes its place)")
    guard = [
        Conjunct(Fixed(uno.enabled, "UNO is called in these rules"), uno.id,
                 "nobody calls UNO in these rules"),
        Conjunct(Differ(Who.ACTOR, Who.TARGET), uno.id, "a player cannot catch themself"),
        Conjunct(SomeWindow(), uno.id, now + nobody),
        Conjunct(WindowOf(Who.TARGET), uno.id, now + "only {window} can, who played their "
                 "next-to-last card without saying UNO"),
    ]
    if uno.catch_only_with_one_card:
        guard.append(Conjunct(HandIs(Who.TARGET, uno.cards_left), uno.id,
                              now + f"they hold {{held}} cards, not {uno.cards_left}"))
    guard.append(Conjunct(CanDraw(uno.penalty), table.draw_what_is_left.id, SHORT))
    return changed(table, Command(
        "catch", (uno.id,), Actor.ANYONE, (Who.TARGET,), tuple(guard),
        (Shows(Label(uno.id, "caught", "a player caught with one card and no UNO draws the "
                     "penalty")),
         Take(Who.TARGET, uno.penalty, uno.id), Clear("uno_window")),
        "a player catches another who played their next-to-last card without saying UNO"))


def advise(table: RuleTable) -> Command:
    """ADVICE-1: a player who gives advice draws the penalty."""
    advice = table.advice
    return changed(table, Command(
        "advise", (advice.id,), Actor.ANYONE, (),
        (Conjunct(Fixed(advice.enabled, "advice is a penalty in these rules"), advice.id,
                  "advice is not a penalty in these rules"),
         Conjunct(CanDraw(advice.cards), table.draw_what_is_left.id, SHORT)),
        (Shows(Label(advice.id, "advise", "a player who advises draws the penalty")),
         Take(Who.ACTOR, advice.cards, advice.id)),
        "a player who advises another on their play is penalised"))


@dataclass(frozen=True)
class OutOfTurn:
    """The section's commands built for one table."""

    say_uno: Command
    catch: Command
    advise: Command

    def all(self) -> tuple[Command, ...]:
        return (self.say_uno, self.catch, self.advise)


@cache
def out_of_turn(table: RuleTable) -> OutOfTurn:
    """The out-of-turn moves of ``table`` (built once per table)."""
    return OutOfTurn(say_uno(table), catch(table), advise(table))
