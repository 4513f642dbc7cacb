"""What coverage counts: a :class:`Label` names a branch of a rule, counted in
``Game.ran`` when the effect point that states it runs (``Shows``, ``Sorts`` and a
``When``'s two ways, in :mod:`unoformal.language.effects`)."""

from __future__ import annotations

from dataclasses import dataclass

from unoformal.language.protocols import Concrete
from unoformal.rulebook.cards import Kind


@dataclass(frozen=True)
class Label:
    """A branch of a rule that coverage counts when it runs: ``rule``'s ``branch``, what it
    is in words, the kinds of card it needs (none dealt: it is dead "by deck"), and whether
    only the mover may know it ran (``secret``)."""

    rule: str
    branch: str
    text: str
    kinds: tuple[Kind, ...] = ()
    # HIDDEN-1: what the mover's own hidden cards decide (a Wild Draw Four's legality
    # when played, the victim's unanswerable draw card): known to the mover alone, so a
    # seat's view (unoformal.show.seat) leaves it out for every other seat
    secret: bool = False



def _count(game: Concrete, label: Label | None) -> None:
    ran = game.ran
    if ran is not None and label is not None:
        ran.append((label.rule, label.branch))
