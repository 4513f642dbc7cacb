"""``unoformal show`` on hostile or awkward input: a verify row whose fields have the wrong
type, a malformed state text, a record of another game, a default output folder that
takes no file, a graph limit below the witness, and /dev/null as the page to throw away.
Each is refused in one line naming the file and key (exit 2) or done (exit 0)."""

from __future__ import annotations

import json
import os
import stat
from pathlib import Path
from typing import Any

import pytest

from unoformal.commands.cli import main
from unoformal.errors import InvalidInputError
from unoformal.inputs import atomic_output, check_output

from .helpers import SEED002

# `unoformal verify --rules seed004 --players 2 --property penalties --json`, saved: a
# refuted row with its state, steps and record (verify itself is not what is tested).
VERDICTS = Path(__file__).with_name("test_show_robust_verdicts.json")


@pytest.fixture
def row() -> dict[str, Any]:
    rows = json.loads(VERDICTS.read_text())
    assert rows[0]["verdict"] == "refuted" and isinstance(rows[0]["record"], dict)
    return dict(rows[0])


def _show(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(["show", *argv])
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def _refused(tmp: Path, capsys: pytest.CaptureFixture[str], rows: Any) -> str:
    """Show a verify output holding ``rows``: refused in one line naming the file, no
    page written; the line."""
    source = tmp / "verdicts.json"
    source.write_text(json.dumps(rows))
    page = tmp / "p.html"
    code, _, err = _show(capsys, str(source), "--out", str(page))
    assert code == 2, err
    assert err.startswith("error: ") and err.count("\n") == 1, err
    assert "verdicts.json" in err, err
    assert not page.exists() and os.listdir(tmp) == ["verdicts.json"]
    return err


@pytest.mark.parametrize(("field", "value"), [
    ("steps", 3), ("steps", "P1 misplay G3"), ("steps", [{"a": 1}]), ("steps", [None]),
    ("property", {"a": 1}), ("property", 7), ("state", 12), ("state", ["rules=classic"]),
    ("record", [1, 2]), ("record", "r.json"), ("players", "two"), ("players", True),
    ("action", 5), ("action", ["x"]), ("expected", 1), ("expected_from", []),
    ("replayable", "yes"), ("rules", 5), ("rules", [1]), ("verdict", ["refuted"]),
])
def test_a_verify_row_field_of_the_wrong_type_is_refused_naming_its_key(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], row: dict[str, Any],
        field: str, value: Any) -> None:
    err = _refused(tmp_path, capsys, [{**row, field: value}])
    assert f"[0].{field}" in err, err


def test_the_key_names_the_row_among_several(tmp_path: Path,
                                            capsys: pytest.CaptureFixture[str],
                                            row: dict[str, Any]) -> None:
    other = {**row, "property": "other", "verdict": "proved"}
    err = _refused(tmp_path, capsys, [other, {**row, "steps": 3}])
    assert "[1].steps" in err, err


def test_a_huge_list_of_steps_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                         row: dict[str, Any]) -> None:
    err = _refused(tmp_path, capsys, [{**row, "steps": ["P1 draw"] * 5000}])
    assert "[0].steps" in err and "at most" in err, err


def test_a_malformed_state_text_names_the_file_and_key(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], row: dict[str, Any]) -> None:
    err = _refused(tmp_path, capsys, [{**row, "state": row["state"] + " garbage"}])
    assert err.startswith(f"error: {tmp_path / 'verdicts.json'}: [0].state: "), err
    assert "unexpected 'garbage'" in err, err


def test_a_record_of_another_game_is_refused_saying_what_differs(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], row: dict[str, Any]) -> None:
    seed002 = json.loads(SEED002.read_text())
    err = _refused(tmp_path, capsys, [{**row, "record": seed002}])
    assert "[0].record" in err and "'You', 'Ada', 'Bo'" in err and "'P1', 'P2'" in err, err


def test_a_record_whose_actions_are_refused_is_named_as_the_rows_record(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], row: dict[str, Any]) -> None:
    record = {**row["record"], "actions": 5}
    err = _refused(tmp_path, capsys, [{**row, "record": record}])
    assert "[0].record.actions" in err, err


