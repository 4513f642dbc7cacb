"""The record schema compiled once (fastjsonschema) says yes exactly when ``jsonschema``
walking it does, so ``conform`` may trust its yes and keep ``jsonschema``'s words for a no."""

from __future__ import annotations

import json
from collections.abc import Callable
from importlib import resources
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.fuzz.families import mutated_records
from unoformal.engine import rounds as rounds_module
from unoformal.engine.record import _inline, _record_validator, check_schema, schema_accepts
from unoformal.errors import InvalidInputError


def _walk_accepts(record: Any) -> bool:
    return next(iter(_record_validator().iter_errors(record)), None) is None


def disagreement(record: Any) -> str | None:
    """Why the compiled schema and the walked one differ on ``record`` (None: they agree)."""
    fast, slow = schema_accepts(record), _walk_accepts(record)
    if fast == slow:
        return None
    return f"compiled {'accepts' if fast else 'refuses'}, jsonschema " \
           f"{'accepts' if slow else 'refuses'}: {json.dumps(record)[:300]}"


@st.composite
def records_of_both_versions(draw: st.DrawFn) -> Any:
    record = draw(mutated_records())
    if isinstance(record, dict) and draw(st.booleans()):
        record = {"version": 2, **record, "meta": {"engine": "x"}}
        actions = record.get("actions")
        if isinstance(actions, list) and actions and isinstance(actions[0], dict):
            actions[0] = {**actions[0], "draws": draw(st.sampled_from(
                [{"Ann": ["R1"]}, {"Ann": "R1"}, {"Ann": [1]}, []]))}
    return record


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(records_of_both_versions())
def test_the_compiled_schema_agrees_with_jsonschema(record: Any) -> None:
    assert disagreement(record) is None


def _lax(record: Any) -> Any:
    return record


def test_a_compiled_schema_that_lets_more_through_is_caught(
        monkeypatch: pytest.MonkeyPatch) -> None:
    # The check above can fail: a compiled validator that takes anything disagrees on the
    # first record the format refuses.
    lax: Callable[[], Callable[[Any], Any]] = lambda: _lax  # noqa: E731
    monkeypatch.setattr(rounds_module, "_fast_validator", lax)
    assert disagreement({"players": ["A", "B"], "seed": "7"}) is not None


def test_a_refused_record_still_names_the_place() -> None:
    bad = {"version": 2, "players": ["A", "B"],
           "actions": [{"player": "A", "action": "draw", "draws": {"A": "R1"}}]}
    with pytest.raises(InvalidInputError) as info:
        check_schema(bad)
    assert info.value.key == "actions[0].draws.A" and info.value.index == 0
    assert "is not of type 'array'" in info.value.message


def test_references_are_resolved_once_into_the_schema_itself() -> None:
    # Both validators are built from the schema with every "#/$defs/..." replaced by its
    # definition (inside lists and nested definitions too); any other reference is kept.
    defs = {"card": {"type": "string"},
            "cards": {"type": "array", "items": {"$ref": "#/$defs/card"}}}
    schema = {"properties": {"deal": {"$ref": "#/$defs/cards"},
                             "any": {"oneOf": [{"$ref": "#/$defs/card"}, {"type": "null"}]},
                             "other": {"$ref": "https://example.invalid/x.json"}}}
    assert _inline(schema, defs) == {"properties": {
        "deal": {"type": "array", "items": {"type": "string"}},
        "any": {"oneOf": [{"type": "string"}, {"type": "null"}]},
        "other": {"$ref": "https://example.invalid/x.json"}}}


def test_the_shipped_schema_is_left_with_no_local_reference() -> None:
    schema = json.loads(resources.files("unoformal.engine")
                        .joinpath("record.schema.json").read_text())
    text = json.dumps(_inline(schema, schema["$defs"]))
    assert '"$ref"' in json.dumps(schema) and '"$ref"' not in text


def _unwalked() -> Any:
    raise AssertionError("jsonschema walked a record the compiled schema takes")


def test_a_record_the_compiled_schema_takes_is_not_walked_again(
        monkeypatch: pytest.MonkeyPatch) -> None:
    # The compiled schema has the first word: a record it takes is checked by it alone
    # (walking it again is what conform's speed depends on not doing).
    good = {"version": 2, "players": ["A", "B"],
            "actions": [{"player": "A", "action": "draw", "draws": {"A": ["R1"]}}]}
    monkeypatch.setattr(rounds_module, "_record_validator", _unwalked)
    check_schema(good)
    with pytest.raises(AssertionError, match="jsonschema walked"):
        check_schema({**good, "seed": "7"})  # refused: walked for its words
