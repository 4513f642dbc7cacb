"""The solver every query is asked with: a tactic that simplifies and eliminates the
state's equalities before SMT, with a timeout.
Its own module so that the prover and the witness finder, which the prover calls on a
refutation, both use it without importing each other."""

from __future__ import annotations

import z3


def make_solver(timeout_ms: int) -> z3.Solver:
    tactic = z3.Then("simplify", "propagate-values", "solve-eqs", "elim-uncnstr", "simplify",
                     "smt")
    solver = tactic.solver()
    solver.set("timeout", timeout_ms)
    return solver
