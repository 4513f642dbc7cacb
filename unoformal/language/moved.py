"""The rule language's old paths (``unoformal.rules.commands``, ``unoformal.rules.lang``):
their names now live in several modules of :mod:`unoformal.language`, so a name read at
the old path is looked up in each, in order, and warns through the project's one
deprecation helper (:func:`unoformal._deprecation.warn_moved`), naming the module that
defines it and the version that removes the old path."""

from __future__ import annotations

import importlib
from collections.abc import Callable, Sequence
from typing import Any

from unoformal._deprecation import warn_moved


def forwarding(old: str, new: Sequence[str], removed_in: str) -> Callable[[str], Any]:
    """A module ``__getattr__`` (PEP 562) for the old module ``old``: a name is looked up
    in the modules ``new``, in order, and read with a DeprecationWarning. Dunder names are
    not forwarded (tools probe them on any module; they must not warn)."""

    def __getattr__(name: str) -> Any:
        if not (name.startswith("__") and name.endswith("__")):
            for module in new:
                found = importlib.import_module(module)
                if hasattr(found, name):
                    value = getattr(found, name)
                    # a class or function names the module that defines it, not one
                    # that imports it
                    home = getattr(value, "__module__", None)
                    where = home if isinstance(home, str) and home in new else module
                    warn_moved(f"{old}.{name}", f"{where}.{name}", removed_in, stacklevel=2)
                    return value
        raise AttributeError(f"module {old!r} has no attribute {name!r}")

    return __getattr__
