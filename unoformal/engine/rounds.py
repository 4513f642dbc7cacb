"""One-round records (versions 1 and 2): their set-up, actions and stated chance, and the
replay of one deal. :mod:`unoformal.engine.record` is the format's entry point (it tells a
whole game, version 3, :mod:`unoformal.engine.games`, from one round), and both build on
this module, which knows nothing of either: so the three import one way.
The format itself is described in :mod:`unoformal.engine.record`.
"""

from __future__ import annotations

import functools
import json
from collections.abc import Callable
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any, TypeVar

from unoformal.engine.actions import Action, ActionType
from unoformal.engine.chance import ChanceError, StatedChance, StatedGame
from unoformal.engine.game import Game
from unoformal.errors import InvalidInputError, UnoError
from unoformal.inputs import (
    MAX_RECORD_ACTIONS,
    check_name,
    check_players,
    check_seed,
    parse_json,
    read_text,
    show,
)
from unoformal.rulebook.deck import Deck
from unoformal.rulebook.table import RuleTable
from unoformal.rulebook.variants import load_rules_arg

T = TypeVar("T")

RECORD_KEYS = {"rules", "players", "dealer", "seed", "deal", "actions"}
VERSION = 2
CHANCE_KEYS = ("draws", "reshuffles")


@dataclass
class Replay:
    """The outcome of playing a record: the game, the actions played, and the refused
    (or malformed) action if any, its index and its error carrying the state before it."""

    game: Game
    played: int
    error: UnoError | None = None
    error_index: int | None = None
    actions: list[Action] = field(default_factory=list)


def load_record(path: str | Path) -> dict[str, Any]:
    """A record file: bounded in size and nesting before it is parsed (see
    :mod:`unoformal.inputs`); errors name the file."""
    where = str(path)
    data = parse_json(read_text(path, "record"), where)
    if not isinstance(data, dict):
        raise InvalidInputError("a record is a JSON object {\"players\": [...], ...}",
                                source=where)
    return data


def version_of(record: Any) -> int:
    """A record's format version: 2 or 3 (a whole game, :mod:`.games`) when it says so,
    else 1."""
    version = record.get("version") if isinstance(record, dict) else None
    return version if version in (VERSION, 3) else 1


@functools.cache
def _record_validator() -> Any:
    from jsonschema import Draft202012Validator

    text = resources.files("unoformal.engine").joinpath("record.schema.json").read_text()
    schema = json.loads(text)
    # References resolved once here: looking each one up per card costs most of the
    # validation time of a record (the schema has no recursion, so this terminates).
    return Draft202012Validator(_inline(schema, schema.get("$defs", {})))


def _inline(node: Any, defs: dict[str, Any]) -> Any:
    if isinstance(node, dict):
        ref = node.get("$ref")
        if isinstance(ref, str) and ref.startswith("#/$defs/"):
            return _inline(defs[ref.removeprefix("#/$defs/")], defs)
        return {k: _inline(v, defs) for k, v in node.items()}
    if isinstance(node, list):
        return [_inline(v, defs) for v in node]
    return node


def compiled_schema(name: str) -> Callable[[Any], Any]:
    """The schema file ``name`` beside this module compiled to Python once (fastjsonschema),
    its references inlined: it only says yes or no, about fifty times faster than walking
    it. Draft-07 reads every keyword the record and game schemas use (``if``/``then``,
    ``propertyNames``, ``items`` as one schema) alike."""
    import fastjsonschema

    schema = json.loads(resources.files("unoformal.engine").joinpath(name).read_text())
    inlined = _inline({k: v for k, v in schema.items() if k not in ("$schema", "$defs")},
                      schema.get("$defs", {}))
    validate: Callable[[Any], Any] = fastjsonschema.compile(
        {"$schema": "http://json-schema.org/draft-07/schema#", **inlined})
    return validate


def compiled_accepts(validate: Callable[[Any], Any], record: Any) -> bool:
    """Whether the compiled ``validate`` takes ``record``."""
    from fastjsonschema import JsonSchemaValueException

    try:
        validate(record)
    except JsonSchemaValueException:
        return False
    return True


@functools.cache
def _fast_validator() -> Callable[[Any], Any]:
    return compiled_schema("record.schema.json")


def schema_accepts(record: Any) -> bool:
    """Whether the compiled schema takes ``record`` (no words: see :func:`check_schema`)."""
    return compiled_accepts(_fast_validator(), record)


