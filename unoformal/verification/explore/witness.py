"""Shortest witnesses as game records that ``unoformal replay`` plays.

A witness is the BFS path from a deal to a state. It is made concrete by replaying the
path in the explorer's game (choosing, at each step, the outcome whose key is the next
state's), which gives the actions and the cards drawn. The record's ``draw_pile`` puts
the start card first and then the cards in the order they are drawn; after a
reshuffle (RESHUFFLE-1, or START-WD4's) the order comes from the seed, so seeds are
searched until the record replays to the same canonical state. Every witness is
replayed before it is returned.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from enum import Enum
from typing import Any

import tomli_w

from unoformal.engine.actions import Action
from unoformal.engine.game import Game
from unoformal.engine.record import replay
from unoformal.rulebook.table import RuleTable
from unoformal.rulebook.variants import house_data
from unoformal.verification.explore.chance import ExploreGame, outcomes
from unoformal.verification.explore.graph import StateGraph

SEEDS = 2000


class WitnessError(RuntimeError):
    """A path the explorer found that the engine's replay does not reproduce."""


@dataclass
class Witness:
    target: int
    record: dict[str, Any]
    game: Game  # the state the record replays to


def path_to(graph: StateGraph, sid: int) -> list[int]:
    path = [sid]
    while graph.parent[path[-1]] >= 0:
        path.append(graph.parent[path[-1]])
    return path[::-1]


def witness(graph: StateGraph, sid: int, then: Action | None = None,
            last: int | None = None, more: list[int] | None = None) -> Witness:
    """A record from a deal to ``sid`` (then ``then``, landing on ``last``; or then on
    through the states ``more``, e.g. around a cycle back to ``sid``)."""
    steps = path_to(graph, sid)
    root = graph.roots[steps[0]]
    cfg = graph.config
    game = ExploreGame.deal(cfg.players, cfg.rules, cfg.dealer, root.deal, root.script)
    actions: list[Action] = []
    drawn: list[int] = []
    hops: list[tuple[int, Action | None]] = [(t, None) for t in steps[1:]]
    if then is not None and last is not None:
        hops.append((last, then))
    hops += [(t, None) for t in more or []]
    for target, action in hops:
        game, step = _step(graph, game, graph.keys[target], action)
        actions.append(step)
        drawn.extend(game.log or [])
    target_key = graph.keys[hops[-1][0] if hops else sid]
    return _seal(graph, root.deal, bool(root.script) or game.shuffles > 0, actions, drawn,
                 target_key)


def step_to(graph: StateGraph, game: ExploreGame, sid: int) -> ExploreGame:
    """The engine's successor of ``game`` that is state ``sid`` (a state one edge on)."""
    return _step(graph, game, graph.keys[sid], None)[0]


def _step(graph: StateGraph, game: ExploreGame, key: bytes,
          only: Action | None) -> tuple[ExploreGame, Action]:
    key_of = graph.keyer.key
    game.log = []
    for action in game.legal_actions(penalties=graph.config.penalties):
        if only is not None and action != only:
            continue
        for _, child in outcomes(game, action):
            if key_of(child) == key:
                return child, action
    raise WitnessError("no successor of the path's state has the next key")


def _seal(graph: StateGraph, deal: dict[str, Any], shuffled: bool, actions: list[Action],
          drawn: list[int], key: bytes) -> Witness:
    cfg = graph.config
    deck = graph.keyer.deck
    start, *pile = deal["draw_pile"]
    order = []
    for face in drawn:
        if face < 0:
            break  # after a reshuffle the seed decides
        order.append(deck.code(face))
    rest = Counter(pile)
    rest.subtract(Counter(order))
    draw_pile = [start, *order, *sorted(rest.elements())]
    record: dict[str, Any] = {
        "rules": cfg.rules.name, "players": list(cfg.players), "dealer": cfg.dealer,
        "seed": 0, "deal": {"hands": deal["hands"], "draw_pile": draw_pile},
        "actions": [a.to_json() for a in actions]}
    for seed in range(SEEDS if shuffled else 1):
        record["seed"] = seed
        result = replay(record, cfg.rules)
        if result.error is None and graph.keyer.key(result.game) == key:
            return Witness(graph.index[key], record, result.game)
    raise WitnessError(f"no seed below {SEEDS} replays the path to its state")


def rules_toml(rules: RuleTable) -> str:
    """A TOML variant file for a derived table, so ``unoformal replay`` can load it."""
    groups: dict[str, dict[str, Any]] = {}
    for rule_id, key, value in rules.overrides:
        groups.setdefault(rule_id, {})[key] = _plain(value)
    doc: dict[str, Any] = {"name": rules.name, "base": "classic",
                           "description": rules.description, "rules": groups}
    if rules.house:  # a rule file's house rules, or the witnesses would replay without
        doc["house"] = [house_data(rule) for rule in rules.house]
    if rules.own:
        # the module by its resolved path, so the file loads it from any folder (a file
        # names one module: a chain of bases with several is read only from its files)
        doc["module"] = rules.own[0].source
    return tomli_w.dumps(doc)


def _plain(value: Any) -> Any:
    """A table value as TOML holds it: enumerations by their value, tuples as lists."""
    if isinstance(value, list | tuple):
        return [_plain(v) for v in value]
    if isinstance(value, Enum):
        return _plain(value.value)
    return value
