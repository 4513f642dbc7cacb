"""Answering a draw card: accepting it, or challenging a Wild Draw Four, stated once as
guarded commands (:mod:`unoformal.rules.commands`) for a table (WD4-2, D2-1 under
stacking, CHAL-1..4).

A challenge has two outcomes, the relation's two actions ``challenge_failed`` and
``challenge_upheld``: branches of one command, taken by whether the Wild Draw Four was
played legally (WD4-1, decided when it was played). The table says who draws, how many,
who moves next and which color stands.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from unoformal.rulebook.table import ChallengeOutcome, RuleTable
from unoformal.rules.commands import (
    Actor,
    Branch,
    CanDraw,
    CanDrawPending,
    Caused,
    Command,
    Conjunct,
    Copy,
    Effect,
    Legal,
    Offends,
    PendingIn,
    PhaseIs,
    Resolve,
    Reveal,
    Take,
    TakePending,
    Who,
)
from unoformal.rules.state import RESPOND
from unoformal.rules.turn import color_first


def accept(table: RuleTable) -> Command:
    """WD4-2 (D2-1 under stacking): the victim draws what is pending and loses the turn."""
    return Command(
        "accept", (table.wild_draw_four.id,), Actor.ON_TURN, (),
        (color_first(table), Conjunct(PhaseIs(RESPOND), "WD4-2", "nothing to accept now"),
         Conjunct(CanDrawPending(), table.draw_what_is_left.id,
                  "{pending} cards are not left to draw")),
        (TakePending(Who.ACTOR), Caused(None), Resolve(keeps_turn=False)),
        "the victim of a draw card draws the cards pending")


def _outcome(table: RuleTable, label: str, legal: bool,
             outcome: ChallengeOutcome) -> Branch:
    effect: list[Effect] = [
        Take(Who.OFFENDER, outcome.offender_draws, outcome.id, ".offender"),
        Take(Who.ACTOR, outcome.challenger_draws, outcome.id, ".challenger")]
    if not table.challenge_color.named_color_stays:
        effect.append(Copy("prev_color", "color"))
    effect += [Caused(outcome.id), Resolve(outcome.challenger_keeps_turn)]
    most = max(outcome.offender_draws, outcome.challenger_draws)
    return Branch(
        label, (outcome.id, table.challenge_color.id), Legal(legal),
        (Conjunct(CanDraw(most), table.draw_what_is_left.id,
                  "not enough cards are left for the penalty"),),
        tuple(effect))


def challenge(table: RuleTable) -> Command:
    """CHAL-1..4: the victim challenges a Wild Draw Four; its legality decides who draws."""
    kinds = tuple(k for k in table.drawing_kinds() if table.effect(k).victim_may_challenge)
    shown = (Reveal(),) if table.hidden.challenge_shows_hand_to_challenger else ()
    return Command(
        "challenge", (table.wild_draw_four.id,), Actor.ON_TURN, (),
        (color_first(table), Conjunct(PhaseIs(RESPOND), "WD4-2", "nothing to challenge now"),
         Conjunct(PendingIn(kinds), "WD4-2", "only a Wild Draw Four can be challenged"),
         Conjunct(Offends(), "WD4-2", "only a Wild Draw Four can be challenged")),
        shown,
        "the victim of a Wild Draw Four challenges it",
        (_outcome(table, "challenge_failed", True, table.challenge_failed),
         _outcome(table, "challenge_upheld", False, table.challenge_upheld)))


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
