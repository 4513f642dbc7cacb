"""Game records (version 3): a whole game, every round, the PGN of UNO.

::

    {"version": 3, "rules": "classic", "players": ["P0", "P1"], "seed": 0,
     "rounds": [{"dealer": "P1", "deal": {...}, "actions": [...],
                 "end": {"winner": "P0", "points": 41, "hands": {"P1": ["R5", ...]},
                         "scores": {"P0": 41, "P1": 0}}},
                {"dealer": "P0", "deal": {...}, "actions": [...], "end": {...}}],
     "end": {"winner": "P0", "scores": {"P0": 512, "P1": 130}}}

Each round states its set-up as a version-2 record does (``dealer``, ``deal``,
``start_reshuffles``, ``start_color``; the first round ``dealer_draws`` too) and its
actions with their chance; a round's ``end`` states who won it, the points (SCORE-1), the
cards left and the scores after it (SCORE-2); the record's ``end`` the game's winner.
The referee checks every statement: a round dealt while the last is not over (END-1) or
after the game is won (SCORE-2), a dealer that END-2 does not pass the deal to, a deal
not of the rules' hand size (DEAL-2), a wrong winner, points or score, a game ended while
nobody has reached the target (END-2). Versions 1 and 2 stay one-round records
(:mod:`unoformal.engine.record`).
"""

from __future__ import annotations

import functools
import json
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from importlib import resources
from typing import Any

from unoformal.engine.actions import Action
from unoformal.engine.chance import StatedChance, StatedGame
from unoformal.engine.game import Game
from unoformal.engine.rounds import (
    Replay,
    Stated,
    _chance,
    check_schema,
    compiled_accepts,
    compiled_schema,
    embedded_rules,
    play_on,
    record_actions,
    round_game,
    set_up_deviation,
)
from unoformal.errors import IllegalActionError, InvalidInputError, UnoError
from unoformal.inputs import show
from unoformal.rulebook.table import Leaves, RuleTable

GAME_VERSION = 3
# What a round states of its set-up, as a version-2 record states a deal's.
ROUND_SETUP = ("dealer", "dealer_draws", "deal", "start_reshuffles", "start_color")
GAME_KEYS = ("rules", "players", "seed", "meta")


def is_game(record: Any) -> bool:
    """Whether ``record`` is a game record (``"version": 3``)."""
    return isinstance(record, dict) and record.get("version") == GAME_VERSION


@functools.cache
def _validator() -> Any:
    from jsonschema import Draft202012Validator

    text = resources.files("unoformal.engine").joinpath("game.schema.json").read_text()
    return Draft202012Validator(json.loads(text))


@functools.cache
def _fast_validator() -> Callable[[Any], Any]:
    """``game.schema.json`` compiled once, as the record schema is: walking it per record
    was a third of refereeing a whole game."""
    return compiled_schema("game.schema.json")


def game_schema_accepts(record: Any) -> bool:
    """Whether the compiled game schema takes ``record`` (no words: see below)."""
    return compiled_accepts(_fast_validator(), record)


def check_game_schema(record: Any) -> None:
    """Refuse a game record whose shape ``game.schema.json`` refuses, naming the place.
    Each round's set-up and actions are then checked as a version-2 record's are. The
    compiled schema decides a record it takes; ``jsonschema`` walks one it refuses, for
    the place and the words, and has the last word."""
    if game_schema_accepts(record):
        return
    from jsonschema.exceptions import best_match

    error = best_match(_validator().iter_errors(record))
    if error is None:
        return
    key = "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in error.absolute_path)
    raise InvalidInputError(f"{error.message[:200]} (game.schema.json)",
                            key=key.lstrip(".") or None)


def round_record(record: dict[str, Any], r: int) -> dict[str, Any]:
    """Round ``r`` of a game record as the version-2 record of that deal alone."""
    data = record["rounds"][r]
    head = {k: record[k] for k in GAME_KEYS if k in record}
    setup = {k: data[k] for k in ROUND_SETUP if k in data}
    return {"version": 2, **head, **setup, "actions": data.get("actions", [])}


