"""Fuzz families of the newer surfaces: the referee's JSON lines, ``play``'s standard input
and options, ``conform`` over records and folders, and options naming files to write.

As in :mod:`tests.fuzz.families`, a strategy makes hostile inputs and a check returns the
outcome or fails with an AssertionError: a line not answered exactly once, an answer that
is not one JSON object, a refusal that changed the state, a session record that does not
replay clean, an exit code other than 0/1/2, a traceback, an error not on one line, a
game played but not saved."""

from __future__ import annotations

import io
import json
import os
import tempfile
from pathlib import Path
from typing import Any

from hypothesis import strategies as st

from unoformal.commands.referee import _answer
from unoformal.compare.live import Referee
from unoformal.compare.records import Tally
from unoformal.inputs import read_lines

from .families import BASE_RECORDS, HOSTILE, check_clean, hostile_text, json_values, run_cli

MINI = {"name": "mini", "base": "classic", "rules": {
    "DECK-1": {"colors": ["red", "blue"], "number_copies": [1, 1, 1], "skip_copies": 0,
               "reverse_copies": 1, "draw_two_copies": 1, "wild_copies": 1,
               "wild_draw_four_copies": 1},
    "DEAL-2": {"hand_size": 3}, "DECK-2": {"minimum": 2, "maximum": 2}}}
CARDS = ["R0", "R1", "R2", "B0", "B1", "B2", "RR", "BR", "R+2", "B+2", "W", "W+4", "B9"]
MOVES = ["draw", "pass", "accept", "challenge", "uno", "catch Bob", "catch Ann", "advise",
         *(f"play {c}" for c in CARDS), "play W red", "play W+4 blue uno", "choose_color red",
         "misplay R0", "fly"]
# Bytes that broke a line reader once: white space JSON does not count, escapes cut off.
ODD_LINES = [b"", b" ", b"\t\r", b"\x0c", b"\x0b", "\x85".encode(), "\xa0".encode(),
             "\u2028".encode(), b"\xff\xfe", b'{"cmd": "state", "id": "' + b'\\"' * 2000,
             b"[" * 50 + b"]" * 50, b'{"cmd": "state"', b"null", b"[]", b'"quit"',
             b'{"cmd": "new", "players": ["Ann", "Bob"], "seed": ' + b"9" * 4301 + b"}"]


@st.composite
def _message(draw: st.DrawFn) -> bytes:
    kind = draw(st.sampled_from(["new", "apply", "apply", "apply", "ask", "odd", "json"]))
    if kind == "new":
        message: Any = {"cmd": "new", "players": ["Ann", "Bob"],
                        "rules": draw(st.sampled_from([MINI, "classic", {**MINI,
                                                       "name": "classic"}])),
                        "seed": draw(st.one_of(st.integers(0, 50), json_values))}
    elif kind == "apply":
        message = {"cmd": "apply", "action": f"{draw(st.sampled_from(['Ann', 'Bob']))} "
                                             f"{draw(st.sampled_from(MOVES))}"}
        if draw(st.integers(0, 4)) == 0:
            key = draw(st.sampled_from(["draws", "reshuffles"]))
            message[key] = draw(st.one_of(json_values, st.just([[]]),
                                          st.just({"Ann": ["R0"]})))
    elif kind == "ask":
        message = {"cmd": draw(st.sampled_from(["state", "legal", "view", "record",
                                                "next_round", "dance"]))}
        if draw(st.booleans()):
            message[draw(st.sampled_from(["player", "penalties", "id", "zzz"]))] = \
                draw(st.one_of(st.sampled_from(["Ann", "Bob"]), json_values))
    elif kind == "odd":
        return draw(st.sampled_from(ODD_LINES))
    else:
        message = draw(json_values)
    return json.dumps(message).encode()


def referee_sessions() -> st.SearchStrategy[list[bytes]]:
    """Sessions of lines: set-ups, actions (legal or not, chance stated or not), queries,
    JSON of any shape, and lines that are empty, odd white space, cut off or not UTF-8."""
    start = json.dumps({"cmd": "new", "players": ["Ann", "Bob"], "rules": MINI}).encode()
    first = st.sampled_from([[start]] * 3 + [[]])  # most sessions have a game to play
    return st.tuples(first, st.lists(_message(), min_size=1, max_size=25)).map(
        lambda t: t[0] + t[1])


def check_referee(lines: list[bytes]) -> str:
    """Each line answered exactly once by one JSON object; a refusal leaves the state as
    it was; the session's record (the answers' chance stated) replays clean."""
    referee = Referee()
    data = b"".join(line.replace(b"\n", b" ") + b"\n" for line in lines)
    answers, state, stated = [], None, []
    for number, raw in enumerate(read_lines(io.BytesIO(data)), start=1):
        answer = _answer(referee, raw, f"line {number}")
        answers.append(json.loads(json.dumps(answer)))
        if answer["ok"] is False:
            assert answer["error"]["kind"] in ("invalid", "illegal"), answer
            assert answer.get("state") == state, f"a refusal changed the state: {answer}"
        elif answer["cmd"] == "new":
            stated = []
        elif answer["cmd"] == "apply":
            entry = dict(referee.actions[-1])
            entry.update((k, answer[k]) for k in ("draws", "reshuffles") if k in answer)
            stated.append(entry)
        state = referee.game.to_text() if referee.game is not None else None
    assert len(answers) == len(lines), "a line was not answered exactly once"
    run = run_cli(["referee"], stdin=data)  # the command itself: one line out per line in
    assert run.code == 0 and run.err == "", run.err
    assert [json.loads(line) for line in run.out.splitlines()] == answers
    if referee.game is None:
        return "no game"
    tally = Tally()
    tally.add({**referee._record({})["record"]}, "record")
    tally.add({**referee._record({})["record"], "actions": stated}, "stated")
    assert tally.clean == 2, tally.table()
    return "record replays"


