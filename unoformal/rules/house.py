"""A user's house rules, stated in a rule file as data and applied to the moves' commands.

A rule file (a variant file with ``[[house]]`` tables, docs/how-a-rule-is-written.md) adds
entries to the table (``HouseRule``: an ID, its words, why, switchable) and, for each, the
changes it makes to the commands (``Change``). A change names a move's command and either
replaces the condition of one of its guard's conjuncts (named by its refusal words, as
docs/rules.md lists them), drops that conjunct, or adds one, refused under the house
rule's ID. Conditions are composed, as data, from the rule language's nodes, each named
with its parameters (:data:`CONDITIONS`), so every reader follows: the engine runs the
changed command, the Z3 relation encodes it, the words say it, and every verb that takes
``--rules FILE`` (verify, validate, explore, show, replay, play ...) plays the rule with no
edit of the package. A record of a game under it embeds the house rules
(``engine.record.rules_json``), so ``replay`` needs nothing else, unless the file names a
Python module of conditions (``RuleTable.own``, ``rulebook.modules``): the record names
it, and replay takes the rule file, since a record never runs code.

The changes apply where each move's command is built (:func:`changed`, called by the
builders of ``turn``, ``respond`` and ``uno``), so the engine's lookups, the relation and
the rules document read the same changed command.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from typing import Any, NamedTuple, NoReturn, TypeVar

from unoformal.errors import VariantError
from unoformal.inputs import show
from unoformal.language.commands import Command
from unoformal.language.conditions import (
    Both,
    CanPlay,
    CardsLeft,
    Cond,
    Conjunct,
    DrawnPlayable,
    Either,
    Fixed,
    HandAtLeast,
    HandIs,
    HoldsKind,
    PendingIn,
    PhaseIn,
    PhaseIs,
    PhaseNot,
    Unless,
)
from unoformal.language.coverage import Label
from unoformal.language.effects import (
    Effect,
    FlipDirection,
    Instead,
    KnockOut,
    PassTurn,
    Shows,
    Take,
    When,
)
from unoformal.language.protocols import Who
from unoformal.rulebook.cards import Kind
from unoformal.rulebook.table import Change, HouseRule, MercyCards, OwnCondition, RuleTable
from unoformal.rules.ends import PASS_ENDS
from unoformal.rules.state import DRAWN, MORE, OVER, PHASES

# The moves a rule file may change: whether a card may be played (``play``: the conjuncts
# every play command ends with, which the moves that ask whether a card may be played
# read too), the turn's moves, the answers to a draw card and the out-of-turn moves.
CHANGEABLE = ("play", "draw", "keep", "pass_nothing_to_draw", "misplay", "choose_color",
              "accept", "challenge", "uno", "catch", "advise")

_KINDS = {kind.name.lower(): kind for kind in Kind}


def _phase(value: Any) -> str:
    if value not in PHASES:
        raise ValueError(f"a phase is one of {', '.join(PHASES)}")
    return str(value)


def _count(value: Any) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value <= 200:
        raise ValueError("a count is a whole number from 0 to 200")
    return value


def _flag(value: Any) -> bool:
    if not isinstance(value, bool):
        raise ValueError("expected true or false")
    return value


def _kind(value: Any) -> Kind:
    if value not in _KINDS:
        raise ValueError(f"a kind of card is one of {', '.join(_KINDS)}")
    return _KINDS[value]


# The rule language's conditions a rule file names, each with its arguments (a list: one
# value, or several where the condition takes a list). Each builds a node of the
# language, which has its three readings (engine, Z3, words).
CONDITIONS: dict[str, tuple[Callable[[list[Any]], Cond], str]] = {
    "phase": (lambda v: PhaseIs(_phase(_one(v))), "phase(drawn): the round is in this phase"),
    "phase-in": (lambda v: PhaseIn(tuple(_phase(p) for p in v)),
                 "phase-in(play, drawn): the round is in one of these phases"),
    "not-phase": (lambda v: PhaseNot(_phase(_one(v))),
                  "not-phase(respond): the round is not in this phase"),
    "drawn-playable": (lambda v: DrawnPlayable(_flag(_one(v))),
                       "drawn-playable(true): the card just drawn may be played, or (false) "
                       "may not"),
    "can-play": (lambda v: CanPlay(Who.ACTOR, _flag(_one(v))),
                 "can-play(true): the player holds a card they may play, or (false) none"),
    "cards-left": (lambda v: CardsLeft(_count(_one(v))),
                   "cards-left(2): at least this many cards are left to draw"),
    "fewer-cards-left-than": (lambda v: CardsLeft(_count(_one(v)), False),
                              "fewer-cards-left-than(1): fewer cards than this are left"),
    "hand-size": (lambda v: HandIs(Who.ACTOR, _count(_one(v))),
                  "hand-size(1): the player holds this many cards"),
    "fewer-cards-than": (lambda v: HandAtLeast(Who.ACTOR, _count(_one(v)), False),
                         "fewer-cards-than(25): the player holds fewer cards than this"),
    "holds-kind": (lambda v: HoldsKind(_kind(_one(v))),
                   "holds-kind(draw_two): the player holds a card of this kind"),
    "pending-in": (lambda v: PendingIn(tuple(_kind(k) for k in v)),
                   "pending-in(draw_two, wild_draw_four): the draw card waiting for an "
                   "answer is of one of these kinds"),
}


def _one(values: list[Any]) -> Any:
    if len(values) != 1:
        raise ValueError("takes one value")
    return values[0]


_TOKEN = re.compile(r"\s*(?:(?P<word>[A-Za-z_][A-Za-z0-9_-]*|\d+)|(?P<sign>[(),]))")


def _tokens(text: str, where: str) -> list[str]:
    out, at = [], 0
    while at < len(text):
        if text[at:].strip() == "":
            break
        found = _TOKEN.match(text, at)
        if found is None:
            bad = text[at:].strip()[:1]
            raise VariantError(f"{where}: {show(text, 80)}: unexpected {show(bad)} at "
                               f"character {at + 1}")
        out.append(found.group("word") or found.group("sign"))
        at = found.end()
    return out


# Where a change of ``play`` is built for each kind of card, ``card(draw_two)`` is the
# kind of the card played: known when the command is built, so it folds to a value
# (language.conditions.Fixed) that every reader reads alike. Elsewhere no card is
# played, and it is refused.
CARD = "card"
CARD_SAYS = "card(draw_two, wild_draw_four): the card played is of one of these kinds " \
            "(in a change of play only)"


def condition(text: Any, where: str, card: Kind | None = None,
              own: tuple[OwnCondition, ...] = ()) -> Cond:
    """The condition a rule file states as an expression: conditions of
    :data:`CONDITIONS` with their arguments (``phase(drawn)``), joined with ``and``,
    ``or``, ``not`` and parentheses. A malformed one is refused naming ``where`` (the file,
    the entry, the field) and what is allowed. ``card``: the kind of the card played,
    where the condition is a play's (``card(...)`` reads it). ``own``: the conditions
    the file's Python module adds (``RuleTable.own``), named beside the language's."""
    if not isinstance(text, str) or not text.strip():
        raise VariantError(f"{where}: expected a condition, such as "
                           "\"phase(play) or drawn-playable(false)\"")
    tokens = _tokens(text, where)
    parser = _Parser(tokens, text, where, card, own)
    cond = parser.expression()
    if parser.at < len(tokens):
        parser.fail(f"unexpected {show(tokens[parser.at])}")
    return cond


class _Parser:
    """``or`` of ``and`` of (``not``) factors: a condition, or one in parentheses."""

    def __init__(self, tokens: list[str], text: str, where: str,
                 card: Kind | None, own: tuple[OwnCondition, ...] = ()) -> None:
        self.tokens, self.text, self.where, self.at = tokens, text, where, 0
        self.card = card
        # the language's names first: a module's that shadows one is refused at load
        # (rules.files), so here it is never reached
        self.own = {c.name: c for c in own if c.name not in CONDITIONS and not c.effect}

    def fail(self, why: str) -> NoReturn:
        names = (*CONDITIONS, *self.own, *((CARD,) if self.card is not None else ()))
        raise VariantError(f"{self.where}: {show(self.text, 80)}: {why}; the conditions "
                           f"are {', '.join(names)}, joined by and, or, not")

    def peek(self) -> str | None:
        return self.tokens[self.at] if self.at < len(self.tokens) else None

    def take(self, want: str | None = None) -> str:
        token = self.peek()
        if token is None or (want is not None and token != want):
            self.fail(f"expected {show(want) if want else 'more'}")
        self.at += 1
        return token

    def expression(self) -> Cond:
        return self.joined("or", self.term, Either)

    def term(self) -> Cond:
        return self.joined("and", self.factor, Both)

    def joined(self, word: str, part: Callable[[], Cond],
               node: Callable[[tuple[Cond, ...]], Cond]) -> Cond:
        """``part`` (``word`` ``part``)*: one part alone, or ``node`` of them all."""
        parts = [part()]
        while self.peek() == word:
            self.take()
            parts.append(part())
        return parts[0] if len(parts) == 1 else node(tuple(parts))

    def factor(self) -> Cond:
        token = self.take()
        if token == "not":
            return Unless(self.factor())
        if token == "(":
            inner = self.expression()
            self.take(")")
            return inner
        if token == CARD and self.card is None:
            self.fail("card(...) names the card played: only a change of play has one")
        if token not in CONDITIONS and token != CARD and token not in self.own:
            self.fail(f"no condition {show(token)}")
        values: list[Any] = []
        if self.peek() == "(":
            self.take()
            values.append(_value(self.take()))
            while self.peek() == ",":
                self.take()
                values.append(_value(self.take()))
            self.take(")")
        if token == CARD:
            return self.played(values)
        if token in self.own:
            return self.module(self.own[token], values)
        build, says = CONDITIONS[token]
        try:
            return build(values)
        except ValueError as err:
            self.fail(f"{token}: {err} ({says})")


    def module(self, own: OwnCondition, values: list[Any]) -> Cond:
        """A condition of the file's module, built by the module's code: whatever it
        raises, or a node that is not the language's, is refused in one line."""
        built = _own_node(own, values, Cond, ("holds", "encode", "text"))
        if isinstance(built, str):
            self.fail(built)
        return built

    def played(self, values: list[Any]) -> Cond:
        """``card(...)``: whether the card played is of one of the kinds named."""
        if not values:
            self.fail(f"{CARD}: names at least one kind ({CARD_SAYS})")
        try:
            kinds = tuple(_kind(v) for v in values)
        except ValueError as err:
            self.fail(f"{CARD}: {err} ({CARD_SAYS})")
        named = " or ".join(CARD_WORDS[k] for k in kinds)
        return Fixed(self.card in kinds, f"the card played is {named}")


