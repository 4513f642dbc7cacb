"""``unoformal referee``: the JSON-lines protocol, driven as a subprocess and in-process.

The transcript in docs/referee.md is what the program answers; bad lines get error answers
and the session goes on; an illegal action leaves the state unchanged; EOF and quit end
with 0, Ctrl-C with 130; answers name the rule IDs involved; the record it dumps replays."""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.engine.helpers import full_deal
from tests.fuzz.families import json_values
from unoformal.compare.live import FIELDS, Referee
from unoformal.engine.record import replay

DOC = Path(__file__).resolve().parents[2] / "docs" / "referee.md"
COMMAND = [sys.executable, "-m", "unoformal", "referee"]


def _session(lines: list[str], timeout: float = 60) -> tuple[int, list[Any], str]:
    done = subprocess.run(COMMAND, input="".join(line + "\n" for line in lines),
                          capture_output=True, text=True, timeout=timeout)
    return done.returncode, [json.loads(a) for a in done.stdout.splitlines()], done.stderr


def _transcript() -> tuple[list[str], list[Any]]:
    block = re.search(r"## A session.*?```text\n(.*?)```", DOC.read_text(encoding="utf-8"),
                      re.DOTALL)
    assert block is not None, "docs/referee.md lost its transcript"
    lines = block.group(1).splitlines()
    sent = [line[2:] for line in lines if line.startswith("> ")]
    answers = [json.loads(line[2:]) for line in lines if line.startswith("< ")]
    assert len(sent) == len(answers) == len(lines) // 2
    return sent, answers


def test_the_doc_transcript_is_what_the_referee_answers() -> None:
    sent, shown = _transcript()
    code, answers, err = _session(sent)
    assert code == 0 and err == ""
    assert answers == shown


def test_a_changed_transcript_answer_is_caught() -> None:
    # The check above can fail: the doc's transcript with one rule ID changed differs.
    sent, shown = _transcript()
    changed = json.loads(json.dumps(shown))
    reverse = next(a for a in changed if a.get("action") == "Ann play RR")
    reverse["rule_ids"] = ["PLAY-1", "REV-1"]  # TWO-1 forgotten
    assert _session(sent)[1] != changed


MINI = {"name": "mini", "base": "classic", "rules": {
    "DECK-1": {"colors": ["red", "blue"], "number_copies": [1, 1, 1], "skip_copies": 0,
               "reverse_copies": 1, "draw_two_copies": 1, "wild_copies": 1,
               "wild_draw_four_copies": 1},
    "DEAL-2": {"hand_size": 3}, "DECK-2": {"minimum": 2, "maximum": 2}}}
NEW = {"cmd": "new", "players": ["Ann", "Bob"], "dealer": "Bob", "rules": MINI, "deal": {
    "hands": {"Ann": ["RR", "R1", "B2"], "Bob": ["R2", "B0", "W"]},
    "draw_pile": ["R0", "B1", "R+2", "B+2", "BR", "W+4"]}}


def _new(**fields: Any) -> str:
    return json.dumps({**NEW, **fields})


def test_bad_lines_get_errors_and_an_illegal_action_changes_nothing() -> None:
    lines = ["{oops", "[1, 2]", '{"cmd": "state"}', '{"cmd": "dance"}',
             _new(id=7),
             '{"cmd": "apply", "action": "Bob play R2", "id": "b"}',
             '{"cmd": "state"}', '{"cmd": "apply", "action": "Bob play R2", "x": 1}',
             '{"cmd": "apply", "action": "Bob fly"}', '{"cmd": "view"}',
             '{"cmd": "apply", "action": "Ann play RR"}', '{"cmd": "quit"}',
             '{"cmd": "state"}']
    code, answers, err = _session(lines)
    assert code == 0 and err == ""
    assert len(answers) == 12, "quit ends the session: the last line is not read"
    assert [a["ok"] for a in answers] == [False] * 4 + [True, False, True] + [False] * 3 + \
        [True, True]
    assert "not valid JSON" in answers[0]["error"]["message"]
    assert answers[0]["error"]["source"] == "line 1"
    assert "a message is a JSON object" in answers[1]["error"]["message"]
    assert "no game yet" in answers[2]["error"]["message"]
    assert answers[3]["error"]["key"] == "cmd" and "unknown command 'dance'" in \
        answers[3]["error"]["message"]
    started, refused, after = answers[4], answers[5], answers[6]
    assert started["id"] == 7 and refused["id"] == "b"
    assert refused["error"]["kind"] == "illegal" and refused["error"]["rule"] == "PLAY-1"
    assert refused["state"] == started["state"] == after["state"]
    assert answers[7]["error"]["key"] == "x" and answers[7]["cmd"] == "apply"
    assert "unknown action 'fly'" in answers[8]["error"]["message"]
    assert answers[9]["error"]["message"] == "missing: view needs player"
    assert answers[10]["rule_ids"] == ["PLAY-1", "REV-1", "TWO-1"]
    assert answers[10]["to_play"] == "Ann"


