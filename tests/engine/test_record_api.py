"""Records read, written and replayed through their public functions, pinned exactly: the
words and place of what is refused (DEAL-1, DECK-1, the record's own fields), the rules a
caller passes winning over the record's, the form a record is written in, and how a
record states its rules (by name, or embedded with its expected verdicts).

The engine mutation score (``benchmarks/mutation.py``) showed each of these could change
without a test noticing.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.compare.helpers import record
from unoformal.engine import rounds as rounds_module
from unoformal.engine.actions import Action
from unoformal.engine.record import Record, record_actions, replay, rules_json
from unoformal.errors import InvalidInputError
from unoformal.rulebook.table import CLASSIC
from unoformal.rulebook.variants import derive, load_rules

P0, P1 = "P0", "P1"
OBJECT = 'a record is a JSON object {"players": [...], ...}'


def _good() -> dict[str, Any]:
    return record({P0: ["R7"], P1: ["R8"]}, ["R5", "G1"], [
        {"player": P0, "action": "play", "card": "R7"}])


def _refusal(data: Any) -> tuple[str, str | None, str | None, int | None]:
    with pytest.raises(InvalidInputError) as info:
        replay(data)
    err = info.value
    return err.message, err.rule_id, err.key, err.index


def test_deal_1_a_stated_dealer_draw_and_a_named_dealer_must_agree() -> None:
    data = {**_good(), "dealer": P0, "dealer_draws": [{P0: "R5", P1: "G7"}]}
    assert _refusal(data) == ("the stated dealer draw makes P1 the dealer, not P0", "DEAL-1",
                              "dealer", None)


def test_deck_1_a_start_reshuffle_names_the_card_it_cannot_read() -> None:
    data = {**_good(), "start_reshuffles": [["R3", "X9"]]}
    assert _refusal(data) == (
        "unknown card code 'X9' (expected R0-R9, RS, RR, R+2 and likewise Y, G, B; W; W+4)",
        "DECK-1", "start_reshuffles[0][1]", None)


def test_a_bad_seed_is_named() -> None:
    assert _refusal({**_good(), "seed": "7"}) == (
        "'7': expected an integer from 0 to 2**63-1", None, "seed", None)


def test_a_schema_refusal_is_cut_short_and_names_the_schema() -> None:
    long = "x" * 300
    message, rule_id, key, index = _refusal({**_good(), "actions": long})
    assert message == f"{long!r} is not of type 'array'"[:200] + " (record.schema.json)"
    assert (rule_id, key, index) == (None, "actions", None)


def test_version_1_may_say_so() -> None:
    data = {k: v for k, v in _good().items() if k != "version"}
    assert replay({**data, "version": 1}).error is None


def test_actions_that_are_not_a_list_are_named() -> None:
    with pytest.raises(InvalidInputError) as info:
        record_actions({"actions": "x"})
    assert (info.value.message, info.value.key) == ("'x': expected a list of actions", "actions")


def test_an_action_that_is_not_an_object_is_named_with_its_index() -> None:
    with pytest.raises(InvalidInputError) as info:
        record_actions({"actions": [{"player": P0, "action": "draw"}, 5]})
    err = info.value
    assert (err.message, err.key, err.index, err.action) == (
        "action 5: expected an object", "actions[1]", 1, "5")


def test_a_malformed_action_is_echoed_cut_short() -> None:
    bad = {"player": P0, "action": "draw", "card": "x" * 300}
    with pytest.raises(InvalidInputError) as info:
        record_actions({"actions": [bad]})
    assert info.value.action == repr(bad)[:197] + "..."


def test_uno_true_and_uno_1_are_never_confused() -> None:
    # `1 == True`: a parsed `uno: true` must not be reused for `uno: 1`, which is malformed.
    said = {"player": P0, "action": "play", "card": "R7", "uno": True}
    assert record_actions({"actions": [said]})[0].uno is True
    with pytest.raises(InvalidInputError) as info:
        record_actions({"actions": [{**said, "uno": 1}]})
    assert (info.value.message, info.value.key) == ("1: must be true or false",
                                                    "actions[0].uno")


def test_a_repeated_action_is_parsed_once(monkeypatch: pytest.MonkeyPatch) -> None:
    # A log repeats the same few hundred actions: each is read once and shared. (A fresh
    # memo: one an earlier test, or a parent process, filled would hide a memo that fails
    # to remember.)
    monkeypatch.setattr(rounds_module, "_PARSED", {})
    same = {"player": P0, "action": "play", "card": "R7", "uno": True}
    first, again = record_actions({"actions": [same, dict(same)]})
    assert isinstance(first, Action) and first is again


def test_the_rules_a_caller_passes_win_over_the_records() -> None:
    seed004 = load_rules("seed004")
    for data in (_good(), {k: v for k, v in _good().items() if k != "version"}):
        assert Record(data).start(seed004).rules is seed004
        assert Record(data).replay(seed004).game.rules is seed004
        assert replay(data, seed004).game.rules is seed004


def test_a_record_is_written_as_json_one_space_indented(tmp_path: Path) -> None:
    data = _good()
    path = tmp_path / "r.json"
    Record(data).dump(path)
    lines = path.read_text(encoding="utf-8").splitlines()
    assert lines[:2] == ["{", ' "version": 2,']
    assert Record.load(path).data == data
    assert Record(data).dumps(2).splitlines()[1] == '  "version": 2,'
    assert "\n" not in Record(data).dumps()


def test_a_record_read_from_text_is_named_record_in_errors() -> None:
    with pytest.raises(InvalidInputError) as info:
        Record.loads("[1]")
    assert (info.value.message, info.value.source) == (OBJECT, "record")
    with pytest.raises(InvalidInputError) as info:
        Record.loads("{")
    assert info.value.source == "record"
    with pytest.raises(InvalidInputError) as info:
        Record.loads("[1]", source="log.jsonl:3")
    assert info.value.source == "log.jsonl:3"


def test_a_shipped_variant_is_stated_by_name_any_other_table_embedded() -> None:
    assert rules_json(load_rules("seed004")) == "seed004"
    expect = [{"property": "wd4-legality", "players": "2-4", "verdict": "proved",
               "reason": "unchanged"}]
    table = derive(CLASSIC, "mine", "one card", {"UNO-1": {"penalty": 1}}, expect)
    assert rules_json(table) == {"name": "mine", "base": "classic", "description": "one card",
                                 "rules": {"UNO-1": {"penalty": 1}}, "expect": expect}
