"""A refutation a user reads is a game: the bounded search from a deal
(:mod:`unoformal.verification.z3.reach`) finds a record the engine replays to a violation
the property's own check sees; where it finds none, the verdict says "not proved at this
strength", not "refuted"."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from unoformal.commands.verify import conclusion
from unoformal.engine.record import replay
from unoformal.rulebook.variants import load_rules
from unoformal.show import sources
from unoformal.show.sources import _pre_title, _verify_lines
from unoformal.verification.z3.actions import Spec
from unoformal.verification.z3.manifest import Expectation, expected
from unoformal.verification.z3.properties import Property, Query, property_named
from unoformal.verification.z3.prover import REFUTED, check
from unoformal.verification.z3.reach import NOT_PROVED, REACHED, check_record, search
from unoformal.verification.z3.state import Sym

STACKING = load_rules("stacking")
NO_STACKING = property_named("no-stacking", STACKING)


@pytest.fixture(scope="module")
def reached() -> Any:
    """The stacking house rule's refutation of NOSTACK-1, searched at two players."""
    return search(STACKING, NO_STACKING, [2])[2]


def test_a_refuted_property_gets_a_record_the_engine_replays_to_the_violation(
        reached: Any) -> None:
    assert reached.reached and reached.conclusion == REACHED and reached.complete
    record = reached.record
    # a real deal: DEAL-2's seven cards each, the whole deck between hands and pile
    assert all(len(hand) == 7 for hand in record["deal"]["hands"].values())
    assert sum(map(len, record["deal"]["hands"].values())) + \
        len(record["deal"]["draw_pile"]) == 108
    whole = replay(record, rules=STACKING)
    assert whole.error is None and whole.played == len(record["actions"])
    # the violating action is the record's last: a Draw Two after which its victim,
    # the next player, moves (to answer it), where NOSTACK-1 says the victim loses the turn
    assert reached.at == len(record["actions"]) - 1 and reached.label.startswith(
        "play_draw_two")
    before = replay(record, rules=STACKING, stop_at=reached.at)
    assert before.game.phase == "play" and record["actions"][-1]["card"].endswith("+2")
    assert whole.game.turn == (before.game.turn + before.game.direction) % 2
    # independently of the search: the property's own check fails there
    assert check_record(STACKING, NO_STACKING, record, reached.at, reached.label,
                        record["actions"][-1]) is None
    # the show page of its verify row names the game's violating action, counted from 1
    row = {"players": 2, "action": reached.label, "expected": "refuted",
           "expected_from": "manifest (stacking)", "reach": reached.to_json()}
    assert _verify_lines(row)[0].startswith(
        f"refuted with 2 players: the game below, from a deal, breaks it at its action "
        f"{len(record['actions'])} (play_draw_two")


def test_a_record_the_engine_refuses_is_never_a_success(reached: Any) -> None:
    record = reached.record
    game = replay(record, rules=STACKING, stop_at=reached.at).game
    hand = {game.deck.code(f) for f in game.hands[game.turn]}
    card = next(c for c in ("R+2", "Y+2", "G+2", "B+2") if c not in hand)
    last = dict(record["actions"][-1], card=card)  # a Draw Two the player does not hold
    spoiled = dict(record, actions=[*record["actions"][:-1], last])
    problem = check_record(STACKING, NO_STACKING, spoiled, reached.at, reached.label, last)
    assert problem is not None and problem.startswith("the engine refuses")


def test_the_property_must_fail_in_the_engine_state(reached: Any) -> None:
    """The same record under classic, where a Draw Two cannot answer one: the record is
    no game of classic (the engine refuses the answer), so it is no refutation there."""
    classic = load_rules("classic")
    record = dict(reached.record, rules="classic")
    problem = check_record(classic, property_named("no-stacking"), record, reached.at,
                           reached.label, record["actions"][-1])
    assert problem is not None


def _huge_hand(spec: Spec, s: Sym) -> Iterator[Query]:
    """A claim true of every game within a few actions of a deal, and not inductive:
    the invariant allows the player to move a hand of 60 cards."""
    yield Query("state", s.hand_total(0) >= 60)


HUGE = Property("no-huge-hand", "No hand holds 60 cards", ("DEAL-2",), _huge_hand)


def test_an_unreachable_model_is_not_proved_at_this_strength() -> None:
    classic = load_rules("classic")
    result = check(classic, HUGE, 2, vacuity=False)
    assert result.verdict == REFUTED  # the inductive step has a model...
    found = search(classic, HUGE, [2], depth=1, timeout_ms=60_000)[2]
    # ...that no game reaches by the action after the start card: the search answers
    # every depth of its bound (depth 2 timed out here: unsatisfiable is the hard answer)
    assert not found.reached and found.complete and found.record is None
    assert found.conclusion == NOT_PROVED == "not proved at this strength"
    assert found.sentence().startswith("no game from a deal of at most 1 step(s) breaks it")
    assert "not refuted" in found.sentence() and "may be unreachable" in found.sentence()
    assert conclusion(result, found) == NOT_PROVED
    # the show page of such a row says so over the pre-state
    row = {"players": 2, "action": "state", "expected": "proved",
           "expected_from": "manifest (classic)", "reach": found.to_json()}
    assert _verify_lines(row)[0].startswith("not proved at this strength with 2 players "
                                            "(not refuted): no game from a deal of at most "
                                            "1 step(s) breaks it; expected proved")
    assert "maybe no game reaches it" in _pre_title(row)
    assert sources.NOT_PROVED == NOT_PROVED


def test_the_manifest_tells_refuted_from_not_proved() -> None:
    rlcard = load_rules("rlcard")
    want = expected(rlcard, "wd4-legality", 2)
    assert want.verdict == REFUTED and want.reached is False
    assert want.met_by(REFUTED, (), False) and not want.met_by(REFUTED, (), True)
    assert want.met_by(REFUTED, (), None)  # a search that could not finish tells nothing
    assert expected(STACKING, "no-stacking", 2).reached is True
    # an entry written before the search (no ``reached``) takes either reading
    old = Expectation(REFUTED, "an older manifest's entry")
    assert old.reached is None and old.met_by(REFUTED, (), True) and \
        old.met_by(REFUTED, (), False)


def test_verify_prints_not_proved_where_no_game_breaks_it(
        capsys: pytest.CaptureFixture[str]) -> None:
    """RLCard's wd4-legality at two players: the manifest expects it not proved at this
    strength; the table says so, and why, and the run is as expected."""
    from unoformal.commands.cli import main

    argv = ["verify", "--rules", "rlcard", "--players", "2", "--property", "wd4-legality",
            "--jobs", "1", "--reach-depth", "1"]
    assert main(argv) == 0
    out = capsys.readouterr().out
    row = next(line for line in out.splitlines() if line.startswith("wd4-legality "))
    assert row.split()[1:5] == ["not", "proved", "2", "as"]
    assert "so these are not proved at this strength" in " ".join(out.split())
    assert out.endswith("\n1 verdict as in the manifest\n")


def test_a_record_where_the_property_holds_is_no_refutation() -> None:
    """The classic TWO-1 witness's game, replayed, checked against a property that holds
    at its Reverse (card-effects, proved for classic): the concrete check says so."""
    classic = load_rules("classic")
    witness = property_named("two-player-reverse-is-skip")
    found = search(classic, witness, [3])[3]
    assert found.reached and found.record["actions"][-1]["card"].endswith("R")
    problem = check_record(classic, property_named("card-effects"), found.record, found.at,
                           "play_reverse", found.record["actions"][-1])
    assert problem is not None and "holds at play_reverse" in problem
