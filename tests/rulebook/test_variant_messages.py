"""Variant files refused with exact words: what was wrong, where, and what is expected.

The engine mutation score (``benchmarks/mutation.py``) showed these messages could change
without a test noticing; each test pins one whole message.
"""

from __future__ import annotations

import errno
import json
from pathlib import Path

import pytest

from unoformal.errors import VariantError
from unoformal.rulebook.variants import MAX_BASES, MAX_BYTES, load_rules

EXPECTED = "expected a .toml variant file"


def message(name: object) -> str:
    with pytest.raises(VariantError) as info:
        load_rules(name)
    return info.value.message


def test_deck_1_a_folder_a_device_and_a_missing_file_are_each_named(tmp_path: Path) -> None:
    assert message(str(tmp_path)) == f"{tmp_path}: a directory: {EXPECTED}"
    assert message("/dev/null") == f"/dev/null: not a regular file: {EXPECTED}"
    missing = tmp_path / "none.toml"
    assert message(str(missing)) == f"{missing}: no such file: {EXPECTED}"


def test_deck_1_a_path_with_a_control_character_is_shown_quoted(tmp_path: Path) -> None:
    odd = tmp_path / "a\tb.toml"
    quoted = json.dumps(str(odd))
    assert "\\t" in quoted and message(str(odd)) == f"{quoted}: no such file: {EXPECTED}"


def test_deck_1_a_name_the_system_cannot_look_up_is_an_unknown_variant() -> None:
    name = "x" * 300  # too long a file name: looking it up fails, so it is not a file
    assert message(name) == (f"unknown rules {name!r}: expected a shipped variant (classic, "
                             "seed004, winner-deals, stacking, rlcard, seven-o, jump-in), a "
                             "house rule or preset of the catalogue (unoformal house-rules "
                             "lists them), several joined by '+', or the path of a .toml "
                             "variant file")


def test_deck_1_a_file_of_exactly_the_size_limit_is_read(tmp_path: Path) -> None:
    body = 'name = "big"\n'
    path = tmp_path / "big.toml"
    path.write_text(body + "#" * (MAX_BYTES - len(body) - 1) + "\n")
    assert path.stat().st_size == MAX_BYTES
    assert load_rules(str(path)).name == "big"
    path.write_text(body + "#" * (MAX_BYTES - len(body)) + "\n")
    assert message(str(path)) == f"{path}: larger than {MAX_BYTES} bytes: not a variant file"


def test_deck_1_a_huge_file_is_refused_having_read_past_the_limit_only(tmp_path: Path) -> None:
    # A sparse file of a tebibyte costs no disk: reading it whole would ask for a tebibyte
    # of memory (MemoryError), reading past the limit only refuses it in words.
    path = tmp_path / "huge.toml"
    with path.open("wb") as file:
        file.truncate(2**40)
    assert message(str(path)) == f"{path}: larger than {MAX_BYTES} bytes: not a variant file"


def test_deck_1_a_file_that_cannot_be_read_says_why(tmp_path: Path,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "locked.toml"
    path.write_text('name = "locked"\n')

    def denied(*args: object, **kwargs: object) -> None:
        raise PermissionError(errno.EACCES, "Permission denied")

    monkeypatch.setattr("os.open", denied)  # as unoformal.inputs.open_input opens
    assert message(str(path)) == f"{path}: cannot read: Permission denied"


def test_deck_1_a_base_that_is_neither_shipped_nor_a_toml_file_is_named(tmp_path: Path) -> None:
    path = tmp_path / "v.toml"
    path.write_text('base = "mine.txt"\n')
    assert message(str(path)) == (
        f'{path}: base = "mine.txt": expected one of classic, seed004, winner-deals, '
        "stacking, rlcard, seven-o, jump-in, or a .toml file relative to this one's folder")


def test_deck_1_a_chain_of_bases_longer_than_the_limit_is_refused(tmp_path: Path) -> None:
    for i in range(MAX_BASES + 1):
        (tmp_path / f"v{i}.toml").write_text(f'base = "v{i + 1}.toml"\n')
    (tmp_path / f"v{MAX_BASES + 1}.toml").write_text("")
    last = tmp_path / f"v{MAX_BASES - 1}.toml"
    assert message(str(tmp_path / "v0.toml")) == (
        f'{last}: base = "v{MAX_BASES}.toml": more than {MAX_BASES} files in the chain '
        "of bases")


def test_deck_1_switching_off_a_rule_that_cannot_be_names_those_that_can(
        tmp_path: Path) -> None:
    path = tmp_path / "v.toml"
    path.write_text('[rules."PLAY-1"]\nenabled = false\n')
    assert message(str(path)) == (
        f"{path}: rules.PLAY-1.enabled: PLAY-1 cannot be switched off (only START-D2, "
        "START-SKIP, START-REV, TWO-1, ADVICE-1, UNO-1, EXT-PASS, EXT-SHORT, EXT-START, "
        "EXT-LAST, SEVEN-O, JUMP-IN, SEVERAL, MERCY can)")
