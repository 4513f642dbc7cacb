"""Deprecated: ``unoformal.spec`` is :mod:`unoformal.rulebook` (moved in 0.1; removed in
0.2.0). A tutorial imported ``unoformal.spec.variants``, so the old path still works,
warning at each use (see :mod:`unoformal._deprecation`)."""

from unoformal._deprecation import moved_module

__getattr__, __dir__ = moved_module(__name__, "unoformal.rulebook", "0.2.0")
