"""State-graph exploration of small decks: stuck states, dead rules, traps.

The graph is built from the engine's own successor function (:mod:`.chance`) over
the same rule table; see ``docs/explorer.md``.
"""

from unoformal.verification.explore.analysis import Findings, analyse
from unoformal.verification.explore.graph import Config, StateGraph, explore, preset_config
from unoformal.verification.explore.presets import PRESETS, Preset, Size, small_rules

__all__ = ["PRESETS", "Config", "Findings", "Preset", "Size", "StateGraph", "analyse",
           "explore", "preset_config", "small_rules"]
