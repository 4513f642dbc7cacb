"""Engine edges pinned whole, each found by the engine mutation score: the refusals of a
deal's card lists and of a color the deck lacks, refusals in the START and OVER phases,
an action with an unhashable field, ``push`` followed by ``apply``, what an accept leaves
in the text, RESHUFFLE-1 without keep_top (what can be drawn, what matches an empty
discard), what can be drawn when the discard is empty, DRAW-1's keeping of an unplayable
drawn card under RLCard's rules, the variant's name in a schema refusal, and whether a
challenge can be paid (EXT-SHORT off)."""

from __future__ import annotations

import copy
import random
from typing import Any

import pytest

from unoformal.engine.actions import Action, ActionType, check_action
from unoformal.engine.game import Game
from unoformal.errors import InvalidInputError, VariantError
from unoformal.rulebook.table import CLASSIC
from unoformal.rulebook.variants import derive, load_rules

from .helpers import deck_codes, make_game, pile_runs_out, play, refused

ABC = ("A", "B", "C")
SHORT_OFF = derive(CLASSIC, "short-off", "EXT-SHORT off", {"EXT-SHORT": {"enabled": False}})


@pytest.mark.parametrize(("deal", "message"), [
    ({"hands": {"A": "R1"}, "draw_pile": []}, "deal.hands.A must be a list of card codes"),
    ({"hands": {}, "draw_pile": ["R1", 5]}, "deal.draw_pile[1]: 5: a card code is a string"),
])
def test_deck_1_a_deal_whose_cards_are_not_codes_is_refused_naming_where(
        deal: dict[str, Any], message: str) -> None:
    with pytest.raises(InvalidInputError) as info:
        Game(["A", "B"], dealer="B", deal=deal)
    assert (info.value.message, info.value.rule_id) == (message, "DECK-1")


def test_deck_1_a_color_the_deck_lacks_is_refused_citing_it() -> None:
    three = derive(CLASSIC, "three-colors", "", {"DECK-1": {"colors": ["red", "yellow",
                                                                      "green"]}})
    game = make_game(ABC, "C", {"A": ["W", "G2"]}, ("R5",), rules=three)
    with pytest.raises(InvalidInputError) as info:
        game.apply(Action.parse("A play W blue"))
    assert (info.value.message, info.value.rule_id) == (
        "A play W blue: blue is not in this deck", "DECK-1")


def test_start_wd4_with_ext_start_off_every_action_is_refused_in_words() -> None:
    # only Wild Draw Fours are left to turn, and EXT-START is off: nothing settles it
    no_ext = derive(CLASSIC, "no-ext-start", "", {"EXT-START": {"enabled": False}})
    wd4s = [c for c in deck_codes() if c == "W+4"]
    game = make_game(ABC, "C", {}, wd4s, rules=no_ext, rest_to="C")
    assert game.phase == "start"
    # Nothing settled the first turn: the state keeps the round's defaults, seat 0 and left.
    assert " turn=A dir=left color=- phase=start " in game.to_text()
    err = refused(game, "A draw", "START-WD4")
    assert err.message == "A draw: the start card is not settled (EXT-START is off)"


def test_end_1_an_action_after_the_round_is_refused_in_words() -> None:
    game = play(make_game(("A", "B"), "B", {"A": ["R1"]}, ("R7",)), "A play R1")
    assert game.round_over
    err = refused(game, "B draw", "END-1")
    assert err.message == "B draw: the round is over"


def test_play_1_an_action_with_an_unhashable_field_is_refused_not_crashed() -> None:
    game = make_game(ABC, "C", {"A": ["R1"]}, ("R7",))
    bad = Action("A", ActionType.PLAY, ["R1"])  # type: ignore[arg-type]
    with pytest.raises(InvalidInputError):
        game.apply(bad)
    assert game.history == []


def test_play_1_push_records_the_action_and_apply_checks_the_next_one() -> None:
    def position() -> Game:
        return make_game(ABC, "C", {"A": ["R1", "G2"], "B": ["R3", "B4"]}, ("R7",))
    game, applied = position(), position()
    first = Action.parse("A play R1")
    assert first in game.legal_actions()
    game.push(first)
    applied.apply(first)
    assert game.history == [first] and game.to_text() == applied.to_text()
    play(game, "B play R3")  # apply right after push: no list of legal actions is cached
    assert [str(a) for a in game.history] == ["A play R1", "B play R3"]
    refused(game, "A play R3", "PLAY-1")


