"""Which engine is installed (``unoformal.engine.build``), and a compiled one that is older
than its source in a checkout (``unoformal.engine.stale``): read from the module's file."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from unoformal.engine import build, game, stale


def test_the_build_is_read_from_the_engine_module_file(monkeypatch: pytest.MonkeyPatch,
                                                       tmp_path: Path) -> None:
    monkeypatch.setattr(game, "__file__", str(tmp_path / "game.py"))
    assert build() == "pure Python"
    monkeypatch.setattr(game, "__file__", str(tmp_path / "game.cpython-311-x86_64-linux-gnu.so"))
    assert build() == "compiled by mypyc"


def test_a_compiled_engine_older_than_its_source_is_reported(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    engine = tmp_path / "unoformal" / "engine"
    engine.mkdir(parents=True)
    (tmp_path / "setup.py").write_text("")
    compiled, source = engine / "game.cpython-311-x86_64-linux-gnu.so", engine / "game.py"
    compiled.write_text("")
    source.write_text("")
    monkeypatch.setattr(game, "__file__", str(compiled))
    os.utime(compiled, (1_000, 1_000))
    os.utime(source, (2_000, 2_000))
    assert stale()  # the source was edited after the build
    os.utime(compiled, (3_000, 3_000))
    assert not stale()
    os.utime(compiled, (1_000, 1_000))
    (tmp_path / "setup.py").unlink()
    assert not stale()  # an installed wheel: no source tree to go stale
    monkeypatch.setattr(game, "__file__", str(source))
    assert not stale()  # pure Python
