"""Every hostile input the boundary issue reported, pinned: each is refused with one
``InvalidInputError`` (exit 2 and one line naming the place on the command line)."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from unoformal.engine.actions import Action, ActionType
from unoformal.engine.game import Game
from unoformal.errors import InvalidInputError

from .families import BASE_RECORDS, run_cli

RECORD = json.dumps(BASE_RECORDS[1])


def _record_with(**fields: Any) -> bytes:
    return json.dumps({**BASE_RECORDS[1], **fields}).encode()


RECORD_FILES: dict[str, tuple[bytes, str]] = {
    "non-UTF-8 bytes": (b'{"players": ["\xff"]}', "not UTF-8"),
    "JSON nested 1,000 deep": (b"[" * 1000 + b"]" * 1000, "nested 1,000 deep"),
    "a seed of 4,301 digits": (b'{"seed": ' + b"9" * 4301 + b"}", "digits"),
    "a seed of 2**63": (_record_with(seed=2**63), "seed"),
    "rules given as 5": (_record_with(rules=5), "rules"),
    "rules given as a list": (_record_with(rules=["classic"]), "rules"),
    "rules given as an object": (_record_with(rules={"a": 1}), "rules"),
    "rules given as true": (_record_with(rules=True), "rules"),
    "a name with NBSP": (_record_with(players=["A\xa0B", "C"]), "players"),
    "a card code in lower case": (_record_with(actions=[{"player": "Ann", "action": "play",
                                                         "card": "w+4", "color": "red"}]),
                                  "actions[0].card"),
}


@pytest.mark.parametrize("case", sorted(RECORD_FILES))
def test_deck_1_a_reported_record_file_is_refused_in_one_line(tmp_path: Path,
                                                              case: str) -> None:
    data, words = RECORD_FILES[case]
    path = tmp_path / "r.json"
    path.write_bytes(data)
    run = run_cli(["replay", str(path)])
    assert run.code == 2 and run.err.count("\n") == 1
    assert run.err.startswith(f"error: {path}: ") and words in run.err


def test_deck_1_replay_refuses_a_directory_and_dev_zero(tmp_path: Path) -> None:
    (tmp_path / "dir.toml").mkdir()
    (tmp_path / "r.json").write_bytes(_record_with(rules=str(tmp_path / "dir.toml")))
    for argv, words in ((["replay", "/dev/zero"], "not a regular file (a character device)"),
                        (["replay", str(tmp_path)], "directory"),
                        (["replay", str(tmp_path / "r.json")], "not a regular file")):
        run = run_cli(argv)
        assert run.code == 2 and words in run.err and run.err.count("\n") == 1


def test_play_1_a_refused_record_action_fills_index_and_rule_in_json(tmp_path: Path) -> None:
    path = tmp_path / "r.json"
    path.write_bytes(_record_with(actions=[{"player": "Ann", "action": "fly"}]))
    out = json.loads(run_cli(["replay", str(path), "--json"]).out)["error"]
    assert out["index"] == 0 and out["key"] == "actions[0].action"


@pytest.mark.parametrize("argv", [
    ["explore", "--memory-budget", "nan"], ["explore", "--memory-budget", "inf"],
    ["explore", "--memory-budget", "1e300"], ["explore", "--max-states", "-1"],
    ["explore", "--dot", "/nonexistent/x.dot"], ["explore", "--dot", "/"],
    ["explore", "--picture", "/nonexistent/x.svg"], ["explore", "--picture", "x.jpg"],
    ["explore", "--picture", "/"],
    ["explore", "--witnesses", "/dev/null/x"], ["verify", "--jobs", "-1"],
    ["verify", "--players", "2-1000000000"], ["verify", "--timeout", "0"],
    ["simulate", "--seed", "-1"], ["simulate", "--seed", "1.5"], ["simulate", "--games", "0"],
    ["simulate", "--players", "1000000000000"], ["simulate", "--bots", "x" * 3000],
])
def test_cli_a_reported_option_is_refused_in_one_line(argv: list[str]) -> None:
    run = run_cli(argv)
    assert run.code == 2 and run.err.count("\n") == 1 and argv[1] in run.err


def test_deck_2_a_variant_without_player_counts_is_refused_by_every_command(
        tmp_path: Path) -> None:
    toml = tmp_path / "none.toml"
    toml.write_text('name = "none"\nbase = "classic"\n[rules."DECK-2"]\nmaximum = 0\n')
    for command in ("explore", "verify", "simulate"):
        run = run_cli([command, "--rules", str(toml)])
        assert run.code == 2 and "DECK-2" in run.err and run.err.count("\n") == 1


def test_deck_2_variant_bases_in_a_cycle_are_refused(tmp_path: Path) -> None:
    toml = tmp_path / "loop.toml"
    toml.write_text(f'name = "loop"\nbase = "{toml}"\n')
    run = run_cli(["rules", "--rules", str(toml)])
    assert run.code == 2 and "cycle" in run.err


def _play(card: Any) -> Callable[[], object]:
    return lambda: Game(["A", "B"]).apply(Action("A", ActionType.PLAY, card))


API: dict[str, Callable[[], object]] = {
    "Game('AB')": lambda: Game("AB"),
    "Game(None)": lambda: Game(None),  # type: ignore[arg-type]
    "a float seed": lambda: Game(["A", "B"], seed=1.5),  # type: ignore[arg-type]
    "a string seed": lambda: Game(["A", "B"], seed="1"),  # type: ignore[arg-type]
    "a NaN seed": lambda: Game(["A", "B"], seed=float("nan")),  # type: ignore[arg-type]
    "a bool seed": lambda: Game(["A", "B"], seed=True),
    "a name '-'": lambda: Game(["-", "B"]),
    "a name with \\r": lambda: Game(["A\rB", "C"]),
    "a name with NEL": lambda: Game(["A\x85", "C"]),
    "a name with U+2028": lambda: Game(["A\u2028", "C"]),
    "Action.parse(None)": lambda: Action.parse(None),  # type: ignore[arg-type]
    "Game.from_text(None)": lambda: Game.from_text(None),  # type: ignore[arg-type]
    "from_text of an unknown kind": lambda: Game.from_text(
        Game(["A", "B"]).to_text().replace("kind=-", "kind=zz")),
    "from_text of an unknown variant": lambda: Game.from_text(
        Game(["A", "B"]).to_text().replace("rules=classic", "rules=nonesuch")),
    "apply() of a card 5": _play(5),
    "apply() of a card list": _play(["R1"]),
    "a code 'b7'": lambda: Action.parse("A play b7"),
    "a code ' W+4\\t'": lambda: Action.from_json({"player": "A", "action": "play",
                                                  "card": " W+4\t", "color": "red"}),
    "a code 'R٣'": lambda: Action.parse("A play R\u0663"),
    "a code 'R³'": lambda: Action.parse("A play R\u00b3"),
}


@pytest.mark.parametrize("case", sorted(API))
def test_deck_1_a_reported_api_call_raises_invalid_input(case: str) -> None:
    with pytest.raises(InvalidInputError) as info:
        API[case]()
    assert "invalid literal" not in info.value.line() and "\n" not in info.value.line()


def test_every_file_output_is_written_whole_or_not_at_all(tmp_path: Path) -> None:
    # The writers that take a file name (matplotlib, graphviz) get a temporary name beside
    # the file, renamed over it once done: a writer that fails leaves the older file whole
    # and no temporary behind.
    from unoformal.inputs import atomic_path, write_text

    older = tmp_path / "picture.png"
    older.write_bytes(b"older")
    with pytest.raises(RuntimeError), atomic_path(str(older), "picture") as temporary:
        assert temporary.endswith(".png") and Path(temporary).parent == tmp_path
        Path(temporary).write_bytes(b"half")
        raise RuntimeError("the writer failed part-way")
    assert older.read_bytes() == b"older" and sorted(tmp_path.iterdir()) == [older]
    with atomic_path(str(older), "picture") as temporary:
        Path(temporary).write_bytes(b"newer")
    assert older.read_bytes() == b"newer" and sorted(tmp_path.iterdir()) == [older]
    write_text(str(tmp_path / "a.dot"), "digraph {}", "DOT file")
    assert (tmp_path / "a.dot").read_text() == "digraph {}"
