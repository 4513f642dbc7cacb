"""The seeds' worked examples as records, ``unoformal replay``, and bad input.

``tests/records/seed000_s09_*.json`` are 000 §09 (the Wild Draw Four challenge, both
outcomes); ``seed002_whole_game.json`` is the whole narrated game of seed 002.
"""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from unoformal.commands.cli import main
from unoformal.engine.actions import Action
from unoformal.engine.game import Game
from unoformal.engine.record import load_record, replay, to_record
from unoformal.errors import IllegalActionError, InvalidInputError
from unoformal.rulebook.cards import parse_face

from .helpers import RECORDS, make_game, make_record, refused, sorted_codes

FAILS = RECORDS / "seed000_s09_challenge_fails.json"
WINS = RECORDS / "seed000_s09_challenge_wins.json"
SEED002 = RECORDS / "seed002_whole_game.json"


def _played(path: Path, stop_at: int | None = None) -> Game:
    result = replay(load_record(path), stop_at=stop_at)
    assert result.error is None, f"{path.name}: action {result.error_index}: {result.error}"
    return result.game


def _cli_json(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, Any]:
    code = main(["replay", *args, "--json"])
    return code, json.loads(capsys.readouterr().out)


# ------------------------------------------------------------------- seed 000 §09


@pytest.mark.parametrize("path", [FAILS, WINS])
def test_wd4_1_seed000_s09_position_is_the_seeds(path: Path) -> None:
    record = load_record(path)
    assert record["deal"]["draw_pile"][0] == "R7"  # the discard shows red 7
    a_hand = record["deal"]["hands"]["A"]
    assert "B7" in a_hand and "W+4" in a_hand
    red = [c for c in a_hand if parse_face(c).color is not None and c[0] == "R"]
    assert red == ([] if path == FAILS else ["R2"])
    assert [a["action"] for a in record["actions"]] == ["play", "challenge"]
    assert record["actions"][0]["color"] == "green"


def test_chal_3_seed000_s09_challenge_fails_b_draws_six_and_loses_the_turn() -> None:
    game = _played(FAILS)
    assert game.hand("B") == sorted_codes(["G8", "Y5", "B1", "B2", "B3", "B4", "B5", "B6"])
    assert game.hand("A") == sorted_codes(["B7", "Y3"])
    assert game.to_play == "C" and game.phase == "play"
    assert game.view("C").color == "green"  # CHAL-4
    assert game.view("B").revealed == ("A", tuple(sorted_codes(["B7", "Y3"])))  # CHAL-1


def test_chal_2_seed000_s09_challenge_wins_a_draws_four_b_keeps_the_turn() -> None:
    game = _played(WINS)
    assert game.hand("A") == sorted_codes(["B7", "R2", "B1", "B2", "B3", "B4"])
    assert game.hand("B") == sorted_codes(["G8", "Y5"])
    assert game.to_play == "B" and game.phase == "play"
    assert game.view("B").color == "green"  # CHAL-4


@pytest.mark.parametrize(("path", "to_play"), [(FAILS, "C"), (WINS, "B")])
def test_chal_2_3_seed000_records_replay_on_the_command_line(
        capsys: pytest.CaptureFixture[str], path: Path, to_play: str) -> None:
    code, state = _cli_json(capsys, str(path))
    assert code == 0
    assert state["to_play"] == to_play and state["color"] == "green" and state["top"] == "W+4"


# ----------------------------------------------------------------------- seed 002

ADA_FINAL = ["R8", "R+2", "G0", "Y3", "RS", "G5"]
BO_FINAL = ["R9", "W", "B6", "G2", "R4"]


def test_score_1_seed002_whole_game_ends_with_127_for_you() -> None:
    game = _played(SEED002)
    assert game.round_over and not game.game_over
    state = game.state_json()
    assert state["winner"] == "You" and state["round_points"] == 127
    assert state["scores"] == {"You": 127, "Ada": 0, "Bo": 0}
    assert game.hand("You") == []
    assert game.hand("Ada") == sorted_codes(ADA_FINAL)
    assert game.hand("Bo") == sorted_codes(BO_FINAL)
    points = game.deck.points
    assert sum(points[game.deck.face_id(c)] for c in ADA_FINAL) == 56
    assert sum(points[game.deck.face_id(c)] for c in BO_FINAL) == 71