@dataclass
class Round:
    """One round of a game record, parsed: its number (0 the first), the flat index of
    its first action, its data and its actions with their stated chance."""

    number: int
    offset: int
    data: dict[str, Any]
    actions: list[Action]
    chance: list[Stated | None] | None

    def key(self, rest: str | None = None) -> str:
        return f"rounds[{self.number}]" + (f".{rest}" if rest else "")


def in_round(err: UnoError, rnd: Round) -> UnoError:
    """``err`` (keyed as in the round's own version-2 record) keyed in the game record:
    ``rounds[1].actions[3]``, its index the flat index of the action."""
    err.key = rnd.key(err.key)
    if err.index is not None:
        err.index += rnd.offset
    return err


def start_game(record: dict[str, Any], rules: RuleTable | None = None,
               stated: type[StatedGame] = StatedGame) -> tuple[Game, list[Round]]:
    """The game before its first action (set up leniently, as :func:`replay` takes a
    record) and every round parsed. A malformed record raises :class:`InvalidInputError`
    naming the place (``rounds[1].deal``)."""
    check_game_schema(record)
    if rules is None:
        try:
            rules = embedded_rules(record.get("rules"))
        except InvalidInputError as err:
            raise err.at(key="rules") from None
    first = Round(0, 0, record["rounds"][0], [], None)
    try:
        game = round_game(round_record(record, 0), rules, stated, lenient=True)
    except InvalidInputError as err:
        raise in_round(err, first) if err.key not in GAME_KEYS else err from None
    rounds, offset = [], 0
    for r in range(len(record["rounds"])):
        rnd = Round(r, offset, record["rounds"][r], [], None)
        rounds.append(_parsed(rnd, record, game))
        offset += len(rnd.actions)
    return game, rounds


def _parsed(rnd: Round, record: dict[str, Any], game: Game) -> Round:
    data = round_record(record, rnd.number)
    try:
        if rnd.number:
            if "dealer_draws" in rnd.data:
                raise InvalidInputError("only the first round draws for the dealer (DEAL-1); "
                                        "later ones pass the deal (END-2)", "DEAL-1",
                                        key="dealer_draws")
            check_schema(data)
        rnd.actions = record_actions(data)
        rnd.chance = _chance(game, data)
    except InvalidInputError as err:
        raise in_round(err, rnd) from None
    return rnd


# ---------------------------------------------------------------- a round's deal


def deal_round(game: Game, rnd: Round) -> IllegalActionError | None:
    """END-2's next deal, as round ``rnd`` states it; its deviation, if any. A round dealt
    before the last is over or after the game is won leaves the game as it was; a dealer
    END-2 does not pass the deal to leaves it dealt by the rules' dealer, and a start
    statement the rules contradict as the rules set the round up (as a one-round record's
    set-up deviation does); a deal of the wrong size is taken as stated (DEAL-2)."""
    if not game.round_over:
        return _deviation(game, rnd.key(), game.rules.end_of_round.id,
                          f"round {rnd.number + 1} is dealt, but round {rnd.number} is not "
                          f"over: {_holding(game)}")
    policy = game.chance
    if not isinstance(policy, StatedChance):
        raise TypeError("deal_round: the game's chance player is not a StatedChance")
    before = game.copy()
    policy.state_round(*_round_setup(game, rnd))
    try:
        game.next_round()
    except IllegalActionError as err:  # the game is over (SCORE-2)
        return _deviation(before, rnd.key(), err.rule_id or game.rules.target.id,
                          f"round {rnd.number + 1} is dealt, but {err.message}")
    except InvalidInputError as err:
        raise in_round(err.at(key="deal"), rnd) from None
    wrong = _wrong_dealer(game, rnd)
    if wrong is not None:
        return wrong
    deviation, policy.deviation = policy.deviation, None
    if deviation is None:
        return None
    deviation.at(state=game.to_text())
    deviation.causes = deviation.causes or ((deviation.rule_id,) if deviation.rule_id else ())
    deviation.key = rnd.key(deviation.key)
    return deviation


