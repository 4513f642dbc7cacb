"""HIDDEN-1 as a property: two games one seat cannot tell apart look the same to it.

Two states differ only in cards the seat may not see (a card of another hand swapped with
one of the draw pile or of a third hand). The same move is made in both; where the seat
observes the same (its own hand, every public field, the move, its outcome and ruling,
CHAL-1's look if it is the challenger's), the seat's view of the step, and the whole page
built from it, must be byte-identical. The observation is read from the engine's states,
not from the views under test, so a view that lets anything else through (a coverage
label, a refusal's words) fails here.
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from unoformal.engine.actions import Action, ActionType
from unoformal.engine.game import Game
from unoformal.engine.record import game_from_record, load_record, record_actions
from unoformal.rulebook.variants import VARIANTS, load_rules
from unoformal.show import trace
from unoformal.show.page import render
from unoformal.show.seat import page_as, step_as

from .helpers import ROOT, view_as, write_page

NAMES = ["An", "Bo", "Cy"]
RECORDS = ROOT / "tests" / "records"


def observed(game: Game, seat: str) -> dict[str, Any]:
    """What ``seat`` observes of a state, read from the engine: every public field (the
    round's points among them), the hand sizes, its own hand and the card it drew."""
    data = game.state_json()
    out = {k: v for k, v in data.items() if k not in ("hands", "text")}
    out["sizes"] = {n: len(h) for n, h in data["hands"].items()}
    out["own"] = data["hands"][seat]
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
            "steps": [done], "table": trace.table_data(game.rules, trace.cited([done]))}
    return render(page_as(data, seat))


def hidden_places(game: Game, seat: str, keep: Action) -> list[tuple[str, int, int]]:
    """Where a card the seat may not see lies: (``hand``, player, index) of the other
    hands, less one copy of the card ``keep`` plays and the card just drawn, and
    (``pile``, 0, index) of the draw pile."""
    out: list[tuple[str, int, int]] = [("pile", 0, i) for i in range(len(game.pile))]
    me = game.seat(seat)
    for p, hand in enumerate(game.hands):
        if p == me:
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


@settings(max_examples=400, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow])
@given(variant=st.sampled_from(sorted(VARIANTS)), seed=st.integers(0, 2**32),
       moves=st.integers(0, 80), who=st.integers(0, 2), swaps=st.integers(1, 10))
def test_two_games_a_seat_cannot_tell_apart_look_the_same_to_it(
        variant: str, seed: int, moves: int, who: int, swaps: int) -> None:
    rng = random.Random(seed)
    game = play_on(Game(NAMES, seed=seed, rules=load_rules(variant)), rng, moves)
    if game.round_over:
        return
    action = pick(game, rng)
    seat = NAMES[who]
    check_pair(game, twin_of(game, action, seat, rng, swaps), action, seat)


def _at(path: str, index: int) -> tuple[Game, Action]:
    """The state of a record just before its action ``index``, and that action."""
    record = load_record(RECORDS / path)
    game = game_from_record(record)
    actions = list(record_actions(record))
    for action in actions[:index]:
        game.apply(action)
    return game, actions[index]


def _cards(game: Game, player: str) -> list[str]:
    return [game.deck.code(c) for c in game.hands[game.seat(player)]]


def test_the_victim_of_a_wild_draw_four_cannot_see_whether_it_was_a_bluff() -> None:
    """Issue 39's first leak: the W+4's WD4-1 label (bluff or legal) on the victim's page
    before the challenge. The offender's card of the current color is swapped with one of
    another color from the pile: legal in one game, a bluff in the other."""
    game, action = _at("seed000_s09_challenge_wins.json", 0)
    color = game.state_json()["color"][0].upper()
    offender = action.player
    hand = _cards(game, offender)
    mine = next(i for i, c in enumerate(hand) if c[0] == color)
    pile = [game.deck.code(c) for c in game.pile]
    other = next(i for i, c in enumerate(pile) if c[0] not in (color, "W"))
    views: dict[int, set[str]] = {}
    for seat in game.names:
        if seat != offender:
            twin = swapped(game, ("hand", game.seat(offender), mine), ("pile", 0, other))
            assert check_pair(game, twin, action, seat)
    # the offender itself knows: its own hand differs, and its view says which it was
    twin = swapped(game, ("hand", game.seat(offender), mine), ("pile", 0, other))
    for start in (game, twin):
        _, done = trace.advance(start.copy(), action)
        views[len(views)] = {lab[1] for lab in step_as(done, offender)["labels"]}
    assert "bluff" in views[0] and "legal" in views[1]