def check_schema(record: Any) -> None:
    """Refuse a record the format's JSON Schema refuses, naming the place (``key``).

    The compiled schema decides a record that it takes; one it refuses is walked again by
    ``jsonschema``, whose error names the place and the keyword (the words a refusal has
    always had), and which has the last word on it."""
    if schema_accepts(record):
        return
    from jsonschema.exceptions import best_match

    error = best_match(_record_validator().iter_errors(record))
    if error is None:
        return
    path = list(error.absolute_path)
    key = "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in path)
    index = path[1] if len(path) > 1 and path[0] == "actions" else None
    raise InvalidInputError(f"{error.message[:200]} (record.schema.json)",
                            key=key.lstrip(".") or None,
                            index=index if isinstance(index, int) else None)


def round_game(record: dict[str, Any], rules: RuleTable | None = None,
               stated: type[StatedGame] = StatedGame, lenient: bool = False) -> Game:
    """The game a one-round record (version 1 or 2) starts from, before its actions
    (:func:`unoformal.engine.record.game_from_record` takes either version). Errors name
    the field (``key``). A version-2 record's game is a ``stated`` (a :class:`StatedGame`
    or a subclass).

    A set-up statement the rules contradict once its stage is over (a start reshuffle
    the start card does not cause, a start color not drawn at random, a dealer draw after
    the dealer is decided) is refused as input by default; ``lenient``, the game is set
    up as the rules have it and :func:`set_up_deviation` gives the contradiction (a record
    that deviates at its set-up: :func:`replay` and the referee count it so)."""
    if not isinstance(record, dict):
        raise InvalidInputError(f"record {show(record)}: expected a JSON object")
    if version_of(record) == VERSION:
        return _game_v2(record, rules, stated, lenient)
    extra = set(record) - RECORD_KEYS - {"version"}
    if extra:
        raise InvalidInputError(f"unknown field(s) {show(sorted(extra))}; allowed: "
                                f"{', '.join(sorted(RECORD_KEYS))} (or \"version\": 2 "
                                "with dealer_draws, start_reshuffles, start_color and meta)")
    if rules is None:
        rules = load_rules_arg(record.get("rules"), "rules")
    _, seed, dealer = _set_up(record, rules)
    return _keyed("deal", lambda: Game(record["players"], seed=seed, rules=rules,
                                       dealer=dealer, deal=record.get("deal")))


def _set_up(record: dict[str, Any], rules: RuleTable) -> tuple[list[str], int, Any]:
    """The players, seed and dealer of a record (either version). These fields first, in
    words that name their rule (DECK-2 ...); the format's JSON Schema then the rest."""
    if "players" not in record:
        raise InvalidInputError("missing: a record names its players", "DECK-2", key="players")
    names = _keyed("players", lambda: check_players(record["players"], rules.players.minimum,
                                                    rules.players.maximum))
    seed = check_seed(record.get("seed", 0))  # its errors name "seed" themselves
    dealer = record.get("dealer")
    if dealer is not None:
        _keyed("dealer", lambda: check_name(dealer, "dealer"))
    check_schema(record)
    return names, seed, dealer


def set_up_deviation(game: Game) -> ChanceError | None:
    """What a leniently set-up game's record stated of its set-up that the rules
    contradict (:func:`game_from_record`), with its key, rule, cause and the state as the
    rules set it up; None when nothing was, or for a game without stated chance."""
    chance = game.chance
    err = chance.deviation if isinstance(chance, StatedChance) else None
    if err is None:
        return None
    if not err.causes and err.rule_id is not None:
        err.causes = (err.rule_id,)  # the rule the set-up broke is why the record deviates
    err.at(state=game.to_text())
    return err


def _game_v2(record: dict[str, Any], rules: RuleTable | None,
             stated: type[StatedGame], lenient: bool = False) -> Game:
    if rules is None:
        rules = _keyed("rules", lambda: embedded_rules(record.get("rules")))
    names, seed, dealer = _set_up(record, rules)
    codes = _Codes(Deck.of(rules), names)
    draws = record.get("dealer_draws")
    dealer_draws = None if draws is None else [
        {codes.seat_name(n, f"dealer_draws[{i}]"): codes.face(c, f"dealer_draws[{i}].{n}")
         for n, c in d.items()} for i, d in enumerate(draws)]
    starts = record.get("start_reshuffles")
    start_piles = None if starts is None else [
        codes.faces(pile, f"start_reshuffles[{i}]") for i, pile in enumerate(starts)]
    color = record.get("start_color")
    try:
        game = stated(names, seed=seed, rules=rules,
                          dealer=None if dealer_draws is not None else dealer,
                          deal=record.get("deal"), start_piles=start_piles,
                          dealer_draws=dealer_draws,
                          start_color=None if color is None else codes.color(color),
                          lenient=lenient)
    except ChanceError as err:
        key = err.key or {"DEAL-1": "dealer_draws", "START-WD4": "start_reshuffles"}.get(
            err.rule_id or "", "start_color")
        raise InvalidInputError(err.message, err.rule_id, key=key) from None
    except InvalidInputError as err:
        raise err.at(key="deal") from None
    if dealer_draws is not None and dealer is not None and game.names[game.dealer] != dealer:
        raise InvalidInputError(f"the stated dealer draw makes {game.names[game.dealer]} the "
                                f"dealer, not {dealer}", "DEAL-1", key="dealer")
    return game


