"""Vacuity guards: a proof whose hypothesis holds in no invariant state, or a claim about
an action that is never enabled, is reported as vacuous, never as proved. The reviewer's
two bugs are planted programmatically: an invariant made unsatisfiable, and a failed
challenge whose guard is false."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest
import z3

from unoformal.commands.cli import main
from unoformal.rulebook.table import CLASSIC
from unoformal.rulebook.variants import derive
from unoformal.verification.z3 import properties, prover
from unoformal.verification.z3.actions import Spec, Step
from unoformal.verification.z3.properties import PROPERTIES, STEPS_ENABLED, property_named
from unoformal.verification.z3.prover import PROVED, VACUOUS, check
from unoformal.verification.z3.vacuity import Need, Witnesses


@pytest.fixture
def fresh_setup() -> Iterator[None]:
    """The compiled tables are cached: a planted bug must not leak into other tests."""
    prover._setup.cache_clear()
    prover._listed.cache_clear()
    yield
    prover._setup.cache_clear()
    prover._listed.cache_clear()


@pytest.fixture
def unsatisfiable_invariant(monkeypatch: pytest.MonkeyPatch, fresh_setup: None) -> None:
    """One conjunct of the invariant made false (the reviewer's first bug)."""
    parts = properties.invariant_parts

    def planted(*args: Any, **kwargs: Any) -> list[Any]:
        return [*parts(*args, **kwargs), z3.BoolVal(False)]

    monkeypatch.setattr(properties, "invariant_parts", planted)


@pytest.fixture
def challenge_failed_never_fires(monkeypatch: pytest.MonkeyPatch, fresh_setup: None) -> None:
    """The failed challenge's guard made false (the reviewer's second bug)."""
    challenge = Spec.challenge

    def planted(self: Spec, s: Any, upheld: bool, offender: int | None) -> Step:
        step = challenge(self, s, upheld, offender)
        if not upheld:
            step.guard = z3.BoolVal(False)
        return step

    monkeypatch.setattr(Spec, "challenge", planted)


def _cli(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, list[dict[str, Any]]]:
    code = main(["verify", "--jobs", "1", "--no-witness", "--json", *args])
    return code, json.loads(capsys.readouterr().out)


def test_an_unsatisfiable_invariant_is_vacuous_everywhere(
        unsatisfiable_invariant: None, capsys: pytest.CaptureFixture[str]) -> None:
    for name in ("challenge", "deck", "invariant"):
        assert check(CLASSIC, property_named(name), 2).verdict == VACUOUS, name
    code, rows = _cli(capsys, "--players", "2,3")
    assert code == 1
    verdicts = {(r["property"], r["players"]): r["verdict"] for r in rows}
    assert set(verdicts.values()) == {VACUOUS}  # nothing proved, nothing refuted
    deck = next(r for r in rows if r["property"] == "deck")
    assert deck["vacuous"] == ["deck"] and not deck["as_expected"]


def test_a_failed_challenge_that_never_fires_is_vacuous(
        challenge_failed_never_fires: None, capsys: pytest.CaptureFixture[str]) -> None:
    steps = check(CLASSIC, STEPS_ENABLED, 2)
    assert steps.verdict == VACUOUS
    # each way its draws come out (the challenger's 6 cards from the pile, or reshuffled)
    assert steps.vacuous == ["challenge_failed[pile]", "challenge_failed[reshuffle]"]
    challenge = check(CLASSIC, property_named("challenge"), 2)
    assert challenge.verdict == VACUOUS
    assert challenge.vacuous == ["challenge_failed[pile]", "challenge_failed[reshuffle]"]
    code, rows = _cli(capsys, "--players", "2,3", "--property", "steps-enabled",
                      "--property", "challenge")
    assert code == 1
    assert {r["verdict"] for r in rows} == {VACUOUS}


def test_ext_pass_off_leaves_its_step_never_enabled(capsys: pytest.CaptureFixture[str]) -> None:
    """A table switch that disables a step: found by steps-enabled (the user's variant
    inherits classic's expectations, so it is unexpected, with the entry to add)."""
    off = derive(CLASSIC, "no-pass", "EXT-PASS off", {"EXT-PASS": {"enabled": False}})
    result = check(off, STEPS_ENABLED, 2)
    assert result.verdict == VACUOUS and result.vacuous == ["pass_nothing_to_draw"]
    extensions = check(off, property_named("extensions"), 2)
    assert extensions.verdict != PROVED  # its claim about the step: refuted, not vacuous


def test_a_witness_is_an_invariant_state_at_the_count_asked() -> None:
    spec, states = prover._setup(CLASSIC, (2, 3), True)
    pre = states[0]
    witnesses = Witnesses(spec, pre.invariant, 5000)
    step = next(s for s in prover._stepped(spec, pre) if s.name == "draw")
    # about no action's relation: asked alone, and its models kept
    alone = z3.BoolVal(True)
    need = Need(step.relation, alone, [2, 3], alone)
    witnesses.settle([need])
    assert need.answers == {2: z3.sat, 3: z3.sat}
    for n in (2, 3):
        (model, *_) = witnesses.models[(alone.get_id(), n)]
        assert z3.is_true(model.eval(z3.And(pre.invariant, step.relation), True))
        assert model.eval(spec.count, True).as_long() == n
    never = Need(z3.BoolVal(False), z3.BoolVal(True), [2], z3.BoolVal(False))
    witnesses.settle([never])
    assert never.answers == {2: z3.unsat}


def test_vacuity_off_is_the_plain_proof() -> None:
    """The mutant runner asks no vacuity question: its verdicts are the proofs' alone."""
    result = check(CLASSIC, property_named("start-card"), 2, vacuity=False)
    assert result.verdict == PROVED
    assert check(CLASSIC, property_named("start-card"), 2).verdict == VACUOUS


def test_each_query_states_its_hypothesis_apart_from_its_claim() -> None:
    """``fails`` implies ``assume``: a query satisfiable proves its hypothesis holds."""
    spec, states = prover._setup(CLASSIC, 2, True)
    pre = states[0]
    for prop in PROPERTIES:
        for query in prop.queries(spec, pre.state):
            solver = z3.Solver()
            solver.add(query.fails, z3.Not(query.assume))
            assert solver.check() == z3.unsat, (prop.name, query.label)
