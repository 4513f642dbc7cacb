"""One test (or more) per rule ID of docs/rules.md, each from a concrete position.

Positions are written as records (see :mod:`.helpers`): the hands that matter,
the top of the draw pile (its first card is the start card), the dealer. Players
are A, B, C seated in that order; C deals, so A plays first (DEAL-3).
"""

from __future__ import annotations

import itertools
import random
from collections import Counter
from collections.abc import Mapping, Sequence

import pytest

from unoformal.engine.actions import Action, ActionType
from unoformal.engine.game import Game
from unoformal.engine.record import game_from_record
from unoformal.errors import IllegalActionError, InvalidInputError
from unoformal.rulebook.cards import Kind, parse_face
from unoformal.rulebook.deck import Deck
from unoformal.rulebook.table import CLASSIC, RuleTable
from unoformal.rulebook.variants import derive

from .helpers import deck_codes, make_game, make_record, play, refused, sorted_codes

ABC = ("A", "B", "C")


def three(hands: Mapping[str, Sequence[str]], pile: Sequence[str] = ("R7",),
          rules: RuleTable = CLASSIC, rest_to: str | None = None) -> Game:
    return make_game(ABC, "C", hands, pile, rules=rules, rest_to=rest_to)


def two(hands: Mapping[str, Sequence[str]], pile: Sequence[str] = ("R7",),
        rules: RuleTable = CLASSIC) -> Game:
    return make_game(("A", "B"), "B", hands, pile, rules=rules)


def all_cards(game: Game) -> Counter[str]:
    deck = game.deck
    return Counter(deck.code(c) for c in [*game.pile, *game.discard]
                   + [c for h in game.hands for c in h])


# ----------------------------------------------------------------- deck (000 §01, §08)


def test_deck_1_the_deck_has_108_cards_25_per_color_and_8_wilds() -> None:
    deck = Deck.of(CLASSIC)
    codes = Counter(deck_codes())
    assert deck.size == 108 and sum(codes.values()) == 108
    for letter in "RYGB":
        per_color = {c: n for c, n in codes.items() if c[0] == letter and c not in ("W", "W+4")}
        assert sum(per_color.values()) == 25
        assert per_color[f"{letter}0"] == 1
        assert all(per_color[f"{letter}{r}"] == 2 for r in range(1, 10))
        assert per_color[f"{letter}S"] == per_color[f"{letter}R"] == per_color[f"{letter}+2"] == 2
    assert codes["W"] == 4 and codes["W+4"] == 4


def test_deck_1_a_shuffled_deal_is_exactly_the_deck() -> None:
    for n in (2, 5, 10):
        game = Game([f"P{i}" for i in range(n)], seed=n)
        assert all_cards(game) == Counter(deck_codes())


def test_deck_2_two_to_ten_players() -> None:
    for n in (2, 10):
        assert Game([f"P{i}" for i in range(n)], seed=1).n == n
    for n in (1, 11):
        with pytest.raises(InvalidInputError) as info:
            Game([f"P{i}" for i in range(n)], seed=1)
        assert info.value.rule_id == "DECK-2" and f"{n} players" in info.value.message
    with pytest.raises(InvalidInputError) as info:
        Game(["A", "A", "B"])
    assert info.value.rule_id == "DECK-2"


def test_deck_3_no_later_edition_cards_and_no_7_0_swap() -> None:
    for code in ("WS", "W+2", "R10", "RX"):  # wild swap hands, 112-card extras
        with pytest.raises(ValueError):
            Deck.of(CLASSIC).face_id(code)
    game = three({"A": ["R0", "G5"], "B": ["B1", "B2"], "C": ["G1", "G2"]}, pile=("R7",))
    play(game, "A play R0")
    assert game.hand("A") == ["G5"] and game.hand("B") == ["B1", "B2"]
    assert game.to_play == "B"


def test_deck_3_no_stacking_a_draw_two_victim_has_no_answer() -> None:
    game = three({"A": ["R+2", "G5"], "B": ["B+2", "B1"], "C": ["G1", "G2"]},
                 pile=("R7", "Y1", "Y2"))
    play(game, "A play R+2")
    assert game.phase == "play" and game.to_play == "C"
    assert game.hand("B") == sorted_codes(["B+2", "B1", "Y1", "Y2"])
    refused(game, "B play B+2", "PLAY-1")


# ---------------------------------------------------------------- deal (000 §02)


def _value(code: str, symbol_value: int = 0) -> int:
    face = parse_face(code)
    return face.rank if face.kind is Kind.NUMBER and face.rank is not None else symbol_value


def _check_dealer_draws(game: Game, symbol_value: int) -> int:
    """DEAL-1 replayed from ``game.dealer_draws``; returns how many tie redraws it saw."""
    draws = game.dealer_draws
    assert set(draws[0]) == set(game.names)
    for earlier, later in itertools.pairwise(draws):
        best = max(_value(c, symbol_value) for c in earlier.values())
        tied = {p for p, c in earlier.items() if _value(c, symbol_value) == best}
        assert len(tied) > 1 and set(later) == tied
    last = draws[-1]
    best = max(_value(c, symbol_value) for c in last.values())
    highest = [p for p, c in last.items() if _value(c, symbol_value) == best]
    assert highest == [game.names[game.dealer]]
    return len(draws) - 1


