"""The engine's outward forms, pinned exactly: the state as JSON and as a player's view
(HIDDEN-1), records (DECK-1, DEAL-1, DEAL-2), variant files, and the messages of refused
input, which must name what was wrong, where, and the rule it breaks.

These are the checks the engine mutation score (``benchmarks/mutation.py``) showed were
missing: each test here kills mutants that every other test let through.
"""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path
from typing import Any

import pytest

from unoformal.engine.actions import Action, ActionType
from unoformal.engine.game import Game
from unoformal.engine.record import (
    game_from_record,
    load_record,
    record_actions,
    replay,
    to_record,
)
from unoformal.errors import IllegalActionError, InvalidInputError
from unoformal.inputs import MAX_ACTION_TEXT, MAX_RECORD_ACTIONS, MAX_STATE_TEXT
from unoformal.rulebook import cards
from unoformal.rulebook.cards import Color, parse_face
from unoformal.rulebook.deck import Deck
from unoformal.rulebook.table import CLASSIC, CatchUntil
from unoformal.rulebook.variants import derive, load_rules, load_toml

from .helpers import make_game, make_record, pile_runs_out, play

ABC = ("A", "B", "C")
VERBS = ("play, draw, pass, accept, challenge, uno, catch, choose_color, misplay, advise")


def _position() -> Game:
    return make_game(ABC, "C", {"A": ["R1", "G5"], "B": ["R2", "B1"], "C": ["R3", "G3"]},
                     ("R7",))


# ------------------------------------------------------------- state as JSON


def test_hidden_1_state_json_of_a_position_is_exactly_this() -> None:
    game = _position()
    out = game.state_json()
    assert out == {
        "rules": "classic", "players": ["A", "B", "C"], "dealer": "C", "round": 1,
        "to_play": "A", "phase": "play", "direction": "left", "color": "red", "top": "R7",
        "hands": {"A": ["R1", "G5"], "B": ["R2", "B1"], "C": ["R3", "G3"]},
        "draw_pile": 101, "discard_pile": 1, "uno_pending": None, "round_over": False,
        "winner": None, "round_points": 0, "scores": {"A": 0, "B": 0, "C": 0},
        "game_over": False, "game_winner": None, "text": game.to_text(),
    }


def test_rev_1_state_json_and_view_say_right_after_a_reverse() -> None:
    game = make_game(ABC, "C", {"A": ["RR", "G5"], "B": ["R2"]}, ("R7",))
    play(game, "A play RR")
    assert game.state_json()["direction"] == "right"
    assert game.view("B").direction == "right"


def test_uno_1_state_json_names_who_may_be_caught() -> None:
    game = make_game(ABC, "C", {"A": ["R1", "G5"], "B": ["B1", "B2"]}, ("R7",))
    play(game, "A play R1")
    assert game.state_json()["uno_pending"] == "A"
    assert game.view("B").uno_pending == "A"


def test_score_1_state_json_of_a_finished_round_names_winner_and_points() -> None:
    game = make_game(ABC, "C", {"A": ["R1"], "B": ["B1", "B2"], "C": ["W"]}, ("R7",))
    play(game, "A play R1")
    out = game.state_json()
    assert out["round_over"] and out["winner"] == "A"
    assert out["round_points"] == 1 + 2 + 50 == out["scores"]["A"]


def test_end_1_a_winner_before_the_final_draw_is_not_reported() -> None:
    # The player who went out with a Wild Draw Four wins only once the victim has drawn:
    # until then neither the winner nor round points are reported.
    game = make_game(ABC, "C", {"A": ["W+4"], "B": ["B1", "B2"]}, ("R7",))
    play(game, "A play W+4 green")
    out = game.state_json()
    assert not out["round_over"] and out["winner"] is None and out["round_points"] == 0


def test_reshuffle_1_with_the_whole_discard_returned_there_is_no_top_card() -> None:
    game = play(pile_runs_out(), "B draw")
    assert game.top is None
    assert game.state_json()["top"] is None and game.view("A").top is None


# ------------------------------------------------------------------ a view


