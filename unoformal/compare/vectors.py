"""Test vectors for other engines, as perft suites are for chess (see ``docs/vectors.md``).

One JSON object a line, one line per state: the state's canonical text, every player's
legal actions (canonical text) and the successor text of each. An engine in any language
that reads and writes the text form can be checked against them without running Python.

Chance: a draw takes the top card of the pile, whose order the state text holds, so a
draw's successor is the state's own. A reshuffle (RESHUFFLE-1) is the one outcome the
text does not decide for another engine (ours shuffles with Python's generator, seeded
from the text's ``seed`` and ``shuffles``), so each action that reshuffles states its new
piles, top first, as a version-2 record does, under ``reshuffles``.

States come from full-deck games (seeded random play, one round each) or from an
explorer preset's state graph (:mod:`unoformal.verification.explore`, breadth first).
Every successor is computed from the state text alone, read back with
:meth:`Game.from_text`, so a line says exactly what its text implies.
"""

from __future__ import annotations

import random
from collections import deque
from collections.abc import Iterator
from typing import Any

from unoformal.engine.actions import ActionType
from unoformal.engine.game import Chance, Game
from unoformal.engine.record import rules_json, set_up_deviation
from unoformal.errors import InvalidInputError, UnoError
from unoformal.rulebook.table import RuleTable

MAX_ROUND_ACTIONS = 1_000  # a round of random play that has not ended by then is cut
PLAY_SHARE = 0.8  # how often random play plays a card when it can
PENALTY_SHARE = 0.03  # how often random play picks from every legal action, penalties too


class _Reshuffles(Chance):
    """The seeded chance player, noting each new pile RESHUFFLE-1 makes (top first)."""

    def __init__(self) -> None:
        self.piles: list[list[int]] = []

    def reshuffle(self, game: Game, cards: list[int], rule: str) -> None:
        super().reshuffle(game, cards, rule)
        self.piles.append(cards[::-1])


def vector(text: str, rules: RuleTable, stated_rules: Any) -> dict[str, Any]:
    """The line for one state text: its legal actions by player and their successors."""
    game = Game.from_text(text, rules)
    actions = game.legal_actions()
    legal: dict[str, list[str]] = {name: [] for name in game.names}
    nxt: dict[str, str] = {}
    reshuffles: dict[str, list[list[str]]] = {}
    for action in actions:
        name = str(action)
        legal[action.player].append(name)
        child, noted = _watched(game)
        child.apply(action)
        nxt[name] = child.to_text()
        if noted.piles:
            reshuffles[name] = [[game.deck.code(c) for c in pile] for pile in noted.piles]
    line: dict[str, Any] = {"rules": stated_rules, "state": text, "legal": legal,
                            "next": nxt}
    if reshuffles:
        line["reshuffles"] = reshuffles
    return line


def _watched(game: Game) -> tuple[Game, _Reshuffles]:
    noted = _Reshuffles()
    child = game.copy()
    child.chance = noted
    return child, noted


def game_vectors(rules: RuleTable, games: int, players: int,
                 seed: int) -> Iterator[dict[str, Any]]:
    """Lines for every state of ``games`` rounds of seeded random play, full deck."""
    stated = rules_json(rules)
    names = [f"P{i}" for i in range(players)]
    for i in range(games):
        game_seed = (seed * 1_000_003 + i) % 2**63
        for text in _round_texts(Game(names, seed=game_seed, rules=rules), game_seed):
            yield vector(text, rules, stated)


def _round_texts(game: Game, seed: int) -> Iterator[str]:
    rng = random.Random(f"vectors/{seed}")
    for _ in range(MAX_ROUND_ACTIONS):
        yield game.to_text()
        if game.round_over:
            return
        actions = game.legal_actions(game.to_play, penalties=False)
        plays = [a for a in actions if a.type is ActionType.PLAY]
        if plays and rng.random() < PLAY_SHARE:
            actions = plays  # rounds that end: always drawing when able to play does not
        if not actions or rng.random() < PENALTY_SHARE:
            actions = game.legal_actions()
        if not actions:
            return
        game.push(rng.choice(actions))


def record_vectors(record: dict[str, Any], rules: RuleTable | None = None,
                   max_states: int | None = None) -> Iterator[dict[str, Any]]:
    """Lines for every distinct state of a record as it is played (any version: a game
    record's across its rounds, each dealt as it states), at most ``max_states``. A
    record the rules refuse somewhere gives the states before it, then the refusal (an
    :class:`InvalidInputError` naming the place): vectors are of states the rules reach."""
    seen: set[str] = set()
    for game in record_states(record, rules):
        text = game.to_text()
        if text in seen:
            continue
        if max_states is not None and len(seen) >= max_states:
            return
        seen.add(text)
        yield vector(text, game.rules, rules_json(game.rules))


def record_states(record: dict[str, Any], rules: RuleTable | None = None) -> Iterator[Game]:
    """The game after each step of ``record`` (the set-up first; the same game, changed)."""
    from unoformal.engine import games
    from unoformal.engine.record import play_on, prepared

    if games.is_game(record):
        yield from _game_states(record, rules)
        return
    game, actions, chance = prepared(record, rules)
    _refused(set_up_deviation(game), None)
    yield game
    for i in range(len(actions)):
        result = play_on(game, actions[:i + 1], chance, i)  # action i alone
        _refused(result.error, result.error_index)
        yield game


def _game_states(record: dict[str, Any], rules: RuleTable | None) -> Iterator[Game]:
    from unoformal.engine import games
    from unoformal.engine.record import play_on

    game, rounds = games.start_game(record, rules)
    _refused(set_up_deviation(game), None)
    yield game
    for rnd in rounds:
        if rnd.number:
            _refused(games.deal_round(game, rnd), None)
            yield game
        for i in range(len(rnd.actions)):
            result = play_on(game, rnd.actions[:i + 1], rnd.chance, i, deal_next=False)
            if result.error is not None:
                _refused(games.in_round(result.error, rnd), None)
            yield game


def _refused(err: UnoError | None, index: int | None) -> None:
    if err is None:
        return
    place = err.key or (f"actions[{index}]" if index is not None else "set-up")
    raise InvalidInputError(f"{place}: {err.message} (breaks {err.rule_id}): vectors are "
                            "written from a record the rules play", err.rule_id, key=place)


def preset_vectors(name: str, base: str | None, max_states: int) -> Iterator[dict[str, Any]]:
    """Lines for the first ``max_states`` states of a preset's graph, breadth first."""
    from unoformal.verification.explore.chance import deal_outcomes, first_outcome, outcomes
    from unoformal.verification.explore.graph import Config, Explorer
    from unoformal.verification.explore.presets import PRESETS, small_rules

    preset = PRESETS[name]
    rules = small_rules(preset.size, base, preset.extra, name)
    config = Config(rules, tuple(preset.size.players_list()), name,
                    penalties=preset.size.penalties)
    explorer = Explorer(config)
    stated = rules_json(rules)
    seen: set[bytes] = set()
    queue: deque[Any] = deque()

    def reach(game: Any) -> None:
        key = explorer.keyer.key(game)
        if key not in seen:
            seen.add(key)
            queue.append(game)

    template = None
    for deal in explorer.deals():
        template = template or first_outcome(config.players, rules, config.dealer,
                                             deal.json)
        for _, game in deal_outcomes(template, deal):
            reach(game)
    for _ in range(max_states):
        if not queue:
            return
        game = queue.popleft()
        yield vector(game.to_text(), rules, stated)
        for action in game.legal_actions(penalties=config.penalties):
            for _, child in outcomes(game, action):
                reach(child)
