"""``unoformal conform`` past the first deviation (issue 41, point 2), on another engine's
records (``tests/data/outside/``, letsuno/uno-online): every deviation of a record listed,
each resynchronisation said, a record whose next state cannot be known stopped; counts per
rule and distinct deviations; ``--first`` the output of before, byte for byte
(``tests/data/conform-first/``: written by the command before this change)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from tests.compare.helpers import record as built
from tests.compare.test_conform import _write
from unoformal.commands.cli import main
from unoformal.compare.deviations import every_deviation
from unoformal.compare.follow import Unknowable, force
from unoformal.compare.live import SETUP
from unoformal.engine.actions import Action
from unoformal.engine.record import play_on, prepared

CHANCE = ("draws", "reshuffles")

ROOT = Path(__file__).resolve().parents[2]
OUTSIDE = ROOT / "tests" / "data" / "outside"
BEFORE = ROOT / "tests" / "data" / "conform-first"


def _session(record: dict[str, Any], set_up_resynchronised: bool) -> list[str]:
    """A referee session of one record: ``new`` from its set-up (from its last stated
    start pile where conform went on from it: ``new`` refuses a set-up the rules
    contradict), each move an ``apply`` with ``"force": true`` and the chance it states."""
    setup = {k: record[k] for k in SETUP if k in record}
    if set_up_resynchronised:
        piles = setup.pop("start_reshuffles")
        setup["deal"] = {**record["deal"], "draw_pile": piles[-1]}
    lines = [json.dumps({"cmd": "new", **setup})]
    for data in record["actions"]:
        action = Action.from_json({k: v for k, v in data.items() if k not in CHANCE})
        lines.append(json.dumps({"cmd": "apply", "action": str(action), "force": True,
                                 **{k: data[k] for k in CHANCE if k in data}}))
    return lines


def _run(capsys: pytest.CaptureFixture[str], *argv: str) -> str:
    assert main(["conform", *argv]) == 1  # 1: a record deviates
    return capsys.readouterr().out


def _outside(name: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((OUTSIDE / name).read_text(encoding="utf-8"))
    return data


@pytest.fixture(scope="module")
def every() -> dict[str, Any]:
    """``conform --json tests/data/outside`` (every deviation), run once."""
    from unoformal.compare.records import conform

    return conform([str(OUTSIDE)], every=True).to_json()


def test_first_is_the_output_of_before_byte_for_byte(
        capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT)  # the sources are named as given: tests/data/outside/...
    for argv, before in ((["tests/data/outside", "--first"], "outside.txt"),
                         (["tests/data/outside", "--first", "--json"], "outside.json")):
        assert _run(capsys, *argv) == (BEFORE / before).read_text(encoding="utf-8")


def test_first_is_the_output_of_before_on_malformed_and_version_1_records(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    _write(tmp_path)
    for extra, before in (([], "mixed.txt"), (["--json"], "mixed.json")):
        want = (BEFORE / before).read_text(encoding="utf-8").replace("{dir}", str(tmp_path))
        assert _run(capsys, str(tmp_path), "--first", *extra) == want


def test_every_deviation_adds_keys_and_keeps_the_first_deviations_ones(
        every: dict[str, Any]) -> None:
    first = json.loads((BEFORE / "outside.json").read_text(encoding="utf-8"))
    for key, value in first.items():
        if key not in ("examples", "explanations"):  # sources are absolute here
            assert every[key] == value, key
    assert {k: v["index"] for k, v in every["explanations"].items()} == {
        k: v["index"] for k, v in first["explanations"].items()}
    assert set(every) - set(first) == {"every_deviation", "per_rule", "distinct", "listed"}


def _listed(every: dict[str, Any], name: str) -> dict[str, Any]:
    (entry,) = [e for e in every["listed"] if e["source"].endswith(name)]
    return entry


def test_a_record_with_two_separate_deviations_lists_both(every: dict[str, Any]) -> None:
    # letsuno: after a start Reverse its dealer's left plays (START-REV), and a last Draw
    # Two ends the round undrawn (END-1), 50 moves later
    entry = _listed(every, "start_reverse_dealers_left_goes_right.json")
    assert [(d["index"], d["counted"], d["rule"], d["move"]) for d in entry["deviations"]] == [
        (0, "START-REV", "PLAY-1", "draw"), (50, "END-1", "END-1", "play")]
    assert entry["stopped"] is None
    assert entry["resynchronised"] == [{"index": 0, "how": "the turn given to P0, who moves "
                                        "in the record (the rules give it to P1)"}]
    assert "P1 went out with G+2" in entry["deviations"][1]["message"]


def test_each_deviation_has_the_words_of_the_first(every: dict[str, Any]) -> None:
    first = every["explanations"]["DRAW-1"]
    entry = _listed(every, Path(first["source"]).name)
    (same,) = [d for d in entry["deviations"] if d["index"] == first["index"]]
    assert (same["rule"], same["causes"], same["message"]) == (
        first["rule"], first["causes"], first["message"])
    assert [d["index"] for d in entry["deviations"]] == [1, 23, 26, 27, 36, 40, 41, 43]


def test_counts_per_rule(every: dict[str, Any]) -> None:
    assert every["per_rule"] == {
        "UNO-1": {"records": 9, "rounds": 9, "deviations": 16},
        "DRAW-1": {"records": 6, "rounds": 6, "deviations": 15},
        "RESHUFFLE-1": {"records": 5, "rounds": 5, "deviations": 14},
        "END-1": {"records": 3, "rounds": 3, "deviations": 3},
        "START-REV": {"records": 1, "rounds": 1, "deviations": 1},
        "START-WILD": {"records": 1, "rounds": 1, "deviations": 1}}
    listed = [d for e in every["listed"] for d in e["deviations"]]
    assert every["every_deviation"] == {"deviations": 50, "records": 11, "rounds": 11,
                                        "distinct": 14, "repeats": 36, "stopped": 0}
    assert len(listed) == 50 == sum(d["deviations"] for d in every["distinct"])


def test_distinct_deviations_group_repeats_of_one_behaviour(every: dict[str, Any]) -> None:
    by = {(d["counted"], d["rule"], tuple(d["causes"]), d["move"]): d
          for d in every["distinct"]}
    late_catch = by[("UNO-1", "UNO-1", (), "catch")]
    assert (late_catch["deviations"], late_catch["records"]) == (11, 6)
    # the catch that leaves the turn where it was: after a Draw Two and after a Wild Draw
    # Four, two causes, so two behaviours
    assert by[("UNO-1", "PLAY-1", ("UNO-1", "D2-1"), "play")]["deviations"] == 2
    assert by[("UNO-1", "PLAY-1", ("UNO-1", "WD4-2"), "pass")]["deviations"] == 1


def test_a_start_card_put_back_goes_on_from_its_stated_pile(every: dict[str, Any]) -> None:
    entry = _listed(every, "start_wild_put_back.json")
    assert [(d["key"], d["counted"]) for d in entry["deviations"]] == [
        ("start_reshuffles", "START-WILD"), ("actions[96]", "UNO-1"), ("actions[97]", "DRAW-1")]
    assert entry["resynchronised"][0]["index"] is None
    assert "start_reshuffles[1]" in entry["resynchronised"][0]["how"]


def test_a_record_whose_next_state_cannot_be_known_stops_there_saying_why() -> None:
    record = _outside("any_card_after_drawing.json")
    # actions[27], a catch refused (UNO-1), is stated to make P1 draw G0: the deck's only
    # G0 is in a hand then, not in the draw pile
    assert record["actions"][27]["draws"] == {"P1": ["YR", "RR"]}
    record["actions"][27]["draws"] = {"P1": ["YR", "G0"]}
    walk = every_deviation(record)
    assert [d.index for d in walk.deviations] == [1, 23, 26, 27]
    assert walk.stopped == (27, "cannot know the state after actions[27]: P1 is stated to "
                                "draw G0, which is not in the draw pile")


def test_forcing_leaves_the_state_before_unchanged() -> None:
    record = _outside("any_card_after_drawing.json")
    game, actions, chance = prepared(record)
    refused = play_on(game, actions, chance)
    assert refused.error_index == 1
    before = refused.game.to_text()
    forced, notes = force(refused.game, actions[1], chance[1] if chance else None)
    assert refused.game.to_text() == before != forced.to_text()
    assert notes == ["forced: the rules refuse it (DRAW-1)"]
    assert "Y0" in refused.game.hand("P0") and "Y0" not in forced.hand("P0")
    with pytest.raises(Unknowable):
        force(refused.game, actions[1], ({0: [game.deck.face_id("Y0")]}, None))
    assert refused.game.to_text() == before


def test_the_text_lists_every_deviation_after_the_first_deviations_table(
        capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT)
    out = _run(capsys, "tests/data/outside")
    before = (BEFORE / "outside.txt").read_text(encoding="utf-8")
    assert out.startswith(before.rstrip("\n") + "\n\nevery deviation, record by record:\n")
    assert "tests/data/outside/start_reverse_dealers_left_goes_right.json: 2 deviation(s), " \
           "refereed to its end\n  actions[0] PLAY-1 (causes START-REV): P0 draw" in out
    assert "  actions[50] END-1 (causes END-1): P0 must draw 2 card(s)" in out
    assert "every deviation: 50 in 11 record(s), 11 round(s); 14 distinct, 36 repeat(s); " \
           "0 record(s) stopped early" in out
    assert "UNO-1              9       9         16" in out


def test_a_draw_card_its_victim_does_not_answer_is_dropped_and_the_walk_goes_on() -> None:
    # RLCard's drawn Wild Draw Four asks nothing of its victim, who just plays on
    moves = [{"player": "P0", "action": "play", "card": "W+4", "color": "green"},
             {"player": "P1", "action": "play", "card": "G5"},
             {"player": "P0", "action": "play", "card": "G7"},
             {"player": "P0", "action": "play", "card": "G8"}]
    walk = every_deviation(built({"P0": ["W+4", "G7", "G8"], "P1": ["G5"]}, ["R7"], moves))
    assert [(d.index, d.error.rule_id, d.error.causes) for d in walk.deviations] == [
        (1, "WD4-2", ("WD4-2",)), (3, "PLAY-1", ())]
    # the last move is not forced: no later one needs the state it leads to
    assert walk.resynchronised == [
        (1, "the pending draw of 4 card(s) (WD4-2) dropped: P1 moves on without answering "
            "it, as in the record")]
    assert walk.stopped is None


def test_the_live_referee_forced_on_goes_on_as_conform_does(every: dict[str, Any]) -> None:
    """Every record's moves sent with ``"force": true`` through one ``unoformal referee``
    session: the same moves refused, in the same words, the same resynchronisations."""
    names = sorted(p.name for p in OUTSIDE.glob("*.json"))
    sessions = [_session(_outside(n), any(r["index"] is None for r in
                                          _listed(every, n)["resynchronised"]))
                for n in names]
    sent = "".join(line + "\n" for lines in sessions for line in lines)
    done = subprocess.run([sys.executable, "-m", "unoformal", "referee"], input=sent,
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    answers = [json.loads(line) for line in done.stdout.splitlines()]
    at = 0
    for name, lines in zip(names, sessions, strict=True):
        mine, at = answers[at + 1:at + len(lines)], at + len(lines)  # the moves, not new
        refused = [(i, a) for i, a in enumerate(mine) if not a["ok"]]
        entry = _listed(every, name)
        moves = [d for d in entry["deviations"] if d["index"] is not None]
        assert [(i, a["error"]["message"]) for i, a in refused] == [
            (d["index"], d["message"]) for d in moves], name
        notes = [(i, how) for i, a in refused for how in a["forced"]["resynchronised"]]
        assert notes == [(r["index"], r["how"]) for r in entry["resynchronised"]
                         if r["index"] is not None], name


def test_a_forced_apply_that_cannot_be_known_leaves_the_game_and_says_why() -> None:
    from unoformal.compare.live import Referee

    record = _outside("any_card_after_drawing.json")
    referee = Referee()
    new, draw, play = [json.loads(line) for line in _session(record, False)[:3]]
    assert referee.handle(new)["ok"] and referee.handle(draw)["ok"]
    before = referee.handle({"cmd": "state"})["state"]
    bad = {**play, "force": "yes"}
    assert referee.handle(bad)["error"] == {
        "kind": "invalid", "rule": None, "causes": [], "message": "'yes': true or false",
        "key": "force"}
    # actions[1] (P0 play Y0, refused: DRAW-1) stated to draw Y0 too, which P0 holds
    answer = referee.handle({**play, "draws": {"P0": ["Y0"]}})
    assert answer["error"]["rule"] == "DRAW-1"
    assert answer["forced"] == {"resynchronised": [], "stopped": "P0 is stated to draw Y0, "
                                "which is not in the draw pile"}
    assert answer["state"] == before == referee.handle({"cmd": "state"})["state"]
    answer = referee.handle(play)  # as the record states it: taken, and the game goes on
    assert answer["forced"] == {"resynchronised": ["forced: the rules refuse it (DRAW-1)"],
                                "stopped": None}
    assert answer["state"] != before
    assert referee.handle({"cmd": "record"})["record"]["actions"] == record["actions"][:2]


def test_rlcard_under_its_own_rules_shows_its_genuine_bugs_and_nothing_they_cause(
        capsys: pytest.CaptureFixture[str]) -> None:
    """RLCard's drawn Wild Draw Four has no effect: the rules made its victim draw 4 cards
    the record does not state, which go back on the pile when the victim moves on;
    otherwise every later draw of that round would deviate too (DRAW-1, a draw of a card
    the victim holds) and the round stop."""
    pytest.importorskip("rlcard")
    out = json.loads(_run(capsys, "--engine", "rlcard", "--games", "20", "--players", "2,4",
                          "--seed", "0", "--rules", "rlcard", "--json"))
    assert [(d["counted"], d["rule"], d["move"], d["deviations"]) for d in out["distinct"]] == [
        ("DRAW-1", "DRAW-1", "pass", 23), ("WD4-2", "PLAY-1", "draw", 10),
        ("WD4-2", "PLAY-1", "play", 7)]
    assert out["every_deviation"]["stopped"] == 0
    put_back = [r["how"] for e in out["listed"] for r in e["resynchronised"]
                if "put back on the pile" in r["how"]]
    assert len(put_back) == 17 == out["per_rule"]["WD4-2"]["deviations"]
    assert put_back[0].startswith("P1's 4 card(s) drawn under WD4-2, which the record does "
                                  "not state, put back on the pile")


def test_rounds_are_counted_per_record_and_round() -> None:
    from unoformal.compare.deviations import Deviation, Walk
    from unoformal.compare.listing import Listing
    from unoformal.errors import IllegalActionError

    def dev(index: int, round_: int, kind: str = "play") -> Deviation:
        return Deviation(index, round_, kind, IllegalActionError("x", "PLAY-1",
                                                                 causes=("TWO-1",)))

    listing = Listing()
    listing.add("a", Walk([dev(3, 1), dev(9, 1), dev(40, 2, "draw")]))
    listing.add("b", Walk([dev(5, 1)], stopped=(5, "why")))
    listing.add("c", Walk())  # clean: not listed
    assert listing.per_rule() == {"TWO-1": {"records": 2, "rounds": 3, "deviations": 4}}
    assert [(d["move"], d["deviations"], d["records"]) for d in listing.distinct()] == [
        ("play", 3, 2), ("draw", 1, 1)]
    assert listing.to_json()["every_deviation"] == {
        "deviations": 4, "records": 2, "rounds": 3, "distinct": 2, "repeats": 2,
        "stopped": 1}