def _round_setup(game: Game, rnd: Round) -> tuple[dict[str, Any] | None,
                                                  list[list[int]] | None, int | None]:
    data, deck = rnd.data, game.deck
    try:
        piles = None if "start_reshuffles" not in data else [
            [deck.face_id(c) for c in pile] for pile in data["start_reshuffles"]]
    except ValueError as err:
        raise InvalidInputError(str(err), "DECK-1", key=rnd.key("start_reshuffles")) from None
    color = data.get("start_color")
    index = {c.value: i for i, c in enumerate(deck.colors)}
    if color is not None and color not in index:
        raise InvalidInputError(f"{show(color)} is not in this deck", "DECK-1",
                                key=rnd.key("start_color"))
    return data.get("deal"), piles, None if color is None else index[color]


def _wrong_dealer(game: Game, rnd: Round) -> IllegalActionError | None:
    stated = rnd.data.get("dealer")
    dealer = game.names[game.dealer]
    if stated is None or stated == dealer:
        return None
    rule = game.rules.next_round
    return _deviation(game, rnd.key("dealer"), rule.id,
                      f"the record has {stated} deal round {rnd.number + 1}; "
                      f"{rule.id} gives the deal to {dealer} ({_passes(game)})")


def _passes(game: Game) -> str:
    from unoformal.rulebook.table import NextDealer

    if game.rules.next_round.next_dealer is NextDealer.WINNER:
        return "the round's winner deals next"
    return "the deal passes to the dealer's left"


# ---------------------------------------------------------------- a round's end


def end_deviations(game: Game, rnd: Round) -> list[IllegalActionError]:
    """What round ``rnd``'s stated ``end`` says that the game contradicts, in order:
    the round not over (END-1), its winner (END-1), the cards left and the points
    (SCORE-1), the scores (SCORE-2)."""
    end = rnd.data.get("end")
    if end is None:
        return []
    _known(game, end, rnd.key("end"))
    rules = game.rules
    if not game.round_over:
        return [_deviation(game, rnd.key("end"), rules.end_of_round.id,
                           f"the record ends round {rnd.number + 1} here, but by the rules "
                           f"it goes on: {_holding(game)}")]
    out: list[IllegalActionError] = []
    assert game.winner is not None  # a round over has a winner (END-1)
    winner = game.names[game.winner]
    if "winner" in end and end["winner"] != winner:
        out.append(_deviation(game, rnd.key("end.winner"), rules.end_of_round.id,
                              f"the record has {end['winner']} win round {rnd.number + 1}; "
                              f"{winner} went out (playing your last card ends the round)"))
    if "hands" in end:
        out += _left_deviation(game, rnd, end["hands"])
    if "points" in end and end["points"] != game.round_points:
        out.append(_deviation(game, rnd.key("end.points"), rules.points.id,
                              f"the record scores round {rnd.number + 1} {end['points']} "
                              f"points; {rules.points.id} counts {game.round_points} for "
                              f"{winner}: {_counted(game)}"))
    if "scores" in end:
        out += score_deviations(game, end["scores"], rnd.key("end.scores"),
                                f"after round {rnd.number + 1}")
    leaving = game.leaving
    if end.get("leaves") != (None if leaving is None else game.names[leaving]) \
            and ("leaves" in end or leaving is not None):
        out.append(_leaves_deviation(game, rnd, end.get("leaves")))
    return out


def _leaves_deviation(game: Game, rnd: Round, stated: str | None) -> IllegalActionError:
    """END-2's elimination: who leaves the game at the round's end, as stated."""
    rule = game.rules.next_round
    leaving = game.leaving
    said = f"{stated} leave the game" if stated is not None else "nobody leave the game"
    if leaving is None:
        why = ("nobody does: " + ("nobody leaves in these rules" if
                                  rule.leaves is Leaves.NONE else "the game is over"
                                  if game.game_over else "nobody else holds a card"))
    else:
        held = ", ".join(f"{game.names[p]} {len(game.hands[p])}" for p in range(game.n)
                         if p != game.winner and (p not in game.out or p == leaving))
        why = (f"{game.names[leaving]} does, holding the most cards ({held}; ties: "
               f"{rule.leave_ties.value})")
    return _deviation(game, rnd.key("end.leaves"), rule.id,
                      f"the record has {said} after round {rnd.number + 1}; {rule.id}: {why}")


