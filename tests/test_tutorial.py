"""docs/tutorial.md runs: every ``>>>`` example in it is a doctest.

Doctested Markdown (stdlib ``doctest``) rather than a notebook: no kernel and no plugin,
plain text that diffs line by line, run in the ordinary test run."""

from __future__ import annotations

import doctest
from pathlib import Path

TUTORIAL = Path(__file__).resolve().parents[1] / "docs" / "tutorial.md"
FLAGS = doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE


def _run(path: Path) -> doctest.TestResults:
    return doctest.testfile(str(path), module_relative=False, optionflags=FLAGS,
                            verbose=False, report=True)


def test_the_tutorial_runs_as_written() -> None:
    failed, attempted = _run(TUTORIAL)
    assert attempted >= 30, "the tutorial lost its examples"
    assert failed == 0, f"{failed} tutorial examples no longer do what the text says"


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
