"""The table values that state RLCard's rule choices (DRAW-1 must_play_drawn, UNO-1 off,
START-* color_at_random, WD4-1 playable-card): each changes what the engine does, and
flipping it alone on the classic table makes the proof that depends on it fail with a
counterexample (the project's rule: one value changes the engine and the proofs)."""

from __future__ import annotations

from typing import Any

import pytest

from tests.engine.helpers import full_deal
from unoformal.engine.actions import Action
from unoformal.engine.game import Chance, Game
from unoformal.engine.record import replay
from unoformal.errors import IllegalActionError
from unoformal.rulebook.table import CLASSIC, RuleTable
from unoformal.rulebook.variants import VariantError, derive, load_rules
from unoformal.verification.z3.properties import property_named
from unoformal.verification.z3.prover import REFUTED, check
from unoformal.verification.z3.witness import state_text

AB = ["A", "B"]


def _table(overrides: dict[str, dict[str, Any]]) -> RuleTable:
    return derive(CLASSIC, "flipped", "one value flipped", overrides)


def _game(rules: RuleTable, hands: dict[str, list[str]], pile: list[str]) -> Game:
    return Game(AB, seed=1, rules=rules, dealer="B", deal=full_deal(hands, pile))


def _refuted(table: RuleTable, prop: str, label: str) -> str:
    """The property's verdict on ``table`` is a counterexample at ``label``; on classic it
    is not (the one value did it). Returns the counterexample's state text."""
    assert check(CLASSIC, property_named(prop), 2).verdict != REFUTED
    result = check(table, property_named(prop), 2)
    assert result.verdict == REFUTED and result.label is not None
    assert result.label.startswith(label), result.label
    assert result.model is not None and result.spec is not None and result.pre is not None
    return state_text(result.spec, result.model, result.pre, table)


# ------------------------------------------------------------ DRAW-1 must_play_drawn

MUST_PLAY = {"DRAW-1": {"must_play_drawn": True}}


def _drawn_playable(rules: RuleTable) -> Game:
    # A to move on R5 holding nothing red or 5; the pile's top card (R7) matches
    game = _game(rules, {"A": ["G1", "B2"], "B": ["Y3", "Y4"]}, ["R5", "R7"])
    game.apply(Action.parse("A draw"))
    return game


def test_draw_1_must_play_drawn_takes_the_keep_away_from_a_playable_drawn_card() -> None:
    classic = _drawn_playable(CLASSIC)
    assert Action.parse("A pass") in classic.legal_actions("A")
    flipped = _drawn_playable(_table(MUST_PLAY))
    assert Action.parse("A pass") not in flipped.legal_actions("A")
    assert Action.parse("A play R7") in flipped.legal_actions("A")
    with pytest.raises(IllegalActionError) as err:
        flipped.apply(Action.parse("A pass"))
    assert err.value.rule_id == "DRAW-1" and "played at once" in err.value.message


def test_draw_1_must_play_drawn_keeps_a_drawn_card_that_cannot_be_played() -> None:
    game = _game(_table(MUST_PLAY), {"A": ["G1", "B2"], "B": ["Y3", "Y4"]}, ["R5", "G7"])
    game.apply(Action.parse("A draw"))
    game.apply(Action.parse("A pass"))
    assert game.to_play == "B"


def test_draw_1_must_play_drawn_flipped_refutes_after_draw_with_a_counterexample() -> None:
    text = _refuted(_table(MUST_PLAY), "after-draw", "keep (allowed)")
    assert "phase=drawn" in text


# ------------------------------------------------------------------- UNO-1 off

NO_UNO = {"UNO-1": {"enabled": False}}


def test_uno_1_off_no_window_no_call_no_catch() -> None:
    hands = {"A": ["R1", "R2"], "B": ["Y3", "Y4"]}
    classic = _game(CLASSIC, hands, ["R5"])
    classic.apply(Action.parse("A play R1"))
    assert Action.parse("B catch A") in classic.legal_actions("B")
    flipped = _game(_table(NO_UNO), hands, ["R5"])
    assert not any(a.uno for a in flipped.legal_actions("A"))
    with pytest.raises(IllegalActionError) as err:
        flipped.apply(Action.parse("A play R1 uno"))
    assert err.value.rule_id == "UNO-1"
    flipped.apply(Action.parse("A play R1"))
    assert flipped.uno_window is None
    assert Action.parse("B catch A") not in flipped.legal_actions("B")
    with pytest.raises(IllegalActionError):
        flipped.apply(Action.parse("B catch A"))


def test_uno_1_off_refutes_uno_with_a_counterexample() -> None:
    _refuted(_table(NO_UNO), "uno", "play_")


def test_uno_1_off_is_a_switch_only_because_its_entry_says_what_off_means() -> None:
    assert CLASSIC.uno.switchable and "Nobody calls UNO" in CLASSIC.uno.when_off
    with pytest.raises(VariantError, match="CHAL-2"):
        _table({"CHAL-2": {"enabled": False}})


# --------------------------------------------------------- START-* color_at_random

RANDOM_WILD = {"START-WILD": {"first_player_chooses_color": False, "color_at_random": True}}


