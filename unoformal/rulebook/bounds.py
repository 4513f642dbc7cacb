"""The vocabulary the rule table states its schema in: what a field's value may be.

A field of a table entry is annotated with its type and one of these marks, e.g.
``penalty: Annotated[int, Range(0, 20)] = 2``; :mod:`unoformal.rulebook.schema` turns the
annotations into the JSON Schema every variant is validated against. This module
depends on nothing, so the table can import it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

# One line of printable text: output stays one line per message and per state field.
ONE_LINE = r"^[^\x00-\x1f\x7f]*$"


@dataclass(frozen=True)
class Range:
    """An integer from ``low`` to ``high``, both included."""

    low: int
    high: int

    def keywords(self) -> dict[str, Any]:
        return {"minimum": self.low, "maximum": self.high}


@dataclass(frozen=True)
class Items:
    """An array of ``low`` to ``high`` items; pairwise distinct when ``unique``."""

    low: int
    high: int
    unique: bool = False

    def keywords(self) -> dict[str, Any]:
        out: dict[str, Any] = {"minItems": self.low, "maxItems": self.high}
        if self.unique:
            out["uniqueItems"] = True
        return out


@dataclass(frozen=True)
class Text:
    """A string of ``low`` to ``high`` characters matching ``pattern``, which ``what``
    describes in words (for the error message)."""

    high: int
    pattern: str = ONE_LINE
    what: str = "one line of text"
    low: int = 0

    def keywords(self) -> dict[str, Any]:
        return {"minLength": self.low, "maxLength": self.high, "pattern": self.pattern,
                "description": self.what}


@dataclass(frozen=True)
class Choice:
    """A string, one of ``options``."""

    options: tuple[str, ...]

    def keywords(self) -> dict[str, Any]:
        return {"enum": list(self.options)}


@dataclass(frozen=True)
class Fixed:
    """A label no variant may change (a card effect's ``kind`` names the attribute it is
    found by, so changing it would make the label lie)."""

    def keywords(self) -> dict[str, Any]:
        return {}


Mark = Range | Items | Text | Choice | Fixed
