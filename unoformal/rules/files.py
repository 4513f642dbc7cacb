"""A rule file's house rules checked when the file is read: each change built against the
command it names and each property against the table's moves and the shipped
properties, so that a broken file is refused naming the file, the rule and the field,
not when a move first asks it.

The one module that reads the rules' commands and the verifier's properties to check a
table; only the variant loader calls it (``rulebook.variants.derive``), when a table has
house rules. Nothing below the loader imports it, so the use runs one way.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

from unoformal.errors import VariantError
from unoformal.inputs import show
from unoformal.language.commands import Command
from unoformal.language.effects import Instead
from unoformal.rulebook.cards import Kind
from unoformal.rulebook.table import Change, HouseRule, RuleTable
from unoformal.rules.book import commands
from unoformal.rules.house import (
    CARD,
    CHANGEABLE,
    CONDITIONS,
    EFFECTS,
    condition,
    step_texts,
    step_words,
)
from unoformal.rules.play import play
from unoformal.rules.respond import accept, challenge
from unoformal.rules.turn import choose_color, draw, keep, misplay, pass_nothing_to_draw
from unoformal.rules.uno import advise, catch, say_uno
from unoformal.verification.z3.properties import PROPERTIES


def check_house(table: RuleTable, where: str) -> None:
    """Every change of ``table``'s house rules built once, so that a broken rule file is
    refused when it is read, naming the file, the entry and the field."""
    _check_own(table, where)
    for i, rule in enumerate(table.house):
        for j, change in enumerate(rule.changes):
            at = f"{where}: house[{i}] ({rule.id}).change[{j}]"
            if change.command not in CHANGEABLE:
                raise VariantError(f"{at}.command = {show(change.command)}: a rule file "
                                   f"changes one of {', '.join(CHANGEABLE)}")
            _check_step(change, at)
            if change.then_if and not (change.then or change.step):
                raise VariantError(f"{at}: then_if is the condition of the steps a change "
                                   "makes: give them (then, or instead of a step)")
            if not (change.require or change.conjunct or change.then or change.step):
                raise VariantError(f"{at}: a change names a conjunct (to replace its "
                                   "condition with when, or drop it), requires one, "
                                   "adds steps to the move (then), or names a step (to "
                                   "make instead's in its place, or drop it)")
            if change.conjunct and not (change.when or change.drop):
                raise VariantError(f"{at}: conjunct {show(change.conjunct, 60)} is named: "
                                   "give its new condition (when) or drop = true")
            if change.require and not change.words:
                raise VariantError(f"{at}: a required condition has the words of its "
                                   "refusal (words)")
    switched_on = _all_on(table)
    moves: list[Callable[[RuleTable], Command]] = [
        draw, keep, pass_nothing_to_draw, misplay, choose_color, accept, challenge, say_uno,
        catch, advise]
    try:
        for build in moves:
            build(switched_on)
        plays = [play(switched_on, kind) for kind in Kind]  # its guard, the steps added
    except VariantError as err:
        raise VariantError(f"{where}: {err.message}", err.rule_id) from None
    _check_play_steps(table, plays, where)
    names = {c.name for c in commands(switched_on)}
    _check_moves(table, where, names)
    _check_properties(table, where, names)


def _check_moves(table: RuleTable, where: str, moves: set[str]) -> None:
    """A rule file's moves of its own: a name of their own, beside the rulebook's moves
    (``moves``) and each other's (the words and coverage name a move by it)."""
    taken = set(moves)
    for rule, move, at in _stated(table, where, "moves", "move"):
        _own_name(at, "a move", move.name, taken, rule.id)


def _stated(table: RuleTable, where: str, key: str,
            said: str) -> Iterator[tuple[HouseRule, Any, str]]:
    """Each entry of the house rules' ``key`` list (``moves``, ``properties``), with its
    rule and where the file states it (``house[0] (ID).move[1]``: ``said``)."""
    for i, rule in enumerate(table.house):
        for j, item in enumerate(getattr(rule, key)):
            yield rule, item, f"{where}: house[{i}] ({rule.id}).{said}[{j}]"