def test_start_wild_color_at_random_gives_a_color_and_the_first_player_plays() -> None:
    hands = {"A": ["G1", "B2"], "B": ["Y3", "Y4"]}
    classic = _game(CLASSIC, hands, ["W"])
    assert classic.phase == "color" and classic.color is None
    colors = set()
    for seed in range(12):
        game = Game(AB, seed=seed, rules=_table(RANDOM_WILD), dealer="B",
                    deal=full_deal(hands, ["W"]))
        assert game.phase == "play" and game.to_play == "A" and game.color is not None
        colors.add(game.color)
    assert len(colors) > 1  # chance, from the seed


def test_start_wild_color_at_random_is_stated_by_a_record_and_checked() -> None:
    rules = load_rules("rlcard")
    record: dict[str, Any] = {
        "version": 2, "rules": "rlcard", "players": AB, "dealer": "B",
        "deal": full_deal({"A": ["G1", "B2"], "B": ["Y3", "Y4"]}, ["W"]),
        "start_color": "blue", "actions": [{"player": "A", "action": "play", "card": "B2"}]}
    played = replay(record, rules)
    assert played.error is None and played.game.color is not None
    record["start_color"] = "red"
    assert replay(record, rules).error is not None  # B2 does not match red
    # under classic the first player names the color: a stated one deviates from
    # START-WILD at the set-up (no action index), as conform counts it (issue 41)
    classic = replay({**record, "rules": "classic"})
    assert classic.error is not None and classic.error_index is None
    assert (classic.error.rule_id, classic.error.key) == ("START-WILD", "start_color")


def test_start_wild_color_at_random_refutes_start_card_with_a_counterexample() -> None:
    text = _refuted(_table(RANDOM_WILD), "start-card", "start_wild")
    assert "phase=dealt" in text


def test_start_d2_color_at_random_refutes_start_card_too() -> None:
    _refuted(_table({"START-D2": {"color_at_random": True}}), "start-card", "start_draw_two")


def test_start_color_once_a_start_rule_cannot_both_choose_and_draw_the_color() -> None:
    with pytest.raises(VariantError, match=r"START-WILD\.color_at_random"):
        _table({"START-WILD": {"color_at_random": True}})


def test_draw_1_a_drawn_card_cannot_have_to_be_played_when_it_may_not_be() -> None:
    with pytest.raises(VariantError, match=r"DRAW-1\.must_play_drawn"):
        _table({"DRAW-1": {"must_play_drawn": True, "may_play_drawn": False}})
    _table({"DRAW-1": {"must_play_drawn": True}})  # with may_play_drawn, as rlcard has it


# ----------------------------------------------- WD4-1 playable-card, no bluff

NOTHING_ELSE = {"WD4-1": {"illegal_when_holding": "playable-card", "bluff_playable": False}}


def test_wd4_1_playable_card_another_wild_draw_four_does_not_count() -> None:
    # RLCard offers wild_draw_4 when nothing but Wild Draw Fours is legal
    rules = _table(NOTHING_ELSE)
    game = _game(rules, {"A": ["W+4", "W+4", "G1"], "B": ["Y3", "Y4"]}, ["R5"])
    assert Action.parse("A play W+4 red") in game.legal_actions("A")
    # a number matching by number in another color is another playable card
    game = _game(rules, {"A": ["W+4", "G5"], "B": ["Y3", "Y4"]}, ["R5"])
    assert not any(a.card == "W+4" and a.type.value == "play" for a in game.legal_actions("A"))
    assert Action.parse("A play W+4 red") in _game(
        CLASSIC, {"A": ["W+4", "G5"], "B": ["Y3", "Y4"]}, ["R5"]).legal_actions("A")


# ------------------------------------------------------------ the explorer agrees

def test_explorer_branches_over_a_random_start_color_as_z3_does() -> None:
    from unoformal.compare.successors import crosscheck
    from unoformal.rulebook.variants import VARIANTS

    rlcard = VARIANTS["rlcard"][1]
    summary = crosscheck("tiny", sample=20, overrides=rlcard)  # tiny has a Wild
    assert summary.mismatches == []


def test_the_start_color_check_fails_on_the_planted_bug(monkeypatch: pytest.MonkeyPatch,
                                                        patchable_explorer: None) -> None:
    from unoformal.compare.successors import crosscheck
    from unoformal.rulebook.variants import VARIANTS
    from unoformal.verification.explore.chance import Enumerate

    rlcard = VARIANTS["rlcard"][1]
    # planted: the explorer takes the seeded color instead of branching over every one
    monkeypatch.setattr(Enumerate, "color", Chance.color)
    planted = crosscheck("tiny", sample=20, overrides=rlcard)
    assert planted.mismatches


def test_draw_1_must_play_drawn_refusals_name_the_drawn_card_only_when_playable() -> None:
    game = _drawn_playable(_table(MUST_PLAY))
    with pytest.raises(IllegalActionError) as err:
        game.apply(Action.parse("A play G1"))
    assert "A drew R7, which can be played, so it is played at once (DRAW-1)" in \
        err.value.message
    kept = _game(_table(MUST_PLAY), {"A": ["G1", "B2"], "B": ["Y3", "Y4"]}, ["R5", "G7"])
    kept.apply(Action.parse("A draw"))
    with pytest.raises(IllegalActionError) as err:
        kept.apply(Action.parse("A play G1"))
    assert "which can be played" not in err.value.message
