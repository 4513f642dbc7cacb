"""The engine: plays and referees games by interpreting the rule table."""

import warnings
from pathlib import Path

from unoformal.engine import game
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


def build() -> str:
    """How the installed engine was built: ``"compiled by mypyc"`` (setup.py compiles
    ``engine/game.py`` where it can) or ``"pure Python"``."""
    return "pure Python" if (game.__file__ or "").endswith(".py") else "compiled by mypyc"


def stale() -> bool:
    """In a source checkout, the compiled engine is older than ``engine/game.py``: Python
    imports the compiled one, so an edit of the source has no effect until it is built
    again."""
    compiled = Path(game.__file__ or "")
    source = compiled.with_name("game.py")
    if compiled.suffix == ".py" or not (compiled.parent.parent.parent / "setup.py").exists():
        return False
    return source.exists() and source.stat().st_mtime > compiled.stat().st_mtime


if stale():
    warnings.warn("the compiled engine is older than unoformal/engine/game.py, and Python "
                  "imports it instead: run `pip install -e .` again (or delete "
                  "unoformal/engine/*.so to run the source)", stacklevel=2)


__all__ = [
    "Action",
    "ActionType",
    "Game",
    "PlayerView",
    "Record",
    "Replay",
    "build",
    "game_from_record",
    "load_record",
    "replay",
    "stale",
    "to_record",
]
