"""SEVEN-O, the house rule, in the engine: a 7 swaps hands with a chosen player, a 0
passes every hand on in the direction of play, neither as the last card; the UNO window
after an exchange; the target in the action text, a record and its refusals; the bots and
the terminal game; and the classic table, where it is off, unchanged."""

from __future__ import annotations

import random

import pytest

from unoformal.engine.actions import Action, ActionType
from unoformal.engine.game import Game
from unoformal.engine.record import replay, to_record
from unoformal.errors import IllegalActionError, InvalidInputError, UnoError
from unoformal.playing.bots import GreedyBot, make_bot
from unoformal.playing.session import parse
from unoformal.playing.simulate import play_game
from unoformal.rulebook.variants import load_rules

from .helpers import afresh, make_game, play

SEVEN_O = load_rules("seven-o")
ABCD = ("A", "B", "C", "D")
# B deals, so C, on the dealer's left, moves first (DEAL-3), on the start card R4.
HANDS = {"C": ["R7", "R0", "G2"], "D": ["Y1", "Y2"], "A": ["B5", "B6", "B8", "B9"],
         "B": ["G5", "G6", "G7", "G8", "G9"]}


def _game(hands: dict[str, list[str]] = HANDS, rules: object = SEVEN_O) -> Game:
    return make_game(ABCD, "B", hands, ["R4", "Y9", "Y8"], rules=rules, rest_to="B")  # type: ignore[arg-type]


def test_seven_o_a_7_swaps_the_players_hand_with_the_chosen_players() -> None:
    game = _game()
    a_hand, c_rest = game.hand("A"), sorted(["R0", "G2"])
    play(game, "C play R7 A")
    assert game.hand("C") == a_hand and sorted(game.hand("A")) == c_rest
    assert game.to_play == "D" and game.top is not None
    assert game.hand("D") == ["Y1", "Y2"]  # nobody else's hand changes


def test_seven_o_a_0_passes_every_hand_to_the_next_player_in_the_direction_of_play() -> None:
    game = _game()
    before = {name: game.hand(name) for name in ABCD}
    play(game, "C play R0")
    # left: C's hand (less the 0) goes to D, D's to A, A's to B, B's to C
    assert sorted(game.hand("D")) == sorted(["R7", "G2"])
    assert game.hand("A") == before["D"] and game.hand("B") == before["A"]
    assert game.hand("C") == before["B"] and game.to_play == "D"


def test_seven_o_a_0_after_a_reverse_passes_the_hands_the_other_way() -> None:
    hands = {"C": ["RR", "Y3", "G2"], "B": ["R0", "B1", "B2"], "D": ["Y1", "Y2"],
             "A": ["B5", "B6", "B8", "B9"]}
    game = make_game(ABCD, "B", hands, ["R4"], rules=SEVEN_O, rest_to="A")
    play(game, "C play RR")  # to the right: B moves next
    before = {name: game.hand(name) for name in ABCD}
    play(game, "B play R0")
    assert sorted(game.hand("A")) == ["B1", "B2"]  # B's goes right, to A
    assert game.hand("D") == before["A"] and game.hand("C") == before["D"]
    assert game.hand("B") == before["C"] and game.to_play == "A"


def test_seven_o_a_7_as_the_last_card_ends_the_round_and_exchanges_nothing() -> None:
    game = _game({**HANDS, "C": ["R7"]})
    d_hand = game.hand("D")
    play(game, "C play R7 D")
    assert game.round_over and game.hand("C") == [] and game.hand("D") == d_hand
    assert game.scores[game.names.index("C")] > 0


def test_seven_o_the_uno_window_closes_when_the_exchange_gives_its_player_more_cards() -> None:
    game = _game({**HANDS, "C": ["R7", "G2"]})
    play(game, "C play R7 A")  # no UNO said, and C now holds A's four cards
    assert game.uno_window is None
    assert not [a for a in game.legal_actions() if a.type is ActionType.CATCH]


def test_seven_o_the_uno_window_stays_open_on_a_hand_of_one_after_the_exchange() -> None:
    game = _game({**HANDS, "C": ["R7", "G2"], "D": ["Y1"]})
    play(game, "C play R7 D")  # C forgot UNO and takes D's single card
    assert game.hand("C") == ["Y1"] and game.uno_window == game.names.index("C")
    assert Action("A", ActionType.CATCH, target="C") in game.legal_actions()


