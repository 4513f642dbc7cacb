"""Expected verdicts for a user's own variant file: derived from the table, not its name."""

from __future__ import annotations

import argparse
import dataclasses
import json
import tomllib
from pathlib import Path
from typing import Any

import pytest

from unoformal.commands import verify
from unoformal.commands.cli import main
from unoformal.rulebook.table import CLASSIC, Expect, RuleTable
from unoformal.rulebook.variants import VARIANTS, load_rules
from unoformal.verification.z3.manifest import (
    INHERITED,
    MANIFEST,
    OFF,
    OWN,
    base_of,
    changed_rules,
    contained,
    expected,
)
from unoformal.verification.z3.properties import PROPERTIES

TWO_1 = "two-player-reverse-is-skip"


def _file(tmp_path: Path, name: str, body: str, base: str = "classic") -> str:
    path = tmp_path / f"{name}.toml"
    path.write_text(f'name = "{name}"\nbase = "{base}"\n'
                    f'description = "my own {name}"\n{body}')
    return str(path)


def _json(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, list[dict[str, Any]]]:
    code = main(["verify", "--jobs", "1", "--no-witness", "--json", *args])
    return code, json.loads(capsys.readouterr().out)


def _verify(rules: RuleTable, counts: list[int], *props: str) -> int:
    args = argparse.Namespace(properties=list(props) or None, json=False, timeout=5000,
                              jobs=1, no_witness=True, quiet=False)
    return verify._verify(rules, counts, args)


