"""The generated successor's module compiled by mypyc, once per source, into a user cache.

A module is named by a hash of its text (``unoformal_gen_<hash>``), so a changed table,
player count or generator writes another module and never reads a stale one. It is built
in a temporary directory beside the cache's entries and renamed into place when done: an
interrupted or failed build leaves no file under the module's name, and the next run
builds it again. Where mypyc or a C compiler is missing, where the build fails, or with
``UNOFORMAL_PURE_PYTHON=1`` (``setup.py``'s switch), the caller runs the same text as
pure Python, and this says why once on stderr, as ``setup.py`` does.
"""

from __future__ import annotations

import hashlib
import importlib.util
import os
import shutil
import subprocess
import sys
import sysconfig
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from importlib.machinery import EXTENSION_SUFFIXES
from pathlib import Path
from types import ModuleType

from unoformal.verification.packed.ctrans import module_init

CACHE_ENV = "UNOFORMAL_CACHE_DIR"  # the cache's directory, if not the user's cache
PURE_ENV = "UNOFORMAL_PURE_PYTHON"
PREFIX = "unoformal_gen_"
_said: set[str] = set()  # the reasons already written to stderr by this process


class BuildFailed(Exception):
    """mypyc or the C compiler failed on a module (the output's last lines say why)."""


@dataclass
class Built:
    """How a module came to run: ``how`` is ``"cached"``, ``"compiled"`` or ``"pure
    Python (why)"``; ``seconds`` the wall seconds of a build made now (its CPU time is
    the compiler's processes', not this one's)."""

    how: str
    seconds: float = 0.0
    module: ModuleType | None = None


def cache_dir() -> Path:
    """``$UNOFORMAL_CACHE_DIR``, else ``unoformal/generated`` under the user's cache
    (``$XDG_CACHE_HOME``, else ``~/.cache``)."""
    own = os.environ.get(CACHE_ENV)
    if own:
        return Path(own)
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "unoformal" / "generated"


def module_name(text: str) -> str:
    return PREFIX + hashlib.sha256(text.encode()).hexdigest()[:24]


def missing() -> str | None:
    """Why nothing can be compiled here, or None: what ``setup.py`` needs too (mypyc,
    a C compiler, Python's headers), or the pure switch set."""
    if not os.environ.get(PURE_ENV) and importlib.util.find_spec("mypyc") is None:
        return "mypyc is not available"
    return c_missing()


def wanted() -> bool:
    """Whether the search compiles the generated successor (not with the pure switch)."""
    return not os.environ.get(PURE_ENV)


def say_once(why: str) -> None:
    if why not in _said:
        _said.add(why)
        print(f"unoformal: {why}; the generated successor runs as pure Python",
              file=sys.stderr)


def say_c(why: str) -> None:
    """Why the C reading is not run (once per process)."""
    if why not in _said:
        _said.add(why)
        print(f"unoformal: the C reading of the generated successor is {why}; "
              "it runs as pure Python", file=sys.stderr)


def binary(where: Path, name: str) -> Path | None:
    for suffix in EXTENSION_SUFFIXES:
        found = where / (name + suffix)
        if found.exists():
            return found
    return None


def load(text: str, where: Path | None = None) -> Built:
    """The module of ``text``: the cached one, else compiled now and cached; on no
    compiler or a failed build, a ``Built`` without a module (the reason said once)."""
    where = cache_dir() if where is None else where
    name = module_name(text)
    found = binary(where, name)
    if found is not None:
        return Built("cached", 0.0, _import(name, found))
    why = missing() or too_long(text)
    if why is None:
        print(f"unoformal: compiling the generated successor with mypyc, once for this "
              f"table (cached in {where})", file=sys.stderr)
        started = time.perf_counter()
        try:
            found = build(text, name, where)
        except (BuildFailed, OSError) as err:
            why = f"the mypyc build failed ({err})"
        else:
            return Built("compiled", time.perf_counter() - started, _import(name, found))
    say_once(why)
    return Built(f"pure Python ({why})")


# mypyc's time grows faster than the source: `actions`' 14,000 lines take 150-210 s, a
# MERCY table's 55,000 (every control key a knock-out may leave) did not finish in 16
# minutes. Past this the same source runs as pure Python, at once.
MAX_LINES = 30_000


