"""HIDDEN-1 as a property (tests/fuzz/views.py): two games one seat cannot tell apart give
it the same view, step and page, byte for byte; and the leaks issue 39 reported, each
pinned on a game where it showed."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.fuzz.views import NAMES, check_pair, check_seat_view, play_on, swapped
from unoformal.engine.actions import Action, ActionType
from unoformal.engine.game import Game
from unoformal.engine.record import game_from_record, load_record, record_actions
from unoformal.rulebook.variants import VARIANTS, load_rules
from unoformal.show import trace
from unoformal.show.seat import step_as

from .helpers import ROOT, view_as, write_page

RECORDS = ROOT / "tests" / "records"


@settings(max_examples=400, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow])
@given(variant=st.sampled_from(sorted(VARIANTS)), seed=st.integers(0, 2**32),
       moves=st.integers(0, 80), who=st.integers(0, 2), swaps=st.integers(1, 10))
def test_two_games_a_seat_cannot_tell_apart_look_the_same_to_it(
        variant: str, seed: int, moves: int, who: int, swaps: int) -> None:
    check_seat_view(variant, seed, moves, who, swaps)


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


# --- HIDDEN-1's house rule (open-hands): a hand of fewer than 3 cards is face up to all

@settings(max_examples=150, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32), moves=st.integers(20, 120), who=st.integers(0, 2),
       swaps=st.integers(1, 10))
def test_open_hands_two_games_a_seat_cannot_tell_apart_look_the_same_to_it(
        seed: int, moves: int, who: int, swaps: int) -> None:
    check_seat_view("open-hands", seed, moves, who, swaps)


def _open_game() -> Game:
    from collections import Counter

    from unoformal.rulebook.deck import Deck

    rules = load_rules("open-hands")
    deck = Deck.of(rules)
    held = "R1,R2,R3/B1,B2/G1,G2,G3"
    rest = Counter(deck.code(f) for f in deck.cards())
    rest.subtract([*held.replace("/", ",").split(","), "R5"])
    text = (f"rules=open-hands players=An,Bo,Cy dealer=Cy round=1 turn=An dir=left "
            f"color=red phase=play hands={held} pile={','.join(sorted(rest.elements()))} "
            "discard=R5 scores=0,0,0 uno=- drawn=- pending=0 kind=- offender=- legal=1 "
            "prev=- reveal=- winner=- points=0 seed=0 shuffles=0")
    return Game.from_text(text, rules)


def test_open_hands_the_view_and_the_seats_page_show_a_hand_of_two_and_hide_one_of_three(
        ) -> None:
    game = _open_game()
    assert game.view("An").shown == {"Bo": ("B1", "B2")}
    assert game.view("Bo").shown == {}  # An's and Cy's hands hold 3
    classic = Game.from_text(game.to_text().replace("rules=open-hands", "rules=classic"))
    assert classic.view("An").shown == {}
    _, done = trace.advance(game.copy(), Action.parse("An play R1"))
    hands = step_as(done, "Bo", 3)["state"]["hands"]
    assert hands["An"] == ["R2", "R3"] and hands["Cy"] == ["?", "?", "?"]
    assert step_as(done, "Bo")["state"]["hands"]["An"] == ["?", "?"]  # classic's view
    # Cy's hand of 3 differs in a twin (G1 swapped with a card of the pile): Bo cannot
    # tell the two apart, and its view of the step is the same bytes
    twin = swapped(game, ("hand", 2, 0), ("pile", 0, 0))
    assert twin.hands[2] != game.hands[2]
    _, twin_done = trace.advance(twin.copy(), Action.parse("An play R1"))
    assert check_pair(game, twin, Action.parse("An play R1"), "Bo")
    assert step_as(twin_done, "Bo", 3) == step_as(done, "Bo", 3)
