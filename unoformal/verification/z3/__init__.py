"""The rule table compiled to Z3: a symbolic transition relation and its proofs.

``state`` (the variables), ``actions`` (one named action per table entry, and
``next``), ``properties`` (stated in the rulebook's words, with the inductive
invariant), ``prover``, ``witness`` (counterexamples as text and records),
``mutants`` and ``manifest`` (expected verdicts). See ``docs/verification.md``.
"""
