"""Variants are data: the classic table plus named overrides, or a TOML file.

A TOML variant names a base and overrides entries by rule ID::

    name = "seed004"
    base = "classic"
    description = "One penalty card for a missed UNO and for a misplay."
    [rules."UNO-1"]
    penalty = 1

    [[expect]]
    property = "penalties"
    players = "2-10"
    verdict = "refuted"
    reason = "Seed 004 gives one penalty card; the rulebook says 2."

Every table :func:`derive` builds (shipped variants, files, the Python API, the
explorer's small decks, mutants) is validated against the schema the table states
(:mod:`unoformal.rulebook.schema`) and its cross-field checks; a refusal is a
:class:`VariantError`, one line. Every override is kept on the table
(``RuleTable.overrides``) so a printed table says where it departs from the rulebook.
"""

from __future__ import annotations

import dataclasses
import functools
import json
import os
import stat
import tomllib
import typing
from collections.abc import Sequence
from enum import Enum
from pathlib import Path
from typing import Any

from unoformal.catalogue import find, preset
from unoformal.errors import InvalidInputError, VariantError
from unoformal.inputs import MAX_FILE_BYTES, MAX_RULES_TEXT, open_input
from unoformal.inputs import show as show_input  # an argument as the command line shows it
from unoformal.rulebook.modules import load_module
from unoformal.rulebook.schema import check_table, expect_of, plain, show, validate
from unoformal.rulebook.table import (
    CLASSIC,
    HOUSE_FILE,
    Change,
    Expect,
    HouseMove,
    HouseProperty,
    HouseRule,
    OwnCondition,
    Rule,
    RuleTable,
)

__all__ = ["MAX_BASES", "MAX_BYTES", "VARIANTS", "Overrides", "VariantError", "derive",
           "load_rules", "load_toml"]

Overrides = dict[str, dict[str, Any]]

VARIANTS: dict[str, tuple[str, Overrides]] = {
    "classic": (CLASSIC.description, {}),
    "seed004": ("Seed 004: one penalty card for a missed UNO and for an incorrect card.",
                {"UNO-1": {"penalty": 1}, "MISPLAY-1": {"cards": 1}}),
    "winner-deals": ("Seed 001: the round winner deals the next round.",
                     {"END-2": {"next_dealer": "winner"}}),
    "stacking": ("House rule: a Draw Two may answer a Draw Two; penalties add up.",
                 {"NOSTACK-1": {"victim_may_answer": True, "answers": ["+2"]}}),
    # RLCard 1.2's UNO (rlcard/games/uno/round.py), what it chooses where the rulebook
    # differs or leaves a choice, so `conform --engine rlcard --rules rlcard` leaves only
    # its bugs. Each value and the function of round.py that shows it:
    # DRAW-1 may_draw_when_able_to_play: get_legal_actions offers 'draw' only when no card
    #   is legal; must_play_drawn: _perform_draw_action plays a drawn wild or card of the
    #   target's color at once (and keeps one matching only by number or symbol, which its
    #   own get_legal_actions calls legal: that is a bug, not a rule);
    # TWO-1 off: _preform_non_number_action's reverse only flips the direction;
    # START-D2: perform_top_card's draw_2 deals 2 to player 0, who then plays;
    # START-WILD color_at_random: flip_top_card sets a start Wild's color with
    #   np_random.choice;
    # WD4-1 playable-card, no bluff: get_legal_actions offers wild_draw_4 only when its
    #   list of other legal cards is empty;
    # WD4-2 no challenge: _preform_non_number_action's wild_draw_4 deals 4 to the next
    #   player and skips them, and get_legal_actions has no challenge;
    # UNO-1 off: get_legal_actions has no UNO call and nothing catches a player.
    "rlcard": ("RLCard's UNO: draw only when unable to play, a playable drawn card played "
               "at once; a 2-player Reverse only reverses; a Draw Two start card does not "
               "skip; a start Wild's color at random; Wild Draw Four only when nothing else "
               "is playable, never challenged; no UNO call.",
               {"DRAW-1": {"may_draw_when_able_to_play": False, "must_play_drawn": True},
                "TWO-1": {"enabled": False},
                "START-D2": {"first_player_loses_turn": False},
                "START-WILD": {"first_player_chooses_color": False, "color_at_random": True},
                "WD4-1": {"illegal_when_holding": "playable-card", "bluff_playable": False},
                "WD4-2": {"victim_may_challenge": False},
                "UNO-1": {"enabled": False}}),
    "seven-o": ("House rule Seven-O: a 7 played swaps hands with a player its player "
                "chooses; a 0 played passes every hand to the next player.",
                {"SEVEN-O": {"enabled": True}}),
    "jump-in": ("House rule Jump-In: a player holding a card identical to the top of the "
                "discard pile may play it out of turn; play goes on from them.",
                {"JUMP-IN": {"enabled": True}}),
}


