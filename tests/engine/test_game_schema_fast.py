"""The game schema compiled once (fastjsonschema) says yes exactly when ``jsonschema``
walking it does, so refereeing a whole game may trust its yes and keep ``jsonschema``'s
words for a no (as tests/engine/test_record_schema.py shows of one-round records)."""

from __future__ import annotations

import copy
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from unoformal.engine import games as games_module
from unoformal.engine.games import _validator, game_schema_accepts

GAME = json.loads((Path(__file__).resolve().parents[1] / "records" / "game_to_100.json")
                  .read_text("utf-8"))
ODD = [None, 0, -1, 1.5, "", "x", "P0", [], [""], {}, {"x": 1}, True, ["R1"], {"P0": 1}]


def _walk_accepts(record: Any) -> bool:
    return next(iter(_validator().iter_errors(record)), None) is None


def _places(node: Any, path: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Every place in ``node`` (dict keys, list indices), a few list items each."""
    out = [path]
    if isinstance(node, dict):
        for k, v in node.items():
            out += _places(v, (*path, k))
    elif isinstance(node, list):
        for i, v in enumerate(node[:3]):
            out += _places(v, (*path, i))
    return out


PLACES = _places(GAME)[1:]


def _mutated(place: tuple[Any, ...], value: Any, drop: bool) -> Any:
    record = copy.deepcopy(GAME)
    node = record
    for step in place[:-1]:
        node = node[step]
    if drop and isinstance(node, dict):
        node.pop(place[-1], None)
    else:
        node[place[-1]] = value
    return record


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(place=st.sampled_from(PLACES), value=st.sampled_from(ODD), drop=st.booleans())
def test_the_compiled_game_schema_agrees_with_jsonschema(place: tuple[Any, ...], value: Any,
                                                         drop: bool) -> None:
    record = _mutated(place, value, drop)
    assert game_schema_accepts(record) == _walk_accepts(record), (place, value, drop)


def test_the_game_record_itself_is_taken_by_both() -> None:
    assert game_schema_accepts(GAME) and _walk_accepts(GAME)


def _lax(record: Any) -> Any:
    return record


def test_a_compiled_game_schema_that_lets_more_through_is_caught(
        monkeypatch: pytest.MonkeyPatch) -> None:
    lax: Callable[[], Callable[[Any], Any]] = lambda: _lax  # noqa: E731
    monkeypatch.setattr(games_module, "_fast_validator", lax)
    record = _mutated(("rounds", 0, "end", "points"), "x", False)
    assert game_schema_accepts(record) != _walk_accepts(record)