def test_deal_1_highest_number_deals_and_ties_redraw_among_tied_only() -> None:
    ties = sum(_check_dealer_draws(Game([f"P{i}" for i in range(6)], seed=seed), 0)
               for seed in range(40))
    assert ties > 0, "no seed gave a tie: the tie rule went untested"


def test_deal_1_the_dealer_draws_come_from_one_shuffled_deck() -> None:
    # Each player draws a card from the deck, shuffled once; ties draw on from the same deck.
    copies = Counter(deck_codes())
    for seed in range(12):
        record = make_record(ABC, "C", {"A": ["R1"]}, ("R7",), seed=seed)
        del record["dealer"]
        game = game_from_record(record)  # the deal is given: the only shuffle is DEAL-1's
        assert game.shuffles == 1
        drawn = Counter(c for draw in game.dealer_draws for c in draw.values())
        assert all(n <= copies[c] for c, n in drawn.items())


def test_deal_1_action_and_wild_cards_count_as_the_tables_symbol_value() -> None:
    high = derive(CLASSIC, "symbols-high", "test", {"DEAL-1": {"symbol_value": 10}})
    differ = 0
    for seed in range(40):
        players = [f"P{i}" for i in range(4)]
        classic, variant = Game(players, seed=seed), Game(players, seed=seed, rules=high)
        _check_dealer_draws(classic, 0)
        _check_dealer_draws(variant, 10)
        differ += classic.dealer != variant.dealer
    assert differ > 0, "symbol cards never decided a dealer: the value went untested"


def test_deal_2_seven_cards_each_the_rest_is_the_pile_and_one_card_turned() -> None:
    checked = 0
    for seed in range(30):
        game = Game(["A", "B", "C", "D"], seed=seed, dealer="D")
        top = game.deck.faces[game.top] if game.top is not None else None
        if top is None or top.kind is not Kind.NUMBER or game.shuffles != 1:
            continue
        assert [len(h) for h in game.hands] == [7, 7, 7, 7]
        assert len(game.discard) == 1 and len(game.pile) == 108 - 28 - 1
        checked += 1
    assert checked > 0


def test_deal_3_the_dealers_left_neighbour_plays_first_and_play_goes_left() -> None:
    game = three({"A": ["R1", "G1"], "B": ["R2", "G2"], "C": ["R3", "G3"]})
    assert game.to_play == "A" and game.view("A").direction == "left"
    play(game, "A play R1")
    assert game.to_play == "B"
    play(game, "B play R2")
    assert game.to_play == "C"
    other = make_game(ABC, "A", {"A": ["G1"]}, ("R7",))
    assert other.to_play == "B"


def test_start_d2_first_player_draws_two_and_loses_the_turn() -> None:
    game = three({"A": ["G5"], "B": ["G6"], "C": ["G7"]}, pile=("R+2", "Y1", "Y2", "Y3"))
    assert game.hand("A") == sorted_codes(["G5", "Y1", "Y2"])
    assert game.to_play == "B" and game.view("B").color == "red" and game.phase == "play"
    assert game.deck.code(game.pile[-1]) == "Y3"


def test_start_skip_first_player_is_skipped() -> None:
    game = three({"A": ["G5"], "B": ["G6"], "C": ["G7"]}, pile=("RS",))
    assert game.to_play == "B" and game.hand("A") == ["G5"]
    assert game.view("A").direction == "left"


def test_start_rev_dealer_plays_first_and_play_goes_right() -> None:
    game = three({"A": ["G5"], "B": ["R6", "G6"], "C": ["R7", "G7"]}, pile=("RR",))
    assert game.to_play == "C" and game.view("C").direction == "right"
    play(game, "C play R7")
    assert game.to_play == "B"


def test_start_wild_first_player_chooses_the_color_then_plays() -> None:
    game = three({"A": ["B5", "G5"], "B": ["G6"], "C": ["G7"]}, pile=("W",))
    assert game.phase == "color" and game.to_play == "A" and game.color is None
    assert {a.color for a in game.legal_actions("A")
            if a.type is ActionType.CHOOSE_COLOR} == {"red", "yellow", "green", "blue"}
    assert [a for a in game.legal_actions("A") if a.type is ActionType.PLAY] == []
    refused(game, "A play B5", "START-WILD")
    refused(game, "A draw", "START-WILD")
    refused(game, "B choose_color red", "PLAY-1")
    play(game, "A choose_color blue")
    assert game.phase == "play" and game.to_play == "A" and game.view("A").color == "blue"
    play(game, "A play B5")
    assert game.to_play == "B"


def test_start_wd4_goes_back_into_the_deck_and_another_card_is_turned() -> None:
    game = three({"A": ["G5"], "B": ["G6"], "C": ["G7"]}, pile=("W+4", "R5", "R6"))
    top = game.deck.code(game.top) if game.top is not None else None
    assert top != "W+4" and len(game.discard) == 1
    assert sum(1 for c in game.pile if game.deck.code(c) == "W+4") == 4
    assert game.shuffles == 1  # the pile was shuffled once with the card back in it
    assert all_cards(game) == Counter(deck_codes())


