"""One family of exceptions: bad input versus an illegal action.

Every error names what was wrong and the rule it breaks; errors raised by a
game carry the state in canonical text form, so a failure can be replayed.
"""

from __future__ import annotations


class UnoError(Exception):
    """Base of every error this package raises on purpose."""

    def __init__(self, message: str, rule_id: str | None = None, state: str | None = None):
        self.message = message
        self.rule_id = rule_id
        self.state = state
        text = message if rule_id is None else f"{message} (breaks {rule_id})"
        if state is not None:
            text += f"\n  state: {state}"
        super().__init__(text)


class InvalidInputError(UnoError, ValueError):
    """Input that does not describe a well-formed card, action, player, deal or record."""


class IllegalActionError(UnoError):
    """A well-formed action that the rules do not allow in this state."""


class VariantError(InvalidInputError):
    """A variant (a TOML file, or overrides of a table) that the rule table's schema
    refuses: an unknown variant, rule ID or key, or a value of the wrong type or range."""
