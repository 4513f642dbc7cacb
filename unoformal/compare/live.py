"""The live referee protocol: JSON lines in, JSON lines out (see ``docs/referee.md``).

An engine in any language plays a game move by move against this referee, as chess
engines speak UCI and Go engines GTP: one JSON object a line, each with a ``"cmd"``, each
answered by one line. The game is the engine's own :class:`~unoformal.engine.game.Game`,
set up exactly as a version-2 record sets it up (the same fields, checked by the same
schema), so chance may be left to the seed or stated by the engine under test (``draws``
and ``reshuffles``, as in a record), and ``record`` dumps a record that ``unoformal
replay`` plays back. Bad input gets an error answer naming what was wrong and the game
goes on unchanged; nothing here prints or exits (``unoformal referee`` does).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from unoformal.compare.explain import explain
from unoformal.compare.follow import Unknowable, Unordered, force
from unoformal.engine.actions import Action, ActionType
from unoformal.engine.chance import ChanceError, StatedChance, StatedGame
from unoformal.engine.game import Game
from unoformal.engine.games import (
    GAME_KEYS,
    GAME_VERSION,
    ROUND_SETUP,
    Round,
    deal_round,
    score_deviations,
)
from unoformal.engine.record import (
    VERSION,
    Stated,
    apply_stated,
    check_schema,
    game_from_record,
    set_up_deviation,
    stated_chance,
)
from unoformal.errors import IllegalActionError, InvalidInputError, UnoError
from unoformal.inputs import MAX_NAME_LENGTH, parse_json, show

# The record's set-up fields: a new game is set up as a version-2 record is.
SETUP = ("rules", "players", "dealer", "seed", "deal", "dealer_draws", "start_reshuffles",
         "meta")
FIELDS: dict[str, tuple[str, ...]] = {
    "new": SETUP,
    "apply": ("action", "draws", "reshuffles", "force"),
    "legal": ("player", "penalties"),
    "state": (),
    "view": ("player",),
    "record": (),
    "next_round": ("dealer", "deal", "start_reshuffles", "start_color", "scores"),
    "quit": (),
}
REQUIRED: dict[str, tuple[str, ...]] = {"new": ("players",), "apply": ("action",),
                                        "view": ("player",)}
MAX_ID = 64  # characters of a string "id" echoed back


class Watched(StatedChance):
    """Stated chance that also notes what each action drew and reshuffled, for the
    answer: ``drew`` (seat to cards) and ``noted`` (each new pile, top first), or None
    while nobody is looking."""

    drew: dict[int, list[int]] | None = None
    noted: list[list[int]] | None = None

    def end_draw(self, game: Game, seat: int, count: int, taken: int, rule: str) -> None:
        super().end_draw(game, seat, count, taken, rule)
        if self.drew is not None and taken:
            self.drew.setdefault(seat, []).extend(game.hands[seat][-taken:])

    def reshuffle(self, game: Game, cards: list[int], rule: str) -> None:
        super().reshuffle(game, cards, rule)
        if self.noted is not None and cards:  # a reshuffle of nothing is not chance
            self.noted.append(cards[::-1])


class _WatchedUnordered(Unordered, Watched):
    """Watched chance after a forced move left part of the pile in an unstated order."""


class _Watched(StatedGame):
    """The engine's game with a :class:`Watched` chance player."""

    POLICY = Watched

    @property
    def watched(self) -> Watched:
        assert isinstance(self.stated, Watched)
        return self.stated