def test_wd4_2_an_accepted_penalty_leaves_nothing_pending() -> None:
    game = make_game(ABC, "C", {"A": ["W+4", "G2"], "B": ["B1"]}, ("R5",))
    play(game, "A play W+4 blue")
    assert " pending=4 " in game.to_text()
    play(game, "B accept")
    assert " pending=0 kind=- offender=- " in game.to_text()
    assert game.state_json()["phase"] == "play"


def test_reshuffle_1_without_keep_top_the_whole_discard_becomes_the_pile() -> None:
    game = pile_runs_out()
    assert game.available() == 3  # the pile is empty; all of R7, R5, R3 would come back
    before = sorted(game.hands[1])
    play(game, "B draw")  # the pile is empty: R7, R5 and R3 are shuffled into a new one
    assert game.top is None and len(game.pile) == 2
    drawn = [c for c in game.hands[1] if c not in before or game.hands[1].count(c) >
             before.count(c)]
    assert sorted(game.deck.code(c) for c in game.pile + drawn[:1]) == ["R3", "R5", "R7"]


@pytest.mark.parametrize(("hand", "pile", "can"), [
    # a bluff (A holds R2): an upheld challenge makes A draw 4, and 4 are left (CHAL-2)
    (["W+4", "R2", "G2"], ("R5", "Y1", "Y2", "Y3"), True),
    # a legal Wild Draw Four: a failed challenge makes B draw 6, and only 4 are left (CHAL-3)
    (["W+4", "G2"], ("R5", "Y1", "Y2", "Y3"), False),
])
def test_ext_short_off_a_challenge_is_allowed_only_when_its_outcome_can_be_drawn(
        hand: list[str], pile: tuple[str, ...], can: bool) -> None:
    game = make_game(ABC, "C", {"A": hand, "B": ["B1"]}, pile, rules=SHORT_OFF, rest_to="C")
    play(game, "A play W+4 blue")
    assert game.available() == 4
    challenge = Action.parse("B challenge")
    assert (challenge in game.legal_actions("B")) is can
    if can:
        play(game, "B challenge")
        assert game.cause is not None and game.cause[0] == "CHAL-2"
    else:
        # The card is a Wild Draw Four; what fails is the draw (the command's first
        # failing conjunct; the hand-written check cited WD4-2 with words that were false).
        err = refused(game, "B challenge", "EXT-SHORT")
        assert err.message == "B challenge: not enough cards are left for the penalty"


def test_reshuffle_1_without_keep_top_an_empty_discard_matches_by_color_alone() -> None:
    game = play(pile_runs_out(), "B draw", "B pass")
    assert game.top is None and game.to_play == "A" and game.color == 0  # red, from R3
    plays = {a.card for a in game.legal_actions("A") if a.type is ActionType.PLAY}
    assert plays == {"R0", "R1", "R2", "R3", "R4", "R5", "R6", "R7", "R8", "R9", "RR", "RS",
                     "R+2", "W", "W+4"}  # PLAY-1: no top card to match by number or symbol
    refused(game, "A play G2", "PLAY-1")
    # WD4-1 asked with no top card: A holds red cards of the current color, so the Wild
    # Draw Four played is a bluff (legal=0), which a challenge would uphold
    play(game, "A play W+4 blue")
    assert game.phase == "respond" and " legal=0 " in game.to_text()


def test_reshuffle_1_an_empty_discard_leaves_the_whole_pile_to_draw() -> None:
    """A stated state may have no discard at all: keep_top then keeps nothing back."""
    text = Game(["A", "B"], seed=3).to_text()
    fields = dict(f.split("=", 1) for f in text.split())
    empty = text.replace(f" pile={fields['pile']} discard={fields['discard']} ",
                         f" pile={fields['pile']},{fields['discard']} discard= ")
    game = Game.from_text(empty)
    assert game.top is None and game.available() == len(game.pile) == 108 - 2 * 7


