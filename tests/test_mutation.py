"""The mutation harness (``benchmarks/mutation.py``) works, on a small fixed subset.

mutmut mutates the WD4-1 statement and its concrete reading (``unoformal.rules``) and
TWO-1's interpreter
(``RuleTable.reverse_is_skip``); the harness also plants the one-line WD4-1 bug that once
passed every test (counting only *number* cards of the current color). The per-rule tests
(and the table-mutation tests, for WD4-1's other reading) kill every one of them; a hollow
suite that plays the same code without checking anything kills almost none, so a kill
reported here is the tests' doing, not the harness's.
"""

from __future__ import annotations

import importlib.util
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parent.parent
SUBSET = ["unoformal.language.cards.xǁOfCurrentColorǁholds__mutmut_*",
          "unoformal.language.cards.xǁAllǁholds__mutmut_*",
          "unoformal.rules.challenge.x_wd4_blocks__mutmut_*",
          "unoformal.rulebook.table.xǁRuleTableǁreverse_is_skip__mutmut_*"]
PLANTED = "planted_wd4_1_counts_only_number_cards"

HOLLOW = '''
import random
from unoformal.engine.game import Game

def test_plays_whole_rounds_and_checks_nothing() -> None:
    for players in (2, 3):
        game = Game([f"P{i}" for i in range(players)], seed=players)
        rng = random.Random(players)
        for _ in range(300):
            if game.round_over:
                break
            game.apply(rng.choice(game.legal_actions()))
'''


def _measure(*suite: str) -> dict[str, Any]:
    args = [a for path in suite for a in ("--suite", path)]
    args += [a for name in SUBSET for a in ("--only", name)]
    done = subprocess.run([sys.executable, str(ROOT / "benchmarks" / "mutation.py"), "--json",
                           *args], capture_output=True, text=True, cwd=ROOT, check=False)
    assert done.returncode == 0, done.stdout + done.stderr
    out: dict[str, Any] = json.loads(done.stdout)
    return out


def test_wd4_1_two_1_the_rule_tests_kill_every_mutant_of_the_subset() -> None:
    out = _measure("tests/engine/test_rules.py", "tests/engine/test_single_source.py",
                   "tests/verification/test_rules_lang.py")
    # mutmut's 16 mutants of the WD4-1 statement, 6 of its concrete readings (1 of
    # OfCurrentColor.holds, 5 of All.holds), 4 of reverse_is_skip
    assert out["total"] == 26
    assert out["killed"] == 26 and out["score"] == 1.0, out["not_killed"]
    assert out["planted"] == {PLANTED: True}


def test_wd4_1_two_1_a_suite_that_checks_nothing_leaves_them_alive(tmp_path: Path) -> None:
    hollow = tmp_path / "test_hollow.py"
    hollow.write_text(HOLLOW)
    out = _measure(str(hollow))
    assert out["total"] == 26
    assert out["survived"] >= 20 and out["score"] < 0.5  # only crashing mutants die
    assert out["planted"] == {PLANTED: False}
    assert "x_wd4_blocks__mutmut_1" in " ".join(out["not_killed"])


LOOPS = '''
def test_quick() -> None:
    pass


def test_loops_for_ever() -> None:
    while True:
        pass
'''


def _conftest(factor: float, seconds: float) -> str:
    spec = importlib.util.spec_from_file_location("mutation", ROOT / "benchmarks" / "mutation.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["mutation"] = module  # its dataclasses look their module up
    try:
        spec.loader.exec_module(module)
    finally:
        del sys.modules["mutation"]
    text: str = module.conftest(factor, seconds)
    return text


def test_a_mutant_that_loops_ends_as_a_timeout_within_its_tests_budget(tmp_path: Path) -> None:
    """The CPU budget per test the harness adds to the copy's conftest: a test that loops
    under a mutant ends the run with mutmut's exit code for a timeout (36), not a kill."""
    (tmp_path / "tests").mkdir()
    (tmp_path / "tests" / "conftest.py").write_text("import pytest\n" + _conftest(0, 1))
    (tmp_path / "tests" / "test_x.py").write_text(LOOPS)
    (tmp_path / "mutmut-stats.json").write_text(json.dumps({"duration_by_test": {}}))

    def run(mutant: str, timeout: float) -> int:
        done = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider",
                               "tests/test_x.py"], cwd=tmp_path, capture_output=True,
                              env={**os.environ, "MUTANT_UNDER_TEST": mutant}, timeout=timeout,
                              check=False)
        return done.returncode

    assert run("unoformal.engine.game.x_f__mutmut_1", timeout=60) == 36
    # No budget outside a mutant's run (mutmut's stats run times the tests as they are).
    with pytest.raises(subprocess.TimeoutExpired):
        run("stats", timeout=4)


def test_two_1_a_kept_run_rechecked_against_new_tests_counts_them(tmp_path: Path) -> None:
    """``--resume DIR --recheck``: the survivors of a kept run are run again with the
    tests as they are now, so a kill shown by a test added since is mutmut's own verdict."""
    hollow = tmp_path / "test_later.py"
    hollow.write_text(HOLLOW)
    subset = ["--only", "unoformal.rulebook.table.xǁRuleTableǁreverse_is_skip__mutmut_*"]
    run = tmp_path / "run"

    def harness(*args: str) -> dict[str, Any]:
        done = subprocess.run([sys.executable, str(ROOT / "benchmarks" / "mutation.py"),
                               "--json", "--no-planted", "--suite", str(hollow), *args],
                              capture_output=True, text=True, cwd=ROOT, check=False)
        assert done.returncode == 0, done.stdout + done.stderr
        out: dict[str, Any] = json.loads(done.stdout)
        return out

    first = harness("--keep", str(run), *subset)
    assert first["total"] == 4 and first["survived"] >= 3
    # The same file now checks TWO-1 (tests/engine/test_rules.py's check, in a few lines).
    hollow.write_text(HOLLOW + '''

def test_two_1_a_reverse_acts_as_a_skip_with_two_players_only() -> None:
    from unoformal.rulebook.table import CLASSIC

    assert CLASSIC.reverse_is_skip(2) and not CLASSIC.reverse_is_skip(3)
''')
    again = harness("--resume", str(run), "--recheck")  # no subset: the survivors alone
    survivors = [n for n in first["not_killed"] if first["not_killed"][n]["status"] == "survived"]
    assert survivors and not set(survivors) & set(again["not_killed"])
    assert again["killed"] == 4  # the rest of table.py's mutants are still not checked
