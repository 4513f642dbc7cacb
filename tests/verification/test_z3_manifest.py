"""The manifest of expected verdicts names real properties, variants, rules and counts."""

from __future__ import annotations

import json
import subprocess
import sys
from typing import Any

from unoformal.rulebook.table import CLASSIC
from unoformal.rulebook.variants import VARIANTS, derive, load_rules
from unoformal.verification.z3.manifest import (
    equivalents,
    expected,
    load,
    mutants,
    variants_of,
)
from unoformal.verification.z3.properties import PROPERTIES
from unoformal.verification.z3.prover import PROVED, REFUTED, UNKNOWN, VACUOUS

NAMES = {p.name for p in PROPERTIES}
IDS = {rule.id for _, rule in CLASSIC.entries()}
TEXTS = " ".join(rule.text for _, rule in CLASSIC.entries())  # CHAL-1 is cited in HIDDEN-1


def test_manifest_entries_name_known_things() -> None:
    for entry in load()["expect"]:
        assert all(v in VARIANTS for v in variants_of(entry)), entry["rules"]
        assert entry["property"] in NAMES
        assert entry["verdict"] in (PROVED, REFUTED, VACUOUS, UNKNOWN)
        assert entry["reason"]
        assert "queries" not in entry or entry["verdict"] == VACUOUS
        # whether a game reaches it: said of a refutation only, true or false
        assert "reached" not in entry or (entry["verdict"] == REFUTED and
                                          isinstance(entry["reached"], bool))
    for m in mutants():
        assert m["killed_by"] in NAMES
        derive(CLASSIC, m["name"], "", {m["rule"]: m["values"]})  # a real table value
    for key in equivalents():
        rule_id, _, field = key.partition(".")
        assert rule_id in IDS, key
        assert not field or field in CLASSIC.entry(rule_id).values(), key


def test_every_property_cites_rule_ids_of_the_table() -> None:
    for prop in PROPERTIES:
        assert prop.rule_ids, prop.name
        assert all(r in IDS or r in TEXTS for r in prop.rule_ids), prop.name


def test_default_expectation_is_proved() -> None:
    assert expected(CLASSIC, "challenge", 2).verdict == PROVED
    assert expected(CLASSIC, "two-player-reverse-is-skip", 4).verdict == REFUTED


def _verify(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "unoformal", "verify", *args],
                          capture_output=True, text=True, timeout=120)


def test_cli_refuses_unknown_variant_and_player_count() -> None:
    bad = _verify("--rules", "nonesuch")
    assert bad.returncode == 2 and "unknown rules" in bad.stderr
    many = _verify("--players", "11")
    assert many.returncode == 2 and "DECK-2" in many.stderr


def test_cli_json_verdicts_and_exit_status() -> None:
    ok = _verify("--players", "2", "--property", "challenge", "--json")
    assert ok.returncode == 0, ok.stderr
    rows = json.loads(ok.stdout)
    assert rows[0]["verdict"] == "proved" and rows[0]["rules"][0] == "CHAL-1"
    stacked = _verify("--rules", "stacking", "--players", "2", "--property", "no-stacking",
                      "--json", "--no-witness")
    assert stacked.returncode == 0  # refuted, as the manifest expects
    assert json.loads(stacked.stdout)[0]["verdict"] == "refuted"


def test_every_shipped_variant_gives_the_manifest_verdicts() -> None:
    """``unoformal verify`` exits 0 exactly when every verdict is the manifest's; run on
    every variant (2 and 3 players, asked about both at once: one worker), so a
    variant's deliberate counterexamples are recorded, not just tolerated. The same run
    is the vacuity guard: a verdict is the manifest's only with the manifest's vacuous
    queries (no more, no fewer), and every action is enabled somewhere (steps-enabled)."""
    for name in VARIANTS:
        run = _verify("--rules", name, "--players", "2,3", "--no-witness", "--jobs", "1",
                      "--json")
        assert run.returncode == 0, f"{name}:\n{run.stderr[-2000:]}"
        rows = json.loads(run.stdout)
        assert all(r["as_expected"] for r in rows), name
        enabled = [r for r in rows if r["property"] == "steps-enabled"]
        assert [(r["players"], r["verdict"], r["vacuous"]) for r in enabled] == \
            [(2, PROVED, []), (3, PROVED, [])], name


def _meets(rules: Any, need: str) -> bool:
    """An entry switched on ("SEVEN-O"), read as named ("UNO-1.catch_until=any-time"), or
    with a house rule's value set ("NOSTACK-1.deflect_with")."""
    rule_id, _, reading = need.partition(".")
    entry = rules.entry(rule_id)
    if not reading:
        return bool(entry.enabled)
    field, eq, value = reading.partition("=")
    if not eq:  # set at all: an enumeration's "none" is not
        have = getattr(entry, field)
        return bool(entry.enabled) and getattr(have, "value", have) not in ("none", (), False)
    return bool(entry.enabled) and getattr(getattr(entry, field), "value", None) == value


def test_a_house_rules_property_is_vacuous_wherever_the_rule_is_off() -> None:
    """Property.needs: SEVEN-O's and JUMP-IN's properties are expected vacuous in every
    table that leaves the rule off (a variant file's included), with no manifest entry
    per variant; where the rule is on, the manifest's verdict (proved) stands."""
    from unoformal.verification.z3.manifest import OFF, expected, load
    from unoformal.verification.z3.prover import SWITCHED_OFF

    needing = [p for p in PROPERTIES if p.needs]
    assert {p.name for p in needing} == {"seven-o", "jump-in", "seven-o-next", "jump-in-adds",
                                         "jump-in-window-open",  # and their other readings
                                         "uno-catch-later", "next-deal-mover", "deflect",
                                         "several", "teams", "mercy"}
    mine = derive(CLASSIC, "mine", "a user's table", {"UNO-1": {"penalty": 4}})
    house = ("deflect", "several-of-a-number", "teams")  # rules their properties need
    for rules in [load_rules(name) for name in (*VARIANTS, *house)] + [mine]:
        for prop in needing:
            off = not all(_meets(rules, need) for need in prop.needs)
            want = expected(rules, prop.name, 4)
            assert (want.verdict == VACUOUS and want.source == OFF) == off, (rules, prop)
            if off:
                assert want.queries == frozenset({SWITCHED_OFF})
                assert prop.needs[0].partition(".")[0] in want.reason
    listed = {e["property"] for e in load()["expect"] if e["verdict"] == VACUOUS}
    assert not listed & {p.name for p in needing}  # no entry per variant is left
