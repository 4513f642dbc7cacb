"""The engine: plays and referees games by interpreting the rule table."""

from unoformal.engine.actions import Action, ActionType
from unoformal.engine.game import Game, PlayerView
from unoformal.engine.record import (
    Record,
    Replay,
    game_from_record,
    load_record,
    replay,
    to_record,
)

__all__ = ["Action", "ActionType", "Game", "PlayerView", "Record", "Replay", "game_from_record",
           "load_record", "replay", "to_record"]
