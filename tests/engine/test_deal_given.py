"""A game dealt from stated cards (a record's ``deal``), pinned whole, each case found by
the engine mutation score: the refusals of a deal's shape (DEAL-2) and of cards that are
not exactly the deck (DECK-1), word for word with their rule, the defaults for a deal that
leaves out its hands or its draw pile, and what SCORE-1 makes a number card worth."""

from __future__ import annotations

from typing import Any

import pytest

from unoformal.engine.game import Game
from unoformal.errors import InvalidInputError
from unoformal.rulebook.deck import Deck
from unoformal.rulebook.table import CLASSIC
from unoformal.rulebook.variants import derive

from .helpers import deck_codes, full_deal

SHAPE = "deal must be {\"hands\": {...}, \"draw_pile\": [...]}"


def _refusal(deal: Any) -> InvalidInputError:
    with pytest.raises(InvalidInputError) as info:
        Game(["A", "B"], dealer="B", deal=deal)
    return info.value


@pytest.mark.parametrize("deal", [
    ["R1"],
    {**full_deal({"A": ["R1"]}, ("R7",)), "discard_pile": []},
])
def test_deal_2_a_deal_not_of_hands_and_draw_pile_is_refused_in_words(deal: Any) -> None:
    # the second is a whole deck with one key too many: the extra key alone refuses it
    err = _refusal(deal)
    assert (err.message, err.rule_id) == (SHAPE, "DEAL-2")


def test_deal_2_hands_that_are_not_a_mapping_are_refused_in_words() -> None:
    err = _refusal({"hands": [["R1"]], "draw_pile": deck_codes()})
    assert (err.message, err.rule_id) == (
        "deal.hands must map player names to card lists", "DEAL-2")


def test_deal_2_a_deal_without_hands_deals_every_seat_nothing() -> None:
    # "hands" left out means no cards in hand, not a malformed deal
    game = Game(["A", "B"], dealer="B", deal={"draw_pile": deck_codes()})
    assert game.hands == [[], []]
    assert len(game.pile) + len(game.discard) == len(deck_codes())


def test_deal_2_a_deal_without_a_draw_pile_has_no_start_card() -> None:
    # "draw_pile" left out is an empty pile (DEAL-2), not a pile that is not a list (DECK-1)
    err = _refusal({"hands": {"A": deck_codes()}})
    assert (err.message, err.rule_id) == (
        "deal.draw_pile is empty: no start card to turn", "DEAL-2")


def test_deck_1_a_bad_code_in_a_hand_is_named_by_seat_and_index() -> None:
    deal = full_deal({"A": ["R1"]}, ("R7",))
    deal["hands"]["A"].append("X9")
    err = _refusal(deal)
    assert (err.message, err.rule_id) == (
        "deal.hands.A[1]: unknown card code 'X9' (expected R0-R9, RS, RR, R+2 and likewise "
        "Y, G, B; W; W+4)", "DECK-1")


def test_deck_1_a_deal_with_missing_and_extra_cards_is_refused_word_for_word() -> None:
    deal = full_deal({"A": ["R1"]}, ("R7",))
    deal["draw_pile"].remove("G5")
    deal["draw_pile"].remove("Y2")
    deal["draw_pile"] += ["B9", "W"]
    err = _refusal(deal)
    assert (err.message, err.rule_id) == (
        "deal is not exactly the deck: 1 missing Y2, 1 missing G5, 1 extra B9, 1 extra W",
        "DECK-1")


def test_score_1_a_zero_is_worth_nothing_and_faces_count_only_when_the_rule_says() -> None:
    classic = Deck.of(CLASSIC)
    assert classic.points[classic.face_id("R0")] == 0
    assert classic.points[classic.face_id("R7")] == 7
    assert [classic.points[classic.face_id(c)] for c in ("RS", "G+2", "W", "W+4")] == \
        [20, 20, 50, 50]  # SCORE-1: action cards 20, wild cards 50
    flat = derive(CLASSIC, "no-face-value", "SCORE-1 counts number cards as 0",
                  {"SCORE-1": {"number_face_value": False}})
    deck = Deck.of(flat)
    assert deck.points[deck.face_id("R7")] == 0
    assert deck.points[deck.face_id("RS")] == 20