def too_long(text: str) -> str | None:
    """Why ``text`` is not compiled for its length (None: it is short enough)."""
    lines = text.count("\n")
    if lines <= MAX_LINES:
        return None
    return (f"its module is {lines:,} lines, over the {MAX_LINES:,} mypyc compiles in "
            "minutes")


def build(text: str, name: str, where: Path) -> Path:
    """mypyc on ``text`` (a module's source), as :func:`_build` builds."""
    return _build(text, name, where, ".py",
                  lambda source, made: [sys.executable, "-m", "mypyc", source.name])


def _build(text: str, name: str, where: Path, suffix: str,
           command: Callable[[Path, Path], list[str]]) -> Path:
    """``command(source, made)`` on ``text`` written in a temporary directory under
    ``where``, the extension renamed into ``where`` only once whole (``os.replace``:
    atomic on one file system), so an interrupted or failed build leaves nothing."""
    where.mkdir(parents=True, exist_ok=True)
    work = Path(tempfile.mkdtemp(prefix=f".{name}.", dir=where))
    try:
        source = work / f"{name}{suffix}"
        source.write_text(text)
        done = subprocess.run(command(source, work / (name + EXTENSION_SUFFIXES[0])),
                              cwd=work, capture_output=True, text=True)
        made = binary(work, name)
        if done.returncode or made is None:
            tail = (done.stdout + done.stderr).strip().splitlines()[-3:]
            raise BuildFailed(" / ".join(tail) or f"exit status {done.returncode}")
        target = where / made.name
        os.replace(made, target)
        return target
    finally:
        shutil.rmtree(work, ignore_errors=True)


def _import(name: str, path: Path) -> ModuleType:
    """The extension at ``path`` (once per process: an extension is not loaded twice)."""
    module = sys.modules.get(name)
    if module is None:
        spec = importlib.util.spec_from_file_location(name, path)
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        sys.modules[name] = module
    return module


# ------------------------------------------------------------------ the C reading

C_PREFIX = "unoformal_c_"


def c_missing() -> str | None:
    """Why no C module can be built here (no C compiler, no Python headers, the pure
    switch set), or None."""
    if os.environ.get(PURE_ENV):
        return f"{PURE_ENV} is set"
    compiler = os.environ.get("CC", "cc").split()[0]
    if shutil.which(compiler) is None:
        return f"no C compiler ({compiler})"
    if not (Path(sysconfig.get_paths()["include"]) / "Python.h").exists():
        return "no Python headers"
    return None


def c_name(*parts: str) -> str:
    """A C module's name: a hash of what it is translated from (the Python source, the
    translator's own text and templates), so a cached module is found before any
    translation and a changed translator never reads a stale one."""
    digest = hashlib.sha256()
    for part in parts:
        digest.update(part.encode())
        digest.update(b"\0")
    return C_PREFIX + digest.hexdigest()[:24]


def load_c(name: str, text: Callable[[], str], where: Path | None = None) -> Built:
    """The C module ``name``: the cached one, else ``text()`` (``ctrans``'s source, less
    its init; it may raise ``Untranslatable``) built now by the C compiler and cached as
    :func:`load` caches mypyc's; a ``Built`` without a module when it cannot be built
    (``how`` says why)."""
    if os.environ.get(PURE_ENV):  # no compiled code at all, not even a cached one
        return Built(f"not built ({PURE_ENV} is set)")
    where = cache_dir() if where is None else where
    found = binary(where, name)
    if found is not None:
        return Built("cached", 0.0, _import(name, found))
    why = c_missing()
    if why is not None:
        return Built(f"not built ({why})")
    source = text()
    started = time.perf_counter()
    try:
        found = build_c(source + module_init(name), name, where)
    except (BuildFailed, OSError) as err:
        return Built(f"not built (the C build failed: {err})")
    return Built("compiled", time.perf_counter() - started, _import(name, found))


def build_c(text: str, name: str, where: Path) -> Path:
    """The C compiler on ``text`` (a C module's source), as :func:`_build` builds."""
    include = f"-I{sysconfig.get_paths()['include']}"
    return _build(text, name, where, ".c", lambda source, made: [
        *os.environ.get("CC", "cc").split(), "-O2", "-shared", "-fPIC", include, "-o",
        str(made), str(source)])