def test_hidden_1_a_view_is_exactly_this() -> None:
    game = _position()
    play(game, "A play R1")
    assert game.view("B") == game.view("B").__class__(
        player="B", hand=("R2", "B1"), hand_sizes={"A": 1, "B": 2, "C": 2}, top="R1",
        color="red", direction="left", to_play="B", phase="play", draw_pile=101,
        scores={"A": 0, "B": 0, "C": 0}, uno_pending="A", revealed=None)


# ------------------------------------------------------------------ records


def test_deal_1_a_record_without_a_seed_is_seed_0() -> None:
    record = make_record(ABC, "C", {"A": ["R1"]}, ("R7",))
    del record["seed"]
    assert game_from_record(record).seed == 0


def test_deal_1_a_record_without_a_dealer_draws_one_from_the_seed() -> None:
    record = {"players": list(ABC), "seed": 5}
    assert game_from_record(record).to_text() == Game(list(ABC), seed=5).to_text()


def test_deal_2_a_record_without_actions_replays_no_action() -> None:
    record = make_record(ABC, "C", {"A": ["R1"]}, ("R7",))
    del record["actions"]
    result = replay(record)
    assert result.error is None and result.played == 0 and record_actions(record) == []


def test_play_1_a_replay_reports_how_many_actions_it_played() -> None:
    record = make_record(ABC, "C", {"A": ["R1", "G5"], "B": ["R2", "B1"]}, ("R7",),
                         ["A play R1", "B play R2", "B play B1"])
    refused = replay(record)
    assert refused.played == 2 and refused.error_index == 2
    assert refused.error is not None and refused.error.rule_id == "PLAY-1"
    assert replay(record, stop_at=2).played == 2


@pytest.mark.parametrize(("change", "line"), [
    ({"players": "A,B"}, "players: players 'A,B': give a list of names (breaks DECK-2)"),
    ({"players": ["A", 1]}, "players: player name 1: a name is a string (breaks DECK-2)"),
    ({"seed": True}, "seed: True: expected an integer from 0 to 2**63-1"),
    ({"dealer": 1}, "dealer: dealer 1: a name is a string (breaks DECK-2)"),
    ({"actions": {}}, "actions: {} is not of type 'array' (record.schema.json)"),
    ({"rules": "nonesuch"}, "rules: unknown rules 'nonesuch': expected a shipped variant "
                            "(classic, seed004, winner-deals, stacking, rlcard, seven-o, "
                            "jump-in), a house rule or preset of the catalogue (unoformal "
                            "house-rules lists them), several joined by '+', or the path of a "
                            ".toml variant file"),
    ({"colour": "red"}, "unknown field(s) ['colour']; allowed: actions, deal, dealer, players, "
                        "rules, seed (or \"version\": 2 with dealer_draws, start_reshuffles, "
                        "start_color and meta)"),
])
def test_deck_1_a_malformed_record_is_refused_naming_field_and_rule(
        change: dict[str, Any], line: str) -> None:
    record = make_record(ABC, "C", {"A": ["R1"]}, ("R7",), ["A play R1"])
    record.update(change)
    with pytest.raises(InvalidInputError) as info:
        replay(record)
    assert info.value.line() == line


def test_deck_1_a_record_action_that_is_malformed_is_named_by_its_index() -> None:
    record = make_record(ABC, "C", {"A": ["R1"]}, ("R7",), ["A play R1"])
    record["actions"].append({"player": "B", "action": "draw", "uno": 1})
    with pytest.raises(InvalidInputError) as info:
        record_actions(record)
    assert info.value.line() == "actions[1].uno: 1: must be true or false"


def test_deck_1_a_record_file_that_is_missing_or_not_an_object_is_named(tmp_path: Path) -> None:
    missing = tmp_path / "none.json"
    with pytest.raises(InvalidInputError) as info:
        load_record(missing)
    assert info.value.line() == f"{missing}: cannot read the record: No such file or directory"
    listed = tmp_path / "list.json"
    listed.write_text("[1, 2]")
    with pytest.raises(InvalidInputError) as info:
        load_record(listed)
    assert info.value.line() == f'{listed}: a record is a JSON object {{"players": [...], ...}}'
    good = tmp_path / "good.json"
    good.write_text(json.dumps({"players": ["A", "B"]}))
    assert load_record(good) == {"players": ["A", "B"]}


# ------------------------------------------------------------------ actions


