"""The JSON Schema of variants, generated from the rule table's annotations.

Every field of every entry states its type and range beside it in
:mod:`unoformal.rulebook.table` (``Annotated[int, Range(0, 20)]``); this module turns
them into one JSON Schema (``additionalProperties: false`` everywhere, so an unknown
key anywhere is refused) and validates variant files and override dicts against it
with ``jsonschema``, imported only when something is to be validated. A refusal is a
:class:`~unoformal.errors.VariantError` of one line naming where, the key path, the
value and what is allowed, and the rule ID it breaks. The table's cross-field checks
(:data:`unoformal.rulebook.table.CHECKS`) are reported the same way.
"""

from __future__ import annotations

import dataclasses
import functools
import json
import re
import reprlib
import typing
from collections.abc import Iterable
from enum import Enum
from typing import TYPE_CHECKING, Annotated, Any

from unoformal.errors import VariantError
from unoformal.rulebook.bounds import Fixed, Text
from unoformal.rulebook.table import CLASSIC, MOVE_ACTIONS, Expect, Rule, RuleTable, breaches

if TYPE_CHECKING:
    from jsonschema.exceptions import ValidationError
    from jsonschema.protocols import Validator

# The common head of an entry says what the rule is; a variant changes its values only
# (and ``enabled``, where the entry can be switched off).
HEAD = frozenset(f.name for f in dataclasses.fields(Rule)) - {"enabled"}
DEPTH = 8  # nesting a variant needs: rules -> entry -> field -> list item, with room
BASE = Text(300, what="a shipped variant's name or a .toml path", low=1)


def value_schema(hint: Any) -> dict[str, Any]:
    """The JSON Schema of one field, from its annotation (``Annotated[type, mark]``)."""
    marks: tuple[Any, ...] = ()
    if typing.get_origin(hint) is Annotated:
        hint, *rest = typing.get_args(hint)
        marks = tuple(rest)
    out = _type_schema(hint)
    for mark in marks:
        out.update(mark.keywords())
    return out


def _type_schema(hint: Any) -> dict[str, Any]:
    if hint is bool:
        return {"type": "boolean"}
    if hint is int:
        return {"type": "integer"}
    if hint is str:
        return {"type": "string"}
    if isinstance(hint, type) and issubclass(hint, Enum):
        return {"enum": [member.value for member in hint]}
    if typing.get_origin(hint) is tuple:
        return {"type": "array", "items": value_schema(typing.get_args(hint)[0])}
    if dataclasses.is_dataclass(hint):
        return object_schema(hint, [f.name for f in dataclasses.fields(hint)])
    raise TypeError(f"no schema for a field of type {hint!r}")


def hints(cls: Any) -> dict[str, Any]:
    """A class's annotations with their marks."""
    return _hints(cls)


@functools.cache
def _hints(cls: Any) -> dict[str, Any]:
    # Cached: resolving annotations is the slow part of building the schema, and
    # ``settable`` asks for every entry of every mutant.
    return typing.get_type_hints(cls, include_extras=True)


def object_schema(cls: Any, names: Iterable[str], required: bool = True) -> dict[str, Any]:
    types = hints(cls)
    names = list(names)
    out: dict[str, Any] = {"type": "object",
                           "properties": {n: value_schema(types[n]) for n in names},
                           "additionalProperties": False}
    if required:
        out["required"] = names
    return out


def settable(entry: Rule) -> list[str]:
    """The fields of an entry a variant may set."""
    types = hints(type(entry))
    out = []
    for f in dataclasses.fields(entry):
        fixed = any(isinstance(m, Fixed) for m in getattr(types[f.name], "__metadata__", ()))
        if f.name in HEAD or fixed or (f.name == "enabled" and not entry.switchable):
            continue
        out.append(f.name)
    return out


@functools.cache
def rules_schema() -> dict[str, Any]:
    """``rules``: rule ID -> the values of its entry a variant may set. The first entry of
    an ID is the one a variant changes (as :func:`~unoformal.rulebook.variants.derive`)."""
    entries: dict[str, dict[str, Any]] = {}
    for _, entry in CLASSIC.entries():
        if entry.id not in entries:
            entries[entry.id] = object_schema(type(entry), settable(entry), required=False)
    return {"type": "object", "properties": entries, "additionalProperties": False}


@functools.cache
def file_schema() -> dict[str, Any]:
    """A variant file's top level: exactly ``name``, ``base``, ``description``, ``rules``
    and ``expect``, none required."""
    table = hints(RuleTable)
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "title": "unoformal variant file",
        "type": "object",
        "properties": {"name": value_schema(table["name"]),
                       "base": value_schema(Annotated[str, BASE]),
                       "description": value_schema(table["description"]),
                       "rules": rules_schema(), "expect": value_schema(table["expect"]),
                       "house": house_schema(),
                       # a Python module of conditions (unoformal.rulebook.modules)
                       "module": {"type": "string", "minLength": 4, "maxLength": 300,
                                  "pattern": r"\.py$"}},
        "additionalProperties": False,
    }


