"""Answering a draw card: accepting it, or challenging a Wild Draw Four, stated once as
guarded commands (:mod:`unoformal.language`) for a table (WD4-2, D2-1 under
stacking, CHAL-1..4).

A challenge has two outcomes, the relation's two actions ``challenge_failed`` and
``challenge_upheld``: branches of one command, taken by whether the Wild Draw Four was
played legally (WD4-1, decided when it was played). The table says who draws, how many,
who moves next and which color stands.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from unoformal.language.commands import Command
from unoformal.language.conditions import (
    Both,
    CanDraw,
    CanDrawPending,
    CardsLeft,
    ColorKept,
    Conjunct,
    HandIs,
    Legal,
    OffenderHolds,
    Offends,
    PendingIn,
    PhaseIs,
    Unless,
)
from unoformal.language.coverage import Label
from unoformal.language.effects import (
    Branch,
    Caused,
    Copy,
    Effect,
    Resolve,
    Reveal,
    Shows,
    Sorts,
    Take,
    TakePending,
)
from unoformal.language.protocols import Actor, Who
from unoformal.rulebook.cards import Kind
from unoformal.rulebook.table import ChallengeOutcome, RuleTable
from unoformal.rules.challenge import legality
from unoformal.rules.effects import (
    LAST_DRAW_CARD,
    holds_unanswerable,
    stacks_last_card,
    victim_draws,
)
from unoformal.rules.house import changed
from unoformal.rules.state import OVER, RESPOND
from unoformal.rules.turn import color_first

_DRAWS = (Kind.DRAW_TWO, Kind.WILD_DRAW_FOUR)
_WD4 = (Kind.WILD_DRAW_FOUR,)
# What coverage counts of an answer once it is settled: the round ended (END-1).
_RESOLVED = Sorts(PhaseIs(OVER), LAST_DRAW_CARD)
_SENDS_BACK = Label("END-1", "challenge-sends-cards-back", "the challenge sends cards back to "
                    "the player who went out: the round goes on", _WD4)


def _holding(table: RuleTable) -> Sorts:
    """Coverage: the victim answers otherwise, holding a draw card NOSTACK-1 (or its
    variant) does not let them answer with."""
    return Sorts(holds_unanswerable(table),
                 Label(table.no_stacking.id, "victim-holds-draw-card", "the victim of a draw "
                       "card holds a draw card it may not answer with", _DRAWS, secret=True))


def accept(table: RuleTable) -> Command:
    """WD4-2 (D2-1 under stacking): the victim draws what is pending and loses the turn."""
    return changed(table, Command(
        "accept", (table.wild_draw_four.id,), Actor.ON_TURN, (),
        (color_first(table), Conjunct(PhaseIs(RESPOND), "WD4-2", "nothing to accept now"),
         Conjunct(CanDrawPending(), table.draw_what_is_left.id,
                  "{pending} cards are not left to draw")),
        (*_accepted(table), TakePending(Who.ACTOR), Caused(None), Resolve(keeps_turn=False),
         _RESOLVED),
        "the victim of a draw card draws the cards pending"))


def _accepted(table: RuleTable) -> tuple[Effect, ...]:
    """What coverage counts of an accept: whose draw it is (WD4-2, or D2-1 under
    stacking), and EXT-LAST's last draw card drawn without an answer."""
    steps: list[Effect] = [
        _holding(table),
        Sorts(PendingIn(_WD4), Label(table.wild_draw_four.id, "accept", "the victim accepts: "
                                     "draws and loses the turn", _WD4),
              victim_draws(table.effect(Kind.DRAW_TWO)))]
    drawn = tuple(k for k in table.drawing_kinds() if stacks_last_card(table, k) is False)
    if drawn:
        steps.append(Sorts(Both((PendingIn(drawn), Unless(OffenderHolds()))),
                           Label(table.last_draw_card_drawn.id, "drawn-not-answered",
                                 "a last draw card stacking could answer is drawn by the "
                                 "next player, and the round ends", drawn)))
    return tuple(steps)


def _outcome(table: RuleTable, label: str, legal: bool,
             outcome: ChallengeOutcome) -> Branch:
    effect: list[Effect] = [
        Shows(legality(table)[0 if legal else 1]),  # what the challenge judged, WD4-1
        Shows(Label(outcome.id, label.removeprefix("challenge_"), _SAID[label], _WD4))]
    if outcome.offender_draws:
        # END-1: the offender went out with the card, and the penalty deals them cards
        # back (at least one is left to draw): the round goes on
        effect.append(Sorts(Both((HandIs(Who.OFFENDER, 0), CardsLeft(1))), _SENDS_BACK))
    effect += [
        Take(Who.OFFENDER, outcome.offender_draws, outcome.id, ".offender"),
        Take(Who.ACTOR, outcome.challenger_draws, outcome.id, ".challenger")]
    stays = Label(table.challenge_color.id, "named-color-stays", "after a challenge the named "
                  "color stays", _WD4)
    if table.challenge_color.named_color_stays:
        effect.append(Shows(stays))
    else:
        effect += [Sorts(ColorKept(), stays), Copy("prev_color", "color")]
    effect += [Caused(outcome.id), Resolve(outcome.challenger_keeps_turn), _RESOLVED]
    most = max(outcome.offender_draws, outcome.challenger_draws)
    return Branch(
        label, (outcome.id, table.challenge_color.id), Legal(legal),
        (Conjunct(CanDraw(most), table.draw_what_is_left.id,
                  "not enough cards are left for the penalty"),),
        tuple(effect))


_SAID = {"challenge_upheld": "challenge upheld: the offender draws, the challenger keeps "
                             "the turn",
         "challenge_failed": "challenge failed: the challenger draws more, loses the turn"}


def challenge(table: RuleTable) -> Command:
    """CHAL-1..4: the victim challenges a Wild Draw Four; its legality decides who draws."""
    kinds = tuple(k for k in table.drawing_kinds() if table.effect(k).victim_may_challenge)
    shown: tuple[Effect, ...] = (
        _holding(table), Shows(Label("CHAL-1", "challenge", "a challenge: the hand is shown",
                                     _WD4)))
    if table.hidden.challenge_shows_hand_to_challenger:
        shown += (Reveal(), Shows(Label(table.hidden.id, "challenger-sees-hand", "the "
                                        "challenged hand is shown to the challenger only",
                                        _WD4)))
    return changed(table, Command(
        "challenge", (table.wild_draw_four.id,), Actor.ON_TURN, (),
        (color_first(table), Conjunct(PhaseIs(RESPOND), "WD4-2", "nothing to challenge now"),
         Conjunct(PendingIn(kinds), "WD4-2", "only a Wild Draw Four can be challenged"),
         Conjunct(Offends(), "WD4-2", "only a Wild Draw Four can be challenged")),
        shown,
        "the victim of a Wild Draw Four challenges it",
        (_outcome(table, "challenge_failed", True, table.challenge_failed),
         _outcome(table, "challenge_upheld", False, table.challenge_upheld))))


@dataclass(frozen=True)
class Responses:
    """The section's commands built for one table."""

    accept: Command
    challenge: Command

    def all(self) -> tuple[Command, ...]:
        return (self.accept, self.challenge)


@cache
def responses(table: RuleTable) -> Responses:
    """The answers to a draw card under ``table`` (built once per table)."""
    return Responses(accept(table), challenge(table))
