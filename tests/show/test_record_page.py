"""A record's page in headless Chromium: seed 002's worked game stepped through, the hands
and scores at chosen steps, the rules each action cites, the changes highlighted, and
"view as" (HIDDEN-1, with CHAL-1's one look for the challenger)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from unoformal.rulebook.table import CLASSIC

from .helpers import SEED002, go_to, seat_cards, seat_score, tokens, view_as, write_page

# Seed 002's game (docs: the worked example): dealt, You wins on the 19th action with 127.
DEALT = {"You": ["R3", "Y5", "Y+2", "G7", "B1", "BS", "W"],
         "Ada": ["RS", "Y2", "Y3", "Y9", "G0", "G4", "W+4"],
         "Bo": ["Y7", "Y8", "G2", "GR", "B6", "B9", "W"]}
CHALLENGE = 18  # You challenges Ada's Wild Draw Four: upheld (CHAL-2), Ada draws 4


@pytest.fixture(scope="module")
def page(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return write_page(tmp_path_factory.mktemp("seed002"), str(SEED002))


def test_the_deal_shows_every_hand_in_the_referee_view(page: Path, open_page: Any) -> None:
    driver = open_page(page)
    assert driver.find_element("id", "step-label").text == "step 0 of 19"
    for seat, hand in DEALT.items():
        assert seat_cards(driver, seat) == hand
        assert seat_score(driver, seat) == 0
    assert driver.find_element("id", "action").text == "the deal"
    assert "DEAL-3" in tokens(driver, "#rules")
    assert driver.get_log("browser") == []  # no script error, no CSP refusal


def test_stepping_shows_the_action_its_rules_and_what_changed(page: Path,
                                                               open_page: Any) -> None:
    driver = open_page(page)
    driver.find_element("id", "next").click()
    assert driver.find_element("id", "action").text == "You play R3"
    rules = driver.find_element("id", "rules").text
    assert "PLAY-1 by-color: a card played on the current color" in rules
    assert CLASSIC.entry("PLAY-1").words() in rules  # the table's words
    changed = {e.get_attribute("data-field")
               for e in driver.find_elements("css selector", ".field.changed")}
    assert changed == {"to_play", "top", "discard_pile"}
    you = driver.find_element("css selector", '.seat[data-seat="You"]')
    assert "changed" in you.get_attribute("class").split()
    assert "gave R3" in you.text
    driver.find_element("id", "prev").click()
    assert driver.find_element("id", "action").text == "the deal"


def test_the_last_step_scores_127_for_you(page: Path, open_page: Any) -> None:
    driver = open_page(page)
    driver.find_element("id", "last").click()
    assert driver.find_element("id", "action").text == "You play W blue"
    assert (seat_score(driver, "You"), seat_score(driver, "Ada"), seat_score(driver, "Bo")) \
        == (127, 0, 0)
    assert seat_cards(driver, "You") == []
    assert seat_cards(driver, "Ada") == ["R8", "RS", "R+2", "Y3", "G0", "G5"]
    assert {"END-1", "SCORE-1"} <= tokens(driver, "#rules")
    score = driver.find_element("css selector", '.seat[data-seat="You"] .score')
    assert "changed" in score.get_attribute("class").split()


def test_the_slider_and_the_keys_move_along_the_trace(page: Path, open_page: Any) -> None:
    driver = open_page(page)
    go_to(driver, 13)
    assert driver.find_element("id", "action").text == "You play Y+2"
    assert seat_cards(driver, "Bo") == ["R4", "R9", "Y8", "G2", "B6", "W"]  # drew 2 (D2-1)
    driver.execute_script("const s = document.getElementById('slider'); s.value = '17';"
                          "s.dispatchEvent(new Event('input'));")
    assert driver.find_element("id", "action").text == "Ada play W+4 red"
    # Ada held Y3 on a yellow discard: a bluff (WD4-1), which You's challenge shows.
    assert "WD4-1 bluff" in driver.find_element("id", "rules").text


def test_view_as_shows_only_own_cards_and_hand_sizes(page: Path, open_page: Any) -> None:
    driver = open_page(page)
    view_as(driver, "You")
    seen = tokens(driver)
    for seat in ("Ada", "Bo"):
        others = set(DEALT[seat]) - set(DEALT["You"])
        assert not others & seen, f"{seat}'s cards visible to You"
        assert seat_cards(driver, seat) == []
        assert "7 cards" in driver.find_element("css selector",
                                                f'.seat[data-seat="{seat}"]').text
    assert seat_cards(driver, "You") == DEALT["You"]
    view_as(driver, "")  # back to the referee's view: the others' cards are there again
    assert set(DEALT["Ada"]) <= tokens(driver)


def test_the_challenger_alone_sees_the_offenders_hand_once(page: Path,
                                                           open_page: Any) -> None:
    driver = open_page(page)
    go_to(driver, CHALLENGE)
    view_as(driver, "You")
    reveal = driver.find_element("id", "reveal").text
    assert "CHAL-1" in reveal and "Ada" in reveal and {"Y3", "G0"} <= set(reveal.split())
    view_as(driver, "Bo")
    assert driver.find_elements("id", "reveal") == []
    assert not {"Y3", "G0"} & tokens(driver)
    view_as(driver, "You")
    driver.find_element("id", "next").click()  # once: the next step shows it no more
    assert driver.find_elements("id", "reveal") == []
    assert not {"Y3", "G0"} & tokens(driver)
