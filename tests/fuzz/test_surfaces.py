"""The hostile inputs issue 24 reported on the newer surfaces (the referee, ``play``,
``conform``, outputs that cannot be written), pinned: each refused cleanly, in one line,
or accepted and consistent."""

from __future__ import annotations

import json
import os
import resource
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from unoformal.inputs import MAX_FILE_BYTES

from .families import BASE_RECORDS, run_cli

UNOFORMAL = [sys.executable, "-m", "unoformal"]
# A hang guard, not a timing: before the depth check was linear these took hours.
HANG = 60


def _referee(data: bytes) -> list[dict[str, Any]]:
    done = subprocess.run([*UNOFORMAL, "referee"], input=data, capture_output=True,
                          timeout=HANG, check=True)
    assert done.stderr == b""
    return [json.loads(line) for line in done.stdout.splitlines()]


def test_a_line_cut_off_in_escaped_quotes_is_answered_at_once() -> None:
    line = b'{"cmd": "state", "id": "' + b'\\"' * 500_000 + b"\n"
    (answer,) = _referee(line)
    assert answer["ok"] is False and "not valid JSON" in str(answer["error"])


def test_a_record_of_escaped_quotes_is_refused_by_replay(tmp_path: Path) -> None:
    path = tmp_path / "r.json"
    path.write_bytes(b'{"players": ["' + b'\\"' * 500_000)
    run = run_cli(["replay", str(path)])
    assert run.code == 2 and "not valid JSON" in run.err and run.err.count("\n") == 1


def _capped(memory_bytes: int) -> Callable[[], None]:
    def cap() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (memory_bytes, memory_bytes))
    return cap


def test_conform_refuses_a_link_to_dev_zero_without_reading_it(tmp_path: Path) -> None:
    # Under a 400 MB address-space cap: reading the link's one endless line would end in
    # MemoryError (it did before conform read lines in bounded pieces).
    (tmp_path / "z.jsonl").symlink_to("/dev/zero")
    done = subprocess.run([*UNOFORMAL, "conform", str(tmp_path / "z.jsonl")],
                          capture_output=True, text=True, timeout=HANG,
                          preexec_fn=_capped(400 * 2**20))
    assert done.returncode == 1 and "Traceback" not in done.stderr
    assert f"malformed: {tmp_path / 'z.jsonl'}: not a regular file" in done.stdout


def test_conform_refuses_a_line_over_the_limit_and_goes_on(tmp_path: Path) -> None:
    path = tmp_path / "big.jsonl"
    record = json.dumps(BASE_RECORDS[1]).encode()
    path.write_bytes(b"x" * (MAX_FILE_BYTES + 10) + b"\n \t\r\n" + record + b"\n\x0c\n")
    tally = json.loads(run_cli(["conform", str(path), "--json"]).out)
    assert (tally["games"], tally["clean"], tally["malformed"]) == (3, 1, 2)
    assert tally["malformed_examples"][0] == f"{path}:1: a line longer than 4,194,304 bytes"
    assert tally["malformed_examples"][1].startswith(f"{path}:4: not valid JSON")


def test_every_referee_line_is_answered_once_an_empty_one_with_an_error() -> None:
    lines = [b"", b" \t\r", b"\x0c", "\x85".encode(), "\xa0".encode(), "\u2028".encode(),
             b"\xff", b'{"cmd": "quit"}']
    answers = _referee(b"\n".join(lines) + b"\n")
    assert len(answers) == len(lines) and answers[-1]["ok"] is True
    errors = [a["error"] for a in answers[:-1]]
    assert all(e["source"] == f"line {i}" for i, e in enumerate(errors, start=1))
    words = [str(e["message"]).split(":")[0] for e in errors]
    assert words == ["an empty line"] * 2 + ["not valid JSON"] * 4 + ["not UTF-8 text (byte 0)"]


