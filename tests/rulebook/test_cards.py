"""DECK-1's card codes: a code that is not one is named in the error, cut to 40 characters."""

from __future__ import annotations

import pytest

from unoformal.rulebook.cards import parse_face

EXPECTED = "(expected R0-R9, RS, RR, R+2 and likewise Y, G, B; W; W+4)"


@pytest.mark.parametrize(("code", "shown"), [
    ("Q9", "'Q9'"),
    ("X" * 38, repr("X" * 38)),  # 40 characters with its quotes: shown whole
    ("X" * 39, "'" + "X" * 36 + "..."),  # 41: cut to 37, then "..."
    ("Y" * 500, "'" + "Y" * 36 + "..."),
])
def test_deck_1_an_unknown_code_is_named_whole_up_to_40_characters(code: str,
                                                                    shown: str) -> None:
    with pytest.raises(ValueError) as info:
        parse_face(code)
    assert str(info.value) == f"unknown card code {shown} {EXPECTED}"