CARD_WORDS = {Kind.NUMBER: "a number", Kind.SKIP: "a Skip", Kind.REVERSE: "a Reverse",
              Kind.DRAW_TWO: "a Draw Two", Kind.WILD: "a Wild",
              Kind.WILD_DRAW_FOUR: "a Wild Draw Four"}


def _value(token: str) -> Any:
    if token.isdigit():
        return int(token)
    return {"true": True, "false": False}.get(token, token)


_Built = TypeVar("_Built", bound=Command)


# The seats an effect of a rule file names: who makes the move, the player after them,
# the player to move once the move's own steps are made; the offender where a draw card
# is answered, the player caught where one is caught.
_SEATS = {"actor": Who.ACTOR, "next": Who.NEXT, "to-move": Who.TO_MOVE,
          "offender": Who.OFFENDER, "target": Who.TARGET}
_NAMED_BY = {Who.OFFENDER: ("accept", "challenge"), Who.TARGET: ("catch",)}


def _seat(value: Any, command: str) -> Who:
    if value not in _SEATS:
        raise ValueError(f"a seat is one of {', '.join(_SEATS)}")
    who = _SEATS[value]
    if who in _NAMED_BY and command not in _NAMED_BY[who]:
        raise ValueError(f"{value} is named only by {' and '.join(_NAMED_BY[who])}")
    return who


