"""The packed successors (read and generated from the commands) on catalogue tables whose
readings have branches of their own there: each gives the engine's graph, edge for edge,
on a small deck where the rule changes the graph."""

from __future__ import annotations

import numpy as np
import pytest

from unoformal.verification.explore.graph import Config
from unoformal.verification.explore.presets import PRESETS, small_rules
from unoformal.verification.packed.search import PackedGraph, search


def _graph(preset: str, rules: str | None, successor: str) -> PackedGraph:
    size, extra = PRESETS[preset].size, dict(PRESETS[preset].extra)
    cfg = Config(small_rules(size, rules, extra, preset), tuple(size.players_list()),
                 preset, False, size.penalties)
    return search(cfg, successor=successor)


@pytest.mark.parametrize("successor", ["commands", "generated"])
def test_wd4_1_wild_excuses_is_read_as_the_engine_reads_it(successor: str) -> None:
    """WD4-1's wild_excuses (another wild card held makes a Wild Draw Four legal): its
    rows of excused faces, on `wd4`, where two Wild Draw Fours excuse each other."""
    engine = _graph("wd4", "wild-excuses", "engine")
    assert engine.states != _graph("wd4", None, "engine").states  # the value matters here
    got = _graph("wd4", "wild-excuses", successor)
    assert np.array_equal(got.records.read(), engine.records.read())
    assert np.array_equal(got.dst.read(), engine.dst.read())
    assert np.array_equal(got.act.read(), engine.act.read())


@pytest.mark.parametrize("rule", ["draw-until", "no-wild-last"])
def test_a_rule_files_changes_are_read_as_the_engine_reads_them(rule: str) -> None:
    """A catalogue rule written as a rule file (``[[house]]``: draw-until's guard of the
    draw replaced, no-wild-last's conjunct required of a play) is read by both packed
    successors as the engine plays it, on `tiny`, where it changes the graph."""
    engine = _graph("tiny", rule, "engine")
    assert engine.states != _graph("tiny", None, "engine").states
    for successor in ("commands", "generated"):
        got = _graph("tiny", rule, successor)
        assert np.array_equal(got.records.read(), engine.records.read()), successor
        assert np.array_equal(got.dst.read(), engine.dst.read()), successor
        assert np.array_equal(got.act.read(), engine.act.read()), successor