@dataclass
class Referee:
    """One session: at most one game at a time; :meth:`handle` answers one message."""

    game: _Watched | None = None
    setup: dict[str, Any] = field(default_factory=dict)
    actions: list[dict[str, Any]] = field(default_factory=list)
    done: bool = False
    # what an apply with "force" did after its refusal, for the error answer to carry
    forced: dict[str, Any] | None = None
    # each later round the engine stated (a next_round with fields): the index of its
    # first action and what it stated; the record is then a game record (version 3)
    rounds: list[tuple[int, dict[str, Any]]] = field(default_factory=list)

    def handle_line(self, line: str, where: str = "line") -> dict[str, Any]:
        """The answer to one line of input (never raises an :class:`UnoError`)."""
        try:
            message = parse_json(line, where)
        except InvalidInputError as err:
            return self._error(None, None, err)
        return self.handle(message)

    def handle(self, message: Any) -> dict[str, Any]:
        """The answer to one message (a parsed JSON value)."""
        ident: Any = None
        cmd: str | None = None
        try:
            ident = _ident(message)
            known = message.get("cmd")
            cmd = known if isinstance(known, str) and known in FIELDS else None
            cmd = _command(message)
            answer = _HANDLERS[cmd](self, message)
        except UnoError as err:
            return self._error(ident, cmd, err)
        return _answer(ident, cmd, answer)

    # ------------------------------------------------------------------ commands

    def _new(self, message: dict[str, Any]) -> dict[str, Any]:
        setup = {k: message[k] for k in SETUP if k in message}
        record = {"version": VERSION, **setup, "actions": []}
        game = game_from_record(record, stated=_Watched, lenient=True)
        assert isinstance(game, _Watched)
        deviation = set_up_deviation(game)
        if deviation is not None:
            # a set-up the rules contradict is refused as illegal, as replay counts it a
            # deviation (not malformed input); the game before it stays, as for any refusal
            deviation.state = None
            raise deviation
        self.game, self.setup, self.actions, self.rounds = game, setup, [], []
        rules = game.rules
        ids = [rules.dealer_draw.id] if "dealer" not in setup else []
        ids += [rules.deal.id, game.cause[0] if game.cause else rules.first_turn.id]
        return {"rule_ids": ids, "dealer": game.names[game.dealer], **_summary(game)}

    def _apply(self, message: dict[str, Any]) -> dict[str, Any]:
        game = self._game()
        action = Action.parse(message["action"])
        stated = self._stated(game, message, action)
        forcing = _forcing(message)
        before = game.copy()
        assert isinstance(before, _Watched)
        try:
            ids = self._play(game, action, stated)
        except UnoError as err:
            self.game = before  # whatever happened part-way is undone
            explain(before, action, err)  # as replay completes it, so conform agrees
            if forcing and isinstance(err, IllegalActionError):
                self.forced = self._force(before, action, stated, message)
            raise err.at(action=str(action)) from None
        self.actions.append(_entry(action, message))
        out: dict[str, Any] = {"action": str(action), "rule_ids": ids}
        code = game.deck.code
        watched = game.watched
        if watched.drew:
            out["draws"] = {game.names[p]: [code(c) for c in cards]
                            for p, cards in sorted(watched.drew.items())}
        if watched.noted:
            out["reshuffles"] = [[code(c) for c in pile] for pile in watched.noted]
        watched.drew = watched.noted = None
        return {**out, **_summary(game)}

    def _force(self, before: _Watched, action: Action, stated: Stated | None,
               message: dict[str, Any]) -> dict[str, Any]:
        """A refused move taken as the engine under test states it (``"force": true``):
        the game goes on from the state it leads to, as ``conform`` goes on past a
        deviation; where that state cannot be known, the game stays as it was."""
        last = stated_chance(before, self.actions[-1]) if self.actions else None
        try:
            game, notes = force(before, action, stated, _WatchedUnordered, last)
        except Unknowable as why:
            return {"resynchronised": [], "stopped": why.message}
        assert isinstance(game, _Watched)  # a copy keeps its class
        self.game = game
        self.actions.append(_entry(action, message))
        return {"resynchronised": notes, "stopped": None}

    def _play(self, game: _Watched, action: Action, stated: Stated | None) -> list[str]:
        """Apply ``action`` (dealing the next round first if one is over, as a record's
        replay does, END-2); the rule IDs that decided its effect."""
        ids: list[str] = []
        if game.round_over and not game.game_over:
            game.next_round()
            ids.append(game.rules.next_round.id)
        over = game.round_over
        try:
            command = game.command_of(action)
        except UnoError:
            command = None  # the action is malformed: apply says how
        game.watched.drew, game.watched.noted = {}, []
        game.ran = []  # what the move runs, counted: the answer names its rules
        try:
            if stated is None:
                game.apply(action)
            else:
                apply_stated(game, action, stated)
        except ChanceError as err:
            err.state = None  # the state before is what the answer shows
            raise
        finally:
            ran, game.ran = game.ran, None
        # a play's command cites the rules every play of its card runs under (PLAY-1, the
        # card's own, a house rule's); another move's label names its rule as it ran
        cites = list(command.cites) if command is not None and \
            action.type is ActionType.PLAY else []
        return _dedupe(ids + cites + ran_rules(ran, over, game))

    def _stated(self, game: Game, message: dict[str, Any], action: Action) -> Stated | None:
        """The chance outcomes the message states, checked as a record action's are."""
        if "draws" not in message and "reshuffles" not in message:
            return None
        entry: dict[str, Any] = action.to_json()
        entry.update((k, message[k]) for k in ("draws", "reshuffles") if k in message)
        try:
            check_schema({"version": VERSION, "players": list(game.names),
                          "actions": [entry]})
            return stated_chance(game, entry)
        except InvalidInputError as err:
            key = (err.key or "").removeprefix("actions[0]").lstrip(".")
            err.key, err.index = key or None, None
            raise

    def _legal(self, message: dict[str, Any]) -> dict[str, Any]:
        game = self._game()
        player = message.get("player")
        penalties = message.get("penalties", True)
        if not isinstance(penalties, bool):
            raise InvalidInputError(f"{show(penalties)}: true or false", key="penalties")
        if player is not None:
            _name(player, "player")
        actions = game.legal_actions(player, penalties=penalties)
        return {"rule_ids": _causes(game), "actions": [str(a) for a in actions],
                **_summary(game)}

    def _state(self, message: dict[str, Any]) -> dict[str, Any]:
        game = self._game()
        return {"rule_ids": _causes(game), **_summary(game)}

    def _view(self, message: dict[str, Any]) -> dict[str, Any]:
        game = self._game()
        view = game.view(_name(message["player"], "player"))
        # HIDDEN-1 decides what a view holds, the challenger's one look included
        return {"rule_ids": [game.rules.hidden.id], "view": {
            "player": view.player, "hand": list(view.hand), "hand_sizes": view.hand_sizes,
            "top": view.top, "color": view.color, "direction": view.direction,
            "to_play": view.to_play, "phase": view.phase, "draw_pile": view.draw_pile,
            "scores": view.scores, "uno_pending": view.uno_pending,
            "revealed": None if view.revealed is None else
            {"player": view.revealed[0], "hand": list(view.revealed[1])},
            **({"shown": {name: list(hand) for name, hand in view.shown.items()}}
               if game.rules.hidden.open_below else {}),
            **({"out": list(view.out)} if game.rules.seats_leave() else {})}}

    def _record(self, message: dict[str, Any]) -> dict[str, Any]:
        self._game()
        if any(stated for _, stated in self.rounds):
            return {"rule_ids": [], "record": game_of_session(self.setup, self.actions,
                                                              self.rounds)}
        return {"rule_ids": [], "record": {"version": VERSION, **self.setup,
                                           "actions": list(self.actions)}}

    def _next_round(self, message: dict[str, Any]) -> dict[str, Any]:
        game = self._game()
        stated = {k: message[k] for k in FIELDS["next_round"] if k in message}
        if stated:
            self.game = next_stated_round(game, stated)
            game = self.game
        else:
            game.next_round()
        self.rounds.append((len(self.actions), stated))
        rules = game.rules
        ids = [rules.next_round.id, rules.deal.id,
               game.cause[0] if game.cause else rules.first_turn.id]
        if "scores" in stated:  # checked against the points and their sum
            ids += [rules.points.id, rules.target.id]
        return {"rule_ids": ids, "dealer": game.names[game.dealer], **_summary(game)}

    def _quit(self, message: dict[str, Any]) -> dict[str, Any]:
        self.done = True
        return {"rule_ids": []}

    # ------------------------------------------------------------------- helpers

    def _game(self) -> _Watched:
        if self.game is None:
            raise InvalidInputError('no game yet: start one with {"cmd": "new", '
                                    '"players": [...]}', key="cmd")
        return self.game

    def refuse(self, err: UnoError) -> dict[str, Any]:
        """The error answer to input that never became a message (a line too long ...)."""
        return self._error(None, None, err)

    def _error(self, ident: Any, cmd: str | None, err: UnoError) -> dict[str, Any]:
        kind = "illegal" if isinstance(err, IllegalActionError) else "invalid"
        error = {"kind": kind, "rule": err.rule_id, "causes": list(err.causes),
                 "message": err.message, "key": err.key, "action": err.action,
                 "source": err.source}
        out = _answer(ident, cmd, {"error": {k: v for k, v in error.items()
                                             if v is not None or k == "rule"}}, ok=False)
        forced, self.forced = self.forced, None
        if forced is not None:
            out["forced"] = forced
        if self.game is not None:
            out["state"] = self.game.to_text()
        return out


