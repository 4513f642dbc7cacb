"""Verification: the same rule table compiled to Z3, and explored as state graphs."""
