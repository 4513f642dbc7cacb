"""The explorer's chance layer: a draw of several cards is run once per multiset of faces,
with no run spent on an order that cannot finish (ExploreGame.choose's cap)."""

from __future__ import annotations

from unoformal.engine.actions import Action
from unoformal.verification.explore.chance import ExploreGame, NeedChoice, outcomes
from unoformal.verification.explore.graph import Explorer, StateGraph, preset_config
from unoformal.verification.explore.keys import Keyer


class Counting(ExploreGame):
    """The layer, counting the runs that end with no option left (dropped by outcomes)."""

    dropped = 0

    def choose(self, options: list[int], cap: int | None = None) -> int:
        try:
            return super().choose(options, cap)
        except NeedChoice:
            Counting.dropped += 1
            raise


class Uncapped(Counting):
    """The layer as it was: every face at or above the last one drawn is an option, even
    one that leaves the rest of the draw nothing to take."""

    def choose(self, options: list[int], cap: int | None = None) -> int:
        return super().choose(options, None if cap is None else max(options, default=0))


def _runs(game: ExploreGame, action: Action) -> tuple[int, list[bytes]]:
    """How many runs ``outcomes`` dropped, and the keys of the outcomes, in order."""
    keyer = Keyer(game.deck)
    Counting.dropped = 0
    keys = [keyer.key(child) for _, child in outcomes(game, action)]
    return Counting.dropped, keys


def _states(name: str, layers: int) -> list[ExploreGame]:
    explorer = Explorer(preset_config(name))
    graph = StateGraph(explorer.config, explorer.keyer)
    frontier = explorer._initial(graph)
    games = []
    for depth in range(layers):
        games += [g for _, g in frontier]
        frontier = explorer._layer(graph, frontier, depth)
    return games


def _as(cls: type[ExploreGame], game: ExploreGame) -> ExploreGame:
    new = cls.__new__(cls)
    game.copy_into(new)
    return new


def test_draw_1_several_cards_drawn_make_one_run_per_multiset_and_none_wasted() -> None:
    # WD4-2 and CHAL-2/3 make the victim or the offender draw 4 to 6 cards; MISPLAY-1 and
    # ADVICE-1 draw 2: the draws of `big` with the most orders.
    games = _states("big", 4)[::8]  # about 5,800 states, from every layer
    runs = uncapped_dropped = 0
    for game in games:
        for action in game.legal_actions():
            dropped, keys = _runs(_as(Counting, game), action)
            assert dropped == 0, (game.to_text(), str(action))
            runs += len(keys)
            old_dropped, old_keys = _runs(_as(Uncapped, game), action)
            uncapped_dropped += old_dropped
            # the same outcomes, in the same order: the cap only cuts dead runs
            assert keys == old_keys, (game.to_text(), str(action))
    assert runs > 1000
    assert uncapped_dropped > 100  # the check could fail: without the cap, runs are wasted
