"""A record as a trace of plain JSON data: each step's state, action and rules.

Everything is read through the public API: the record's readers
(:func:`~unoformal.engine.record.game_from_record`, ``record_actions``, the stated chance
of a version-2 record), ``Game.state_json`` and ``Game.view`` (HIDDEN-1, with CHAL-1's
look for the challenger), the table's words (``Rule.words``) and the explorer's labels of
what a transition exercises (:class:`~unoformal.verification.explore.coverage.Labeler`),
so the page shows what the engine did and cites what the table says.
"""

from __future__ import annotations

from functools import cache
from typing import Any

from unoformal.engine.actions import Action, ActionType
from unoformal.engine.chance import StatedGame
from unoformal.engine.game import Game
from unoformal.engine.games import (
    deal_round,
    end_deviations,
    game_end_deviations,
    is_game,
    start_game,
)
from unoformal.engine.record import (
    apply_stated,
    game_from_record,
    record_actions,
    stated_chance,
)
from unoformal.errors import UnoError
from unoformal.language.commands import labels_of
from unoformal.rulebook.table import CLASSIC, RuleTable
from unoformal.rules.book import commands
from unoformal.show.seat import REFEREE, public_refusal
from unoformal.verification.explore.coverage import Labeler, text_of

Json = dict[str, Any]
# Between rounds, which the explorer's labels (one round) do not cover.
NEXT_ROUND = "the round is over: everything is shuffled and dealt again"
# The state_json fields a page shows (the canonical text is left out: it names every
# hand, and a "view as" page must not carry it in its visible text).
STATE_KEYS = ("round", "dealer", "to_play", "phase", "direction", "color", "top", "hands",
              "scores", "draw_pile", "discard_pile", "uno_pending", "round_over", "winner",
              "round_points", "game_over", "game_winner")


def snapshot(game: Game) -> Json:
    """One state as the page draws it: ``state_json`` plus what a phase waits on."""
    data = game.state_json()
    out = {key: data[key] for key in STATE_KEYS}
    out["pending"] = game.pending
    out["pending_kind"] = game.pending_kind.value if game.pending_kind else None
    out["drawn"] = game.deck.code(game.drawn) if game.drawn is not None else None
    return out


@cache
def _texts(rules: RuleTable) -> dict[tuple[str, str], str]:
    return {**text_of(rules), ("END-2", "next-round"): NEXT_ROUND}


def label(rule_id: str, branch: str, rules: RuleTable, only: str | None = None) -> list[Any]:
    """``[rule, branch, words, only]``: ``only`` names the one seat that may know the
    label ran (the mover, for a label its command marks secret), None for everyone."""
    return [rule_id, branch, _texts(rules).get((rule_id, branch), ""), only]


def initial_labels(game: Game) -> list[list[str]]:
    """DEAL-2 and the start card's rule (DEAL-3, START-*) of a freshly dealt round."""
    return [label(r, b, game.rules) for r, b in Labeler(game).initial(game)]


def edge_labels(after: Game, secret: frozenset[tuple[str, str]] = frozenset(),
                mover: str | None = None) -> list[list[Any]]:
    """The rules and branches one action ran (``after.ran``, counted while it ran: the
    explorer's labels), and the score of a round it ended; those in ``secret`` are the
    mover's alone (:func:`secrets`)."""
    labels = [label(r, b, after.rules, mover if (r, b) in secret else None)
              for r, b in Labeler(after).edge(after)]
    if after.phase == "over" and after.winner is not None:
        # SCORE-1's kinds of card left: of hands whose faces stay hidden (HIDDEN-1)
        labels += [label(r, b, after.rules, REFEREE)
                   for r, b in sorted(set(Labeler(after).over(after)))]
    return labels


def secrets(before: Game, action: Action) -> frozenset[tuple[str, str]]:
    """The labels the command ``action`` runs marks secret (HIDDEN-1: what the mover's own
    hidden cards decide), read from the command itself."""
    command = before.command_of(action)  # as the engine runs it, without its labels
    if command is None:
        return frozenset()
    return _secret_labels(before.rules).get(command.name, frozenset())


@cache
def _secret_labels(rules: RuleTable) -> dict[str, frozenset[tuple[str, str]]]:
    """Of each command of ``rules`` by name, the labels it marks secret."""
    return {command.name: frozenset((lab.rule, lab.branch) for lab in labels_of(command)
                                    if lab.secret) for command in commands(rules)}


def reveal(game: Game, action: Action) -> Json | None:
    """CHAL-1: after a challenge the challenger alone saw the offender's hand, once."""
    if action.type is not ActionType.CHALLENGE:
        return None
    seen = game.view(action.player).revealed
    if seen is None:
        return None
    return {"to": action.player, "of": seen[0], "hand": list(seen[1])}


