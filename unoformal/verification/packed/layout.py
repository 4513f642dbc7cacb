"""The packed state: one round's state as one fixed-width record of bytes.

A record holds the same fields as the explorer's key (:mod:`unoformal.verification.explore.keys`),
read from the same schema (:mod:`unoformal.rules.state`), but at fixed offsets, so that a
whole frontier is one ``numpy`` array of shape ``(states, width)`` and a copy is a slice:

- one byte per control field (phase, turn, direction, color, UNO window, drawn card,
  pending count and kind, offender, WD4-1 verdict, previous color, winner), two for the
  round's points, one for the top discard;
- a count per face for every hand and for the discard below the top (the pile is the
  rest of the deck, so its multiset is implied);
- under MERCY (a table that knocks players out of a round), a byte per seat: 1 where
  the seat is out, as the key's flag per seat;
- zero bytes up to a multiple of 8, so a record reads as 64-bit words.

A field a rule reads only in some phases (``Field.phases``) holds :data:`NONE` (or 0)
outside them, as the key leaves it out there: two records are equal exactly when the two
keys are (``tests/verification/test_packed.py`` checks it on every state of the small
presets). The fingerprint of a record is a 64-bit hash of its words, computed for a
whole batch at once (:meth:`Layout.fingerprints`).
"""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt

from unoformal.engine.game import Game
from unoformal.rulebook.cards import Kind
from unoformal.rulebook.deck import Deck
from unoformal.rules.state import OVER, PHASES, RESPOND, read_in
from unoformal.verification.explore.chance import ExploreGame

NONE = 255
KINDS = list(Kind)
KIND_INDEX = {k: i for i, k in enumerate(KINDS)}
PHASE_INDEX = {p: i for i, p in enumerate(PHASES)}
OVER_CODE = PHASE_INDEX[OVER]

# The control bytes, in record order. Each is read in the phases the schema says.
HEADER = ("phase", "turn", "direction", "color", "uno_window", "drawn", "pending",
          "pending_kind", "offender", "wd4_legal", "prev_color", "winner",
          "points_lo", "points_hi", "top")
AT = {name: i for i, name in enumerate(HEADER)}
_READ = {p: {f.name for f in read_in(p)} for p in PHASES}

Records = npt.NDArray[np.uint8]
Fingerprints = npt.NDArray[np.uint64]

# splitmix64's finaliser constants, and odd multipliers per word
_M1 = np.uint64(0xBF58476D1CE4E5B9)
_M2 = np.uint64(0x94D049BB133111EB)
_GOLDEN = 0x9E3779B97F4A7C15