@pytest.mark.parametrize(("text", "message"), [
    ("Ada", "action 'Ada': expected '<player> <action> ...'"),
    ("Ada fly", f"action: action 'Ada fly': unknown action 'fly' (expected one of {VERBS})"),
    ("Ada draw R1 R2", "action 'Ada draw R1 R2': unexpected 'R1 R2'"),
    ("Ada play R1 red blue", "action 'Ada play R1 red blue': unexpected 'blue'"),
])
def test_play_1_malformed_action_text_is_refused_naming_it(text: str, message: str) -> None:
    with pytest.raises(InvalidInputError) as info:
        Action.parse(text)
    assert info.value.line() == message


@pytest.mark.parametrize(("data", "line"), [
    ("Ada draw", "action 'Ada draw': expected an object"),
    ({"player": "Ada", "action": "draw", "x": 1},
     "unknown field(s) ['x']; allowed: action, card, color, player, target, uno"),
    ({"action": "draw"}, "player: None: must be a string"),
    ({"player": "Ada"}, "action: None: must be a string"),
    # The value shown is the one given, not a missing one.
    ({"player": 5, "action": "draw"}, "player: 5: must be a string"),
    ({"player": "Ada", "action": ["draw"]}, "action: ['draw']: must be a string"),
    ({"player": "Ada", "action": "play", "card": 5}, "card: 5: must be a string"),
    ({"player": "Ada", "action": "play", "card": "W", "color": 1}, "color: 1: must be a string"),
    ({"player": "Ada", "action": "catch", "target": ["Bo"]}, "target: ['Bo']: must be a string"),
    ({"player": "Ada", "action": "play", "card": "R1", "uno": "yes"},
     "uno: 'yes': must be true or false"),
    ({"player": "Ada", "action": "fly"},
     f"action: action 'fly': unknown action 'fly' (expected one of {VERBS})"),
])
def test_play_1_malformed_action_json_is_refused_naming_it(data: object, line: str) -> None:
    with pytest.raises(InvalidInputError) as info:
        Action.from_json(data)
    assert info.value.line() == line


def test_play_1_an_action_json_keeps_every_field() -> None:
    data = {"player": "Ada", "action": "play", "card": "W+4", "color": "green", "uno": True}
    assert Action.from_json(data) == Action("Ada", ActionType.PLAY, "W+4", "green", uno=True)
    catch = {"player": "Ada", "action": "catch", "target": "Bo"}
    assert Action.from_json(catch) == Action("Ada", ActionType.CATCH, target="Bo")


# ------------------------------------------------------- cards, table, text


def test_deck_1_a_card_code_with_an_unknown_color_letter_is_an_unknown_card() -> None:
    for code in ("X5", "XS"):
        with pytest.raises(ValueError, match=f"unknown card code '{code}'"):
            parse_face(code)


def test_deck_1_an_entry_is_found_by_its_rule_id_and_an_unknown_id_is_named() -> None:
    assert CLASSIC.entry("CHAL-3") is CLASSIC.challenge_failed
    with pytest.raises(KeyError, match="no rule 'NOPE-1' in table 'classic'"):
        CLASSIC.entry("NOPE-1")


def test_uno_1_an_entrys_values_are_its_own_fields_and_its_switch() -> None:
    assert CLASSIC.uno.values() == {
        "enabled": True, "cards_left": 1, "penalty": 2, "say_with_card": True,
        "say_before_accusation": True, "catch_only_with_one_card": True,
        "catch_until": CatchUntil.NEXT_TURN}
    assert CLASSIC.draw_what_is_left.values() == {"enabled": True}


def test_deck_1_a_state_text_read_back_keeps_its_variant() -> None:
    rules = load_rules("stacking")
    game = make_game(ABC, "C", {"A": ["R1"]}, ("R7",), rules=rules)
    assert Game.from_text(game.to_text()).rules is rules


def test_deck_1_a_state_text_whose_cards_are_not_the_deck_names_them() -> None:
    text = _position().to_text().replace("hands=R1,G5/", "hands=R1,R1,G5,G5/")
    with pytest.raises(InvalidInputError) as info:
        Game.from_text(text)
    assert info.value.line() == ("state text: hands: cards are not exactly the deck: "
                                 "R1: 3 of 2, G5: 3 of 2 (breaks DECK-1)")