class _Codes:
    """Names and card codes of a record's chance statements, as seats and card indices."""

    def __init__(self, deck: Deck, names: list[str]) -> None:
        self.deck = deck
        self.seats = {name: i for i, name in enumerate(names)}

    def seat_name(self, name: str, key: str) -> str:
        if name not in self.seats:
            raise InvalidInputError(f"unknown player {show(name)}", "DECK-2", key=key)
        return name

    def face(self, code: Any, key: str) -> int:
        try:
            return self.deck.face_id(code)
        except ValueError as err:
            raise InvalidInputError(str(err), "DECK-1", key=key) from None

    def color(self, name: str) -> int:
        """A stated color (the schema allows only color names) as the deck's index."""
        index = {c.value: i for i, c in enumerate(self.deck.colors)}
        if name not in index:
            raise InvalidInputError(f"{name} is not in this deck", "DECK-1", key="start_color")
        return index[name]

    def faces(self, codes: list[Any], key: str) -> list[int]:
        return [self.face(c, f"{key}[{i}]") for i, c in enumerate(codes)]

    def draws(self, data: dict[str, list[Any]], key: str) -> dict[int, list[int]]:
        return {self.seats[self.seat_name(n, key)]: self.faces(cards, f"{key}.{n}")
                for n, cards in data.items()}


def embedded_rules(value: Any) -> RuleTable:
    """A version-2 record's rules: a shipped variant's name, or the variant itself
    (``{"name", "base", "description", "rules", "expect"}``, checked by the table's
    schema like a variant file); never a path, so a record replays from any folder."""
    from unoformal.rulebook.variants import VARIANTS, load_rules

    if value is None:
        return load_rules(None)
    said = _modules(value)
    if said is not None:
        # a record is data: it never runs code, so the module comes with the rule file
        raise InvalidInputError(f"the record's rules name a Python module ({said}), which "
                                "a record never runs: pass --rules FILE, the rule file that "
                                "names it (its code runs: only a file you trust)",
                                key="rules.modules")
    if isinstance(value, str):
        if value not in VARIANTS:
            raise InvalidInputError(f"{show(value)}: a version-2 record names a shipped "
                                    f"variant ({', '.join(VARIANTS)}) or embeds its "
                                    "overrides, never a path")
        return load_rules(value)
    return _derived(json.dumps(value, sort_keys=True))


def _modules(value: Any) -> str | None:
    """The modules embedded rules name (``modules``, as a record states them, or a rule
    file's ``module``), as shown; None where they name none."""
    if not isinstance(value, dict) or not ("modules" in value or "module" in value):
        return None
    named = value.get("modules", value.get("module"))
    return ", ".join(map(str, named)) if isinstance(named, list) else show(named)


@functools.lru_cache(maxsize=64)
def _derived(text: str) -> RuleTable:
    """An embedded variant, built once per distinct text (a log of many games shares one)."""
    from unoformal.errors import VariantError
    from unoformal.rulebook.schema import validate
    from unoformal.rulebook.variants import VARIANTS, derive, load_rules

    doc = json.loads(text)
    try:
        validate(doc, "rules")
        if "name" not in doc:
            raise InvalidInputError("an embedded variant names itself: \"name\" is missing")
        base = doc.get("base", "classic")
        if base not in VARIANTS:
            raise InvalidInputError(f"base {show(base)}: a shipped variant "
                                    f"({', '.join(VARIANTS)}), never a path")
        return derive(load_rules(base), doc["name"], doc.get("description", ""),
                      doc.get("rules", {}), doc.get("expect", ()), house=doc.get("house", ()))
    except VariantError as err:
        raise InvalidInputError(err.message, err.rule_id) from None


