"""Mutants and the explorer's small decks are tables too: within the table's schema.

A mutant the schema refuses (a range, a cross-field check) is no rule table: it is
not generated, and ``refused`` lists it with the refusal. The manifest's mutants are
all admitted.
"""

from __future__ import annotations

import pytest

from unoformal.compare.successors import crosscheck, preset_config
from unoformal.rulebook.schema import table_document, validate
from unoformal.rulebook.table import CLASSIC, breaches
from unoformal.rulebook.variants import derive
from unoformal.verification.explore.presets import PRESETS, small_rules
from unoformal.verification.z3.manifest import mutants as manifest_mutants
from unoformal.verification.z3.mutants import candidates, mutants, refused


def test_every_generated_mutant_is_within_the_schema() -> None:
    made = list(mutants(CLASSIC))
    assert len(made) > 100
    for mutant in made:
        table = mutant.table(CLASSIC)
        validate(table_document(table), mutant.name)
        assert list(breaches(table)) == [], mutant.name


def test_the_mutants_the_schema_refuses_are_counted_with_the_reason() -> None:
    out = {m.name: why for m, why in refused(CLASSIC)}
    assert set(out) == {"DECK-2.minimum=1", "DECK-2.maximum=11", "DRAW-1.cards=0",
                        "TWO-1.players=1", "UNO-1.cards_left=0", "SCORE-1.multiplier=0",
                        "START-WILD.color_at_random=True"}
    assert "allowed 2 to 10 (breaks DECK-2)" in out["DECK-2.maximum=11"]
    assert "first_player_chooses_color" in out["START-WILD.color_at_random=True"]
    assert len(out) + sum(1 for _ in mutants(CLASSIC)) == sum(1 for _ in candidates(CLASSIC))


def test_labels_and_unread_switches_are_not_mutated() -> None:
    names = {m.name for m in candidates(CLASSIC)}
    assert not any(".kind=" in n for n in names)  # card effects' and start rules' labels
    assert "START-D2.enabled=False" in names and "TWO-1.enabled=False" in names
    assert "START-WILD.enabled=False" not in names and "PLAY-1.enabled=False" not in names


def test_the_manifest_mutants_are_admitted() -> None:
    for entry in manifest_mutants():
        table = derive(CLASSIC, entry["name"], "", {entry["rule"]: entry["values"]})
        assert list(breaches(table)) == [], entry["name"]


def test_every_explorer_preset_is_within_the_schema() -> None:
    for preset in PRESETS.values():
        table = small_rules(preset.size, None, preset.extra, preset.name)
        validate(table_document(table), preset.name)
        assert list(breaches(table)) == []
        assert table.players.maximum == preset.size.players
    # One rank and symbols valued alike: the dealer draw could tie for ever, so the
    # small table lets the first contender deal (the explorer fixes the dealer anyway).
    assert not small_rules(PRESETS["skip"].size).dealer_draw.ties_draw_again
    assert small_rules(PRESETS["tiny"].size).dealer_draw.ties_draw_again


@pytest.mark.parametrize(("rule_id", "preset"), [
    ("TWO-1", "reverse"), ("START-REV", "reverse"), ("START-D2", "reverse"),
    ("START-SKIP", "skip"), ("ADVICE-1", "micro")])
def test_a_rulebook_entry_switched_off_means_the_same_to_engine_and_z3(
        rule_id: str, preset: str) -> None:
    """``when_off`` is honoured by both interpreters: the same successors with the entry
    off; and the sample reaches where it matters, since Z3 compiled from the table with
    the entry on disagrees there."""
    off = {rule_id: {"enabled": False}}
    assert not crosscheck(preset, sample=60, overrides=off).mismatches
    on = preset_config(preset).rules
    assert crosscheck(preset, sample=60, overrides=off, z3_rules=on).mismatches
