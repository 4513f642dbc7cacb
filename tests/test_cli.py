"""The command line behaves: --version, ``python -m unoformal``, and commands that load
only what they use (rules, replay and simulate never import Z3 or networkx, nor Dask for a
small run)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from unoformal.commands.cli import main, version
from unoformal.runtime.compiled import build

RECORD = Path(__file__).parent / "records" / "seed002_whole_game.json"

# Runs a command in a fresh interpreter and prints which heavy modules it loaded.
PROBE = """
import json, sys
from unoformal.commands.cli import main
code = main(sys.argv[1:])
heavy = ("z3", "networkx", "pydot", "matplotlib", "dask", "distributed")
print(json.dumps({"code": code, "loaded": [m for m in heavy if m in sys.modules]}),
      file=sys.stderr)
"""


def _loaded(*argv: str) -> list[str]:
    done = subprocess.run([sys.executable, "-c", PROBE, *argv], capture_output=True,
                          text=True, timeout=120, check=False)
    last = json.loads(done.stderr.strip().splitlines()[-1])
    assert last["code"] == 0, done.stderr
    loaded: list[str] = last["loaded"]
    return loaded


@pytest.mark.parametrize("argv", [
    ("rules",), ("rules", "--rules", "stacking"), ("replay", str(RECORD)),
    ("simulate", "--games", "1", "--players", "2", "--seed", "1"), ("--help",),
])
def test_light_commands_do_not_import_z3_or_networkx(argv: tuple[str, ...]) -> None:
    assert _loaded(*argv) == []


def test_the_import_probe_sees_a_heavy_import() -> None:
    # The check above can fail: the probe does see Z3 where a command loads it.
    assert "z3" in _loaded("verify", "--help")
    assert "networkx" in _loaded("explore", "--help")
    assert "distributed" in _loaded("simulate", "--games", "2", "--players", "2",
                                    "--workers", "2")


def test_version(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--version"]) == 0
    assert capsys.readouterr().out.strip() == f"unoformal {version()} (engine: {build()})"
    assert version() != "unknown"  # installed (the tests run from an install)


def test_python_dash_m_unoformal_runs_the_command() -> None:
    done = subprocess.run([sys.executable, "-m", "unoformal", "rules", "--rules", "seed004"],
                          capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode == 0, done.stderr
    assert "UNO-1" in done.stdout
    bad = subprocess.run([sys.executable, "-m", "unoformal", "nonsense"],
                         capture_output=True, text=True, timeout=120, check=False)
    assert bad.returncode == 2 and bad.stderr.startswith("error: unoformal:")


def test_every_command_is_listed_and_its_options_parse(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--help"]) == 0
    out = capsys.readouterr().out
    for name in ("rules", "replay", "simulate", "verify", "validate", "explore"):
        assert name in out
    assert main(["verify", "--jobs", "0"]) == 2  # the named command's own options
    assert "--jobs" in capsys.readouterr().err


def test_verify_quiet_prints_only_the_verdict_line(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["verify", "--players", "2", "--property", "conservation", "--quiet",
                 "--jobs", "1"]) == 0
    assert capsys.readouterr().out == "1 verdict as in the manifest\n"


def test_uno_1_verify_ends_with_the_count_of_unexpected_verdicts(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # One penalty card where the rulebook says 2, in a file that inherits classic's
    # expected verdicts: "penalties" is refuted where "proved" is expected.
    path = tmp_path / "lenient.toml"
    path.write_text('name = "lenient"\n[rules."UNO-1"]\npenalty = 1\n', encoding="utf-8")
    argv = ["verify", "--rules", str(path), "--players", "2", "--property", "penalties",
            "--jobs", "1", "--no-witness"]
    assert main([*argv, "--quiet"]) == 1
    assert capsys.readouterr().out == "1 unexpected (of 1 verdict)\n"
    assert main(argv) == 1
    out = capsys.readouterr().out
    assert "[[expect]]" in out and out.endswith("1 unexpected (of 1 verdict)\n")


def test_verify_names_are_not_cut_on_a_narrow_terminal(
        capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COLUMNS", "60")
    assert main(["verify", "--players", "2", "--property", "reshuffle-keeps-top",
                 "--jobs", "1"]) == 0
    out = capsys.readouterr().out
    assert "…" not in out
    # The table is plain text, never wrapped: the name starts its row, whole.
    assert any(line.split()[:1] == ["reshuffle-keeps-top"] for line in out.splitlines())


def test_mutant_line_counts_killed_equivalent_and_survived() -> None:
    from unoformal.commands.verify import mutant_line
    from unoformal.verification.z3.mutants import Mutant, Outcome

    m = Mutant("UNO-1", "penalty", 1)
    outcomes = [Outcome(m, "penalties (2 players)", 0.1), Outcome(m, None, 0.1, "same"),
                Outcome(m, None, 0.1), Outcome(m, "uno (2 players)", 0.1)]
    assert mutant_line(outcomes).startswith("2 killed, 1 equivalent, 1 survived")


def test_score_1_replay_prints_scores_and_hands_as_tables(
        capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["replay", str(RECORD)]) == 0
    out = capsys.readouterr().out
    assert "{" not in out  # no Python dict
    rows = {cells[0]: cells[1:] for line in out.splitlines() if line.startswith("│")
            for cells in [[c.strip() for c in line.strip("│").split("│")]]}
    assert rows["You"] == ["127", "0", ""]
    assert rows["Ada"] == ["0", "6", "R8 RS R+2 Y3 G0 G5"]
    assert rows["round points"] == ["127"]
