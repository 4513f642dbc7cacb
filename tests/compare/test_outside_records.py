"""Records of an engine nobody here wrote (letsuno/uno-online, ``packages/shared`` at
commit effc6c6; ``tests/data/outside/``, each one behaviour of that engine), refereed by
``unoformal conform --json`` and by ``unoformal referee``: what each answers is pinned,
with the rule it names, and the two agree record by record.

These are the cases issue 41 found misattributed on that engine's own logs (tests built
from our own records had passed): a final Draw Two nobody draws is END-1's draw, not
DRAW-1's; a start Wild put back under the pile deviates from START-WILD and is not
malformed; a catch answered by its victim's accept still names UNO-1; a late UNO says why.
"""

from __future__ import annotations

import json
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from unoformal.compare.live import SETUP
from unoformal.engine.actions import Action

OUTSIDE = Path(__file__).resolve().parents[1] / "data" / "outside"
CHANCE = ("draws", "reshuffles")


@dataclass(frozen=True)
class Answer:
    """What unoformal answers of one record: the rule its deviation is counted under
    (conform's key, the first cause), the rule the refusal breaks, where (the action's
    index; None at the set-up) and words the message holds."""

    counted: str
    rule: str
    index: int | None
    words: str


ANSWERS = {
    "any_card_after_drawing.json": Answer(
        "DRAW-1", "DRAW-1", 1, "P0 drew and may play only the drawn card or pass (DRAW-1)"),
    "catch_at_a_later_time.json": Answer(
        "UNO-1", "UNO-1", 12, "P1 cannot be caught now: nobody has played their next-to-last "
        "card without saying UNO since the turn began"),
    "catch_during_penalty.json": Answer(
        "UNO-1", "PLAY-1", 10, "P0's catch of P1 (UNO-1) did not change whose turn it is"),
    "catch_penalty_counts_as_draw.json": Answer(
        "DRAW-1", "DRAW-1", 13, "pass only after drawing"),
    "catch_then_wd4_response.json": Answer(
        "UNO-1", "PLAY-1", 24, "P0 is not to move: P1's catch of P0 (UNO-1), before P1's "
        "accept, did not change whose turn it is; P0's Wild Draw Four made P1 draw and lose "
        "the turn (WD4-2), so P2 moves"),
    "final_draw_two_not_drawn.json": Answer(
        "END-1", "END-1", 23, "P0 must draw 2 card(s) here; the record states 0: P1 went out "
        "with Y+2, whose draw is resolved before the round ends (END-1)"),
    "half_pile_refilled.json": Answer(
        "RESHUFFLE-1", "RESHUFFLE-1", 151, "reshuffle only an empty pile"),
    "partial_reshuffle.json": Answer(
        "RESHUFFLE-1", "RESHUFFLE-1", 170, "the stated new pile is not the discards below the "
        "top card"),
    "start_reverse_dealers_left_goes_right.json": Answer(
        "START-REV", "PLAY-1", 0, "the start card Reverse (START-REV) gives the turn to P1"),
    "start_wild_put_back.json": Answer(
        "START-WILD", "START-WILD", None, "1 start reshuffle(s) stated that the start card W "
        "does not cause: it stays face up"),
    "uno_said_late.json": Answer(
        "UNO-1", "UNO-1", 18, "P0 has no UNO left to say: the window to say it closed when "
        "P1's turn began (P1 draw), after P0's Y1 (UNO-1)"),
}


def test_every_outside_record_is_pinned() -> None:
    assert sorted(ANSWERS) == sorted(p.name for p in OUTSIDE.glob("*.json"))