def test_deal_3_seed002_narration_step_by_step() -> None:
    record = load_record(SEED002)
    actions = [Action.from_json(a) for a in record["actions"]]

    def at(text: str) -> Game:
        """The game just after the (first) action with this text."""
        index = [str(a) for a in actions].index(text)
        return _played(SEED002, stop_at=index + 1)

    start = _played(SEED002, stop_at=0)
    assert start.to_play == "You" and start.view("You").direction == "left"  # DEAL-3
    assert start.hand("You") == sorted_codes(["R3", "G7", "BS", "Y5", "Y+2", "B1", "W"])
    assert start.view("You").top == "R7"
    assert at("Ada play RS").to_play == "You"  # SKIP-1: Bo skipped
    assert at("You play BS").to_play == "Bo"  # SKIP-1: Ada skipped
    before_draw = at("You play B1")
    assert not [c for c in before_draw.hand("Ada") if c[0] == "B" or c[1:] == "1"]
    drawn = at("Ada draw")
    assert drawn.phase == "drawn" and "G1" in drawn.hand("Ada")  # DRAW-1
    rev = at("Bo play GR")
    assert rev.to_play == "Ada" and rev.view("Ada").direction == "right"  # REV-1
    d2 = at("You play Y+2")
    assert d2.to_play == "Ada" and len(d2.hand("Bo")) == 7 - 3 + 2  # D2-1: Bo drew 2
    uno = at("You play Y5 uno")
    assert uno.hand("You") == ["W"] and uno.view("Bo").uno_pending is None  # UNO-1
    wd4 = at("Ada play W+4 red")
    assert wd4.phase == "respond" and "Y3" in wd4.hand("Ada")  # WD4-1: she held yellow
    chal = at("You challenge")
    assert chal.to_play == "You" and len(chal.hand("Ada")) == 6  # CHAL-2
    assert chal.view("You").color == "red"  # CHAL-4


def test_uno_1_seed002_had_you_forgotten_uno_a_catch_before_bos_turn_costs_two() -> None:
    record = load_record(SEED002)
    actions = record["actions"]
    index = actions.index({"player": "You", "action": "play", "card": "Y5", "uno": True})
    forgot = {**record, "actions": [*actions[:index], {"player": "You", "action": "play",
                                                        "card": "Y5"},
                                     {"player": "Ada", "action": "catch", "target": "You"}]}
    game = replay(forgot).game
    assert len(game.hand("You")) == 3 and game.to_play == "Bo"
    late = {**forgot, "actions": [*forgot["actions"][:-1], actions[index + 1],
                                  {"player": "Ada", "action": "catch", "target": "You"}]}
    result = replay(late)  # Bo's turn began with his play: too late
    assert result.error is not None and result.error.rule_id == "UNO-1"


def test_chal_3_seed002_had_ada_held_no_yellow_the_challenge_costs_you_six() -> None:
    record = load_record(SEED002)
    hands = {**record["deal"]["hands"]}
    hands["Ada"] = [("G3" if c == "Y3" else c) for c in hands["Ada"]]
    pile = list(record["deal"]["draw_pile"])
    pile[pile.index("G3")] = "Y3"
    actions = record["actions"][:record["actions"].index({"player": "You",
                                                          "action": "challenge"}) + 1]
    game = replay({**record, "deal": {"hands": hands, "draw_pile": pile},
                   "actions": actions}).game
    assert len(game.hand("You")) == 1 + 6 and game.to_play == "Bo"
    assert len(game.hand("Ada")) == 2 and game.view("Bo").color == "red"


def test_score_1_seed002_replays_on_the_command_line(capsys: pytest.CaptureFixture[str]) -> None:
    code, state = _cli_json(capsys, str(SEED002))
    assert code == 0
    assert state["round_over"] is True and state["winner"] == "You"
    assert state["round_points"] == 127
    assert state["scores"] == {"You": 127, "Ada": 0, "Bo": 0}


