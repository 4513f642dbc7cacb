"""Every action ``legal_actions`` lists reads back from its text as itself, and the text
applied is accepted, under every shipped variant and for every name a game allows. A
name that is one of the action text's own words (``uno``, a color, a card code, a verb)
would break that (``Bob play G7 uno`` under Seven-O read as a swap said with UNO and no
target), so every table refuses it when the game starts, naming ``players``."""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from unoformal.engine.actions import Action, ActionType, text_word
from unoformal.engine.game import Game
from unoformal.engine.record import game_from_record
from unoformal.errors import InvalidInputError
from unoformal.rulebook.cards import Color
from unoformal.rulebook.variants import VARIANTS, load_rules

from .helpers import make_game

# The words the action text reads as themselves, and names a reader might confuse with
# them that the text does not (case, a letter more or less): the latter are allowed.
RESERVED = list(dict.fromkeys(["uno", *(c.value for c in Color),
                               *(t.value for t in ActionType), "R5", "G7", "B0", "YS", "RR",
                               "W"]))
ALLOWED = ["Uno", "UNO", "unos", "Red", "GREEN", "r5", "R10", "W4", "WW", "Play", "plays",
           "x", "0", "7", "a.b", "Z-9", "draw2", "R", "G", "Y", "B", "catch-", "uno_"]


@pytest.mark.parametrize("variant", sorted(VARIANTS))
@pytest.mark.parametrize("name", RESERVED)
def test_a_name_the_action_text_reads_as_a_word_of_its_own_is_refused(
        variant: str, name: str) -> None:
    with pytest.raises(InvalidInputError) as info:
        Game(["Ann", name, "Cy"], rules=load_rules(variant))
    err = info.value
    assert (err.key, err.rule_id) == ("players", "DECK-2")
    assert err.message.startswith(f"player {name!r}: the action text reads {name!r} as ")
    assert err.message.endswith("so no player may be named so; choose another name")


@pytest.mark.parametrize("name", ["uno", "red", "R5", "draw"])
def test_a_record_or_a_state_text_naming_such_a_player_is_refused_naming_players(
        name: str) -> None:
    record = {"rules": "seven-o", "players": ["Ann", name], "seed": 3, "actions": []}
    with pytest.raises(InvalidInputError) as info:
        game_from_record(record)
    assert (info.value.key, info.value.rule_id) == ("players", "DECK-2")
    text = Game(["Ann", "Bob"], seed=3).to_text()
    spoiled = text.replace("Bob", name)  # "Bob" is only ever a name in this text
    with pytest.raises(InvalidInputError) as info:
        Game.from_text(spoiled)
    assert (info.value.key, info.value.rule_id) == ("players", "DECK-2")


@pytest.mark.parametrize("name", ALLOWED)
def test_a_name_like_a_word_but_not_one_is_free(name: str) -> None:
    assert text_word(name) is None
    assert Game(["Ann", name], rules=load_rules("seven-o")).names == ["Ann", name]


def test_the_reported_swap_with_a_player_named_uno_cannot_arise() -> None:
    # Seven-O listed "Bob play G7 uno" (a swap with the player "uno"); its text was read
    # as a swap said with UNO and no target, and refused
    with pytest.raises(InvalidInputError, match="'uno' as the UNO call"):
        Game(["Ann", "Bob", "uno"], seed=0, rules=load_rules("seven-o"))


def _check_listed(game: Game) -> list[Action]:
    """Every action listed now reads back from its text and its JSON as itself, and its
    text, applied to a copy, is accepted."""
    listed = game.legal_actions()
    for action in listed:
        text = str(action)
        parsed = Action.parse(text)
        assert parsed == action, (text, parsed)
        assert Action.from_json(action.to_json()) == action
        game.copy().apply(parsed)  # raises if the text is refused
    return listed


NAMES = st.lists(st.sampled_from([*ALLOWED, "Ann", "Bob"]), min_size=2, max_size=4,
                 unique=True)


@settings(max_examples=60, deadline=None, database=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(sorted(VARIANTS)), NAMES, st.none() | st.sampled_from(RESERVED),
       st.integers(0, 2**32), st.integers(0, 2**32))
@example("seven-o", ["Ann", "Bob"], "uno", 0, 0)  # the reported swap with "uno"
@example("seven-o", ["Ann", "Bob"], "red", 0, 0)  # a swap with "red"
@example("seven-o", ["Ann", "Bob", "Red", "UNO"], None, 0, 0)
def test_every_listed_action_reads_back_and_is_accepted(
        variant: str, names: list[str], word: str | None, seed: int, moves: int) -> None:
    # with a reserved word among the names the game must not start; else every action
    # listed reads back and is accepted
    names = names if word is None else [*names[:1], word, *names[1:]]
    try:
        game = Game(names, seed=seed, rules=load_rules(variant))
    except InvalidInputError as err:
        assert word is not None and err.key == "players", err
        return
    assert word is None, f"a game started with a player named {word!r}"
    rng = random.Random(moves)
    for _ in range(40):  # bounded: a round's first forty moves
        if game.round_over:
            break
        listed = _check_listed(game)
        game.apply(Action.parse(str(rng.choice(listed))))



@pytest.mark.parametrize(("variant", "rule_id", "why"), [
    ("seven-o", "SEVEN-O", "only play_swap_hands does (the player to move plays a 7 and "
     "swaps hands with another player they choose)"),
    ("classic", "PLAY-1", "no play does in these rules"),
])
def test_a_target_named_with_a_card_whose_play_names_none_cites_the_plays_rule(
        variant: str, rule_id: str, why: str) -> None:
    # Reported: "Bob play G6 Cy" under Seven-O was refused citing UNO-1, the catch's rule,
    # as if a catch were the only move that names a player.
    game = make_game(("Ann", "Bob", "Cy"), "Ann", {"Bob": ["G6", "G7", "R1"]}, ["G2"],
                     rules=load_rules(variant), rest_to="Cy")
    before = game.to_text()
    with pytest.raises(InvalidInputError) as info:
        game.apply(Action.parse("Bob play G6 Cy"))
    err = info.value
    assert (err.message, err.rule_id) == (f"Bob play G6 Cy: play G6 names no player: {why}",
                                          rule_id)
    assert game.to_text() == before and err.state == before