def test_a_genuine_verify_row_still_makes_a_page(tmp_path: Path,
                                                 capsys: pytest.CaptureFixture[str],
                                                 row: dict[str, Any]) -> None:
    source = tmp_path / "verdicts.json"
    source.write_text(json.dumps([row]))
    code, out, err = _show(capsys, str(source), "--out", str(tmp_path / "p.html"))
    assert code == 0 and err == "" and out.count("\n") == 1, err
    # Without its optional fields (an older verify, or --no-witness) it still does.
    bare = {k: v for k, v in row.items() if k in ("property", "verdict", "state")}
    source.write_text(json.dumps([bare]))
    code, _, err = _show(capsys, str(source), "--out", str(tmp_path / "p.html"))
    assert code == 0, err


@pytest.mark.parametrize("argv", [[str(SEED002)], ["--preset", "micro"]])
def test_a_default_output_folder_that_takes_no_file_is_one_line(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
        argv: list[str]) -> None:
    monkeypatch.chdir("/proc")  # no new file can be made here, even by root
    code, _, err = _show(capsys, *argv)
    assert code == 2, err
    assert err.startswith("error: ") and err.count("\n") == 1 and "/proc" in err, err
    assert "Traceback" not in err and "ArgumentTypeError" not in err


def test_a_removed_working_folder_is_one_line(tmp_path: Path,
                                              monkeypatch: pytest.MonkeyPatch,
                                              capsys: pytest.CaptureFixture[str]) -> None:
    gone = tmp_path / "gone"
    gone.mkdir()
    monkeypatch.chdir(gone)
    gone.rmdir()
    code, _, err = _show(capsys, str(SEED002))
    assert code == 2 and err.count("\n") == 1 and "name the page with --out" in err, err


def test_a_graph_limit_below_its_witness_advises_what_show_has(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = _show(capsys, "--preset", "micro", "--limit", "1",
                         "--out", str(tmp_path / "p.html"))
    assert code == 2 and err.count("\n") == 1, err
    assert "--limit" in err and "unoformal explore --preset micro --dot" in err, err
    assert not (tmp_path / "p.html").exists()


# --------------------------------------------------------------------- /dev/null
# Always through a link to /dev/null in a scratch folder: were the atomic rename ever
# done onto it, the link is replaced (and the test fails), never the device itself.


def _null_link(tmp: Path) -> Path:
    link = tmp / "null"
    link.symlink_to(os.devnull)
    return link


def _still_null(link: Path) -> bool:
    return link.is_symlink() and stat.S_ISCHR(os.stat(link).st_mode)


def test_dev_null_is_an_output_and_other_devices_are_not(tmp_path: Path) -> None:
    link = _null_link(tmp_path)
    assert check_output(str(link), "output file") == str(link)
    assert check_output(os.devnull, "output file") == os.devnull
    with pytest.raises(InvalidInputError, match="not a regular file"):
        check_output("/dev/full", "output file")
    full = tmp_path / "full"
    full.symlink_to("/dev/full")
    with pytest.raises(InvalidInputError, match="not a regular file"):
        check_output(str(full), "output file")


def test_dev_null_is_written_directly_not_renamed_onto(tmp_path: Path) -> None:
    link = _null_link(tmp_path)
    with atomic_output(str(link), "test") as handle:
        handle.write("thrown away\n")
    assert _still_null(link) and os.listdir(tmp_path) == ["null"]


@pytest.mark.parametrize("argv", [
    ["vectors", "--preset", "micro", "--out"],
    ["show", str(SEED002), "--out"],
    ["explore", "--preset", "micro", "--no-progress", "--dot"],
])
def test_every_output_option_takes_dev_null(tmp_path: Path,
                                            capsys: pytest.CaptureFixture[str],
                                            argv: list[str]) -> None:
    link = _null_link(tmp_path)
    code = main([*argv, str(link)])
    err = capsys.readouterr().err
    assert code == 0, err
    assert _still_null(link) and os.listdir(tmp_path) == ["null"]


def test_an_output_that_is_dev_full_is_still_refused_first(
        capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["vectors", "--preset", "micro", "--out", "/dev/full"])
    assert code == 2 and "not a regular file" in capsys.readouterr().err
