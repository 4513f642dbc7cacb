"""The engine as validation sees it: its state as the relation's fields, and every chance
outcome of an action (the cards each draw took, the start cards put back).

:class:`TracedGame` is the engine itself (a :class:`~unoformal.engine.game.Game`) with its
three chance points noted as they happen; it changes no decision.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from unoformal.engine.game import Game
from unoformal.verification.z3.state import DEALT, KINDS, NONE, PHASE_CODE

Dealt = tuple[list[list[int]], list[int]]


class TracedGame(Game):
    """A game that notes its chance outcomes in ``events``:
    ``("dealt", hands, pile)`` before the start card, ``("returned", card)`` for a start
    card put back (START-WD4), ``("take", seat, count, cards, reshuffled)`` for every draw
    (``reshuffled``: RESHUFFLE-1 happened during it)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        self.events: list[tuple[Any, ...]] = []
        self._starting = False
        super().__init__(*args, **kwargs)

    def _turn_start_card(self) -> None:
        self.events.append(("dealt", [list(h) for h in self.hands], list(self.pile)))
        self._starting = True
        try:
            super()._turn_start_card()
        finally:
            self._starting = False

    def _rng(self) -> Any:
        if self._starting and self.pile:
            self.events.append(("returned", self.pile[-1]))
        return super()._rng()

    def _start_color(self) -> int:
        """A start color drawn at random is chance too, but no start card put back: the
        checker reads it from the state (``color``)."""
        starting, self._starting = self._starting, False
        try:
            return super()._start_color()
        finally:
            self._starting = starting

    def _take(self, p: int, count: int) -> None:
        starting, self._starting = self._starting, False
        before, shuffles = len(self.hands[p]), self.shuffles
        try:
            super()._take(p, count)
        finally:
            self._starting = starting
        self.events.append(("take", p, count, list(self.hands[p][before:]),
                            self.shuffles != shuffles))

    def copy(self) -> TracedGame:
        new = super().copy()
        assert isinstance(new, TracedGame)
        new.events = []
        return new


def _n(x: int | None) -> int:
    return NONE if x is None else x


def counts(cards: Sequence[int], nfaces: int) -> list[int]:
    out = [0] * nfaces
    for c in cards:
        out[c] += 1
    return out


def values(game: Game) -> list[int]:
    """The engine state's fields in the order of ``model.post_terms``."""
    nf = len(game.deck.faces)
    out = [PHASE_CODE[game.phase], game.turn, game.direction, _n(game.color),
           game.discard[-1] if game.discard else NONE, game.dealer, _n(game.uno_window)]
    for h in game.hands:
        out += counts(h, nf)
    out += counts(game.discard[:-1], nf)
    out += counts(game.pile, nf)
    out += game.scores
    kind = game.pending_kind
    out += [_n(game.drawn), game.pending, NONE if kind is None else KINDS.index(kind),
            _n(game.offender), int(game.wd4_legal), _n(game.prev_color), _n(game.winner),
            game.round_points]
    return out


def dealt_values(game: Game, dealt: Dealt, dealer: int, scores: Sequence[int]) -> list[int]:
    """The relation's ``dealt`` state (DEAL-2: hands dealt, no start card turned yet)."""
    nf = len(game.deck.faces)
    hands, pile = dealt
    out = [DEALT, 0, 1, NONE, NONE, dealer, NONE]
    for h in hands:
        out += counts(h, nf)
    out += [0] * nf
    out += counts(pile, nf)
    out += list(scores)
    out += [NONE, 0, NONE, NONE, 1, NONE, NONE, 0]
    return out
