"""What ``unoformal verify`` prints where a newcomer reads it (a file, a pipe): a short
verdict table, one row per property, never wrapped, with why the manifest expects each
refutation; the counterexamples behind ``--details`` and in ``--json`` (whose keys are a
public format); the final verdict line and the exit status as they always were."""

from __future__ import annotations

import contextlib
import io
import json
from typing import Any

import pytest

from unoformal.commands.cli import main
from unoformal.verification.z3.manifest import load
from unoformal.verification.z3.properties import PROPERTIES

# Two and three players: the classic table's TWO-1 witness is refuted at three.
ARGS = ["verify", "--players", "2,3", "--jobs", "1"]
WITNESS = "two-player-reverse-is-skip"
ROW_KEYS = {"property", "rules", "players", "verdict", "expected", "expected_from",
            "as_expected", "seconds", "queries", "action", "vacuous",
            # added by the search from a deal (keys are only ever added)
            "conclusion"}
REFUTED_KEYS = ROW_KEYS | {"state", "steps", "record", "replayable", "reach",
                           "expected_reached"}


def _run(*extra: str) -> tuple[int, str]:
    """verify's exit status and standard output, on a narrow terminal's width (COLUMNS)
    but not a terminal: as redirected to a file."""
    out = io.StringIO()
    with pytest.MonkeyPatch.context() as patch, contextlib.redirect_stdout(out):
        patch.setenv("COLUMNS", "60")
        code = main([*ARGS, *extra])
    return code, out.getvalue()


@pytest.fixture(scope="module")
def default() -> tuple[int, str]:
    return _run()


@pytest.fixture(scope="module")
def details() -> tuple[int, str]:
    return _run("--details")


def _rows(text: str) -> dict[str, str]:
    """The table's rows by the property that starts them (the reasons are indented)."""
    names = {p.name for p in PROPERTIES}
    return {line.split()[0]: line for line in text.splitlines()
            if line.split() and line.split()[0] in names and not line[0].isspace()}


def test_the_default_is_one_unwrapped_row_per_property(default: tuple[int, str]) -> None:
    code, out = default
    assert code == 0
    rows = _rows(out)
    assert list(rows) == [p.name for p in PROPERTIES]  # every name whole, in order
    assert rows[WITNESS].split()[1:5] == ["proved", "2,", "refuted", "3"]
    assert all("as expected" in row for row in rows.values())
    assert len(out.splitlines()) < len(PROPERTIES) + 31, out


def test_the_default_says_why_a_refutation_is_expected_and_shows_no_state(
        default: tuple[int, str]) -> None:
    _, out = default
    reason = next(e["reason"] for e in load()["expect"] if e["property"] == WITNESS)
    why = out[out.index(f"  {WITNESS} refuted 3: "):]
    assert " ".join(why.split()).startswith(f"{WITNESS} refuted 3: {reason}")
    assert "rules=classic players=" not in out and "state:" not in out
    assert "--details" in out


def test_the_default_ends_with_the_verdict_line(default: tuple[int, str]) -> None:
    _, out = default
    assert out.endswith("\n65 verdicts as in the manifest\n")


def test_details_show_every_verdict_and_the_counterexamples(
        details: tuple[int, str]) -> None:
    code, out = details
    assert code == 0 and out.endswith("\n65 verdicts as in the manifest\n")
    rows = [line.split() for line in out.splitlines() if line.startswith(WITNESS + " ")]
    assert [row[:5] for row in rows if row[1] == "TWO-1"] == [
        [WITNESS, "TWO-1", "2", "proved", "proved"], [WITNESS, "TWO-1", "3", "refuted",
                                                     "refuted"]]
    assert f"{WITNESS} refuted with 3 players" in out
    state = next(line for line in out.splitlines() if line.startswith("  state:  "))
    assert state.split()[1].startswith("rules=classic")  # one line, however long
    assert "  record (replayable): {" in out
    assert "  reach:  reached from a deal: a game of 1 action(s)" in out


def test_json_keeps_its_keys() -> None:
    code, out = _run("--json")
    rows: list[dict[str, Any]] = json.loads(out)
    assert code == 0 and len(rows) == 65
    for row in rows:
        assert set(row) == (REFUTED_KEYS if row["verdict"] == "refuted" else ROW_KEYS), row
        if row["verdict"] == "refuted":  # the TWO-1 witness: a game breaks it
            assert row["conclusion"] == "refuted" and row["reach"]["reached"]
            assert row["replayable"] and row["record"]["actions"]
        else:
            assert row["conclusion"] == row["verdict"]


def test_an_unexpected_verdict_is_marked_and_exits_1(tmp_path: Any) -> None:
    path = tmp_path / "lenient.toml"
    path.write_text('name = "lenient"\n[rules."UNO-1"]\npenalty = 1\n', encoding="utf-8")
    code, out = _run("--rules", str(path), "--property", "penalties", "--property", "deck",
                     "--no-witness")
    assert code == 1
    rows = _rows(out)
    assert rows["penalties"].split()[1:7] == ["refuted", "2-3", "UNEXPECTED:", "proved",
                                              "2-3", "expected"]
    assert "as expected" in rows["deck"]
    assert out.endswith("\n2 unexpected (of 4 verdicts)\n")


def test_the_verdict_line_names_every_source_of_the_expected_verdicts() -> None:
    """The last line says where the expected verdicts came from, as the header names
    them: a preset's come mostly from the tables it plays, not from its own entries."""
    from types import SimpleNamespace

    from unoformal.commands.verify import verdict_line
    from unoformal.verification.z3.manifest import INHERITED, MANIFEST, OFF, OWN

    def run(*sources: str) -> str:
        return verdict_line([(None, SimpleNamespace(source=s)) for s in sources], [])

    assert run(MANIFEST, OFF) == "2 verdicts as in the manifest"
    assert run(MANIFEST, INHERITED) == "2 verdicts as in the manifest and what it inherits"
    assert run(OWN, INHERITED, MANIFEST) == \
        "3 verdicts as in the manifest, what it inherits and its own [[expect]]"
    assert run(INHERITED) == "1 verdict as in what it inherits"
