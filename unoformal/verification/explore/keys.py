"""Canonical state keys: the full state of a round as bytes, with chance orders removed.

A key holds the phase, the player to move, the direction, the current color, the top
discard, every hand as a count per face, and the discard below the top as a count per
face; the draw pile is the rest of the deck, so its multiset is implied. Pile order,
``seed``, ``shuffles``, ``history`` and the CHAL-1 reveal (what a view shows, never
read by a rule) are left out. Fields the engine reads only in one phase (the drawn
card in ``drawn``; the pending draw, its kind, the offender, the WD4-1 verdict and the
color before the Wild Draw Four in ``respond``; the winner in ``over``) are part of the
key only in that phase, so a stale value cannot split one state in two.

Colour symmetry: every rule treats the colors alike (DECK-1 gives each the same
cards), so permuting colors (and the colored faces with them) maps the state graph to
itself. With symmetry on, a key is the least of the keys of its color permutations.
"""

from __future__ import annotations

from itertools import permutations

from unoformal.engine.game import DRAWN, OVER, PHASES, RESPOND, Game
from unoformal.spec.cards import Face, Kind
from unoformal.spec.deck import Deck

NONE = 255
KINDS = list(Kind)
PHASE_INDEX = {p: i for i, p in enumerate(PHASES)}
KIND_INDEX = {k: i for i, k in enumerate(KINDS)}


def _n(value: int | None) -> int:
    return NONE if value is None else value


class Keyer:
    """Builds keys for one deck; ``symmetry`` reduces by color permutations."""

    def __init__(self, deck: Deck, symmetry: bool = False) -> None:
        self.deck = deck
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
        phase = g.phase
        discard = g.discard
        out = [PHASE_INDEX[phase], g.turn, 0 if g.direction == 1 else 1, _n(g.uno_window)]
        if phase == RESPOND:
            kind = g.pending_kind
            out += [g.pending, _n(g.offender), int(g.wd4_legal),
                    NONE if kind is None else KIND_INDEX[kind], _n(g.color), _n(g.prev_color)]
        else:
            if phase == OVER:
                out.append(_n(g.winner))
            out.append(_n(g.color))
        faces = len(out)
        out.append(discard[-1] if discard else NONE)
        if phase == DRAWN:
            out.append(_n(g.drawn))
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
        return out, faces, counts

    def key(self, g: Game) -> bytes:
        if self._identity:
            return bytes(self._flat(g)[0])
        head, faces, counts = self.raw(g)
        return min(self._permuted(head, faces, counts))

    def orbit(self, g: Game) -> int:
        """How many distinct states the color permutations make of this one."""
        head, faces, counts = self.raw(g)
        return len(set(self._permuted(head, faces, counts)))

    def _permuted(self, head: list[int], faces: list[int], counts: list[int]) -> list[bytes]:
        nf = self.nf
        ncolors = 1 if head[0] != PHASE_INDEX[RESPOND] else 2
        fixed = head[:-ncolors]
        out = []
        for face_map, color_map, inverse in self.perms:
            h = fixed + [color_map[c] for c in head[-ncolors:]]
            f = [face_map[x] for x in faces]
            cs = [counts[block + inverse[j]] for block in range(0, len(counts), nf)
                  for j in range(nf)]
            out.append(bytes(h + f + cs))
        return out


def _recolor(face: Face, deck: Deck, perm: tuple[int, ...]) -> Face:
    if face.color is None:
        return face
    color = deck.colors[perm[deck.color_index[face.color]]]
    return Face(color, face.kind, face.rank)