def test_rev_1_a_state_text_read_back_keeps_playing_to_the_right() -> None:
    game = make_game(ABC, "C", {"A": ["RR", "G5"], "B": ["R2", "G2"], "C": ["R3", "G3"]},
                     ("R7",))
    play(game, "A play RR")
    again = Game.from_text(game.to_text())
    for g in (game, again):
        play(g, "C play R3")
        assert g.to_play == "B"
    assert again.to_text() == game.to_text()


def test_chal_1_a_reveal_of_an_empty_hand_reads_back() -> None:
    text = _sub("reveal", "B:A:")(_text())
    assert Game.from_text(text).reveal == (1, 0, ())
    with pytest.raises(InvalidInputError) as info:
        Game.from_text(_sub("reveal", "B:A")(_text()))
    assert info.value.line() == ("state text: reveal: 'B:A': expected challenger:offender:cards "
                                 "(breaks CHAL-1)")
    with pytest.raises(InvalidInputError) as info:
        Game.from_text(_sub("reveal", "B")(_text()))
    assert info.value.line() == ("state text: reveal: 'B': expected challenger:offender:cards "
                                 "(breaks CHAL-1)")
    with pytest.raises(InvalidInputError) as info:
        Game.from_text(_sub("reveal", "B:Zed:R1")(_text()))
    assert info.value.line() == ("state text: reveal: 'Zed': unknown player; players are A, B, C "
                                 "(breaks DECK-2)")


def test_deal_2_a_game_read_from_text_plays_on_and_records_from_there() -> None:
    game = Game.from_text(_text())
    assert game.history == [] and game.dealer_draws == []
    play(game, "A play R1")
    assert game.history == [Action.parse("A play R1")]
    assert to_record(game) == {"rules": "classic", "players": list(ABC), "seed": 0,
                               "actions": [{"player": "A", "action": "play", "card": "R1"}]}


def test_deck_1_a_state_text_field_is_split_at_its_first_equals_sign() -> None:
    with pytest.raises(InvalidInputError) as info:
        Game.from_text(_text().replace("seed=0", "seed=0=1"))
    assert info.value.line() == ("state text: seed: seed='0=1': expected a whole number in ASCII "
                                 "digits")


# ------------------------------------------------------------------ variants


def test_uno_1_a_variant_file_takes_its_name_from_the_file_and_classic_as_base(
        tmp_path: Path) -> None:
    path = tmp_path / "short-uno.toml"
    path.write_text('[rules."UNO-1"]\npenalty = 1\n')
    table = load_toml(path)
    assert table.name == "short-uno" and table.description == ""
    assert table.uno.penalty == 1 and table.overrides == (("UNO-1", "penalty", 1),)
    assert dataclasses.replace(table, name="classic", description=CLASSIC.description,
                               overrides=(), uno=CLASSIC.uno) == CLASSIC


def test_deck_1_a_variant_file_without_rules_is_its_base(tmp_path: Path) -> None:
    path = tmp_path / "plain.toml"
    path.write_text('name = "plain"\nbase = "seed004"\ndescription = "as seed004"\n')
    table = load_toml(path)
    assert (table.name, table.description) == ("plain", "as seed004")
    assert table.overrides == load_rules("seed004").overrides
    assert table.uno.penalty == 1


# --------------------------------------------------------- state text refused


def _text() -> str:
    return _position().to_text()


def _sub(key: str, value: str) -> Any:
    """The state text with one field's value replaced."""
    def edit(text: str) -> str:
        words = [f"{key}={value}" if w.startswith(f"{key}=") else w for w in text.split()]
        return " ".join(words)
    return edit


CARD_CODES = "(expected R0-R9, RS, RR, R+2 and likewise Y, G, B; W; W+4) (breaks DECK-1)"
UNKNOWN = "'Zed': unknown player; players are A, B, C (breaks DECK-2)"
COLORS = "not a color of this deck; expected red, yellow, green, blue or - (breaks DECK-1)"
DIGITS = "expected a whole number in ASCII digits"
KEYS = ("expected key=value for the keys rules players dealer round turn dir color phase hands "
        "pile discard scores uno drawn pending kind offender legal prev reveal winner points "
        "seed shuffles, one space apart (out too under END-2's house rule)")


