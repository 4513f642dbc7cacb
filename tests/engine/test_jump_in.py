"""JUMP-IN, the house rule, in the engine: a player holding a card identical to the top
plays it out of turn while the player to move has yet to play or draw; play goes on from
them; the refusals a user reads; a record with a jump replays; the bots and the terminal
game jump in; and the classic table, where it is off, unchanged."""

from __future__ import annotations

import random

import pytest

from unoformal.engine.actions import Action, ActionType
from unoformal.engine.game import Game
from unoformal.engine.record import replay, to_record
from unoformal.errors import IllegalActionError
from unoformal.playing.bots import GreedyBot, make_bot
from unoformal.playing.session import play as session_play
from unoformal.playing.session import sit
from unoformal.playing.simulate import play_game
from unoformal.rulebook.table import RuleTable
from unoformal.rulebook.variants import load_rules

from .helpers import both_house_rules, make_game, play

JUMP_IN = load_rules("jump-in")
ABCD = ("A", "B", "C", "D")
# B deals, so C, on the dealer's left, moves first (DEAL-3), on the start card R4.
HANDS = {"C": ["G4", "Y2", "G2"], "D": ["Y1", "Y5"], "A": ["R4", "B6", "RS", "B9"],
         "B": ["G5", "G6", "G7", "G8", "G9"]}


def _game(hands: dict[str, list[str]] = HANDS, rules: RuleTable = JUMP_IN) -> Game:
    return make_game(ABCD, "B", hands, ["R4", "Y9", "Y8"], rules=rules, rest_to="B")


def test_jump_in_a_player_holding_the_top_card_may_play_it_out_of_turn() -> None:
    game = _game()
    assert Action("A", ActionType.PLAY, "R4") in game.legal_actions()
    assert Action("A", ActionType.PLAY, "R4") in game.legal_actions("A")
    assert not [a for a in game.legal_actions("A") if a.card in ("B6", "RS", "B9")]


def test_jump_in_play_goes_on_from_the_jumper_and_the_players_between_lose_their_turn() -> None:
    game = _game()
    play(game, "A play R4")  # C was to move; A jumps in
    assert game.to_play == "B" and sorted(game.hand("C")) == ["G2", "G4", "Y2"]
    assert sorted(game.hand("A")) == ["B6", "B9", "RS"]


def test_jump_in_a_skip_played_by_jumping_skips_the_player_after_the_jumper() -> None:
    hands = {**HANDS, "C": ["RS", "Y2", "G2"], "A": ["RS", "B6", "B9"]}
    game = _game(hands)
    play(game, "C play RS")  # D is skipped: A to move
    assert game.to_play == "A"
    hands = {**HANDS, "C": ["RS", "Y2", "G2"], "D": ["RS", "Y5"], "A": ["R4", "B6"]}
    game = _game(hands)
    play(game, "C play RS", "D play RS")  # A was to move; D jumps in, skipping A
    assert game.to_play == "B"


def test_jump_in_the_player_who_has_just_played_may_jump_in_again() -> None:
    game = _game({**HANDS, "C": ["G4", "G4", "Y2"]})
    play(game, "C play G4")
    assert Action("C", ActionType.PLAY, "G4") in game.legal_actions()
    play(game, "C play G4")
    assert game.to_play == "D"


@pytest.mark.parametrize(("texts", "message"), [
    ((), "A play B6: it is C's turn, not A's: out of turn only a card identical to the top, "
         "R4, may be played (jumping in)"),
    (("C draw",), "A play R4: it is C's turn, not A's, and nobody jumps in once they have "
                  "drawn or while a card waits for its answer or color"),
])
def test_jump_in_a_play_out_of_turn_is_refused_in_its_words(
        texts: tuple[str, ...], message: str) -> None:
    game = _game()
    play(game, *texts)
    before = game.to_text()
    card = "B6" if not texts else "R4"
    with pytest.raises(IllegalActionError) as info:
        game.apply(Action("A", ActionType.PLAY, card))
    assert (info.value.message, info.value.rule_id) == (message, "JUMP-IN")
    assert game.to_text() == before


