"""Another git revision's package, for before/after figures measured in the same run."""

from __future__ import annotations

import io
import subprocess
import sys
import tarfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def checkout(rev: str, into: str) -> Path:
    """The ``unoformal`` package of git revision ``rev`` under ``into``, built as its own
    install would be: where the revision has the compiled build (``setup.py``), its
    modules are compiled in place too, so compiled code is compared with compiled code.
    Python imports the package from ``into`` when it is first on the path."""
    paths = ["unoformal"]
    has_build = subprocess.run(["git", "-C", str(ROOT), "cat-file", "-e", f"{rev}:setup.py"],
                               capture_output=True).returncode == 0
    if has_build:
        paths += ["setup.py", "pyproject.toml"]
    data = subprocess.run(["git", "-C", str(ROOT), "archive", rev, *paths],
                          capture_output=True, check=True).stdout
    with tarfile.open(fileobj=io.BytesIO(data)) as tar:
        tar.extractall(into, filter="data")
    if has_build:
        subprocess.run([sys.executable, "setup.py", "-q", "build_ext", "--inplace"], cwd=into,
                       capture_output=True, check=True)
    return Path(into)
