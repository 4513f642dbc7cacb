"""Every move stated as a guarded command, for a table, in the rulebook's order: what the
rules document lists and the tests read every way. The engine and the relation reach each
section's commands directly (``rules.start``, ``rules.play``, ``rules.turn``,
``rules.respond``, ``rules.uno``, ``rules.deal``)."""

from __future__ import annotations

from unoformal.language.commands import Command
from unoformal.rulebook.table import RuleTable
from unoformal.rules.deal import dealing
from unoformal.rules.play import plays
from unoformal.rules.respond import responses
from unoformal.rules.start import starts
from unoformal.rules.turn import turn
from unoformal.rules.uno import out_of_turn


def commands(table: RuleTable) -> tuple[Command, ...]:
    """The commands of ``table``: the start card of each kind turned (DEAL-2, DEAL-3,
    START-*), the play of each kind of card (PLAY-1 ...) and, under a house rule, out of
    turn (JUMP-IN), the turn's other moves (DRAW-1, EXT-PASS, MISPLAY-1, START-WILD),
    answering a draw card (WD4-2, CHAL-1..4), the out-of-turn moves (UNO-1, ADVICE-1),
    then the next deal (END-2, DEAL-2)."""
    played = plays(table)
    return (starts(table).all() + played.all() + tuple(played.jumps.values())
            + turn(table).all() + responses(table).all() + out_of_turn(table).all()
            + (dealing(table),))
