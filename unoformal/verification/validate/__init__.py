"""Trace validation of the engine against the Z3 relation compiled from the same table."""

from unoformal.verification.validate.run import Report, validate

__all__ = ["Report", "validate"]