@st.composite
def play_runs(draw: st.DrawFn) -> tuple[list[str], bytes]:
    """``play``'s options and standard input: move numbers (huge ones too), move texts,
    odd lines, bytes that are not UTF-8."""
    pool = {"--players": st.one_of(st.sampled_from(["2", "3", "10", "100", "0"]),
                                   hostile_text(6)),
            "--bots": st.one_of(st.sampled_from(["random", "greedy,random", ",", "", "x"]),
                                hostile_text(6)),
            "--name": st.one_of(st.sampled_from(["You", "Ada", "-", "a b"]), hostile_text(6)),
            "--rules": st.sampled_from(["classic", "stacking", "nope", "/dev/zero"]),
            "--out": st.sampled_from(["g.json", "/dev/full", "/proc/version", ".",
                                      "/sys/kernel/x.json", "x" * 300, "no/g.json"])}
    names = draw(st.lists(st.sampled_from(sorted(pool)), max_size=3, unique=True))
    argv = ["play", "--seed", str(draw(st.integers(0, 99)))]
    for name in names:
        argv += [name, draw(pool[name])]
    lines = draw(st.lists(st.one_of(
        st.integers(0, 12).map(lambda n: str(n).encode()), st.sampled_from(ODD_LINES),
        st.sampled_from(MOVES).map(str.encode), st.just(b"9" * 4301),
        hostile_text(12).map(lambda t: t.encode("utf-8", "surrogatepass"))), max_size=30))
    return argv, b"".join(line.replace(b"\n", b" ") + b"\n" for line in lines)


def check_play(argv: list[str], stdin: bytes, folder: Path) -> str:
    """Exit 0 or 2 in one line; exit 0 leaves the record where it said, and it replays."""
    with tempfile.TemporaryDirectory(dir=folder) as cwd:
        run = run_cli(argv, Path(cwd), stdin=stdin)
        outcome = check_clean(run, argv)
        assert run.code != 1, "play exits 0 or 2"
        if run.code == 0:
            saved = run.out.rsplit("the record is in ", 1)[1].split(" (replay")[0]
            record = json.loads(Path(cwd, saved).read_text(encoding="utf-8"))
            tally = Tally()
            tally.add(record, saved)
            assert tally.clean == 1, tally.table()
        return outcome


@st.composite
def conform_folders(draw: st.DrawFn) -> list[tuple[str, bytes]]:
    """The files of a folder given to ``conform``: records, spoiled records, .jsonl logs of
    records and odd lines, an empty file, files of other kinds (never read)."""
    from .families import record_bytes

    files = []
    for i in range(draw(st.integers(0, 4))):
        kind = draw(st.sampled_from(["json", "jsonl", "other"]))
        if kind == "json":
            files.append((f"r{i}.json", draw(record_bytes())))
        elif kind == "jsonl":
            lines = draw(st.lists(st.one_of(
                st.sampled_from(BASE_RECORDS).map(lambda r: json.dumps(r).encode()),
                record_bytes(), st.sampled_from(ODD_LINES)), max_size=5))
            files.append((f"l{i}.jsonl", b"\n".join(x.replace(b"\n", b" ") for x in lines)))
        else:
            files.append((f"o{i}.txt", draw(st.binary(max_size=16))))
    return files


def check_conform(files: list[tuple[str, bytes]], extra: list[str], folder: Path) -> str:
    """``conform --json`` of the folder (and of its files named one by one): exit 0 or 1,
    every record counted once as clean, deviating or malformed."""
    with tempfile.TemporaryDirectory(dir=folder) as cwd:
        for name, data in files:
            Path(cwd, name).write_bytes(data)
        os.symlink("/dev/zero", Path(cwd, "zero.jsonl"))
        argv = ["conform", "--json", cwd, *[str(Path(cwd, n)) for n, _ in files[:1]],
                *[x.replace("DIR", cwd) for x in extra]]
        run = run_cli(argv, Path(cwd))
        outcome = check_clean(run, argv)
        if run.code != 2:
            tally = json.loads(run.out)
            counted = tally["clean"] + sum(tally["deviations"].values()) + tally["malformed"]
            assert tally["games"] == counted, tally
            outcome = "clean" if run.code == 0 else "deviations or malformed"
        return outcome


def conform_options() -> st.SearchStrategy[list[str]]:
    return st.lists(st.sampled_from([
        [], ["--rules", "classic"], ["--rules", "stacking"], ["--rules", "nope"],
        ["--rules", "DIR"], ["--save", "DIR/x.jsonl"], ["--workers", "1"]]),
        max_size=1).map(lambda xs: [x for part in xs for x in part])


OUTPUTS = ["/dev/full", "/proc/version", "/sys/kernel/x.json", "x" * 300, ".", "no/x",
           "ok.out", "/dev/null", *HOSTILE[:6]]