def test_end_of_input_ends_with_0() -> None:
    code, answers, err = _session([_new()])
    assert code == 0 and err == "" and answers[0]["ok"]


def _interruptible() -> None:
    # As from a terminal: a background job of a shell (a mutation run, CI) starts with
    # Ctrl-C ignored, and Python then never raises KeyboardInterrupt.
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def test_ctrl_c_ends_with_130_and_no_traceback() -> None:
    with subprocess.Popen(COMMAND, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                          stderr=subprocess.PIPE, text=True,
                          preexec_fn=_interruptible) as proc:
        assert proc.stdin is not None and proc.stdout is not None
        proc.stdin.write(_new() + "\n")
        proc.stdin.flush()
        assert json.loads(proc.stdout.readline())["ok"]  # waiting for the next line now
        time.sleep(0.2)
        os.kill(proc.pid, signal.SIGINT)
        _, err = proc.communicate(timeout=30)
    assert proc.returncode == 130
    assert err.strip() == "interrupted"


# --------------------------------------------------------------------- in-process


def _ask(referee: Referee, **message: Any) -> dict[str, Any]:
    return referee.handle(json.loads(json.dumps(message)))


def test_two_1_a_refused_move_names_its_cause() -> None:
    referee = Referee()
    assert _ask(referee, **NEW)["ok"]
    answer = _ask(referee, cmd="apply", action="Ann play RR")
    assert answer["rule_ids"] == ["PLAY-1", "REV-1", "TWO-1"] and answer["to_play"] == "Ann"
    refused = _ask(referee, cmd="apply", action="Bob play R2")
    assert refused["error"]["rule"] == "PLAY-1" and refused["error"]["causes"] == ["TWO-1"]
    assert _ask(referee, cmd="legal", player="Bob", penalties=False)["actions"] == []


def test_draw_1_a_stated_draw_is_checked_and_a_wrong_one_changes_nothing() -> None:
    referee = Referee()
    _ask(referee, **NEW)
    before = _ask(referee, cmd="state")["state"]
    wrong = _ask(referee, cmd="apply", action="Ann draw", draws={"Ann": ["BR"]})
    assert wrong["error"]["rule"] == "DRAW-1" and wrong["error"]["kind"] == "illegal"
    assert wrong["state"] == before == _ask(referee, cmd="state")["state"]
    bad = _ask(referee, cmd="apply", action="Ann draw", draws={"Ann": "B1"})
    assert bad["error"]["kind"] == "invalid" and bad["error"]["key"] == "draws.Ann"
    unknown = _ask(referee, cmd="apply", action="Ann draw", draws={"Zed": ["B1"]})
    assert unknown["error"]["rule"] == "DECK-2"
    right = _ask(referee, cmd="apply", action="Ann draw", draws={"Ann": ["B1"]})
    assert right["ok"] and right["draws"] == {"Ann": ["B1"]}
    assert right["rule_ids"] == ["DRAW-1"] and right["phase"] == "drawn"


def test_the_record_replays_to_the_same_state_and_rounds_go_on() -> None:
    referee = Referee()
    started = _ask(referee, cmd="new", players=["A", "B", "C"], seed=11)
    assert started["rule_ids"][:2] == ["DEAL-1", "DEAL-2"]
    answer: dict[str, Any] = started
    for _ in range(400):
        if answer.get("round_over"):
            break
        legal = _ask(referee, cmd="legal", player=answer["to_play"], penalties=False)
        plays = [a for a in legal["actions"] if " play " in a]
        answer = _ask(referee, cmd="apply", action=(plays or legal["actions"])[-1])
        assert answer["ok"], answer
    assert answer["round_over"] and {"END-1", "SCORE-1"} <= set(answer["rule_ids"])
    assert answer["winner"] in ("A", "B", "C")
    record = _ask(referee, cmd="record")["record"]
    assert replay(record).game.to_text() == answer["state"]
    dealt = _ask(referee, cmd="next_round")
    assert dealt["rule_ids"][:2] == ["END-2", "DEAL-2"] and not dealt["round_over"]
    again = _ask(referee, cmd="next_round")
    assert again["error"]["rule"] == "END-2"