@pytest.mark.parametrize(("edit", "line"), [
    *((_sub(key, "Zed"), f"state text: {key}: {UNKNOWN}")
      for key in ("dealer", "turn", "uno", "offender", "winner")),
    (_sub("hands", "Q9/R2,B1/R3,G3"), f"state text: hands: unknown card code 'Q9' {CARD_CODES}"),
    (lambda t: t.replace("pile=R0,", "pile=Q9,"),
     f"state text: pile: unknown card code 'Q9' {CARD_CODES}"),
    (_sub("discard", "Q9"), f"state text: discard: unknown card code 'Q9' {CARD_CODES}"),
    (_sub("drawn", "Q9"), f"state text: drawn: unknown card code 'Q9' {CARD_CODES}"),
    (_sub("reveal", "B:A:Q9"), f"state text: reveal: unknown card code 'Q9' {CARD_CODES}"),
    (_sub("reveal", "Zed:A:R1"), f"state text: reveal: {UNKNOWN}"),
    (_sub("reveal", "B:-:R1"),
     "state text: reveal: 'B:-:R1': expected challenger:offender:cards (breaks CHAL-1)"),
    (_sub("color", "purple"), f"state text: color: 'purple': {COLORS}"),
    (_sub("prev", "purple"), f"state text: prev: 'purple': {COLORS}"),
    *((_sub(key, "x"), f"state text: {key}: {key}='x': {DIGITS}")
      for key in ("round", "pending", "points", "seed", "shuffles")),
    (_sub("hands", "R1,G5/R2,B1"), "state text: hands: 2 hands for 3 players (breaks DEAL-2)"),
    (_sub("dealer", "-"), "state text: dealer: -: name a player (breaks DECK-2)"),
    (_sub("turn", "-"), "state text: turn: -: name a player (breaks DECK-2)"),
    (_sub("players", "A,A,B"),
     "state text: players: player names must differ: ['A', 'A', 'B'] (breaks DECK-2)"),
    (_sub("pending", "109"), "state text: pending: pending=109: expected 0 to 108"),
    (_sub("drawn", "R1,R2"), "state text: drawn: at most one card (breaks DRAW-1)"),
    (_sub("kind", "X"), "state text: kind: 'X': expected #, S, R, +2, W, W+4 or -"),
    (_sub("legal", "2"), "state text: legal: '2': expected 0 or 1 (breaks WD4-1)"),
    (_sub("scores", "9223372036854775808,0,0"),
     "state text: scores=9223372036854775808: expected 0 to 9223372036854775807"),
    (_sub("dir", "up"), "state text: dir: 'up': expected left or right (breaks REV-1)"),
    (_sub("phase", "dance"), "state text: phase: 'dance': expected one of start, color, play, "
                             "drawn, respond, over"),
    (_sub("scores", "0,0"), "state text: scores: expected one score per player (breaks SCORE-2)"),
    (_sub("scores", "0,0,x"), f"state text: scores='x': {DIGITS}"),
    (lambda t: t + " extra=1", f"state text: unexpected 'extra=1'; {KEYS}"),
    (lambda t: t + " seed", f"state text: unexpected 'seed'; {KEYS}"),
    (lambda t: t.replace(" seed=0", "").replace(" uno=-", ""), "state text: missing uno, seed"),
])
def test_deck_1_bad_state_text_is_refused_naming_field_and_rule(edit: Any, line: str) -> None:
    with pytest.raises(InvalidInputError) as info:
        Game.from_text(edit(_text()))
    assert info.value.line() == line


# --------------------------------------------------------- refusals, worded


def test_end_2_next_round_before_the_end_or_after_the_game_is_refused_with_the_state() -> None:
    game = _position()
    with pytest.raises(IllegalActionError) as info:
        game.next_round()
    err = info.value
    assert (err.message, err.rule_id, err.state) == ("the round is not over", "END-2",
                                                     game.to_text())
    big = ["W", "W", "W", "W", "W+4", "W+4", "W+4", "W+4", "RS", "GS", "YS", "BS", "R5", "B9",
           "B8"]
    game = make_game(ABC, "C", {"A": ["R1"], "B": big, "C": ["G0"]}, ("R7",))
    play(game, "A play R1")
    with pytest.raises(IllegalActionError) as info:
        game.next_round()
    err = info.value
    assert (err.message, err.rule_id, err.state) == ("the game is over", "SCORE-2",
                                                     game.to_text())


