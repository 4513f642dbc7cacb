"""FROZEN COPY of ``unoformal/compare/vectors.py`` (see ``tests/reference/engine_v1/__init__.py``):
today's engine, kept only to check the new one against. Do not edit it to follow the live
engine; imports of engine modules point at the frozen copies.

Test vectors for other engines, as perft suites are for chess (see ``docs/vectors.md``).

One JSON object a line, one line per state: the state's canonical text, every player's
legal actions (canonical text) and the successor text of each. An engine in any language
that reads and writes the text form can be checked against them without running Python.

Chance: a draw takes the top card of the pile, whose order the state text holds, so a
draw's successor is the state's own. A reshuffle (RESHUFFLE-1) is the one outcome the
text does not decide for another engine (ours shuffles with Python's generator, seeded
from the text's ``seed`` and ``shuffles``), so each action that reshuffles states its new
piles, top first, as a version-2 record does, under ``reshuffles``.

States come from full-deck games (seeded random play, one round each) (the explorer's
presets are not copied: see the end of this file).
Every successor is computed from the state text alone, read back with
:meth:`Game.from_text`, so a line says exactly what its text implies.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

from tests.reference.engine_v1.game import Chance, Game
from tests.reference.engine_v1.record import rules_json
from unoformal.engine.actions import ActionType
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


# preset_vectors is not copied: it walks the live explorer's graph (which runs the live
# engine). The agreement check takes those states from the live explorer and computes
# each line with both engines' vector().