# ----------------------------------------------------------------- turn (000 §03)


def test_play_1_a_card_matches_by_color_number_or_symbol_or_is_wild() -> None:
    hands = {"A": ["R1", "B7", "GS", "W", "Y3"], "B": ["YS", "B1"], "C": ["G1", "G2", "G3"]}
    game = three(hands)
    playable = {a.card for a in game.legal_actions("A") if a.type is ActionType.PLAY}
    assert playable == {"R1", "B7", "W"}
    play(game, "A play B7")  # by number
    assert game.view("A").color == "blue" and game.to_play == "B"
    play(game, "B play B1")  # by color
    play(game, "C play G1")  # by number
    play(game, "A play GS")  # by color: B skipped
    assert game.to_play == "C"
    play(game, "C play G2")
    refused(game, "A play Y3", "PLAY-1")


def test_play_1_a_symbol_matches_a_symbol_of_another_color() -> None:
    game2 = three({"A": ["RS", "G5"], "B": ["YS", "B1"], "C": ["BS", "G2"]})
    play(game2, "A play RS")
    play(game2, "C play BS")  # symbol on symbol: A skipped
    assert game2.to_play == "B"


def test_play_1_never_out_of_turn_never_a_card_not_held_never_two_cards() -> None:
    game = three({"A": ["R1", "R2", "G5"], "B": ["R3", "B1"], "C": ["G1", "G2"]})
    refused(game, "B play R3", "PLAY-1")
    refused(game, "A play R9", "PLAY-1")
    play(game, "A play R1")
    refused(game, "A play R2", "PLAY-1")
    assert game.to_play == "B"


def test_draw_1_draw_even_when_able_to_play_then_only_that_card() -> None:
    game = three({"A": ["R1", "G5"], "B": ["B1", "B2"], "C": ["G1", "G2"]}, pile=("R7", "R4"))
    assert Action("A", ActionType.DRAW) in game.legal_actions("A")
    play(game, "A draw")
    assert game.phase == "drawn" and game.hand("A") == sorted_codes(["R1", "R4", "G5"])
    refused(game, "A play R1", "DRAW-1")
    refused(game, "A draw", "DRAW-1")
    plays = {a.card for a in game.legal_actions("A") if a.type is ActionType.PLAY}
    assert plays == {"R4"}
    play(game, "A play R4")
    assert game.to_play == "B" and game.hand("A") == ["R1", "G5"]


def test_draw_1_keep_the_drawn_card_and_pass() -> None:
    game = three({"A": ["R1", "G5"], "B": ["B1", "B2"], "C": ["G1", "G2"]}, pile=("R7", "B9"))
    refused(game, "A pass", "DRAW-1")
    play(game, "A draw")
    refused(game, "A play B9", "PLAY-1")
    play(game, "A pass")
    assert game.to_play == "B" and game.phase == "play"
    assert game.hand("A") == sorted_codes(["R1", "G5", "B9"])
    assert game.deck.code(game.top or 0) == "R7"


def test_reshuffle_1_keeps_the_top_discard_and_shuffles_the_rest() -> None:
    game = make_game(("A", "B"), "B", {"A": ["R6", "R8", "Y1", "Y2"]}, ("R5", "G3"),
                     rest_to="B")
    play(game, "A play R6", "B draw", "B pass", "A play R8")
    assert game.pile == [] and [game.deck.code(c) for c in game.discard] == ["R5", "R6", "R8"]
    b_before = Counter(game.hand("B"))
    play(game, "B draw")
    assert [game.deck.code(c) for c in game.discard] == ["R8"]
    drawn = Counter(game.hand("B")) - b_before
    assert drawn + Counter(game.deck.code(c) for c in game.pile) == Counter(["R5", "R6"])
    assert all_cards(game) == Counter(deck_codes())


def test_hidden_1_a_view_shows_the_own_hand_and_only_the_sizes_of_others() -> None:
    game = three({"A": ["R1", "G5"], "B": ["B1", "B2", "B3"], "C": ["G1"]})
    view = game.view("B")
    assert view.hand == ("B1", "B2", "B3")
    assert view.hand_sizes == {"A": 2, "B": 3, "C": 1}
    assert view.revealed is None and view.top == "R7"
    others = {c for p in ("A", "C") for c in game.hand(p)} - {"R7"}
    text = repr(view)
    assert not any(f"'{c}'" in text for c in others)


# ------------------------------------------------- action cards, two players (000 §04)


def test_skip_1_the_next_player_loses_the_turn() -> None:
    game = three({"A": ["RS", "G5"], "B": ["R1"], "C": ["R2", "G2"]})
    play(game, "A play RS")
    assert game.to_play == "C" and game.hand("B") == ["R1"]


def test_rev_1_the_direction_flips() -> None:
    game = three({"A": ["RR", "G5"], "B": ["R1", "R3"], "C": ["R2", "G2"]})
    play(game, "A play RR")
    assert game.to_play == "C" and game.view("A").direction == "right"
    play(game, "C play R2")
    assert game.to_play == "B"
    play(game, "B play R1")
    assert game.to_play == "A"