def next_stated_round(game: _Watched, stated: dict[str, Any]) -> _Watched:
    """The next round as the engine states it (END-2): the scores it holds after the
    round (checked: SCORE-2), its dealer (END-2), deal (DEAL-2) and start card's chance.
    The game dealt, a copy; a refusal (or bad input) leaves ``game`` as it was."""
    _check_round_fields(game, stated)
    if "scores" in stated:
        wrong = score_deviations(game, stated["scores"], "scores", f"after round {game.round}")
        if wrong:
            raise wrong[0]
    dealt = game.copy()
    assert isinstance(dealt, _Watched)
    rnd = Round(game.round, 0, {k: v for k, v in stated.items() if k != "scores"}, [], None)
    try:
        deviation = deal_round(dealt, rnd)
    except InvalidInputError as err:
        err.key = _unround(err.key)
        raise
    if deviation is not None:
        deviation.key, deviation.state = _unround(deviation.key), None
        raise deviation
    return dealt


def _check_round_fields(game: Game, stated: dict[str, Any]) -> None:
    """The stated fields' shapes, as a record's (its schema), and the scores' (name to
    a whole number)."""
    scores = stated.get("scores")
    if "scores" in stated and (not isinstance(scores, dict) or any(
            not isinstance(v, int) or isinstance(v, bool) for v in scores.values())):
        raise InvalidInputError(f"{show(scores)}: the scores, each player's name to a whole "
                                "number", "SCORE-2", key="scores")
    setup = {k: v for k, v in stated.items() if k != "scores"}
    try:
        check_schema({"version": VERSION, "players": list(game.names), **setup})
    except InvalidInputError as err:
        err.index = None
        raise


