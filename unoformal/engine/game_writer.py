"""A whole game written as one game record (version 3), every chance outcome stated.

A one-round record (version 1 or 2; ``play`` and ``simulate`` write one, the next rounds
dealt from the seed) is replayed here with a chance player that notes each outcome as it
is decided: every round's dealer, deal, start reshuffles and start color, each action's
reshuffles. The game record states them all, with each round's end and the game's, so it
replays without the seed and an engine that reads no seed can follow it.
"""

from __future__ import annotations

from typing import Any

from unoformal.engine.chance import StatedChance, StatedGame
from unoformal.engine.game import Game
from unoformal.engine.games import GAME_VERSION
from unoformal.engine.record import (
    Record,
    _chance,
    apply_stated,
    embedded_rules,
    game_from_record,
    record_actions,
    rules_json,
    version_of,
)
from unoformal.errors import InvalidInputError, UnoError
from unoformal.rulebook.table import RuleTable
from unoformal.rulebook.variants import load_rules_arg


class _Noting(StatedChance):
    """Stated chance (or the seed's, where nothing is stated) noting every outcome."""

    def __init__(self, start_piles: list[list[int]] | None = None,
                 dealer_draws: list[dict[str, int]] | None = None,
                 start_color: int | None = None) -> None:
        super().__init__(start_piles, dealer_draws, start_color)
        self.rounds: list[dict[str, Any]] = []
        self.noted: list[list[str]] = []

    def dealt(self, game: Game) -> None:
        super().dealt(game)
        code = game.deck.code
        self.rounds.append({
            "dealer": game.names[game.dealer],
            # a player who has left the game (END-2's elimination) is dealt no hand
            "deal": {"hands": {n: [code(c) for c in h]
                               for p, (n, h) in enumerate(zip(game.names, game.hands,
                                                              strict=True))
                               if p not in game.out},
                     "draw_pile": [code(c) for c in reversed(game.pile)]}})

    def turn_again(self, game: Game, pile: list[int], rule: str) -> None:
        super().turn_again(game, pile, rule)
        self.rounds[-1].setdefault("start_reshuffles", []).append(
            [game.deck.code(c) for c in reversed(pile)])

    def color(self, game: Game, rule: str) -> int:
        color = super().color(game, rule)
        self.rounds[-1]["start_color"] = game.deck.colors[color].value
        return color

    def reshuffle(self, game: Game, cards: list[int], rule: str) -> None:
        super().reshuffle(game, cards, rule)
        if cards:  # a reshuffle of nothing has one outcome: nothing to state
            self.noted.append([game.deck.code(c) for c in reversed(cards)])


class _NotingGame(StatedGame):
    POLICY = _Noting

    @property
    def noting(self) -> _Noting:
        assert isinstance(self.chance, _Noting)
        return self.chance


def game_record(record: dict[str, Any] | Record, rules: RuleTable | None = None
                ) -> dict[str, Any]:
    """The game record (version 3) of a one-round record that replays to its end (or as
    far as it goes): every round with its set-up, actions and end, every chance outcome
    stated. A record refused somewhere is refused here (:class:`InvalidInputError`
    naming the action): only a game the rules play is written."""
    if isinstance(record, Record):
        record = record.data
    if version_of(record) == GAME_VERSION:
        return record
    if rules is None:  # version 1 may name a variant file; version 2 embeds its variant
        rules = embedded_rules(record.get("rules")) if version_of(record) == 2 else \
            load_rules_arg(record.get("rules"), "rules")
    v2 = {**{k: v for k, v in record.items() if k != "rules"}, "version": 2}
    game = game_from_record(v2, rules, stated=_NotingGame)
    assert isinstance(game, _NotingGame)
    rounds = _rounds(game, record, v2)
    out: dict[str, Any] = {"version": GAME_VERSION, "rules": rules_json(rules),
                           "players": list(game.names), "seed": game.seed, "rounds": rounds}
    if game.game_over:
        out["end"] = {"winner": game.game_winner, "scores": _scores(game)}
    if "meta" in record:
        out["meta"] = record["meta"]
    return out


def _rounds(game: _NotingGame, record: dict[str, Any], v2: dict[str, Any]
            ) -> list[dict[str, Any]]:
    """Every round of the replay: its set-up as noted, its actions (each with the new
    piles it made), its end once it is over."""
    noting = game.noting
    raw = record.get("actions", [])
    chance = _chance(game, v2)
    rounds = [_first(noting.rounds[0], game)]
    for i, action in enumerate(record_actions(record)):
        if game.round_over and not game.game_over:
            rounds[-1]["end"] = _end(game)
            game.next_round()
            rounds.append({**noting.rounds[-1], "actions": []})
        noting.noted = []
        stated = chance[i] if chance is not None else None
        try:
            if stated is None:
                game.apply(action)
            else:
                apply_stated(game, action, stated)
        except UnoError as err:
            raise InvalidInputError(f"actions[{i}] {action} is refused ({err.message}): only "
                                    "a record that replays is written as a game",
                                    err.rule_id, key=f"actions[{i}]", index=i) from None
        rounds[-1]["actions"].append(_action(raw[i], noting.noted))
    if game.round_over:
        rounds[-1]["end"] = _end(game)
    return rounds


def _first(noted: dict[str, Any], game: Game) -> dict[str, Any]:
    first = dict(noted)
    if game.dealer_draws:  # DEAL-1 decided the dealer: its draw is stated too
        first = {"dealer_draws": list(game.dealer_draws), **first}
    return {**first, "actions": []}


def _action(data: dict[str, Any], piles: list[list[str]]) -> dict[str, Any]:
    out = dict(data)
    if piles:
        out["reshuffles"] = piles
    return out


def _end(game: Game) -> dict[str, Any]:
    """A finished round's end: its winner, points (SCORE-1), cards left, scores after."""
    assert game.winner is not None
    code = game.deck.code
    end = {"winner": game.names[game.winner], "points": game.round_points,
           "hands": {n: [code(c) for c in h]
                     for n, h in zip(game.names, game.hands, strict=True) if h},
           "scores": _scores(game)}
    if game.leaving is not None:
        end["leaves"] = game.names[game.leaving]
    return end


def _scores(game: Game) -> dict[str, int]:
    return dict(zip(game.names, game.scores, strict=True))
