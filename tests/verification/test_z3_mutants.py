"""The proofs can fail: each table change alone refutes the property the manifest names."""

from __future__ import annotations

import pytest

from unoformal.engine.game import Game
from unoformal.engine.record import replay
from unoformal.rulebook.table import CLASSIC
from unoformal.rulebook.variants import derive
from unoformal.verification.z3.manifest import mutants
from unoformal.verification.z3.properties import property_named
from unoformal.verification.z3.prover import REFUTED, check
from unoformal.verification.z3.witness import find_record, state_text

MUTANTS = {m["name"]: m for m in mutants()}


def _table(name: str):  # type: ignore[no-untyped-def]
    m = MUTANTS[name]
    return derive(CLASSIC, name, name, {m["rule"]: m["values"]})


@pytest.mark.parametrize("name", sorted(MUTANTS))
def test_manifest_mutant_is_killed_by_its_property(name: str) -> None:
    prop = property_named(MUTANTS[name]["killed_by"])
    result = check(_table(name), prop, 2)
    assert result.verdict == REFUTED
    assert check(CLASSIC, prop, 2).verdict != REFUTED  # the table change alone did it


def test_chal_3_challenger_draws_4_counterexample_replays() -> None:
    table = _table("challenger-draws-4")
    prop = property_named("challenge")
    result = check(table, prop, 2)
    assert result.model is not None and result.spec is not None and result.pre is not None
    text = state_text(result.spec, result.model, result.pre, table)
    assert "phase=respond" in text
    assert Game.from_text(text, table).to_text().split()[1:7] == text.split()[1:7]
    assert result.label is not None
    witness = find_record(table, prop, 2, result.label)
    assert witness is not None and witness.record is not None
    assert witness.replayable, witness.mismatch
    played = replay(witness.record, rules=table)
    assert played.error is None
    assert [a["action"] for a in witness.record["actions"]][-1] == "challenge"


def test_reshuffle_1_returning_the_top_card_is_refuted_by_a_draw() -> None:
    table = _table("reshuffle-returns-top")
    prop = property_named("reshuffle-keeps-top")
    result = check(table, prop, 2)
    assert result.verdict == REFUTED and result.label is not None
    assert result.label.startswith(("reshuffle", "draw", "accept", "challenge", "catch",
                                    "misplay", "advise"))


def test_changed_rules_are_found_by_diffing_the_table_with_its_base() -> None:
    from unoformal.verification.z3.mutants import changed_rules

    assert changed_rules(CLASSIC, _table("challenger-draws-4")) == {"CHAL-3"}
    assert changed_rules(CLASSIC, _table("no-two-player-reverse")) == {"TWO-1"}
    assert changed_rules(CLASSIC, CLASSIC) == set()


def test_steps_cite_every_entry_they_read() -> None:
    """A step cites the entries its action compiles, not only the one it is named after,
    so the mutant runner asks first about the actions a changed entry can affect."""
    from unoformal.verification.z3.actions import Spec
    from unoformal.verification.z3.state import fresh

    spec = Spec(CLASSIC, 2)
    steps = {step.name: step for step in spec.steps(fresh(2, spec.deck))}
    assert "WD4-1" in steps["play_wild_draw_four"].reads  # the legality of the card played
    assert "REV-1" in steps["challenge_upheld"].reads  # which cards may be challenged
    assert "CHAL-2" in steps["challenge_upheld"].rule_ids
    assert "UNO-1" not in steps["advise"].reads


def test_mutant_run_asks_the_properties_citing_the_changed_rule_first() -> None:
    from unoformal.verification.z3.mutants import _plan
    from unoformal.verification.z3.properties import PROPERTIES

    first, about, rest = _plan(PROPERTIES, {"CHAL-3"})
    assert [p.name for p, _ in first] == ["challenge", "challenge"]  # about it, then the rest
    assert {p.name for p, _ in about} == {p.name for p in PROPERTIES} - {"challenge"}
    assert [p.name for p, _ in rest] == [p.name for p, _ in about]
