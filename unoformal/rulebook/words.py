"""A rule's words with its values filled in.

An entry's ``text`` is a template over the entry's own fields, so the words follow the
values: a variant that changes a value changes what its rule says.

- ``{field}``: the value (a number, a color list, an enumeration's text);
- ``{field:card}``: a count with its noun, ``1 card`` or ``2 cards``;
- ``{field?words if true|words if false}``: words chosen by a switch (or a non-zero,
  non-empty value); ``{field=text?...|...}`` by the value's text. The chosen words may
  hold simple placeholders.
"""

from __future__ import annotations

import json
import re
from dataclasses import fields, is_dataclass
from enum import Enum
from typing import Any

from unoformal.rulebook.cards import Kind

# A simple placeholder "{name}" or "{name:noun}"; a choice "{name?yes|no}" or
# "{name=value?yes|no}" whose branches may hold simple placeholders and choices of their
# own (one level: a reading of a house rule said only where the rule is on). Braces never
# appear otherwise in a template.
_SIMPLE = r"\{(\w+)(?::(\w+))?\}"
_FLAT = r"(?:[^{}|]|\{\w+(?::\w+)?\})*"
_INNER = rf"\{{\w+(?:=[\w-]+)?\?{_FLAT}\|{_FLAT}\}}"
_BRANCH = rf"(?:[^{{}}|]|\{{\w+(?::\w+)?\}}|{_INNER})*"
SIMPLE = re.compile(_SIMPLE)
CHOICE = re.compile(rf"\{{(\w+)(?:=([\w-]+))?\?({_BRANCH})\|({_BRANCH})\}}")
# A clause dropped at the start of a list leaves ": ;", tidied to ": ".
_TIDY = re.compile(r":\s*;\s*")

# A kind of card in words (the table's words, refusals, causes, the rules' statements).
KIND_NAMES = {Kind.NUMBER: "number card", Kind.SKIP: "Skip", Kind.REVERSE: "Reverse",
              Kind.DRAW_TWO: "Draw Two", Kind.WILD: "Wild", Kind.WILD_DRAW_FOUR: "Wild Draw Four"}
_KIND_WORDS = {kind: f"a {name}" for kind, name in KIND_NAMES.items()}


class TemplateError(KeyError):
    """A template names a field its entry does not have (a table author's mistake)."""


def fill(template: str, values: dict[str, Any]) -> str:
    """``template`` with every placeholder replaced from ``values``. Choices are made
    first, on the template alone, so a value's own text (a variant file's words) is never
    read as a placeholder."""

    def value(name: str) -> Any:
        if name not in values:
            raise TemplateError(f"placeholder {{{name}}} names no field (has {sorted(values)})")
        return values[name]

    def choose(match: re.Match[str]) -> str:
        name, equals, yes, no = match.groups()
        v = value(name)
        raw = v.value if isinstance(v, Enum) else v
        chosen = str(raw) == equals if equals is not None else bool(v)
        return CHOICE.sub(choose, str(yes if chosen else no))  # a choice within

    def simple(match: re.Match[str]) -> str:
        name, noun = match.groups()
        v = value(name)
        if noun is None:
            return show(v)
        return f"{v} {noun}" if v == 1 else f"{v} {noun}s"

    return _TIDY.sub(": ", SIMPLE.sub(simple, CHOICE.sub(choose, template)))


def show(value: Any) -> str:
    """A value as words: tuples as lists, enumerations as their text, kinds named, a rule
    file's entry (a ``[[house.change]]``) as the fields it sets, as the file writes them."""
    if isinstance(value, tuple):
        return ", ".join(show(v) for v in value) if value else "none"
    if is_dataclass(value) and not isinstance(value, type):
        return _inline(value)
    if isinstance(value, Kind):
        return _KIND_WORDS[value]
    if isinstance(value, Enum):
        return str(value.value).replace("-", " ")
    if isinstance(value, bool):
        return "true" if value else "false"  # as a variant file spells it
    return str(value)


def _inline(entry: Any) -> str:
    """A TOML inline table of the fields ``entry`` sets (those not at their default)."""
    set_ = [(f.name, getattr(entry, f.name)) for f in fields(entry)
            if getattr(entry, f.name) != f.default]
    return "{" + ", ".join(f"{name} = {_toml(value)}" for name, value in set_) + "}"


def _toml(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return json.dumps(value, ensure_ascii=False)  # a TOML basic string's escapes
    return show(value)


def placeholders(template: str) -> set[str]:
    """The field names a template reads."""
    inner = [b for m in CHOICE.finditer(template) for b in m.group(3, 4)]
    return {m.group(1) for m in (*CHOICE.finditer(template), *SIMPLE.finditer(template))} \
        | {name for branch in inner for name in placeholders(branch)}
