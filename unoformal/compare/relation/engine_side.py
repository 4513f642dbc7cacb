"""The engine as validation sees it: its state as the relation's fields, and every chance
outcome of an action (the cards each draw took, the start cards put back).

:class:`Traced` is the seeded chance player noting every outcome as it happens; it changes
no decision. :class:`TracedGame` is the engine with it.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from unoformal.engine.game import Chance, Game
from unoformal.rulebook.table import CLASSIC, RuleTable
from unoformal.verification.z3.state import DEALT, KINDS, NONE, PHASE_CODE

Dealt = tuple[list[list[int]], list[int]]


class Traced(Chance):
    """The seeded chance player, noting every chance outcome in ``events``:
    ``("dealt", hands, pile)`` before the start card, ``("returned", card)`` for a start
    card put back (START-WD4), ``("take", seat, count, cards, reshuffled)`` for every draw
    (``reshuffled``: RESHUFFLE-1 happened during it). A copy of the game takes a fresh
    one, with no events."""

    def __init__(self) -> None:
        self.events: list[tuple[Any, ...]] = []
        self._before = self._shuffles = 0

    def fork(self) -> Traced:
        return Traced()

    def dealt(self, game: Game) -> None:
        self.events.append(("dealt", [list(h) for h in game.hands], list(game.pile)))

    def turn_again(self, game: Game, pile: list[int], rule: str) -> None:
        self.events.append(("returned", pile[-1]))
        super().turn_again(game, pile, rule)

    def begin_draw(self, game: Game, seat: int, count: int, rule: str) -> None:
        self._before, self._shuffles = len(game.hands[seat]), game.shuffles

    def end_draw(self, game: Game, seat: int, count: int, taken: int, rule: str) -> None:
        self.events.append(("take", seat, count, list(game.hands[seat][self._before:]),
                            game.shuffles != self._shuffles))


class TracedGame(Game):
    """The engine with a :class:`Traced` chance player; ``events`` are its notes."""

    def __init__(self, players: Sequence[str], seed: int = 0, rules: RuleTable = CLASSIC,
                 dealer: str | None = None, deal: dict[str, Any] | None = None) -> None:
        super().__init__(players, seed, rules, dealer, deal, chance=Traced())

    @property
    def events(self) -> list[tuple[Any, ...]]:
        chance = self.chance
        assert isinstance(chance, Traced)
        return chance.events


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
    if game.rules.knocks_out():  # MERCY: who is knocked out, a flag per seat
        out += [int(p in game.out) for p in range(game.n)]
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
    if game.rules.knocks_out():  # nobody is out of a round dealt
        out += [0] * game.n
    out += [NONE, 0, NONE, NONE, 1, NONE, NONE, 0]
    return out
