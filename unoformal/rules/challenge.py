"""WD4-1 and the challenge: what makes a Wild Draw Four illegal, stated once.

The engine's legality check and refusal words, and the Z3 relation's verdict, all read
:func:`wd4_blocks`; the table's reading of WD4-1 (``illegal_when_holding``) is folded in
here, once, when the statement is built for a table. :func:`legality` names WD4-1's two
branches as coverage counts them, where the card is played and where a challenge judges it.
"""

from __future__ import annotations

from unoformal.language.cards import All, Not, OfCurrentColor, OfKind, Playable, Said
from unoformal.language.coverage import Label
from unoformal.rulebook.cards import Kind
from unoformal.rulebook.table import Holding, RuleTable


def wd4_blocks(table: RuleTable) -> Said:
    """WD4-1: the cards whose holding (on the hand left after playing it) makes a Wild
    Draw Four illegal, with the words that name such a card."""
    if table.wd4_legality.illegal_when_holding is Holding.CARD_OF_CURRENT_COLOR:
        return Said(OfCurrentColor(), "{card}, a card of the current color {color}")
    # "other card they could play": another Wild Draw Four is restricted by this rule
    return Said(All((Not(OfKind(Kind.WILD_DRAW_FOUR)), Playable())),
                "{card}, which could be played on {top} / {color}")


def wd4_excuses(table: RuleTable) -> Said | None:
    """WD4-1's house rule (``wild_excuses``): the cards whose holding makes a Wild Draw
    Four legal whatever :func:`wd4_blocks` names is held (None: no card does)."""
    if not table.wd4_legality.wild_excuses:
        return None
    # a Wild or a Wild Draw Four: "not (not a Wild and not a Wild Draw Four)"
    return Said(Not(All((Not(OfKind(Kind.WILD)), Not(OfKind(Kind.WILD_DRAW_FOUR))))),
                "{card}, another wild card")


def legality(table: RuleTable, secret: bool = False) -> tuple[Label, Label]:
    """WD4-1's branches, legal then bluff: what a Wild Draw Four played was, counted when
    it is played and again when a challenge judges it (the rule the challenge rests on).
    ``secret`` where it is played: the player's hand decides it, which is what a challenge
    exists to find out (HIDDEN-1), so only the player knows it until one is decided."""
    rule, kinds = table.wd4_legality.id, (Kind.WILD_DRAW_FOUR,)
    return (Label(rule, "legal", "a Wild Draw Four played holding no card of the current "
                  "color", kinds, secret),
            Label(rule, "bluff", "a Wild Draw Four played holding the current color", kinds,
                  secret))
