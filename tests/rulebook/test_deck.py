"""DECK-1 and SCORE-1 as the deck states them: each face's points, read from the table.

Each test builds its own table (a copy of classic, or a variant), so the deck is built
from the table in the test itself, not taken from the decks built when the package was
imported."""

from __future__ import annotations

import pytest

from unoformal.rulebook.deck import Deck
from unoformal.rulebook.table import CLASSIC
from unoformal.rulebook.variants import derive


def _points(overrides: dict[str, dict[str, object]]) -> dict[str, int]:
    deck = Deck.of(derive(CLASSIC, "fresh", "", overrides))
    return {face.code: points for face, points in zip(deck.faces, deck.points, strict=True)}


def test_score_1_number_cards_score_their_face_value_zero_included() -> None:
    points = _points({})
    assert [points[f"R{rank}"] for rank in range(10)] == list(range(10))
    assert points["B0"] == 0 and points["Y9"] == 9


def test_score_1_action_cards_20_wild_cards_50() -> None:
    points = _points({})
    assert {points[c] for c in ("RS", "GR", "B+2", "YS")} == {20}
    assert points["W"] == points["W+4"] == 50


@pytest.mark.parametrize(("overrides", "expected"), [
    ({"number_face_value": False}, {"R0": 0, "R7": 0, "RS": 20, "W": 50}),
    ({"action_points": 10, "wild_points": 40}, {"R0": 0, "R7": 7, "RS": 10, "W+4": 40}),
])
def test_score_1_a_variants_values_reach_the_deck(overrides: dict[str, object],
                                                  expected: dict[str, int]) -> None:
    points = _points({"SCORE-1": overrides})
    assert {code: points[code] for code in expected} == expected