def _cards(value: Any) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or not 1 <= value <= 20:
        raise ValueError("a number of cards is a whole number from 1 to 20")
    return value


def _seats(value: Any) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or not 1 <= value <= 9:
        raise ValueError("a number of seats is a whole number from 1 to 9")
    return value


def _none(values: list[Any]) -> None:
    if values:
        raise ValueError("takes no value")


# What an effect is built from: its arguments, the move it is a step of, the house
# rule's ID and a name for its chance constants apart from the move's other draws.
_EffectBuild = Callable[[list[Any], str, str, str], Effect | tuple[Effect, ...]]

# The rule language's effects a rule file names (``then``), each with its arguments. Each
# builds a node of the language, which has its three readings (engine, Z3, words).
EFFECTS: dict[str, tuple[_EffectBuild, str]] = {
    "take": (lambda v, cmd, rid, part: _take(v, cmd, rid, part),
             "take(next, 1): this seat draws this many cards (actor, next, to-move; offender "
             "in accept and challenge, target in catch)"),
    "pass-turn": (lambda v, cmd, rid, part: PassTurn(_seats(_one(v))),
                  "pass-turn(2): the turn goes this many seats on from the actor"),
    "flip-direction": (lambda v, cmd, rid, part: _flip(v),
                       "flip-direction: the direction of play is reversed"),
    "end-turn": (lambda v, cmd, rid, part: _end_turn(v),
                 "end-turn: the turn ends as a pass ends it (a card drawn is kept, the "
                 "play phase, the next player)"),
}


