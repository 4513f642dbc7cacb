"""``unoformal explore``: the summary, JSON, witnesses that ``unoformal replay`` plays,
pictures, and refusing a configuration too large for memory before it starts."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from unoformal.commands.cli import main
from unoformal.verification.explore.presets import PRESETS


def test_explore_micro_prints_the_summary(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["explore", "--preset", "micro", "--no-progress"]) == 0
    out = capsys.readouterr().out
    for word in ("states 24", "edges", "round-over", "stuck states 0", "dead rules",
                 "time", "peak memory"):
        assert word in out


def test_explore_json_matches_the_pinned_size(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["explore", "--preset", "duel", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert PRESETS["duel"].measured is not None
    assert data["states"] == PRESETS["duel"].measured[0]
    assert data["complete"] and data["stuck"] == 0 and data["no_round_end"] == 0
    assert {"rule": "END-1", "branch": "challenge-sends-cards-back"}.items() <= \
        next(d for d in data["dead"] if d["branch"] == "challenge-sends-cards-back").items()


def test_explore_symmetry_halves_the_duel(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["explore", "--preset", "duel", "--symmetry", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["unreduced_states"] == PRESETS["duel"].measured[0]  # type: ignore[index]
    assert data["states"] < data["unreduced_states"]


def test_explore_witnesses_replay_from_the_command_line(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    folder = tmp_path / "w"
    assert main(["explore", "--numbers", "1,1", "--wilds", "0", "--wild-draw-fours", "0",
                 "--no-penalties", "--off", "EXT-PASS", "--witnesses", str(folder),
                 "--no-progress"]) == 0
    assert "stuck states 8" in capsys.readouterr().out
    assert main(["replay", str(folder / "stuck-0.json"), "--json"]) == 0
    state = json.loads(capsys.readouterr().out)
    assert state["round_over"] is False and state["draw_pile"] == 0


def test_explore_writes_dot(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "g.dot"
    assert main(["explore", "--preset", "micro", "--dot", str(path), "--no-progress"]) == 0
    text = path.read_text()
    assert text.startswith("digraph") and "play" in text


def test_deal_2_a_deck_too_large_is_refused_before_it_starts(
        capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["explore", "--colors", "4", "--numbers", "1,2,2,2", "--skips", "2",
                 "--players", "4", "--hand", "3"])
    assert code == 2
    err = capsys.readouterr().err
    assert "refused before starting" in err and "states" in err and "GiB" in err


def test_deck_1_bad_sizes_name_the_rule(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["explore", "--colors", "5"]) == 2
    assert "DECK-1" in capsys.readouterr().err
    assert main(["explore", "--players", "2", "--hand", "9", "--numbers", "1"]) == 2
    assert "DEAL-2" in capsys.readouterr().err


def test_explore_state_limit_prints_a_partial_summary(
        capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["explore", "--preset", "tiny", "--max-states", "600", "--no-progress"]) == 1
    out = capsys.readouterr().out
    assert "INCOMPLETE" in out and "stuck states" in out


def test_explore_png_without_graphviz_says_what_to_install(
        tmp_path: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    import shutil

    monkeypatch.setattr(shutil, "which", lambda name: None)
    code = main(["explore", "--preset", "micro", "--png", str(tmp_path / "g.png"),
                 "--no-progress"])
    assert code == 2
    assert "graphviz" in capsys.readouterr().err
    assert not (tmp_path / "g.png").exists()


@pytest.mark.parametrize(("rule", "what"), [("PLAY-1", "a rulebook rule"),
                                            ("EXT-NOPE", "no rule")])
def test_explore_off_takes_extensions_only(rule: str, what: str,
                                           capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["explore", "--preset", "micro", "--off", rule]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and f"'{rule}' is {what}, not an extension" in err
    assert "EXT-PASS, EXT-SHORT, EXT-START" in err


def test_explore_header_and_json_name_the_extensions_off(
        capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["explore", "--preset", "micro", "--no-progress", "--off", "EXT-START",
            "--off", "EXT-PASS"]
    main(argv)
    assert "with extensions off: EXT-PASS, EXT-START" in capsys.readouterr().out.splitlines()[0]
    main([*argv, "--json"])
    assert json.loads(capsys.readouterr().out)["extensions_off"] == ["EXT-PASS", "EXT-START"]
    main(["explore", "--preset", "micro", "--json"])
    assert json.loads(capsys.readouterr().out)["extensions_off"] == []


def test_explore_an_incomplete_search_says_unknown(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["explore", "--preset", "tiny", "--no-progress", "--max-states", "100"]) == 1
    out = capsys.readouterr().out
    assert "None" not in out
    assert "no round end reachable unknown  traps unknown" in out