def test_uno_1_a_player_who_catches_themself_is_told_so() -> None:
    game = make_game(ABC, "C", {"A": ["R1", "G5"], "B": ["B1", "B2"]}, ("R7",))
    play(game, "A play R1")
    with pytest.raises(IllegalActionError) as info:
        game.apply(Action.parse("A catch A"))
    assert (info.value.message, info.value.rule_id) == (
        "A catch A: a player cannot catch themself", "UNO-1")


def test_deck_1_a_state_text_read_with_a_given_table_plays_by_that_table() -> None:
    rules = load_rules("seed004")
    game = Game.from_text(_text(), rules)
    assert game.rules is rules and game.rules.name == "seed004"


def test_advice_1_switched_off_advice_is_refused_citing_it() -> None:
    rules = derive(CLASSIC, "no-advice", "test", {"ADVICE-1": {"enabled": False}})
    game = make_game(ABC, "C", {"A": ["R1", "G5"]}, ("R7",), rules=rules)
    assert not any(a.type is ActionType.ADVISE for a in game.legal_actions())
    with pytest.raises(IllegalActionError) as info:
        game.apply(Action.parse("B advise"))
    assert (info.value.message, info.value.rule_id) == (
        "B advise: advice is not a penalty in these rules", "ADVICE-1")


def test_uno_1_saying_uno_with_none_to_say_and_a_catch_too_late_are_worded() -> None:
    game = make_game(ABC, "C", {"A": ["R1", "G5"], "B": ["B1", "B2"]}, ("R7",))
    with pytest.raises(IllegalActionError) as info:
        game.apply(Action.parse("B uno"))
    assert (info.value.message, info.value.rule_id) == ("B uno: B has no UNO left to say",
                                                        "UNO-1")
    with pytest.raises(IllegalActionError) as info:
        game.apply(Action.parse("B catch A"))
    assert (info.value.message, info.value.rule_id) == (
        "B catch A: A cannot be caught now: nobody has played their next-to-last card "
        "without saying UNO since the turn began", "UNO-1")


def test_ext_short_off_advice_that_cannot_be_paid_is_refused_citing_it() -> None:
    rules = derive(CLASSIC, "short-off", "test", {"EXT-SHORT": {"enabled": False}})
    game = make_game(ABC, "C", {"A": ["R1", "G5"]}, ("R7", "G1"), rules=rules, rest_to="C")
    assert game.available() == 1 < rules.advice.cards
    with pytest.raises(IllegalActionError) as info:
        game.apply(Action.parse("B advise"))
    assert (info.value.message, info.value.rule_id) == (
        "B advise: not enough cards are left for the penalty", "EXT-SHORT")


def test_deal_2_hands_that_leave_no_start_card_are_refused_by_the_engine_too() -> None:
    # derive() refuses such a table (DEAL-2's cross-field check); the engine still refuses a
    # table built around it rather than deal the whole deck and find no start card.
    table = dataclasses.replace(CLASSIC, deal=dataclasses.replace(CLASSIC.deal, hand_size=54))
    with pytest.raises(InvalidInputError) as info:
        Game(["A", "B"], rules=table)
    assert (info.value.message, info.value.rule_id) == (
        "2 hands of 54 need more than the deck's 108 cards", "DEAL-2")
    table = dataclasses.replace(CLASSIC, deal=dataclasses.replace(CLASSIC.deal, hand_size=53))
    assert len(Game(["A", "B"], rules=table).pile) == 1  # 108 - 2 x 53 - the start card


# ------------------------------------------------------ inputs added on main


def test_deck_1_a_color_is_read_from_its_name_or_letter_in_any_case() -> None:
    assert [Color.parse(t) for t in ("Red", "y", "GREEN", "b")] == [
        Color.RED, Color.YELLOW, Color.GREEN, Color.BLUE]
    with pytest.raises(ValueError) as info:
        Color.parse("purple")
    assert str(info.value) == "unknown color 'purple' (expected red, yellow, green or blue)"


