"""The readings of the house rules that their wording leaves open, each a value of its
entry (issue 40): JUMP-IN's Draw Two jumped in on a Draw Two (``each``, the default, or
``adds``) and its UNO window (``closes``, the default, or ``stays-open``); SEVEN-O's 7
(``chosen``, the default, or ``next``). Each test is a worked example from the rule's
words: a small state, the move, the outcome the words say; none reads the commands. The
refusals a user reads under the non-default readings are pinned. The variant files of the
non-default readings are tests/data/readings/*.toml."""

from __future__ import annotations

from pathlib import Path

import pytest

from unoformal.engine.actions import Action, ActionType
from unoformal.engine.game import Game
from unoformal.errors import IllegalActionError
from unoformal.rulebook.table import JumpedDrawTwo, JumpWindow, RuleTable, SwapWith
from unoformal.rulebook.variants import load_rules

from .helpers import make_game, play, refused

READINGS = Path(__file__).parent.parent / "data" / "readings"
JUMP_IN = load_rules("jump-in")
ADDS = load_rules(str(READINGS / "jump-in-adds.toml"))
STAYS_OPEN = load_rules(str(READINGS / "jump-in-window-open.toml"))
SEVEN_O = load_rules("seven-o")
NEXT = load_rules(str(READINGS / "seven-o-next.toml"))
ABCD = ("A", "B", "C", "D")
# B deals, so C, on the dealer's left, moves first (DEAL-3), on the start card R4; play
# goes left: C, D, A, B. A holds what is left of the deck.
PILE = ["R4", "Y9", "Y8", "Y7", "Y6", "Y3"]


def _game(hands: dict[str, list[str]], rules: RuleTable) -> Game:
    return make_game(ABCD, "B", hands, PILE, rules=rules, rest_to="A")


def _sizes(game: Game) -> dict[str, int]:
    return {p: len(game.hand(p)) for p in "BCD"}


def test_the_shipped_variants_read_the_defaults_and_the_files_the_others() -> None:
    assert (JUMP_IN.jump_in.draw_two, JUMP_IN.jump_in.uno_window) == \
        (JumpedDrawTwo.EACH, JumpWindow.CLOSES)
    assert SEVEN_O.seven_o.swap_with is SwapWith.CHOSEN
    assert ADDS.jump_in.draw_two is JumpedDrawTwo.ADDS
    assert STAYS_OPEN.jump_in.uno_window is JumpWindow.STAYS_OPEN
    assert NEXT.seven_o.swap_with is SwapWith.NEXT


# --- JUMP-IN: a Draw Two jumped in on a Draw Two ----------------------------------------

D2_HANDS = {"C": ["R+2", "Y2", "G2"], "D": ["Y1", "Y5"], "B": ["G5", "G6", "R+2"]}


def test_each_the_first_victim_draws_2_at_once_and_the_jumpers_draw_two_hits_the_next() -> None:
    # "the first Draw Two's victim has drawn its own 2 already ... and keeps them"
    game = _game(D2_HANDS, JUMP_IN)
    play(game, "C play R+2")
    assert _sizes(game) == {"B": 3, "C": 2, "D": 4} and game.to_play == "A"
    # "hits the player after the jumper, who draws 2 and loses the turn"
    play(game, "B play R+2")
    assert _sizes(game) == {"B": 2, "C": 4, "D": 4} and game.to_play == "D"


def test_adds_the_jumpers_draw_two_adds_and_the_player_after_the_jumper_draws_the_total() -> None:
    # "A Draw Two's victim does not draw at once but accepts it first"
    game = _game(D2_HANDS, ADDS)
    play(game, "C play R+2")
    assert _sizes(game) == {"B": 3, "C": 2, "D": 2} and game.to_play == "D"
    assert Action("B", ActionType.PLAY, "R+2") in game.legal_actions()
    # "adds its 2 cards to those waiting: the player after the jumper draws the total and
    # the first victim draws nothing"
    play(game, "B play R+2")
    assert game.to_play == "C"
    play(game, "C accept")
    assert _sizes(game) == {"B": 2, "C": 6, "D": 2} and game.to_play == "D"


def test_adds_a_draw_two_on_nothing_waiting_is_accepted_by_its_victim() -> None:
    game = _game(D2_HANDS, ADDS)
    play(game, "C play R+2", "D accept")
    assert _sizes(game) == {"B": 3, "C": 2, "D": 4} and game.to_play == "A"