def test_draw_1_under_rlcards_rules_an_unplayable_drawn_card_is_kept_by_passing() -> None:
    rlcard = load_rules("rlcard")  # must_play_drawn: a playable drawn card is played at once
    game = make_game(ABC, "C", {"A": ["G2", "B5"]}, ("R7", "Y9"), rules=rlcard, rest_to="C")
    play(game, "A draw")  # Y9 on R7: not playable
    assert "A pass" in [str(a) for a in game.legal_actions("A")]
    play(game, "A pass")
    assert game.to_play == "B"
    game = make_game(ABC, "C", {"A": ["G2", "B5"]}, ("R7", "R9"), rules=rlcard, rest_to="C")
    play(game, "A draw")  # R9 on R7: played at once, never kept
    assert [str(a) for a in game.legal_actions("A", penalties=False)] == ["A play R9"]
    refused(game, "A pass", "DRAW-1")
    # A drawn W+4 is legal here (WD4-1: A holds nothing else to play), so it is played at
    # once too; the refusal, asked without listing the legal actions, reads A's hand.
    game = make_game(ABC, "C", {"A": ["G2", "B5"]}, ("R7", "W+4"), rules=rlcard, rest_to="C")
    play(game, "A draw")
    refused(game, "A pass", "DRAW-1")
    assert "A play W+4 red" in [str(a) for a in game.legal_actions("A")]
    assert [str(a) for a in game.legal_actions("A", penalties=False)] == [
        f"A play W+4 {c}" for c in ("red", "yellow", "green", "blue")]


def test_draw_1_under_rlcards_rules_a_legal_w4_in_hand_forbids_drawing() -> None:
    """RLCard's players draw only when nothing is playable; a W+4 is playable when nothing
    else is (WD4-1), and whether it is depends on the rest of the hand."""
    rlcard = load_rules("rlcard")
    game = make_game(ABC, "C", {"A": ["W+4", "G2"]}, ("R7", "Y9"), rules=rlcard, rest_to="C")
    assert [str(a) for a in game.legal_actions("A", penalties=False)] == [
        f"A play W+4 {c}" for c in ("red", "yellow", "green", "blue")]
    refused(game, "A draw", "DRAW-1")


def test_advice_1_off_misplays_are_still_listed_for_the_player_to_move() -> None:
    off = derive(CLASSIC, "no-advice", "ADVICE-1 off", {"ADVICE-1": {"enabled": False}})
    game = make_game(ABC, "C", {"A": ["G2", "R5"]}, ("R7", "Y1", "Y2"), rules=off,
                     rest_to="C")
    assert [str(a) for a in game.legal_actions()] == [
        "A play R5", "A play R5 uno", "A misplay G2", "A draw"]
    assert [str(a) for a in game.legal_actions(penalties=False)] == [
        "A play R5", "A play R5 uno", "A draw"]


def test_uno_1_after_an_upheld_challenge_the_offender_holds_five_and_cannot_be_caught() -> None:
    """A went down to one card with a bluffed W+4 and said nothing; the upheld challenge
    gave A four more (CHAL-2). UNO-1's catch needs the one card: no catch is listed."""
    game = make_game(ABC, "C", {"A": ["W+4", "R2"], "B": ["B1", "B2"]},
                     ("R7", "Y1", "Y2", "Y3", "Y4", "Y5", "Y6"), rest_to="C")
    play(game, "A play W+4 blue")
    assert "C catch A" in [str(a) for a in game.legal_actions("C")]
    play(game, "B challenge")
    assert len(game.hands[0]) == 5
    assert not [a for a in game.legal_actions() if a.type is ActionType.CATCH]
    refused(game, "C catch A", "UNO-1")


def test_a_refusal_by_the_schema_names_the_variant() -> None:
    with pytest.raises(VariantError) as info:
        derive(CLASSIC, "mine", "", {"UNO-1": {"penalty": -1}})
    assert str(info.value).startswith('variant "mine": rules.UNO-1.penalty = -1: ')


SMALL = derive(CLASSIC, "small", "numbers 0-4 only", {
    "DECK-1": {"number_copies": [1, 2, 2, 2, 2]}, "DECK-2": {"maximum": 4}})


