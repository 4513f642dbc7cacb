"""Every move stated as a guarded command, for a table, in the rulebook's order: what the
rules document lists and the tests read every way. The engine and the relation reach each
section's commands directly (``rules.play``, ``rules.turn``, ``rules.respond``,
``rules.uno``)."""

from __future__ import annotations

from unoformal.rulebook.table import RuleTable
from unoformal.rules.commands import Command
from unoformal.rules.play import plays
from unoformal.rules.respond import responses
from unoformal.rules.turn import turn
from unoformal.rules.uno import out_of_turn


def commands(table: RuleTable) -> tuple[Command, ...]:
    """The commands of ``table``: the play of each kind of card (PLAY-1 ...), the turn's
    other moves (DRAW-1, EXT-PASS, MISPLAY-1, START-WILD), answering a draw card (WD4-2,
    CHAL-1..4), then the out-of-turn moves (UNO-1, ADVICE-1)."""
    return (plays(table).all() + turn(table).all() + responses(table).all()
            + out_of_turn(table).all())