def step(game: Game, action: Action | None, labels: list[list[str]],
         seen: Json | None = None, refused: Json | None = None) -> Json:
    return {"action": None if action is None else str(action),
            "actor": None if action is None else action.player,
            "labels": labels, "state": snapshot(game), "reveal": seen, "refused": refused}


def refusal(err: UnoError, actor: str | None = None) -> Json:
    """A refused action in words, without the state text the error also carries; its
    ``public`` part is what the other seats may know of it (unoformal.show.seat)."""
    out: Json = {"rule": err.rule_id, "message": err.message, "causes": list(err.causes)}
    return {**out, "public": public_refusal(out, actor)}


def record_steps(record: Json, rules: RuleTable | None = None) -> tuple[Game, list[Json]]:
    """The steps of a record: its deal, then one per action (and one per new round dealt,
    END-2), up to the first refused action, which ends the trace as a refusal."""
    if is_game(record):
        return game_steps(record, rules)
    game = game_from_record(record, rules)
    steps = [step(game, None, initial_labels(game))]
    raw = record.get("actions", [])
    for i, action in enumerate(record_actions(record)):
        if game.round_over and not game.game_over:
            game.next_round()
            steps.append(step(game, None, [label("END-2", "next-round", game.rules),
                                           *initial_labels(game)]))
        game, done = advance(game, action, raw[i])
        steps.append(done)
        if done["refused"]:
            return game, steps
    return game, steps


def game_steps(record: Json, rules: RuleTable | None = None) -> tuple[Game, list[Json]]:
    """The steps of a game record (version 3): each round's deal as it states it (END-2
    after the first), its actions, its end; a deviation (a refused action, a round dealt
    or ended as the rules do not, a wrong score) ends the trace as a refusal."""
    game = game_from_record(record, rules)  # a set-up the rules contradict is refused
    rounds = start_game(record, rules)[1]
    steps = [step(game, None, initial_labels(game))]
    for rnd in rounds:
        if rnd.number:
            dealt = deal_round(game, rnd)
            if dealt is not None:
                return game, [*steps, step(game, None, [], refused=refusal(dealt))]
            steps.append(step(game, None, [label("END-2", "next-round", game.rules),
                                           *initial_labels(game)]))
        raw = rnd.data.get("actions", [])
        for i, action in enumerate(rnd.actions):
            game, done = advance(game, action, raw[i])
            steps.append(done)
            if done["refused"]:
                return game, steps
        ends = end_deviations(game, rnd)
        if ends:
            return game, [*steps, step(game, None, [], refused=refusal(ends[0]))]
    ends = game_end_deviations(game, record)
    return game, steps + [step(game, None, [], refused=refusal(e)) for e in ends[:1]]


def advance(game: Game, action: Action, data: Any = None) -> tuple[Game, Json]:
    """``action`` on ``game`` (with the chance outcomes a version-2 record's ``data``
    states) and its step: the game after it, or, refused, the game as it was before."""
    before = game.copy()
    game.ran = []
    try:
        _apply(game, action, data)
    except UnoError as err:
        return before, step(before, action, [], refused=refusal(err, action.player))
    done = step(game, action, edge_labels(game, secrets(before, action), action.player),
                reveal(game, action))
    game.ran = None
    return game, done


def _apply(game: Game, action: Action, data: Any) -> None:
    """One record action, taking the chance outcomes a version-2 record states; on a
    refusal the game may be part-way (the caller keeps a copy of the state before)."""
    stated = stated_chance(game, data) if isinstance(game, StatedGame) \
        and isinstance(data, dict) else None
    if stated is None or not isinstance(game, StatedGame):
        game.apply(action)
    else:
        apply_stated(game, action, stated)


def table_data(rules: RuleTable, cited: set[str]) -> Json:
    """The table's name, description and words of the rules the trace cites, and each
    value it changes from classic (a variant file's or a mutant's difference)."""
    words: dict[str, str] = {}
    for _, rule in rules.entries():
        if rule.id in cited:
            words[rule.id] = f"{words[rule.id]} {rule.words()}" if rule.id in words \
                else rule.words()
    return {"name": rules.name, "description": rules.description, "words": words,
            "changes": changes(rules), "open_below": rules.hidden.open_below}


def changes(rules: RuleTable) -> list[Json]:
    """Every value of ``rules`` that differs from classic, with classic's value."""
    out = []
    for rule_id, key, value in rules.overrides:
        try:
            was: Any = getattr(CLASSIC.entry(rule_id), key)
        except (KeyError, AttributeError):
            was = None
        out.append({"rule": rule_id, "key": key, "value": plain(value), "classic": plain(was)})
    return out


def plain(value: Any) -> Any:
    """A table value as JSON holds it (enumerations by value, tuples as lists)."""
    from unoformal.rulebook.schema import plain as schema_plain

    return schema_plain(value)