def _left_deviation(game: Game, rnd: Round, hands: dict[str, Any]) -> list[IllegalActionError]:
    """The cards left in the hands, as stated: SCORE-1 counts them."""
    code = game.deck.code
    have = {n: sorted(code(c) for c in h) for n, h in zip(game.names, game.hands, strict=True)}
    wrong = [n for n in game.names if sorted(hands.get(n, [])) != have[n]]
    if not wrong:
        return []
    words = "; ".join(f"{n} holds {' '.join(have[n]) or 'nothing'}, the record states "
                      f"{' '.join(sorted(hands.get(n, []))) or 'nothing'}" for n in wrong)
    return [_deviation(game, rnd.key("end.hands"), game.rules.points.id,
                       f"the cards left at the end of round {rnd.number + 1}, which "
                       f"{game.rules.points.id} counts: {words}")]


def score_deviations(game: Game, stated: dict[str, Any], key: str,
                     when: str) -> list[IllegalActionError]:
    """The stated scores (name to points) that the game's contradict (SCORE-2), as one
    deviation naming each player's (none: they agree)."""
    ours = dict(zip(game.names, game.scores, strict=True))
    wrong = [n for n in game.names if stated.get(n) != ours[n]]
    if not wrong:
        return []
    rule = game.rules.target
    words = ", ".join(f"{n} {show(stated.get(n))} (by the rules {ours[n]})" for n in wrong)
    return [_deviation(game, key, rule.id, f"the record's scores {when}: {words}; scores "
                                           "accumulate, the round's winner adding its points")]


def _counted(game: Game) -> str:
    """SCORE-1's count, card by card, of the hands left (what a wrong total missed)."""
    deck, parts = game.deck, []
    for name, hand in zip(game.names, game.hands, strict=True):
        if hand:
            cards = " ".join(f"{deck.code(c)} {deck.points[c]}" for c in sorted(hand))
            parts.append(f"{name}'s {cards}")
    p = game.rules.points
    numbers = "numbers at face value" if p.number_face_value else "numbers 0"
    return (f"{'; '.join(parts) or 'no card left'} ({numbers}, Draw Two / Skip / Reverse "
            f"{p.action_points}, wilds {p.wild_points})")


def game_end_deviations(game: Game, record: dict[str, Any]) -> list[IllegalActionError]:
    """What the record's ``end`` says of the game that the rules contradict: a game ended
    while nobody has reached the target (END-2), its winner and final scores (SCORE-2)."""
    end = record.get("end")
    if end is None:
        return []
    _known(game, end, "end")
    rules = game.rules
    target = rules.target.score
    if not game.game_over:
        scores = ", ".join(f"{n} {s}" for n, s in zip(game.names, game.scores, strict=True))
        return [_deviation(game, "end", rules.next_round.id,
                           f"the record ends the game, but nobody has reached {target} "
                           f"points ({scores}): {rules.next_round.id} deals again")]
    out: list[IllegalActionError] = []
    if "winner" in end and end["winner"] != game.game_winner:
        last = game.won_by_elimination
        out.append(_deviation(game, "end.winner", rules.next_round.id if last
                              else rules.target.id,
                              f"the record has {end['winner']} win the game; "
                              f"{game.game_winner} " + ("is the last player left in it"
                                                        if last else
                                                        f"reached {target} points first")))
    if "scores" in end:
        out += score_deviations(game, end["scores"], "end.scores", "at the game's end")
    return out


def _known(game: Game, end: dict[str, Any], key: str) -> None:
    """An end names only the game's players (DECK-2): a name it does not know is bad
    input, not a deviation."""
    named: list[tuple[str, Any]] = [(k, end[k]) for k in ("winner", "leaves") if k in end]
    named += [(f"{field}.{name}", name) for field in ("hands", "scores")
              for name in end.get(field, {})]
    for where, name in named:
        if name not in game.names:
            raise InvalidInputError(f"unknown player {show(name)}; players are "
                                    f"{', '.join(game.names)}", "DECK-2", key=f"{key}.{where}")


