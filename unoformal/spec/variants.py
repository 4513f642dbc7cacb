"""Variants are data: the classic table plus named overrides, or a TOML file.

A TOML variant names a base and overrides entries by rule ID::

    name = "seed004"
    base = "classic"
    description = "One penalty card for a missed UNO and for a misplay."
    [rules."UNO-1"]
    penalty = 1

Every override is kept on the table (``RuleTable.overrides``) so a printed
table says where it departs from the rulebook.
"""

from __future__ import annotations

import dataclasses
import functools
import tomllib
import typing
from enum import Enum
from pathlib import Path
from typing import Any

from unoformal.spec.cards import Color
from unoformal.spec.table import CLASSIC, Rule, RuleTable

Overrides = dict[str, dict[str, Any]]

VARIANTS: dict[str, tuple[str, Overrides]] = {
    "classic": (CLASSIC.description, {}),
    "seed004": ("Seed 004: one penalty card for a missed UNO and for an incorrect card.",
                {"UNO-1": {"penalty": 1}, "MISPLAY-1": {"cards": 1}}),
    "winner-deals": ("Seed 001: the round winner deals the next round.",
                     {"END-2": {"next_dealer": "winner"}}),
    "stacking": ("House rule: a Draw Two may answer a Draw Two; penalties add up.",
                 {"NOSTACK-1": {"victim_may_answer": True, "answers": ["+2"]}}),
}


class VariantError(ValueError):
    """An unknown variant, rule ID or value."""


def derive(base: RuleTable, name: str, description: str, overrides: Overrides) -> RuleTable:
    """A new table: ``base`` with the given entry values replaced."""
    table = base
    log = list(base.overrides)
    for rule_id, values in overrides.items():
        attrs = [attr for attr, rule in table.entries() if rule.id == rule_id]
        if not attrs:
            raise VariantError(f"variant {name!r}: no rule {rule_id!r} in the table")
        for attr in attrs[:1]:
            entry: Rule = getattr(table, attr)
            changes = {key: _coerce(entry, key, value, name) for key, value in values.items()}
            new_entry: Any = dataclasses.replace(entry, **changes)
            table = dataclasses.replace(table, **{attr: new_entry})
            log.extend((rule_id, key, value) for key, value in changes.items())
    return dataclasses.replace(table, name=name, description=description,
                               overrides=tuple(log))


def _coerce(entry: Rule, key: str, value: Any, variant: str) -> Any:
    hints = typing.get_type_hints(type(entry))
    if key not in hints or key in ("id", "source", "text", "reason"):
        raise VariantError(f"variant {variant!r}: rule {entry.id} has no value {key!r}")
    hint = hints[key]
    try:
        return _convert(hint, value)
    except (ValueError, TypeError) as err:
        raise VariantError(f"variant {variant!r}: {entry.id}.{key} = {value!r}: {err}") from None


def _convert(hint: Any, value: Any) -> Any:
    origin = typing.get_origin(hint)
    if origin is tuple:
        (elem, *_) = typing.get_args(hint)
        return tuple(_convert(elem, v) for v in value)
    if hint is bool:
        if not isinstance(value, bool):
            raise TypeError("expected true or false")
        return value
    if hint is int:
        if isinstance(value, bool) or not isinstance(value, int):
            raise TypeError("expected an integer")
        return value
    if hint is Color:
        return value if isinstance(value, Color) else Color.parse(value)
    if isinstance(hint, type) and issubclass(hint, Enum):
        return value if isinstance(value, hint) else hint(value)
    return value


def load_rules(name_or_path: str | None = None) -> RuleTable:
    """The table for a variant name (``classic`` when None) or a TOML file path."""
    if name_or_path is None:
        return CLASSIC
    if name_or_path in VARIANTS:
        return _named(name_or_path)
    path = Path(name_or_path)
    if path.suffix == ".toml" and path.exists():
        return load_toml(path)
    known = ", ".join(VARIANTS)
    raise VariantError(f"unknown rules {name_or_path!r}: expected one of {known}, "
                       "or the path of a .toml variant file")


@functools.cache
def _named(name: str) -> RuleTable:
    """A shipped variant, built once: the same name gives the same (frozen) table, so
    games and state texts read back with it share the engine's per-table lookups."""
    description, overrides = VARIANTS[name]
    return derive(CLASSIC, name, description, overrides)


def load_toml(path: Path) -> RuleTable:
    try:
        data = tomllib.loads(path.read_text())
    except tomllib.TOMLDecodeError as err:
        raise VariantError(f"{path}: not valid TOML: {err}") from None
    base = load_rules(data.get("base", "classic"))
    rules = data.get("rules", {})
    if not isinstance(rules, dict):
        raise VariantError(f"{path}: [rules] must be a table of rule IDs")
    return derive(base, str(data.get("name", path.stem)), str(data.get("description", "")), rules)