def test_jump_in_a_wild_is_never_jumped_in_with() -> None:
    game = make_game(ABCD, "B", {"C": ["W", "Y2"], "D": ["W", "Y5"]}, ["R4"],
                     rules=JUMP_IN, rest_to="B")
    play(game, "C play W green")
    with pytest.raises(IllegalActionError) as info:
        game.apply(Action.parse("A play W blue"))
    assert (info.value.message, info.value.rule_id) == ("A play W blue: it is D's turn, not "
                                                        "A's", "PLAY-1")


def test_classic_refuses_a_play_out_of_turn_as_before() -> None:
    game = _game(rules=load_rules("classic"))
    assert Action("A", ActionType.PLAY, "R4") not in game.legal_actions()
    with pytest.raises(IllegalActionError) as info:
        game.apply(Action.parse("A play R4"))
    assert (info.value.message, info.value.rule_id) == ("A play R4: it is C's turn, not A's",
                                                        "PLAY-1")


def test_jump_in_a_record_with_a_jump_replays_to_the_same_state() -> None:
    game = _game()
    play(game, "A play R4", "B draw")
    again = replay(to_record(game), JUMP_IN)
    assert again.error is None and again.game.to_text() == game.to_text()


def test_the_greedy_bot_jumps_in_when_it_can() -> None:
    game = _game()
    options = game.legal_actions("A", penalties=False)
    assert GreedyBot(random.Random(0)).react(game, "A", options) == \
        Action("A", ActionType.PLAY, "R4")


@pytest.mark.parametrize("bot", ["random", "greedy"])
def test_jump_in_games_run_to_the_end_and_the_bots_jump_in(bot: str) -> None:
    game = Game(ABCD, seed=11, rules=JUMP_IN)
    game.ran = []  # what ran, counted: a jump shows JUMP-IN's label
    play_game(game, [make_bot(bot, random.Random(i)) for i in range(4)])
    assert game.game_over and ("JUMP-IN", "jump-in") in game.ran


def test_the_terminal_game_asks_the_human_out_of_turn_and_lets_them_jump_in() -> None:
    game = _game()
    lines = iter(["play R4"])
    said: list[str] = []
    table = sit(game, "A", ["greedy"], 0, lambda prompt: next(lines, None), said.append)
    session_play(table)  # the input then ends: the session stops
    assert game.history[0] == Action("A", ActionType.PLAY, "R4")
    assert any("A play R4" in line for line in said)


# A user's table with both house rules on: a jump with a 7 or a 0 is the exchange's twin
# (jump_swap_hands), which no shipped variant holds. A 0 has one copy per color (DECK-1),
# so nobody ever holds the twin of a 0 on top: jump_pass_hands is built but never offered.
BOTH = both_house_rules()


def test_both_house_rules_a_seven_played_by_jumping_swaps_hands_with_the_target() -> None:
    hands = {**HANDS, "C": ["R7", "Y2", "G2"], "A": ["R7", "B6", "RS", "B9"]}
    game = _game(hands, BOTH)
    play(game, "C play R7 B")  # B takes C's [Y2, G2], C B's five cards; D to move
    assert game.to_play == "D" and sorted(game.hand("B")) == ["G2", "Y2"]
    jumps = [a for a in game.legal_actions("A") if a.card == "R7"]
    assert sorted(a.target or "" for a in jumps) == ["B", "C", "D"]  # never A themself
    game.ran = []
    play(game, "A play R7 D")  # A jumps in and swaps with D: B, after A, is to move
    assert game.to_play == "B"
    assert sorted(game.hand("A")) == ["Y1", "Y5"]
    assert sorted(game.hand("D")) == ["B6", "B9", "RS"]
    assert ("JUMP-IN", "jump-in") in game.ran and any(r == "SEVEN-O" for r, _ in game.ran)
    again = replay(to_record(game), BOTH)
    assert again.error is None and again.game.to_text() == game.to_text()

