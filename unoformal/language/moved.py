"""A module that moved: its old path keeps working for one minor version, each name read
through it warning once with a DeprecationWarning that names the new place (as
python-chess deprecates a moved name), then the old path goes."""

from __future__ import annotations

import importlib
import warnings
from collections.abc import Callable, Sequence
from typing import Any


def forwarding(old: str, new: Sequence[str], since: str) -> Callable[[str], Any]:
    """A module ``__getattr__`` for the old module ``old``: a name is looked up in the
    modules ``new``, in order, and read with a DeprecationWarning (the first of ``new`` is
    the place the warning names)."""

    def __getattr__(name: str) -> Any:
        for module in new:
            found = importlib.import_module(module)
            if hasattr(found, name):
                value = getattr(found, name)
                # a class or function names the module that defines it, not one that
                # imports it
                home = getattr(value, "__module__", None)
                where = home if isinstance(home, str) and home in new else module
                warnings.warn(f"{old}.{name} moved to {where}.{name} in unoformal {since}; "
                              f"the old path goes in the next minor version",
                              DeprecationWarning, stacklevel=2)
                return value
        raise AttributeError(f"module {old!r} has no attribute {name!r}")

    return __getattr__
