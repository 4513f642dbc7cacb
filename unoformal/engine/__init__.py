"""The engine: plays and referees games by interpreting the rule table."""

import warnings

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
from unoformal.runtime.compiled import stale

# An edit of a compiled module in a checkout has no effect until it is built again: say so.
_stale = stale()
if _stale:
    warnings.warn(f"{', '.join(_stale)}: changed since the package was built, and Python "
                  "imports the compiled module instead: run `pip install -e .` again (or "
                  "delete its .so file to run the source)", stacklevel=2)

__all__ = ["Action", "ActionType", "Game", "PlayerView", "Record", "Replay", "game_from_record",
           "load_record", "replay", "to_record"]