def test_d2_1_the_next_player_draws_two_and_loses_the_turn() -> None:
    game = three({"A": ["R+2", "G5"], "B": ["R1"], "C": ["R2", "G2"]},
                 pile=("R7", "Y1", "Y2", "Y3"))
    play(game, "A play R+2")
    assert game.hand("B") == sorted_codes(["R1", "Y1", "Y2"])
    assert game.to_play == "C" and game.phase == "play"
    assert game.deck.code(game.pile[-1]) == "Y3"


def test_nostack_1_the_wild_draw_four_victim_cannot_answer_with_a_draw_card() -> None:
    game = three({"A": ["W+4", "G5", "Y5"], "B": ["G+2", "W+4", "B1"], "C": ["G2"]})
    play(game, "A play W+4 green")
    assert game.phase == "respond" and game.to_play == "B"
    refused(game, "B play G+2", "NOSTACK-1")
    refused(game, "B play W+4 green", "NOSTACK-1")
    refused(game, "B draw", "WD4-2")
    assert {a.type for a in game.legal_actions("B")} <= {ActionType.ACCEPT,
                                                         ActionType.CHALLENGE,
                                                         ActionType.ADVISE}


def test_nostack_1_a_draw_two_on_a_draw_two_on_a_normal_turn() -> None:
    game = three({"A": ["R+2", "G5"], "B": ["B1", "B+2"], "C": ["G+2", "G2"]},
                 pile=("R7", "Y1", "Y2", "Y3", "Y4"))
    play(game, "A play R+2")
    assert game.to_play == "C"
    play(game, "C play G+2")  # by symbol, on C's own turn: A draws 2, no accumulation
    assert game.hand("A") == sorted_codes(["G5", "Y3", "Y4"])
    assert game.hand("B") == sorted_codes(["B1", "B+2", "Y1", "Y2"])
    assert game.to_play == "B" and game.view("B").color == "green"


def test_wild_1_a_wild_is_legal_with_other_plays_and_names_any_color() -> None:
    game = three({"A": ["R1", "W", "G5"], "B": ["B1"], "C": ["G2"]})
    wilds = {a.color for a in game.legal_actions("A") if a.card == "W"}
    assert wilds == {"red", "yellow", "green", "blue"}
    with pytest.raises(InvalidInputError) as info:
        game.apply(Action.parse("A play W"))
    assert info.value.rule_id == "WILD-1"
    play(game, "A play W red")  # the current color named again
    assert game.view("B").color == "red" and game.to_play == "B"


def test_two_1_reverse_and_skip_give_the_turn_back() -> None:
    game = two({"A": ["RR", "RS", "G5"], "B": ["B1", "B2"]})
    play(game, "A play RR")
    assert game.to_play == "A"
    play(game, "A play RS")
    assert game.to_play == "A" and game.hand("B") == ["B1", "B2"]


def test_two_1_after_a_draw_two_or_accepted_wild_draw_four_the_turn_comes_back() -> None:
    game = two({"A": ["R+2", "W+4", "G5"], "B": ["B1"]},
               pile=("R7", "Y1", "Y2", "Y3", "Y4", "Y5", "Y6"))
    play(game, "A play R+2")
    assert game.to_play == "A" and game.hand("B") == sorted_codes(["B1", "Y1", "Y2"])
    play(game, "A play W+4 blue uno", "B accept")
    assert game.to_play == "A" and len(game.hand("B")) == 7
    assert game.view("A").color == "blue"


def test_misplay_1_an_incorrect_card_is_taken_back_two_cards_turn_passes() -> None:
    game = three({"A": ["B5", "R1"], "B": ["B1"], "C": ["G2"]}, pile=("R7", "Y1", "Y2"))
    refused(game, "A misplay R1", "MISPLAY-1")  # a legal card is no misplay
    refused(game, "A misplay G9", "MISPLAY-1")  # not held
    refused(game, "B misplay B1", "PLAY-1")  # out of turn
    play(game, "A misplay B5")
    assert game.hand("A") == sorted_codes(["B5", "R1", "Y1", "Y2"])
    assert game.to_play == "B" and game.deck.code(game.top or 0) == "R7"


def test_advice_1_a_player_who_advises_draws_two() -> None:
    game = three({"A": ["B5", "R1"], "B": ["B1"], "C": ["G2"]}, pile=("R7", "Y1", "Y2"))
    play(game, "C advise")
    assert game.hand("C") == sorted_codes(["G2", "Y1", "Y2"])
    assert game.to_play == "A" and game.phase == "play"


# ------------------------------------------------ Wild Draw Four and challenge (000 §05)


def test_wd4_1_only_the_color_is_checked_not_number_or_symbol() -> None:
    game = three({"A": ["B7", "YS", "W+4"], "B": ["G8"], "C": ["G9"]},
                 pile=("R7", "B1", "B2", "B3", "B4", "B5", "B6"))
    play(game, "A play W+4 green", "B challenge")
    assert len(game.hand("B")) == 7 and game.to_play == "C"  # it was legal (CHAL-3)


