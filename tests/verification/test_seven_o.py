"""SEVEN-O in the relation: the property that states the house rule in its own numbers
(a 7 swaps, a 0 passes, neither as the last card) is proved of the shipped variant and
refutes a wrong command, which engine and relation would share; the existing properties
it departs from are refuted, as the manifest says."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
import z3

from tests.engine.helpers import forget_built
from tests.verification.test_commands import _changed, _planted, _property
from unoformal.language.conditions import Fixed
from unoformal.rulebook.variants import load_rules
from unoformal.rules import play as card_play
from unoformal.verification.explore import Config, Size, analyse, explore
from unoformal.verification.explore.coverage import catalogue
from unoformal.verification.explore.presets import small_rules
from unoformal.verification.z3 import prover
from unoformal.verification.z3.prover import check, check_together

SEVEN_O = load_rules("seven-o")


@pytest.fixture(autouse=True)
def _fresh_relations() -> Iterator[None]:
    yield
    forget_built()  # no plant outlives its test


def test_the_seven_o_property_is_proved_of_the_house_rule_and_vacuous_in_classic() -> None:
    assert check(SEVEN_O, _property("seven-o"), 3).verdict == "proved"
    assert check(load_rules("classic"), _property("seven-o"), 3).verdict == "vacuous"


def test_the_rulebook_properties_seven_o_departs_from_are_refuted_at_its_exchanges() -> None:
    for name, step in (("one-card-per-turn", "play_pass_hands"),
                       ("card-effects", "play_"), ("uno", "play_")):
        result = check(SEVEN_O, _property(name), 3)
        assert result.verdict == "refuted" and step in (result.label or ""), (name, result)
        assert "hands" in (result.label or ""), (name, result.label)


def test_the_seven_o_property_catches_a_7_that_passes_the_hands_on(
        monkeypatch: pytest.MonkeyPatch) -> None:
    _planted(monkeypatch, "play", _changed("PassHands", "play_swap_hands", swap=False),
             card_play)
    result = check(SEVEN_O, _property("seven-o"), 3)
    assert result.verdict == "refuted" and "play_swap_hands" in (result.label or "")


def test_the_seven_o_property_catches_an_exchange_after_the_last_card(
        monkeypatch: pytest.MonkeyPatch) -> None:
    _planted(monkeypatch, "play", _changed("When", "play_pass_hands",
                                           cond=Fixed(False, "never")), card_play)
    result = check(SEVEN_O, _property("seven-o"), 3)
    assert result.verdict == "refuted" and "(last card)" in (result.label or "")


def test_the_explorer_reaches_every_seven_o_branch_on_a_small_deck() -> None:
    # Ranks 0 and 1, the 1 the swapping rank (a table value: swap_rank), two colors, no
    # wilds: every exchange and the last card that exchanges nothing are reached, and
    # every round can still end.
    size = Size(numbers=(1, 1), wilds=0, wild_draw_fours=0, penalties=False)
    house = {"SEVEN-O": {"enabled": True, "swap_rank": 1, "pass_rank": 0}}
    cfg = Config(small_rules(size, extra=house, name="seven"), tuple(size.players_list()),
                 "seven", penalties=False)
    graph = explore(cfg)
    found = analyse(graph)
    assert graph.complete and not found.stuck and not found.doomed
    assert {("SEVEN-O", "swap"), ("SEVEN-O", "pass"), ("SEVEN-O", "last-card")} \
        <= set(graph.covered)
    assert {b.name for b in catalogue(cfg.rules) if b.rule == "SEVEN-O"} == \
        {"swap", "pass", "last-card"}


def test_a_query_that_times_out_about_many_counts_is_decided_about_each(
        monkeypatch: pytest.MonkeyPatch) -> None:
    # uno's claim at SEVEN-O's pass of the hands timed out about 2-10 players at once and
    # is refuted about each count alone (prover._alone, prover._ask_again). The solver's
    # time is not the test's to rely on: a query about several counts is made to time
    # out here, and each count alone is left to the solver.
    ask = prover._ask

    def grouped_time_out(spec: object, pre: object, query: object, tally: Any,
                         counts: set[int], timeout_ms: int, relaxed: bool) -> object:
        if len(counts) > 1:
            for n in counts:
                tally.unknown.setdefault(n, "timeout")
            return z3.unknown
        return ask(spec, pre, query, tally, counts, timeout_ms, relaxed)  # type: ignore[arg-type]

    monkeypatch.setattr(prover, "_ask", grouped_time_out)
    uno = [_property("uno")]
    results = check_together(SEVEN_O, uno, (2, 3))
    assert [r.verdict for r in results] == ["refuted", "refuted"]
    # Planted: no count asked alone after the time-out. The verdicts stay unknown.
    prover._setup.cache_clear()
    monkeypatch.setattr(prover, "_ask_again", lambda *args, **kw: z3.unknown)
    results = check_together(SEVEN_O, uno, (2, 3))
    assert [r.verdict for r in results] == ["unknown", "unknown"]
