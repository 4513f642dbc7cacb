"""Card vocabulary: colors, kinds and faces, with their canonical text form.

A *face* is a distinct card design (red 3, blue Skip, Wild ...). The deck holds
several copies of most faces; engines and proofs count copies per face. Which
faces exist, and how many of each, is decided by the DECK-1 entry of the rule
table (:mod:`unoformal.spec.table`), not here.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum


class Color(Enum):
    """The four colors of DECK-1, in the order the rulebook names them."""

    RED = "red"
    YELLOW = "yellow"
    GREEN = "green"
    BLUE = "blue"

    @property
    def letter(self) -> str:
        return self.name[0]

    @classmethod
    def parse(cls, text: str) -> Color:
        """A color from its name or its letter, in any case (a lookup: actions name a
        color on every wild card played, the explorer's hot path)."""
        color = _COLOR_TEXT.get(text.lower())
        if color is None:
            raise ValueError(f"unknown color {text!r} (expected red, yellow, green or blue)")
        return color


_COLOR_TEXT = {text: c for c in Color for text in (c.value, c.letter.lower())}


class Kind(Enum):
    """What a card is, independent of its color. The value is its code suffix."""

    NUMBER = "#"
    SKIP = "S"
    REVERSE = "R"
    DRAW_TWO = "+2"
    WILD = "W"
    WILD_DRAW_FOUR = "W+4"

    @property
    def is_wild(self) -> bool:
        return self in (Kind.WILD, Kind.WILD_DRAW_FOUR)

    @property
    def is_action(self) -> bool:
        return self in (Kind.SKIP, Kind.REVERSE, Kind.DRAW_TWO)


@dataclass(frozen=True, order=True)
class Face:
    """One card design. ``rank`` is set for number cards only."""

    color: Color | None
    kind: Kind
    rank: int | None = None

    @property
    def code(self) -> str:
        """Canonical text: ``R3``, ``RS`` (Skip), ``RR`` (Reverse), ``R+2``, ``W``, ``W+4``."""
        if self.kind.is_wild:
            return self.kind.value
        assert self.color is not None
        suffix = str(self.rank) if self.kind is Kind.NUMBER else self.kind.value
        return self.color.letter + suffix

    def __str__(self) -> str:
        return self.code


def parse_face(code: str) -> Face:
    """Parse a canonical card code; raise ``ValueError`` naming the bad code."""
    text = code.strip().upper()
    if text in ("W", "W+4"):
        return Face(None, Kind.WILD if text == "W" else Kind.WILD_DRAW_FOUR)
    if len(text) >= 2 and text[0] in "RYGB":
        color = Color.parse(text[0])
        rest = text[1:]
        if rest.isdigit() and len(rest) == 1:
            return Face(color, Kind.NUMBER, int(rest))
        for kind in (Kind.SKIP, Kind.REVERSE, Kind.DRAW_TWO):
            if rest == kind.value:
                return Face(color, kind)
    raise ValueError(
        f"unknown card code {code!r} (expected R0-R9, RS, RR, R+2 and likewise Y, G, B; W; W+4)"
    )
