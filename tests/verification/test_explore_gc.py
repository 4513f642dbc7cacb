"""The explorer runs with the cycle collector off: that is safe only while the search makes
no reference cycles (they would pile up until it ends). Shown able to fail by planting one."""

from __future__ import annotations

import gc

import pytest

from unoformal.verification.explore.chance import ExploreGame
from unoformal.verification.explore.graph import explore, preset_config


def _cyclic_garbage(preset: str) -> int:
    """Objects in reference cycles the exploration of ``preset`` left unreachable (the
    collector kept off until counted: switched back on, it would free them unseen)."""
    config = preset_config(preset)  # deriving a table makes cycles of its own
    gc.collect()
    gc.disable()
    try:
        explore(config)
        return gc.collect()
    finally:
        gc.enable()


def test_exploring_makes_no_reference_cycles() -> None:
    assert _cyclic_garbage("duel") == 0


def test_a_planted_cycle_is_found(monkeypatch: pytest.MonkeyPatch,
                                  patchable_explorer: None) -> None:
    copy = ExploreGame.copy

    def cyclic(self: ExploreGame) -> ExploreGame:
        new = copy(self)
        new.loop = new  # type: ignore[attr-defined]  # the planted cycle
        return new

    monkeypatch.setattr(ExploreGame, "copy", cyclic)
    assert _cyclic_garbage("duel") > 0


def test_the_collector_is_back_as_it_was() -> None:
    config = preset_config("micro")
    explore(config)
    assert gc.isenabled()
    gc.disable()
    try:
        explore(config)
        assert not gc.isenabled()
    finally:
        gc.enable()