# A condition in a rule file: an expression of the rule language's conditions, parsed where
# the commands are built (unoformal.rules.house), since the table does not know the
# language; here only its length. A string keeps a file and a record flat however the
# condition nests (JSON inputs are nested at most 8 deep).
_COND = {"type": "string", "minLength": 1, "maxLength": 1000}


def house_schema() -> dict[str, Any]:
    """``[[house]]``: the house rules a rule file adds, each an entry with the changes it
    makes to the moves' commands (``Change``)."""
    text = {"type": "string", "maxLength": 2000}
    change = {"type": "object", "additionalProperties": False, "required": ["command"],
              "properties": {"command": {"type": "string", "pattern": "^[a-z_]+$",
                                         "maxLength": 40},
                             "conjunct": {"type": "string", "maxLength": 300},
                             "when": _COND, "drop": {"type": "boolean"}, "require": _COND,
                             "words": {"type": "string", "maxLength": 300},
                             "then": _COND, "then_if": _COND,
                             "step": {"type": "string", "maxLength": 300},
                             "instead": _COND}}
    prop = {"type": "object", "additionalProperties": False,
            "required": ["name", "says", "command"],
            "properties": {"name": {"type": "string", "pattern": "^[a-z0-9][a-z0-9-]*$",
                                    "maxLength": 60},
                           "says": {"type": "string", "minLength": 1, "maxLength": 300},
                           "command": {"type": "string", "pattern": "^[a-z_]+$",
                                       "maxLength": 40},
                           "before": _COND, "after": _COND}}
    move = {"type": "object", "additionalProperties": False,
            "required": ["name", "action", "require", "then"],
            "properties": {"name": {"type": "string", "pattern": "^[a-z][a-z0-9-]*$",
                                    "maxLength": 40},
                           "action": {"enum": list(MOVE_ACTIONS)},
                           "require": _COND, "then": _COND,
                           "text": {"type": "string", "maxLength": 300}}}
    entry = {"type": "object", "additionalProperties": False, "required": ["id", "text"],
             "properties": {"id": {"type": "string", "pattern": "^[A-Z][A-Z0-9]*(-[A-Z0-9]+)*$",
                                   "maxLength": 40},
                            "text": {**text, "minLength": 1}, "reason": text,
                            "enabled": {"type": "boolean"},
                            "change": {"type": "array", "maxItems": 20, "items": change},
                            "property": {"type": "array", "maxItems": 20, "items": prop},
                            "move": {"type": "array", "maxItems": 20, "items": move}}}
    return {"type": "array", "maxItems": 20, "items": entry}


@functools.cache
def _validator() -> Validator:
    import jsonschema

    def integer(_: Any, value: Any) -> bool:
        # JSON Schema counts 1.0 and True as integers in places; a table count is neither.
        return isinstance(value, int) and not isinstance(value, bool)

    base: Any = jsonschema.Draft202012Validator
    extend: Any = jsonschema.validators.extend  # untyped in the stubs
    cls = extend(base, type_checker=base.TYPE_CHECKER.redefine("integer", integer))
    # The schema is generated from code, so it is checked against the meta-schema by a
    # test, not here: checking it costs more than importing jsonschema.
    validator: Validator = cls(file_schema())
    return validator


def validate(document: Any, where: str) -> None:
    """Refuse ``document`` (a variant file, or what :func:`derive` is given, in the same
    form) with the most relevant schema error, on one line."""
    too_deep = depth_path(document, DEPTH)
    if too_deep is not None:
        raise VariantError(f"{where}: {key_path(too_deep)}: nested more than {DEPTH} levels "
                           "deep (a variant needs 4)")
    from jsonschema.exceptions import best_match

    error = best_match(_validator().iter_errors(document))
    if error is not None:
        raise _refusal(error, where)


def check_table(table: RuleTable, where: str) -> None:
    """Refuse a table that fails a cross-field check (:data:`~unoformal.rulebook.table.CHECKS`)."""
    for check, breach in breaches(table):
        raise VariantError(f"{where}: {key_path(breach.path)} = {show(breach.value)}: allowed "
                           f"{breach.allowed} [check {check.name}]", breach.rule_id)


def table_document(table: RuleTable) -> dict[str, Any]:
    """The whole table as a variant file would state it (every settable value), so a
    table can be checked against the schema as a file is."""
    rules: dict[str, dict[str, Any]] = {}
    for _, entry in table.entries():
        rules.setdefault(entry.id, {k: plain(getattr(entry, k)) for k in settable(entry)})
    doc: dict[str, Any] = {"name": table.name, "description": table.description,
                           "rules": rules, "expect": plain(table.expect)}
    return doc


def plain(value: Any) -> Any:
    """A Python value as TOML states it: enumerations by their value, tuples and
    dataclasses as arrays and tables."""
    if isinstance(value, Enum):
        return value.value
    if isinstance(value, list | tuple):
        return [plain(v) for v in value]
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: plain(getattr(value, f.name)) for f in dataclasses.fields(value)}
    if isinstance(value, dict):
        return {k: plain(v) for k, v in value.items()}
    return value


