"""The explorer's chance layer: a draw of several cards is run once per multiset of faces,
with no run spent on an order that cannot finish (ExploreGame.choose's cap)."""

from __future__ import annotations

from unoformal.engine.actions import Action
from unoformal.verification.explore.chance import ExploreGame, NeedChoice
from unoformal.verification.explore.graph import Explorer, StateGraph, preset_config
from unoformal.verification.explore.keys import Keyer


class Uncapped(ExploreGame):
    """The layer as it was: every face at or above the last one drawn is an option, even
    one that leaves the rest of the draw nothing to take."""

    def choose(self, options: list[int], cap: int | None = None) -> int:
        return super().choose(options, None if cap is None else max(options, default=0))


def _runs(game: ExploreGame, action: Action) -> tuple[int, list[tuple[int, ...]]]:
    """``outcomes`` written out, counting the runs that end with no option left."""
    stack: list[tuple[int, ...]] = [()]
    dropped, done = 0, []
    while stack:
        new = game.copy()
        new.script, new.pos, new.events = stack.pop(), 0, 0
        branches: list[tuple[int, list[int]]] = []
        new.branches = branches
        try:
            new.push(action)
            done.append(new.script)
        except NeedChoice:
            dropped += 1
        new.branches = None
        for pos, others in branches:
            stack.extend((*new.script[:pos], face) for face in reversed(others))
    return dropped, done


def _states(name: str, layers: int) -> list[ExploreGame]:
    explorer = Explorer(preset_config(name))
    graph = StateGraph(explorer.config, explorer.keyer)
    frontier = explorer._initial(graph)
    games = []
    for depth in range(layers):
        games += [g for _, g in frontier]
        frontier = explorer._layer(graph, frontier, depth)
    return games


def _keys(keyer: Keyer, game: ExploreGame, action: Action,
          scripts: list[tuple[int, ...]]) -> list[bytes]:
    out = []
    for script in scripts:
        child = game.copy()
        child.script, child.pos = script, 0
        child.push(action)
        out.append(keyer.key(child))
    return out


def _as(cls: type[ExploreGame], game: ExploreGame) -> ExploreGame:
    new = cls.__new__(cls)
    game.copy_into(new)
    return new


def test_draw_1_several_cards_drawn_make_one_run_per_multiset_and_none_wasted() -> None:
    # WD4-2 and CHAL-2/3 make the victim or the offender draw 4 to 6 cards; MISPLAY-1 and
    # ADVICE-1 draw 2: the draws of `big` with the most orders.
    games = _states("big", 4)[::8]  # about 5,800 states, from every layer
    keyer = Keyer(games[0].deck)
    capped_runs = uncapped_dropped = 0
    for game in games:
        for action in game.legal_actions():
            dropped, scripts = _runs(game, action)
            assert dropped == 0, (game.to_text(), str(action))
            capped_runs += len(scripts)
            old = _as(Uncapped, game)
            old_dropped, old_scripts = _runs(old, action)
            uncapped_dropped += old_dropped
            # the same outcomes, in the same order: the cap only cuts dead runs (a script
            # can be shorter: where the cap leaves one option there is no choice to write)
            assert _keys(keyer, game, action, scripts) == _keys(keyer, old, action,
                                                                old_scripts), game.to_text()
    assert capped_runs > 1000
    assert uncapped_dropped > 100  # the check could fail: without the cap, runs are wasted
