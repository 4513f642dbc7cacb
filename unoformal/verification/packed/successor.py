"""Successor functions over packed records.

:class:`EngineSuccessor` is the correctness baseline: the record decoded to the engine's
game, every legal action run through the explorer's chance enumeration
(:func:`unoformal.verification.explore.chance.outcomes`, the engine's ``push``), every
outcome encoded again. It is the explorer's own successor function, so its edges, labels
and witnesses are the explorer's by construction; what changes is only where the states
live (records and fingerprints instead of games and a dict of keys).

A successor returns, per legal action, the distinct children (an (action, target) pair is
one edge, as in the explorer), each with the coverage labels of the first outcome that
reached it.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, NamedTuple

from unoformal.engine.actions import Action, ActionType
from unoformal.rules.state import OVER
from unoformal.verification.explore.chance import ExploreGame, outcomes
from unoformal.verification.explore.coverage import Label, Labeler
from unoformal.verification.packed.layout import OVER_CODE, Layout

ACTION_TYPES = list(ActionType)
ACTION_INDEX = {t: i for i, t in enumerate(ACTION_TYPES)}


class Edge(NamedTuple):
    """One edge. A named tuple, not a frozen dataclass: one is made for every edge, and a
    frozen dataclass's ``__init__`` (``object.__setattr__`` per field) cost 0.7 us of it."""

    action: Action
    code: int  # the action type's index in ActionType
    child: bytes
    labels: tuple[Label, ...]  # what the move ran (the first outcome that reached child)
    ends: tuple[Label, ...]  # SCORE-1's labels when the child is a finished round


Successor = Callable[[bytes], list[Edge]]


@dataclass
class Batch:
    """The edges out of a run of frontier records, as parallel arrays in the successor's
    order (what the search reads; no ``Edge`` per edge where the successor writes them
    so: ``GeneratedSuccessor.batch``): the children's records end to end, the action
    types' codes, each edge's labels and ends, the number of edges of each record (0 for
    a finished round and for a stuck state), and each edge's action as a number into
    ``table``."""

    children: bytes
    codes: bytes
    labels: Sequence[tuple[Label, ...]]
    ends: Sequence[tuple[Label, ...]]
    counts: list[int]
    numbers: Sequence[int]
    table: Sequence[Action]

    def action(self, i: int) -> Action:
        return self.table[self.numbers[i]]


@dataclass
class FlatBatch:
    """A :class:`Batch` whose labels are numbers into ``labels_table``, end to end (what
    the C reading writes, ``ctrans``): each edge's labels (``label_lens`` of them in
    ``label_ids``) and its ends (``end_lens`` in ``end_ids``), in the edges' order."""

    children: bytes | bytearray
    codes: bytes
    counts: Any  # numpy int32 arrays, as the four below
    numbers: Any
    table: Sequence[Action]
    label_ids: Any
    label_lens: Any
    end_ids: Any
    end_lens: Any
    labels_table: Sequence[Label]

    def action(self, i: int) -> Action:
        return self.table[int(self.numbers[i])]


def batch(succ: Successor, frontier: bytes, width: int, count: int) -> Batch:
    """The first ``count`` records of ``frontier`` expanded by any successor function,
    one list of ``Edge`` per record, gathered into a :class:`Batch`."""
    edges: list[Edge] = []
    counts: list[int] = []
    for row in range(0, count * width, width):
        if frontier[row] == OVER_CODE:
            counts.append(0)  # a finished round has no move
            continue
        out = succ(frontier[row:row + width])
        edges += out
        counts.append(len(out))
    # the edges' fields gathered at once (zip(*)), not one by one in the loop above
    actions, codes, children, labels, ends = zip(*edges, strict=True) if edges else ((),) * 5
    return Batch(b"".join(children), bytes(codes), labels, ends, counts,
                 range(len(actions)), actions)


class EngineSuccessor:
    """Decode, run the engine on every chance outcome, encode: the explorer's successors."""

    def __init__(self, layout: Layout, template: ExploreGame, penalties: bool) -> None:
        self.layout = layout
        self.template = template
        self.penalties = penalties
        self.labeler = Labeler(template)
        self.planted = type(self).plant is not EngineSuccessor.plant

    def plant(self, action: Action, before: ExploreGame, after: ExploreGame) -> None:
        """A wrong effect, planted by a subclass (the tests' mutants) on every outcome of
        ``action`` from ``before``; here nothing."""

    def __call__(self, rec: bytes) -> list[Edge]:
        layout, labeler = self.layout, self.labeler
        encode = layout.encode
        game = layout.decode(rec, self.template)
        out: list[Edge] = []
        for action in game.legal_actions(penalties=self.penalties):
            code = ACTION_INDEX[action.type]
            targets: list[bytes] = []
            for _, child in outcomes(game, action, True):
                if self.planted:
                    self.plant(action, game, child)
                crec = encode(child)
                if crec in targets:
                    continue
                targets.append(crec)
                ends = tuple(labeler.over(child)) if child.phase == OVER else ()
                out.append(Edge(action, code, crec, tuple(labeler.edge(child)), ends))
        return out
