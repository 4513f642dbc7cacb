"""Canonical state keys: the full state of a round as bytes, with chance orders removed.

A key holds the fields of the state schema (:mod:`unoformal.rules.state`) that a rule
reads in the state's phase, each only there (``Field.phases``), so a stale value cannot
split one state in two: every hand as a count per face, the top discard, the discard below
it as a count per face, and the control fields. The draw pile is the rest of the deck, so
its multiset is implied. Pile order, ``seed``, ``shuffles``, ``history``, the scores of the
rounds before and the CHAL-1 reveal (what a view shows, never read by a rule of the round)
are left out: the schema reads them in no phase of a round.

Colour symmetry: every rule treats the colors alike (DECK-1 gives each the same
cards), so permuting colors (and the colored faces with them) maps the state graph to
itself. With symmetry on, a key is the least of the keys of its color permutations; the
schema's domains say which fields are colors and which are faces.
"""

from __future__ import annotations

from itertools import permutations

from unoformal.engine.game import Game
from unoformal.errors import InvalidInputError
from unoformal.rulebook.cards import Face, Kind
from unoformal.rulebook.deck import Deck
from unoformal.rules.state import PHASES, Domain, Field, read_in

NONE = 255
KINDS = list(Kind)
PHASE_INDEX = {p: i for i, p in enumerate(PHASES)}
KIND_INDEX = {k: i for i, k in enumerate(KINDS)}

# How each scalar domain of the schema becomes one byte.
_SCALAR = (Domain.SEAT, Domain.SEAT_OR_NONE, Domain.KIND_OR_NONE, Domain.DIRECTION,
           Domain.PHASE, Domain.COUNT, Domain.FLAG)
_HELD = frozenset({Domain.HANDS, Domain.DISCARD, Domain.PILE})  # zones: counted below


def _n(value: int | None) -> int:
    return NONE if value is None else value


def _layout(phase: str) -> tuple[list[tuple[str, int]], list[str], list[str]]:
    """The fields of a key in ``phase``: (scalar fields with their domain's code, color
    fields, face fields), each in schema order."""
    fields: tuple[Field, ...] = read_in(phase)
    unknown = [f.name for f in fields
               if f.domain not in _SCALAR and f.domain not in _HELD
               and f.domain not in (Domain.COLOR_OR_NONE, Domain.FACE_OR_NONE)]
    if unknown:  # a new domain must say how it is keyed (and how symmetry maps it)
        raise ValueError(f"the explorer's key does not hold {', '.join(unknown)}")
    # The phase first: it decides the layout of the rest, so keys of two phases differ.
    ordered = sorted(fields, key=lambda f: f.domain is not Domain.PHASE)
    scalars = [(f.name, _SCALAR.index(f.domain)) for f in ordered if f.domain in _SCALAR]
    colors = [f.name for f in fields if f.domain is Domain.COLOR_OR_NONE]
    faces = [f.name for f in fields if f.domain is Domain.FACE_OR_NONE]
    return scalars, colors, faces


_LAYOUTS = {p: _layout(p) for p in PHASES}
_KIND, _DIRECTION, _PHASE, _FLAG = (_SCALAR.index(d) for d in (
    Domain.KIND_OR_NONE, Domain.DIRECTION, Domain.PHASE, Domain.FLAG))


def _byte(value: object, code: int) -> int:
    """One scalar field as a byte, by its domain."""
    if code == _PHASE:
        return PHASE_INDEX[str(value)]
    if code == _KIND:
        return NONE if value is None else KIND_INDEX[value]  # type: ignore[index]
    if code == _DIRECTION:
        return 0 if value == 1 else 1
    if code == _FLAG:
        return 1 if value else 0
    return NONE if value is None else int(value)  # type: ignore[call-overload]