def _unround(key: str | None) -> str | None:
    """A game record's key (``rounds[1].deal``) as the message's field (``deal``)."""
    if key is None or not key.startswith("rounds["):
        return key
    rest = key.partition("].")[2]
    return rest or None


def game_of_session(setup: dict[str, Any], actions: list[dict[str, Any]],
                    rounds: list[tuple[int, dict[str, Any]]]) -> dict[str, Any]:
    """A session whose rounds the engine stated, as one game record (version 3): the
    first round as ``new`` set it up, each later one as its ``next_round`` stated it (the
    scores it stated the end of the round before)."""
    head = {k: setup[k] for k in GAME_KEYS if k in setup}
    first = {k: setup[k] for k in ROUND_SETUP if k in setup}
    starts = [0, *(at for at, _ in rounds), len(actions)]
    out = [{**first}] + [{k: v for k, v in stated.items() if k != "scores"}
                         for _, stated in rounds]
    for r, data in enumerate(out):
        data["actions"] = actions[starts[r]:starts[r + 1]]
    for r, (_, stated) in enumerate(rounds):
        if "scores" in stated:
            out[r]["end"] = {"scores": stated["scores"]}
    return {"version": GAME_VERSION, **head, "rounds": out}


def ran_rules(ran: list[tuple[str, str]], was_over: bool, game: Game) -> list[str]:
    """The table entries an action ran, after those its command cites: in the order they
    ran, each (rule, branch) the command and the engine's chance counted while it ran
    (``Game.ran``, the labels of coverage and of ``unoformal show``), then the round's end
    and score if it ended the round (END-1, SCORE-1: the engine's scoring, which no
    command states) and the game's (SCORE-2). Nothing is worked out afterwards from the
    state."""
    rules = game.rules
    ids = [rule for rule, _ in ran]
    if game.round_over and not was_over:
        ids += [rules.end_of_round.id, rules.points.id]
        if game.game_over:
            ids.append(rules.target.id)
    return _dedupe(ids)