def _end_turn(values: list[Any]) -> tuple[Effect, ...]:
    """The steps a pass ends the turn with (``rules.ends``, as ``rules.turn``'s keep): a
    move of a file's own that ends the turn leaves no card drawn and no phase of its
    player's behind."""
    _none(values)
    return PASS_ENDS


def _take(values: list[Any], command: str, rule_id: str, part: str) -> Effect:
    if len(values) != 2:
        raise ValueError("takes a seat and a number of cards")
    return Take(_seat(values[0], command), _cards(values[1]), rule_id, part)


def _flip(values: list[Any]) -> Effect:
    _none(values)
    return FlipDirection()


def effects(text: Any, where: str, command: str, rule_id: str,
            own: tuple[OwnCondition, ...] = (), part: str = "") -> tuple[Effect, ...]:
    """The steps a rule file's ``then`` states, separated by ``;``: effects of
    :data:`EFFECTS` with their arguments (``take(next, 1)``), or of the file's Python
    module (``own``'s effects). A malformed one is refused naming ``where`` (the file, the
    entry, the field) and what is allowed. ``part`` names the change's chance constants
    apart from another change's of the same move."""
    if not isinstance(text, str) or not text.strip():
        raise VariantError(f"{where}: expected effects, such as \"take(next, 1)\"")
    mine = {c.name: c for c in own if c.effect and c.name not in EFFECTS}
    out: list[Effect] = []
    for k, piece in enumerate(text.split(";")):
        tokens = _tokens(piece, where)
        at = (command, rule_id, f"{part or '.' + rule_id}.{k}")
        made = _effect(tokens, text, where, at, mine)
        out += made if isinstance(made, tuple) else (made,)
    return tuple(out)


def _effect(tokens: list[str], text: str, where: str, at: tuple[str, str, str],
            mine: dict[str, OwnCondition]) -> Effect | tuple[Effect, ...]:
    def fail(why: str) -> NoReturn:
        raise VariantError(f"{where}: {show(text, 80)}: {why}; the effects are "
                           f"{', '.join((*EFFECTS, *mine))}, separated by ;")

    if not tokens:
        fail("an effect is missing")
    name, rest = tokens[0], tokens[1:]
    if name not in EFFECTS and name not in mine:
        fail(f"no effect {show(name)}")
    values: list[Any] = []
    if rest:
        if rest[0] != "(" or rest[-1] != ")":
            fail(f"{name}: expected its values in parentheses")
        inner = rest[1:-1]
        values = [_value(t) for t in inner[0::2]]
        if any(t != "," for t in inner[1::2]) or (inner and inner[-1] == ","):
            fail(f"{name}: values are separated by commas")
    if name in mine:
        why = _own_effect(mine[name], values)
        if isinstance(why, Effect):
            return why
        fail(why)
    build, says = EFFECTS[name]
    try:
        return build(values, *at)
    except ValueError as err:
        fail(f"{name}: {err} ({says})")


