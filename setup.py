"""The build: the modules where the CPU time goes, compiled by mypyc where it can be.

The modules listed in ``unoformal/runtime/compiled.py`` (the engine that interprets the rule table,
and the explorer's successor function) are compiled to C extensions by mypyc when the build
has mypy (``pyproject.toml`` asks for it) and a C compiler. Each extension sits beside its
source and Python imports it in its place. Where either is missing, or with
``UNOFORMAL_PURE_PYTHON=1`` in the environment, the package is pure Python and behaves the
same: ``unoformal --version`` says which one is installed, and the test suite runs the
engine's and the explorer's tests on the pure source too (``tests/test_build.py``).
Everything else (the table, the proofs, the commands) is pure Python either way.
"""

from __future__ import annotations

import os
import runpy
import sys
from pathlib import Path
from typing import Any

from setuptools import setup
from setuptools.command.build_ext import build_ext

# The list lives in the package, which reads it to tell which modules are compiled.
COMPILED = list(runpy.run_path("unoformal/runtime/compiled.py")["COMPILED"])


def extensions() -> list[Any]:
    if os.environ.get("UNOFORMAL_PURE_PYTHON"):
        return []
    try:
        from mypyc.build import mypycify
    except ImportError:
        _warn("mypyc is not available")
        return []
    try:
        # mypy type-checks what the module imports; the build environment has none of the
        # package's dependencies, and the code is checked under --strict by the test suite.
        return list(mypycify(["--ignore-missing-imports", *COMPILED], opt_level="3",
                             group_name="unoformal"))
    except (Exception, SystemExit) as err:  # mypy's type errors end in SystemExit
        _warn(f"mypyc failed ({type(err).__name__}: {err})")
        return []


class OptionalBuildExt(build_ext):
    """A failed C build (no compiler, no Python headers) leaves the pure-Python package,
    with nothing half-built: the compiled module needs its runtime beside it."""

    def run(self) -> None:
        try:
            super().run()
        except Exception as err:
            for built in self.get_outputs():
                Path(built).unlink(missing_ok=True)
            _warn(f"the C build failed ({err})")


def _warn(why: str) -> None:
    print(f"unoformal: {why}; installing it as pure Python", file=sys.stderr)


setup(ext_modules=extensions(), cmdclass={"build_ext": OptionalBuildExt})
