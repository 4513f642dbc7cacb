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
from unoformal.engine.games import (
    Round,
    deal_round,
    end_deviations,
    game_end_deviations,
    in_round,
    is_game,
    round_record,
    start_game,
)
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
    # a game record's: the flat index of each round's first action (empty: one round)
    offsets: list[int] = field(default_factory=list)


def every_deviation(record: dict[str, Any], rules: RuleTable | None = None) -> Walk:
    """Referee ``record`` past each deviation. A malformed record raises
    :class:`InvalidInputError`, as :func:`replay` does."""
    if is_game(record):
        return _every_in_game(record, rules)
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
           walk: Walk, before: int, rnd: Round | None = None) -> Game | None:
    """From ``result`` (refused or played to the end): each refusal noted, its move
    forced, the replay resumed after it, until the end or an unknowable state. ``before``:
    the game's round number before the record's first round. ``rnd``: the game record's
    round the actions are (keys and indices in the whole record; an action after the
    round's end is no move to force: the next deal is the record's). The game at the end
    (None: stopped, or its last move refused)."""
    offset = 0 if rnd is None else rnd.offset
    while result.error is not None and result.error_index is not None:
        i = result.error_index
        error = result.error if rnd is None else in_round(result.error, rnd)
        walk.deviations.append(Deviation(offset + i, result.game.round - before,
                                         actions[i].type.value, error))
        if rnd is not None and result.game.round_over:
            walk.stopped = (offset + i, f"{error.key} is a move after the round's end")
            return None
        if i + 1 == len(actions) and rnd is None:
            return None  # the last move: no later one needs the state it leads to
        try:
            game, notes = force(result.game, actions[i], chance[i] if chance else None,
                                last=chance[i - 1] if chance and i else None)
        except Unknowable as why:
            place = f"actions[{i}]" if rnd is None else rnd.key(f"actions[{i}]")
            walk.stopped = (offset + i, f"cannot know the state after {place}: {why.message}")
            return None
        walk.resynchronised += [(offset + i, note) for note in notes]
        result = play_on(game, actions, chance, i + 1, deal_next=rnd is None)
    return result.game


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


# ---------------------------------------------------------------- game records


def _every_in_game(record: dict[str, Any], rules: RuleTable | None) -> Walk:
    """Every deviation of a game record, round by round: each round's set-up, its moves
    (forced past each refusal, as in a one-round record), its end; then the game's end.
    A wrong score is taken as stated (noted), so each round's points are judged alone; a
    round the rules have not ended, or dealt as the rules would not, stops the walk."""
    game, rounds = start_game(record, rules)
    walk = Walk(offsets=[r.offset for r in rounds])
    setup = set_up_deviation(game)
    if setup is not None:
        walk.deviations.append(Deviation(None, 1, SET_UP, setup))
        stated = _stated_set_up(round_record(record, 0), rules, walk)
        in_round(setup, rounds[0])  # keyed in the game record once its round has read it
        if stated is None:
            return walk
        game = stated
    for rnd in rounds:
        if rnd.number and not _dealt(game, rnd, walk):
            return walk
        result = play_on(game, rnd.actions, rnd.chance, deal_next=False)
        last = _go_on(result, rnd.actions, rnd.chance, walk, 0, rnd)
        if last is None:  # stopped: the walk says where and why
            return walk
        game = last
        if not _ended(game, rnd, walk):
            return walk
    walk.deviations += [Deviation(None, len(rounds), "end", err)
                        for err in game_end_deviations(game, record)]
    return walk


def _dealt(game: Game, rnd: Round, walk: Walk) -> bool:
    """Round ``rnd`` dealt as it states (the game changed); False: the walk stops."""
    deviation = deal_round(game, rnd)
    if deviation is None:
        return True
    walk.deviations.append(Deviation(None, rnd.number + 1, "deal", deviation))
    if deviation.rule_id == game.rules.deal.id and game.round == rnd.number + 1:
        walk.resynchronised.append((None, f"{rnd.key('deal')}: the deal taken as the record "
                                          "states it"))
        return True
    walk.stopped = (None, f"cannot know the state after {deviation.key}: the record deals "
                          "a round the rules do not")
    return False


def _ended(game: Game, rnd: Round, walk: Walk) -> bool:
    """Round ``rnd``'s stated end checked; a wrong score taken as stated, so the next
    round's is judged by its own points. False: the round is not over, the walk stops."""
    ends = end_deviations(game, rnd)
    walk.deviations += [Deviation(None, rnd.number + 1, "end", err) for err in ends]
    last = rnd.offset + len(rnd.actions) - 1
    if not game.round_over:
        walk.stopped = (last, f"{rnd.key('end')}: the record ends a round the rules go on with")
        return False
    stated = rnd.data.get("end", {}).get("scores")
    if stated is not None and any(e.key == rnd.key("end.scores") for e in ends):
        game.scores = [stated.get(n, s) for n, s in zip(game.names, game.scores, strict=True)]
        walk.resynchronised.append((None, f"{rnd.key('end.scores')}: the scores taken as the "
                                          "record states them"))
    if any(e.key == rnd.key("end.leaves") for e in ends) and _leaves_as_stated(game, rnd):
        walk.resynchronised.append((None, f"{rnd.key('end.leaves')}: who leaves the game "
                                          "taken as the record states it"))
    return True


def _leaves_as_stated(game: Game, rnd: Round) -> bool:
    """END-2's elimination: the player the record has leave the game (or nobody) in place
    of the one the rules have leave, so the next round is judged with the record's seats.
    False where the statement names the round's winner or a player already out."""
    stated = rnd.data.get("end", {}).get("leaves")
    ours = game.leaving
    kept = [p for p in game.out if p != ours]
    if stated is None:
        game.out = tuple(kept)
        return True
    seat = game.names.index(stated)  # a known name: end_deviations checked it
    if seat == game.winner or seat in kept:
        return False
    game.out = (*kept, seat)
    return True
