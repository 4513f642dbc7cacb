"""Today's engine, frozen: the reference the redesigned engine must agree with.

The engine is being redesigned: the hand-written rule code of ``unoformal/engine/game.py``
is replaced, section by section, by guarded commands read from the rule table. Before any
hand-written code is deleted, the new engine must agree with this one (legal action sets,
successor states, refusal rule IDs, records and test vectors): ``tests/reference/agree.py``
drives both in lockstep, ``tests/reference/test_agree.py`` runs it on a small budget.

Frozen from commit ``ed011c437587181f89c5ffab7c7df077b48d22a0`` (branch ``frozen-engine``):
copies of ``unoformal/engine/game.py``, ``text.py``, ``chance.py`` and ``record.py``, and of
``unoformal/compare/vectors.py`` (without ``preset_vectors``, which walks the live explorer), each
with its imports of engine modules rewritten to point at the copies here, and without
``mypyc_attr`` (this copy is never compiled).

What stays shared with the live package, on purpose: ``unoformal.rulebook.*`` (cards, deck,
table, variants, words), ``unoformal.errors``, ``unoformal.inputs``,
``unoformal.engine.actions`` (the :class:`Action` type) and ``unoformal.rules.*`` (the
rule language). The copies state today's MEANING, the rule code; the data and types stay
shared so that the two engines' states, actions and errors compare directly (the same
``Action`` values, the same ``RuleTable`` objects, the same error classes). A change to
those shared modules is therefore not caught here: it changes both engines at once.

Amended since the freeze, by hand and apart from the rule language, for each change of
the live engine stated as a decision (each marked "amended" in the code), so that the
check goes on comparing two independent statements:

- EXT-LAST (2026-12-02): under stacking a draw card that is its player's last card is not
  answered (``_offender_out``); switched off, it ends the round at once. While a Draw Two
  waits under stacking, its cause reads "takes effect", not "made ... draw".

Delete this package (and ``agree.py``, ``test_agree.py``) once the check is no longer worth
having: when the hand-written engine is gone and the redesign has settled.
"""

FROZEN_FROM = "ed011c437587181f89c5ffab7c7df077b48d22a0"
