"""Every refusal of an on-turn action, pinned whole: the rule it breaks, its words and the
rules that made the state so (``causes``), one concrete position per refusal; and the UNO-1
refusals of out-of-turn calls and catches under variants that change UNO-1.

``validate`` checks that the engine refuses exactly what the compiled relation forbids,
but not what it says: the engine mutation score found refusals whose rule ID or words
could change with no test noticing. A user reads these; a referee's log counts them by
rule ID.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import pytest

from unoformal.engine.actions import Action
from unoformal.engine.game import Game
from unoformal.rulebook.table import CLASSIC, RuleTable
from unoformal.rulebook.variants import derive, load_rules

from .helpers import afresh, make_game, pile_runs_out, play, refused

ABC = ("A", "B", "C")
# EXT-SHORT off: an effect needing more cards than are left is not allowed
SHORT_OFF = derive(CLASSIC, "short-off", "EXT-SHORT off", {"EXT-SHORT": {"enabled": False}})


def _plain(rules: RuleTable = CLASSIC) -> Game:
    return make_game(ABC, "C", {"A": ["R1", "G2"], "B": ["B1"]}, ("R5", "Y7"), rules=rules)


def _start_wild() -> Game:
    return make_game(ABC, "C", {"A": ["R1", "G2"], "B": ["B1"]}, ("W",))


def _three_cards() -> Game:
    return make_game(ABC, "C", {"A": ["R1", "G2", "G3"], "B": ["B1"]}, ("R5",))


def _empty_pile(rules: RuleTable = CLASSIC) -> Game:
    # every card not named is in C's hand: the pile is empty, the discard only R5
    return make_game(ABC, "C", {"A": ["R1", "G2", "G3"], "B": ["B1"]}, ("R5",), rest_to="C",
                     rules=rules)


def _wd4_holding_red(rules: RuleTable = CLASSIC) -> Game:
    return make_game(ABC, "C", {"A": ["W+4", "R2", "G2"], "B": ["B1"]}, ("R5",), rules=rules)


# WD4-1 read as the rulebook reads it, with no bluff: only the current color counts
NO_BLUFF = derive(CLASSIC, "no-bluff", "WD4-1 without bluffs", {"WD4-1": {"bluff_playable": False}})


def _wd4_matching_by_number() -> Game:
    # RLCard's reading: no red card, but B7 matches R7 by number, so W+4 is not playable
    return make_game(ABC, "C", {"A": ["W+4", "G5", "B7"], "B": ["B1"]}, ("R7",),
                     rules=load_rules("rlcard"))


def _wd4_answered() -> Game:
    game = make_game(ABC, "C", {"A": ["W+4", "G2"], "B": ["B+2", "B2"]}, ("R5",))
    return play(game, "A play W+4 blue")


def _wd4_played(rules: RuleTable = CLASSIC, pile: tuple[str, ...] = ("R5",),
                rest_to: str | None = None) -> Game:
    game = make_game(ABC, "C", {"A": ["W+4", "G2"], "B": ["B1", "B2"]}, pile, rules=rules,
                     rest_to=rest_to)
    return play(game, "A play W+4 blue")


def _no_top_card() -> Game:
    # RESHUFFLE-1 without keep_top: B's draw from an empty pile takes the whole discard, so
    # A moves with no top card and only the color (red, from B's R3) to match
    return play(pile_runs_out(), "B draw", "B pass")


def _wd4_legal_no_bluff() -> Game:
    # rlcard's WD4-1 (a playable card forbids it): G2 does not match R5, so W+4 is legal
    return make_game(ABC, "C", {"A": ["W+4", "G2"], "B": ["B1"]}, ("R5",),
                     rules=load_rules("rlcard"))


def _drew() -> Game:
    return play(_plain(), "A draw")


def _draw_two_stacking() -> Game:
    game = make_game(ABC, "C", {"A": ["R+2", "G2"], "B": ["B1", "B2"]}, ("R5",),
                     rules=load_rules("stacking"))
    return play(game, "A play R+2")


@dataclass(frozen=True)
class Case:
    position: Callable[[], Game]
    action: str
    rule: str
    words: str
    causes: tuple[str, ...] = ()


WD4_TAKES_EFFECT = "A's Wild Draw Four takes effect (WD4-2)"
DREW = "A drew and may play only the drawn card or pass (DRAW-1)"

CASES = {
    "start-wild-play": Case(_start_wild, "A play R1", "START-WILD",
                            "the first player must choose the color first"),
    "start-wild-draw": Case(_start_wild, "A draw", "START-WILD",
                            "the first player must choose the color first"),
    "accept-in-play": Case(_plain, "A accept", "WD4-2", "nothing to accept now"),
    "challenge-in-play": Case(_plain, "A challenge", "WD4-2", "nothing to challenge now"),
    "color-in-play": Case(_plain, "A choose_color red", "START-WILD",
                          "nothing to choose_color now"),
    "pass-before-drawing": Case(_plain, "A pass", "DRAW-1",
                                "pass only after drawing (keep the drawn card)"),
    "play-not-held": Case(_plain, "A play B9", "PLAY-1", "B9 is not in A's hand"),
    "play-no-match": Case(_plain, "A play G2", "PLAY-1", "G2 does not match R5 / red"),
    "misplay-legal": Case(_plain, "A misplay R1", "MISPLAY-1",
                          "R1 is a legal play, not a misplay"),
    "play-no-match-no-top-card": Case(_no_top_card, "A play G2", "PLAY-1",
                                      "G2 does not match - / red"),
    # the mover's own hand decides (WD4-1), so the check must ask about the mover's hand
    "misplay-legal-wd4-no-bluff": Case(_wd4_legal_no_bluff, "A misplay W+4", "MISPLAY-1",
                                       "W+4 is a legal play, not a misplay"),
    "misplay-not-held": Case(_plain, "A misplay Y9", "MISPLAY-1", "Y9 is not in A's hand"),
    "misplay-short": Case(lambda: _empty_pile(SHORT_OFF), "A misplay G2", "EXT-SHORT",
                          "not enough cards are left for the penalty"),
    "uno-too-early": Case(_three_cards, "A play R1 uno", "UNO-1",
                          "UNO is said with the next-to-last card"),
    "draw-twice": Case(_drew, "A draw", "DRAW-1", f"one draw per turn: {DREW}", ("DRAW-1",)),
    "play-other-after-drawing": Case(
        _drew, "A play R1", "DRAW-1",
        f"after drawing only the drawn card may be played: {DREW}", ("DRAW-1",)),
    "draw-nothing-left": Case(_empty_pile, "A draw", "EXT-PASS", "nothing is left to draw"),
    "draw-able-to-play": Case(lambda: _plain(load_rules("rlcard")), "A draw", "DRAW-1",
                              "a player able to play may not draw in these rules"),
    # the words follow the table's reading of WD4-1 and name the card that decides
    "wd4-no-bluff": Case(lambda: _wd4_holding_red(load_rules("rlcard")), "A play W+4 blue",
                         "WD4-1", "Wild Draw Four while holding R2, which could be played on "
                         "R5 / red"),
    "wd4-no-bluff-by-number": Case(_wd4_matching_by_number, "A play W+4 yellow", "WD4-1",
                                   "Wild Draw Four while holding B7, which could be played "
                                   "on R7 / red"),
    "wd4-no-bluff-current-color": Case(lambda: _wd4_holding_red(NO_BLUFF), "A play W+4 blue",
                                       "WD4-1", "Wild Draw Four while holding R2, a card of "
                                       "the current color red"),
    "respond-draw": Case(_wd4_played, "B draw", "WD4-2",
                         f"B must accept or challenge: {WD4_TAKES_EFFECT}", ("WD4-2",)),
    "respond-pass": Case(_wd4_played, "B pass", "WD4-2",
                         f"B must accept or challenge: {WD4_TAKES_EFFECT}", ("WD4-2",)),
    # a card that is no draw card is no answer at all: WD4-2 says what the victim may do
    "respond-play": Case(_wd4_played, "B play B1", "WD4-2",
                         f"B must accept or challenge: {WD4_TAKES_EFFECT}", ("WD4-2",)),
    "respond-answer": Case(_wd4_answered, "B play B+2", "NOSTACK-1",
                           f"the victim of a draw card cannot answer it: {WD4_TAKES_EFFECT}",
                           ("WD4-2",)),
    "accept-short": Case(lambda: _wd4_played(SHORT_OFF, ("R5", "Y1", "Y2"), "C"), "B accept",
                         "EXT-SHORT", "4 cards are not left to draw"),
    "challenge-draw-two": Case(_draw_two_stacking, "B challenge", "WD4-2",
                               "only a Wild Draw Four can be challenged"),
    "keep-a-playable-drawn-card": Case(
        lambda: play(make_game(ABC, "C", {"A": ["G2", "G3"], "B": ["B1"]}, ("R5", "R7"),
                               rules=load_rules("rlcard")), "A draw"),
        "A pass", "DRAW-1", "A may not keep the drawn card: A drew R7, which can be played, "
        "so it is played at once (DRAW-1)", ("DRAW-1",)),
    "uno-switched-off": Case(
        lambda: make_game(ABC, "C", {"A": ["R1", "G2"], "B": ["B1"]}, ("R5",),
                          rules=load_rules("rlcard")),
        "A play R1 uno", "UNO-1", "nobody calls UNO in these rules"),
    "draw-two-short": Case(
        lambda: make_game(ABC, "C", {"A": ["R+2", "G2"], "B": ["B1"]}, ("R5",), rest_to="C",
                          rules=SHORT_OFF),
        "A play R+2", "EXT-SHORT", "its victim cannot draw the cards it names"),
    # the same in a table met for the first time, its commands built now (a table's
    # commands are built once per process, SHORT_OFF's long before this test)
    "draw-two-short-fresh-table": Case(
        lambda: make_game(ABC, "C", {"A": ["R+2", "G2"], "B": ["B1"]}, ("R5",), rest_to="C",
                          rules=afresh(SHORT_OFF)),
        "A play R+2", "EXT-SHORT", "its victim cannot draw the cards it names"),
}


def test_the_cases_reach_every_refusal_rule_of_an_on_turn_action() -> None:
    # the rules these refusals cite: a new refusal site with a new rule needs a case here
    assert {c.rule for c in CASES.values()} == {
        "START-WILD", "WD4-2", "DRAW-1", "PLAY-1", "MISPLAY-1", "EXT-SHORT", "UNO-1",
        "EXT-PASS", "WD4-1", "NOSTACK-1"}


def test_misplay_1_a_wild_draw_four_that_may_not_be_played_may_be_misplayed() -> None:
    # under rlcard's WD4-1 (no bluff) a Wild Draw Four held with a red card is no legal
    # play, so misplaying it is offered and taken (MISPLAY-1), as any unplayable card
    listed = _wd4_holding_red(load_rules("rlcard"))
    assert Action.parse("A misplay W+4") in listed.legal_actions("A")
    # taken in a fresh position too, where no list of legal actions is cached: apply then
    # asks the misplay check itself, which must look at A's hand (WD4-1 depends on it)
    game = play(_wd4_holding_red(load_rules("rlcard")), "A misplay W+4")
    assert game.to_play == "B"


# ------------------------------------------------------- out-of-turn refusals (UNO-1)

# UNO-1 with the call only together with the card: a player who forgot it has no late call
# left, though the window in which others may catch them is open as usual
SAID_WITH_CARD_ONLY = derive(CLASSIC, "uno-with-card-only", "UNO-1 said with the card only",
                             {"UNO-1": {"say_before_accusation": False}})


def _one_card_left(rules: RuleTable) -> Game:
    game = make_game(ABC, "C", {"A": ["R1", "G5"], "B": ["B1", "B2"]}, ("R7",), rules=rules)
    return play(game, "A play R1")  # A keeps one card and says nothing


OUT_OF_TURN = {
    "uno-late-when-said-with-card-only": Case(
        lambda: _one_card_left(SAID_WITH_CARD_ONLY), "A uno", "UNO-1",
        "A has no UNO left to say"),
    "uno-switched-off": Case(lambda: _one_card_left(load_rules("rlcard")), "A uno", "UNO-1",
                             "A has no UNO left to say"),
    "catch-uno-switched-off": Case(lambda: _one_card_left(load_rules("rlcard")), "B catch A",
                                   "UNO-1", "nobody calls UNO in these rules"),
    # a catch refused says why
    "catch-nobody-forgot": Case(_plain, "B catch A", "UNO-1",
                                "A cannot be caught now: nobody has played their next-to-last "
                                "card without saying UNO since the turn began"),
    "catch-another-forgot": Case(lambda: _one_card_left(CLASSIC), "C catch B", "UNO-1",
                                 "B cannot be caught now: only A can, who played their "
                                 "next-to-last card without saying UNO"),
    "catch-a-hand-of-more": Case(lambda: Game.from_text(_one_card_left(CLASSIC).to_text().replace(
        "hands=G5/", "hands=G5,G6/").replace(",G6,", ",", 1)), "B catch A", "UNO-1",
        "A cannot be caught now: they hold 2 cards, not 1"),
    "catch-short": Case(lambda: play(make_game(ABC, "C", {"A": ["R1", "G5"], "B": ["B1"]},
                                               ("R7",), rules=SHORT_OFF, rest_to="C"),
                                     "A play R1"), "B catch A", "EXT-SHORT",
                        "not enough cards are left for the penalty"),
}


@pytest.mark.parametrize("name", sorted(CASES) + sorted(OUT_OF_TURN))
def test_each_refusal_names_its_rule_its_words_and_its_causes(name: str) -> None:
    case = CASES.get(name) or OUT_OF_TURN[name]
    err = refused(case.position(), case.action, case.rule)  # and the state is unchanged
    assert err.message == f"{case.action}: {case.words}"
    assert err.causes == case.causes


def test_uno_1_said_with_the_card_only_the_window_stays_open_for_a_catch() -> None:
    # the late call above is refused by the rule, not for want of a window: A can be caught
    game = _one_card_left(SAID_WITH_CARD_ONLY)
    assert game.state_json()["uno_pending"] == "A"
    assert Action.parse("B catch A") in game.legal_actions("B")
    assert Action.parse("A uno") not in game.legal_actions("A")
    play(game, "B catch A")
    assert game.view("B").hand_sizes["A"] == 1 + SAID_WITH_CARD_ONLY.uno.penalty