def test_hidden_1_a_view_shows_no_other_hand() -> None:
    referee = Referee()
    _ask(referee, **NEW)
    view = _ask(referee, cmd="view", player="Bob")
    assert view["rule_ids"] == ["HIDDEN-1"]
    assert view["view"]["hand"] == ["R2", "B0", "W"]
    assert view["view"]["hand_sizes"] == {"Ann": 3, "Bob": 3}
    assert not {"R1", "RR", "B2"} & set(re.findall(r'"([RBW][^"]*)"', json.dumps(view)))
    assert _ask(referee, cmd="view", player="Zed")["error"]["rule"] == "DECK-2"


@pytest.mark.parametrize(("fields", "key", "rule"), [
    ({"players": ["Ann"]}, "players", "DECK-2"),
    ({"rules": "my.toml"}, "rules", None),
    ({"seed": -1}, "seed", None),
    ({"deal": {"hands": {"Ann": ["R1"]}, "draw_pile": ["R2"]}}, "deal", "DECK-1"),
    ({"rules": {**MINI, "rules": {"UNO-1": {"penalty": -1}}}}, "rules", "UNO-1"),
    ({"rules": {}}, "rules", None),  # an embedded variant without its name (Hypothesis found it)
])
def test_a_bad_new_game_is_refused_naming_the_field(fields: dict[str, Any], key: str,
                                                     rule: str | None) -> None:
    referee = Referee()
    _ask(referee, **NEW)
    before = _ask(referee, cmd="state")["state"]
    answer = _ask(referee, **{**NEW, **fields})
    assert not answer["ok"] and answer["error"]["key"] == key
    assert answer["error"]["rule"] == rule
    assert answer["state"] == before  # the game that was running goes on


def test_lines_not_utf8_or_too_long_get_errors_and_the_session_goes_on(
        monkeypatch: pytest.MonkeyPatch) -> None:
    import io

    from unoformal import inputs
    from unoformal.commands import referee as command
    from unoformal.compare.live import Referee

    monkeypatch.setattr(inputs, "MAX_FILE_BYTES", 64)
    data = b'\xff\xfe{"cmd": "state"}\n' + b"x" * 200 + b"\n" + b'{"cmd": "quit"}\n'
    referee = Referee()
    answers = [command._answer(referee, raw, f"line {n}")
               for n, raw in enumerate(inputs.read_lines(io.BytesIO(data)), start=1)]
    assert [a["ok"] for a in answers] == [False, False, True] and referee.done
    assert "not UTF-8" in answers[0]["error"]["message"]
    assert "longer than 64 bytes" in answers[1]["error"]["message"]
    assert answers[1]["error"]["source"] == "line 2"


_FIELDS = sorted({f for fields in FIELDS.values() for f in fields} | {"cmd", "id", "zzz"})


@st.composite
def _messages(draw: st.DrawFn) -> Any:
    if draw(st.integers(0, 9)) == 0:
        return draw(json_values)
    message = draw(st.dictionaries(st.sampled_from(_FIELDS), json_values, max_size=4))
    message["cmd"] = draw(st.one_of(st.sampled_from(
        ["new", "apply", "legal", "state", "view", "record", "next_round"]), json_values))
    if message["cmd"] == "apply" and draw(st.booleans()):
        message["action"] = draw(st.sampled_from(
            ["Ann play RR", "Bob play R2", "Ann draw", "Ann play W+4 red", "Bob catch Ann",
             "Ann play R1 uno", "Zed draw", "Ann  draw", "Ann draw now"]))
    return message


@settings(max_examples=int(os.environ.get("REFEREE_FUZZ_EXAMPLES", "200")), deadline=None)
@given(st.lists(_messages(), max_size=6))
def test_hostile_messages_get_answers_and_refusals_change_nothing(messages: list[Any]) -> None:
    referee = Referee()
    _ask(referee, **NEW)
    for message in messages:
        before = _ask(referee, cmd="state")["state"]
        answer = referee.handle(message)
        json.dumps(answer)  # an answer is always one JSON line
        assert isinstance(answer["ok"], bool)
        if not answer["ok"]:
            assert answer["error"]["kind"] in ("illegal", "invalid")
            assert answer["error"]["message"]
            assert answer["state"] == before