class Layout:
    """The record layout of one deck and player count, and the maps to and from a game."""

    def __init__(self, deck: Deck, players: int, seats_out: bool = False) -> None:
        if len(deck.faces) >= NONE or deck.size >= NONE:
            raise ValueError("a packed record holds at most 254 faces and cards")
        self.deck = deck
        self.n = players
        self.nf = len(deck.faces)
        self.copies = list(deck.copies)
        self.counts = len(HEADER)  # where the count vectors begin
        self.discard_at = self.counts + self.n * self.nf
        # MERCY: who is out of the round, after the counts (so every other table's
        # records are as they were)
        self.seats_out = seats_out
        self.out_at = self.discard_at + self.nf
        used = self.out_at + (self.n if seats_out else 0)
        self.width = (used + 7) // 8 * 8
        self.words = self.width // 8
        mult = [(_GOLDEN * (2 * i + 1)) & 0xFFFFFFFFFFFFFFFF for i in range(self.words)]
        self._mult = np.array(mult, dtype=np.uint64)
        self._points = deck.points

    # ------------------------------------------------------------- game -> record

    def encode(self, g: Game) -> bytes:
        """The record of a game's state (its round's fields; see the module's doc)."""
        out = bytearray(self.width)
        phase = g.phase
        read = _READ[phase]
        out[0] = PHASE_INDEX[phase]
        out[1] = g.turn
        out[2] = 0 if g.direction == 1 else 1
        out[3] = NONE if g.color is None else g.color
        out[4] = NONE if g.uno_window is None else g.uno_window
        out[5] = NONE if "drawn" not in read or g.drawn is None else g.drawn
        if phase == RESPOND:
            out[6] = g.pending
            out[7] = NONE if g.pending_kind is None else KIND_INDEX[g.pending_kind]
            out[8] = NONE if g.offender is None else g.offender
            out[9] = 1 if g.wd4_legal else 0
            out[10] = NONE if g.prev_color is None else g.prev_color
        else:
            out[7] = out[8] = out[10] = NONE
        if phase == OVER:
            out[11] = NONE if g.winner is None else g.winner
            out[12] = g.round_points & 0xFF
            out[13] = g.round_points >> 8
        else:
            out[11] = NONE
        discard = g.discard
        out[14] = discard[-1] if discard else NONE
        nf = self.nf
        base = self.counts
        for hand in g.hands:
            for c in hand:
                out[base + c] += 1
            base += nf
        for i in range(len(discard) - 1):
            out[base + discard[i]] += 1
        if self.seats_out:
            for p in g.out:
                out[self.out_at + p] = 1
        return bytes(out)

    # ------------------------------------------------------------- record -> game

    def decode(self, rec: bytes | Records, template: ExploreGame) -> ExploreGame:
        """A game in the record's state: ``template`` (any game of the same table and
        players) copied, its round's fields set from the record. The pile is the rest of
        the deck in face order and the discard below the top in face order: the explorer's
        chance reads neither order."""
        r = bytes(rec)
        g = template.copy()
        nf = self.nf
        base = self.counts
        left = list(self.copies)
        hands = []
        for _ in range(self.n):
            hand = []
            for f in range(nf):
                k = r[base + f]
                if k:
                    hand.extend([f] * k)
                    left[f] -= k
            hands.append(hand)
            base += nf
        discard = []
        for f in range(nf):
            k = r[base + f]
            if k:
                discard.extend([f] * k)
                left[f] -= k
        top = r[14]
        if top != NONE:
            discard.append(top)
            left[top] -= 1
        if any(k < 0 for k in left):
            raise ValueError("a record holds more copies of a face than the deck")
        g.hands = hands
        g.discard = discard
        g.pile = [f for f in range(nf) for _ in range(left[f])]
        g.phase = PHASES[r[0]]
        g.turn = r[1]
        g.direction = 1 if r[2] == 0 else -1
        g.color = None if r[3] == NONE else r[3]
        g.uno_window = None if r[4] == NONE else r[4]
        g.drawn = None if r[5] == NONE else r[5]
        g.pending = r[6]
        g.pending_kind = None if r[7] == NONE else KINDS[r[7]]
        g.offender = None if r[8] == NONE else r[8]
        g.wd4_legal = r[9] == 1 if g.phase == RESPOND else True
        g.prev_color = None if r[10] == NONE else r[10]
        if self.seats_out:  # in seat order: the engine reads who is out, not in what order
            g.out = tuple(p for p in range(self.n) if r[self.out_at + p])
        if g.phase == OVER:
            g.winner = None if r[11] == NONE else r[11]
        else:
            # END-1's winner-to-be (NoteOut, read by GoesOut) is set before the round is
            # over, while a draw card is answered; the schema (and the key) read the
            # winner in ``over`` only, since before it is the seat left with no card.
            # (MERCY: a seat out holds no card either, and never went out)
            g.winner = next((p for p, h in enumerate(hands) if not h and p not in g.out), None)
        g.round_points = r[12] | r[13] << 8
        g.reveal = None
        g.cause = None
        g.shuffles = 0
        g.scores = [0] * self.n
        g._match_key = g._block_key = -1
        return g

    # ------------------------------------------------------------- batches

    def fingerprints(self, records: Records) -> Fingerprints:
        """64-bit fingerprints of a batch of records (rows), all at once: the record's
        words chained through splitmix64's finaliser (each word, plus its own odd salt,
        xored into the hash so far, then mixed), so no difference of a few counts
        cancels out, as it could in a linear hash."""
        words = np.ascontiguousarray(records).view(np.uint64).reshape(-1, self.words)
        h = np.zeros(len(words), dtype=np.uint64)
        with np.errstate(over="ignore"):
            for i in range(self.words):
                h ^= words[:, i] + self._mult[i]
                h ^= h >> np.uint64(30)
                h *= _M1
                h ^= h >> np.uint64(27)
                h *= _M2
                h ^= h >> np.uint64(31)
        return h

    def control(self, records: Records) -> npt.NDArray[np.uint8]:
        """The control state of each record (everything but the cards), as the
        explorer's ``graph.control`` reads it: phase, turn, direction, UNO window,
        pending kind and WD4-1 verdict (in ``respond`` only), whether a color is set."""
        r = records
        respond = r[:, 0] == PHASE_INDEX[RESPOND]
        cols = [r[:, 0], r[:, 1], r[:, 2], r[:, 4],
                np.where(respond, r[:, 7], NONE).astype(np.uint8),
                np.where(respond, r[:, 9], NONE).astype(np.uint8),
                (r[:, 3] == NONE).astype(np.uint8)]
        return np.stack(cols, axis=1)

    def control_tuple(self, row: Any) -> tuple[Any, ...]:
        """One row of :meth:`control` as the explorer's ``graph.control`` tuple."""
        phase = PHASES[int(row[0])]
        kind = None if row[4] == NONE else KINDS[int(row[4])].value
        verdict = None if row[5] == NONE else bool(row[5])
        return (phase, int(row[1]), 1 if row[2] == 0 else -1,
                None if row[3] == NONE else int(row[3]), kind, verdict, bool(row[6]))

    def hands_of(self, rec: bytes) -> list[list[int]]:
        """Every hand of a record as count vectors."""
        nf, base = self.nf, self.counts
        return [list(rec[base + p * nf: base + (p + 1) * nf]) for p in range(self.n)]
