"""A rule file's Python module: conditions the rule language lacks, in its three readings.

A rule file may name ``module = "my_conditions.py"`` (a path relative to the file). Only
then, and only for that file, is the module's code run: it is imported from its path
(``importlib.util.spec_from_file_location``), never from a record and never found on its
own. The module states its conditions as subclasses of ``unoformal.language.Cond``
(``holds`` for the engine, ``encode`` for the Z3 relation, ``text`` for the words) and
names them in a module-level ``CONDITIONS``, of the shape of ``unoformal.rules.house``'s::

    CONDITIONS = {"sits-after-target": (lambda args: SitsAfterTarget(),
                                        "sits-after-target: the actor sits after the target")}

Whatever goes wrong is refused in one line naming the file: no such module, an exception
while importing it (its type and message, never a traceback), a missing or malformed
``CONDITIONS``. A name that is the language's own is refused where the file's house rules
are checked (``unoformal.rules.files``), which knows the language.
"""

from __future__ import annotations

import copyreg
import functools
import hashlib
import importlib.util
import re
import sys
from pathlib import Path
from typing import Any

from unoformal.errors import VariantError
from unoformal.inputs import show
from unoformal.rulebook.table import OwnCondition

# a condition's name as a rule file's expressions can write it (rules.house's tokens)
NAME = re.compile(r"^[a-z][a-z0-9-]{0,39}$")
MAX_CONDITIONS = 50


def load_module(named: str, rule_file: Path, where: str) -> tuple[OwnCondition, ...]:
    """The conditions of the module a rule file names (``named``, relative to
    ``rule_file``'s folder), its code run once per process; ``where`` (the file as shown)
    starts every message."""
    at = f"{where}: module = {show(named)}"
    path = rule_file.parent / named
    if not named.endswith(".py"):
        raise VariantError(f"{at}: expected the path of a .py file, relative to the rule "
                           "file's folder", key="module")
    if not path.is_file():
        raise VariantError(f"{at}: no such file ({show(str(path))})", key="module")
    return _conditions(_namespace(path.resolve(), at), named, str(path.resolve()), at)


def reloaded(source: str, named: str, name: str, effect: bool = False) -> OwnCondition:
    """The condition (or ``effect``) ``name`` of the module at ``source`` (a table
    unpickled in a worker process imports the module there: the user ran it already,
    with this table)."""
    at = f"module {show(named)}"
    found = [c for c in _conditions(_namespace(Path(source), at), named, source, at)
             if c.name == name and c.effect == effect]
    if not found:
        table = "EFFECTS" if effect else "CONDITIONS"
        raise VariantError(f"{at}: no {show(name)} in {table} any more", key="module")
    return found[0]


def _reduced(own: OwnCondition) -> tuple[Any, tuple[str, str, str, bool]]:
    """How a condition is pickled: a campaign's worker (Dask) gets the table pickled and
    imports the module again from its path, as this process did, rather than look for the
    module by name."""
    return reloaded, (own.source, own.module, own.name, own.effect)


# registered here, where every OwnCondition is made, so the table's module need not know
# the loader (pickle and cloudpickle consult copyreg's table before __reduce__)
copyreg.pickle(OwnCondition, _reduced)


def _namespace(path: Path, at: str) -> dict[str, Any]:
    stamp = path.stat()
    namespace = _imported(path, stamp.st_mtime_ns, stamp.st_size)
    if isinstance(namespace, str):
        raise VariantError(f"{at}: {namespace}", key="module")
    return namespace


@functools.cache
def _imported(path: Path, mtime: int, size: int) -> dict[str, Any] | str:
    """The module's namespace, imported from ``path`` once per version of the file (the
    same file read twice gives the same classes, so tables built from it compare
    equal), or why it cannot be."""
    # a name of its own, registered while it runs: a dataclass of the module looks its
    # module up in sys.modules
    name = f"unoformal_module_{hashlib.sha256(str(path).encode()).hexdigest()[:16]}"
    spec = importlib.util.spec_from_file_location(name, path)
    if spec is None or spec.loader is None:
        return "cannot be imported as a Python module"
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    try:
        spec.loader.exec_module(module)
    except (Exception, SystemExit) as err:  # the user's code: anything, said in one line
        del sys.modules[name]
        return f"importing it raised {_one_line(err)}"
    return vars(module)


def _conditions(namespace: dict[str, Any], named: str, source: str,
                at: str) -> tuple[OwnCondition, ...]:
    """The module's conditions (``CONDITIONS``) and effects (``EFFECTS``): one of the two
    at least."""
    if "CONDITIONS" not in namespace and "EFFECTS" not in namespace:
        raise VariantError(f"{at}: defines no CONDITIONS and no EFFECTS; expected "
                           "CONDITIONS = {\"name\": (builder, \"name(...): its words\")}, a "
                           "builder taking the list of the arguments, or EFFECTS alike",
                           key="module")
    return tuple(own for table in ("CONDITIONS", "EFFECTS") if table in namespace
                 for own in _stated(namespace[table], table, named, source, at))


def _stated(stated: Any, table: str, named: str, source: str,
            at: str) -> list[OwnCondition]:
    shape = (f"expected {table} = {{\"name\": (builder, \"name(...): its words\")}}, a "
             "builder taking the list of the arguments")
    if not isinstance(stated, dict) or not stated or len(stated) > MAX_CONDITIONS:
        raise VariantError(f"{at}: {table} = {show(stated, 60)}: {shape} (1 to "
                           f"{MAX_CONDITIONS} of them)", key="module")
    out = []
    for name, value in stated.items():
        if not isinstance(name, str) or not NAME.match(name):
            raise VariantError(f"{at}: {table} name {show(name, 60)}: expected lower-case "
                               "letters, digits and '-', starting with a letter",
                               key="module")
        if not (isinstance(value, tuple) and len(value) == 2 and callable(value[0])
                and isinstance(value[1], str) and value[1].strip()):
            raise VariantError(f"{at}: {table}[{show(name)}] = {show(value, 60)}: "
                               f"{shape}", key="module")
        out.append(OwnCondition(name, value[0], value[1], named, source,
                                effect=table == "EFFECTS"))
    return out


def _one_line(err: BaseException) -> str:
    """An exception as its type and message, on one line."""
    text = " ".join(str(err).split())
    return f"{type(err).__name__}: {text[:300]}" if text else type(err).__name__
