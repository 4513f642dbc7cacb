"""Records built around a chosen position: hands and pile given, the rest of the deck
split between the hands so the deal is exactly the deck (DECK-1)."""

from __future__ import annotations

from typing import Any

from unoformal.rulebook.deck import Deck
from unoformal.rulebook.table import CLASSIC


def rest_of_deck(*taken: str) -> list[str]:
    """The classic deck's card codes (DECK-1), without one copy of each of ``taken``."""
    deck = Deck.of(CLASSIC)
    rest = [f.code for f, n in zip(deck.faces, deck.copies, strict=True) for _ in range(n)]
    for card in taken:
        rest.remove(card)
    return rest


def deal(hands: dict[str, list[str]], pile: list[str]) -> dict[str, Any]:
    """``hands`` topped up from what is left of the deck, alternately; ``pile`` top first."""
    rest = rest_of_deck(*(c for h in hands.values() for c in h), *pile)
    full = {name: list(cards) for name, cards in hands.items()}
    names = list(full)
    for i, card in enumerate(rest):
        full[names[i % len(names)]].append(card)
    return {"hands": full, "draw_pile": pile}


def record(hands: dict[str, list[str]], pile: list[str], actions: list[dict[str, Any]],
           **extra: Any) -> dict[str, Any]:
    names = list(hands)
    return {"version": 2, "rules": "classic", "players": names, "dealer": names[-1],
            "deal": deal(hands, pile), "actions": actions, **extra}