def depth_path(value: Any, limit: int) -> tuple[str | int, ...] | None:
    """The key path of a value nested more than ``limit`` levels deep, if any (walked
    without recursion, so no nesting can exhaust the stack)."""
    stack: list[tuple[Any, tuple[str | int, ...]]] = [(value, ())]
    while stack:
        item, path = stack.pop()
        if len(path) > limit:
            return path[:limit]
        if isinstance(item, dict):
            stack.extend((v, (*path, str(k))) for k, v in item.items())
        elif isinstance(item, list | tuple):
            stack.extend((v, (*path, i)) for i, v in enumerate(item))
    return None


# --- Messages ----------------------------------------------------------------------------

_BARE = re.compile(r"^[A-Za-z0-9_-]+$")
_TYPES = {"integer": "an integer", "boolean": "true or false", "string": "a string",
          "array": "an array", "object": "a table"}
_SHOW = reprlib.Repr()
_SHOW.maxstring = _SHOW.maxother = 40
_SHOW.maxlevel = 2


def key_path(path: Iterable[str | int]) -> str:
    """A key path as TOML writes it: ``rules.UNO-1.penalty``, ``expect[0].verdict``."""
    out = ""
    for part in path:
        if isinstance(part, int):
            out += f"[{part}]"
            continue
        text = part if _BARE.match(part) else json.dumps(part)
        out += f".{text}" if out else text
    return out or "(top level)"


def show(value: Any, level: int = 2) -> str:
    """A value on one short line, in JSON's spelling (TOML's for scalars): at most
    ``level`` levels and six items of each array or table are shown."""
    if isinstance(value, Enum):
        value = value.value
    if isinstance(value, bool | int | float | str) or value is None:
        text = json.dumps(value)
        return text if len(text) <= 60 else text[:57] + "..."
    if isinstance(value, dict):
        parts = [f"{show(k, 0)}: {show(v, level - 1)}" for k, v in list(value.items())[:6]]
        return _bracket("{}", parts, len(value), level)
    if isinstance(value, list | tuple):
        return _bracket("[]", [show(v, level - 1) for v in value[:6]], len(value), level)
    return _SHOW.repr(value)


def _bracket(ends: str, parts: list[str], total: int, level: int) -> str:
    if level <= 0:
        parts = ["..."] if total else []
    elif total > len(parts):
        parts.append("...")
    return ends[0] + ", ".join(parts) + ends[1]


def _refusal(error: ValidationError, where: str) -> VariantError:
    path = tuple(error.absolute_path)
    rule_id = path[1] if len(path) >= 2 and path[0] == "rules" and isinstance(path[1], str) \
        else None
    return VariantError(f"{where}: {_explain(error, path, rule_id)}", rule_id)


def _explain(error: ValidationError, path: tuple[Any, ...], rule_id: str | None) -> str:
    schema, kind = error.schema, error.validator
    value: Any = error.instance
    at = f"{key_path(path)} = {show(value)}"
    if not isinstance(schema, dict):
        return f"{at}: {error.message}"
    if kind == "additionalProperties":
        return _unknown_key(schema, value, path, rule_id)
    if kind in ("minimum", "maximum"):
        return f"{at}: allowed {schema.get('minimum')} to {schema.get('maximum')}"
    if kind == "type":
        return f"{at}: expected {_TYPES.get(str(schema['type']), schema['type'])}"
    if kind == "enum":
        return f"{at}: expected one of {', '.join(map(show, schema['enum']))}"
    if kind == "uniqueItems":
        return f"{at}: the items must be distinct"
    if kind in ("minItems", "maxItems"):
        return f"{at}: allowed {schema.get('minItems')} to {schema.get('maxItems')} items"
    if kind in ("minLength", "maxLength"):
        return (f"{key_path(path)}: {len(value)} characters; allowed "
                f"{schema.get('minLength')} to {schema.get('maxLength')}")
    if kind == "pattern":
        return f"{at}: expected {schema.get('description', schema['pattern'])}"
    if kind == "required":
        missing = [k for k in schema["required"] if k not in value]
        return f"{key_path(path)}: missing key {', '.join(missing)}"
    return f"{at}: {error.message}"


def _unknown_key(schema: dict[str, Any], value: dict[Any, Any], path: tuple[Any, ...],
                 rule_id: str | None) -> str:
    known = list(schema.get("properties", {}))
    key = sorted(str(k) for k in value if k not in known)[0]
    where = key_path((*path, key))
    if path == ("rules",):
        return f"{where}: no rule {show(key)} in the table"
    if key == "enabled" and rule_id is not None:
        from unoformal.rulebook.table import switchable_ids
        return (f"{where}: {rule_id} cannot be switched off (only "
                f"{switchable_ids(CLASSIC)} can)")
    return f"{where}: unknown key; allowed: {', '.join(known) or 'none'}"


def expect_of(document: list[dict[str, Any]]) -> tuple[Expect, ...]:
    """``[[expect]]`` tables (validated) as :class:`~unoformal.rulebook.table.Expect`."""
    return tuple(Expect(**item) for item in document)