MAX_BYTES = 64 * 1024  # a variant file is a few hundred bytes; /dev/zero is endless
MAX_BASES = 8  # files in one chain of bases
_DESCRIBED = 1000  # a combination's description: its parts', within the schema's bound


def derive(base: RuleTable, name: str, description: str, overrides: Overrides,
           expect: Sequence[Expect | dict[str, str]] = (),
           where: str | None = None, *, shipped: bool = False,
           house: Sequence[HouseRule | dict[str, Any]] = (),
           own: Sequence[OwnCondition] = ()) -> RuleTable:
    """A new table: ``base`` with the given entry values replaced, after checking
    ``name``, ``description``, the overrides and ``expect`` against the schema and the
    result against the table's cross-field checks. ``where`` starts every message (a
    file's path; by default the variant's name). ``expect`` (``Expect`` or its fields as a
    dict, as in a file) is the new table's own: a base's expected verdicts need not hold
    for what is derived from it. Only a shipped variant (``shipped``) takes a shipped
    variant's name: the state text names a table by name, and reads it back as the
    shipped one. An argument of the wrong type is refused naming it (``key``). ``house``:
    the house rules a rule file adds (``HouseRule``, or a file's ``[[house]]`` tables),
    after the base's own. ``own``: the conditions a rule file's Python module adds
    (:mod:`unoformal.rulebook.modules`), after the base's."""
    said = where if isinstance(where, str) else f"variant {show(name)}"
    _check_arguments(base, name, where, shipped, said)
    where = said
    if name in VARIANTS and not shipped:
        raise VariantError(f"{where}: name {show(name)} is a shipped variant's; a variant "
                           f"of your own takes another name (not {', '.join(VARIANTS)})")
    validate({"name": name, "description": description, "rules": plain(overrides),
              "expect": plain(expect), "house": [house_data(h) for h in house]}, where)
    table = base
    log = list(base.overrides)
    for rule_id, values in overrides.items():
        attr = next(attr for attr, rule in table.entries() if rule.id == rule_id)
        entry: Rule = getattr(table, attr)
        changes = {key: _convert(entry, key, plain(value)) for key, value in values.items()}
        new_entry: Any = dataclasses.replace(entry, **changes)
        table = dataclasses.replace(table, **{attr: new_entry})
        log.extend((rule_id, key, value) for key, value in changes.items())
    table = dataclasses.replace(table, name=name, description=description,
                                overrides=tuple(log), expect=expect_of(plain(expect)),
                                house=base.house + _house_rules(table, house, where),
                                own=_own(base.own, own, where))
    check_table(table, where)
    if house or own:
        # the changes' conditions are the rule language's, which the table does not know
        # (the layers run table, language, rules): checked here, when the table is made,
        # not when a move first asks them
        from unoformal.rules.files import check_house

        check_house(table, where)
    return table


def house_data(rule: HouseRule | dict[str, Any]) -> Any:
    """A house rule as a file states it (what the schema checks)."""
    if not isinstance(rule, HouseRule):
        return rule
    out: dict[str, Any] = {"id": rule.id, "text": rule.text, "reason": rule.reason,
                           "enabled": rule.enabled, "change": []}
    for change in rule.changes:
        data: dict[str, Any] = {"command": change.command}
        for key in ("conjunct", "when", "require", "words", "then", "then_if", "step",
                    "instead"):
            if getattr(change, key):
                data[key] = getattr(change, key)
        if change.drop:
            data["drop"] = True
        out["change"].append(data)
    out["property"] = [{key: value for key, value in dataclasses.asdict(p).items() if value}
                       for p in rule.properties]
    if rule.moves:  # a record of a rule without one is as it was
        out["move"] = [{key: value for key, value in dataclasses.asdict(m).items() if value}
                       for m in rule.moves]
    return out


