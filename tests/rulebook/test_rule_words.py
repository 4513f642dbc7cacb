"""A rule's words (``Rule.words``): its text with the entry's own values filled in, and a
placeholder that names no value of the entry refused listing exactly the values it has."""

from __future__ import annotations

import dataclasses

import pytest

from unoformal.rulebook.table import CLASSIC
from unoformal.rulebook.words import TemplateError


def test_deck_2_the_words_fill_in_the_entrys_values() -> None:
    players = dataclasses.replace(CLASSIC.players, text="{minimum} to {maximum} players",
                                  enabled=False)
    assert players.words() == "2 to 10 players"
    assert dataclasses.replace(players, text="{enabled?on|off}").words() == "off"


def test_deck_2_a_placeholder_naming_no_value_lists_the_entrys_values() -> None:
    # The table's author reads this when an entry's text names a field it lacks.
    wrong = dataclasses.replace(CLASSIC.players, text="{minimum} to {most} players")
    with pytest.raises(TemplateError) as info:
        wrong.words()
    assert info.value.args == (
        "placeholder {most} names no field (has ['enabled', 'maximum', 'minimum'])",)
