"""HIDDEN-1 as a property: two games one seat cannot tell apart look the same to it.

Two states differ only in cards the seat may not see (cards of other hands swapped with
cards of the draw pile or of a third hand, one swap after another). The same move is
made in both; where the seat observes the same (its own hand, every public field, the
move, its outcome and ruling, CHAL-1's look if it is the challenger's), the seat's view of
the step (:func:`unoformal.show.seat.step_as`), and the whole page built from it, must be
byte-identical. The observation is read from the engine's states, not from the views
under test, so a view that lets anything else through (a coverage label, a refusal's
words) fails here. tests/show/test_seat_views.py runs it briefly;
``benchmarks/fuzz.py --family "seat views"`` runs it long.
"""

from __future__ import annotations

import json
import random
from typing import Any

from unoformal.engine.actions import Action, ActionType
from unoformal.engine.game import Game
from unoformal.rulebook.variants import load_rules
from unoformal.show import trace
from unoformal.show.page import render
from unoformal.show.seat import cited, page_as, step_as

NAMES = ["An", "Bo", "Cy"]


def observed(game: Game, seat: str) -> dict[str, Any]:
    """What ``seat`` observes of a state, read from the engine: every public field (the
    round's points among them), the hand sizes, its own hand and the card it drew."""
    data = game.state_json()
    out = {k: v for k, v in data.items() if k not in ("hands", "text")}
    out["sizes"] = {n: len(h) for n, h in data["hands"].items()}
    out["own"] = data["hands"][seat]
    # HIDDEN-1's house rule: a hand of fewer than open_below cards is face up to all
    below = game.rules.hidden.open_below
    out["open"] = {n: h for n, h in data["hands"].items() if n != seat and len(h) < below}
    out["pending"] = game.pending
    out["pending_kind"] = game.pending_kind.value if game.pending_kind else None
    out["drawn"] = game.drawn if game.to_play == seat else None
    return out


def observation(before: Game, action: Action, after: Game, done: dict[str, Any],
                seat: str) -> str:
    """The seat's observation of one step: the state before and after, the move, whether
    it was refused and under which rule (the ruling is public), and its own look."""
    refused = done["refused"]
    seen = done["reveal"] if done["reveal"] and done["reveal"]["to"] == seat else None
    return json.dumps([observed(before, seat), str(action), observed(after, seat),
                       refused and refused["rule"], seen], sort_keys=True, default=str)


def page(done: dict[str, Any], game: Game, seat: str) -> str:
    data = {"kind": "trace", "title": "t", "source": "s", "players": list(game.names),
            "steps": [done], "table": trace.table_data(game.rules, cited([done]))}
    return render(page_as(data, seat))


def hidden_places(game: Game, seat: str, keep: Action) -> list[tuple[str, int, int]]:
    """Where a card the seat may not see lies: (``hand``, player, index) of the other
    hands, less one copy of the card ``keep`` plays and the card just drawn, and
    (``pile``, 0, index) of the draw pile."""
    out: list[tuple[str, int, int]] = [("pile", 0, i) for i in range(len(game.pile))]
    me = game.seat(seat)
    for p, hand in enumerate(game.hands):
        if p == me or len(hand) < game.rules.hidden.open_below:  # its own, or face up
            continue
        kept = _kept(game, p, keep)
        out += [("hand", p, i) for i, c in enumerate(hand) if i not in kept
                and c != game.drawn]
    return out


def _kept(game: Game, p: int, keep: Action) -> set[int]:
    if keep.card is None or game.seat(keep.player) != p:
        return set()
    code = [game.deck.code(c) for c in game.hands[p]]
    return {code.index(keep.card)} if keep.card in code else set()


def swapped(game: Game, a: tuple[str, int, int], b: tuple[str, int, int]) -> Game:
    other = game.copy()
    where = {"pile": lambda p: other.pile, "hand": lambda p: other.hands[p]}
    first, second = where[a[0]](a[1]), where[b[0]](b[1])
    first[a[2]], second[b[2]] = second[b[2]], first[a[2]]
    # read back from its text: the engine keeps lookups of the hands it has listed, which
    # a hand changed behind its back would leave stale
    return Game.from_text(other.to_text(), game.rules)


def play_on(game: Game, rng: random.Random, moves: int) -> Game:
    for _ in range(moves):
        if game.round_over:
            break
        game.apply(rng.choice(game.legal_actions()))
    return game


INTERESTING = (ActionType.CHALLENGE, ActionType.ACCEPT)


def pick(game: Game, rng: random.Random) -> Action:
    """A move, favouring what a seat must not learn more of than it may: a Wild Draw
    Four played, a challenge, an accept, or any card of the mover's hand played, legal or
    not (a refusal's words)."""
    actions = game.legal_actions()
    rare = [a for a in actions if a.card == "W+4" or a.type in INTERESTING]
    if rng.random() < 0.25:
        return _any_card(game, rng)
    return rng.choice(rare if rare and rng.random() < 0.8 else actions)


def _any_card(game: Game, rng: random.Random) -> Action:
    card = game.deck.code(rng.choice(game.hands[game.seat(game.to_play)]))
    color = " red" if card.startswith("W") else ""
    return Action.parse(f"{game.to_play} play {card}{color}")


def check_pair(game: Game, twin: Game, action: Action, seat: str) -> bool:
    """Whether ``twin`` (``game`` with hidden cards moved) leaves the step unobservable to
    ``seat``, asserting then that its view and page are the same bytes."""
    views, pages, seen = [], [], []
    # both read from their texts, as the twin was (what a text does not hold, such as
    # the cause of a waiting draw, is then missing from both alike)
    game = Game.from_text(game.to_text(), game.rules)
    for start in (game, twin):
        before = start.copy()
        after, done = trace.advance(start.copy(), action)
        seen.append(observation(before, action, after, done, seat))
        views.append(json.dumps(step_as(done, seat), sort_keys=True))
        pages.append(page(done, before, seat))
    if seen[0] != seen[1]:
        return False
    assert views[0] == views[1], f"{seat} tells apart {action}:\n{views[0]}\n{views[1]}"
    assert pages[0] == pages[1]
    return True


def twin_of(game: Game, action: Action, seat: str, rng: random.Random, swaps: int) -> Game:
    """``game`` with ``swaps`` hidden cards moved one after another; the mover's own cards
    decide most of what a seat must not learn, so most swaps take one of them."""
    twin = game
    for _ in range(swaps):
        places = hidden_places(twin, seat, action)
        mover = [p for p in places if p[0] == "hand" and p[1] == game.seat(action.player)]
        first = rng.choice(mover) if mover and rng.random() < 0.7 else rng.choice(places)
        others = [p for p in places if p[:2] != first[:2]]
        if others:
            twin = swapped(twin, first, rng.choice(others))
    return twin


def check_seat_view(variant: str, seed: int, moves: int, who: int, swaps: int) -> str:
    """One example: a game of ``variant`` played ``moves`` random moves from ``seed``, a
    move picked, and a twin with ``swaps`` hidden cards moved for seat ``who``: the
    outcome, ``same`` (asserted alike), ``told apart`` (the seat may tell them apart) or
    ``over`` (the round ended first)."""
    rng = random.Random(seed)
    game = play_on(Game(NAMES, seed=seed, rules=load_rules(variant)), rng, moves)
    if game.round_over:
        return "over"
    action = pick(game, rng)
    seat = NAMES[who]
    same = check_pair(game, twin_of(game, action, seat, rng, swaps), action, seat)
    return "same" if same else "told apart"