def test_adds_nobody_adds_to_a_draw_two_its_player_went_out_with() -> None:
    game = _game({**D2_HANDS, "C": ["R+2"]}, ADDS)
    play(game, "C play R+2")  # C goes out; D is to accept (END-1: resolved first)
    err = refused(game, "B play R+2", "JUMP-IN")
    assert err.message == "B play R+2: C went out with the Draw Two that waits: nobody adds to it"


def test_adds_a_jump_refused_while_a_wild_draw_four_waits_says_why() -> None:
    game = _game({**D2_HANDS, "C": ["W+4", "Y2", "G2"]}, ADDS)
    play(game, "C play W+4 red")
    err = refused(game, "B play R+2", "JUMP-IN")
    assert err.message == ("B play R+2: it is D's turn, not B's, and nobody jumps in once they "
                           "have drawn or while a card other than a Draw Two waits for its "
                           "answer or color")


# --- JUMP-IN: the UNO window of a player who did not say UNO ---------------------------

# C plays the next-to-last card G4 without UNO; A, not to move, holds another G4.
WINDOW_HANDS = {"C": ["G4", "Y2"], "D": ["Y1", "Y5"], "B": ["G5", "G6", "G4"]}


@pytest.mark.parametrize(("rules", "caught"), [(JUMP_IN, False), (STAYS_OPEN, True)])
def test_a_jump_in_closes_the_uno_window_or_leaves_it_open(rules: RuleTable,
                                                            caught: bool) -> None:
    game = _game({**WINDOW_HANDS, "C": ["R4", "Y2"]}, rules)
    play(game, "C play R4")
    assert Action("B", ActionType.CATCH, target="C") in game.legal_actions("B")
    game = _game(WINDOW_HANDS, rules)
    play(game, "C play G4")  # C holds Y2: C's window opens (UNO-1)
    play(game, "B play G4")  # B jumps in: D lost the turn
    # closes: "it closes the UNO window ... (UNO-1: the next turn begins)"; stays-open:
    # "leaves the UNO window ... open until a turn begins in turn"
    assert (Action("D", ActionType.CATCH, target="C") in game.legal_actions("D")) is caught
    if caught:
        play(game, "D catch C")
        assert len(game.hand("C")) == 3
        return
    refused(game, "D catch C", "UNO-1")


def test_stays_open_the_window_closes_when_a_turn_begins_in_turn() -> None:
    game = _game(WINDOW_HANDS, STAYS_OPEN)
    play(game, "C play G4", "B play G4")  # C's window left open; C is to move (after B)
    play(game, "C draw")
    refused(game, "D catch C", "UNO-1")


# --- SEVEN-O: whose hand a 7 swaps with -------------------------------------------------

SEVEN_HANDS = {"C": ["R7", "Y2", "G2"], "D": ["Y1", "Y5"], "B": ["G5", "G6", "G8"]}


def test_chosen_a_seven_swaps_with_any_other_player_its_player_chooses() -> None:
    game = _game(SEVEN_HANDS, SEVEN_O)
    targets = sorted(a.target or "" for a in game.legal_actions("C") if a.card == "R7")
    assert targets == ["A", "B", "D"]
    play(game, "C play R7 B")
    assert sorted(game.hand("C")) == ["G5", "G6", "G8"] and sorted(game.hand("B")) == \
        ["G2", "Y2"]


def test_next_a_seven_swaps_with_the_next_player_only() -> None:
    game = _game(SEVEN_HANDS, NEXT)
    assert [a.target for a in game.legal_actions("C") if a.card == "R7"] == ["D"]
    err = refused(game, "C play R7 B", "SEVEN-O")
    assert err.message == "C play R7 B: C swaps hands with the next player only, not B"
    play(game, "C play R7 D")
    assert sorted(game.hand("C")) == ["Y1", "Y5"] and sorted(game.hand("D")) == ["G2", "Y2"]


def test_next_the_next_player_follows_the_direction_of_play() -> None:
    hands = {"C": ["RR", "Y2", "G2"], "D": ["Y1", "Y5"], "B": ["R7", "G6", "G8"]}
    game = _game(hands, NEXT)
    play(game, "C play RR")  # play goes right: B moves, and B's next player is A
    assert [a.target for a in game.legal_actions("B") if a.card == "R7"] == ["A"]
    with pytest.raises(IllegalActionError):
        game.apply(Action.parse("B play R7 C"))