@pytest.mark.parametrize(("action", "rules", "message", "rule_id"), [
    (Action("A", ActionType.PLAY), CLASSIC, "A play: play needs a card", "PLAY-1"),
    (Action("A", ActionType.MISPLAY), CLASSIC, "A misplay: misplay needs a card", "PLAY-1"),
    (Action("A", ActionType.PLAY, "R9"), SMALL,
     "A play R9: card R9 is not in this deck (DECK-1)", "DECK-1"),
    (Action("A", ActionType.DRAW, "R5"), CLASSIC, "A draw R5: draw takes no card", "PLAY-1"),
    (Action("A", ActionType.PLAY, "R5", "red"), CLASSIC,
     "A play R5 red: a color is named only with a wild card", "WILD-1"),
    (Action("A", ActionType.DRAW, None, "red"), CLASSIC, "A draw red: draw takes no color",
     "WILD-1"),
    (Action("A", ActionType.PLAY, "W"), CLASSIC, "A play W: name a color", "WILD-1"),
    (Action("A", ActionType.CHOOSE_COLOR), CLASSIC, "A choose_color: name a color", "WILD-1"),
    (Action("A", ActionType.CATCH), CLASSIC, "A catch: catch needs a target", "UNO-1"),
    (Action("A", ActionType.CATCH, target="Zed"), CLASSIC,
     "unknown target 'Zed'; players are A, B, C", "DECK-2"),
    (Action("A", ActionType.DRAW, target="B"), CLASSIC, "A draw B: draw takes no target",
     "DRAW-1"),
    (Action("A", ActionType.DRAW, uno=True), CLASSIC, "A draw uno: 'uno' goes with a play",
     "UNO-1"),
])
def test_an_action_of_the_wrong_shape_is_refused_naming_its_rule_and_the_state(
        action: Action, rules: Any, message: str, rule_id: str) -> None:
    """What each verb takes (PLAY-1 cards, WILD-1 colors, UNO-1 targets and calls), and
    a card the deck lacks (DECK-1): refused before legality, the state unchanged."""
    game = make_game(ABC, "C", {"A": ["R1", "W"]}, ("R2",), rules=rules, rest_to="C")
    before = game.to_text()
    with pytest.raises(InvalidInputError) as info:
        game.apply(action)
    err = info.value
    assert (err.message, err.rule_id, err.action) == (message, rule_id, str(action))
    assert err.state == before == game.to_text() and game.history == []


@pytest.mark.parametrize(("action", "message", "rule_id", "key"), [
    (Action("A", "draw"), "action type 'draw': expected an ActionType", None,  # type: ignore[arg-type]
     "action"),
    (Action(5, ActionType.DRAW), "player 5: a name is a string", "DECK-2", "player"),  # type: ignore[arg-type]
    (Action("A", ActionType.CATCH, target=5), "target 5: a name is a string", "DECK-2",  # type: ignore[arg-type]
     "target"),
    (Action("A", ActionType.PLAY, "Z9"), "unknown card code 'Z9' (expected R0-R9, RS, RR, "
     "R+2 and likewise Y, G, B; W; W+4)", "DECK-1", "card"),
    (Action("A", ActionType.PLAY, "W", "pink"),
     "color 'pink': expected one of red, yellow, green, blue", "WILD-1", "color"),
    (Action("A", ActionType.PLAY, "R5", uno="yes"), "'yes': must be true or false", None,  # type: ignore[arg-type]
     "uno"),
])
def test_play_1_each_field_of_a_hand_built_action_is_checked_and_named(
        action: Action, message: str, rule_id: str | None, key: str) -> None:
    """DECK-2 names, DECK-1 card codes, WILD-1 colors, a true-or-false UNO call: each wrong
    field is refused in its own words, with its rule and the field it is in."""
    with pytest.raises(InvalidInputError) as info:
        check_action(action)
    assert (info.value.message, info.value.rule_id, info.value.key) == (message, rule_id, key)
    game = Game(["A", "B"], seed=1)
    before = game.to_text()
    with pytest.raises(InvalidInputError) as info:
        game.apply(action)
    assert (info.value.message, info.value.key) == (message, key)
    assert info.value.state == before == game.to_text()


