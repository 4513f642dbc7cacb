"""A hand's total in the relation (``state.per_list``): the sum of its counts, or a
smaller equal term given with the hand (``with_total``: SEVEN-O's exchanges, MERCY's pass
of the hands). A choice between two states (``choose``, a ``When`` of the rules, such as
SEVEN-O's "unless the card was the last one") keeps such a total as a choice of the two
totals. Measured: ``unoformal verify --rules no-mercy --no-witness --jobs 2`` took
15 min with SEVEN-O unknown at 8-10 and MERCY at 9-10 when the choice summed 54 choices
face by face, and 2 min, every one of those proved, with the totals kept."""

from __future__ import annotations

import z3

from unoformal.rulebook.deck import Deck
from unoformal.rulebook.variants import load_rules
from unoformal.verification.z3.state import Sym, choose, fresh, fsum, per_list, with_total


def _states() -> tuple[Sym, z3.BoolRef]:
    return fresh(2, Deck.of(load_rules("classic")), tag="totals-test"), z3.Bool("c")


def _valid(claim: z3.BoolRef) -> bool:
    solver = z3.Solver()
    solver.add(z3.Not(claim))
    return bool(solver.check() == z3.unsat)


def test_a_hand_picked_keeps_the_total_given_with_either_hand() -> None:
    """SEVEN-O's case: one of the two hands came with its total. The hand picked has the
    choice of the two totals, a term of one choice, and it equals the picked hand's sum."""
    s, c = _states()
    given = [list(reversed(s.hands[1])), s.hands[0]]  # SEVEN-O's swap, one way
    with_total(given[0], fsum(s.hands[1]))  # an equal term: the same counts, another order
    u = choose(c, s.evolve(hands=given), s)
    total = per_list(u.hands[0])
    assert z3.is_app_of(total, z3.Z3_OP_ITE)
    assert _valid(total == fsum(u.hands[0]))


def test_a_hand_picked_from_two_plain_hands_is_summed_as_before() -> None:
    """No total was given: the picked hand's total is the sum of its counts, the very
    term the relation built before the choice kept totals (classic's queries unchanged)."""
    s, c = _states()
    u = choose(c, s.evolve(hands=[s.hands[1], s.hands[0]]), s)
    assert per_list(u.hands[0]).eq(fsum(u.hands[0]))
    t = s.evolve(hands=[s.hands[0], list(reversed(s.hands[1]))])
    assert choose(c, s, t).hands[0] is s.hands[0]  # a hand both share: the very same list
    assert choose(c, s, s.evolve(turn=z3.Int("turn"))).hands is s.hands  # and the hands