def _own_name(at: str, what: str, name: str, taken: set[str], rule_id: str | None) -> None:
    """``name`` is none of ``taken``'s (then it is taken too)."""
    if name in taken:
        raise VariantError(f"{at}.name = {show(name)}: {what} of that name exists "
                           "already; a rule file's takes its own", rule_id)
    taken.add(name)


def _check_play_steps(table: RuleTable, plays: list[Command], where: str) -> None:
    """A step a change of ``play`` names is one of some kind of card's play (a play of
    another kind without it is left as it is)."""
    made = {(n.rule, n.was) for c in plays for step in c.steps() for n in step.walk()
            if isinstance(n, Instead)}
    for i, rule in enumerate(table.house):
        for j, change in enumerate(rule.changes):
            if change.command == "play" and change.step and \
                    (rule.id, step_words(change.step)) not in made:
                said = "; ".join(dict.fromkeys(t for c in plays for t in step_texts(c)))
                raise VariantError(f"{where}: house[{i}] ({rule.id}).change[{j}].step = "
                                   f"{show(change.step, 80)}: no play has a step in those "
                                   f"words (the plays' steps: {said})", rule.id)


def _check_step(change: Change, at: str) -> None:
    """``step`` names what ``instead`` or ``drop`` replaces; ``drop`` drops one thing."""
    if change.instead and not change.step:
        raise VariantError(f"{at}: instead is made in the place of one of the move's steps: "
                           "name it (step)")
    if change.step and not (change.instead or change.drop):
        raise VariantError(f"{at}: step {show(change.step, 60)} is named: give what is made "
                           "in its place (instead) or drop = true")
    if change.step and change.conjunct:
        raise VariantError(f"{at}: a change names a conjunct or a step, not both (give "
                           "each its own [[house.change]])")
    if change.step and change.instead and change.drop:
        raise VariantError(f"{at}: step {show(change.step, 60)}: give instead or "
                           "drop = true, not both")


def _check_properties(table: RuleTable, where: str, moves: set[str]) -> None:
    """Each property a rule file states: a name of its own, a move the table has
    (``moves``, every house rule on), and conditions that parse (the same language as the
    changes)."""
    # the shipped properties' names: the verifier states them
    taken = {p.name for p in PROPERTIES}
    for _, prop, at in _stated(table, where, "properties", "property"):
        _own_name(at, "a property", prop.name, taken, None)
        if prop.command not in moves:
            raise VariantError(f"{at}.command = {show(prop.command)}: no such move; the "
                               f"table's are {', '.join(sorted(moves))}")
        if not (prop.before or prop.after):
            raise VariantError(f"{at}: a property states before, after or both")
        for key in ("before", "after"):
            if getattr(prop, key):
                condition(getattr(prop, key), f"{at}.{key}", own=table.own)


def _check_own(table: RuleTable, where: str) -> None:
    """A module's condition takes a name the language does not have (a rule file reads
    one name one way)."""
    for cond in table.own:
        what = "effect" if cond.effect else "condition"
        if (cond.name in EFFECTS if cond.effect else
                cond.name in CONDITIONS or cond.name == CARD or cond.name in _WORDS):
            raise VariantError(f"{where}: module = {show(cond.module)}: {what} "
                               f"{show(cond.name)} is the rule language's; a module's "
                               f"{what} takes a name of its own", key="module")


_WORDS = ("and", "or", "not")  # the expressions' own words


def _all_on(table: RuleTable) -> RuleTable:
    """The table with every house rule on, so that a change is checked even where its
    rule is switched off."""
    import dataclasses

    return dataclasses.replace(table, house=tuple(dataclasses.replace(r, enabled=True)
                                                  for r in table.house))
