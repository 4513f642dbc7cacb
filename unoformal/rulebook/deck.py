"""The deck that a rule table's DECK-1 entry describes, as indexed faces.

Engines and proofs refer to a face by its index in :attr:`Deck.faces`; the
index order is canonical (colors in table order, then wilds), so the same table
always gives the same indices.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

from unoformal.rulebook.cards import Color, Face, Kind, parse_face
from unoformal.rulebook.table import RuleTable, kind_copies


@dataclass(frozen=True)
class Deck:
    faces: tuple[Face, ...]
    copies: tuple[int, ...]
    points: tuple[int, ...]
    colors: tuple[Color, ...]

    @classmethod
    def of(cls, rules: RuleTable) -> Deck:
        """The deck of ``rules``, built once per table object (a referee run sets up a
        game per record; the identity check keeps a recycled ``id`` from matching)."""
        hit = _DECKS.get(id(rules))
        if hit is not None and hit[0] is rules:
            return hit[1]
        deck = cls._build(rules)
        if len(_DECKS) > 256:
            _DECKS.clear()
        _DECKS[id(rules)] = (rules, deck)
        return deck

    @classmethod
    def _build(cls, rules: RuleTable) -> Deck:
        spec = rules.deck
        entries: list[tuple[Face, int]] = []
        for color in spec.colors:
            for rank, n in enumerate(spec.number_copies):
                entries.append((Face(color, Kind.NUMBER, rank), n))
            for kind, n in kind_copies(spec).items():
                entries.append((Face(color, kind), n))
        entries.append((Face(None, Kind.WILD), spec.wild_copies))
        entries.append((Face(None, Kind.WILD_DRAW_FOUR), spec.wild_draw_four_copies))
        entries = [(face, n) for face, n in entries if n > 0]
        faces = tuple(face for face, _ in entries)
        return cls(faces=faces, copies=tuple(n for _, n in entries),
                   points=tuple(_points(rules, face) for face in faces), colors=spec.colors)

    @cached_property
    def index(self) -> dict[str, int]:
        return {face.code: i for i, face in enumerate(self.faces)}

    @cached_property
    def numbers(self) -> dict[int, list[int]]:
        """The number faces by rank, each a list of face indices (SEVERAL's "of the same
        number", read alike by the relation, Promela and the properties)."""
        out: dict[int, list[int]] = {}
        for g, face in enumerate(self.faces):
            if face.kind is Kind.NUMBER and face.rank is not None:
                out.setdefault(face.rank, []).append(g)
        return out

    @cached_property
    def color_index(self) -> dict[Color, int]:
        return {color: i for i, color in enumerate(self.colors)}

    @property
    def size(self) -> int:
        return sum(self.copies)

    @cached_property
    def codes(self) -> tuple[str, ...]:
        """The code of every face, by index (the state text writes thousands of them)."""
        return tuple(face.code for face in self.faces)

    def face_id(self, code: str) -> int:
        """Index of a card code in this deck; ``ValueError`` names the code and DECK-1."""
        known = self.index.get(code)
        if known is not None:
            return known
        face = parse_face(code)
        try:
            return self.index[face.code]
        except KeyError:
            raise ValueError(f"card {face.code} is not in this deck (DECK-1)") from None

    def cards(self) -> list[int]:
        """Every card of the deck, as face indices, in canonical order."""
        return [i for i, n in enumerate(self.copies) for _ in range(n)]

    def code(self, face: int) -> str:
        return self.codes[face]


_DECKS: dict[int, tuple[RuleTable, Deck]] = {}


def _points(rules: RuleTable, face: Face) -> int:
    """SCORE-1: what one card left in a hand is worth to the round winner."""
    p = rules.points
    if face.kind is Kind.NUMBER:
        return ((face.rank or 0) if p.number_face_value else 0) * p.multiplier
    return (p.wild_points if face.kind.is_wild else p.action_points) * p.multiplier
