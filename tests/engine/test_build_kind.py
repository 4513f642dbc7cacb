"""Which modules are compiled where the package is installed (``unoformal.runtime.compiled``), and
compiled ones older than their source in a checkout: read from the files beside the
sources, as Python's import picks them."""

from __future__ import annotations

import os
from importlib.machinery import EXTENSION_SUFFIXES
from pathlib import Path

from unoformal.runtime.compiled import COMPILED, build, compiled, stale


def _tree(root: Path, built: tuple[str, ...]) -> dict[str, Path]:
    binaries = {}
    for module in COMPILED:
        source = root / module
        source.parent.mkdir(parents=True, exist_ok=True)
        source.write_text("")
        if module in built:
            binaries[module] = source.with_name(source.stem + EXTENSION_SUFFIXES[0])
            binaries[module].write_text("")
    return binaries


def test_the_build_is_read_from_the_files_beside_the_sources(tmp_path: Path) -> None:
    _tree(tmp_path, ())
    assert compiled(tmp_path) == [] and build(tmp_path) == "pure Python"
    _tree(tmp_path, COMPILED[:1])
    assert compiled(tmp_path) == [COMPILED[0]]
    assert build(tmp_path) == f"partly compiled (1 of {len(COMPILED)})"
    _tree(tmp_path, COMPILED)
    assert compiled(tmp_path) == list(COMPILED) and build(tmp_path) == "compiled by mypyc"


def test_a_compiled_module_older_than_its_source_is_reported(tmp_path: Path) -> None:
    binaries = _tree(tmp_path, COMPILED)
    (tmp_path / "setup.py").write_text("")
    for binary in binaries.values():
        os.utime(binary, (3_000, 3_000))
    for module in COMPILED:
        os.utime(tmp_path / module, (2_000, 2_000))
    assert stale(tmp_path) == []
    edited = COMPILED[-1]
    os.utime(tmp_path / edited, (4_000, 4_000))
    assert stale(tmp_path) == [edited]  # the source was edited after the build
    (tmp_path / "setup.py").unlink()
    assert stale(tmp_path) == []  # an installed wheel: no source tree to go stale


def test_a_module_without_a_compiled_form_is_never_stale(tmp_path: Path) -> None:
    _tree(tmp_path, ())
    (tmp_path / "setup.py").write_text("")
    assert stale(tmp_path) == []


def test_the_listed_modules_exist() -> None:
    root = Path(__file__).resolve().parents[2]
    assert all((root / module).is_file() for module in COMPILED)
