"""Game records: one JSON format for scenarios, logs, witnesses and tests (like PGN).

::

    {"rules": "classic", "players": ["You", "Ada", "Bo"], "dealer": "Bo", "seed": 7,
     "deal": {"hands": {"You": ["R3", ...]}, "draw_pile": ["R7", ...]},
     "actions": [{"player": "You", "action": "play", "card": "R3"}, ...]}

A record is played by :func:`replay`. When an action follows a finished round
(and the game goes on), the next round is dealt first (END-2).

Version 2 (``"version": 2``) carries chance: any action may state ``draws`` (the cards
each draw took, by player) and ``reshuffles`` (the new draw pile, top first, of each
reshuffle it caused); ``start_reshuffles`` and ``dealer_draws`` state the start card's
reshuffles (START-WD4) and the dealer draw (DEAL-1). The referee checks each against the
state (:mod:`unoformal.engine.chance`). ``rules`` embeds the variant (its name, a shipped
base and its overrides by rule ID), never a path, and ``meta`` holds anything else. The
format is the JSON Schema ``record.schema.json`` beside this module.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from unoformal.engine.actions import Action
from unoformal.engine.actions import ActionType as ActionType
from unoformal.engine.chance import ChanceError as ChanceError
from unoformal.engine.chance import StatedChance as StatedChance
from unoformal.engine.chance import StatedGame
from unoformal.engine.game import Game
from unoformal.engine.games import replay_game, start_game
from unoformal.engine.rounds import _DRAW_RULE as _DRAW_RULE
from unoformal.engine.rounds import _PARSED as _PARSED

# Every name this module offered before engine.rounds held one-round records stays here
# (readers reach some by attribute, as tests/reference does of either engine's module)
from unoformal.engine.rounds import (
    CHANCE_KEYS,
    RECORD_KEYS,
    VERSION,
    Replay,
    Stated,
    _chance,
    _inline,
    _record_validator,
    apply_stated,
    check_schema,
    embedded_rules,
    load_record,
    play_on,
    prepared,
    record_actions,
    replay_round,
    round_game,
    rules_json,
    schema_accepts,
    set_up_deviation,
    stated_chance,
    to_record,
    version_of,
    with_rules,
)
from unoformal.engine.rounds import T as T
from unoformal.engine.rounds import _action as _action
from unoformal.engine.rounds import _apply_stated as _apply_stated
from unoformal.engine.rounds import _Codes as _Codes
from unoformal.engine.rounds import _derived as _derived
from unoformal.engine.rounds import _fast_validator as _fast_validator
from unoformal.engine.rounds import _game_v2 as _game_v2
from unoformal.engine.rounds import _keyed as _keyed
from unoformal.engine.rounds import _modules as _modules
from unoformal.engine.rounds import _parsed as _parsed
from unoformal.engine.rounds import _raw_actions as _raw_actions
from unoformal.engine.rounds import _refused as _refused
from unoformal.engine.rounds import _set_up as _set_up
from unoformal.errors import InvalidInputError
from unoformal.errors import UnoError as UnoError
from unoformal.inputs import MAX_RECORD_ACTIONS as MAX_RECORD_ACTIONS
from unoformal.inputs import check_name as check_name
from unoformal.inputs import check_players as check_players
from unoformal.inputs import check_seed as check_seed
from unoformal.inputs import parse_json, show, write_text
from unoformal.inputs import read_text as read_text
from unoformal.rulebook.deck import Deck as Deck
from unoformal.rulebook.table import RuleTable
from unoformal.rulebook.variants import load_rules_arg as load_rules_arg

# The one-round names this module has always offered (unoformal.engine.rounds holds them)
__all__ = ["CHANCE_KEYS", "RECORD_KEYS", "VERSION", "Record", "Replay", "Stated", "_chance",
           "_inline", "_record_validator", "apply_stated", "check_schema", "embedded_rules",
           "game_from_record", "load_record", "play_on", "prepared", "record_actions",
           "replay", "rules_json", "schema_accepts", "set_up_deviation", "stated_chance",
           "to_record", "version_of", "with_rules"]


@dataclass
class Record:
    """A game record: the format's JSON object (``data``), with load, dump and replay.

    ::

        record = Record.load("game.json")      # or Record.of(game), Record.loads(text)
        result = record.replay()               # a Replay: the game, any refused action
        record.dump("copy.json")

    ``data`` is the plain dict every function here also takes; nothing is checked until
    the record is replayed (or :meth:`start` is asked for), so a record can be built and
    edited freely first."""

    data: dict[str, Any]

    @classmethod
    def load(cls, path: str | Path) -> Record:
        """A record file, bounded in size and nesting (errors name the file)."""
        return cls(load_record(path))

    @classmethod
    def loads(cls, text: str, source: str = "record") -> Record:
        """A record from JSON text; ``source`` names it in errors."""
        data = parse_json(text, source)
        if not isinstance(data, dict):
            raise InvalidInputError("a record is a JSON object {\"players\": [...], ...}",
                                    source=source)
        return cls(data)

    @classmethod
    def of(cls, game: Game) -> Record:
        """The record that replays ``game`` exactly (:func:`to_record`)."""
        return cls(to_record(game))

    def dumps(self, indent: int | None = None) -> str:
        return json.dumps(self.data, indent=indent)

    def dump(self, path: str | Path, indent: int | None = 1) -> None:
        write_text(str(path), self.dumps(indent) + "\n", "record")

    def start(self, rules: RuleTable | None = None) -> Game:
        """The game before the first action (:func:`game_from_record`)."""
        return game_from_record(self.data, rules)

    @property
    def actions(self) -> list[Action]:
        """Every action, parsed; a game record's (version 3) of every round, in order."""
        if version_of(self.data) == 3:
            return [a for r in start_game(self.data)[1] for a in r.actions]
        return record_actions(self.data)

    def replay(self, rules: RuleTable | None = None, stop_at: int | None = None) -> Replay:
        """Play the actions in order up to the first refused one (:func:`replay`)."""
        return replay(self.data, rules, stop_at)


