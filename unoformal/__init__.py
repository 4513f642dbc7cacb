"""unoformal: the rules of UNO stated once, as a rule table, played, proved and explored.

The names below load on first use (PEP 562): ``import unoformal`` alone loads nothing
else, so the ``unoformal`` command handles Ctrl-C before its modules have loaded.
"""

from __future__ import annotations

import importlib

# Not typing's: importing typing takes a few milliseconds before Ctrl-C is handled.
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from unoformal.adapters.kit import records_from_trace
    from unoformal.compare.live import Referee
    from unoformal.compare.records import Tally, conform
    from unoformal.engine.actions import Action, ActionType
    from unoformal.engine.chance import ChanceError, StatedChance
    from unoformal.engine.game import Chance, Game, PlayerView
    from unoformal.engine.game_writer import game_record
    from unoformal.engine.record import Record, Replay, load_record, replay, to_record
    from unoformal.errors import IllegalActionError, InvalidInputError, UnoError, VariantError
    from unoformal.rulebook.table import CLASSIC, RuleTable
    from unoformal.rulebook.variants import VARIANTS, derive, load_rules
    from unoformal.verification.explore.graph import Config, StateGraph, explore, preset_config

# The public API: these names, where they are found (docs/api.md). Everything else in the
# package is private and may move in any release; these follow semantic versioning.
_HOME = {
    "unoformal.adapters.kit": ("records_from_trace",),
    "unoformal.compare.live": ("Referee",),
    "unoformal.compare.records": ("Tally", "conform"),
    "unoformal.engine.actions": ("Action", "ActionType"),
    "unoformal.engine.chance": ("ChanceError", "StatedChance"),
    "unoformal.engine.game": ("Chance", "Game", "PlayerView"),
    "unoformal.engine.game_writer": ("game_record",),
    "unoformal.engine.record": ("Record", "Replay", "load_record", "replay", "to_record"),
    "unoformal.errors": ("IllegalActionError", "InvalidInputError", "UnoError",
                         "VariantError"),
    "unoformal.rulebook.table": ("CLASSIC", "RuleTable"),
    "unoformal.rulebook.variants": ("VARIANTS", "derive", "load_rules"),
    "unoformal.verification.explore.graph": ("Config", "StateGraph", "explore",
                                             "preset_config"),
}
_MODULE_OF = {name: module for module, names in _HOME.items() for name in names}

__all__ = ["CLASSIC", "VARIANTS", "Action", "ActionType", "Chance", "ChanceError", "Config",
           "Game", "IllegalActionError", "InvalidInputError", "PlayerView", "Record",
           "Referee", "Replay", "RuleTable", "StateGraph", "StatedChance", "Tally", "UnoError",
           "VariantError", "conform", "derive", "explore", "game_record", "load_record",
           "load_rules", "preset_config", "records_from_trace", "replay", "to_record"]
__version__ = "0.1.0"


def __getattr__(name: str) -> Any:
    module = _MODULE_OF.get(name)
    if module is None:
        raise AttributeError(f"module 'unoformal' has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value  # looked up once
    return value


def __dir__() -> list[str]:
    return sorted([*globals(), *__all__])
