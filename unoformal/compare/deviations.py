"""Every deviation of a record, not only the first (issue 41): the checker goes on.

A record is replayed as :func:`~unoformal.engine.record.replay` does; at a deviation the
engine's stated move is applied by force, taking what the record states
(:func:`~unoformal.compare.follow.force`), and the replay goes on from the state it leads
to. Each place where the record's word was taken over the rules' is noted (resynchronised);
where the next state cannot be known, the walk says why and stops. A record whose set-up
the rules contradict goes on from the set-up it states, where it states one (a start card
put back under a stated new pile), else stops there.

The first deviation found is :func:`replay`'s, word for word: the walk starts as it does.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from unoformal.compare.follow import Unknowable, force
from unoformal.engine.actions import Action
from unoformal.engine.game import Game
from unoformal.engine.record import (
    Replay,
    Stated,
    game_from_record,
    play_on,
    prepared,
    set_up_deviation,
)
from unoformal.errors import InvalidInputError, UnoError
from unoformal.rulebook.table import RuleTable

SET_UP = "set-up"  # the kind of a deviation before the first action


@dataclass(frozen=True)
class Deviation:
    """One refused move (or set-up): its index (None: the set-up), the round it is in
    (1 the first), the kind of move (``play``, ``draw`` ... or ``set-up``) and the
    refusal, whose words, rule and causes are the engine's, completed by ``explain``."""

    index: int | None
    round: int
    kind: str
    error: UnoError


@dataclass
class Walk:
    """A record refereed to its end or as far as it can be: every deviation in order,
    each place resynchronised (index, how), and where and why it stopped (None: it went
    to the end)."""

    deviations: list[Deviation] = field(default_factory=list)
    resynchronised: list[tuple[int | None, str]] = field(default_factory=list)
    stopped: tuple[int | None, str] | None = None


def every_deviation(record: dict[str, Any], rules: RuleTable | None = None) -> Walk:
    """Referee ``record`` past each deviation. A malformed record raises
    :class:`InvalidInputError`, as :func:`replay` does."""
    game, actions, chance = prepared(record, rules)
    walk = Walk()
    setup = set_up_deviation(game)
    if setup is not None:
        walk.deviations.append(Deviation(None, 1, SET_UP, setup))
        stated = _stated_set_up(record, rules, walk)
        if stated is None:
            return walk
        game = stated
    _go_on(play_on(game, actions, chance), actions, chance, walk, game.round - 1)
    return walk


def _go_on(result: Replay, actions: list[Action], chance: list[Stated | None] | None,
           walk: Walk, before: int) -> None:
    """From ``result`` (refused or played to the end): each refusal noted, its move
    forced, the replay resumed after it, until the end or an unknowable state. ``before``:
    the game's round number before the record's first round."""
    while result.error is not None and result.error_index is not None:
        i = result.error_index
        walk.deviations.append(Deviation(i, result.game.round - before, actions[i].type.value,
                                         result.error))
        if i + 1 == len(actions):
            return  # the last move: no later one needs the state it leads to
        try:
            game, notes = force(result.game, actions[i], chance[i] if chance else None,
                                last=chance[i - 1] if chance and i else None)
        except Unknowable as why:
            walk.stopped = (i, f"cannot know the state after actions[{i}]: {why.message}")
            return
        walk.resynchronised += [(i, note) for note in notes]
        result = play_on(game, actions, chance, i + 1)


def _stated_set_up(record: dict[str, Any], rules: RuleTable | None,
                   walk: Walk) -> Game | None:
    """The set-up the record states, where the rules contradict it: a start card put back
    under a new pile it states goes on from that pile (its last: the hands are the deal's);
    anything else stops the walk, the record stating no state to go on from."""
    piles = record.get("start_reshuffles")
    key = walk.deviations[0].error.key
    if key != "start_reshuffles" or not piles:
        walk.stopped = (None, f"cannot know the state after the set-up: the record states "
                              f"no draw pile to go on from ({key})")
        return None
    deal = {**record["deal"], "draw_pile": piles[-1]}
    stated = {k: v for k, v in record.items() if k != "start_reshuffles"}
    try:
        game = game_from_record({**stated, "deal": deal}, rules, lenient=True)
    except InvalidInputError as err:
        walk.stopped = (None, f"cannot know the state after the set-up: {err.message}")
        return None
    if set_up_deviation(game) is not None:
        walk.stopped = (None, "cannot know the state after the set-up: its stated new pile "
                              "deviates too")
        return None
    walk.resynchronised.append((None, f"the set-up went on from start_reshuffles[{len(piles) - 1}]"
                                      " (the stated new draw pile) and the deal's hands"))
    return game
