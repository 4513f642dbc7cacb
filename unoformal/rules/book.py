"""Every move stated as a guarded command so far, for a table, in the rulebook's order:
what the rules document lists and the tests read every way. The engine and the relation
reach each section's commands directly (``rules.uno``, ``rules.respond``)."""

from __future__ import annotations

from unoformal.rules.commands import Command
from unoformal.rules.respond import responses
from unoformal.rules.uno import out_of_turn
from unoformal.spec.table import RuleTable


def commands(table: RuleTable) -> tuple[Command, ...]:
    """The commands of ``table``: answering a draw card (WD4-2, CHAL-1..4), then the
    out-of-turn moves (UNO-1, ADVICE-1)."""
    return responses(table).all() + out_of_turn(table).all()