@pytest.mark.parametrize("held", ["RS", "RR", "R+2", "R0"])
def test_wd4_1_any_card_of_the_current_color_makes_it_illegal_not_only_a_number(
        held: str) -> None:
    # "holds no card of the current color": a red Skip, Reverse or Draw Two counts as much
    # as a red number (a check counting only numbers once passed every other test).
    game = three({"A": [held, "G5", "W+4"], "B": ["G8", "B8"], "C": ["G9"]},
                 pile=("R7", "B1", "B2", "B3", "B4", "B5"))
    play(game, "A play W+4 blue", "B challenge")
    assert game.hand("A") == sorted_codes([held, "G5", "B1", "B2", "B3", "B4"])  # CHAL-2
    assert game.to_play == "B" and game.hand("B") == ["G8", "B8"]
    strict = derive(CLASSIC, "no-bluff", "test", {"WD4-1": {"bluff_playable": False}})
    game = three({"A": [held, "G5", "W+4"], "B": ["G8"], "C": ["G9"]}, rules=strict)
    refused(game, "A play W+4 blue", "WD4-1")


def test_wd4_1_a_bluff_is_playable_and_caught_by_the_challenge() -> None:
    game = three({"A": ["R2", "G5", "W+4"], "B": ["G8"], "C": ["G9"]})
    plays = {a.card for a in game.legal_actions("A") if a.type is ActionType.PLAY}
    assert "W+4" in plays
    play(game, "A play W+4 yellow")
    assert game.phase == "respond" and game.to_play == "B"


def test_wd4_1_without_bluffs_the_table_refuses_it() -> None:
    rules = derive(CLASSIC, "no-bluff", "test", {"WD4-1": {"bluff_playable": False}})
    game = three({"A": ["R2", "G5", "W+4"], "B": ["G8"], "C": ["G9"]}, rules=rules)
    refused(game, "A play W+4 yellow", "WD4-1")
    legal = three({"A": ["B2", "G5", "W+4"], "B": ["G8"], "C": ["G9"]}, rules=rules)
    play(legal, "A play W+4 yellow")


def test_wd4_1_playable_card_reading_counts_any_other_playable_card_but_a_wild_draw_four(
        ) -> None:
    # RLCard's reading (illegal_when_holding = playable-card, no bluff): a 7 of another
    # color on the red 7 is another playable card; a second Wild Draw Four is not (this
    # very rule restricts it too)
    rules = derive(CLASSIC, "nothing-else", "test", {"WD4-1": {
        "illegal_when_holding": "playable-card", "bluff_playable": False}})
    game = three({"A": ["B7", "G5", "W+4"], "B": ["G8"], "C": ["G9"]}, rules=rules)
    refused(game, "A play W+4 yellow", "WD4-1")
    game = three({"A": ["W+4", "G5", "W+4"], "B": ["G8"], "C": ["G9"]}, rules=rules)
    play(game, "A play W+4 yellow")
    assert game.phase == "respond" and game.to_play == "B"


def test_wd4_2_the_victim_accepts_draws_four_and_loses_the_turn() -> None:
    game = three({"A": ["G5", "Y5", "W+4"], "B": ["G8"], "C": ["G9"]},
                 pile=("R7", "B1", "B2", "B3", "B4", "B5"))
    play(game, "A play W+4 green")
    refused(game, "C play G9", "PLAY-1")
    refused(game, "A accept", "PLAY-1")
    play(game, "B accept")
    assert game.hand("B") == sorted_codes(["G8", "B1", "B2", "B3", "B4"])
    assert game.to_play == "C" and game.view("C").color == "green" and game.phase == "play"


def test_wd4_2_only_a_wild_draw_four_is_accepted_or_challenged() -> None:
    game = three({"A": ["R+2", "G5"], "B": ["G8"], "C": ["G9"]})
    refused(game, "A challenge", "WD4-2")
    refused(game, "A accept", "WD4-2")


def test_chal_1_the_hand_is_shown_to_the_challenger_only() -> None:
    game = three({"A": ["B7", "YS", "W+4"], "B": ["G8"], "C": ["G9"]},
                 pile=("R7", "B1", "B2", "B3", "B4", "B5", "B6"))
    play(game, "A play W+4 green", "B challenge")
    assert game.view("B").revealed == ("A", ("YS", "B7"))
    assert game.view("A").revealed is None and game.view("C").revealed is None
    play(game, "C play G9")
    assert game.view("B").revealed is None


def test_chal_2_upheld_challenge_offender_draws_four_challenger_keeps_turn() -> None:
    game = three({"A": ["R2", "G5", "W+4"], "B": ["G8", "B8"], "C": ["G9"]},
                 pile=("R7", "B1", "B2", "B3", "B4", "B5"))
    play(game, "A play W+4 blue", "B challenge")
    assert game.hand("A") == sorted_codes(["R2", "G5", "B1", "B2", "B3", "B4"])
    assert game.hand("B") == ["G8", "B8"]
    assert game.to_play == "B" and game.phase == "play"
    assert game.view("B").revealed == ("A", ("R2", "G5"))
    play(game, "B play B8")
    assert game.to_play == "C"