def _entry(action: Action, message: dict[str, Any]) -> dict[str, Any]:
    """The record's action of an apply: the action, with the chance it stated."""
    entry = action.to_json()
    for key in ("draws", "reshuffles"):
        if key in message:
            entry[key] = message[key]
    return entry


def _forcing(message: dict[str, Any]) -> bool:
    value = message.get("force", False)
    if not isinstance(value, bool):
        raise InvalidInputError(f"{show(value)}: true or false", key="force")
    return value


def _causes(game: Game) -> list[str]:
    """The rule that made the state what it is (a Skip, a drawn card ...), if any."""
    return [game.cause[0]] if game.cause is not None else []


def _summary(game: Game) -> dict[str, Any]:
    out: dict[str, Any] = {"to_play": game.to_play, "phase": game.phase,
                           "round_over": game.round_over, "game_over": game.game_over}
    if game.round_over and game.winner is not None:
        out["winner"] = game.names[game.winner]
        out["round_points"] = game.round_points
        out["scores"] = dict(zip(game.names, game.scores, strict=True))
    out["state"] = game.to_text()
    return out


def _answer(ident: Any, cmd: str | None, body: dict[str, Any],
            ok: bool = True) -> dict[str, Any]:
    head: dict[str, Any] = {} if ident is None else {"id": ident}
    return {**head, "ok": ok, "cmd": cmd, **body}


def _ident(message: Any) -> Any:
    if not isinstance(message, dict):
        raise InvalidInputError(f"{show(message)}: a message is a JSON object such as "
                                '{"cmd": "state"}')
    ident = message.get("id")
    if ident is None or (isinstance(ident, int) and not isinstance(ident, bool)) or \
            (isinstance(ident, str) and len(ident) <= MAX_ID):
        return ident
    raise InvalidInputError(f"{show(ident)}: an id is an integer or a string of at most "
                            f"{MAX_ID} characters", key="id")


def _command(message: dict[str, Any]) -> str:
    cmd = message.get("cmd")
    if not isinstance(cmd, str) or cmd not in FIELDS:
        what = "missing" if cmd is None else f"unknown command {show(cmd)}"
        raise InvalidInputError(f"{what}; expected one of {', '.join(FIELDS)}", key="cmd")
    extra = sorted(set(message) - set(FIELDS[cmd]) - {"cmd", "id"})
    if extra:
        allowed = ", ".join(FIELDS[cmd]) or "no other field"
        raise InvalidInputError(f"unknown field(s) {show(extra)} for {cmd}; allowed: "
                                f"{allowed} (and id)", key=extra[0])
    for key in REQUIRED.get(cmd, ()):
        if key not in message:
            raise InvalidInputError(f"missing: {cmd} needs {key}", key=key)
    return cmd


def _name(value: Any, key: str) -> str:
    if not isinstance(value, str) or len(value) > MAX_NAME_LENGTH:
        raise InvalidInputError(f"{show(value)}: a player's name", "DECK-2", key=key)
    return value


def _dedupe(ids: list[str]) -> list[str]:
    return list(dict.fromkeys(ids))


_HANDLERS: dict[str, Callable[[Referee, dict[str, Any]], dict[str, Any]]] = {
    "new": Referee._new, "apply": Referee._apply, "legal": Referee._legal,
    "state": Referee._state, "view": Referee._view, "record": Referee._record,
    "next_round": Referee._next_round, "quit": Referee._quit,
}
