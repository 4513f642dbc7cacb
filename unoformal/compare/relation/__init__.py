"""Trace validation of the engine against the Z3 relation compiled from the same table."""

from unoformal.compare.relation.run import Report, validate

__all__ = ["Report", "validate"]