def _own_effect(own: OwnCondition, values: list[Any]) -> Effect | str:
    """An effect of the file's module, built by the module's code; or why it cannot be."""
    return _own_node(own, values, Effect, ("run", "encode", "text"))


_Node = TypeVar("_Node", Cond, Effect)
_READ_BY = {"holds": "the engine", "run": "the engine", "encode": "Z3", "text": "the words"}


def _own_node(own: OwnCondition, values: list[Any], base: type[_Node],
              readings: tuple[str, str, str]) -> _Node | str:
    """A node of the file's module (a condition or an effect, ``base``), built by the
    module's code; or why it cannot be, in one line: whatever it raises, a node that is
    not a ``base``, a reading left out (it would fail only where a verb first reads it,
    with a traceback: ``base``'s own raises TypeError)."""
    what = "condition" if base is Cond else "effect"
    try:
        built = own.build(values)
    except Exception as err:  # the user's code: any exception, said in one line
        text = " ".join(str(err).split())[:300]
        return f"{own.name} (module {show(own.module)}) raised {type(err).__name__}: " \
            f"{text} ({own.says})"
    if not isinstance(built, base):
        return (f"{own.name} (module {show(own.module)}) built {show(built, 60)}, not "
                f"{'a' if base is Cond else 'an'} {what} (a subclass of "
                f"unoformal.language.{base.__name__})")
    missing = [m for m in readings if getattr(type(built), m) is getattr(base, m)]
    if missing:
        said = ", ".join(f"{m} ({_READ_BY[m]})" for m in readings)
        return (f"{own.name} (module {show(own.module)}): {type(built).__name__} has no "
                f"{', '.join(m + '()' for m in missing)}; {'a' if base is Cond else 'an'} "
                f"{what} has three readings: {said}")
    return built


def then(table: RuleTable, command: _Built, card: Kind | None = None) -> _Built:
    """``command`` with the steps ``table``'s enabled house rules add to it (``then``,
    where ``then_if`` holds), after its own and after the branch it takes. ``card``: the
    kind of the card a play's command is built for (``card(...)`` reads it)."""
    name = "play" if card is not None else command.name
    command = _instead(table, command, name, card)
    added: list[Effect] = []
    for rule, i, change, where in _stepping(table, name, "then"):
        steps = effects(change.then, f"{where}.then", command.name, rule.id, table.own,
                        f".{rule.id}.{i}")
        cond = _then_if(change, where, card, table.own)
        if cond is None:
            continue  # a play of another kind of card: no step of this one
        # made while the round goes on: a round the move has ended is scored already,
        # and a card drawn after it would count for nothing
        going = PhaseNot(OVER) if cond == ALWAYS else Both((PhaseNot(OVER), cond))
        added.append(When(going, steps, (), ("then", "nothing more")))
        _noted(table, rule.id)
    return ending(command, tuple(added)) if added else command


def _stepping(table: RuleTable, name: str,
              key: str) -> Iterator[tuple[HouseRule, int, Change, str]]:
    """The changes of ``table``'s enabled house rules to the move ``name`` that set
    ``key`` (``then``, ``step``), each with where the file states it."""
    for rule in table.house:
        if not rule.enabled:
            continue
        for i, change in enumerate(rule.changes):
            if change.command == name and getattr(change, key):
                yield rule, i, change, f"house rule {rule.id}: change[{i}]"


def _then_if(change: Change, where: str, card: Kind | None,
             own: tuple[OwnCondition, ...]) -> Cond | None:
    """Where a change's steps are made (``then_if``, ``card(...)`` folded for a play of
    ``card``): ``ALWAYS`` without one; None where it never holds."""
    if not change.then_if:
        return ALWAYS
    cond = folded(condition(change.then_if, f"{where}.then_if", card, own))
    return None if isinstance(cond, Fixed) and not cond.value else cond