def _house_rules(table: RuleTable, house: Sequence[HouseRule | dict[str, Any]],
                 where: str) -> tuple[HouseRule, ...]:
    """A rule file's ``[[house]]`` tables as entries; an ID already in the table is
    refused (an entry is found by its ID)."""
    taken = {rule.id for _, rule in table.entries()}
    out: list[HouseRule] = []
    for i, rule in enumerate(house):
        data = house_data(rule)
        if data["id"] in taken:
            raise VariantError(f"{where}: house[{i}].id = {show(data['id'])}: an entry of "
                               "the table has this ID already; a house rule takes its own",
                               key=f"house[{i}].id")
        taken.add(data["id"])
        changes = tuple(Change(c["command"], c.get("conjunct", ""), c.get("when", ""),
                               bool(c.get("drop", False)), c.get("require", ""),
                               c.get("words", ""), c.get("then", ""), c.get("then_if", ""),
                               c.get("step", ""), c.get("instead", ""))
                        for c in data.get("change", []))
        props = tuple(HouseProperty(p["name"], p["says"], p["command"], p.get("before", ""),
                                    p.get("after", "")) for p in data.get("property", []))
        moves = tuple(HouseMove(m["name"], m["action"], m["require"], m["then"],
                                m.get("text", "")) for m in data.get("move", []))
        out.append(HouseRule(data["id"], HOUSE_FILE, data["text"],
                             reason=data.get("reason", ""), enabled=data.get("enabled", True),
                             house=True, changes=changes, properties=props, moves=moves))
    return tuple(out)



def _own(base: tuple[OwnCondition, ...], own: Sequence[OwnCondition],
         where: str) -> tuple[OwnCondition, ...]:
    """The base's conditions and a file's module's: one name is one condition."""
    taken = {c.name: c.module for c in base}
    for cond in own:
        if taken.get(cond.name, cond.module) != cond.module:
            raise VariantError(f"{where}: module = {show(cond.module)}: condition "
                               f"{show(cond.name)} is {show(taken[cond.name])}'s too (a "
                               "base file's); a condition takes a name of its own",
                               key="module")
        taken[cond.name] = cond.module
    return (*base, *(c for c in own if c not in base))


def _check_arguments(base: object, name: object, where: object, shipped: object,
                     said: str) -> None:
    """:func:`derive`'s arguments that its schema does not check, each of its type (a
    base named by its name, or None, would otherwise fail with an AttributeError; a name
    that is a list, with a TypeError). ``said`` starts every message."""
    if not isinstance(base, RuleTable):
        raise VariantError(f"{said}: base = {show(base)}: expected a RuleTable (a variant's "
                           "name gives one through load_rules)", key="base")
    if not isinstance(name, str):
        raise VariantError(f"{said}: name = {show(name)}: expected a string", key="name")
    if where is not None and not isinstance(where, str):
        raise VariantError(f"{said}: where = {show(where)}: expected a string or None",
                           key="where")
    if not isinstance(shipped, bool):
        raise VariantError(f"{said}: shipped = {show(shipped)}: expected true or false",
                           key="shipped")


def _convert(entry: Rule, key: str, value: Any) -> Any:
    """A value the schema accepted, as the table's own type (tuples, enumerations)."""
    return _as(typing.get_type_hints(type(entry))[key], value)


def _as(hint: Any, value: Any) -> Any:
    if typing.get_origin(hint) is tuple:
        (elem, *_) = typing.get_args(hint)
        return tuple(_as(elem, v) for v in value)
    if isinstance(hint, type) and issubclass(hint, Enum):
        return hint(value)
    return value


def load_rules(name_or_path: object = None) -> RuleTable:
    """The table for a variant name (``classic`` when None) or a TOML file path."""
    if name_or_path is None:
        return CLASSIC
    if not isinstance(name_or_path, str) or not name_or_path:
        # "" would be read as the path of the current folder
        raise VariantError(f"rules = {show(name_or_path)}: expected a variant name or the "
                           "path of a .toml variant file")
    if name_or_path in VARIANTS:
        return _named(name_or_path)
    path = Path(name_or_path)
    if path.suffix == ".toml" or _exists(path):
        return load_toml(path)
    return _catalogued(name_or_path)


