"""Verification of the rule table itself: the commands as a Z3 relation (``z3``) and small
decks explored as state graphs (``explore``)."""
