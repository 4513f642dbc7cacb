"""WD4-1 and the challenge: what makes a Wild Draw Four illegal, stated once.

The engine's legality check and refusal words, and the Z3 relation's verdict, all read
:func:`wd4_blocks`; the table's reading of WD4-1 (``illegal_when_holding``) is folded in
here, once, when the statement is built for a table.
"""

from __future__ import annotations

from unoformal.rulebook.cards import Kind
from unoformal.rulebook.table import Holding, RuleTable
from unoformal.rules.lang import All, Not, OfCurrentColor, OfKind, Playable, Said


def wd4_blocks(table: RuleTable) -> Said:
    """WD4-1: the cards whose holding (on the hand left after playing it) makes a Wild
    Draw Four illegal, with the words that name such a card."""
    if table.wd4_legality.illegal_when_holding is Holding.CARD_OF_CURRENT_COLOR:
        return Said(OfCurrentColor(), "{card}, a card of the current color {color}")
    # "other card they could play": another Wild Draw Four is restricted by this rule
    return Said(All((Not(OfKind(Kind.WILD_DRAW_FOUR)), Playable())),
                "{card}, which could be played on {top} / {color}")