def game_from_record(record: dict[str, Any], rules: RuleTable | None = None,
                     stated: type[StatedGame] = StatedGame, lenient: bool = False) -> Game:
    """The game a record starts from (before its actions). Errors name the field (``key``).
    A version-2 record's game is a ``stated`` (a :class:`StatedGame` or a subclass).

    A set-up statement the rules contradict once its stage is over (a start reshuffle
    the start card does not cause, a start color not drawn at random, a dealer draw after
    the dealer is decided) is refused as input by default; ``lenient``, the game is set
    up as the rules have it and :func:`set_up_deviation` gives the contradiction (a record
    that deviates at its set-up: :func:`replay` and the referee count it so)."""
    if not isinstance(record, dict):
        raise InvalidInputError(f"record {show(record)}: expected a JSON object")
    if version_of(record) == 3:
        game = start_game(record, rules, stated)[0]
        deviation = set_up_deviation(game)
        if deviation is not None and not lenient:
            raise InvalidInputError(deviation.message, deviation.rule_id, key=deviation.key)
        return game
    return round_game(record, rules, stated, lenient)


def replay(record: dict[str, Any] | Record, rules: RuleTable | None = None,
           stop_at: int | None = None) -> Replay:
    """Play a record's actions in order, stopping at the first refused one (``record``:
    the JSON object, or a :class:`Record`).

    A malformed record (bad fields, bad deal, a malformed action anywhere) raises
    :class:`InvalidInputError` naming the field, and the action's index; a refused action
    is reported in the result with its index, the game left in the state just before it
    (which the error also carries). A set-up the rules contradict (a start Wild stated to
    be put back ...) is reported so too, before any action: its ``error_index`` is None,
    its error's ``key`` the set-up field (:func:`set_up_deviation`).
    """
    if isinstance(record, Record):
        record = record.data
    if version_of(record) == 3:  # a whole game: round by round, its ends checked
        return replay_game(record, rules, stop_at)
    return replay_round(record, rules, stop_at)
