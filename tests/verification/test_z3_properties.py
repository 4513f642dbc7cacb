"""Z3 proofs of the classic table (two and three players; the full range is the benchmark)."""

from __future__ import annotations

import pytest

from unoformal.rulebook.table import RuleTable
from unoformal.rulebook.variants import load_rules
from unoformal.runtime import campaign
from unoformal.verification.z3.manifest import expected
from unoformal.verification.z3.properties import property_named
from unoformal.verification.z3.prover import (
    PROVED,
    REFUTED,
    UNKNOWN,
    VACUOUS,
    check,
    check_suite,
    check_together,
    shares,
)

CLASSIC = load_rules("classic")


@pytest.mark.parametrize("name", ["deck", "wd4-legality", "challenge", "no-stacking",
                                  "two-player-turn-returns", "start-card", "next-deal",
                                  "card-effects", "uno", "extensions", "after-draw"])
def test_classic_property_is_proved_for_two_players(name: str) -> None:
    """Proved, or (start-card) vacuous in exactly the query the manifest records."""
    result = check(CLASSIC, property_named(name), 2)
    want = expected(CLASSIC, name, 2)
    assert want.met_by(result.verdict, result.vacuous), (result.label, result.notes)
    assert want.verdict in (PROVED, VACUOUS)


def test_two_1_reverse_is_skip_with_two_players_only() -> None:
    prop = property_named("two-player-reverse-is-skip")
    assert check(CLASSIC, prop, 2).verdict == PROVED
    three = check(CLASSIC, prop, 3)
    # Non-vacuity: a Z3 witness where Reverse and Skip differ, recorded in the manifest.
    assert three.verdict == REFUTED == expected(CLASSIC, prop.name, 3).verdict
    assert three.model is not None


def test_wd4_1_challenge_property_with_four_players() -> None:
    assert check(CLASSIC, property_named("challenge"), 4).verdict == PROVED


@pytest.mark.parametrize("name", ["wd4-legality", "two-player-reverse-is-skip",
                                  "card-effects"])
def test_symmetry_reduction_gives_the_same_verdict_as_every_seat(name: str) -> None:
    prop = property_named(name)
    for n in (2, 3):
        fast = check(CLASSIC, prop, n)
        full = check(CLASSIC, prop, n, symmetry=False)
        assert fast.verdict == full.verdict, (n, fast.label, full.label)


SEAT_STEPS = ("penalties", "start-card", "uno")


def _seat_verdicts(rules: RuleTable, label: str) -> set[str]:
    """Each seat-naming step's verdicts at 2 and 3 players, with the seat it names fixed
    to 0 and with every seat: they must be the same."""
    verdicts = set()
    for name in SEAT_STEPS:
        for n in (2, 3):
            fast = check(rules, property_named(name), n)
            full = check(rules, property_named(name), n, symmetry=False)
            assert fast.verdict == full.verdict, (label, name, n, fast.label, full.label)
            verdicts.add(fast.verdict)
    return verdicts


def test_named_seat_symmetry_on_classic_proves_what_every_seat_proves() -> None:
    assert REFUTED not in _seat_verdicts(CLASSIC, "classic")


@pytest.mark.parametrize("rule,values", [
    ("UNO-1", {"penalty": 3}), ("ADVICE-1", {"cards": 1}), ("START-D2", {"first_seat": 2}),
    ("DEAL-3", {"direction": "right"})])
def test_named_seat_symmetry_gives_the_same_verdicts_as_every_seat(
        rule: str, values: dict[str, object]) -> None:
    """The catch, advice and start card steps are checked with the seat they name fixed
    to 0 (and any player to move): the same verdicts, refuted or proved, as every seat.
    (Classic's, which none of these refutes, are checked once above.)"""
    from unoformal.rulebook.variants import derive

    mutant = derive(CLASSIC, "mutant", "", {rule: values})
    assert REFUTED in _seat_verdicts(mutant, rule)


