"""Moved public names keep working for one minor version, with a ``DeprecationWarning``.

The public API (``unoformal.__all__``, docs/api.md) follows semantic versioning: a public
name that moves stays at its old path until the next minor version, and every use of the
old path says where it went and when it goes. This module is how a move is written, so a
later move (the rule language's package, for one) is one line at the old path::

    # unoformal/spec/variants.py, left where a tutorial once imported from
    from unoformal._deprecation import moved_module
    __getattr__, __dir__ = moved_module(__name__, "unoformal.rulebook.variants", "0.2.0")

A name moved alone (not its whole module) warns through :func:`warn_moved`.
"""

from __future__ import annotations

import importlib
import warnings
from collections.abc import Callable
from typing import Any


def warn_moved(old: str, new: str, removed_in: str, stacklevel: int = 2) -> None:
    """Warn that ``old`` moved to ``new`` and goes in version ``removed_in``; the warning
    names the caller's line (``stacklevel`` 2: whoever called the caller of this)."""
    warnings.warn(f"{old} moved to {new}; the old path is removed in unoformal "
                  f"{removed_in}", DeprecationWarning, stacklevel=stacklevel + 1)


def moved_module(old: str, new: str,
                 removed_in: str) -> tuple[Callable[[str], Any], Callable[[], list[str]]]:
    """A module-level ``__getattr__`` and ``__dir__`` (PEP 562) for a module left at
    ``old`` whose contents moved to ``new``: each name looked up there warns and is the
    new module's. Dunder names are not forwarded (tools probe ``__wrapped__``, ``__all__``
    ... on any module; they must not warn, and the old module's own are its own)."""

    def __getattr__(name: str) -> Any:
        if name.startswith("__") and name.endswith("__"):
            raise AttributeError(f"module {old!r} has no attribute {name!r}")
        warn_moved(f"{old}.{name}", f"{new}.{name}", removed_in, stacklevel=2)
        return getattr(importlib.import_module(new), name)

    def __dir__() -> list[str]:
        return sorted(dir(importlib.import_module(new)))

    return __getattr__, __dir__