@functools.cache
def _catalogued(text: str) -> RuleTable:
    """A table the catalogue names: a house rule (``NAME``, its default reading, or
    ``NAME@READING``), a preset, or several names joined by ``+`` (each a shipped
    variant, a catalogue rule or a preset), combined over classic."""
    names = text.split("+")
    if len(names) == 1:
        named = preset(text)
        if named is not None:
            return combine([_part(p) for p in named.rules], named.name, named.description)
        return _part(text)
    parts = [_part(name) for name in names]
    # named by its parts' tables ("NAME@READING" is how a user asks, not a table's name)
    return combine(parts, "+".join(p.name for p in parts),
                   "; ".join(f"{p.name}: {p.description}" for p in parts))


def _part(name: str) -> RuleTable:
    if name in VARIANTS:
        return _named(name)
    if preset(name) is not None:
        return _catalogued(name)
    found = find(name)
    if found is None:
        known = ", ".join(VARIANTS)
        raise VariantError(f"unknown rules {name!r}: expected a shipped variant ({known}), "
                           f"a house rule or preset of the catalogue (unoformal house-rules "
                           "lists them), several joined by '+', or the path of a .toml "
                           "variant file")
    _, reading = found
    return _named(reading.variant) if reading.variant else load_toml(reading.path or Path())


def combine(parts: Sequence[RuleTable], name: str, description: str) -> RuleTable:
    """The tables ``parts`` (each over classic) joined: every entry value each sets and
    every house rule each adds, over classic. Two that set one value differently cannot
    be combined, and are refused naming both (the first finding of the catalogue's matrix
    of pairs); a house rule two parts add is taken once."""
    overrides: Overrides = {}
    setter: dict[tuple[str, str], str] = {}
    house: dict[str, HouseRule] = {}
    expect: list[Expect] = []
    modules: list[OwnCondition] = []  # the conditions parts' modules add, for their changes
    for part in parts:
        own: Overrides = {}
        for rule_id, key, value in part.overrides:  # a later value of one key replaces
            own.setdefault(rule_id, {})[key] = value
        for rule_id, values in own.items():
            for key, value in values.items():
                if key in overrides.get(rule_id, {}) and overrides[rule_id][key] != value:
                    raise VariantError(
                        f"{name}: {setter[rule_id, key]} sets {rule_id} {key} = "
                        f"{show(plain(overrides[rule_id][key]))} and {part.name} sets "
                        f"{show(plain(value))}: the two cannot be combined",
                        rule_id, key=f"rules.{rule_id}.{key}")
                overrides.setdefault(rule_id, {})[key] = value
                setter[rule_id, key] = part.name
        house.update((rule.id, rule) for rule in part.house if rule.id not in house)
        expect.extend(part.expect)
        modules.extend(c for c in part.own if c not in modules)
    return derive(CLASSIC, name, description[:_DESCRIBED], overrides, expect, name,
                  house=tuple(house.values()), own=modules)


@functools.cache
def _named(name: str) -> RuleTable:
    """A shipped variant, built once: the same name gives the same (frozen) table, so
    games and state texts read back with it share the engine's per-table lookups."""
    description, overrides = VARIANTS[name]
    if (name, description, overrides) == (CLASSIC.name, CLASSIC.description, {}):
        # The table itself: deriving it would only check it against the schema, which
        # costs a jsonschema import (about a third of `unoformal replay`'s start-up); the
        # tests check that deriving it gives this very table.
        return CLASSIC
    return derive(CLASSIC, name, description, overrides, shipped=True)


def load_toml(path: Path, chain: tuple[Path, ...] = ()) -> RuleTable:
    """A variant file: read (bounded), parsed, validated against the schema, its base
    loaded (a shipped variant, or a .toml file named relative to this one's folder;
    ``chain`` is the files that named this one as their base)."""
    where = _display(path)
    data = _parse(path, where)
    validate(data, where)
    named = data.get("base", "classic")
    base = _base(named, path, chain, where)
    # A base file's [[expect]] entries hold here too, after this file's own (the first
    # entry that matches a verdict is the one taken): a shipped base's come from the
    # manifest instead (unoformal.verification.z3.manifest)
    inherited = () if named in VARIANTS else base.expect
    # the file's own code, run only because the file names it
    own = load_module(data["module"], path, where) if "module" in data else ()
    return derive(base, data.get("name", path.stem), data.get("description", ""),
                  data.get("rules", {}), (*data.get("expect", ()), *inherited), where,
                  house=data.get("house", ()), own=own)