def test_the_referee_loads_neither_z3_nor_networkx() -> None:
    probe = ("import json, sys\nfrom unoformal.commands.cli import main\ncode = main(['referee'])\n"
             "print(json.dumps([m for m in ('z3', 'networkx') if m in sys.modules]), "
             "file=sys.stderr)\nsys.exit(code)")
    done = subprocess.run([sys.executable, "-c", probe], input=_new() + "\n",
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0 and json.loads(done.stderr) == []
    assert json.loads(done.stdout)["ok"]


@pytest.mark.parametrize(("name", "outcome"), [("seed000_s09_challenge_fails.json", "CHAL-3"),
                                               ("seed000_s09_challenge_wins.json", "CHAL-2")])
def test_chal_a_challenge_names_its_outcome_and_only_the_challenger_sees_the_hand(
        name: str, outcome: str) -> None:
    # seed 000 §09: A plays a Wild Draw Four naming green and B challenges it.
    record = json.loads((DOC.parents[1] / "tests" / "records" / name).read_text())
    referee = Referee()
    assert _ask(referee, cmd="new", **{k: record[k] for k in
                                       ("rules", "players", "dealer", "seed", "deal")})["ok"]
    played = _ask(referee, cmd="apply", action="A play W+4 green")
    # the play's command cites PLAY-1 and WD4-2; WD4-1's branch (legal or bluff) ran
    assert played["rule_ids"] == ["PLAY-1", "WD4-2", "WD4-1"] and played["phase"] == "respond"
    assert _ask(referee, cmd="legal", player="B")["rule_ids"] == ["WD4-2"]
    challenged = _ask(referee, cmd="apply", action="B challenge")
    # what the challenge ran: the hand shown to B alone, WD4-1 judged, the outcome, the color
    assert challenged["rule_ids"] == ["CHAL-1", "HIDDEN-1", "WD4-1", outcome, "CHAL-4"]
    seen = _ask(referee, cmd="view", player="B")["view"]["revealed"]
    assert seen is not None and seen["player"] == "A"
    assert _ask(referee, cmd="view", player="C")["view"]["revealed"] is None


@pytest.mark.parametrize(("rules", "hands", "action", "rule"), [
    # SEVEN-O: a 7 names the player it swaps with
    ("seven-o", {"Ann": ["R7", "B2"], "Bob": ["G3", "G4"], "Cy": ["Y5"]}, "Ann play R7 Cy",
     "SEVEN-O"),
    # JUMP-IN: Cy holds the top card, R4, while Ann is to move
    ("jump-in", {"Ann": ["B2", "G9"], "Bob": ["G3", "G4"], "Cy": ["R4", "Y5"]}, "Cy play R4",
     "JUMP-IN"),
])
def test_the_referee_applies_a_house_rules_play_and_names_its_rule(
        rules: str, hands: dict[str, list[str]], action: str, rule: str) -> None:
    deal = full_deal(hands, ["R4", "Y9"], rest_to="Bob")
    new = {"cmd": "new", "players": ["Ann", "Bob", "Cy"], "dealer": "Cy", "rules": rules,
           "deal": deal}
    code, answers, err = _session([json.dumps(new), json.dumps({"cmd": "apply",
                                                               "action": action})])
    assert code == 0 and not err, err
    assert answers[1]["ok"] is True and rule in answers[1]["rule_ids"], answers[1]


def test_an_answer_names_what_ran_a_short_draw_ext_short_and_an_opened_window_uno_1() -> None:
    # The answer's rules are those the move ran, not read from the state afterwards.
    # Five draws empty the pile; Bob's Draw Two then finds it empty: RESHUFFLE-1 turns the
    # discard below the top (R0) over and Ann draws the one card there is (EXT-SHORT).
    referee = Referee()
    _ask(referee, **NEW)
    for player in ("Ann", "Bob", "Ann", "Bob", "Ann"):
        drew = _ask(referee, cmd="apply", action=f"{player} draw")
        assert drew["rule_ids"] == ["DRAW-1"], drew
        kept = _ask(referee, cmd="apply", action=f"{player} pass")
        assert kept["rule_ids"] == ["DRAW-1"], kept
    short = _ask(referee, cmd="apply", action="Bob play R+2")
    assert short["rule_ids"] == ["PLAY-1", "D2-1", "RESHUFFLE-1", "EXT-SHORT"], short
    assert short["draws"] == {"Ann": ["R0"]} and short["reshuffles"] == [["R0"]]
    # Ann's Reverse gives her the turn back (TWO-1); her next-to-last card played without
    # UNO opens her window (UNO-1), and Bob's draw closes it (UNO-1 again)
    referee = Referee()
    _ask(referee, **NEW)
    _ask(referee, cmd="apply", action="Ann play RR")
    opened = _ask(referee, cmd="apply", action="Ann play R1")
    assert opened["rule_ids"] == ["PLAY-1", "UNO-1"], opened
    closed = _ask(referee, cmd="apply", action="Bob draw")
    assert closed["rule_ids"] == ["UNO-1", "DRAW-1"], closed