def test_play_1_an_action_that_is_not_text_or_too_long_is_refused_naming_it() -> None:
    with pytest.raises(InvalidInputError) as info:
        Action.parse(5)  # type: ignore[arg-type]
    assert info.value.line() == "action 5: an action is a text such as 'Ada play W+4 green'"
    longest = "A draw" + " " * (MAX_ACTION_TEXT - 6)
    assert Action.parse(longest) == Action("A", ActionType.DRAW)
    with pytest.raises(InvalidInputError) as info:
        Action.parse(longest + " ")
    assert info.value.line() == (f"action text of {MAX_ACTION_TEXT + 1} characters: at most "
                                 f"{MAX_ACTION_TEXT} are allowed")


def test_deck_1_a_record_file_that_is_not_json_names_the_file(tmp_path: Path) -> None:
    path = tmp_path / "bad.json"
    path.write_text("{not json")
    with pytest.raises(InvalidInputError) as info:
        load_record(path)
    assert info.value.source == str(path) and info.value.message.startswith("not valid JSON")


def test_play_1_a_refused_record_action_carries_the_state_before_it_and_what_was_played(
        ) -> None:
    record = make_record(ABC, "C", {"A": ["R1", "G5"], "B": ["R2", "B1"]}, ("R7",),
                         ["A play R1", "B play R2", "B play B1"])
    result = replay(record)
    before = replay(record, stop_at=2).game.to_text()
    assert result.error is not None and result.error.state == before
    assert (result.error.index, result.error.key) == (2, "actions[2]")
    assert result.actions == [Action.parse("A play R1"), Action.parse("B play R2")]


def test_deck_1_a_state_text_names_only_a_shipped_variant() -> None:
    with pytest.raises(InvalidInputError) as info:
        Game.from_text(_sub("rules", "mine.toml")(_text()))
    assert info.value.line() == (
        "state text: rules: 'mine.toml': expected one of classic, seed004, winner-deals, "
        "stacking, rlcard, seven-o, jump-in (pass the table of a variant read from a file)")


def test_deck_3_the_card_vocabulary_is_the_classic_decks_faces_and_nothing_more() -> None:
    # The faces any table can describe (what parse_face accepts), built when the module is
    # loaded; called again here so that a change to it is seen by a test, not only at import.
    faces = cards._all_faces()
    assert faces == {face.code: face for face in Deck.of(CLASSIC).faces}
    assert len(faces) == 4 * (10 + 3) + 2


def test_deck_1_a_state_text_is_read_with_a_table_or_refused() -> None:
    with pytest.raises(InvalidInputError) as info:
        Game.from_text(_text(), "classic")  # type: ignore[arg-type]
    assert info.value.line() == "state text: rules 'classic': expected a RuleTable"


def test_deck_1_a_color_outside_a_smaller_deck_is_refused_naming_the_decks_colors() -> None:
    table = derive(CLASSIC, "two-colors", "test", {"DECK-1": {"colors": ["red", "yellow"]},
                                                   "DEAL-2": {"hand_size": 5}})
    text = _sub("color", "green")(Game(["A", "B"], rules=table).to_text())
    with pytest.raises(InvalidInputError) as info:
        Game.from_text(text, table)
    assert info.value.line() == ("state text: color: 'green': not a color of this deck; "
                                 "expected red, yellow or - (breaks DECK-1)")


def test_deck_1_a_state_text_is_a_string_of_bounded_length_one_key_each() -> None:
    with pytest.raises(InvalidInputError) as info:
        Game.from_text(5)  # type: ignore[arg-type]
    assert info.value.line() == "state text: 5: a state text is a string"
    with pytest.raises(InvalidInputError) as info:
        Game.from_text("x" * MAX_STATE_TEXT)  # as long as allowed: read, and refused later
    assert info.value.line().startswith("state text: unexpected 'xxx")
    with pytest.raises(InvalidInputError) as info:
        Game.from_text("x" * (MAX_STATE_TEXT + 1))
    assert info.value.line() == (f"state text: {MAX_STATE_TEXT + 1:,} characters: at most "
                                 f"{MAX_STATE_TEXT:,} are allowed")
    with pytest.raises(InvalidInputError) as info:
        Game.from_text(_text() + " seed=0")
    assert info.value.line() == "state text: seed: given twice"
    with pytest.raises(InvalidInputError) as info:
        Game.from_text(_text().replace(" ", "\t", 1))  # fields are one space apart
    assert info.value.line() == "state text: missing players"