def _deviation(game: Game, key: str, rule: str, message: str) -> IllegalActionError:
    # the rule the statement breaks is why the record deviates: counted under it
    return IllegalActionError(message, rule, game.to_text(), key=key, causes=(rule,))


def _holding(game: Game) -> str:
    held = ", ".join(f"{n} holds {len(h)}" for n, h in zip(game.names, game.hands, strict=True))
    if game.winner is not None:
        return f"{game.names[game.winner]} went out, but the last card's draw is not " \
               f"resolved ({held})"
    return f"nobody has gone out ({held})"


# ---------------------------------------------------------------- replay


def replay_game(record: dict[str, Any], rules: RuleTable | None = None,
                stop_at: int | None = None) -> Replay:
    """Play a game record round by round up to its first deviation: a refused action
    (its flat index, its key ``rounds[r].actions[i]``) or a statement of a round's set-up
    or end, or of the game's end, that the rules contradict (index None, its key).
    ``stop_at``: play only that many actions (flat), and check no end after them."""
    for step in walk_game(record, rules, stop_at):
        if step.error is not None:
            return step
    return step


def walk_game(record: dict[str, Any], rules: RuleTable | None = None,
              stop_at: int | None = None) -> Iterator[Replay]:
    """:func:`replay_game`'s steps: one per round and one for the game's end, each a
    :class:`Replay` of the game so far; the first with an error is the deviation."""
    game, rounds = start_game(record, rules)
    played: list[Action] = []
    setup = set_up_deviation(game)
    if setup is not None:
        yield Replay(game, 0, in_round(setup, rounds[0]), None, [])
        return
    limit = sum(len(r.actions) for r in rounds) if stop_at is None else stop_at
    for rnd in rounds:
        if rnd.offset >= limit and rnd.number:
            break
        if rnd.number:
            dealt = deal_round(game, rnd)
            if dealt is not None:
                yield Replay(game, rnd.offset, dealt, None, played)
                return
        result = play_on(game, rnd.actions[:limit - rnd.offset], rnd.chance, deal_next=False)
        game = result.game
        played += result.actions
        if result.error is not None:
            yield Replay(game, rnd.offset + result.played, in_round(result.error, rnd),
                         rnd.offset + result.played, played)
            return
        if rnd.offset + len(rnd.actions) > limit:
            break
        ends = end_deviations(game, rnd)
        yield Replay(game, len(played), ends[0] if ends else None, None, played)
        if ends:
            return
    if stop_at is None:
        ends = game_end_deviations(game, record)
        yield Replay(game, len(played), ends[0] if ends else None, None, played)
    else:
        yield Replay(game, len(played), None, None, played)


def cut(record: dict[str, Any], index: int | None, key: str | None) -> dict[str, Any]:
    """The game record up to its deviation: the rounds before the deviating one whole,
    its actions up to the deviating one (``index``, flat), nothing after; a deviation
    of a round's set-up or end (``key`` ``rounds[r]...``) keeps round ``r`` whole."""
    rounds = record.get("rounds", [])
    if index is None:
        r = _round_of_key(key, len(rounds))
        return {**record, "rounds": rounds[:r + 1]}
    out, offset = [], 0
    for data in rounds:
        actions = data.get("actions", [])
        if index < offset + len(actions):
            out.append({**data, "actions": actions[:index - offset + 1]})
            out[-1].pop("end", None)
            break
        out.append(data)
        offset += len(actions)
    return {k: v for k, v in record.items() if k != "end"} | {"rounds": out}


def _round_of_key(key: str | None, count: int) -> int:
    if key and key.startswith("rounds["):
        return int(key[len("rounds["):key.index("]")])
    return count - 1


def place(index: int | None, err: UnoError) -> str:
    """Where a deviation is: ``actions[i]`` in a one-round record; in a game record the
    key that names the round (``rounds[1].actions[3]``, ``rounds[0].end.points``)."""
    key = err.key or ""
    if key.startswith(("rounds[", "end")):
        head, sep, rest = key.partition(".actions[")
        return head + (sep + rest.split("]")[0] + "]" if sep else "")
    if index is None:
        return key or "set-up"
    return f"actions[{index}]"