def _instead(table: RuleTable, command: _Built, name: str, card: Kind | None) -> _Built:
    """``command`` with the steps ``table``'s enabled house rules replace (``step``, by
    its words) made as ``instead`` says, or dropped: an :class:`Instead` in its place,
    whose steps are made where ``then_if`` holds (else the move's own step)."""
    for rule, i, change, where in _stepping(table, name, "step"):
        cond = _then_if(change, where, card, table.own)
        if cond is None:
            continue  # a play of another kind of card: its step is its own
        now = () if change.drop else effects(
            change.instead, f"{where}.instead", command.name, rule.id, table.own,
            f".{rule.id}.{i}")
        words = step_words(change.step)
        swapped = _swapped(command, words, _in_place(rule.id, words, now, cond))
        if swapped is None:
            if card is not None:
                continue  # a play of another kind of card, without that step
            raise VariantError(f"{where}.step = {show(change.step, 80)}: {command.name} "
                               f"has no step in those words (its steps: "
                               f"{'; '.join(step_texts(command))})", rule.id)
        command = swapped
        _noted(table, rule.id)
    return command


def _in_place(rule_id: str, words: str, now: tuple[Effect, ...],
              cond: Cond) -> Callable[[Effect], Effect]:
    """What a step in ``words`` becomes: ``now``, where ``cond`` holds (always: ``now``
    alone), else the step itself."""
    def made(own: Effect) -> Effect:
        if cond == ALWAYS:
            return Instead(rule_id, words, now)
        return Instead(rule_id, words, (When(cond, now, (own,), ("then", "as the move says")),))
    return made


def step_words(text: str) -> str:
    """A step's words as a file may copy them from docs/rules.md: "- then ..." or bare."""
    words = text.strip().removeprefix("- ").strip()
    return words.removeprefix("then ").strip()


def step_texts(command: _Built) -> list[str]:
    """The words of the steps of ``command`` a change may name: its own, and its
    branches', as the rules document lists them (what coverage counts is no step)."""
    return list(dict.fromkeys(step.text() for step in command.steps() if step.lines()))


def _swapped(command: _Built, words: str,
             made: Callable[[Effect], Effect]) -> _Built | None:
    """``command`` with every step of its own, and of its branches, in ``words`` replaced
    by what ``made`` makes of it; None where it has no such step."""
    import dataclasses

    def swap(steps: tuple[Effect, ...]) -> tuple[Effect, ...]:
        return tuple(made(step) if step.lines() and step.text() == words else step
                     for step in steps)

    if words not in step_texts(command):
        return None
    return dataclasses.replace(command, effect=swap(command.effect), branches=tuple(
        dataclasses.replace(b, effect=swap(b.effect)) for b in command.branches))


def ending(command: _Built, steps: tuple[Effect, ...]) -> _Built:
    """``command`` with ``steps`` made after its own, after the branch it takes where it
    has branches."""
    import dataclasses

    if command.branches:
        return dataclasses.replace(command, branches=tuple(
            dataclasses.replace(b, effect=(*b.effect, *steps)) for b in command.branches))
    return dataclasses.replace(command, effect=(*command.effect, *steps))


def _noted(table: RuleTable, rule_id: str) -> None:
    """A reader that notes the entries a command reads (the relation's, for the mutant
    runner and the verdicts' words) notes the house rule a change of it takes too."""
    note = getattr(table, "note_read", None)
    if callable(note):
        note(rule_id)


def changed(table: RuleTable, command: _Built) -> _Built:
    """``command`` with the changes of ``table``'s enabled house rules that name it, with
    the moves of their own made by its action in its place (:func:`own_moves`), and
    ending with MERCY's knock-out where the table has it (:func:`knocking`)."""
    import dataclasses

    guard = changed_guard(table, command.name, command.guard)
    built = command if guard is command.guard else dataclasses.replace(command, guard=guard)
    return knocking(table, own_moves(table, then(table, built)))


# The rulebook's moves an action without a card or a seat makes, each with the phases in
# which the engine reads the action as that move (``Game._command``, ``_pass_command``): a
# pass after a draw keeps the card, after a number card under SEVERAL stops, else it is
# EXT-PASS's pass. A rule file's move made by the action joins the move of its phase.
ACTIONS = {"draw": "draw", "keep": "pass", "stop": "pass", "pass_nothing_to_draw": "pass"}


def made_by(table: RuleTable) -> set[str]:
    """The actions that make a move of an enabled house rule's own in ``table``."""
    return {move.action for rule in unnoted(table).house if rule.enabled
            for move in rule.moves}


