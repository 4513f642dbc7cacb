"""Frozen references of today's meaning, for the redesign's agreement checks."""

# The shipped variants the frozen references were written for. A house rule shipped since
# (SEVEN-O's ``seven-o``) has no hand-written meaning to agree with: its own checks are the
# properties, validate and the tests written for it.
FROZEN_VARIANTS = ("classic", "seed004", "winner-deals", "stacking", "rlcard")