class Keyer:
    """Builds keys for one deck; ``symmetry`` reduces by color permutations."""

    def __init__(self, deck: Deck, symmetry: bool = False, seats_out: bool = False) -> None:
        self.deck = deck
        # MERCY: who is knocked out of the round is read by every phase of it (seat
        # order, the end), so a key holds a flag per seat after the scalars; under any
        # other table ``out`` is empty in a round and the keys are as they were
        self.seats_out = seats_out
        self.nf = len(deck.faces)
        if len(deck.faces) >= NONE or deck.size >= NONE:
            raise ValueError("the explorer's keys hold at most 254 faces and cards")
        self.symmetry = symmetry
        perms = list(permutations(range(len(deck.colors)))) if symmetry else [
            tuple(range(len(deck.colors)))]
        index = {f: i for i, f in enumerate(deck.faces)}
        self.perms: list[tuple[list[int], list[int], list[int]]] = []
        for perm in perms:
            face_map = [index[_recolor(f, deck, perm)] for f in deck.faces]
            # new position j holds old face inverse[j]
            inverse = [0] * self.nf
            for old, new in enumerate(face_map):
                inverse[new] = old
            # NONE maps to itself, so "no card" / "no color" survive a permutation
            self.perms.append((face_map + [NONE] * (NONE + 1 - self.nf),
                               list(perm) + [NONE] * (NONE + 1 - len(perm)), inverse))
        self._identity = len(self.perms) == 1

    def raw(self, g: Game) -> tuple[list[int], list[int], list[int]]:
        """(color-bearing header, face-bearing header, count vectors) of a state."""
        flat, faces, counts = self._flat(g)
        return flat[:faces], flat[faces:counts], flat[counts:]

    def _flat(self, g: Game) -> tuple[list[int], int, int]:
        """The three parts of :meth:`raw` in one list, and where the second and the third
        begin: an identity key is this list as bytes, with no list built per part."""
        scalars, colors, faces = _LAYOUTS[g.phase]
        discard = g.discard
        out = [_byte(getattr(g, name), code) for name, code in scalars]
        if self.seats_out:
            gone = g.out
            out += [1 if p in gone else 0 for p in range(g.n)]
        out += [_n(getattr(g, name)) for name in colors]
        first_face = len(out)
        out.append(discard[-1] if discard else NONE)
        out += [_n(getattr(g, name)) for name in faces]
        counts = len(out)
        nf = self.nf
        out += [0] * (nf * (g.n + 1))
        base = counts
        for hand in g.hands:
            for c in hand:
                out[base + c] += 1
            base += nf
        for i in range(len(discard) - 1):  # the discard below the top, without a slice
            out[base + discard[i]] += 1
        return out, first_face, counts

    def key(self, g: Game) -> bytes:
        try:
            if self._identity:
                return bytes(self._flat(g)[0])
            head, faces, counts = self.raw(g)
            return min(self._permuted(head, faces, counts))
        except ValueError:  # a byte out of range: asked only then, off the hot path
            raise _too_large(g) from None

    def orbit(self, g: Game) -> int:
        """How many distinct states the color permutations make of this one."""
        head, faces, counts = self.raw(g)
        return len(set(self._permuted(head, faces, counts)))

    def _permuted(self, head: list[int], faces: list[int], counts: list[int]) -> list[bytes]:
        nf = self.nf
        ncolors = len(_LAYOUTS[PHASES[head[0]]][1])  # the phase is the first byte
        fixed = head[:-ncolors]
        out = []
        for face_map, color_map, inverse in self.perms:
            h = fixed + [color_map[c] for c in head[-ncolors:]]
            f = [face_map[x] for x in faces]
            cs = [counts[block + inverse[j]] for block in range(0, len(counts), nf)
                  for j in range(nf)]
            out.append(bytes(h + f + cs))
        return out


def _too_large(g: Game) -> InvalidInputError:
    """The one-line refusal of a state whose count no key byte holds: a count that can
    grow without bound (JUMP-IN's "adds" with UNO-1's catch: the jumper caught draws the
    Draw Two back and adds it again) makes the state space infinite."""
    scalars = _LAYOUTS[g.phase][0]
    big = [f"{name} {getattr(g, name)}" for name, code in scalars
           if code not in (_PHASE, _KIND, _DIRECTION, _FLAG)
           and getattr(g, name) is not None and not 0 <= int(getattr(g, name)) < NONE]
    return InvalidInputError(f"a state reached holds {', '.join(big) or 'a count'}: the "
                             f"explorer's keys hold counts up to {NONE - 1}, and a count "
                             "that grows without bound makes the state space infinite")


def _recolor(face: Face, deck: Deck, perm: tuple[int, ...]) -> Face:
    if face.color is None:
        return face
    color = deck.colors[perm[deck.color_index[face.color]]]
    return Face(color, face.kind, face.rank)