@pytest.mark.parametrize(("kwargs", "words", "key"), [
    ({"rules": "classic"},
     "rules 'classic': expected a RuleTable (see unoformal.rulebook.load_rules)", None),
    ({"dealer": ""}, "dealer '': use 1 to 24 ASCII letters and digits", "dealer"),
    ({"dealer": 5}, "dealer 5: a name is a string", "dealer"),
    ({"deal": 5}, 'deal must be {"hands": {...}, "draw_pile": [...]}', "deal"),
])
def test_a_game_built_with_a_wrong_argument_is_refused_naming_it(
        kwargs: dict[str, Any], words: str, key: str | None) -> None:
    with pytest.raises(InvalidInputError) as info:
        Game(["A", "B"], **kwargs)
    assert info.value.message.startswith(words) and info.value.key == key


@pytest.mark.parametrize("thing", ["A draw", {"player": "A", "action": "draw"}, 5])
def test_play_1_what_is_not_an_action_is_refused_without_an_action_field(thing: Any) -> None:
    """The error's action field (its JSON's "action") names an action only when it is one."""
    game = Game(["A", "B"], seed=1)
    before = game.to_text()
    with pytest.raises(InvalidInputError) as info:
        game.apply(thing)
    assert info.value.message == f"{thing!r} is not an Action"
    assert info.value.action is None and info.value.state == before == game.to_text()


def test_ext_short_off_without_keep_top_a_draw_two_counts_the_whole_discard() -> None:
    """EXT-SHORT off: a +2 is playable only if its victim can draw 2. Once it is played,
    RESHUFFLE-1 without keep_top returns the whole discard, the +2 included (2 cards);
    with keep_top the top stays, and 1 card is not enough."""
    both = derive(CLASSIC, "short-off-no-keep", "", {"EXT-SHORT": {"enabled": False},
                                                     "RESHUFFLE-1": {"keep_top": False}})
    for rules, playable in ((both, True), (SHORT_OFF, False)):
        game = make_game(ABC, "C", {"A": ["R+2", "G5"]}, ("R7",), rules=rules, rest_to="C")
        assert game.available() == (1 if rules is both else 0)
        assert (Action.parse("A play R+2") in game.legal_actions("A")) is playable


@pytest.mark.parametrize(("action", "message", "key"), [
    (Action("two words", ActionType.DRAW), "player 'two words': use 1 to 24 ASCII letters",
     "player"),
    (Action(5, ActionType.DRAW), "player 5: a name is a string", "player"),  # type: ignore[arg-type]
    (Action("A", ActionType.CATCH, target=""), "target '': use 1 to 24 ASCII letters",
     "target"),
    (Action("A", ActionType.CATCH, target=7), "target 7: a name is a string", "target"),  # type: ignore[arg-type]
])
def test_deck_2_an_action_whose_name_is_not_a_name_is_refused_naming_the_field(
        action: Action, message: str, key: str) -> None:
    game = make_game(ABC, "C", {"A": ["R1", "W"]}, ("R2",), rest_to="C")
    with pytest.raises(InvalidInputError) as info:
        game.apply(action)
    err = info.value
    assert err.message.startswith(message) and (err.rule_id, err.key) == ("DECK-2", key)
    assert game.history == []


def test_two_1_a_reverse_that_also_skips_skips_once_more_as_a_skip() -> None:
    """REV-1's skips and TWO-1 add up: with 2 players a Reverse that skips one more player
    skips twice, which gives the turn back to the other player."""
    rev = derive(CLASSIC, "rev-skips", "REV-1 skips one", {"REV-1": {"skips": 1}})
    for rules, after in ((rev, "B"), (CLASSIC, "A")):
        game = make_game(("A", "B"), "B", {"A": ["RR", "G5"]}, ("R7", "Y1"), rules=rules,
                         rest_to="B")
        play(game, "A play RR")
        assert game.to_play == after


def test_nostack_1_a_draw_card_the_answers_leave_out_is_drawn_at_once() -> None:
    """Answering is allowed (victim_may_answer) but only with a W+4: a Draw Two is then
    not answerable, so its victim draws at once and loses the turn (D2-1)."""
    w4 = derive(CLASSIC, "answer-w4", "", {"NOSTACK-1": {"victim_may_answer": True,
                                                          "answers": ["W+4"]}})
    game = make_game(ABC, "C", {"A": ["R+2", "G5"]}, ("R7", "Y1", "Y2"), rules=w4,
                     rest_to="C")
    play(game, "A play R+2")
    assert (game.phase, game.to_play, len(game.hands[1])) == ("play", "C", 2)


