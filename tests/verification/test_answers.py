"""The prover's answers kept by query (``answers.py``): a table's symbols are named from 0,
so a pair of rules asks its rules' queries term for term; a digest is the same in any
process and tells different terms apart; a run given answers gives the verdicts of a
run without them, asking the solver less, and takes what it is given as given."""

from __future__ import annotations

import dataclasses
import subprocess
import sys
from collections.abc import Iterator

import pytest
import z3

from unoformal.rulebook.variants import load_rules
from unoformal.verification.z3 import answers, prover
from unoformal.verification.z3.actions import Spec
from unoformal.verification.z3.answers import Answers
from unoformal.verification.z3.properties import Query, properties_of, property_named
from unoformal.verification.z3.state import Sym


@pytest.fixture(autouse=True)
def _fresh() -> None:
    prover.forget()


def _verdicts(name: str, known: dict[bytes, bool] | None,
              counts: tuple[int, ...] = (2,)) -> tuple[dict[tuple[str, int], str], Answers]:
    table = load_rules(name)
    kept = Answers(known)
    with answers.using(kept):
        results = prover.check_together(table, properties_of(table), counts)
    prover.forget()
    return {(r.prop.name, r.n): r.verdict for r in results}, kept


def test_two_tables_name_their_symbols_alike() -> None:
    a = prover._setup(load_rules("classic"), 2, True)[1][0].state
    b = prover._setup(load_rules("force-play"), 2, True)[1][0].state
    assert str(a.top) == "s@0.top" and a.top.eq(b.top)
    # the names a table's steps choose are numbered per table too
    spec = prover._setup(load_rules("classic"), 2, True)[0]
    assert spec.tag("draw") != spec.tag("draw")


def test_a_digest_is_the_same_in_another_process() -> None:
    """Answers travel between the matrix's workers as digests."""
    code = ("from unoformal.rulebook.variants import load_rules\n"
            "from unoformal.verification.z3 import prover\n"
            "from unoformal.verification.z3.answers import Answers\n"
            "pre = prover._setup(load_rules('classic'), (2, 3), True)[1][1]\n"
            "print(Answers().digest(pre.invariant).hex())\n")
    there = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                           check=True).stdout.strip()
    pre = prover._setup(load_rules("classic"), (2, 3), True)[1][1]
    assert Answers().digest(pre.invariant).hex() == there


def test_a_digest_tells_terms_apart() -> None:
    x, y, b = z3.Int("x"), z3.Int("y"), z3.Bool("x")
    terms = [x + 1, x + 2, 1 + x, y + 1, x, b, z3.Not(b), x - 1, x * 1, z3.IntVal(1),
             z3.If(b, x, y), z3.If(b, y, x)]
    kept = Answers()
    assert len({kept.digest(t) for t in terms}) == len(terms)
    assert kept.digest(x + 1) == Answers().digest(z3.Int("x") + 1)
    assert kept.key(x, y) != kept.key(y, x) and kept.key(x, 2) != kept.key(x, 3)


def test_a_pair_given_its_rules_answers_has_their_verdicts_and_asks_less(
        monkeypatch: pytest.MonkeyPatch) -> None:
    known: dict[bytes, bool] = {}
    # (not no-challenge: its invariant has no WD4-1 part, so a pair with it asks more of
    # its own: 18 of 49 against 6 of 54 here)
    for name in ("classic", "catch-later", "misplay-one"):
        known.update(_verdicts(name, {})[1].learned)
    asked = []
    solver = prover.make_solver
    monkeypatch.setattr(prover, "make_solver", lambda ms: asked.append(ms) or solver(ms))
    cold, _ = _verdicts("catch-later+misplay-one", {})
    cold_asked = len(asked)
    warm, given = _verdicts("catch-later+misplay-one", known)
    assert warm == cold
    assert given.hits > 100 and len(asked) - cold_asked < cold_asked / 3


def test_an_answer_given_is_taken_as_given() -> None:
    """A planted answer is believed: the keys the prover looks up are those of its own
    queries (so answers must come from the prover's own runs, as the matrix's do).
    Classic refutes the TWO-1 witness at 3 players; given its queries as unsatisfiable,
    the prover calls it proved, and every other verdict stays."""
    table = load_rules("classic")
    name = "two-player-reverse-is-skip"
    built: list[tuple[Sym, Query]] = []

    def kept(spec: Spec, s: Sym) -> Iterator[Query]:
        for query in witness.queries(spec, s):
            built.append((s, query))
            yield query

    witness = property_named(name, table)
    props = [dataclasses.replace(p, queries=kept) if p.name == name else p
             for p in properties_of(table)]

    def run(known: dict[bytes, bool]) -> dict[str, str]:
        prover.forget()  # the same names again: a table's are numbered from 0
        with answers.using(Answers(known)):
            return {r.prop.name: r.verdict for r in prover.check_together(table, props, 3)}

    honest = run({})
    pre = {id(p.state): p for p in prover._setup(table, 3, True)[1]}
    key = Answers().key
    planted = run({key(pre[id(s)].relaxed, q.given, q.fails): False for s, q in built})
    assert (honest.pop(name), planted.pop(name)) == ("refuted", "proved")
    assert planted == honest


def test_a_vacuity_check_s_answer_is_kept_and_taken() -> None:
    """A vacuity check's answer at a count is kept, satisfiable or not, and a later run
    takes it: given every kept "satisfiable" (only vacuity checks keep that answer; a
    proof's satisfiable query is asked again for its model) as unsatisfiable, the
    hypotheses hold nowhere and proved properties read vacuous; given them as found, the
    verdicts are the run's own."""
    honest, kept = _verdicts("classic", {})
    witnessed = {key for key, sat in kept.learned.items() if sat}
    assert witnessed
    again, given = _verdicts("classic", kept.learned)
    assert again == honest and given.hits >= len(witnessed)
    planted, _ = _verdicts("classic", {key: False for key in witnessed})
    turned = {k for k, v in planted.items() if v != honest[k]}
    assert turned and all(honest[k] == "proved" and planted[k] == "vacuous" for k in turned)