def _record(**change: Any) -> dict[str, Any]:
    record = make_record(ABC, "C", {"A": ["R1"]}, ("R7",), ["A play R1"])
    record.update(change)
    return record


def test_deck_2_a_record_without_players_or_not_an_object_is_refused_naming_it() -> None:
    with pytest.raises(InvalidInputError) as info:
        game_from_record([1])  # type: ignore[arg-type]
    assert info.value.line() == "record [1]: expected a JSON object"
    record = _record()
    del record["players"]
    with pytest.raises(InvalidInputError) as info:
        game_from_record(record)
    assert info.value.line() == "players: missing: a record names its players (breaks DECK-2)"


def test_deal_1_a_records_seed_dealer_and_deal_are_named_when_refused() -> None:
    cases = [
        (_record(seed=-1), "seed: -1: expected an integer from 0 to 2**63-1"),
        (_record(dealer="a b"), "dealer: dealer 'a b': use 1 to 24 ASCII letters and digits, "
                                "then also _ - ., starting with a letter or digit (breaks DECK-2)"),
    ]
    empty = _record()
    empty["deal"]["draw_pile"] = []
    cases.append((empty, "deal: deal.draw_pile is empty: no start card to turn (breaks DEAL-2)"))
    for record, line in cases:
        with pytest.raises(InvalidInputError) as info:
            game_from_record(record)
        assert info.value.line() == line


def test_deck_1_a_record_holds_at_most_the_allowed_number_of_actions() -> None:
    draw = {"player": "A", "action": "draw"}
    assert len(record_actions({"actions": [draw] * MAX_RECORD_ACTIONS})) == MAX_RECORD_ACTIONS
    with pytest.raises(InvalidInputError) as info:
        record_actions({"actions": [draw] * (MAX_RECORD_ACTIONS + 1)})
    assert info.value.line() == (f"actions: {MAX_RECORD_ACTIONS + 1:,} actions: at most "
                                 f"{MAX_RECORD_ACTIONS:,} are allowed")


def test_deck_1_a_malformed_record_action_is_named_by_index_field_and_text() -> None:
    draw = {"player": "A", "action": "draw"}
    with pytest.raises(InvalidInputError) as info:
        record_actions({"actions": [draw, "A draw"]})
    err = info.value
    assert (err.line(), err.index, err.action) == (
        "actions[1]: action 'A draw': expected an object", 1, "'A draw'")
    with pytest.raises(InvalidInputError) as info:
        record_actions({"actions": [{**draw, "card": 5}]})
    err = info.value
    assert (err.line(), err.index, err.action) == (
        "actions[0].card: 5: must be a string", 0, "{'player': 'A', 'action': 'draw', 'card': 5}")


def test_play_1_a_refused_action_is_named_in_its_canonical_text() -> None:
    record = make_record(ABC, "C", {"A": ["R1", "G5"], "B": ["R2", "B1"]}, ("R7",),
                         ["A play R1", "B play R2", "B play B1"])
    err = replay(record).error
    assert err is not None
    assert (err.line(), err.action) == (
        "actions[2]: B play B1: it is C's turn, not B's (breaks PLAY-1)", "B play B1")
    whole = replay(record, stop_at=2)
    assert whole.error is None and whole.actions == [Action.parse("A play R1"),
                                                     Action.parse("B play R2")]


def test_score_2_a_state_text_score_may_be_as_large_as_a_seed() -> None:
    text = _sub("scores", "9223372036854775807,0,0")(_text())
    assert Game.from_text(text).scores == [2**63 - 1, 0, 0]


def test_deck_2_a_record_action_by_an_unknown_player_carries_the_state_before_it() -> None:
    record = make_record(ABC, "C", {"A": ["R1"]}, ("R7",), ["A play R1", "Zed draw"])
    result = replay(record)
    assert result.error is not None and result.played == 1
    assert result.error.line() == ("actions[1]: unknown player 'Zed'; players are A, B, C "
                                   "(breaks DECK-2)")
    assert result.error.state == result.game.to_text()