def test_nostack_1_an_answer_need_not_match_a_draw_two_answers_a_wild_draw_four() -> None:
    """Where a Draw Two may answer a Wild Draw Four, the answer need not match (PLAY-1 does
    not bind an answer): a red Draw Two answers a Wild Draw Four naming green. The listing
    passes over a card that does not match only outside an answer."""
    both = derive(CLASSIC, "answer-both", "", {"NOSTACK-1": {"victim_may_answer": True,
                                                            "answers": ["+2", "W+4"]}})
    game = make_game(ABC, "C", {"A": ["W+4", "G5"], "B": ["R+2", "B9"]}, ("Y7", "Y1", "Y2"),
                     rules=both, rest_to="C")
    play(game, "A play W+4 green")
    assert (game.phase, game.to_play) == ("respond", "B")
    for penalties in (True, False):
        listed = [str(a) for a in game.legal_actions("B", penalties=penalties)]
        assert "B play R+2" in listed and "B play B9" not in listed, listed
    play(game, "B play R+2")
    assert (game.phase, game.to_play) == ("respond", "C")


def test_wd4_2_the_respond_phase_names_the_card_just_played_whatever_lies_below() -> None:
    game = make_game(ABC, "C", {"A": ["R1", "W+4", "G5"], "B": ["R3", "B9"]},
                     ("R7", "Y1", "Y2"), rest_to="C")
    play(game, "A play R1", "B play R3", "C draw", "C pass", "A play W+4 blue")
    assert [game.deck.code(c) for c in game.discard] == ["R7", "R1", "R3", "W+4"]
    err = refused(game, "B draw", "WD4-2")
    assert err.message == "B draw: B must accept or challenge: A's Wild Draw Four takes " \
        "effect (WD4-2)"


@pytest.mark.parametrize(("rules", "with_call"), [
    (lambda: CLASSIC, {False, True}),
    # UNO-1 switched off (RLCard's values): nobody calls UNO, so no play carries it
    (lambda: load_rules("rlcard"), {False}),
    # UNO-1 said only after the card: a play never carries it
    (lambda: derive(CLASSIC, "uno-after", "", {"UNO-1": {"say_with_card": False}}), {False}),
])
def test_uno_1_a_play_carries_uno_only_where_the_call_goes_with_the_card(
        rules: Any, with_call: set[bool]) -> None:
    # A new table object: the engine's per-table lookups, where the plays are listed, are
    # cached by table, and a table met before (by another test in this process, or before
    # mutmut forked it) would be answered from lookups built earlier.
    table = copy.copy(rules())
    # A holds two cards, so playing one leaves the last (UNO-1's moment to call).
    game = make_game(["A", "B"], "B", {"A": ["R1", "R2"], "B": ["G5", "G6"]}, ("R7",),
                     rules=table)
    plays = [a for a in game.legal_actions("A") if a.type is ActionType.PLAY]
    assert {a.card for a in plays} == {"R1", "R2"}
    assert {a.uno for a in plays} == with_call


@pytest.mark.parametrize("variant", ["classic", "jump-in"])
def test_play_1_a_players_legal_actions_are_theirs_of_everyones(variant: str) -> None:
    """``legal_actions(player)`` is exactly that player's share of every player's list, in
    the same order (out-of-turn moves included: advice, UNO, a catch, a jump), and a name
    that is not a player is refused (DECK-2)."""
    rules = load_rules(variant)
    rng = random.Random(3)
    for seed in range(4):
        game = Game(["A", "B", "C"], rules=rules, seed=seed)
        while not game.round_over:
            everyone = game.legal_actions()
            for name in game.names:
                assert game.legal_actions(name) == [a for a in everyone
                                                    if a.player == name], game.to_text()
            game.apply(rng.choice(everyone))
    with pytest.raises(InvalidInputError) as info:
        Game(["A", "B"], seed=1).legal_actions("Zed")
    assert info.value.rule_id == "DECK-2"
