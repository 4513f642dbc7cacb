"""The adapter kit: another engine's log, as a trace of JSON lines, turned into records.

An engine author writes (or maps their log to) a **trace**: one JSON object a line, each
one of three kinds (docs/conform.md walks through an example):

- a **game** line, ``{"game": {...}}``, starts a record: its set-up, with a version-2
  record's fields (``players``, ``dealer``, ``rules``, ``deal``, ``seed``, ``meta``);
- a **move** line, ``{"player": "Ann", "move": "play", "card": "R1", "uno": true}``: one
  action the engine accepted (``move`` is a record action's ``action``; ``card``,
  ``color``, ``target`` and ``uno`` as in a record);
- a **chance** line: what chance decided, as the engine decided it. ``{"drew": "Bob",
  "cards": ["B1"]}`` (cards a player took, in order) and ``{"reshuffled": [...]}`` (a new
  draw pile, top first) belong to the last move (the one that made them happen); before
  the first move, ``reshuffled`` is a start card put back (START-WD4), and
  ``{"dealer_drew": {"Ann": "R5", "Bob": "G3"}}`` (a round of the dealer draw, DEAL-1)
  and ``{"start_color": "red"}`` (a start color drawn at random) state the set-up.

A line ``{"round_over": {...}}`` ends the round; what it holds (the engine's own winner
and scores) goes to the record's ``meta.engine_end``. :func:`records_from_trace` gives a
version-2 record per game line, which ``unoformal conform`` and :func:`unoformal.replay`
referee; the kit checks only the trace's shape, the referee everything else.

A whole game is one game line with its rounds: after a ``round_over`` line, a line
``{"round": {"dealer": ..., "deal": ...}}`` starts the game's next round (its set-up,
with a round's fields), and ``{"game_over": {"winner": ..., "scores": {...}}}`` ends the
game. A game line followed by either gives a version-3 game record, each round's
``round_over`` its ``end`` (``winner``, ``points``, ``hands``, ``scores``: checked by the
referee against SCORE-1, SCORE-2 and END-1/2).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from typing import Any

from unoformal.engine.games import GAME_VERSION
from unoformal.engine.record import VERSION
from unoformal.errors import InvalidInputError
from unoformal.inputs import decode_line, is_empty, parse_json, show

Card = Callable[[Any], str]  # the engine's name of a card to its code here ("R5", "W+4")

MOVE_KEYS = ("player", "move", "card", "color", "target", "uno")
GAME_KEYS = ("players", "dealer", "rules", "deal", "seed", "meta")
ROUND_KEYS = ("dealer", "deal")
KINDS = ("game", "move", "drew", "reshuffled", "dealer_drew", "start_color", "round_over",
         "round", "game_over")
# What a round's set-up states, as a game record's round holds it (the rest is the game's)
_SET_UP = ("dealer", "deal", "start_reshuffles", "start_color", "dealer_draws")


def records_from_trace(lines: Iterable[str | bytes | dict[str, Any]], source: str = "trace",
                       card: Card | None = None) -> Iterator[dict[str, Any]]:
    """The version-2 records a trace holds, one per ``game`` line, in order.

    ``lines``: the trace's lines (text, bytes or parsed objects; empty lines are
    skipped); ``source`` names it in errors, which say the line (``trace:3``) and field;
    ``card``: the engine's own card names to this deck's codes (None: they are codes).
    A line that is not a trace line raises :class:`InvalidInputError`."""
    builder: _Builder | None = None
    for number, line in enumerate(lines, start=1):
        where = f"{source}:{number}"
        event = _event(line, where)
        if event is None:
            continue
        if "game" in event:
            if builder is not None:
                yield builder.result()
            builder = _Builder(_game(event, where), card or _same)
        elif builder is None:
            raise InvalidInputError("a trace starts with a game line {\"game\": {...}}",
                                    source=where)
        else:
            builder.add(event, where)
    if builder is not None:
        yield builder.result()


def _same(code: Any) -> str:
    if not isinstance(code, str):
        raise InvalidInputError(f"{show(code)}: a card code is a string such as \"R5\"")
    return code


def _event(line: str | bytes | dict[str, Any], where: str) -> dict[str, Any] | None:
    """One trace line as an object of exactly one kind (None: an empty line)."""
    if isinstance(line, bytes):
        line = decode_line(line)
    if isinstance(line, str):
        if is_empty(line):
            return None
        line = parse_json(line, where)
    if not isinstance(line, dict):
        raise InvalidInputError(f"{show(line)}: a trace line is a JSON object", source=where)
    kinds = [k for k in KINDS if k in line] or (["move"] if "player" in line else [])
    if len(kinds) != 1:
        raise InvalidInputError(f"{show(line, 120)}: a trace line is one of a game, a move, "
                                f"a chance outcome ({', '.join(KINDS[2:6])}) or a round's "
                                f"or game's end or start ({', '.join(KINDS[6:])})",
                                source=where)
    return line


def _game(event: dict[str, Any], where: str) -> dict[str, Any]:
    game = event["game"]
    if not isinstance(game, dict):
        raise InvalidInputError("a game line is {\"game\": {\"players\": [...], ...}}",
                                source=where, key="game")
    _only(game, GAME_KEYS, where, "game")
    return game


def _only(data: dict[str, Any], allowed: tuple[str, ...], where: str, what: str) -> None:
    extra = sorted(set(data) - set(allowed))
    if extra:
        raise InvalidInputError(f"unknown field(s) {show(extra)} in a {what} line; allowed: "
                                f"{', '.join(allowed)}", source=where, key=extra[0])


class _Builder:
    """One record being built from its trace lines: a round's (``record``), and the
    game's rounds before it where the trace gives a whole game."""

    def __init__(self, game: dict[str, Any], card: Card) -> None:
        self.card = card
        self.record: dict[str, Any] = {"version": VERSION, **game, "actions": []}
        if "deal" in game:
            self.record["deal"] = self._deal(game["deal"])
        self.over = False
        self.rounds: list[dict[str, Any]] = []  # a whole game's rounds before this one
        self.round_end: Any = None  # this round's round_over, a game record's round end
        self.end: dict[str, Any] | None = None  # a whole game's end
        self.whole = False

    def add(self, event: dict[str, Any], where: str) -> None:
        if self.end is not None:
            raise InvalidInputError("the game is over: the next starts with its own game "
                                    "line", source=where)
        if self.over and "round" not in event and "game_over" not in event:
            raise InvalidInputError("the round is over: the game's next round starts with a "
                                    "round line {\"round\": {...}}, the next game with a "
                                    "game line", source=where)
        try:
            self._add(event, where)
        except InvalidInputError as err:
            raise err.at(source=where) from None

    def result(self) -> dict[str, Any]:
        """A version-2 record, or a version-3 game record where the trace gave rounds."""
        if not self.whole:
            return self.record
        rounds = [*self.rounds, self._round()]
        head = {k: v for k, v in self.record.items()
                if k not in (*_SET_UP, "actions", "version")}
        meta = {k: v for k, v in head.get("meta", {}).items() if k != "engine_end"}
        head.pop("meta", None)
        if meta:  # each round's end is its own: the game line's meta is the game's
            head["meta"] = meta
        game: dict[str, Any] = {"version": GAME_VERSION, **head, "rounds": rounds}
        if self.end is not None:
            game["end"] = self.end
        return game

    def _round(self) -> dict[str, Any]:
        """The round being built, as a game record's round: its set-up, actions, end."""
        record = self.record
        out = {k: record[k] for k in _SET_UP if k in record}
        out["actions"] = record["actions"]
        if self.round_end is not None:
            out["end"] = self.round_end
        return out

    def _next_round(self, event: dict[str, Any], where: str) -> None:
        if not self.over:
            raise InvalidInputError("a round line comes after the round before it is over "
                                    "(its round_over line)", key="round")
        set_up = event["round"]
        if not isinstance(set_up, dict):
            raise InvalidInputError("a round line is {\"round\": {\"dealer\": ..., "
                                    "\"deal\": ...}}", key="round")
        _only(set_up, ROUND_KEYS, where, "round")
        self.whole = True
        self.rounds.append(self._round())
        self.record = {k: v for k, v in self.record.items() if k not in _SET_UP}
        self.record["actions"], self.round_end = [], None
        self.record.update(set_up)
        if "deal" in set_up:
            self.record["deal"] = self._deal(set_up["deal"])
        self.over = False

    def _add(self, event: dict[str, Any], where: str) -> None:
        actions = self.record["actions"]
        if "round" in event:
            self._next_round(event, where)
        elif "game_over" in event:
            if not isinstance(event["game_over"], dict):
                raise InvalidInputError("a game_over line is {\"game_over\": {\"winner\": "
                                        "..., \"scores\": {...}}}", key="game_over")
            self.whole = True
            self.end = event["game_over"]
        elif "round_over" in event:
            self.over = True
            self.round_end = event["round_over"]
            meta = self.record.get("meta", {})
            if not isinstance(meta, dict):
                raise InvalidInputError(f"{show(meta)}: a game's meta is a JSON object",
                                        key="meta")
            # a new dict: the game line's own meta (the caller's object) stays as it was
            self.record["meta"] = {**meta, "engine_end": event["round_over"]}
        elif "move" in event or "player" in event:
            _only(event, MOVE_KEYS, where, "move")
            actions.append(self._move(event))
        elif not actions:
            self._set_up(event)
        else:
            self._chance(actions[-1], event, where)

    def _move(self, event: dict[str, Any]) -> dict[str, Any]:
        if "move" not in event or "player" not in event:
            raise InvalidInputError("a move line names its player and its move",
                                    key="player" if "move" in event else "move")
        action = {"player": event["player"], "action": event["move"]}
        for key in ("card", "color", "target", "uno"):
            if key in event:
                action[key] = self.card(event[key]) if key == "card" else event[key]
        return action

    def _chance(self, action: dict[str, Any], event: dict[str, Any], where: str) -> None:
        """A draw or a reshuffle, stated on the move that made it happen."""
        if "drew" in event:
            _only(event, ("drew", "cards"), where, "drew")
            taken = action.setdefault("draws", {}).setdefault(event["drew"], [])
            taken.extend(self._cards(event.get("cards"), "cards"))
        elif "reshuffled" in event:
            action.setdefault("reshuffles", []).append(self._cards(event["reshuffled"],
                                                                   "reshuffled"))
        else:
            kind = next(k for k in KINDS if k in event)
            raise InvalidInputError(f"{kind} states the set-up: it comes before the first "
                                    "move", key=kind)

    def _set_up(self, event: dict[str, Any]) -> None:
        """Chance before the first move: the dealer draw, start put-backs, a start color."""
        record = self.record
        if "dealer_drew" in event:
            drawn = event["dealer_drew"]
            if not isinstance(drawn, dict):
                raise InvalidInputError("dealer_drew maps each player to the card they drew",
                                        key="dealer_drew")
            record.setdefault("dealer_draws", []).append(
                {name: self.card(c) for name, c in drawn.items()})
        elif "reshuffled" in event:
            record.setdefault("start_reshuffles", []).append(
                self._cards(event["reshuffled"], "reshuffled"))
        elif "start_color" in event:
            record["start_color"] = event["start_color"]
        else:
            raise InvalidInputError("drew: cards are drawn by a move, so a move comes first",
                                    key="drew")

    def _deal(self, deal: Any) -> Any:
        if not isinstance(deal, dict):
            return deal  # the record's schema says what is wrong with it
        hands = deal.get("hands")
        out = dict(deal)
        if isinstance(hands, dict):
            out["hands"] = {name: self._cards(cards, f"deal.hands.{name}")
                            for name, cards in hands.items()}
        if "draw_pile" in deal:
            out["draw_pile"] = self._cards(deal["draw_pile"], "deal.draw_pile")
        return out

    def _cards(self, cards: Any, key: str) -> list[str]:
        if not isinstance(cards, list):
            raise InvalidInputError(f"{show(cards)}: a list of cards", key=key)
        return [self.card(c) for c in cards]
