"""The rule language: statements about one card of the deck in a game state, each node
interpreted three ways, as Ludii's ludemes are (``eval`` and ``toEnglish``) and as
claripy's one AST has a concrete and a Z3 backend:

- :meth:`Card.holds`: on a concrete game (the engine), for a face index;
- :meth:`Card.encode`: as a Z3 term over a symbolic state (the relation), for a face
  index, the face's own attributes folded to constants (so each face's term is as small
  as a hand-written one);
- :meth:`Card.words`: in words, filled from the game (refusals, causes, docs).

Table values are folded in when a rule's statement is built (a Python ``if`` on a value
stays a Python ``if``); only what depends on the state is a node. The backends meet the
language through two small protocols, so this module imports neither the engine nor Z3's
relation: the layers run table -> rules -> engine and relation.
"""

from __future__ import annotations

import string
from abc import ABC, abstractmethod
from collections.abc import Collection
from dataclasses import dataclass
from typing import Any, Protocol

from unoformal.errors import InvalidInputError
from unoformal.inputs import show
from unoformal.rulebook.cards import Kind
from unoformal.rulebook.words import KIND_NAMES

# A Z3 term; the symbolic backend's own type, opaque here.
Term = Any


class Concrete(Protocol):
    """What the concrete backend reads of a game (the engine's Game has it all). A
    statement reads nothing else, so its value for a face depends only on the current
    color and the top of the discard (PLAY-1's match): the engine caches it so."""

    f_kind: list[Kind]
    f_color: list[int | None]

    @property
    def color(self) -> int | None: ...

    def _matches(self, face: int) -> bool: ...


class Symbolic(Protocol):
    """What the symbolic backend needs of the relation (z3/actions.py's Spec has it all)."""

    def kind_of(self, face: int) -> Kind: ...

    def color_is_current(self, s: Any, face: int) -> Term | None: ...

    def playable(self, s: Any, face: int) -> Term: ...

    def true(self) -> Term: ...

    def is_true(self, term: Term) -> bool: ...

    def both(self, terms: list[Term]) -> Term: ...

    def negated(self, term: Term) -> Term: ...


class Card(ABC):
    """A statement about one card (a face) in a state."""

    @abstractmethod
    def holds(self, game: Concrete, face: int) -> bool:
        """Whether it holds of ``face`` in the concrete ``game``."""

    @abstractmethod
    def encode(self, spec: Symbolic, s: Any, face: int) -> Term | None:
        """Its Z3 term for ``face`` in the symbolic state ``s``; None where it cannot hold
        of that face whatever the state (the caller leaves the face out)."""

    @abstractmethod
    def text(self) -> str:
        """How it reads, unfilled (the rules document)."""


@dataclass(frozen=True)
class OfCurrentColor(Card):
    """The card's color is the current color (a wild card has none)."""

    def holds(self, game: Concrete, face: int) -> bool:
        return game.f_color[face] == game.color

    def encode(self, spec: Symbolic, s: Any, face: int) -> Term | None:
        return spec.color_is_current(s, face)

    def text(self) -> str:
        return "a card of the current color"


@dataclass(frozen=True)
class OfKind(Card):
    """The card is of ``kind``."""

    kind: Kind

    def holds(self, game: Concrete, face: int) -> bool:
        return game.f_kind[face] is self.kind

    def encode(self, spec: Symbolic, s: Any, face: int) -> Term | None:
        return spec.true() if spec.kind_of(face) is self.kind else None

    def text(self) -> str:
        return f"a {KIND_NAMES[self.kind]}"


@dataclass(frozen=True)
class Playable(Card):
    """The card could be played on the discard now (PLAY-1's matching)."""

    def holds(self, game: Concrete, face: int) -> bool:
        return game._matches(face)

    def encode(self, spec: Symbolic, s: Any, face: int) -> Term | None:
        return spec.playable(s, face)

    def text(self) -> str:
        return "a card that could be played"


@dataclass(frozen=True)
class Not(Card):
    part: Card

    def holds(self, game: Concrete, face: int) -> bool:
        return not self.part.holds(game, face)

    def encode(self, spec: Symbolic, s: Any, face: int) -> Term | None:
        term = self.part.encode(spec, s, face)
        if term is None:
            return spec.true()
        return None if spec.is_true(term) else spec.negated(term)

    def text(self) -> str:
        return f"not {self.part.text()}"


@dataclass(frozen=True)
class All(Card):
    parts: tuple[Card, ...]

    def holds(self, game: Concrete, face: int) -> bool:
        return all(p.holds(game, face) for p in self.parts)

    def encode(self, spec: Symbolic, s: Any, face: int) -> Term | None:
        terms = []
        for part in self.parts:
            term = part.encode(spec, s, face)
            if term is None:
                return None
            if not spec.is_true(term):
                terms.append(term)
        return spec.both(terms) if terms else spec.true()

    def text(self) -> str:
        return " and ".join(p.text() for p in self.parts)


TEMPLATE_SHOWN = 120  # characters of a refused template quoted in its error


def check_template(template: object, fields: Collection[str], what: str,
                   rule: str | None = None, key: str | None = None) -> str:
    """``template``, refused when it is built (an :class:`InvalidInputError` naming it)
    unless it is a string whose every ``{field}`` is one of ``fields``, written bare: a
    format spec (``{target:>99999999}``: a 100 MB string), a conversion, an index or an
    attribute is refused, and so is a brace left open. Filled in later with ``format``,
    such a template can fail (a KeyError) or blow up only where it was refused here."""
    shown = show(template, TEMPLATE_SHOWN)
    if not isinstance(template, str):
        raise InvalidInputError(f"{what} {shown}: expected a string", rule, key=key)
    try:
        parts = list(string.Formatter().parse(template))
    except ValueError as err:  # a brace left open or closed alone
        raise InvalidInputError(f"{what} {shown}: {err} (write {{{{ and }}}} for a brace)",
                                rule, key=key) from None
    for _, field, spec, conversion in parts:
        if field is None:
            continue
        if field not in fields:
            named = ", ".join(f"{{{f}}}" for f in fields)
            raise InvalidInputError(f"{what} {shown}: unknown field {{{field}}}; the fields "
                                    f"are {named}", rule, key=key)
        if spec or conversion:
            raise InvalidInputError(f"{what} {shown}: write {{{field}}} bare, without a "
                                    "format spec or conversion", rule, key=key)
    return template


# What a Said template is filled with (a Wild Draw Four's blocking card: ``Game._wd4_blocking``)
SAID_FIELDS = ("card", "top", "color")


@dataclass(frozen=True)
class Said(Card):
    """``part``, with the words a user reads when it decides something: a template whose
    ``{card}``, ``{color}`` and ``{top}`` are filled from the game."""

    part: Card
    template: str

    def __post_init__(self) -> None:
        check_template(self.template, SAID_FIELDS, "template", key="template")

    def holds(self, game: Concrete, face: int) -> bool:
        return self.part.holds(game, face)

    def encode(self, spec: Symbolic, s: Any, face: int) -> Term | None:
        return self.part.encode(spec, s, face)

    def text(self) -> str:
        return self.part.text()

    def words(self, **values: str) -> str:
        return self.template.format(**values)