def test_a_file_equal_to_classic_verifies_as_classic(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The reviewer's case: another name, the same values (an override that changes
    nothing), so the TWO-1 witness at 3 players is expected, as for classic."""
    path = _file(tmp_path, "mine", '[rules."UNO-1"]\npenalty = 2\n')
    code, rows = _json(capsys, "--rules", path, "--players", "2,3")
    assert code == 0
    # a house rule's own property is vacuous where the rule is off, whatever the variant
    assert {r["expected_from"] for r in rows} == {
        "manifest (classic)", "switched off (SEVEN-O)", "switched off (JUMP-IN)",
        "another reading (UNO-1 reads catch_until = 'next-turn')",
        "another reading (END-2 reads next_dealer = 'left')", "switched off (SEVERAL)",
        "switched off (NOSTACK-1.deflect_with)", "switched off (SCORE-1.partners)",
        "switched off (MERCY)"}
    three = next(r for r in rows if r["players"] == 3 and r["property"] == TWO_1)
    assert three["verdict"] == three["expected"] == "refuted"
    assert three["expected_from"] == "manifest (classic)"


def test_a_file_equal_to_a_shipped_variant_gets_its_expectations(tmp_path: Path) -> None:
    """Whatever its name and base: the stacking values on classic are stacking (under a
    name of its own: a shipped variant's name is refused, see test_surfaces)."""
    path = _file(tmp_path, "classic-like",
                 '[rules."NOSTACK-1"]\nvictim_may_answer = true\nanswers = ["+2"]\n')
    mine, stacking = load_rules(path), load_rules("stacking")
    assert base_of(mine) == "stacking" and not changed_rules(mine)
    for prop in PROPERTIES:
        for n in range(2, 11):
            a, b = expected(mine, prop.name, n), expected(stacking, prop.name, n)
            assert (a.verdict, a.queries, a.source) == (b.verdict, b.queries, b.source)
            assert b.source in (MANIFEST, OFF)


def test_every_shipped_variant_is_its_own_base() -> None:
    for name in VARIANTS:
        assert base_of(load_rules(name)) == name
        assert not changed_rules(load_rules(name))


def test_a_variant_s_own_expectations_take_precedence() -> None:
    """Classic's values, but the file says the TWO-1 witness is proved at 3 players: that
    expectation wins, so the (correct) refutation is now unexpected: exit 1."""
    own = Expect(TWO_1, "3", "proved", "my variant's own claim")
    table = dataclasses.replace(CLASSIC, name="mine", expect=(own,))
    assert expected(table, TWO_1, 3).source == OWN
    assert expected(table, TWO_1, 3).verdict == "proved"
    assert expected(table, TWO_1, 4).verdict == "refuted"  # not stated: the manifest's
    assert _verify(table, [3], TWO_1) == 1
    assert _verify(dataclasses.replace(table, expect=()), [3], TWO_1) == 0


def test_an_unexpected_verdict_names_the_change_and_the_entry_to_add(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """One penalty card for a missed UNO (half of seed004): inherits classic's
    expectations (it was derived from classic), so the refuted penalties property is
    unexpected; the command names UNO-1 as the change its actions read and prints the
    [[expect]] entry. With that entry added, the same run exits 0."""
    table = load_rules(_file(tmp_path, "lenient", '[rules."UNO-1"]\npenalty = 1\n'))
    assert base_of(table) == "classic" and changed_rules(table) == ["UNO-1"]
    assert expected(table, "penalties", 2).source == INHERITED
    assert _verify(table, [2, 3], "penalties", "challenge") == 1
    out = capsys.readouterr().out
    assert "penalties: proved for classic expected; it reads UNO-1" in out
    toml, verdict = out[out.index("[[expect]]"):].rstrip("\n").rsplit("\n", 1)
    assert verdict == "2 unexpected (of 4 verdicts)"
    entries = tomllib.loads(toml)["expect"]
    assert entries == [{"property": "penalties", "players": "2-3", "verdict": "refuted",
                        "reason": "lenient changes UNO-1 (say why this verdict is right)"}]
    recorded = dataclasses.replace(table, expect=tuple(Expect(**e) for e in entries))
    assert _verify(recorded, [2, 3], "penalties", "challenge") == 0


def test_a_file_based_on_another_file_inherits_its_expectations(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The issue's case: a file with ``base = "other.toml"`` was refused its base's
    [[expect]] entries and gave unexpected verdicts. The base's entries hold, after the
    file's own, which win where both speak."""
    penalties = ('[rules."UNO-1"]\npenalty = 1\n[[expect]]\nproperty = "penalties"\n'
                 'players = "2-10"\nverdict = "refuted"\nreason = "one card, not 2"\n')
    _file(tmp_path, "base", penalties)
    child = _file(tmp_path, "child", '[rules."SCORE-2"]\nscore = 200\n', base="base.toml")
    code, rows = _json(capsys, "--rules", child, "--players", "2", "--property",
                       "penalties")
    assert code == 0 and [r["verdict"] for r in rows] == ["refuted"]
    assert rows[0]["expected_from"] == "the variant's own [[expect]]"
    own = ('[[expect]]\nproperty = "penalties"\nplayers = "2"\nverdict = "proved"\n'
           'reason = "the child claims otherwise"\n')
    child = _file(tmp_path, "child2", own, base="base.toml")
    table = load_rules(child)
    assert expected(table, "penalties", 2).verdict == "proved"  # its own entry first
    assert expected(table, "penalties", 3).verdict == "refuted"  # the base's


def test_a_table_playing_a_shipped_rule_as_shipped_inherits_its_entries_too() -> None:
    """no-mercy's base is stacking (the fewest values apart), but it plays SEVEN-O as the
    shipped seven-o does: seven-o's entries hold where stacking's leave a property
    proved (its `uno` and `seven-o-next` were unexpected, 17 verdicts of 298). party's 7
    swaps with the next player: it plays seven-o@next, the larger, first, and inherits
    what that reading states (its file's entries, then its base seven-o's manifest)."""
    no_mercy, party = load_rules("no-mercy"), load_rules("party")
    assert base_of(no_mercy) == base_of(party) == "stacking"
    assert "seven-o" in contained(no_mercy, "stacking")
    assert "seven-o@next" not in contained(no_mercy, "stacking")
    assert "seven-o@next" in contained(party, "stacking")
    uno = expected(no_mercy, "uno", 3)
    assert (uno.verdict, uno.source, uno.variant) == ("refuted", INHERITED, "seven-o")
    assert expected(no_mercy, "seven-o-next", 3).variant == "seven-o"
    assert expected(no_mercy, "seven-o-next", 2).verdict == "proved"  # no entry at 2
    # a table it plays says more than its base, which it does not play
    assert expected(no_mercy, "no-stacking", 3).variant == "stack-mixed@up"
    assert "stacking" not in contained(no_mercy, "stacking")
    # seven-o's manifest says seven-o-next is refuted; party's own entries (its part
    # seven-o-next.toml's) come first, and say its reading's property is proved
    assert expected(party, "seven-o-next", 3).verdict == "proved"
    uno = expected(party, "uno", 3)
    assert uno.verdict == "refuted"  # seven-o's manifest: seven-o@next's base says so
    assert uno.reason == expected(load_rules("seven-o"), "uno", 3).reason
    # of two tables it plays, one that plays the other says more: seven-o@next's own
    # entry (its reading's property proved) over seven-o's manifest (refuted at 3-10)
    assert "seven-o" in contained(party, "stacking")
    said = expected(party, "seven-o-next", 3)
    assert (said.verdict, said.variant) == ("proved", "seven-o@next")
    # of two that neither plays, the stronger verdict: mercy's refuted start-card (a
    # start Draw Two may knock its victim out) over seven-o's vacuous query
    said = expected(no_mercy, "start-card", 3)
    assert (said.verdict, said.variant) == ("refuted", "mercy")
    # a table that adds a rule's house rule otherwise does not play that rule
    assert "draw-until" not in contained(load_rules("stack-draw-two"), "stacking")
    # a shipped variant's own expectations are its manifest's, never another's
    assert expected(load_rules("seven-o"), "no-stacking", 3).verdict == "proved"
    assert contained(load_rules("classic"), "classic") == ()


def test_a_combination_states_what_its_rules_give_together() -> None:
    """A verdict catalogue rules give together and neither alone is a combination's entry
    (index.toml's [[combination]]): every table that plays those rules expects it, a
    preset or a user's own A+B+C, whatever else it adds; a table that plays only one of
    them does not."""
    for name in ("no-mercy", "draw-until@play+mercy", "draw-until@play+mercy+double-score"):
        got = expected(load_rules(name), "draw-until-playable", 3)
        assert (got.verdict, got.source, got.variant) == (
            "vacuous", INHERITED, "draw-until@play+mercy"), name
        assert "MERCY's limit" in got.reason
        assert expected(load_rules(name), "draw-until-playable", 5).verdict == "proved"
    assert expected(load_rules("draw-until@play"), "draw-until-playable", 3).verdict == \
        "proved"
    assert expected(load_rules("draw-until+mercy"), "draw-until-playable", 3).verdict == \
        "proved"  # the other reading keeps a card it may play: the keep happens