def _parse(path: Path, where: str) -> dict[str, Any]:
    text = _read(path, where)
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as err:
        raise VariantError(f"{where}: not valid TOML: {err}") from None
    except RecursionError:
        raise VariantError(f"{where}: nested too deep to parse (a variant needs 4 levels)"
                           ) from None


def _read(path: Path, where: str) -> str:
    """The file's text: a regular file of at most ``MAX_BYTES`` bytes of UTF-8."""
    try:
        if not path.is_file():
            what = "a directory" if path.is_dir() else \
                "not a regular file" if _exists(path) else "no such file"
            raise VariantError(f"{where}: {what}: expected a .toml variant file")
        with open_input(path, "variant file") as file:  # checked again, never waited on
            raw = file.read(MAX_BYTES + 1)
    except OSError as err:
        raise VariantError(f"{where}: cannot read: {err.strerror or err}") from None
    if len(raw) > MAX_BYTES:
        raise VariantError(f"{where}: larger than {MAX_BYTES} bytes: not a variant file")
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as err:
        raise VariantError(f"{where}: not UTF-8 text: byte 0x{raw[err.start]:02x} at offset "
                           f"{err.start}") from None


def _base(base: str, path: Path, chain: tuple[Path, ...], where: str) -> RuleTable:
    if base in VARIANTS:
        return _named(base)
    target = path.parent / base
    chain = (*chain, _identity(path))
    if target.suffix != ".toml":
        raise VariantError(f"{where}: base = {show(base)}: expected one of "
                           f"{', '.join(VARIANTS)}, or a .toml file relative to this one's "
                           "folder")
    if _identity(target) in chain:
        cycle = " -> ".join(_display(p) for p in (*chain, _identity(target)))
        raise VariantError(f"{where}: base = {show(base)}: the bases form a cycle: {cycle}")
    if len(chain) >= MAX_BASES:
        raise VariantError(f"{where}: base = {show(base)}: more than {MAX_BASES} files in "
                           "the chain of bases")
    return load_toml(target, chain)


def _identity(path: Path) -> Path:
    try:
        return path.resolve()
    except (OSError, RuntimeError, ValueError):  # a symlink loop, an odd name
        return path.absolute()


def _exists(path: Path) -> bool:
    try:
        return path.exists()
    except (OSError, ValueError):
        return False


def _display(path: Path) -> str:
    text = str(path)
    return text if text.isprintable() else json.dumps(text)


# --------------------------------------------------- a rules field or --rules option


def load_rules_arg(value: Any, key: str) -> RuleTable:
    """The rule table a ``rules`` field or ``--rules`` option names: a variant name or a
    .toml variant file (a regular file, within the size limit). Returns a RuleTable."""
    if value is None:
        return load_rules(None)
    if not isinstance(value, str) or not value or len(value) > MAX_RULES_TEXT \
            or "\x00" in value:
        raise InvalidInputError(f"{key} {show_input(value)}: expected a variant name or the path "
                                "of a .toml variant file")
    _check_variant_file(value, key)
    try:
        return load_rules(value)
    except (VariantError, InvalidInputError) as err:
        # the rule the file breaks stays on the error (the schema names it: UNO-1 ...)
        raise InvalidInputError(f"{key}: {_message(err)}", err.rule_id) from None
    except (OSError, UnicodeDecodeError) as err:
        raise InvalidInputError(f"{key} {show_input(value)}: cannot read it: {err}") from None
    except RecursionError:  # variant files whose bases name each other
        raise InvalidInputError(f"{key} {show_input(value)}: its 'base' variants nest without end "
                                "(a cycle?)") from None


def _message(err: Exception) -> str:
    return getattr(err, "message", None) or str(err)


def _check_variant_file(value: str, key: str) -> None:
    """A path that exists must be a regular .toml file small enough to read."""
    try:
        info = os.stat(value)
    except (OSError, ValueError):
        return  # not a path: a variant name (or unknown), which load_rules reports
    if not stat.S_ISREG(info.st_mode):
        raise InvalidInputError(f"{key} {show_input(value)}: not a regular file")
    if info.st_size > MAX_FILE_BYTES:
        raise InvalidInputError(f"{key} {show_input(value)}: larger than {MAX_FILE_BYTES:,} bytes")
