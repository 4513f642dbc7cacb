"""The state of a game, declared once: every field, what its values mean, and who reads it.

Like the ``VARIABLES`` of a TLA+ spec. Each :class:`Field` has one name, the one the
engine's attribute and the Z3 state's field both carry, and says:

- ``text``: its key in the canonical text form (a public format, spelt as in version 1:
  ``uno``, ``kind``, ``legal``, ``prev``, ``points``), or None when the text leaves it out;
- ``domain``: what a value is (a seat, a color, a count ...), which decides how the text
  writes and reads it, and how the explorer's color symmetry maps it;
- ``phases``: the phases in which a rule reads it. The explorer's key holds a field only
  there, so a stale value cannot split one state in two; ``None`` is every phase,
  ``()`` is none (bookkeeping a view or the next round reads, never a move of this one);
- ``symbolic``: whether the Z3 relation holds it (the relation covers one round and
  counts cards, so the seed, the shuffles, the round number and the CHAL-1 reveal are
  left to the engine);
- ``rule``: the entry that gives the field its meaning, named by errors about it.

Readers: :mod:`unoformal.engine.text` (the canonical text, both ways),
:mod:`unoformal.verification.explore.keys` (the explorer's key),
:mod:`unoformal.verification.z3.state` (the symbolic state's fields) and
:mod:`unoformal.compare.relation.model` (validate's projection). The engine's own
fields are checked against it (``tests/verification/test_state_schema.py``).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from enum import Enum
from functools import cache
from typing import Final

from unoformal.inputs import check_players
from unoformal.rulebook.table import RuleTable

# Phases of a round. "respond" is the victim's accept/challenge (or stacking) decision.
START: Final = "start"
COLOR: Final = "color"
PLAY: Final = "play"
DRAWN: Final = "drawn"
RESPOND: Final = "respond"
OVER: Final = "over"
# SEVERAL (a house rule): after a number card, its player may play more of that number.
# Last, so every phase before it keeps its index (the explorer's and packed records').
MORE: Final = "more"
PHASES: Final = (START, COLOR, PLAY, DRAWN, RESPOND, OVER, MORE)


def phases_of(table: RuleTable) -> tuple[str, ...]:
    """The phases a round under ``table`` can be in: "more" only under SEVERAL."""
    return PHASES if table.several.enabled else PHASES[:-1]


class Domain(Enum):
    """What a field's value is."""

    TABLE = "the rule table, by name"
    NAMES = "the players' names in seat order"
    SEAT = "a seat"
    SEAT_OR_NONE = "a seat, or none"
    COLOR_OR_NONE = "a color of the deck, or none"
    FACE_OR_NONE = "a face of the deck, or none"
    KIND_OR_NONE = "a kind of card, or none"
    DIRECTION = "left (+1) or right (-1)"
    PHASE = "a phase of the round"
    COUNT = "a count"
    FLAG = "true or false"
    HANDS = "a hand of cards per seat"
    PILE = "the draw pile, in order"
    DISCARD = "the discard pile, in order, its top card last"
    SCORES = "a score per seat"
    SEATS = "a set of seats"
    REVEAL = "who saw whose hand (CHAL-1)"


# Domains whose values are colors or faces: the explorer's color symmetry maps them.
COLORED = frozenset({Domain.COLOR_OR_NONE})
FACED = frozenset({Domain.FACE_OR_NONE})


@dataclass(frozen=True)
class Field:
    name: str
    text: str | None
    domain: Domain
    rule: str | None
    phases: tuple[str, ...] | None
    symbolic: bool
    doc: str
    # a house rule's field: the text has its key only under a table that can change it
    # (``only(table)``), so that every other table's text stays as it was
    only: Callable[[RuleTable], bool] | None = None

    def in_text(self, table: RuleTable) -> bool:
        """Whether the text of a state under ``table`` has this field's key."""
        return self.text is not None and (self.only is None or self.only(table))

    def read_in(self, phase: str) -> bool:
        """Whether a rule reads this field in ``phase``."""
        return self.phases is None or phase in self.phases


def _f(name: str, text: str | None, domain: Domain, rule: str | None,
       phases: tuple[str, ...] | None, symbolic: bool, doc: str,
       only: Callable[[RuleTable], bool] | None = None) -> Field:
    return Field(name, text, domain, rule, phases, symbolic, doc, only)


_NEVER: tuple[str, ...] = ()

