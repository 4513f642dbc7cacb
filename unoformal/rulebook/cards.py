"""Card vocabulary: colors, kinds and faces, with their canonical text form.

A *face* is a distinct card design (red 3, blue Skip, Wild ...). The deck holds
several copies of most faces; engines and proofs count copies per face. Which
faces exist, and how many of each, is decided by the DECK-1 entry of the rule
table (:mod:`unoformal.rulebook.table`), not here.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum


class Color(Enum):
    """The four colors of DECK-1, in the order the rulebook names them."""

    # Members are singletons: identity hashing agrees with Enum's identity equality and
    # skips Enum's own __hash__, a Python call, on every lookup keyed by a color.
    __hash__ = object.__hash__

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

    # Members are singletons: identity hashing agrees with Enum's identity equality and
    # skips Enum's own __hash__, a Python call, on every lookup keyed by a kind
    # (the table's effects, the answers NOSTACK-1 allows).
    __hash__ = object.__hash__

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
    """Parse a card code written exactly in its canonical spelling (``R3``, ``W+4``: upper
    case, ASCII digits, no spaces); raise ``ValueError`` naming the bad code."""
    face = _FACES.get(code) if isinstance(code, str) else None
    if face is None:
        shown = repr(code) if len(repr(code)) <= 40 else repr(code)[:37] + "..."
        raise ValueError(f"unknown card code {shown} (expected R0-R9, RS, RR, R+2 and "
                         "likewise Y, G, B; W; W+4)")
    return face


def _all_faces() -> dict[str, Face]:
    """Every face any table can describe, by its canonical code."""
    faces = [Face(None, Kind.WILD), Face(None, Kind.WILD_DRAW_FOUR)]
    for color in Color:
        faces += [Face(color, Kind.NUMBER, rank) for rank in range(10)]
        faces += [Face(color, kind) for kind in (Kind.SKIP, Kind.REVERSE, Kind.DRAW_TWO)]
    return {face.code: face for face in faces}


_FACES = _all_faces()