def test_timeout_gives_unknown_not_a_crash() -> None:
    result = check(CLASSIC, property_named("one-card-per-turn"), 2, timeout_ms=1)
    assert result.verdict == UNKNOWN
    assert result.notes and result.seconds >= 0


def test_nostack_1_stacking_variant_refutes_no_stacking_only() -> None:
    stacking = load_rules("stacking")
    assert check(stacking, property_named("no-stacking"), 2).verdict == REFUTED
    for name in ("wd4-legality", "challenge", "start-card"):
        result = check(stacking, property_named(name), 2)
        assert expected(stacking, name, 2).met_by(result.verdict, result.vacuous), name
        assert result.verdict != REFUTED, name


def test_end_1_next_relation_can_end_a_round_in_one_step() -> None:
    """``next`` (the disjunction of every action) reaches a finished round."""
    import z3

    from unoformal.verification.z3.actions import Spec, next_relation
    from unoformal.verification.z3.properties import invariant
    from unoformal.verification.z3.state import OVER, PLAY, fresh

    spec = Spec(CLASSIC, 2)
    s, t = fresh(2, spec.deck, turn=0, direction=1), fresh(2, spec.deck, "t")
    solver = z3.Solver()
    solver.set("timeout", 60000)
    solver.add(invariant(spec, s), s.phase == PLAY, next_relation(spec, s, t), t.phase == OVER)
    assert solver.check() == z3.sat
    assert solver.model().eval(t.winner).as_long() == 0


def test_checking_properties_together_gives_each_its_own_verdict() -> None:
    """``check_together`` asks every property's query about one action as one query, then
    each alone when that one is satisfiable: the verdicts are those of ``check``, and a
    refutation's counterexample is one of the refuted property's own queries."""
    stacking = load_rules("stacking")
    props = [property_named(name) for name in
             ("no-stacking", "card-effects", "penalties", "conservation", "uno", "challenge")]
    together = check_together(stacking, props, 2)
    for prop, result in zip(props, together, strict=True):
        alone = check(stacking, prop, 2)
        assert (result.prop, result.verdict) == (prop, alone.verdict), prop.name
        if result.verdict == REFUTED:
            assert result.query is not None and result.model is not None
            assert result.spec is not None and result.pre is not None
            assert result.label in {q.label for q in prop.queries(result.spec, result.pre)}
            assert result.model.eval(result.query.formula, model_completion=True)
    assert [r.verdict for r in together].count(REFUTED) == 3


def test_a_suite_in_worker_processes_reports_what_one_process_does(scheduler: str) -> None:
    """The same verdicts and failing actions with one or two tasks; with two, the same
    counterexamples on two workers (Dask) as in this process (each task's counts are
    fixed in advance)."""
    stacking = load_rules("stacking")
    props = [property_named(name) for name in ("no-stacking", "seated", "card-effects")]
    one = check_suite(stacking, props, [2, 3, 4], jobs=1)
    two = check_suite(stacking, props, [2, 3, 4], jobs=2,
                      where=campaign.Options(scheduler=scheduler))
    again = check_suite(stacking, props, [2, 3, 4], jobs=2, where=campaign.Options(workers=1))
    assert [(r.prop.name, r.n, r.verdict, r.label) for r in one] == \
        [(r.prop.name, r.n, r.verdict, r.label) for r in two]
    assert [r.shown for r in two] == [r.shown for r in again]
    assert all(r.shown is not None for r in two if r.verdict == REFUTED)
    assert sorted(n for share in shares(range(2, 11), 2) for n in share) == list(range(2, 11))


