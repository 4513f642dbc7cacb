"""``unoformal play``: a whole game from piped stdin and through a pseudo-terminal, moves
by number or text, refusals explained with the rule, bots that say UNO and catch, and a
record saved at the end (or at quit, or at the end of input) that replays."""

from __future__ import annotations

import json
import os
import pty
import select
import subprocess
import sys
import time
from pathlib import Path

import pytest

from unoformal.commands.cli import main
from unoformal.engine.game import Game
from unoformal.engine.record import replay
from unoformal.playing.session import Table, parse, play, sit
from unoformal.rulebook.table import CLASSIC

SEED = 3  # Ada, then Bo, play first; You hold R8 Y8 YS G8 B8 W W+4 on Y5


def _run(tmp_path: Path, lines: str, *extra: str) -> tuple[subprocess.CompletedProcess[str],
                                                           Path]:
    out = tmp_path / "game.json"
    done = subprocess.run(
        [sys.executable, "-m", "unoformal", "play", "--seed", str(SEED), "--out", str(out),
         *extra], input=lines, capture_output=True, text=True, timeout=120, check=False)
    return done, out


def test_play_1_piped_moves_by_number_and_text_then_the_game_replays(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    done, out = _run(tmp_path, "play Y8\n" + "1\n" * 3000)
    assert done.returncode == 0, done.stderr
    assert "  You play Y8" in done.stdout  # typed as text, without the name
    assert "Game over:" in done.stdout and "wins (SCORE-2)" in done.stdout
    record = json.loads(out.read_text())
    assert record["seed"] == SEED and record["players"] == ["You", "Ada", "Bo"]
    assert main(["replay", str(out), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["game_over"] is True


def test_play_1_bad_lines_are_explained_with_the_rule_and_play_goes_on(
        tmp_path: Path) -> None:
    done, out = _run(tmp_path, "hello\n99\ncatch Ada\nplay R8\nAda draw\n1\nquit\n")
    assert done.returncode == 0, done.stderr
    said = [line for line in done.stdout.splitlines() if "not allowed" in line]
    assert len(said) == 5, done.stdout
    assert "unknown action 'hello'" in said[0]
    assert "no move 99: choose 1 to 11" in said[1]
    assert said[2].endswith("(breaks UNO-1); play goes on")  # Ada holds 6 cards
    assert "(breaks PLAY-1)" in said[3]  # R8 matches neither yellow nor 5
    assert "you play as You, not Ada" in said[4]  # your own moves only
    assert "  You play Y8" in done.stdout  # "1" after all that: the first listed move
    assert "Stopped; the record is in" in done.stdout
    actions = json.loads(out.read_text())["actions"]
    assert [a["player"] for a in actions] == ["Ada", "Bo", "You", "Ada", "Bo"]  # then quit
    assert actions[2] == {"player": "You", "action": "play", "card": "Y8"}


def test_play_end_of_input_saves_the_record(tmp_path: Path) -> None:
    done, out = _run(tmp_path, "")
    assert done.returncode == 0 and "Stopped" in done.stdout
    assert main(["replay", str(out)]) == 0


def test_play_refuses_bad_options_in_one_line(tmp_path: Path) -> None:
    done, _ = _run(tmp_path, "", "--players", "11")
    assert done.returncode == 2 and done.stderr.count("\n") == 1 and "DECK-2" in done.stderr
    done, _ = _run(tmp_path, "", "--bots", "clever")
    assert done.returncode == 2 and "unknown bot 'clever'" in done.stderr


def test_uno_1_bots_say_uno_and_catch_a_player_who_forgets() -> None:
    said: list[str] = []
    game = Game(["You", "Ada", "Bo"], seed=SEED)

    def forgetful(prompt: str) -> str | None:
        # Always the first listed move (a play without UNO before its UNO twin); out of
        # turn, let play go on: never says UNO late, never catches.
        return "1" if game.to_play == "You" else ""

    table: Table = sit(game, "You", ["greedy"], SEED, forgetful, said.append)
    assert play(table)
    bots = [line.strip() for line in said if line.startswith("  ") and
            line.split()[0] in ("Ada", "Bo")]
    assert any(line.endswith(" uno") for line in bots)
    assert any(line.endswith("catch You") for line in bots)
    assert not any(line.startswith("You uno") or "You catch" in line for line in said)


def test_hidden_1_the_human_sees_only_their_own_hand() -> None:
    said: list[str] = []
    game = Game(["You", "Ada", "Bo"], seed=SEED)
    table = sit(game, "You", ["greedy"], SEED, lambda prompt: None, said.append)
    assert not play(table)
    shown = "\n".join(said)
    assert f"Your hand (You): {' '.join(game.view('You').hand)}" in shown
    for other in ("Ada", "Bo"):
        assert f"Your hand ({other})" not in shown
        assert " ".join(game.view(other).hand) not in shown


def test_a_move_is_a_number_or_its_text() -> None:
    game = Game(["You", "Ada", "Bo"], seed=SEED)
    options = game.legal_actions("Ada", penalties=False)
    assert parse("1", options, "Ada") == options[0]
    assert parse(f"Ada {options[0]}".split(" ", 1)[1], options, "Ada") == options[0]


def test_play_through_a_pseudo_terminal(tmp_path: Path) -> None:
    out = tmp_path / "pty.json"
    main_fd, child_fd = pty.openpty()
    proc = subprocess.Popen(
        [sys.executable, "-m", "unoformal", "play", "--seed", str(SEED), "--out", str(out)],
        stdin=child_fd, stdout=child_fd, stderr=child_fd, close_fds=True)
    os.close(child_fd)
    try:
        seen = _read_until(main_fd, b"> ")
        assert b"Your moves:" in seen and b"Your hand (You)" in seen
        os.write(main_fd, b"2\n")  # play YS
        seen = _read_until(main_fd, b"> ")
        assert b"You play YS" in seen
        os.write(main_fd, b"quit\n")
        assert proc.wait(timeout=60) == 0
    finally:
        if proc.poll() is None:
            proc.kill()
        os.close(main_fd)
    actions = json.loads(out.read_text())["actions"]
    assert {"player": "You", "action": "play", "card": "YS"} in actions


def _read_until(fd: int, marker: bytes, timeout: float = 60.0) -> bytes:
    got = b""
    deadline = time.monotonic() + timeout
    while marker not in got.split(b"\n")[-1] or not got.endswith(marker):
        ready, _, _ = select.select([fd], [], [], max(deadline - time.monotonic(), 0))
        assert ready, f"no {marker!r} from the game; got {got[-500:]!r}"
        got += os.read(fd, 4096)
    return got


def test_uno_1_piped_a_bot_catches_the_missed_uno_and_the_penalty_is_drawn(
        tmp_path: Path) -> None:
    """Through pipes, not a terminal: the human always takes the first listed move (a
    play without UNO comes before its UNO twin) and, out of turn, presses Enter. Going
    down to one card without saying UNO, they are caught by a bot, out of its turn, and
    draw UNO-1's penalty."""
    out = tmp_path / "caught.json"
    proc = subprocess.Popen(
        [sys.executable, "-m", "unoformal", "play", "--seed", str(SEED), "--out", str(out)],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert proc.stdin is not None and proc.stdout is not None
    seen = b""
    try:
        while b"catch You" not in seen:
            chunk = _read_prompt(proc.stdout.fileno())
            seen += chunk
            out_of_turn = b"press Enter to let play go on" in chunk.split(b"Your moves:")[-1]
            proc.stdin.write(b"\n" if out_of_turn else b"1\n")
            proc.stdin.flush()
        proc.stdin.write(b"quit\n")
        proc.stdin.close()
        assert proc.wait(timeout=60) == 0
    finally:
        if proc.poll() is None:
            proc.kill()
    text = seen.decode()
    # a piped line is not echoed: what follows a prompt is on its line
    lines = [line.removeprefix("> ").strip() for line in text.splitlines()]
    catch = next(line for line in lines if line.endswith("catch You"))
    assert catch.split()[0] in ("Ada", "Bo")
    assert "You uno" not in text  # the human never said it...
    offered = text[:text.index(catch)].rsplit("Your moves:", 1)[-1]
    assert "1  uno" in offered and "press Enter" in offered  # ...though asked, out of turn
    actions = json.loads(out.read_text())["actions"]
    at = next(i for i, a in enumerate(actions) if a == {"player": catch.split()[0],
                                                         "action": "catch", "target": "You"})
    record = json.loads(out.read_text())
    before = replay({**record, "actions": actions[:at]}).game
    after = replay({**record, "actions": actions[:at + 1]}).game
    assert len(before.hand("You")) == CLASSIC.uno.cards_left
    assert len(after.hand("You")) == CLASSIC.uno.cards_left + CLASSIC.uno.penalty  # UNO-1


def _read_prompt(fd: int, timeout: float = 60.0) -> bytes:
    """Up to the next prompt; the game's end before one fails the test at once."""
    got = b""
    deadline = time.monotonic() + timeout
    while not got.endswith(b"> "):
        ready, _, _ = select.select([fd], [], [], max(deadline - time.monotonic(), 0))
        assert ready, f"no prompt from the game; got {got[-500:]!r}"
        chunk = os.read(fd, 4096)
        assert chunk, f"the game ended before a bot caught You; last: {got[-500:]!r}"
        got += chunk
    return got