def test_chal_3_failed_challenge_costs_six_and_the_turn() -> None:
    game = three({"A": ["B2", "G5", "W+4"], "B": ["G8"], "C": ["G9"]},
                 pile=("R7", "Y1", "Y2", "Y3", "Y4", "Y5", "Y6", "Y7"))
    play(game, "A play W+4 blue", "B challenge")
    assert game.hand("B") == sorted_codes(["G8", "Y1", "Y2", "Y3", "Y4", "Y5", "Y6"])
    assert game.hand("A") == ["G5", "B2"]
    assert game.to_play == "C" and game.phase == "play"


def test_chal_4_the_named_color_stays_either_way() -> None:
    for a_hand in (["R2", "G5", "W+4"], ["B2", "G5", "W+4"]):
        game = three({"A": a_hand, "B": ["G8"], "C": ["G9"]})
        play(game, "A play W+4 yellow", "B challenge")
        assert game.view("A").color == "yellow"


# ---------------------------------------------------------------- UNO, end (000 §06)


def test_uno_1_said_with_the_next_to_last_card_cannot_be_caught() -> None:
    game = three({"A": ["R1", "G5"], "B": ["B1"], "C": ["G2"]})
    play(game, "A play R1 uno")
    assert game.view("B").uno_pending is None
    refused(game, "B catch A", "UNO-1")


def test_uno_1_uno_goes_only_with_the_next_to_last_card() -> None:
    game = three({"A": ["R1", "R2", "G5"], "B": ["B1"], "C": ["G2"]})
    refused(game, "A play R1 uno", "UNO-1")
    refused(game, "A uno", "UNO-1")


def test_uno_1_the_card_count_is_the_tables() -> None:
    """UNO-1's "next-to-last card" is the table's ``cards_left``: changed to 2, UNO goes
    with the third-to-last card and a catch needs two cards left (the engine reads the
    value; nothing restates it)."""
    rules = derive(CLASSIC, "uno-at-two", "", {"UNO-1": {"cards_left": 2}})
    game = three({"A": ["R1", "R2", "G5"], "B": ["B1"], "C": ["G2"]}, rules=rules)
    assert Action.parse("A play R1 uno") in game.legal_actions()
    game = three({"A": ["R1", "R2", "G5"], "B": ["B1"], "C": ["G2"]}, rules=rules,
                 pile=("R7", "Y1", "Y2"))
    play(game, "A play R1")
    assert game.view("B").uno_pending == "A"
    play(game, "B catch A")
    assert game.hand("A") == sorted_codes(["R2", "G5", "Y1", "Y2"], rules)
    game = three({"A": ["R1", "G5"], "B": ["B1"], "C": ["G2"]}, rules=rules)
    refused(game, "A play R1 uno", "UNO-1")


def test_uno_1_forgotten_uno_caught_before_the_next_turn_draws_two() -> None:
    game = three({"A": ["R1", "G5"], "B": ["B1"], "C": ["G2"]},
                 pile=("R7", "Y1", "Y2", "Y3", "Y4"))
    play(game, "A play R1")
    assert game.view("C").uno_pending == "A"
    refused(game, "A catch A", "UNO-1")
    play(game, "C advise")  # an out-of-turn action does not begin B's turn
    play(game, "C catch A")
    assert game.hand("A") == sorted_codes(["G5", "Y3", "Y4"])
    assert game.view("B").uno_pending is None and game.to_play == "B"
    refused(game, "B catch A", "UNO-1")


def test_uno_1_caught_penalty_is_the_next_two_cards() -> None:
    game = three({"A": ["R1", "G5"], "B": ["B1"], "C": ["G2"]}, pile=("R7", "Y1", "Y2"))
    play(game, "A play R1", "B catch A")
    assert game.hand("A") == sorted_codes(["G5", "Y1", "Y2"])


def test_uno_1_said_afterwards_before_an_accusation_avoids_the_penalty() -> None:
    game = three({"A": ["R1", "G5"], "B": ["B1"], "C": ["G2"]})
    play(game, "A play R1", "A uno")
    assert game.view("B").uno_pending is None
    refused(game, "B catch A", "UNO-1")
    refused(game, "A uno", "UNO-1")
    assert game.hand("A") == ["G5"]


def test_uno_1_no_catch_after_the_next_turn_began_by_a_play() -> None:
    game = three({"A": ["R1", "G5"], "B": ["R3", "B1"], "C": ["G2"]})
    play(game, "A play R1", "B play R3")
    refused(game, "C catch A", "UNO-1")
    refused(game, "A uno", "UNO-1")


def test_uno_1_no_catch_after_the_next_turn_began_by_a_draw() -> None:
    game = three({"A": ["R1", "G5"], "B": ["B1"], "C": ["G2"]}, pile=("R7", "Y1"))
    play(game, "A play R1", "B draw")
    refused(game, "C catch A", "UNO-1")


def test_end_1_switched_off_a_final_draw_card_is_not_resolved() -> None:
    """END-1's ``resolve_final_draw`` is read: switched off, going out with a Draw Two
    ends the round at once, and the victim draws nothing."""
    rules = derive(CLASSIC, "no-final-draw", "", {"END-1": {"resolve_final_draw": False}})
    game = three({"A": ["R+2"], "B": ["B1", "G5"], "C": ["G2"]}, rules=rules,
                 pile=("R7", "Y1", "Y2"))
    play(game, "A play R+2")
    assert game.round_over and game.hand("B") == ["G5", "B1"]
    assert game.round_points == 1 + 5 + 2
    resolved = three({"A": ["R+2"], "B": ["B1", "G5"], "C": ["G2"]}, pile=("R7", "Y1", "Y2"))
    play(resolved, "A play R+2")
    assert resolved.round_over and len(resolved.hand("B")) == 4