def _conform(path: Path) -> dict[str, Any]:
    done = subprocess.run([sys.executable, "-m", "unoformal", "conform", "--json", str(path)],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 1, done.stderr  # 1: a record deviates
    out: dict[str, Any] = json.loads(done.stdout)
    return out


@pytest.mark.parametrize("name", sorted(ANSWERS))
def test_conform_json_counts_each_record_under_the_rule_of_its_deviation(name: str) -> None:
    want = ANSWERS[name]
    out = _conform(OUTSIDE / name)
    assert (out["games"], out["clean"], out["malformed"]) == (1, 0, 0)
    assert out["deviations"] == {want.counted: 1}
    why = out["explanations"][want.counted]
    assert (why["rule"], why["causes"][:1] or [why["rule"]], why["index"]) == (
        want.rule, [want.counted], want.index)
    assert want.words in why["message"]
    cut = 0 if want.index is None else want.index + 1  # the example replays to it
    assert len(out["examples"][want.counted]["actions"]) == cut


def _session(record: dict[str, Any]) -> list[str]:
    """The referee's lines for one record: its set-up as ``new``, each action as ``apply``
    with the chance it states."""
    lines = [json.dumps({"cmd": "new", **{k: record[k] for k in SETUP if k in record}})]
    for data in record["actions"]:
        action = Action.from_json({k: v for k, v in data.items() if k not in CHANCE})
        lines.append(json.dumps({"cmd": "apply", "action": str(action),
                                 **{k: data[k] for k in CHANCE if k in data}}))
    return lines


def _refereed() -> dict[str, tuple[int | None, dict[str, Any]]]:
    """Every record through one ``unoformal referee`` session (each ``new`` replaces the
    game): the first refusal of each, with the index of the action refused (None: the
    ``new``)."""
    names = sorted(ANSWERS)
    sessions = [_session(json.loads((OUTSIDE / n).read_text(encoding="utf-8"))) for n in names]
    sent = "".join(line + "\n" for lines in sessions for line in lines)
    done = subprocess.run([sys.executable, "-m", "unoformal", "referee"], input=sent,
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    answers = [json.loads(line) for line in done.stdout.splitlines()]
    out, at = {}, 0
    for name, lines in zip(names, sessions, strict=True):
        mine, at = answers[at:at + len(lines)], at + len(lines)
        first = next(i for i, a in enumerate(mine) if not a["ok"])
        out[name] = (None if first == 0 else first - 1, mine[first]["error"])
    return out


REFEREED: dict[str, tuple[int | None, dict[str, Any]]] = {}


def refereed(name: str) -> tuple[int | None, dict[str, Any]]:
    if not REFEREED:
        REFEREED.update(_refereed())
    return REFEREED[name]


@pytest.mark.parametrize("name", sorted(ANSWERS))
def test_the_live_referee_refuses_the_same_move_naming_the_same_rules(name: str) -> None:
    want = ANSWERS[name]
    index, error = refereed(name)
    assert error["kind"] == "illegal"  # a deviation, never malformed input
    assert (index, error["rule"], (error["causes"] or [error["rule"]])[0]) == (
        want.index, want.rule, want.counted)
    assert want.words in error["message"]
    conform = _conform(OUTSIDE / name)["explanations"][want.counted]
    assert error["message"] == conform["message"]


def test_catch_then_wd4_response_names_the_catch_then_the_draw_card() -> None:
    _, error = refereed("catch_then_wd4_response.json")
    assert error["causes"] == ["UNO-1", "WD4-2"]


# Records of the same engine cut short and given one more move, to reach the refusals
# whose words were unclear: uno_said_late.json's P0 plays Y1 at actions[15] and keeps one
# card without saying UNO, so P0's window is open at actions[16].
def _after_y1(*moves: dict[str, Any]) -> dict[str, Any]:
    record = json.loads((OUTSIDE / "uno_said_late.json").read_text(encoding="utf-8"))
    assert record["actions"][15] == {"player": "P0", "action": "play", "card": "Y1"}
    return {**record, "actions": [*record["actions"][:16], *moves]}


UNO, CATCH = {"player": "P0", "action": "uno"}, {"player": "P1", "action": "catch",
                                                 "target": "P0"}
UNCLEAR = {
    # the catcher is the one whose window is open: "only P0 can" read as "only P0 may catch"
    "the catcher is the one to catch": (
        _after_y1({"player": "P0", "action": "catch", "target": "P1"}), 16, "UNO-1",
        "P0 catch P1: P1 cannot be caught now: the only player who can be caught is P0, the "
        "catcher, who played their next-to-last card without saying UNO"),
    "UNO said twice": (_after_y1(UNO, UNO), 17, "UNO-1",
                       "P0 uno: P0 has no UNO left to say: P0 said it already, after P0's Y1 "
                       "(UNO-1)"),
    "UNO said after the catch": (_after_y1(CATCH, UNO), 17, "UNO-1",
                                 "P0 uno: P0 has no UNO left to say: P1 caught P0 already, "
                                 "after P0's Y1 (UNO-1)"),
}


@pytest.mark.parametrize("case", sorted(UNCLEAR))
def test_unclear_refusals_say_who_is_who_and_why_in_conform_and_the_referee(
        case: str, tmp_path: Path) -> None:
    record, index, rule, message = UNCLEAR[case]
    path = tmp_path / "cut.json"
    path.write_text(json.dumps(record), encoding="utf-8")
    why = _conform(path)["explanations"][rule]
    assert (why["index"], why["rule"], why["message"]) == (index, rule, message)
    done = subprocess.run([sys.executable, "-m", "unoformal", "referee"],
                          input="".join(line + "\n" for line in _session(record)),
                          capture_output=True, text=True, timeout=120)
    answers = [json.loads(line) for line in done.stdout.splitlines()]
    refused = [i for i, a in enumerate(answers) if not a["ok"]]
    assert refused[0] == index + 1  # after the new
    assert (answers[index + 1]["error"]["rule"], answers[index + 1]["error"]["message"]) == (
        rule, message)