def test_seven_o_the_target_is_offered_for_every_other_player_and_round_trips() -> None:
    game = _game()
    sevens = sorted(str(a) for a in game.legal_actions() if a.card == "R7")
    assert sevens == ["C play R7 A", "C play R7 B", "C play R7 D"]
    for text in sevens:
        assert str(Action.parse(text)) == text
        assert Action.from_json(Action.parse(text).to_json()) == Action.parse(text)


def test_seven_o_a_record_with_a_swap_replays_to_the_same_state() -> None:
    game = _game()
    play(game, "C play R7 A", "D draw")
    again = replay(to_record(game), SEVEN_O)
    assert again.error is None and again.game.to_text() == game.to_text()
    assert to_record(game)["actions"][0] == {"player": "C", "action": "play", "card": "R7",
                                             "target": "A"}


@pytest.mark.parametrize(("text", "error", "message", "rule_id"), [
    ("C play R7 C", IllegalActionError, "C play R7 C: C cannot swap hands with themself",
     "SEVEN-O"),
    ("C play R7", InvalidInputError, "C play R7: play R7 needs a target", "SEVEN-O"),
    ("C play G2 A", InvalidInputError, "C play G2 A: play G2 names no player: only "
     "play_swap_hands does (the player to move plays a 7 and swaps hands with another "
     "player they choose)", "SEVEN-O"),
    ("C play R7 Zed", InvalidInputError, "unknown target 'Zed'; players are A, B, C, D",
     "DECK-2"),
])
def test_seven_o_a_bad_target_is_refused_in_its_words_and_changes_nothing(
        text: str, error: type[UnoError], message: str, rule_id: str) -> None:
    game = _game()
    before = game.to_text()
    with pytest.raises(error) as info:
        game.apply(Action.parse(text))
    assert (info.value.message, info.value.rule_id) == (message, rule_id)
    assert game.to_text() == before


@pytest.mark.parametrize("fresh", [False, True])
def test_seven_o_refuses_a_player_named_like_a_color(fresh: bool) -> None:
    # fresh: a user's table with SEVEN-O on, met for the first time (the engine looks up
    # once per table which play names a target, so a table seen before asks no lookup)
    # "C play R7 red" would read as a 7 played with the color red: a color's name is a
    # word of the action text, refused as a name under every table (DECK-2)
    rules = afresh(SEVEN_O) if fresh else SEVEN_O
    classic = afresh(load_rules("classic")) if fresh else load_rules("classic")
    for table in (rules, classic):
        with pytest.raises(InvalidInputError) as info:
            Game(["A", "red"], rules=table)
        assert (info.value.rule_id, info.value.key) == ("DECK-2", "players")
        assert info.value.message == (
            "player 'red': the action text reads 'red' as the color a wild is played with "
            "('Ann play W red'), so no player may be named so; choose another name")


def test_classic_plays_a_7_and_a_0_as_any_number_card() -> None:
    game = _game(rules=load_rules("classic"))
    before = {name: game.hand(name) for name in ABCD}
    assert "C play R7" in {str(a) for a in game.legal_actions()}
    play(game, "C play R0")
    assert game.hand("D") == before["D"] and game.hand("A") == before["A"]


def test_the_greedy_bot_swaps_with_the_smallest_hand() -> None:
    game = _game({**HANDS, "C": ["R7", "Y9"]})
    options = [a for a in game.legal_actions("C", penalties=False) if a.card == "R7"]
    chosen = GreedyBot(random.Random(0)).choose(game, "C", options)
    assert chosen.target == "D"  # D holds 2 cards, A 4 and B the rest


def test_the_terminal_game_reads_a_swap_typed_by_the_human() -> None:
    game = _game()
    options = game.legal_actions("C")
    assert parse("play R7 B", options, "C") == Action("C", ActionType.PLAY, "R7", target="B")


@pytest.mark.parametrize("bot", ["random", "greedy"])
def test_seven_o_games_run_to_the_end_and_the_bots_swap(bot: str) -> None:
    game = Game(ABCD, seed=11, rules=SEVEN_O)
    play_game(game, [make_bot(bot, random.Random(i)) for i in range(4)])
    assert game.game_over
    assert any(a.type is ActionType.PLAY and a.target for a in game.history)