def rules_json(rules: RuleTable) -> str | dict[str, Any]:
    """How a record states ``rules``: a shipped variant by name, any other table as its
    overrides of classic (so the record needs no file beside it)."""
    from unoformal.rulebook.schema import plain
    from unoformal.rulebook.variants import VARIANTS, load_rules

    if rules.name in VARIANTS and load_rules(rules.name) == rules:
        return rules.name
    overrides: dict[str, dict[str, Any]] = {}
    for rule_id, key, value in rules.overrides:
        overrides.setdefault(rule_id, {})[key] = plain(value)
    doc: dict[str, Any] = {"name": rules.name, "base": "classic",
                           "description": rules.description, "rules": overrides}
    if rules.expect:
        doc["expect"] = plain(rules.expect)
    if rules.house:  # a rule file's house rules, with their changes: replay needs no file
        from unoformal.rulebook.variants import house_data

        doc["house"] = [house_data(rule) for rule in rules.house]
    if rules.own:  # named, never embedded: replay takes the rule file that names them
        doc["modules"] = list(dict.fromkeys(c.module for c in rules.own))
    return doc


def with_rules(record: dict[str, Any], rules: RuleTable) -> dict[str, Any]:
    """``record`` stating ``rules`` itself: by name if shipped, else embedded (version 2),
    so it replays from any folder."""
    stated = rules_json(rules)
    if isinstance(stated, str):
        return {**record, "rules": stated}
    return {"version": VERSION, **record, "rules": stated}


def _keyed(key: str, check: Callable[[], T]) -> T:
    try:
        return check()
    except InvalidInputError as err:
        raise err.at(key=key) from None


def _raw_actions(record: dict[str, Any]) -> list[Any]:
    actions = record.get("actions", [])
    if not isinstance(actions, list):
        raise InvalidInputError(f"{show(actions)}: expected a list of actions", key="actions")
    if len(actions) > MAX_RECORD_ACTIONS:
        raise InvalidInputError(f"{len(actions):,} actions: at most {MAX_RECORD_ACTIONS:,} "
                                "are allowed", key="actions")
    return actions


def _action(data: Any, i: int) -> Action:
    try:
        if isinstance(data, dict) and any(k in data for k in CHANCE_KEYS):
            data = {k: v for k, v in data.items() if k not in CHANCE_KEYS}
        return _parsed(data)
    except InvalidInputError as err:
        err.key = f"actions[{i}]" + (f".{err.key}" if err.key else "")
        raise err.at(index=i, action=show(data, 200)) from None


_PARSED: dict[tuple[tuple[str, Any], ...], Action] = {}


def _parsed(data: Any) -> Action:
    """``Action.from_json``, remembered for actions made only of strings and booleans (a
    log repeats the same few hundred actions). Other values are never looked up: ``1``
    and ``True`` are equal keys, but only one of them is a valid ``uno``."""
    if type(data) is not dict or not all(type(v) is str or type(v) is bool
                                         for v in data.values()):
        return Action.from_json(data)
    key = tuple(data.items())
    hit = _PARSED.get(key)
    if hit is None:
        hit = Action.from_json(data)
        if len(_PARSED) > 8192:
            _PARSED.clear()
        _PARSED[key] = hit
    return hit


def record_actions(record: dict[str, Any]) -> list[Action]:
    """Every action of a record, parsed; a malformed one names its index and field."""
    return [_action(data, i) for i, data in enumerate(_raw_actions(record))]


def replay_round(record: dict[str, Any], rules: RuleTable | None = None,
                 stop_at: int | None = None) -> Replay:
    """Play a one-round record's actions in order, stopping at the first refused one
    (:func:`unoformal.engine.record.replay` takes either version).

    A malformed record (bad fields, bad deal, a malformed action anywhere) raises
    :class:`InvalidInputError` naming the field, and the action's index; a refused action
    is reported in the result with its index, the game left in the state just before it
    (which the error also carries). A set-up the rules contradict (a start Wild stated to
    be put back ...) is reported so too, before any action: its ``error_index`` is None,
    its error's ``key`` the set-up field (:func:`set_up_deviation`).
    """
    game, actions, chance = prepared(record, rules)
    deviation = set_up_deviation(game)
    if deviation is not None:
        # refused before its first action: no index, the key names the set-up field
        return Replay(game, 0, deviation, None, [])
    if stop_at is not None:
        actions = actions[:stop_at]
    return play_on(game, actions, chance)


def prepared(record: dict[str, Any], rules: RuleTable | None = None
             ) -> tuple[Game, list[Action], list[Stated | None] | None]:
    """What :func:`replay` plays: the game leniently set up, every action parsed, and
    each action's stated chance (None: the game takes none). A malformed record raises
    :class:`InvalidInputError`, deviating or not."""
    game = round_game(record, rules, lenient=True)
    actions = record_actions(record)
    return game, actions, _chance(game, record)


