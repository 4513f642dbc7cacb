"""docs/tutorial.md runs: every ``>>>`` example in it is a doctest, run with only what
the install it tells its reader to run brings.

Doctested Markdown (stdlib ``doctest``) rather than a notebook: no kernel and no plugin,
plain text that diffs line by line, run in the ordinary test run."""

from __future__ import annotations

import doctest
import re
from pathlib import Path

from tests.test_readme import ONLY_INSTALLED, run_installed

TUTORIAL = Path(__file__).resolve().parents[1] / "docs" / "tutorial.md"
FLAGS = doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE
# The first install the tutorial names is the one its reader runs: `pip install -e .`
# or with extras, `pip install -e '.[plot]'`.
INSTALL = re.compile(r"`pip install -e '?\.(?:\[([\w,]+)\])?'?`")
# The doctest in a process of its own, where only that install's packages import.
DOCTEST = ONLY_INSTALLED + """
import doctest
flags = doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE
failed, attempted = doctest.testfile(sys.argv[2], module_relative=False, optionflags=flags)
print(failed, attempted)
"""


def stated_extras(text: str) -> list[str]:
    """The extras of the first install the tutorial tells its reader to run."""
    found = INSTALL.search(text)
    assert found, "the tutorial says what to install"
    return found.group(1).split(",") if found.group(1) else []


def _run(path: Path) -> doctest.TestResults:
    return doctest.testfile(str(path), module_relative=False, optionflags=FLAGS,
                            verbose=False, report=True)


def test_the_tutorial_runs_as_written_after_the_install_it_names() -> None:
    extras = stated_extras(TUTORIAL.read_text(encoding="utf-8"))
    done = run_installed(DOCTEST, [str(TUTORIAL)], extras)
    failed, attempted = map(int, done.stdout.splitlines()[-1].split())
    assert attempted >= 30, "the tutorial lost its examples"
    assert failed == 0, f"{failed} tutorial examples no longer do what the text says " \
                        f"(after pip install -e '.[{','.join(extras)}]'):\n{done.stdout}"


def test_a_tutorial_that_says_otherwise_fails(tmp_path: Path) -> None:
    # The check above can fail: the tutorial with one claim changed (the classic rules
    # said refuted) does.
    text = TUTORIAL.read_text(encoding="utf-8")
    wrong = text.replace(">>> check(CLASSIC, penalties, 2).verdict\n'proved'",
                         ">>> check(CLASSIC, penalties, 2).verdict\n'refuted'")
    assert wrong != text
    copy = tmp_path / "tutorial.md"
    copy.write_text(wrong, encoding="utf-8")
    failed, _ = _run(copy)
    assert failed == 1