def test_score_1_seed002_replays_in_a_subprocess() -> None:
    out = subprocess.run([sys.executable, "-m", "unoformal", "replay", str(SEED002),
                          "--json"], capture_output=True, text=True, check=True)
    state = json.loads(out.stdout)
    assert (state["winner"], state["round_points"], state["scores"]["You"]) == ("You", 127, 127)


# ------------------------------------------------------------- replay error handling


def _write(tmp_path: Path, record: dict[str, Any], name: str = "r.json") -> str:
    path = tmp_path / name
    path.write_text(json.dumps(record))
    return str(path)


def _refused_record() -> dict[str, Any]:
    # action 2 (from 0) is B playing out of turn: PLAY-1.
    return make_record(("A", "B", "C"), "C", {"A": ["R1", "G5"], "B": ["R2", "B1"],
                                                "C": ["R3", "G3"]}, ("R7",),
                       ["A play R1", "B play R2", "B play B1"])


def test_play_1_replay_names_the_refused_actions_index_and_rule(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = _write(tmp_path, _refused_record())
    assert main(["replay", path]) == 2
    err = capsys.readouterr().err
    assert "actions[2]" in err and "PLAY-1" in err and len(err.splitlines()) == 1


def test_play_1_replay_json_gives_the_error_and_the_state_before_it(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    record = _refused_record()
    code, out = _cli_json(capsys, _write(tmp_path, record))
    assert code == 2
    assert out["error"]["index"] == 2 and out["error"]["rule"] == "PLAY-1"
    assert "B play B1" in out["error"]["message"]
    before = replay(record, stop_at=2).game.state_json()
    assert out["state"] == before and out["state"]["to_play"] == "C"


def test_deck_1_replay_of_an_unknown_card_in_an_action_names_index_and_rule(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    record = _refused_record()
    record["actions"][1] = {"player": "B", "action": "play", "card": "R10"}
    code, out = _cli_json(capsys, _write(tmp_path, record))
    assert code == 2 and out["error"]["index"] == 1 and out["error"]["rule"] == "DECK-1"
    assert "R10" in out["error"]["message"]


@pytest.mark.parametrize(("change", "words"), [
    (lambda r: r.pop("players"), "players"),
    (lambda r: r.update(colour="red"), "colour"),
    (lambda r: r.update(seed="x"), "seed"),
    (lambda r: r.update(rules="nonesuch"), "rules"),
    (lambda r: r.update(actions={"A": 1}), "actions"),
    (lambda r: r["actions"].append({"player": "A", "action": "fly"}), "actions[3]"),
    (lambda r: r["deal"]["draw_pile"].remove("R7"), "1 missing R7"),
    (lambda r: r["deal"]["hands"]["A"].append("W"), "1 extra W"),
    (lambda r: r["deal"]["hands"].update(Zed=["R1"]), "Zed"),
    (lambda r: r.update(dealer="Zed"), "dealer: unknown dealer 'Zed'; players are A, B, C"),
])
def test_deck_1_replay_of_a_malformed_record_exits_2_naming_the_field(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], change: Any, words: str) -> None:
    record = _refused_record()
    change(record)
    path = _write(tmp_path, record)
    assert main(["replay", path]) == 2
    assert words in capsys.readouterr().err
    code, out = _cli_json(capsys, path)
    assert code == 2 and out["state"] is None
    assert words in f"{out['error']['key']}: {out['error']['message']}"


def test_deck_1_replay_of_a_file_that_is_not_json_exits_2(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "bad.json"
    path.write_text("{not json")
    assert main(["replay", str(path)]) == 2
    assert "not valid JSON" in capsys.readouterr().err


# ---------------------------------------------------------------------- bad input


def _game() -> Game:
    return make_game(("A", "B", "C"), "C", {"A": ["R1", "W", "G5"], "B": ["B1"]}, ("R7",))


@pytest.mark.parametrize(("text", "rule_id", "words"), [
    ("A play R10", "DECK-1", "R10"),
    ("A play X", "DECK-1", "X"),
    ("Zed play R1", "DECK-2", "Zed"),
    ("A catch Zed", "DECK-2", "Zed"),
    ("A play R1 red", "WILD-1", "only with a wild"),
    ("A play W purple", "WILD-1", "purple"),
    ("A play W", "WILD-1", "name a color"),
    ("A draw uno", None, "uno"),
])
def test_deck_1_bad_input_is_refused_as_invalid_with_the_state_unchanged(
        text: str, rule_id: str | None, words: str) -> None:
    game = _game()
    try:
        action = Action.parse(text)
    except InvalidInputError as err:
        assert words in err.message
        return
    before = game.to_text()
    with pytest.raises(InvalidInputError) as info:
        game.apply(action)
    assert info.value.rule_id == rule_id and words in info.value.message
    assert game.to_text() == before


def test_uno_1_a_catch_with_a_card_or_without_a_target_is_malformed() -> None:
    game = _game()
    for action in (Action.from_json({"player": "A", "action": "catch"}),
                   Action.from_json({"player": "A", "action": "draw", "card": "R1"}),
                   Action.from_json({"player": "A", "action": "uno", "target": "B"})):
        with pytest.raises(InvalidInputError):
            game.apply(action)


def test_deck_1_a_deal_with_missing_and_extra_cards_names_them() -> None:
    record = make_record(("A", "B"), "B", {"A": ["R1"]}, ("R7",))
    record["deal"]["draw_pile"].remove("G5")
    record["deal"]["draw_pile"].append("B9")
    with pytest.raises(InvalidInputError) as info:
        replay(record)
    assert info.value.rule_id == "DECK-1"
    assert "1 missing G5" in info.value.message and "1 extra B9" in info.value.message


def test_deal_2_a_deal_without_a_start_card_is_refused() -> None:
    record = make_record(("A", "B"), "B", {"A": ["R1"]}, ("R7",), rest_to="B")
    record["deal"]["hands"]["B"].append(record["deal"]["draw_pile"].pop())
    with pytest.raises(InvalidInputError) as info:
        replay(record)
    assert info.value.rule_id == "DEAL-2" and "draw_pile" in info.value.message


def test_play_1_an_illegal_action_keeps_the_state_text() -> None:
    game = _game()
    refused(game, "B play B1", "PLAY-1")
    with pytest.raises(IllegalActionError) as info:
        game.apply(Action.parse("A play G5"))
    assert info.value.state == game.to_text()  # the error carries the replayable state


@pytest.mark.parametrize("seed", [1, 2])
def test_end_2_to_record_replays_a_game_over_several_rounds_exactly(seed: int) -> None:
    rng = random.Random(seed)
    game = Game(["A", "B", "C"], seed=seed)
    while game.round < 3 and not game.game_over:
        if game.round_over:
            game.next_round()
        game.apply(rng.choice(game.legal_actions()))
    result = replay(to_record(game))
    assert result.error is None and result.game.to_text() == game.to_text()
    assert result.game.dealer_draws == game.dealer_draws


def test_deal_2_to_record_keeps_a_given_deal() -> None:
    game = make_game(("A", "B"), "B", {"A": ["R1", "G5"]}, ("R7", "Y1"))
    game.apply(Action.parse("A draw"))
    again = replay(to_record(game)).game
    assert again.to_text() == game.to_text()


# ------------------------------------------------------------------- the public API


def test_the_public_api_loads_dumps_and_replays_records(tmp_path: Path) -> None:
    from unoformal import Action, Game, Record, replay

    game = Game(["You", "Ada", "Bo"], seed=7)
    for _ in range(12):
        game.apply(game.legal_actions(game.to_play, penalties=False)[0])
    record = Record.of(game)
    path = tmp_path / "game.json"
    record.dump(path)
    loaded = Record.load(path)
    assert loaded == record and Record.loads(path.read_text()) == record
    assert loaded.actions == game.history and all(isinstance(a, Action) for a in loaded.actions)
    assert loaded.start().to_text() == Game(["You", "Ada", "Bo"], seed=7).to_text()
    assert loaded.replay().game.to_text() == game.to_text()
    assert replay(loaded).game.to_text() == replay(loaded.data).game.to_text() == game.to_text()
    assert loaded.replay(stop_at=0).game.to_text() == loaded.start().to_text()


def test_record_loads_refuses_what_is_not_a_record() -> None:
    from unoformal import Record

    with pytest.raises(InvalidInputError, match="a record is a JSON object") as info:
        Record.loads("[1]", "log.jsonl:3")
    assert info.value.source == "log.jsonl:3"
