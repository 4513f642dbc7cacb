"""Actions and their canonical text form (like UCI moves for chess).

An action names its player and, where needed, a card code, a color and a
target, all as text, so actions are self-contained and round-trip::

    Ada play W+4 green uno      Ada draw          Bo catch Ada      Ada play R7 Bo

A play names a target only where its command chooses a seat (a house rule's swap of
hands). The text reads some words as themselves wherever they stand (``uno`` at the end
of a play, a color's name after the card), so a name is never one of the text's own
words (:func:`check_readable`; ``Game`` refuses such names under every table).
"""

from __future__ import annotations

from enum import Enum
from typing import Any, NamedTuple

from unoformal.errors import InvalidInputError
from unoformal.inputs import MAX_ACTION_TEXT, check_name, show
from unoformal.rulebook.cards import Color, parse_face


class ActionType(Enum):
    """The verbs of the record format."""

    # Members are singletons: identity hashing is consistent with Enum's identity equality
    # and much cheaper than Enum's default, on the engine's hot path.
    __hash__ = object.__hash__

    PLAY = "play"
    DRAW = "draw"
    PASS = "pass"
    ACCEPT = "accept"
    CHALLENGE = "challenge"
    UNO = "uno"
    CATCH = "catch"
    CHOOSE_COLOR = "choose_color"
    MISPLAY = "misplay"
    ADVISE = "advise"


_NEEDS_CARD = {ActionType.PLAY, ActionType.MISPLAY}
_JSON_KEYS = {"player", "action", "card", "color", "target", "uno"}
_COLOR_NAMES = tuple(c.value for c in Color)
_VERBS = frozenset(t.value for t in ActionType)


class Action(NamedTuple):
    player: str
    type: ActionType
    card: str | None = None
    color: str | None = None
    target: str | None = None
    uno: bool = False

    def __str__(self) -> str:
        # str() of each part: an Action built by hand with wrong types is still shown
        # in the error that refuses it.
        parts: list[object] = [self.player, getattr(self.type, "value", self.type)]
        parts += [p for p in (self.card, self.color, self.target) if p is not None]
        if self.uno:
            parts.append("uno")
        return " ".join(map(str, parts))

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"player": self.player, "action": self.type.value}
        for key in ("card", "color", "target"):
            if getattr(self, key) is not None:
                out[key] = getattr(self, key)
        if self.uno:
            out["uno"] = True
        return out

    @classmethod
    def parse(cls, text: str) -> Action:
        """Parse the canonical text form, e.g. ``"Ada play W+4 green uno"``."""
        if not isinstance(text, str):
            raise InvalidInputError(f"action {show(text)}: an action is a text such as "
                                    "'Ada play W+4 green'")
        if len(text) > MAX_ACTION_TEXT:
            raise InvalidInputError(f"action text of {len(text)} characters: at most "
                                    f"{MAX_ACTION_TEXT} are allowed")
        words = text.split()
        if len(words) < 2:
            raise InvalidInputError(f"action {show(text)}: expected '<player> <action> ...'")
        player, verb, *rest = words
        kind = _action_type(verb, text)
        uno = bool(rest) and rest[-1] == "uno" and kind is ActionType.PLAY
        if uno:
            rest = rest[:-1]
        card = color = target = None
        if kind in _NEEDS_CARD and rest:
            card, *rest = rest
        if (kind is ActionType.CHOOSE_COLOR and rest) or \
                (kind is ActionType.PLAY and rest and rest[0] in _COLOR_NAMES):
            color, *rest = rest
        if rest and (kind is ActionType.CATCH or (kind is ActionType.PLAY and color is None)):
            target, *rest = rest  # a play's target: a seat its command chooses
        if rest:
            raise InvalidInputError(f"action {show(text)}: unexpected {show(' '.join(rest))}")
        return check_action(cls(player, kind, card, color, target, uno))

    @classmethod
    def from_json(cls, data: Any) -> Action:
        """Parse one record action, e.g. ``{"player": "Ada", "action": "draw"}``."""
        if not isinstance(data, dict):
            raise InvalidInputError(f"action {show(data)}: expected an object")
        extra = set(data) - _JSON_KEYS
        if extra:
            raise InvalidInputError(f"unknown field(s) {show(sorted(extra))}; allowed: "
                                    f"{', '.join(sorted(_JSON_KEYS))}")
        for key in ("player", "action"):
            if not isinstance(data.get(key), str):
                raise InvalidInputError(f"{show(data.get(key))}: must be a string", key=key)
        for key in ("card", "color", "target"):
            if key in data and not isinstance(data[key], str):
                raise InvalidInputError(f"{show(data[key])}: must be a string", key=key)
        if not isinstance(data.get("uno", False), bool):
            raise InvalidInputError(f"{show(data['uno'])}: must be true or false", key="uno")
        kind = _action_type(data["action"], data["action"])
        return check_action(cls(data["player"], kind, data.get("card"), data.get("color"),
                                data.get("target"), data.get("uno", False)))


def check_action(action: Any) -> Action:
    """The action's fields have the right types and spellings: names as DECK-2 allows,
    a canonical card code (DECK-1), a color by its name (WILD-1). Whether the card is in
    this deck, or the action is legal, is the game's to say."""
    if not isinstance(action, Action):
        raise InvalidInputError(f"{show(action)} is not an Action")
    if not isinstance(action.type, ActionType):
        raise InvalidInputError(f"action type {show(action.type)}: expected an ActionType",
                                key="action")
    check_name(action.player, "player", key="player")
    if action.target is not None:
        check_name(action.target, "target", key="target")
    if action.card is not None:
        try:
            parse_face(action.card)
        except ValueError as err:
            raise InvalidInputError(str(err), "DECK-1", key="card") from None
    if action.color is not None and action.color not in _COLOR_NAMES:
        raise InvalidInputError(f"color {show(action.color)}: expected one of "
                                f"{', '.join(_COLOR_NAMES)}", "WILD-1", key="color")
    if not isinstance(action.uno, bool):
        raise InvalidInputError(f"{show(action.uno)}: must be true or false", key="uno")
    return action


def text_word(name: str) -> str | None:
    """What the action text reads ``name`` as when it is one of its own words (None when
    it is free to be a name): the call ``uno``, a color, a card code, a verb."""
    if name == "uno":
        return "the UNO call said with a play ('Ann play R7 Bo uno')"
    if name in _COLOR_NAMES:
        return "the color a wild is played with ('Ann play W red')"
    if name in _VERBS:
        return "an action ('Ann draw')"
    try:
        parse_face(name)
    except ValueError:
        return None
    return "a card code ('Ann play R7')"


def check_readable(names: list[str]) -> list[str]:
    """``names``, refused where one is a word the action text reads as itself: a name
    there would make a listed action read back as another (``Bob play G7 uno``: a swap
    with ``uno``, or a swap without a target said with UNO). Every table refuses them,
    so a name valid in one game is valid in every other."""
    for name in names:
        word = text_word(name)
        if word is not None:
            raise InvalidInputError(
                f"player {show(name)}: the action text reads {show(name)} as {word}, so "
                "no player may be named so; choose another name", "DECK-2", key="players")
    return names


def _action_type(verb: str, context: str) -> ActionType:
    try:
        return ActionType(verb)
    except ValueError:
        names = ", ".join(t.value for t in ActionType)
        raise InvalidInputError(f"action {show(context)}: unknown action {show(verb)} "
                                f"(expected one of {names})", key="action") from None
