"""The build (setup.py): the engine compiled by mypyc where it can be, pure Python where not,
and both pass the engine's tests."""

from __future__ import annotations

import importlib
import os
import shutil
import subprocess
import sys
import sysconfig
from pathlib import Path

import pytest
from conftest import COMPILED_HERE

from unoformal.runtime.compiled import COMPILED, build, copy_source
from unoformal.runtime.compiled import ROOT as INSTALLED

ROOT = Path(__file__).resolve().parent.parent
# What the pure-Python fallback runs; the rest of the suite runs on whichever build is
# installed. The fallback is the same source as the compiled modules, so it runs the
# engine's tests whole, the table's that reach a compiled module in their own way (a rule
# module's nodes, which subclass the language's), the pinned perft tables and a sample of
# the rest: validate's, crosscheck's and the rule files' other tests (each verb run on a
# file, the rules document) reach no compiled module these do not.
PURE_TESTS = ["tests/engine", "tests/rulebook/test_rule_modules.py",
              "tests/rulebook/test_cards.py", "tests/rulebook/test_deck.py",
              "tests/rulebook/test_schema.py", "tests/rulebook/test_variant_files.py",
              "tests/verification/test_explore_graph.py",
              "tests/verification/test_explore_extensions.py",
              "tests/verification/test_explore_chance.py",
              "tests/compare/test_successors.py::"
              "test_engine_and_z3_successors_agree_on_every_micro_state_and_deal",
              "tests/compare/test_relation.py::test_compiled_terms_agree_with_z3",
              "tests/compare/test_relation.py::test_classic_agrees[2]",
              # the planted explorer bugs, which need the explorer's classes patchable
              "tests/verification/test_explore_gc.py",
              "tests/verification/test_rlcard_values.py::"
              "test_the_start_color_check_fails_on_the_planted_bug",
              # the agreement harness's planted bugs, set on the live engine's class
              *(f"tests/reference/test_agree.py::{name}" for name in (
                  "test_a_wrong_wd4_1_condition_is_reported_where_a_wild_draw_four_is_played",
                  "test_a_refusal_citing_another_rule_is_reported",
                  "test_the_command_fails_and_writes_the_record_of_a_planted_bug",
                  "test_a_refusal_in_other_words_is_counted_apart_not_a_disagreement",
                  "test_a_successor_that_differs_is_reported",
                  "test_a_missing_legal_action_is_reported",
                  "test_a_wrong_legal_set_for_one_player_is_reported",
                  "test_a_refusal_that_changes_the_state_is_reported",
                  "test_records_and_vectors_report_a_planted_bug",
              ))]


def _can_compile() -> bool:
    try:
        import mypyc  # noqa: F401
    except ImportError:
        return False
    compiler = os.environ.get("CC", "cc").split()[0]
    headers = Path(sysconfig.get_paths()["include"]) / "Python.h"
    return shutil.which(compiler) is not None and headers.exists()


def _editable() -> bool:
    return (INSTALLED / "pyproject.toml").exists()


@pytest.mark.skipif(not (_can_compile() and _editable()),
                    reason="no mypyc or C compiler here, or not an editable install")
def test_where_it_can_the_install_compiles_the_engine() -> None:
    assert build() == "compiled by mypyc"
    for module in COMPILED:  # what Python imports is the compiled module
        name = module.removesuffix(".py").replace("/", ".")
        assert not (importlib.import_module(name).__file__ or "").endswith(".py"), name


def _pure_copy(into: Path) -> Path:
    """The repository's package and tests without any compiled module."""
    copy_source(into, ROOT)
    skip = shutil.ignore_patterns("__pycache__", "*.pyc")
    shutil.copytree(ROOT / "tests", into / "tests", ignore=skip)
    shutil.copytree(ROOT / "docs", into / "docs", ignore=skip)  # tests read the rules doc
    for name in ("pyproject.toml", "setup.py", "README.md"):
        shutil.copy(ROOT / name, into)
    return into


def test_the_pure_python_engine_passes_the_engine_tests(tmp_path: Path) -> None:
    tree = _pure_copy(tmp_path)
    probe = subprocess.run(
        [sys.executable, "-c", "from unoformal.runtime.compiled import build;"
         "from unoformal.engine import game; print(build(), game.__file__)"],
        cwd=tree, capture_output=True, text=True, check=True)
    assert probe.stdout.split()[:2] == ["pure", "Python"], probe.stdout
    assert probe.stdout.split()[-1].startswith(str(tree))
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-x", "-rs", "-p", "no:cacheprovider", "-n", "0",
         *PURE_TESTS], cwd=tree, capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-2000:]
    assert COMPILED_HERE not in done.stdout  # the tests that need it pure ran


def test_without_a_c_compiler_the_build_is_pure_python(tmp_path: Path) -> None:
    tree = _pure_copy(tmp_path)
    env = {**os.environ, "CC": "false"}  # a compiler that always fails
    done = subprocess.run([sys.executable, "setup.py", "-q", "build"], cwd=tree,
                          capture_output=True, text=True, env=env, check=False)
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
    assert "installing it as pure Python" in done.stderr
    built = [p.relative_to(tree / "build") for p in (tree / "build").rglob("*") if p.is_file()]
    assert any(p.parts[-3:] == ("unoformal", "engine", "game.py") for p in built), built
    assert not [p for p in built if p.suffix in (".so", ".pyd")]