def _answering(table: RuleTable, name: str) -> Cond:
    """The phases in which the engine reads the action of ``name`` as that move."""
    if name == "keep":
        return PhaseIs(DRAWN)
    if name == "stop":
        return PhaseIs(MORE)
    if name == "pass_nothing_to_draw":
        several = unnoted(table).several.enabled
        return Both((PhaseNot(DRAWN), PhaseNot(MORE))) if several else PhaseNot(DRAWN)
    return ALWAYS


def own_moves(table: RuleTable, command: _Built) -> _Built:
    """``command`` (the rulebook's move of an action, :data:`ACTIONS`) with the moves of
    ``table``'s enabled house rules made by the same action (``[[house.move]]``): each
    is made where ``command``'s guard fails and its ``require`` holds, in the phases in
    which the action is that move. Stated as one command whose guard is the rulebook's
    or the moves', and whose steps are the rulebook's where its guard holds, else the
    first move's that holds: every reader (engine, Z3, the packed successors, Promela,
    the words) reads it with no reading of its own, and one action names one move."""
    action = ACTIONS.get(command.name)
    if action is None:
        return command
    phases = _answering(table, command.name)
    made: list[_Own] = []
    for rule in table.house:
        if not rule.enabled:
            continue
        for i, move in enumerate(rule.moves):
            if move.action != action:
                continue
            where = f"house rule {rule.id}: move[{i}] ({move.name})"
            cond = _in_phases(phases, folded(condition(move.require, f"{where}.require",
                                                       own=table.own)))
            steps = effects(move.then, f"{where}.then", command.name, rule.id, table.own,
                            f".{rule.id}.move{i}")
            if all(cond.in_phase(phase) is False for phase in PHASES):
                continue  # only in phases in which the action is another move
            said = move.text or f"{move.name}, a move of {rule.id}'s own"
            made.append(_Own(rule.id, move.name, cond,
                             (Shows(Label(rule.id, move.name, said)), *steps)))
            _noted(table, rule.id)
    return _merged(command, made) if made else command


def _in_phases(phases: Cond, cond: Cond) -> Cond:
    """``cond`` where ``phases`` hold: ``cond`` alone where it holds in no other phase
    (a move required in the play phase reads no "not in the drawn phase")."""
    if phases == ALWAYS or all(phases.in_phase(p) is True for p in PHASES
                               if cond.in_phase(p) is not False):
        return cond
    return Both((phases, cond))


class _Own(NamedTuple):
    """A move of a rule file's own as it joins the rulebook's: its rule, its name, where
    it is made and its steps."""

    rule: str
    name: str
    cond: Cond
    steps: tuple[Effect, ...]

    def said(self) -> str:
        return f"{self.name} ({self.rule})"


def _merged(command: _Built, made: list[_Own]) -> _Built:
    """``command`` made where its guard holds, else the first move of ``made`` whose
    condition holds."""
    import dataclasses

    if not command.guard or command.branches:  # none of ACTIONS' moves: said, not assumed
        raise AssertionError(f"{command.name}: a move of a rule file's own joins a move "
                             "with a guard and no branches")
    theirs = made[0].cond if len(made) == 1 else Either(tuple(m.cond for m in made))
    # each conjunct holds where it did or a move of the file's is made: the rulebook's
    # refusal, in its words, where neither is
    guard = tuple(dataclasses.replace(part, cond=Either((part.cond, theirs)))
                  for part in command.guard)
    rest = made[-1].steps  # the guard leaves the last move where no other is made
    for move in reversed(made[:-1]):
        rest = (When(move.cond, move.steps, rest, (move.said(), "the next move of a rule "
                                                   "file's"), f".{move.name}"),)
    own = command.guard[0].cond if len(command.guard) == 1 else \
        Both(tuple(part.cond for part in command.guard))
    names = " or ".join(move.said() for move in made)
    effect = (When(own, command.effect, rest, (command.name, names), ".own"),)
    cites = tuple(dict.fromkeys((*command.cites, *(move.rule for move in made))))
    return dataclasses.replace(command, guard=guard, effect=effect, cites=cites)


