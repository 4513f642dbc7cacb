"""Deprecated: ``unoformal.spec.variants`` is :mod:`unoformal.rulebook.variants` (removed
in 0.2.0); each name looked up here warns and is the new module's."""

from unoformal._deprecation import moved_module

__getattr__, __dir__ = moved_module(__name__, "unoformal.rulebook.variants", "0.2.0")
