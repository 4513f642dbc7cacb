"""The rule language: the library the rules are stated in, apart from the rules stated in
it (``unoformal.rules``: the official rules and the house rules, each built for a table).

As Ludii keeps its ludemes apart from the games written with them, and claripy keeps one
AST with a concrete and a Z3 backend, every node here has three readings: on a concrete
game (``holds`` / ``run``, the engine), as Z3 terms (``encode``, the relation) and in
words (``text``, the rules document and the refusals). The modules, by layer:

- :mod:`.protocols`: who a move names (:class:`Who`, :class:`Actor`), its seats
  (:class:`Binding`), and the two interfaces the interpreters meet (:class:`Concrete`,
  the engine's base class; :class:`Symbolic`, the relation's protocol);
- :mod:`.cards`: statements about one card in a state (:class:`OfCurrentColor`,
  :class:`OfKind`, :class:`Playable`, :class:`Not`, :class:`All`, :class:`Said`);
- :mod:`.conditions`: conditions on a state (:class:`Cond`; the combinators
  :class:`Both`, :class:`Either`, :class:`Unless`; :class:`Fixed`, :class:`PhaseIs` ...)
  and a guard's part, :class:`Conjunct`;
- :mod:`.coverage`: a branch of a rule that coverage counts (:class:`Label`);
- :mod:`.effects`: effects on a state (:class:`Effect`, :class:`Take`, :class:`SetPhase`
  ..., :class:`When` a branch, :class:`Shows` and :class:`Sorts` coverage's points);
- :mod:`.commands`: a move as a guarded command (:class:`Command`), and a guard reduced
  for a known phase (:func:`in_phase`).

The public surface is :data:`__all__`: the names a user's own rule composes from, or
subclasses for a primitive of its own (docs/rule-language.md). The language imports
neither the engine nor the relation: the layers run table (``unoformal.rulebook``), then
language, then rules, then the interpreters.
"""

from __future__ import annotations

from unoformal.language.cards import All, Card, Not, OfCurrentColor, OfKind, Playable, Said
from unoformal.language.commands import Command, in_phase, labels_of
from unoformal.language.conditions import (
    PENDING_RULE,
    Both,
    CanDraw,
    CanPlay,
    CardPlayable,
    CardsLeft,
    Cond,
    Conjunct,
    DrawnOnly,
    DrawnPlayable,
    Either,
    Fixed,
    HandAtLeast,
    HandIs,
    HoldsCard,
    HoldsKind,
    IsTop,
    Matches,
    PendingIn,
    PhaseIn,
    PhaseIs,
    PhaseNot,
    Unless,
)
from unoformal.language.coverage import Label
from unoformal.language.effects import (
    Branch,
    Clear,
    Effect,
    Instead,
    KnockOut,
    PassTurn,
    SetColor,
    SetPhase,
    Shows,
    Sorts,
    Take,
    When,
)
from unoformal.language.protocols import Actor, Binding, Concrete, Symbolic, Who

__all__ = [
    "PENDING_RULE", "Actor", "All", "Binding", "Both", "Branch", "CanDraw", "CanPlay", "Card",
    "CardPlayable", "CardsLeft", "Clear", "Command", "Concrete", "Cond", "Conjunct",
    "DrawnOnly", "DrawnPlayable", "Effect", "Either", "Fixed", "HandAtLeast", "HandIs", "HoldsCard",
    "HoldsKind", "Instead", "IsTop", "KnockOut", "Label", "Matches", "Not", "OfCurrentColor",
    "OfKind", "PassTurn", "PendingIn", "PhaseIn", "PhaseIs", "PhaseNot", "Playable", "Said",
    "SetColor", "SetPhase", "Shows", "Sorts", "Symbolic", "Take", "Unless", "When", "Who",
    "in_phase", "labels_of",
]
