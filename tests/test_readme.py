"""The README writes every command one way: as it runs in the activated virtualenv
(``unoformal ...``, ``python ...``), never through a path such as ``.venv/bin/unoformal``."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

README = Path(__file__).resolve().parents[1] / "README.md"
ACTIVATE = ". .venv/bin/activate"


def commands(text: str) -> list[str]:
    """The commands of the README's ``sh`` blocks: every line, or in a transcript (a
    block with ``$`` prompts) the prompted lines, the ``$`` taken off."""
    out = []
    for block in re.findall(r"```sh\n(.*?)```", text, flags=re.DOTALL):
        lines = [line for line in block.splitlines()
                 if line.strip() and not line.startswith(("#", " "))]
        prompted = [line[2:] for line in lines if line.startswith("$ ")]
        out += prompted or lines
    return out


def test_every_readme_command_has_one_form() -> None:
    lines = commands(README.read_text())
    assert len(lines) > 20
    for line in lines:
        assert ".venv/bin/" not in line.replace(ACTIVATE, ""), line
        first = line.split()[0]
        assert first in ("unoformal", "python", "python3", "ruff", "yes"), line


def test_every_readme_python_example_runs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # Each ``python`` block on its own, as a reader pastes it: a changed API or a changed
    # game (the chance example asserts the noted game is the plain one) fails here. A
    # reader runs them at the top of a checkout; the files they write go to a scratch
    # directory that sees the checkout's tests/, not into the checkout.
    (tmp_path / "tests").symlink_to(README.parent / "tests")
    monkeypatch.chdir(tmp_path)
    blocks = re.findall(r"```python\n(.*?)```", README.read_text(), flags=re.DOTALL)
    assert len(blocks) >= 3
    for i, block in enumerate(blocks):
        exec(compile(block, f"README.md python block {i}", "exec"), {"__name__": "readme"})
