"""Game records: one JSON format for scenarios, logs, witnesses and tests (like PGN).

::

    {"rules": "classic", "players": ["You", "Ada", "Bo"], "dealer": "Bo", "seed": 7,
     "deal": {"hands": {"You": ["R3", ...]}, "draw_pile": ["R7", ...]},
     "actions": [{"player": "You", "action": "play", "card": "R3"}, ...]}

A record is played by :func:`replay`. When an action follows a finished round
(and the game goes on), the next round is dealt first (END-2).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from unoformal.engine.actions import Action
from unoformal.engine.game import Game
from unoformal.errors import InvalidInputError, UnoError
from unoformal.spec.table import RuleTable
from unoformal.spec.variants import VariantError, load_rules

RECORD_KEYS = {"rules", "players", "dealer", "seed", "deal", "actions"}


@dataclass
class Replay:
    """The outcome of playing a record: the game, and the refused action if any."""

    game: Game
    played: int
    error: UnoError | None = None
    error_index: int | None = None


def load_record(path: str | Path) -> dict[str, Any]:
    try:
        data = json.loads(Path(path).read_text())
    except json.JSONDecodeError as err:
        raise InvalidInputError(f"{path}: not valid JSON: {err}") from None
    except OSError as err:
        raise InvalidInputError(f"{path}: {err.strerror}") from None
    if not isinstance(data, dict):
        raise InvalidInputError(f"{path}: a record is a JSON object")
    return data


def game_from_record(record: dict[str, Any], rules: RuleTable | None = None) -> Game:
    """The game a record starts from (before its actions)."""
    extra = set(record) - RECORD_KEYS
    if extra:
        raise InvalidInputError(f"record: unknown field(s) {sorted(extra)}")
    players = record.get("players")
    if not isinstance(players, list) or not all(isinstance(p, str) for p in players):
        raise InvalidInputError("record: field 'players' must be a list of names", "DECK-2")
    seed = record.get("seed", 0)
    if not isinstance(seed, int) or isinstance(seed, bool):
        raise InvalidInputError("record: field 'seed' must be an integer")
    dealer = record.get("dealer")
    if dealer is not None and not isinstance(dealer, str):
        raise InvalidInputError("record: field 'dealer' must be a player name", "DEAL-1")
    if rules is None:
        try:
            rules = load_rules(record.get("rules"))
        except VariantError as err:
            raise InvalidInputError(f"record: field 'rules': {err}") from None
    return Game(players, seed=seed, rules=rules, dealer=dealer, deal=record.get("deal"))


def record_actions(record: dict[str, Any]) -> list[Action]:
    actions = record.get("actions", [])
    if not isinstance(actions, list):
        raise InvalidInputError("record: field 'actions' must be a list")
    out = []
    for i, data in enumerate(actions):
        try:
            out.append(Action.from_json(data))
        except InvalidInputError as err:
            raise InvalidInputError(f"actions[{i}]: {err.message}", err.rule_id) from None
    return out


def replay(record: dict[str, Any], rules: RuleTable | None = None,
           stop_at: int | None = None) -> Replay:
    """Play a record's actions in order, stopping at the first refused one.

    A malformed record (bad fields, bad deal) raises :class:`InvalidInputError`;
    a refused action is reported in the result with its index, the game left in
    the state just before it.
    """
    game = game_from_record(record, rules)
    actions = record_actions(record)
    if stop_at is not None:
        actions = actions[:stop_at]
    for i, action in enumerate(actions):
        try:
            if game.round_over and not game.game_over:
                game.next_round()
            game.apply(action)
        except UnoError as err:
            return Replay(game, i, err, i)
    return Replay(game, len(actions))


def to_record(game: Game) -> dict[str, Any]:
    """A record that replays ``game`` exactly: the same set-up (what was given, the rest
    from the seed) and every action applied so far."""
    record: dict[str, Any] = {"rules": game.rules.name, "players": list(game.names),
                              "seed": game.seed}
    for key in ("dealer", "deal"):
        if game.origin[key] is not None:
            record[key] = game.origin[key]
    record["actions"] = [a.to_json() for a in game.history]
    return record
