"""The modules the build compiles with mypyc (``setup.py`` reads :data:`COMPILED` from
this file), and which of them are compiled where the package is installed.

Python imports a module's compiled form in place of its source when both sit side by side,
so whether a module is compiled is read from the files, without importing it.
"""

from __future__ import annotations

from importlib.machinery import EXTENSION_SUFFIXES
from pathlib import Path

# Where the CPU time of play, simulation, validation and exploration goes: the engine, and
# the explorer's successor function (chance, keys, labels, the search). Paths from the
# repository root; everything else is pure Python however the package is built.
COMPILED = (
    "unoformal/engine/game.py",
    "unoformal/language/commands.py",
    "unoformal/language/conditions.py",
    "unoformal/language/coverage.py",
    "unoformal/language/effects.py",
    "unoformal/language/protocols.py",
    "unoformal/verification/explore/chance.py",
    "unoformal/verification/explore/coverage.py",
    "unoformal/verification/explore/graph.py",
    "unoformal/verification/explore/keys.py",
)
ROOT = Path(__file__).resolve().parent.parent.parent  # the directory that holds the package


def _binary(source: Path) -> Path | None:
    for suffix in EXTENSION_SUFFIXES:
        found = source.with_name(source.stem + suffix)
        if found.exists():
            return found
    return None


def compiled(root: Path = ROOT) -> list[str]:
    """The modules of :data:`COMPILED` that Python imports compiled under ``root``."""
    return [m for m in COMPILED if _binary(root / m) is not None]


def build(root: Path = ROOT) -> str:
    """``"compiled by mypyc"``, ``"pure Python"``, or how many are compiled if only some
    are (a build that stopped half way)."""
    done = len(compiled(root))
    if done == len(COMPILED):
        return "compiled by mypyc"
    return "pure Python" if done == 0 else f"partly compiled ({done} of {len(COMPILED)})"


def copy_source(into: Path, root: Path = ROOT) -> Path:
    """The package as pure Python under ``into`` (``into/unoformal``): its source without the
    compiled modules, which Python would import in its place, nor bytecode. What a build
    without a C compiler installs; what the mutation run mutates."""
    import shutil  # only benchmarks and tests copy the package

    skip = shutil.ignore_patterns("__pycache__", "*.pyc", *(f"*{s}" for s in EXTENSION_SUFFIXES))
    return Path(shutil.copytree(root / "unoformal", into / "unoformal", ignore=skip))


def stale(root: Path = ROOT) -> list[str]:
    """In a source checkout (``setup.py`` beside the package), the compiled modules whose
    source was changed after they were built: Python runs the compiled one, so the edit has
    no effect until the package is built again."""
    if not (root / "setup.py").exists():
        return []
    out = []
    for module in COMPILED:
        source = root / module
        binary = _binary(source)
        if binary is not None and source.exists() and \
                source.stat().st_mtime > binary.stat().st_mtime:
            out.append(module)
    return out