# In the canonical text's order.
FIELDS: Final = (
    _f("rules", "rules", Domain.TABLE, None, _NEVER, False,
       "the rule table the game is played under"),
    _f("names", "players", Domain.NAMES, "DECK-2", _NEVER, False,
       "the players, in seat order"),
    _f("dealer", "dealer", Domain.SEAT, "DEAL-1", _NEVER, True,
       "who dealt this round (the next dealer follows, DEAL-3)"),
    _f("round", "round", Domain.COUNT, "SCORE-2", _NEVER, False,
       "the round's number, from 1"),
    _f("turn", "turn", Domain.SEAT, "PLAY-1", None, True, "who is to move"),
    _f("direction", "dir", Domain.DIRECTION, "REV-1", None, True,
       "the direction of play"),
    _f("color", "color", Domain.COLOR_OR_NONE, "PLAY-1", None, True,
       "the current color (a Wild's chosen color, or the top card's)"),
    _f("phase", "phase", Domain.PHASE, None, None, True,
       "the phase of the round: what kind of move is expected"),
    _f("hands", "hands", Domain.HANDS, "DEAL-2", None, True, "every player's hand"),
    _f("pile", "pile", Domain.PILE, "DRAW-1", None, True,
       "the draw pile (the explorer's key counts it as the rest of the deck)"),
    _f("discard", "discard", Domain.DISCARD, "PLAY-1", None, True,
       "the discard pile; its top card is the one to match"),
    _f("scores", "scores", Domain.SCORES, "SCORE-2", _NEVER, True,
       "the points each player has won in the rounds before"),
    # Read by the engine's seat order, deal and game end. Under END-2's elimination no
    # rule of a round reads it otherwise, and the relation and the explorer cover one
    # round of the seats left (a round of that many players), where it is empty. Under
    # MERCY a player is knocked out during a round: the relation holds it then (a flag
    # per seat, none under any other table: ``Sym.out``), and so does the explorer's key
    # (a flag per seat, under MERCY alone: ``Keyer``).
    _f("out", "out", Domain.SEATS, "END-2", _NEVER, True,
       "the players who are out: who have left the game (END-2's elimination) or are "
       "knocked out of the round (MERCY), house rules both",
       only=RuleTable.seats_leave),
    _f("uno_window", "uno", Domain.SEAT_OR_NONE, "UNO-1", None, True,
       "who went down to one card without saying UNO and can still be caught"),
    _f("drawn", "drawn", Domain.FACE_OR_NONE, "DRAW-1", (DRAWN,), True,
       "the card just drawn, which alone may then be played"),
    _f("pending", "pending", Domain.COUNT, "WD4-2", (RESPOND,), True,
       "how many cards the victim of a draw card must take"),
    _f("pending_kind", "kind", Domain.KIND_OR_NONE, "WD4-2", (RESPOND,), True,
       "the kind of the draw card being answered"),
    _f("offender", "offender", Domain.SEAT_OR_NONE, "WD4-2", (RESPOND,), True,
       "who played the draw card being answered"),
    _f("wd4_legal", "legal", Domain.FLAG, "WD4-1", (RESPOND,), True,
       "whether the Wild Draw Four being answered was played legally"),
    _f("prev_color", "prev", Domain.COLOR_OR_NONE, "CHAL-1", (RESPOND,), True,
       "the color that was current when the Wild Draw Four was played"),
    _f("reveal", "reveal", Domain.REVEAL, "CHAL-1", _NEVER, False,
       "the challenger's look at the offender's hand (a view shows it)"),
    _f("winner", "winner", Domain.SEAT_OR_NONE, "END-1", (OVER,), True,
       "who went out"),
    _f("round_points", "points", Domain.COUNT, "SCORE-1", (OVER,), True,
       "the points the winner scored for this round"),
    _f("seed", "seed", Domain.COUNT, None, _NEVER, False,
       "the seed of the seeded chance"),
    _f("shuffles", "shuffles", Domain.COUNT, None, _NEVER, False,
       "how many shuffles the seeded chance has made"),
)

BY_NAME: Final = {f.name: f for f in FIELDS}
TEXT_FIELDS: Final = tuple(f for f in FIELDS if f.text is not None)
KEYS: Final = tuple(f.text for f in TEXT_FIELDS if f.text is not None)
SYMBOLIC: Final = tuple(f for f in FIELDS if f.symbolic)

# The fields a rule reads while a round is played: the explorer's key is built from
# these, each only in the phases that read it (``Field.phases``).
ROUND: Final = tuple(f for f in FIELDS if f.phases != _NEVER)


# The fields a rule reads only in some phases of a round (the pending draw, the drawn
# card, the winner): comparisons and keys hold them only there.
PHASED: Final = tuple(f for f in ROUND if f.phases is not None)


@cache
def text_fields(table: RuleTable) -> tuple[Field, ...]:
    """The fields the text of a state under ``table`` has, in order (found once per
    table: every state's text asks)."""
    return tuple(f for f in TEXT_FIELDS if f.in_text(table))


def read_in(phase: str) -> tuple[Field, ...]:
    """The fields a rule reads in ``phase``, in schema order."""
    return tuple(f for f in ROUND if f.read_in(phase))


# What a field holds when nothing is pending (the respond phase's fields outside it).
NOTHING_PENDING: Final = (("pending", "0"), ("kind", "-"), ("offender", "-"))


def check_names(players: Sequence[str], rules: RuleTable) -> list[str]:
    """DECK-2's range, and names the text form carries (:func:`unoformal.inputs.check_name`)."""
    return check_players(players, rules.players.minimum, rules.players.maximum)