def test_several_player_counts_in_one_query_give_each_count_its_own_verdict() -> None:
    """With several counts the number of players is a symbol (one query for them all):
    the verdict at each count is the one checked with that count alone, whether a
    property holds everywhere, is refuted everywhere, or only at some counts (TWO-1's
    witness: proved with two players, refuted with three or four; the two-player
    property is asked at two only)."""
    from unoformal.rulebook.variants import derive

    unswitched = derive(CLASSIC, "no-two-1", "", {"TWO-1": {"enabled": False}})
    cases = [(load_rules("stacking"), ("no-stacking", "card-effects", "penalties", "seated")),
             (CLASSIC, ("two-player-reverse-is-skip", "two-player-turn-returns", "invariant",
                        "scoring")),
             (unswitched, ("two-player-reverse-is-skip", "card-effects"))]
    for rules, names in cases:
        props = [property_named(name) for name in names]
        several = check_together(rules, props, (2, 3, 4))
        one_by_one = [r for n in (2, 3, 4) for r in check_together(rules, props, n)]
        assert [(r.prop.name, r.n, r.verdict) for r in several] == \
            [(r.prop.name, r.n, r.verdict) for r in one_by_one], rules.name
    verdicts = {(r.prop.name, r.n): r.verdict for r in several}
    assert verdicts[("card-effects", 2)] == REFUTED  # TWO-1 switched off: Reverse reverses
    assert verdicts[("card-effects", 3)] == verdicts[("card-effects", 4)] == PROVED


def test_a_counterexample_about_several_counts_is_a_game_of_its_own_count() -> None:
    """A refutation found by a query about several counts shows the model's number of
    players: that many seats, names and scores, and the engine reads the state back."""
    from unoformal.engine.game import Game

    result = check_together(CLASSIC, [property_named("two-player-reverse-is-skip")],
                            (2, 3, 5))[-1]
    assert (result.n, result.verdict) == (5, REFUTED)
    text, steps = result.counterexample() or ("", [])
    fields = dict(word.split("=", 1) for word in text.split())
    assert fields["players"] == "P1,P2,P3,P4,P5"
    assert len(fields["hands"].split("/")) == len(fields["scores"].split(",")) == 5
    assert Game.from_text(text, CLASSIC).n == 5 and steps


def test_every_seat_with_several_counts_asks_only_about_seated_players() -> None:
    """Without the symmetry reduction every seat acts (one advice step per seat): with
    several counts the seats beyond the number of players do not, so advice from them
    is not "always possible" (ADVICE-1 is about players) and no verdict changes."""
    props = [property_named(name) for name in ("uno", "card-effects", "penalties")]
    every_seat = check_together(CLASSIC, props, (2, 3), symmetry=False)
    reduced = check_together(CLASSIC, props, (2, 3))
    assert [(r.prop.name, r.n, r.verdict) for r in every_seat] == \
        [(r.prop.name, r.n, r.verdict) for r in reduced]
    assert {r.verdict for r in every_seat} == {PROVED}


@pytest.mark.parametrize("variant,counts", [("classic", 3), ("stacking", 2),
                                            ("classic", (2, 3, 5))])
def test_invariant_conjuncts_an_action_changes_are_all_asked(
        variant: str, counts: int | tuple[int, ...]) -> None:
    """``invariant``'s inductive step builds only the conjuncts over a variable the action
    changed (each conjunct names what it reads): those are exactly the conjuncts whose
    term changed, for every action and pre-state. A conjunct naming too few variables
    would be skipped here, and the proof would miss it."""
    from unoformal.verification.z3.properties import invariant_parts
    from unoformal.verification.z3.prover import _setup

    spec, states = _setup(load_rules(variant), counts, True)
    for pre in states:
        before = invariant_parts(spec, pre.state, counts=False)
        for step in spec.steps(pre.state):
            # the lists kept alive together: equal terms are then one term (one id)
            every = invariant_parts(spec, step.post, counts=False)
            asked = invariant_parts(spec, step.post, counts=False, since=pre.state)
            held = {p.get_id() for p in before}
            assert {p.get_id() for p in every} - held == \
                {p.get_id() for p in asked} - held, step.label