def test_end_1_the_last_card_ends_the_round() -> None:
    game = three({"A": ["R1"], "B": ["B1", "G5"], "C": ["G2", "Y9"]})
    play(game, "A play R1")
    assert game.round_over and game.phase == "over"
    assert game.state_json()["winner"] == "A"
    assert game.scores == [1 + 5 + 2 + 9, 0, 0] and game.round_points == 17
    refused(game, "B draw", "END-1")


def test_end_1_a_final_draw_two_is_drawn_first_and_counts() -> None:
    game = three({"A": ["R+2"], "B": ["B1"], "C": ["G2"]}, pile=("R7", "Y9", "Y8"))
    play(game, "A play R+2")
    assert game.round_over and game.hand("B") == sorted_codes(["B1", "Y9", "Y8"])
    assert game.round_points == 1 + 9 + 8 + 2


def test_end_1_a_final_wild_draw_four_accepted_counts() -> None:
    game = three({"A": ["W+4"], "B": ["B1"], "C": ["G2"]}, pile=("R7", "Y1", "Y2", "Y3", "Y4"))
    play(game, "A play W+4 green")
    assert not game.round_over and game.phase == "respond"
    play(game, "B accept")
    assert game.round_over and game.round_points == 1 + 1 + 2 + 3 + 4 + 2


def test_end_1_a_final_legal_wild_draw_four_challenged_costs_six_and_counts() -> None:
    game = three({"A": ["W+4"], "B": ["B1"], "C": ["G2"]},
                 pile=("R7", "Y1", "Y2", "Y3", "Y4", "Y5", "Y6"))
    play(game, "A play W+4 green", "B challenge")
    assert game.round_over and game.round_points == 1 + 21 + 2


def test_end_1_a_last_wild_draw_four_is_always_legal_so_the_round_ends() -> None:
    # WD4-1 is judged on the hand left after the card: an empty hand holds no color,
    # so the challenge of a final Wild Draw Four always fails (CHAL-3).
    game = three({"A": ["R1", "W+4"], "B": ["R2", "B1"], "C": ["R3", "G2"]},
                 pile=("R7", "Y1", "Y2", "Y3", "Y4", "Y5", "Y6"))
    play(game, "A play R1 uno", "B play R2", "C play R3")
    assert game.hand("A") == ["W+4"]
    play(game, "A play W+4 green", "B challenge")
    assert game.round_over and game.state_json()["winner"] == "A"
    assert game.round_points == 1 + 21 + 2


def test_end_2_next_round_deals_again_and_the_dealer_passes_left() -> None:
    game = three({"A": ["R1"], "B": ["B1"], "C": ["G2"]})
    play(game, "A play R1")
    with pytest.raises(IllegalActionError) as info:
        Game(list(ABC)).next_round()
    assert info.value.rule_id == "END-2"
    game.next_round()
    assert game.round == 2 and game.names[game.dealer] == "A"
    assert game.scores == [3, 0, 0] and not game.round_over
    assert all_cards(game) == Counter(deck_codes())
    assert sorted(len(h) for h in game.hands) in ([7, 7, 7], [7, 7, 9])


# ------------------------------------------------------------------ scoring (000 §07)


def test_score_1_winner_scores_numbers_at_face_value_actions_20_wilds_50() -> None:
    game = three({"A": ["R1"], "B": ["B5", "GS", "YR"], "C": ["B+2", "W", "W+4", "G0"]})
    play(game, "A play R1")
    assert game.round_points == 5 + 20 + 20 + 20 + 50 + 50 + 0
    assert game.scores == [165, 0, 0]


def test_score_2_the_first_to_reach_500_wins_and_the_game_is_over() -> None:
    big = ["W", "W", "W", "W", "W+4", "W+4", "W+4", "W+4", "RS", "GS", "YS", "BS", "R5"]
    game = three({"A": ["R1"], "B": big, "C": ["G0"]})
    play(game, "A play R1")
    assert game.scores == [485, 0, 0] and game.round_over and not game.game_over
    game2 = three({"A": ["R1"], "B": [*big, "B9", "B8"], "C": ["G0"]})
    play(game2, "A play R1")
    assert game2.scores == [502, 0, 0] and game2.game_over and game2.game_winner == "A"
    with pytest.raises(IllegalActionError) as info:
        game2.next_round()
    assert info.value.rule_id == "SCORE-2"


def test_score_2_rounds_accumulate_to_500_with_one_scorer_and_the_dealer_passing_left() -> None:
    import random

    rng = random.Random(5)
    game = Game(["A", "B", "C", "D"], seed=11)
    dealers = [game.dealer]
    while not game.game_over:
        if game.round_over:
            game.next_round()
            dealers.append(game.dealer)
        before = list(game.scores)
        moves = [a for a in game.legal_actions()
                 if a.type not in (ActionType.ADVISE, ActionType.MISPLAY)]
        game.apply(rng.choice(moves))
        gained = [after - b for after, b in zip(game.scores, before, strict=True)]
        if game.round_over:
            assert sorted(gained)[:-1] == [0, 0, 0]
            assert max(gained) == game.round_points
        else:
            assert gained == [0, 0, 0, 0]
    assert len(dealers) > 1
    assert all((b - a) % 4 == 1 for a, b in itertools.pairwise(dealers))
    assert max(game.scores) >= 500 and sorted(game.scores)[-2] < 500


