"""Cross-check of the two semantics of the rule table: on small presets, for every
reachable state, the engine's successors (the explorer's chance-branching successor
function) and the Z3 transition relation's successors (``next_relation``) are the same
set, on the projection both define (``unoformal.compare.successors``)."""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path

from unoformal.compare.successors import (
    Summary,
    crosscheck,
    project,
    reachable,
    sym_projection,
    to_sym,
)
from unoformal.rulebook.variants import derive
from unoformal.verification.explore.graph import preset_config
from unoformal.verification.explore.presets import PRESETS

DATA = Path(__file__).parent.parent / "data"
# duel has ~2,000 non-final states at ~0.1 s each: the test checks a fixed sample of
# them (the whole preset is run by `python -m unoformal.compare.successors duel`).
DUEL_SAMPLE = 60


def known(preset: str) -> list[dict[str, object]]:
    """Mismatches found and explained (tests/data/crosscheck_<preset>.json), if any."""
    path = DATA / f"crosscheck_{preset}.json"
    if not path.exists():
        return []
    data = json.loads(path.read_text())
    return list(data["mismatches"])


@cache
def checked(preset: str, sample: int | None = None) -> Summary:
    return crosscheck(preset, sample)


def test_the_mapping_to_z3_keeps_the_projection_of_every_micro_state() -> None:
    states, _ = reachable(preset_config("micro"))
    assert len(states) == PRESETS["micro"].measured[0]  # type: ignore[index]
    for game in states:
        assert sym_projection(to_sym(game)) == project(game), game.to_text()


def test_engine_and_z3_successors_agree_on_every_micro_state_and_deal() -> None:
    summary = checked("micro")
    assert summary.states == 24
    assert summary.compared == 12  # the 12 others are round-over (END-2 not explored)
    assert summary.deals > 0 and summary.transitions > summary.compared
    assert [m.to_json() for m in summary.mismatches] == known("micro")


def test_engine_and_z3_successors_agree_on_a_sample_of_duel() -> None:
    """CHAL-2/3, WD4-1/2, UNO-1, MISPLAY-1, ADVICE-1, RESHUFFLE-1, EXT-SHORT, EXT-PASS."""
    summary = checked("duel", DUEL_SAMPLE)
    assert summary.compared == DUEL_SAMPLE
    sampled = {m["state"] for m in known("duel")}
    found = [m.to_json() for m in summary.mismatches]
    # A whole-preset run pins every known mismatch; a sample must show only those.
    assert all(m in known("duel") for m in found), found
    assert all(m["state"] in sampled for m in found)


def test_ext_pass_a_z3_table_unlike_the_engines_is_caught() -> None:
    """The check can fail: Z3 compiled from a table with EXT-PASS off has no successor
    for the engine's pass when nothing is left to draw (micro's pass-pass cycle)."""
    config = preset_config("micro")
    mutant = derive(config.rules, "micro-no-pass", "EXT-PASS off",
                    {"EXT-PASS": {"enabled": False}})
    summary = crosscheck("micro", z3_rules=mutant)
    assert summary.mismatches
    for m in summary.mismatches:
        assert not m.z3_only
        assert all(line.endswith(" pass") for line in m.engine_only), m.engine_only


def test_end_1_switched_off_engine_and_z3_agree() -> None:
    """END-1's ``resolve_final_draw`` off (a last Draw Two ends the round at once) is
    read by both interpreters: the same successors on a sample of ``reverse``, where
    players go out with a Draw Two; and the sample does reach that branch, since Z3
    compiled from the unswitched table disagrees there."""
    off = {"END-1": {"resolve_final_draw": False}}
    assert not crosscheck("reverse", sample=60, overrides=off).mismatches
    unswitched = preset_config("reverse").rules
    assert crosscheck("reverse", sample=60, overrides=off, z3_rules=unswitched).mismatches


# The challenge preset leaves enough cards that CHAL-2 and CHAL-3 lead to different states:
# a stratified sample holds respond states of both verdicts (WD4-1 legal and a bluff).
CHALLENGE_SAMPLE = 40


def test_challenge_preset_agrees() -> None:
    summary = crosscheck("challenge", sample=CHALLENGE_SAMPLE)
    assert summary.compared >= CHALLENGE_SAMPLE // 2
    assert not summary.mismatches, summary.mismatches[0].to_json()


def test_challenge_preset_tells_the_outcomes_apart() -> None:
    config = preset_config("challenge")
    mutant = derive(config.rules, "challenger-draws-4", "CHAL-3 changed",
                    {"CHAL-3": {"challenger_draws": 4}})
    summary = crosscheck("challenge", sample=CHALLENGE_SAMPLE, z3_rules=mutant)
    assert summary.mismatches, "the challenger's 6 cards (CHAL-3) are not seen"
