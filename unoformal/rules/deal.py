"""The next deal, stated once as a guarded command (:mod:`unoformal.language`) for a
table: END-2 (who deals next) and DEAL-2 (everything shuffled and dealt again), once a
round is over and nobody has reached the target (SCORE-2). That the deck holds every hand
and a start card is the table's to say: its schema refuses a hand size that would not
leave one at 10 players (``hands-leave-a-start-card``, DEAL-2), so no guard here asks it.

The deal is chance's (the shuffle); the start card is then turned by the start commands
(:mod:`unoformal.rules.start`), a move of its own in the relation as in the engine.
"""

from __future__ import annotations

from functools import cache

from unoformal.language.commands import Command
from unoformal.language.conditions import Conjunct, GameOver, PhaseIs, Unless
from unoformal.language.effects import Deal, DealtIn, Effect, PassDeal
from unoformal.language.protocols import Actor
from unoformal.rulebook.table import NextDealer, RuleTable
from unoformal.rules.state import OVER


def next_deal(table: RuleTable) -> Command:
    """END-2 and DEAL-2: the round is over and the game goes on; the deal passes and
    everything is dealt again."""
    rule, deal = table.next_round, table.deal
    back: tuple[Effect, ...] = (DealtIn(),) if table.knocks_out() else ()
    return Command(
        "next_deal", (rule.id, deal.id) + ((table.mercy.id,) if back else ()), Actor.DEALER, (),
        (Conjunct(PhaseIs(OVER), rule.id, "the round is not over"),
         Conjunct(Unless(GameOver()), table.target.id, "the game is over")),
        (*back, PassDeal(rule.next_dealer is NextDealer.WINNER,
                  table.first_turn.first_seat if rule.next_dealer is NextDealer.MOVER
                  else None), Deal(deal.hand_size)),
        "the round is over and nobody has reached the target: the next dealer shuffles "
        "everything and deals again")


@cache
def dealing(table: RuleTable) -> Command:
    """The next deal of ``table`` (built once per table)."""
    return next_deal(table)
