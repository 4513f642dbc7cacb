"""The table is the single source of truth: the four mutations that the Z3 tests show
refuting a property (tests/verification/test_z3_mutants.py) change the engine's play too,
with no change to engine code."""

from __future__ import annotations

import json

from unoformal.engine.record import replay
from unoformal.rulebook.table import CLASSIC
from unoformal.rulebook.variants import derive
from unoformal.verification.z3.manifest import mutants

from .helpers import RECORDS, make_record

MUTANTS = {m["name"]: derive(CLASSIC, m["name"], m["name"], {m["rule"]: m["values"]})
           for m in mutants()}


def _s09() -> dict[str, object]:
    record: dict[str, object] = json.loads(
        (RECORDS / "seed000_s09_challenge_fails.json").read_text())
    return record


def test_chal_3_challenger_draws_4_changes_what_the_engine_deals_out() -> None:
    classic, mutant = replay(_s09()), replay(_s09(), rules=MUTANTS["challenger-draws-4"])
    assert classic.error is None and mutant.error is None
    assert len(classic.game.hand("B")) == 2 + 6
    assert len(mutant.game.hand("B")) == 2 + 4


def test_wd4_1_any_playable_card_turns_the_seed_000_bluff_check_around() -> None:
    # 000 §09: A holds blue 7 on red 7; only the color counts, so the card was legal.
    table = next(t for t in MUTANTS.values()
                 if t.wd4_legality.illegal_when_holding != CLASSIC.wd4_legality
                 .illegal_when_holding)
    classic, mutant = replay(_s09()), replay(_s09(), rules=table)
    assert classic.game.to_play == "C" and len(classic.game.hand("A")) == 2
    assert mutant.game.to_play == "B" and len(mutant.game.hand("A")) == 2 + 4


def test_two_1_without_it_a_two_player_reverse_passes_the_turn() -> None:
    table = next(t for t in MUTANTS.values()
                 if t.two_players != CLASSIC.two_players)
    record = make_record(["A", "B"], "B", {"A": ["RR", "R5"], "B": ["G1"]}, ["R7"],
                         actions=["A play RR"], rest_to="B")
    assert replay(record).game.to_play == "A"
    assert replay(record, rules=table).game.to_play == "B"


def test_reshuffle_1_returning_the_top_card_empties_the_discard_pile() -> None:
    table = next(t for t in MUTANTS.values() if not t.reshuffle.keep_top)
    record = make_record(["A", "B"], "B", {"A": ["R5", "G2"], "B": ["R3", "B9"]},
                         ["R7", "G1"], rest_to="A",
                         actions=["A play R5", "B play R3", "A draw", "A pass", "B draw"])
    classic, mutant = replay(record), replay(record, rules=table)
    assert classic.error is None and mutant.error is None
    assert len(classic.game.discard) == 1  # the top card stayed
    assert len(mutant.game.discard) == 0  # it went back into the pile
