"""The Z3 transition relation as it was written by hand, frozen at commit
ed011c437587181f89c5ffab7c7df077b48d22a0 (branch ``frozen-relation``), before the redesign
replaces ``unoformal/verification/z3/actions.py`` section by section with guarded commands
read from the rule table.

- :mod:`.actions`: a copy of ``unoformal/verification/z3/actions.py`` (every named action,
  its guard, its chance constraint, its post-state);
- :mod:`.state`: a copy of ``unoformal/verification/z3/state.py``: ``Sym`` with today's
  field names (``pkind``, ``legal``, ``uno``, ``prev``, ``points`` ...), and the Z3 term
  helpers, copied rather than imported so that a change on main cannot change both
  relations at once (see that module).

It reads the live package only for plain data, ``unoformal.rulebook.*`` (the rule table, the
deck, the cards, the variants). ``tests/reference/relation_agree.py`` proves the live
relation equal to this one, action by action, for every shipped variant at 2-10 players;
a renamed field of the live ``Sym`` is one line of that module's ``FIELDS``.

Amended since the freeze, by hand, for a change of meaning stated as a decision (marked
"amended" in the code), so both relations still state it apart: EXT-LAST (2026-12-02),
under stacking a draw card that is its player's last card is not answered
(``can_answer``); switched off, it ends the round at once (``play``).

Delete this package once it is no longer worth having: when the hand-written relation is
gone from main and the generated one has been shown equal to it, or when main changes the
relation's meaning on purpose (then the check has done its work, and a new reference, if
one is wanted, is frozen from that commit).
"""
