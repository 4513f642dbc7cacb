"""One family of exceptions: bad input versus an illegal action.

Every error names what was wrong and the rule it breaks; errors raised by a
game carry the state in canonical text form, so a failure can be replayed.
Errors found in a file also carry where: the file (``source``), the place in it
(``key``, a path such as ``actions[3].card``) and, for a record action, its
``index``. :meth:`UnoError.line` is the one-line form the command line prints.
"""

from __future__ import annotations

MAX_ACTION_SHOWN = 80  # characters of a refused action's text in an error's line


class UnoError(Exception):
    """Base of every error this package raises on purpose."""

    def __init__(self, message: str, rule_id: str | None = None, state: str | None = None,
                 *, key: str | None = None, action: str | None = None,
                 index: int | None = None, source: str | None = None,
                 causes: tuple[str, ...] = ()) -> None:
        self.message = message
        self.rule_id = rule_id
        # The rules that made the state what it is (a refusal's cause, from the game's
        # own history): "P1 is not to move" because of TWO-1, say.
        self.causes = tuple(causes)
        self.state = state
        self.key = key
        self.action = action
        self.index = index
        self.source = source
        super().__init__(message)

    def __str__(self) -> str:
        text = self.line()
        if self.state is not None:
            text += f"\n  state: {self.state}"
        return text

    def at(self, *, source: str | None = None, key: str | None = None,
           index: int | None = None, action: str | None = None,
           state: str | None = None) -> UnoError:
        """Fill in the context an outer layer knows (the file, the action's index ...);
        what the raiser already said is kept."""
        self.source = self.source if self.source is not None else source
        self.key = self.key if self.key is not None else key
        self.index = self.index if self.index is not None else index
        self.action = self.action if self.action is not None else action
        self.state = self.state if self.state is not None else state
        return self

    def line(self) -> str:
        """``FILE: KEY: message (breaks RULE)`` on one line, whatever the input held."""
        parts = [p for p in (self.source, self.key) if p]
        if self.action and self.index is None and not self.message.startswith(self.action):
            # an action given alone is named by its text (a record's by its index), unless
            # the message already starts with it
            action = self.action
            parts.append(action if len(action) <= MAX_ACTION_SHOWN
                         else action[:MAX_ACTION_SHOWN - 3] + "...")
        parts.append(self.message if self.rule_id is None
                     else f"{self.message} (breaks {self.rule_id})")
        return one_line(": ".join(parts))

    def to_json(self) -> dict[str, object]:
        return {"index": self.index, "rule": self.rule_id, "causes": list(self.causes),
                "message": self.message, "key": self.key, "action": self.action,
                "source": self.source}


class InvalidInputError(UnoError, ValueError):
    """Input that does not describe a well-formed card, action, player, deal or record."""


class IllegalActionError(UnoError):
    """A well-formed action that the rules do not allow in this state."""


class VariantError(InvalidInputError):
    """A variant (a TOML file, or overrides of a table) that the rule table's schema
    refuses: an unknown variant, rule ID or key, or a value of the wrong type or range."""


def one_line(text: str) -> str:
    """Control characters (newlines, NEL, U+2028 ...) escaped, so one error is one line."""
    if text.isprintable():
        return text
    return "".join(c if c.isprintable() else repr(c)[1:-1] for c in text)
