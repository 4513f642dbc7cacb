"""Actions and their canonical text form (like UCI moves for chess).

An action names its player and, where needed, a card code, a color and a
target, all as text, so actions are self-contained and round-trip::

    Ada play W+4 green uno      Ada draw          Bo catch Ada
"""

from __future__ import annotations

from enum import Enum
from typing import Any, NamedTuple

from unoformal.errors import InvalidInputError


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


class Action(NamedTuple):
    player: str
    type: ActionType
    card: str | None = None
    color: str | None = None
    target: str | None = None
    uno: bool = False

    def __str__(self) -> str:
        parts = [self.player, self.type.value]
        parts += [p for p in (self.card, self.color, self.target) if p is not None]
        if self.uno:
            parts.append("uno")
        return " ".join(parts)

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
        words = text.split()
        if len(words) < 2:
            raise InvalidInputError(f"action {text!r}: expected '<player> <action> ...'")
        player, verb, *rest = words
        kind = _action_type(verb, text)
        uno = bool(rest) and rest[-1] == "uno" and kind is ActionType.PLAY
        if uno:
            rest = rest[:-1]
        card = color = target = None
        if kind in _NEEDS_CARD and rest:
            card, *rest = rest
        if kind in (ActionType.PLAY, ActionType.CHOOSE_COLOR) and rest:
            color, *rest = rest
        if kind is ActionType.CATCH and rest:
            target, *rest = rest
        if rest:
            raise InvalidInputError(f"action {text!r}: unexpected {' '.join(rest)!r}")
        return cls(player, kind, card, color, target, uno)

    @classmethod
    def from_json(cls, data: Any) -> Action:
        """Parse one record action, e.g. ``{"player": "Ada", "action": "draw"}``."""
        if not isinstance(data, dict):
            raise InvalidInputError(f"action {data!r}: expected an object")
        extra = set(data) - _JSON_KEYS
        if extra:
            raise InvalidInputError(f"action {data!r}: unknown field(s) {sorted(extra)}")
        for key in ("player", "action"):
            if not isinstance(data.get(key), str):
                raise InvalidInputError(f"action {data!r}: field {key!r} must be a string")
        for key in ("card", "color", "target"):
            if key in data and not isinstance(data[key], str):
                raise InvalidInputError(f"action {data!r}: field {key!r} must be a string")
        if not isinstance(data.get("uno", False), bool):
            raise InvalidInputError(f"action {data!r}: field 'uno' must be true or false")
        return cls(data["player"], _action_type(data["action"], str(data)), data.get("card"),
                   data.get("color"), data.get("target"), data.get("uno", False))


def _action_type(verb: str, context: str) -> ActionType:
    try:
        return ActionType(verb)
    except ValueError:
        names = ", ".join(t.value for t in ActionType)
        raise InvalidInputError(f"action {context!r}: unknown action {verb!r} "
                                f"(expected one of {names})") from None