def test_the_challenge_makes_its_verdict_public() -> None:
    """Once a challenge is decided, what it judged (WD4-1 bluff) is every seat's."""
    game, action = _at("seed000_s09_challenge_wins.json", 0)
    game.apply(action)
    challenge = Action.parse(f"{game.to_play} challenge")
    _, done = trace.advance(game, challenge)
    for seat in game.names:
        assert ["WD4-1", "bluff"] in [lab[:2] for lab in step_as(done, seat)["labels"]]


def test_a_refused_wild_draw_four_names_the_blocking_card_to_its_player_alone() -> None:
    """Under rlcard a W+4 held with a playable card is refused; the words name that card
    to the player, and the other seats read the ruling alone."""
    rules = load_rules("rlcard")
    for seed in range(200):
        game = Game(NAMES, seed=seed, rules=rules)
        player = game.to_play
        if "W+4" in _cards(game, player):
            break
    else:
        pytest.fail("no deal with a W+4 in the first player's hand")
    action = Action.parse(f"{player} play W+4 red")
    _, done = trace.advance(game.copy(), action)
    if done["refused"] is None:
        pytest.skip("the W+4 was legal in this deal")
    assert done["refused"]["rule"] == "WD4-1"
    mine = step_as(done, player)["refused"]
    assert "holding" in mine["message"]
    for seat in NAMES:
        if seat != player:
            theirs = step_as(done, seat)["refused"]
            assert theirs == {"rule": "WD4-1", "causes": [],
                              "message": f"{player}'s move is refused: it breaks WD4-1"}
            assert not set(_cards(game, player)) & set(theirs["message"].split())


def test_the_victims_unanswerable_draw_card_is_its_own() -> None:
    """NOSTACK-1's victim-holds-draw-card is counted when the victim accepts: what its
    hand holds, for its eyes only."""
    rng = random.Random(5)
    found = 0
    for seed in range(400):
        game = play_on(Game(NAMES, seed=seed), rng, rng.randrange(0, 60))
        accepts = [a for a in game.legal_actions() if a.type is ActionType.ACCEPT]
        if game.round_over or not accepts:
            continue
        _, done = trace.advance(game.copy(), accepts[0])
        if ["NOSTACK-1", "victim-holds-draw-card"] not in [lab[:2] for lab in done["labels"]]:
            continue
        found += 1
        for seat in NAMES:
            shown = [lab[:2] for lab in step_as(done, seat)["labels"]]
            assert (["NOSTACK-1", "victim-holds-draw-card"] in shown) == \
                (seat == accepts[0].player)
    assert found


@pytest.mark.parametrize("name", ["seed000_s09_challenge_wins.json", "seed002_whole_game.json",
                                  "rlcard_two_1.json"])
def test_the_pages_view_as_control_shows_what_the_seats_own_page_shows(
        tmp_path: Path, open_page: Any, name: str) -> None:
    """The referee page's "view as" control and a seat's own page (``--as``) show the
    same text at every step: the control hides what the seat's page leaves out."""
    record = RECORDS / name
    players = load_record(record)["players"]
    referee = write_page(tmp_path, str(record), name="referee.html")
    seen: dict[str, list[str]] = {}
    for seat in players:
        driver = open_page(write_page(tmp_path, str(record), "--as", seat, name=f"{seat}.html"))
        seen[seat] = _every_step(driver)
    driver = open_page(referee)
    for seat in players:
        view_as(driver, seat)
        assert _every_step(driver) == seen[seat], seat


def _every_step(driver: Any) -> list[str]:
    from selenium.webdriver.common.keys import Keys

    body = driver.find_element("tag name", "body")
    body.send_keys(Keys.HOME)
    texts = [driver.find_element("id", "step").text]
    while not driver.find_element("id", "step-label").text.startswith(
            f"step {len(texts) - 1} of {len(texts) - 1}"):
        body.send_keys(Keys.ARROW_RIGHT)
        texts.append(driver.find_element("id", "step").text)
    return texts
