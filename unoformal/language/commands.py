"""Moves as guarded commands: one :class:`Command` per move, read by the engine, the Z3
relation and the words, as a TLA+ spec names one action per move and a GDL description
answers "legal" and "next" from one text. A command has a name and the rules it cites,
who may make it, the choices it takes, a guard (a tuple of
:class:`~unoformal.language.conditions.Conjunct`: the engine refuses a move by its first
failing conjunct) and an effect (:mod:`unoformal.language.effects`)."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any

from unoformal.language.conditions import Conjunct
from unoformal.language.coverage import Label
from unoformal.language.effects import Branch, Effect, Instead, Shows, Sorts, When, encode_all
from unoformal.language.protocols import Actor, Binding, Concrete, Symbolic, Term, Who


def _first_failing(guard: tuple[Conjunct, ...], game: Concrete,
                   b: Binding) -> Conjunct | None:
    for part in guard:
        if not part.cond.holds(game, b):
            return part
    return None



def in_phase(guard: tuple[Conjunct, ...], phase: str) -> tuple[Conjunct, ...] | None:
    """``guard`` in a state known to be in ``phase`` (``Cond.in_phase``): the conjuncts
    the phase does not decide, each reduced to what is left of it; None when the phase
    alone refuses it. It holds in such a state exactly when ``guard`` does; which
    conjunct fails first, and its words, are asked of the whole guard."""
    out: list[Conjunct] = []
    for part in guard:
        left = part.cond.in_phase(phase)
        if left is False:
            return None
        if left is not True:
            out.append(part if left is part.cond else dataclasses.replace(part, cond=left))
    return tuple(out)



def _uncounted(steps: tuple[Effect, ...]) -> tuple[Effect, ...]:
    out: list[Effect] = []
    for step in steps:
        if isinstance(step, (Shows, Sorts)):
            continue
        if isinstance(step, When):
            step = dataclasses.replace(step, then=_uncounted(step.then),
                                       otherwise=_uncounted(step.otherwise))
        elif isinstance(step, Instead):
            step = dataclasses.replace(step, steps=_uncounted(step.steps))
        out.append(step)
    return tuple(out)



def labels_of(command: Command) -> list[Label]:
    """What coverage may count of ``command``, in the order of its effect."""
    steps = command.steps()
    return [label for step in steps for node in step.walk() for label in node.counted()]



@dataclass(frozen=True)
class Command:
    """One move: who makes it, what it chooses, when it is allowed, what it does."""

    name: str
    cites: tuple[str, ...]
    actor: Actor
    choices: tuple[Who, ...]
    guard: tuple[Conjunct, ...]
    effect: tuple[Effect, ...]
    prose: str  # what the move is, in a sentence (the rules document)
    branches: tuple[Branch, ...] = ()  # its outcomes, after the common effect

    def steps(self) -> tuple[Effect, ...]:
        """Every step it states: its common effect's, then each branch's."""
        return self.effect + tuple(s for branch in self.branches for s in branch.effect)

    def taken(self, game: Concrete, b: Binding) -> Branch | None:
        """The branch the state takes (None for a command without branches)."""
        for branch in self.branches:
            if branch.when.holds(game, b):
                return branch
        return None

    def failing(self, game: Concrete, b: Binding) -> Conjunct | None:
        """The first conjunct that fails, or None when allowed: the command's conjuncts,
        then those of the branch the state takes."""
        return self.failing_of(self.guard, game, b)

    def failing_of(self, guard: tuple[Conjunct, ...], game: Concrete,
                   b: Binding) -> Conjunct | None:
        """:meth:`failing`, the command's guard given as ``guard``: its own, or it reduced
        for the phase the state is known to be in (:func:`in_phase`)."""
        part = _first_failing(guard, game, b)
        if part is not None:
            return part
        branch = self.taken(game, b)
        return None if branch is None else _first_failing(branch.guard, game, b)

    def refusal(self, game: Concrete, b: Binding) -> tuple[str, str] | None:
        """The rule and words of the first conjunct that fails, or None when allowed."""
        part = self.failing(game, b)
        return None if part is None else part.refusal(game, b)

    def allows(self, game: Concrete, b: Binding) -> bool:
        return self.failing(game, b) is None

    def run(self, game: Concrete, b: Binding) -> str:
        """Make the move; the label of the branch that ran (the command's name when it
        has none)."""
        for step in self.effect:
            step.run(game, b)
        branch = self.taken(game, b)
        if branch is None:
            return self.name
        for step in branch.effect:
            step.run(game, b)
        return branch.label

    def uncounted(self) -> Command:
        """The command without what coverage counts (``Shows``, ``Sorts``): what the
        engine runs while nobody counts, so that a label costs nothing in play."""
        return dataclasses.replace(
            self, effect=_uncounted(self.effect),
            branches=tuple(dataclasses.replace(b, effect=_uncounted(b.effect))
                           for b in self.branches))

    def encode_guard(self, spec: Symbolic, s: Any, b: Binding) -> Term:
        return spec.both([part.cond.encode(spec, s, b) for part in self.guard])

    def encode_effect(self, spec: Symbolic, s: Any, b: Binding, tag: str,
                      branch: Branch | None = None) -> tuple[Any, list[Term]]:
        """The post-state and the constraints on the cards chance handed out (of the
        common effect, then ``branch``'s)."""
        return encode_all(self.effect + (branch.effect if branch is not None else ()),
                          spec, s, b, tag)

    def encode_branch(self, spec: Symbolic, s: Any, b: Binding, branch: Branch) -> Term:
        """The guard of ``branch``: the command's, the branch's condition and its own."""
        parts = [part.cond.encode(spec, s, b) for part in self.guard]
        parts.append(branch.when.encode(spec, s, b))
        parts += [part.cond.encode(spec, s, b) for part in branch.guard]
        return spec.both(parts)

    def text(self) -> list[str]:
        """The command in words: the lines of the rules document's "how it is played"."""
        lines = [f"`{self.name}` ({', '.join(self.cites)}): {self.prose}",
                 f"- who: {self.actor.value}"
                 + (f"; chooses a {', '.join(c.value for c in self.choices)}"
                    if self.choices else "")]
        lines += [f"- only if {part.cond.text()} ({part.cited()})" for part in self.guard]
        lines += [line for step in self.effect for line in step.lines()]
        for branch in self.branches:
            lines.append(f"- `{branch.label}` ({', '.join(branch.cites)}), when "
                         f"{branch.when.text()}:")
            lines += [f"  - only if {part.cond.text()} ({part.cited()})"
                      for part in branch.guard]
            lines += [f"  {line}" for step in branch.effect for line in step.lines()]
        return lines