# ----------------------------------------------------------------------- extensions


def _only_start_card_left(rules: RuleTable = CLASSIC) -> Game:
    return make_game(ABC, "C", {"A": ["B1", "G1"], "B": ["B2"]}, ("R5",), rules=rules,
                     rest_to="C")


def test_ext_pass_nothing_to_draw_the_player_passes() -> None:
    game = _only_start_card_left()
    assert game.available() == 0
    refused(game, "A draw", "EXT-PASS")
    assert Action("A", ActionType.PASS) in game.legal_actions("A")
    play(game, "A pass")
    assert game.to_play == "B" and game.hand("A") == ["G1", "B1"]


def test_ext_pass_switched_off_leaves_no_draw_and_no_pass() -> None:
    rules = derive(CLASSIC, "no-pass", "test", {"EXT-PASS": {"enabled": False}})
    game = _only_start_card_left(rules)
    refused(game, "A pass", "DRAW-1")
    refused(game, "A draw", "EXT-PASS")
    turn = {a.type for a in game.legal_actions("A")} - {ActionType.ADVISE}
    assert turn == {ActionType.MISPLAY}


def test_ext_short_a_penalty_draws_what_is_left_the_rest_forgiven() -> None:
    game = make_game(ABC, "C", {"A": ["R+2", "G1"], "B": ["B2"]}, ("R5", "Y1"), rest_to="C")
    play(game, "A play R+2")  # Y1 and, after RESHUFFLE-1, the R5: two cards are there
    assert game.hand("B") == sorted_codes(["B2", "Y1", "R5"])
    play(game, "C advise")  # nothing is left: the advice penalty is forgiven
    assert game.available() == 0 and game.to_play == "C"


def test_ext_short_switched_off_refuses_a_penalty_that_cannot_be_drawn() -> None:
    rules = derive(CLASSIC, "no-short", "test", {"EXT-SHORT": {"enabled": False}})
    game = make_game(ABC, "C", {"A": ["R+2", "G1"], "B": ["B2"]}, ("R5",), rules=rules,
                     rest_to="C")
    refused(game, "A play R+2", "EXT-SHORT")
    refused(game, "B advise", "EXT-SHORT")
    refused(game, "A misplay G1", "EXT-SHORT")
    assert {a.type for a in game.legal_actions("A")} == {ActionType.PASS}


def test_ext_short_switched_off_counts_the_card_freed_by_the_play() -> None:
    # Y1 is in the pile and, once R+2 covers it, the R5 can be reshuffled (RESHUFFLE-1):
    # two cards are there for the victim, so the Draw Two is allowed.
    rules = derive(CLASSIC, "no-short", "test", {"EXT-SHORT": {"enabled": False}})
    game = make_game(ABC, "C", {"A": ["R+2", "G1"], "B": ["B2"]}, ("R5", "Y1"), rules=rules,
                     rest_to="C")
    play(game, "A play R+2")
    assert game.hand("B") == sorted_codes(["B2", "Y1", "R5"]) and game.to_play == "C"


def _only_wd4_left(rules: RuleTable = CLASSIC) -> Game:
    rest = [c for c in deck_codes() if c != "W+4"]
    return make_game(ABC, "C", {"A": rest[:30], "B": rest[30:60], "C": rest[60:]},
                     ("W+4", "W+4", "W+4", "W+4"), rules=rules)


def test_ext_start_only_wild_draw_fours_left_the_start_card_acts_as_a_wild() -> None:
    game = _only_wd4_left()
    assert game.deck.code(game.top or 0) == "W+4" and len(game.pile) == 3
    assert game.phase == "color" and game.to_play == "A"
    play(game, "A choose_color green")
    assert game.phase == "play"


def test_ext_start_switched_off_the_round_is_stuck() -> None:
    rules = derive(CLASSIC, "no-start", "test", {"EXT-START": {"enabled": False}})
    game = _only_wd4_left(rules)
    assert game.phase == "start" and game.legal_actions() == []
    refused(game, "A choose_color green", "START-WD4")


def test_deal_2_cards_are_dealt_one_at_a_time_starting_at_the_dealers_left() -> None:
    # The shuffle is Random(f"{seed}/{n}") (n = shuffles so far: 1 after DEAL-1's draw);
    # the top card goes to the dealer's left, the next to their left, and so on around.
    for seed in range(4):
        game = Game(list(ABC), seed=seed)
        cards = game.deck.cards()
        random.Random(f"{seed}/1").shuffle(cards)
        for k in range(3):
            seat = (game.dealer + 1 + k) % 3
            dealt = [cards[-1 - k - 3 * r] for r in range(7)]
            assert not Counter(dealt) - Counter(game.hands[seat])  # (START-D2 may add two)
