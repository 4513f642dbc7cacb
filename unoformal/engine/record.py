"""Game records: one JSON format for scenarios, logs, witnesses and tests (like PGN).

::

    {"rules": "classic", "players": ["You", "Ada", "Bo"], "dealer": "Bo", "seed": 7,
     "deal": {"hands": {"You": ["R3", ...]}, "draw_pile": ["R7", ...]},
     "actions": [{"player": "You", "action": "play", "card": "R3"}, ...]}

A record is played by :func:`replay`. When an action follows a finished round
(and the game goes on), the next round is dealt first (END-2).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

from unoformal.engine.actions import Action
from unoformal.engine.game import Game
from unoformal.errors import InvalidInputError, UnoError
from unoformal.inputs import (
    MAX_RECORD_ACTIONS,
    check_name,
    check_players,
    check_seed,
    load_rules_arg,
    parse_json,
    read_text,
    show,
)
from unoformal.spec.table import RuleTable

T = TypeVar("T")

RECORD_KEYS = {"rules", "players", "dealer", "seed", "deal", "actions"}


@dataclass
class Replay:
    """The outcome of playing a record: the game, the actions played, and the refused
    (or malformed) action if any, its index and its error carrying the state before it."""

    game: Game
    played: int
    error: UnoError | None = None
    error_index: int | None = None
    actions: list[Action] = field(default_factory=list)


def load_record(path: str | Path) -> dict[str, Any]:
    """A record file: bounded in size and nesting before it is parsed (see
    :mod:`unoformal.inputs`); errors name the file."""
    where = str(path)
    data = parse_json(read_text(path, "record"), where)
    if not isinstance(data, dict):
        raise InvalidInputError("a record is a JSON object {\"players\": [...], ...}",
                                source=where)
    return data


def game_from_record(record: dict[str, Any], rules: RuleTable | None = None) -> Game:
    """The game a record starts from (before its actions). Errors name the field (``key``)."""
    if not isinstance(record, dict):
        raise InvalidInputError(f"record {show(record)}: expected a JSON object")
    extra = set(record) - RECORD_KEYS
    if extra:
        raise InvalidInputError(f"unknown field(s) {show(sorted(extra))}; allowed: "
                                f"{', '.join(sorted(RECORD_KEYS))}")
    if rules is None:
        rules = load_rules_arg(record.get("rules"), "rules")
    if "players" not in record:
        raise InvalidInputError("missing: a record names its players", "DECK-2", key="players")
    _keyed("players", lambda: check_players(record["players"], rules.players.minimum,
                                            rules.players.maximum))
    seed = _keyed("seed", lambda: check_seed(record.get("seed", 0)))
    dealer = record.get("dealer")
    if dealer is not None:
        _keyed("dealer", lambda: check_name(dealer, "dealer"))
    return _keyed("deal", lambda: Game(record["players"], seed=seed, rules=rules,
                                       dealer=dealer, deal=record.get("deal")))


def _keyed(key: str, check: Callable[[], T]) -> T:
    try:
        return check()
    except InvalidInputError as err:
        raise err.at(key=key) from None


def _raw_actions(record: dict[str, Any]) -> list[Any]:
    actions = record.get("actions", [])
    if not isinstance(actions, list):
        raise InvalidInputError(f"{show(actions)}: expected a list of actions", key="actions")
    if len(actions) > MAX_RECORD_ACTIONS:
        raise InvalidInputError(f"{len(actions):,} actions: at most {MAX_RECORD_ACTIONS:,} "
                                "are allowed", key="actions")
    return actions


def _action(data: Any, i: int) -> Action:
    try:
        return Action.from_json(data)
    except InvalidInputError as err:
        err.key = f"actions[{i}]" + (f".{err.key}" if err.key else "")
        raise err.at(index=i, action=show(data, 200)) from None


def record_actions(record: dict[str, Any]) -> list[Action]:
    """Every action of a record, parsed; a malformed one names its index and field."""
    return [_action(data, i) for i, data in enumerate(_raw_actions(record))]


def replay(record: dict[str, Any], rules: RuleTable | None = None,
           stop_at: int | None = None) -> Replay:
    """Play a record's actions in order, stopping at the first refused one.

    A malformed record (bad fields, bad deal, a malformed action anywhere) raises
    :class:`InvalidInputError` naming the field, and the action's index; a refused action
    is reported in the result with its index, the game left in the state just before it
    (which the error also carries).
    """
    game = game_from_record(record, rules)
    actions = record_actions(record)
    if stop_at is not None:
        actions = actions[:stop_at]
    played: list[Action] = []
    for i, action in enumerate(actions):
        try:
            if game.round_over and not game.game_over:
                game.next_round()
            game.apply(action)
        except UnoError as err:
            return _refused(game, err.at(action=str(action)), i, played)
        played.append(action)
    return Replay(game, len(actions), actions=played)


def _refused(game: Game, err: UnoError, i: int, played: list[Action]) -> Replay:
    err.at(index=i, key=f"actions[{i}]", state=game.to_text())
    return Replay(game, i, err, i, played)


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