def unnoted(table: RuleTable) -> RuleTable:
    """The table itself, where ``table`` is a view that notes the entries read (the
    relation's): a switch tested here is not cited by a table that has it off."""
    inner = getattr(table, "table", None)
    return inner if isinstance(inner, RuleTable) else table


def knocking(table: RuleTable, command: _Built) -> _Built:
    """MERCY: ``command`` ending with the knock-out (:class:`KnockOut`), after the branch
    it takes where it has branches; ``command`` itself under a table without MERCY. Every
    move of a round, the start card's included, ends so (the next deal needs none: no
    round is under way)."""
    if not unnoted(table).mercy.enabled:
        return command
    rule = table.mercy  # read through the view: a step of a table with MERCY cites it
    step = KnockOut(rule.at, rule.cards is MercyCards.PILE, rule.id)
    return ending(command, (step,))


def changed_guard(table: RuleTable, name: str, guard: tuple[Conjunct, ...],
                  card: Kind | None = None) -> tuple[Conjunct, ...]:
    """``guard`` (the move ``name``'s) with the changes of ``table``'s enabled house rules
    that name the move; the very tuple where none does. ``card``: the kind of card a
    play's guard is built for (``card(...)`` in a change reads it)."""
    for rule in table.house:
        if not rule.enabled:
            continue
        for i, change in enumerate(rule.changes):
            if change.command == name:
                guard = _apply(name, guard, rule, change,
                               f"house rule {rule.id}: change[{i}]", card, table.own)
                _noted(table, rule.id)
    return guard


def _apply(name: str, parts: tuple[Conjunct, ...], rule: HouseRule, change: Change,
           where: str, card: Kind | None,
           own: tuple[OwnCondition, ...]) -> tuple[Conjunct, ...]:
    guard = list(parts)
    if change.require:
        cond = folded(condition(change.require, f"{where}.require", card, own))
        if cond == ALWAYS:
            return _replaced(name, tuple(guard), rule, change, where, card, own)
        guard.append(Conjunct(cond, rule.id, change.words or f"not allowed by {rule.id}"))
    return _replaced(name, tuple(guard), rule, change, where, card, own)


def _replaced(name: str, parts: tuple[Conjunct, ...], rule: HouseRule, change: Change,
              where: str, card: Kind | None,
              own: tuple[OwnCondition, ...]) -> tuple[Conjunct, ...]:
    guard = list(parts)
    if change.conjunct:
        found = [i for i, part in enumerate(guard) if part.words == change.conjunct]
        if not found:
            said = "; ".join(show(p.words, 60) for p in parts)
            raise VariantError(f"{where}.conjunct = {show(change.conjunct, 80)}: "
                               f"{name} has no conjunct in those words (it has: {said})")
        if change.drop:
            del guard[found[0]]
        elif change.when:
            cond = folded(condition(change.when, f"{where}.when", card, own))
            # the conjunct keeps its words and is now kept under the house rule too
            part = guard[found[0]]
            guard[found[0]] = Conjunct(cond, rule.id, part.words, part.caused)
    return tuple(guard)


ALWAYS = Fixed(True, "always")


def folded(cond: Cond) -> Cond:
    """``cond`` with ``card(...)``'s values folded into the conditions around them, so
    that a play's guard states only what can still differ for its kind of card (a Draw
    Two's rule is no conjunct of a number's play): ``ALWAYS`` where it always holds."""
    if isinstance(cond, Fixed):
        return ALWAYS if cond.value else cond
    if isinstance(cond, Unless):
        inner = folded(cond.part)
        if isinstance(inner, Fixed):
            return Fixed(False, "never") if inner.value else ALWAYS
        return cond if inner is cond.part else Unless(inner)
    if isinstance(cond, (Both, Either)):
        return _folded_parts(cond)
    return cond


def _folded_parts(cond: Both | Either) -> Cond:
    decides = isinstance(cond, Either)  # a true part decides an "or", a false an "and"
    kept: list[Cond] = []
    for part in (folded(p) for p in cond.parts):
        if isinstance(part, Fixed):
            if part.value is decides:
                return ALWAYS if decides else Fixed(False, "never")
            continue
        kept.append(part)
    if not kept:
        return Fixed(False, "never") if decides else ALWAYS
    return kept[0] if len(kept) == 1 else type(cond)(tuple(kept))
