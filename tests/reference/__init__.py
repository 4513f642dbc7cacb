"""Frozen references of today's meaning, for the redesign's agreement checks."""