def _play(argv: list[str], stdin: bytes, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([*UNOFORMAL, "play", "--seed", "3", *argv], input=stdin.decode(
        "latin-1"), capture_output=True, text=True, timeout=HANG, cwd=cwd,
        encoding="latin-1", env={**os.environ, "PYTHONIOENCODING": "utf-8"})


@pytest.mark.parametrize("out", ["/sys/kernel/x.json", "/dev/full", "/proc/version",
                                 "x" * 300 + ".json", ".", "missing/x.json"])
def test_play_refuses_an_output_it_cannot_write_before_the_game(tmp_path: Path,
                                                                  out: str) -> None:
    done = _play(["--out", out], b"1\n" * 400, tmp_path)
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.count("\n") == 1 and "argument --out" in done.stderr


@pytest.mark.parametrize(("argv", "words"), [
    (["--bots", ","], "name at least one bot"), (["--bots", ""], "name at least one bot"),
    (["--players", "100"], "--players 100: the rules 'classic' allow 2 to 10 (breaks DECK-2)")])
def test_play_refuses_bad_bots_and_player_counts_in_one_line(tmp_path: Path,
                                                             argv: list[str],
                                                             words: str) -> None:
    done = _play(argv, b"", tmp_path)
    assert done.returncode == 2 and done.stderr.count("\n") == 1 and words in done.stderr


def test_play_refuses_bytes_not_utf8_and_thousands_of_digits_and_goes_on(
        tmp_path: Path) -> None:
    done = _play([], b"9" * 4301 + b"\n\xff\xfe\n\x0c\nquit\n", tmp_path)
    assert done.returncode == 0 and done.stderr == "", done.stderr
    assert "not allowed: no move '9999" in done.stdout
    assert "not allowed: not UTF-8 text (byte 0)" in done.stdout
    assert (tmp_path / "unoformal-game-3.json").is_file()


def test_play_saves_a_record_it_cannot_write_to_a_named_fallback(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
        ) -> None:
    from unoformal.commands.play import _save
    from unoformal.engine.game import Game
    from unoformal.engine.record import replay

    monkeypatch.chdir(tmp_path)
    game = Game(["You", "Ada"], seed=3)
    assert _save(game, str(tmp_path / "gone" / "g.json"), 3) == "unoformal-game-3.json"
    err = capsys.readouterr().err
    assert err.startswith("error: cannot save the record: ") and err.count("\n") == 1
    assert "saved it to unoformal-game-3.json instead" in err
    assert replay(json.loads((tmp_path / "unoformal-game-3.json").read_text())).error is None
    (tmp_path / "unoformal-game-3.json").unlink()
    (tmp_path / "unoformal-game-3.json").mkdir()  # every place refused: printed instead
    monkeypatch.setattr("tempfile.gettempdir", lambda: str(tmp_path / "gone"))
    assert _save(game, str(tmp_path / "gone" / "g.json"), 3) is None
    shown = capsys.readouterr()
    assert "here it is on standard output" in shown.err
    assert json.loads(shown.out)["players"] == ["You", "Ada"]


def test_an_output_is_replaced_whole_or_not_at_all(tmp_path: Path) -> None:
    from unoformal.errors import InvalidInputError
    from unoformal.inputs import atomic_output

    path = tmp_path / "v.jsonl"
    path.write_text("older\n")
    with pytest.raises(InvalidInputError, match="cannot write the vectors"), \
            atomic_output(str(path), "vectors") as handle:
        handle.write("half\n")
        raise OSError(28, "No space left on device")
    assert path.read_text() == "older\n" and [p.name for p in tmp_path.iterdir()] == ["v.jsonl"]


@pytest.mark.parametrize("argv", [["vectors", "--preset", "micro", "--out", "/proc/version"],
                                  ["vectors", "--preset", "micro", "--out", "/dev/full"],
                                  ["conform", "--engine", "rlcard", "--save", "."]])
def test_outputs_that_cannot_be_written_are_refused_in_one_line(tmp_path: Path,
                                                                argv: list[str]) -> None:
    run = run_cli(argv, tmp_path)
    assert run.code == 2 and run.err.count("\n") == 1 and run.err.startswith("error: ")


@pytest.mark.parametrize("name", ["classic", "seed004", "stacking"])
def test_a_variant_of_ones_own_cannot_take_a_shipped_name(tmp_path: Path, name: str) -> None:
    from unoformal.compare.live import Referee

    mine = {"name": name, "base": "classic", "rules": {"UNO-1": {"penalty": 1}}}
    answer = Referee().handle({"cmd": "new", "players": ["Ann", "Bob"], "rules": mine})
    assert answer["ok"] is False and answer["error"]["key"] == "rules"
    assert "is a shipped variant's" in answer["error"]["message"]
    (tmp_path / "v.toml").write_text(f'name = "{name}"\n[rules."UNO-1"]\npenalty = 1\n')
    run = run_cli(["rules", "--rules", str(tmp_path / "v.toml")])
    assert run.code == 2 and "is a shipped variant's" in run.err and run.err.count("\n") == 1
    mine["name"] = f"{name}-mine"  # under its own name it plays, and its text reads back
    answer = Referee().handle({"cmd": "new", "players": ["Ann", "Bob"], "rules": mine})
    assert answer["ok"] is True and f"rules={name}-mine " in answer["state"]


MINI = {"name": "mini", "base": "classic", "rules": {
    "DECK-1": {"colors": ["red", "blue"], "number_copies": [1, 1, 1], "skip_copies": 0,
               "reverse_copies": 1, "draw_two_copies": 1, "wild_copies": 1,
               "wild_draw_four_copies": 1},
    "DEAL-2": {"hand_size": 3}, "DECK-2": {"minimum": 2, "maximum": 2}}}


def _session_record(seed: int, moves: int, deal: dict[str, Any] | None = None,
                    script: list[str] | None = None) -> dict[str, Any]:
    """A referee session that leaves chance to the referee, and the record an engine
    following it writes: the set-up sent, each action with the answer's draws and
    reshuffles."""
    import random

    from unoformal.compare.live import Referee

    referee, rng = Referee(), random.Random(seed)
    setup: dict[str, Any] = {"players": ["Ann", "Bob"], "dealer": "Bob", "rules": MINI,
                             **({"deal": deal} if deal else {"seed": seed})}
    assert referee.handle({"cmd": "new", **setup})["ok"]
    actions = []
    for step in range(moves):
        if script is not None:
            if step == len(script):
                break
            action = script[step]
        else:
            legal = referee.handle({"cmd": "legal", "penalties": False})
            if legal["game_over"] or legal["round_over"]:
                break
            action = rng.choice([a for a in legal["actions"]
                                 if a.startswith(legal["to_play"] + " ")])
        answer = referee.handle({"cmd": "apply", "action": action})
        assert answer["ok"], answer
        entry = json.loads(json.dumps(referee.actions[-1]))
        entry.update((k, answer[k]) for k in ("draws", "reshuffles") if k in answer)
        actions.append(entry)
    return {"version": 2, **setup, "actions": actions}


def test_reshuffle_1_a_record_of_the_referees_own_answers_replays_clean() -> None:
    from unoformal.compare.records import Tally

    ann = ["W+4", "R0", "R1"]
    bob = ["R2", "B0", "B1", "B2", "RR", "BR", "R+2", "B+2"]
    # The case: the pile runs out twice while Bob takes four, the second time
    # with nothing to reshuffle (the answer stated [["W"], []], which was then refused).
    records = [_session_record(0, 3, {"hands": {"Ann": ann, "Bob": bob}, "draw_pile": ["W"]},
                               ["Ann choose_color blue", "Ann play W+4 red", "Bob accept"])]
    records += [_session_record(seed, 80) for seed in range(40)]
    tally = Tally()
    for i, record in enumerate(records):
        tally.add(record, f"session {i}")
    assert sum("reshuffles" in a for r in records for a in r["actions"]) >= 10
    assert tally.clean == tally.games == len(records), tally.table()
    assert records[0]["actions"][-1]["reshuffles"] == [["W"]]


def test_a_malformed_actions_error_line_names_the_action() -> None:
    from unoformal.engine.actions import Action, ActionType
    from unoformal.engine.game import Game
    from unoformal.errors import InvalidInputError

    game = Game(["Ann", "Bob"], seed=1)
    for action, line in ((Action("Ann", ActionType.PLAY, "Q7"), "card: Ann play Q7: unknown"),
                         (Action("Zed", ActionType.DRAW), "Zed draw: unknown player 'Zed'")):
        with pytest.raises(InvalidInputError) as caught:
            game.apply(action)
        assert caught.value.line().startswith(line) and str(caught.value).startswith(line)
    long = Action("Ann", ActionType.PLAY, "x" * 200)
    with pytest.raises(InvalidInputError) as caught:
        game.apply(long)
    assert f"card: {str(long)[:77]}...: unknown card code" in caught.value.line()


def test_json_of_more_arrays_and_objects_than_the_limit_is_refused_before_parsing() -> None:
    from unoformal.errors import InvalidInputError
    from unoformal.inputs import MAX_JSON_CONTAINERS, parse_json

    at_limit = "[" + "[]," * (MAX_JSON_CONTAINERS - 1) + "1]"
    assert len(parse_json(at_limit, "line 1")) == MAX_JSON_CONTAINERS
    with pytest.raises(InvalidInputError, match=f"JSON of {MAX_JSON_CONTAINERS + 1:,} "
                                                f"arrays and objects: at most"):
        parse_json(at_limit.replace("[", "[{},", 1), "line 1")


def test_an_atomic_output_has_the_usual_mode_and_takes_a_long_name(tmp_path: Path) -> None:
    from unoformal.inputs import write_text

    path = tmp_path / ("n" * 250)
    mask = os.umask(0o022)
    try:
        write_text(str(path), "x\n", "record")
    finally:
        os.umask(mask)
    assert path.read_text() == "x\n" and path.stat().st_mode & 0o777 == 0o644