def play_on(game: Game, actions: list[Action], chance: list[Stated | None] | None,
            start: int = 0, deal_next: bool = True) -> Replay:
    """Play ``actions[start:]`` on ``game`` (which it changes) up to the first refused
    one: :func:`replay` from the first action, the checker that goes on after a deviation
    (:mod:`unoformal.compare.deviations`) from the one after it. ``deal_next``: an action
    after a finished round deals the next from the seed first (END-2), as a one-round
    record has it; a game record's round is dealt as stated, so an action after its end
    is refused (END-1)."""
    played: list[Action] = []
    for i in range(start, len(actions)):
        action = actions[i]
        stated = chance[i] if chance is not None else None
        try:
            if deal_next and game.round_over and not game.game_over:
                game.next_round()
            if stated is None or not isinstance(game.chance, StatedChance):
                game.apply(action)
            else:
                before = game.copy()
                _apply_stated(game, action, stated)
        except ChanceError as err:
            return _refused(before, err.at(action=str(action)), i, played)
        except UnoError as err:
            return _refused(game, err.at(action=str(action)), i, played, action)
        played.append(action)
    return Replay(game, len(actions), actions=played)


Stated = tuple[dict[int, list[int]] | None, list[list[int]] | None]


def _chance(game: Game, record: dict[str, Any]) -> list[Stated | None] | None:
    """Each action's stated draws and reshuffles (seats and card indices), or None."""
    if not isinstance(game.chance, StatedChance):
        return None
    out: list[Stated | None] = []
    for i, data in enumerate(_raw_actions(record)):
        try:
            out.append(stated_chance(game, data))
        except InvalidInputError as err:
            err.key = f"actions[{i}].{err.key}"
            raise err.at(index=i) from None
    return out


def stated_chance(game: Game, data: dict[str, Any]) -> Stated | None:
    """What one record action (already checked by the schema) states of chance, as seats
    and card indices: its ``draws`` and ``reshuffles``; None when it states neither.
    Unknown players and card codes are refused naming the place (``key``)."""
    draws, piles = data.get("draws"), data.get("reshuffles")
    if draws is None and piles is None:
        return None
    codes = _Codes(game.deck, game.names)
    return (None if draws is None else codes.draws(draws, "draws"),
            None if piles is None else [codes.faces(p, f"reshuffles[{j}]")
                                        for j, p in enumerate(piles)])


def apply_stated(game: Game, action: Action, stated: Stated) -> None:
    """Apply ``action`` taking the chance outcomes it states: a :class:`ChanceError` when
    the state contradicts them (the game may then be part-way: apply to a copy). The
    game's chance player must be a :class:`StatedChance` (any game's can be made one:
    ``game.chance = StatedChance()``)."""
    _apply_stated(game, action, stated)


def _apply_stated(game: Game, action: Action, stated: Stated) -> None:
    policy = game.chance
    if not isinstance(policy, StatedChance):
        raise TypeError("apply_stated: the game's chance player is not a StatedChance")
    draws, piles = stated
    policy.expect({p: list(c) for p, c in draws.items()} if draws is not None else None,
                  [list(p) for p in piles] if piles is not None else None)
    try:
        game.apply(action)
        policy.settle(game, _DRAW_RULE.get(action.type)
                      or (game.cause[0] if game.cause else "DRAW-1"))
    except ChanceError as err:
        policy.expect(None, None)
        err.state = None  # the game is part-way: the state before is the caller's to show
        raise
    except UnoError:
        policy.expect(None, None)
        raise


# The rule that makes an action draw cards, where the action alone says it.
_DRAW_RULE = {ActionType.CATCH: "UNO-1", ActionType.ADVISE: "ADVICE-1",
              ActionType.MISPLAY: "MISPLAY-1"}


def _refused(game: Game, err: UnoError, i: int, played: list[Action],
             action: Action | None = None) -> Replay:
    if action is not None:
        # what the guard's words leave out, from the history (a catch before the answer
        # to a draw card, a late UNO): the referee completes its refusals alike
        from unoformal.compare.explain import explain

        explain(game, action, err)
    err.at(index=i, key=f"actions[{i}]", state=game.to_text())
    if not err.causes and err.rule_id is not None and isinstance(err, ChanceError):
        err.causes = (err.rule_id,)
    return Replay(game, i, err, i, played)


def to_record(game: Game) -> dict[str, Any]:
    """A record that replays ``game`` exactly: the same set-up (what was given, the rest
    from the seed) and every action applied so far."""
    record = with_rules({"rules": None, "players": list(game.names), "seed": game.seed},
                        game.rules)
    for key in ("dealer", "deal"):
        if game.origin[key] is not None:
            record[key] = game.origin[key]
    record["actions"] = [a.to_json() for a in game.history]
    return record
