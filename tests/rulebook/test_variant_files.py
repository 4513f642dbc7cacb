"""Variant files: read bounded, parsed, validated by the schema, refused on one line.

A file that breaks the schema is refused by every command (``rules``, ``replay``,
``simulate``, ``verify``, ``explore``) with exit status 2 and one line naming the file,
the rule ID, the key path, the value and what is allowed; never a traceback.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest
import tomli_w

from unoformal.commands.cli import main
from unoformal.errors import VariantError
from unoformal.rulebook.table import Expect
from unoformal.rulebook.variants import MAX_BASES, MAX_BYTES, load_rules

RECORD = Path(__file__).resolve().parent.parent / "records" / "seed002_whole_game.json"


def write(folder: Path, body: str | bytes | dict[str, object], name: str = "v.toml") -> Path:
    path = folder / name
    if isinstance(body, dict):
        body = tomli_w.dumps(body)
    if isinstance(body, str):
        body = body.encode()
    path.write_bytes(body)
    return path


def refused(path: Path | str, *words: str, rule_id: str | None = None,
            at: Path | None = None) -> VariantError:
    """Loading ``path`` is refused on one line that starts with the file at fault (``at``,
    a base of ``path``; by default ``path`` itself)."""
    with pytest.raises(VariantError) as info:
        load_rules(str(path))
    text = str(info.value)
    assert "\n" not in text, text
    assert text.startswith(f"{at or path}: "), text
    for word in words:
        assert word in text, text
    assert info.value.rule_id == rule_id, text
    return info.value


# ------------------------------------------------------------- the reviewer's files


@pytest.mark.parametrize(("body", "rule_id", "words"), [
    ('[rules."UNO-1"]\npenalty = -1\n', "UNO-1", ("rules.UNO-1.penalty = -1", "0 to 20")),
    ('[rules."D2-1"]\nvictim_draws = 1000000000\n', "D2-1", ("victim_draws = 1000000000",)),
    ('[rules."DEAL-2"]\nhand_size = 0\n', "DEAL-2", ("hand_size = 0", "1 to 50")),
    ('[rules."SCORE-2"]\nscore = 0\n', "SCORE-2", ("score = 0", "1 to 100000")),
    ('[rules."DECK-2"]\nminimum = 1\n', "DECK-2", ("minimum = 1", "2 to 10")),
    ('[rules."DECK-2"]\nminimum = 9\nmaximum = 3\n', "DECK-2", ("at most the maximum, 3",)),
    ('[rules."CHAL-2"]\nenabled = false\n', "CHAL-2", ("CHAL-2 cannot be switched off",)),
    ('[rules."DECK-1"]\ncolors = ["red", "red"]\n', "DECK-1", ("must be distinct",)),
    ('[rules."DECK-1"]\nnumber_copies = [1]\n[rules."DEAL-2"]\nhand_size = 1\n', "DEAL-1",
     ("ties_draw_again = true", "dealer-draw-ends")),
    ('[rules]\n"UNO-1" = 5\n', "UNO-1", ("rules.UNO-1 = 5: expected a table",)),
    ('[rules."DECK-1"]\ncolors = [1]\n', "DECK-1", ("colors[0] = 1", 'one of "red"')),
    ('[rule."UNO-1"]\npenalty = 1\n', None,
     ("rule: unknown key; allowed: name, base, description, rules, expect",)),
    ('nmae = "typo"\n', None, ("nmae: unknown key",)),
    ('name = "[bold red]x[/]"\n', None, ('name = "[bold red]x[/]": expected letters',)),
    ("base = 5\n", None, ("base = 5: expected a string",)),
    ('base = ["classic"]\n', None, ('base = ["classic"]: expected a string',)),
    ("[base]\nx = 1\n", None, ('base = {"x": 1}: expected a string',)),
    ('base = "nonesuch"\n', None, ('base = "nonesuch": expected one of classic',)),
    ('[[expect]]\nproperty = "penalties"\nplayers = "2-11"\nverdict = "refuted"\n'
     'reason = "r"\n', "DECK-2", ('expect[0].players = "2-11"',)),
    ('[[expect]]\nproperty = "penalties"\nplayers = "2"\nverdict = "maybe"\nreason = "r"\n',
     None, ('expect[0].verdict = "maybe"',)),
    ('[[expect]]\nproperty = "penalties"\nplayers = "2"\nverdict = "proved"\n', None,
     ("expect[0]: missing key reason",)),
])
def test_a_file_breaking_the_schema_is_refused_on_one_line(
        tmp_path: Path, body: str, rule_id: str | None, words: tuple[str, ...]) -> None:
    refused(write(tmp_path, body), *words, rule_id=rule_id)


def test_a_file_that_is_not_utf_8_is_refused(tmp_path: Path) -> None:
    refused(write(tmp_path, b'name = "caf\xe9"\n'), "not UTF-8 text: byte 0xe9 at offset 11")


@pytest.mark.parametrize(("depth", "words"), [
    (100_000, f"larger than {MAX_BYTES} bytes"),  # bounded before parsing
    (5_000, "nested too deep to parse"),  # tomllib's RecursionError, caught
    (20, "nested more than 8 levels deep"),  # parsed, refused before validation
])
def test_deep_nesting_is_refused(tmp_path: Path, depth: int, words: str) -> None:
    body = '[rules."UNO-1"]\npenalty = ' + "[" * depth + "1" + "]" * depth + "\n"
    refused(write(tmp_path, body), words)


def test_a_directory_or_a_device_is_refused_without_reading_it(tmp_path: Path) -> None:
    folder = tmp_path / "folder.toml"
    folder.mkdir()
    refused(folder, "a directory")
    refused("/dev/zero", "not a regular file")
    link = tmp_path / "zero.toml"
    os.symlink("/dev/zero", link)
    refused(link, "not a regular file")
    refused(tmp_path / "missing.toml", "no such file")
    refused(write(tmp_path, "# " + "x" * MAX_BYTES), "larger than")


# ------------------------------------------------------------------------ bases


def test_a_base_is_a_shipped_variant_or_a_file_beside_this_one(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    sub = tmp_path / "sub"
    sub.mkdir()
    write(tmp_path, {"name": "parent", "base": "seed004",
                     "rules": {"UNO-1": {"penalty": 3}}}, "parent.toml")
    child = write(sub, {"name": "child", "base": "../parent.toml",
                        "rules": {"SCORE-2": {"score": 200}}}, "child.toml")
    monkeypatch.chdir(tmp_path.parent)  # relative to the file's folder, not the cwd
    table = load_rules(str(child))
    assert (table.name, table.uno.penalty, table.misplay.cards, table.target.score) == \
        ("child", 3, 1, 200)


def test_a_base_naming_its_own_file_or_a_cycle_is_refused(tmp_path: Path) -> None:
    me = write(tmp_path, {"base": "v.toml"})
    refused(me, 'base = "v.toml": the bases form a cycle', "v.toml -> ")
    a = write(tmp_path, {"base": "b.toml"}, "a.toml")
    b = write(tmp_path, {"base": "a.toml"}, "b.toml")
    refused(b, f"the bases form a cycle: {b} -> {a} -> {b}", at=a)


def test_a_chain_of_bases_is_bounded(tmp_path: Path) -> None:
    for i in range(MAX_BASES + 1):
        write(tmp_path, {"base": f"f{i + 1}.toml" if i < MAX_BASES else "classic"},
              f"f{i}.toml")
    last = tmp_path / f"f{MAX_BASES - 1}.toml"  # the file whose base is one too many
    refused(tmp_path / "f0.toml", f"more than {MAX_BASES} files", at=last)
    assert load_rules(str(tmp_path / "f1.toml")).name == "f1"  # one file shorter: fine


def test_a_bad_base_file_is_named_in_the_refusal(tmp_path: Path) -> None:
    bad = write(tmp_path, '[rules."UNO-1"]\npenalty = -1\n', "bad.toml")
    with pytest.raises(VariantError) as info:
        load_rules(str(write(tmp_path, {"base": "bad.toml"})))
    assert str(info.value).startswith(str(bad)) and info.value.rule_id == "UNO-1"


# ----------------------------------------------------------------------- expect


def test_expect_tables_are_loaded_onto_the_table(tmp_path: Path) -> None:
    path = write(tmp_path, {"name": "mine", "rules": {"UNO-1": {"penalty": 1}}, "expect": [
        {"property": "penalties", "players": "2-10", "verdict": "refuted",
         "reason": "one penalty card"},
        {"property": "no-stacking", "players": "3", "verdict": "proved", "reason": "r"}]})
    table = load_rules(str(path))
    assert table.expect == (Expect("penalties", "2-10", "refuted", "one penalty card"),
                            Expect("no-stacking", "3", "proved", "r"))


# ---------------------------------------------------------------- every command

BAD = '[rules."UNO-1"]\npenalty = -1\n'


@pytest.mark.parametrize("command", [
    ["rules"], ["rules", "--markdown"], ["replay", str(RECORD)], ["simulate", "--games", "1"],
    ["verify", "--players", "2"], ["explore", "--preset", "micro"]])
@pytest.mark.parametrize("body", [
    BAD, b"\xff\xfe", '[rule."UNO-1"]\npenalty = 1\n', "base = 5\n", 'base = "v.toml"\n',
    '[rules."DECK-1"]\ncolors = [1]\n'])
def test_every_command_refuses_a_bad_file_with_one_line_and_status_2(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], command: list[str],
        body: str | bytes) -> None:
    path = write(tmp_path, body)
    assert main([*command, "--rules", str(path)]) == 2
    out = capsys.readouterr()
    lines = (out.out + out.err).strip().splitlines()
    assert len(lines) == 1, lines
    assert lines[0].startswith("error:") and str(path) in lines[0]
    assert "Traceback" not in lines[0]
    if body == BAD:
        for word in ("UNO-1", "penalty", "-1", "allowed 0 to 20"):
            assert word in lines[0]


def test_rules_shows_markup_in_a_description_as_written(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = write(tmp_path, {"name": "plain", "description": "[bold red]boom[/] [link=x]",
                            "rules": {"DECK-3": {"excluded": ["[blink]"]}}})
    assert main(["rules", "--rules", str(path)]) == 0
    out = capsys.readouterr().out
    assert "[bold red]boom[/]" in out and "[link=x]" in out and "[blink]" in out


def test_rules_says_what_a_switched_off_rulebook_entry_means(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = write(tmp_path, {"rules": {"TWO-1": {"enabled": False}}})
    assert main(["rules", "--rules", str(path), "--markdown"]) == 0
    out = capsys.readouterr().out
    assert "Switched off: A Reverse only reverses (REV-1)" in out
    assert "TWO-1.enabled = false" in out
