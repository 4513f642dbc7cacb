"""``unoformal show`` on the command line: bad input in one line (exit 2), the output
path checked before any work, written atomically, byte-identical for the same input, the
data embedded inertly under a Content-Security-Policy that allows only the page's own
script and style, and ``--as`` leaving the other hands out of the file itself."""

from __future__ import annotations

import base64
import hashlib
import json
import os
import re
import stat
from pathlib import Path
from typing import Any

import pytest

from unoformal.commands.cli import main
from unoformal.show.page import embed, render

from .helpers import SEED002, page_data, write_page


def _run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str]:
    code = main(["show", *argv])
    err = capsys.readouterr().err
    return code, err


@pytest.mark.parametrize(("make", "words"), [
    (lambda d: d / "missing.json", "cannot read the input"),
    (lambda d: _file(d, "x.json", "{not json"), "x.json"),
    (lambda d: _file(d, "list.json", "[1, 2]"), "not a game record"),
    (lambda d: _file(d, "obj.json", '{"hello": 1}'), "not a game record"),
    (lambda d: d, "not a validate mismatch"),
    (lambda d: _file(d, "bad.json", '{"players": ["A", "B"], "actions": 3}'),
     "actions: 3 is not of type"),
])
def test_bad_input_is_one_line_and_exit_2(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                          make: Any, words: str) -> None:
    source = make(tmp_path)
    code, err = _run(capsys, str(source), "--out", str(tmp_path / "p.html"))
    assert code == 2
    assert err.startswith("error: ") and err.count("\n") == 1 and words in err, err
    assert str(source.name) in err or str(source) in err
    assert not (tmp_path / "p.html").exists()


def _file(folder: Path, name: str, text: str) -> Path:
    path = folder / name
    path.write_text(text)
    return path


def test_an_output_that_is_a_folder_or_a_device_is_refused_first(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, err = _run(capsys, str(SEED002), "--out", str(tmp_path))
    assert code == 2 and "is a directory" in err
    code, err = _run(capsys, "--preset", "micro", "--out", str(tmp_path / "no" / "p.html"))
    assert code == 2 and "no directory" in err
    code, err = _run(capsys, str(SEED002), "--preset", "micro")
    assert code == 2 and "not both" in err


def test_an_output_that_is_a_pipe_is_refused_and_left_alone(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    fifo = tmp_path / "p.html"
    os.mkfifo(fifo)
    code, err = _run(capsys, str(SEED002), "--out", str(fifo))
    assert code == 2 and "not a regular file" in err
    assert stat.S_ISFIFO(os.stat(fifo).st_mode)


def test_the_default_name_is_the_inputs_beside_the_working_folder(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.chdir(tmp_path)
    assert main(["show", str(SEED002)]) == 0
    assert (tmp_path / "seed002_whole_game.html").is_file()
    assert [p.name for p in tmp_path.iterdir()] == ["seed002_whole_game.html"]  # no temp


def test_the_same_input_gives_the_same_bytes(tmp_path: Path) -> None:
    one = write_page(tmp_path, str(SEED002), name="one.html").read_bytes()
    two = write_page(tmp_path, str(SEED002), name="two.html").read_bytes()
    assert one == two


def test_the_same_preset_gives_the_same_graph_page(tmp_path: Path) -> None:
    one = write_page(tmp_path, "--preset", "micro", name="one.html").read_bytes()
    two = write_page(tmp_path, "--preset", "micro", name="two.html").read_bytes()
    assert one == two


def test_open_hands_the_page_to_the_browser(tmp_path: Path,
                                            monkeypatch: pytest.MonkeyPatch) -> None:
    opened: list[str] = []
    monkeypatch.setattr("webbrowser.open", lambda url: opened.append(url) or True)
    page = tmp_path / "p.html"
    assert main(["show", str(SEED002), "--out", str(page), "--open"]) == 0
    assert opened == [page.resolve().as_uri()]


def test_embedded_data_cannot_close_its_script_element() -> None:
    hostile = {"meta": "</script><script>alert(1)</script>&amp;\u2028<!--"}
    text = embed(hostile)
    assert "<" not in text and ">" not in text and "&" not in text
    assert "\u2028" not in text
    assert json.loads(text) == hostile


def test_the_policy_allows_exactly_the_pages_own_script_and_style() -> None:
    page = render({"title": "t", "steps": []})
    policy = re.search(r'http-equiv="Content-Security-Policy" content="([^"]+)"', page)
    assert policy is not None
    scripts = re.findall(r"<script>(.*?)</script>", page, re.S)
    styles = re.findall(r"<style>(.*?)</style>", page, re.S)
    assert len(scripts) == 1 and len(styles) == 1

    def sha(text: str) -> str:
        return base64.b64encode(hashlib.sha256(text.encode()).digest()).decode()

    assert f"script-src 'sha256-{sha(scripts[0])}';" in policy.group(1)
    assert f"style-src 'sha256-{sha(styles[0])}';" in policy.group(1)
    assert "default-src 'none'" in policy.group(1)
    assert "unsafe" not in policy.group(1)
    assert "http" not in page.replace('http-equiv', '').replace("http://www.w3.org", "")


def test_as_a_player_leaves_the_other_hands_out_of_the_file(tmp_path: Path) -> None:
    page = write_page(tmp_path, str(SEED002), "--as", "Bo")
    data = page_data(page)
    for step in data["steps"]:
        hands = step["state"]["hands"]
        assert all(set(h) == {"?"} for n, h in hands.items() if n != "Bo" and h)
        assert step["reveal"] is None  # CHAL-1's look was You's, not Bo's
    assert '"Ada":["RS"' not in page.read_text()  # the dealt hand, as JSON writes it
    whole = write_page(tmp_path, str(SEED002), name="whole.html")
    assert page_data(whole)["steps"][0]["state"]["hands"]["Ada"][0] == "RS"


def test_as_someone_not_playing_is_refused(tmp_path: Path,
                                           capsys: pytest.CaptureFixture[str]) -> None:
    code, err = _run(capsys, str(SEED002), "--as", "Zed", "--out", str(tmp_path / "p.html"))
    assert code == 2 and "not a player" in err and "HIDDEN-1" in err


def test_as_a_player_of_a_graph_is_refused(tmp_path: Path,
                                           capsys: pytest.CaptureFixture[str]) -> None:
    # Its states carry every hand: a seat's view of it would still hold the others'.
    code, err = _run(capsys, "--preset", "micro", "--as", "Ann",
                     "--out", str(tmp_path / "p.html"))
    assert code == 2 and "a graph page shows whole states" in err
    assert not (tmp_path / "p.html").exists()
