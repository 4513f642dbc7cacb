"""What the Promela reading knows of a table: the deck's faces, the seats, and the chance
outcomes an option of the program fixes (its *script*: one per draw or random color it
makes, in the order they come)."""

from __future__ import annotations

from dataclasses import dataclass, field

from unoformal.errors import UnoError
from unoformal.rulebook.cards import Kind
from unoformal.rulebook.deck import Deck
from unoformal.rulebook.table import RuleTable
from unoformal.rules.state import PHASES

NONE = 255  # no seat, color, face or kind: as the explorer's keys write it
ROOT = len(PHASES)  # the phase of Spin's one initial state, before any deal
DEALT = ROOT + 1  # a deal made, its start card (``start``) not yet turned
KINDS = list(Kind)


class PromelaError(UnoError):
    """A table or node the Promela reading cannot state (one line, no traceback)."""


def phase_code(phase: str) -> int:
    return PHASES.index(phase)


@dataclass
class Slot:
    """A chance outcome the effect asks for: ``cards`` drawn (``most`` at most) or a
    ``color`` drawn at random."""

    kind: str
    most: int = 0


@dataclass
class Ctx:
    """One table's deck and seats, and the script of the option being written (None:
    the effect is only being probed for the slots it needs)."""

    table: RuleTable
    players: int
    dealer: int
    script: tuple[tuple[int, ...], ...] | None = None
    slots: list[Slot] = field(default_factory=list)
    used: int = 0  # slots taken so far on the path being written

    def __post_init__(self) -> None:
        self.deck = Deck.of(self.table)
        faces = self.deck.faces
        self.nf = len(faces)
        ci = self.deck.color_index
        self.f_color = [ci[f.color] if f.color is not None else None for f in faces]
        self.f_kind = [f.kind for f in faces]
        self.f_rank = [f.rank for f in faces]
        self.ncolors = len(self.deck.colors)
        self.copies = list(self.deck.copies)

    def faces_of(self, kind: Kind) -> list[int]:
        return [g for g in range(self.nf) if self.f_kind[g] is kind]

    def next_slot(self, slot: Slot, at: int) -> tuple[int, ...] | None:
        """The script's outcome for the ``at``-th chance slot of the path (None while
        probing, which records the slot)."""
        if self.script is None:
            while len(self.slots) <= at:
                self.slots.append(Slot(slot.kind, 0))
            known = self.slots[at]
            if known.kind != slot.kind:
                raise PromelaError("a command draws cards and a color at the same point "
                                   "of two of its branches: no Promela reading for it")
            known.most = max(known.most, slot.most)
            return None
        return self.script[at]

    # ---- terms over the Promela state (every seat may be a Promela expression)

    def hand(self, seat: object, face: int) -> str:
        if isinstance(seat, int):
            return f"hand[{seat * self.nf + face}]"
        return f"hand[({seat})*{self.nf}+{face}]"

    def hand_total(self, seat: object) -> str:
        return "(" + "+".join(self.hand(seat, g) for g in range(self.nf)) + ")"

    def total(self, array: str) -> str:
        return "(" + "+".join(f"{array}[{g}]" for g in range(self.nf)) + ")"

    def next_seat(self, seat: object, steps: int = 1) -> str:
        """The seat ``steps`` on from ``seat`` in the direction of play (``dir`` 1: left)."""
        n = self.players
        left, right = steps % n, (n - steps % n) % n
        return f"((({seat})+(dir -> {left} : {right}))%{n})"

    def is_face(self, term: str, faces: list[int]) -> str:
        return "(" + " || ".join(f"{term} == {g}" for g in faces) + ")" if faces else "false"
