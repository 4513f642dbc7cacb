"""``unoformal simulate --plot``: win rates with confidence intervals and round lengths."""

from __future__ import annotations

import math
import sys
from pathlib import Path

import pytest

from unoformal.commands.cli import main
from unoformal.playing.plots import wilson
from unoformal.playing.simulate import Config, simulate


def _roots(wins: int, games: int, z: float = 1.959964) -> tuple[float, float]:
    """The Wilson interval another way: the p with |p - wins/games| = z sqrt(p(1-p)/games),
    the roots of a quadratic."""
    phat = wins / games
    a, b, c = 1 + z * z / games, -(2 * phat + z * z / games), phat * phat
    root = math.sqrt(b * b - 4 * a * c)
    return (-b - root) / (2 * a), (-b + root) / (2 * a)


@pytest.mark.parametrize(("wins", "games"), [(52, 100), (0, 10), (10, 10), (1, 3), (7, 400)])
def test_wilson_interval_is_the_roots_of_its_quadratic(wins: int, games: int) -> None:
    assert wilson(wins, games) == pytest.approx(_roots(wins, games), abs=1e-9)


def test_wilson_interval_matches_a_published_value() -> None:
    # 52 of 100: 0.4232 to 0.6154 (as statsmodels' proportion_confint, method="wilson").
    assert wilson(52, 100) == pytest.approx((0.4232, 0.6154), abs=1e-4)


def test_round_lengths_add_up_to_the_games_actions() -> None:
    summary = simulate(Config(games=5, players=3, seed=2))
    for result in summary.results:
        assert len(result.round_lengths) == result.rounds
        assert sum(result.round_lengths) == result.actions
        assert all(n > 0 for n in result.round_lengths)


@pytest.mark.parametrize("suffix", ["png", "svg"])
def test_score_2_simulate_plot_writes_the_picture(tmp_path: Path, suffix: str,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / f"sim.{suffix}"
    assert main(["simulate", "--games", "20", "--players", "3", "--seed", "1",
                 "--plot", str(path)]) == 0
    assert f"wrote {path}" in capsys.readouterr().out
    data = path.read_bytes()
    assert data.startswith(b"\x89PNG") if suffix == "png" else b"<svg" in data[:2000]
    if suffix == "svg":  # the picture shows what it claims
        text = data.decode()
        assert "games won by seat" in text and "round lengths" in text


def test_simulate_plot_refuses_a_bad_name_before_playing(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["simulate", "--games", "20", "--plot", str(tmp_path / "sim.gif")]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and ".png, .svg, .pdf" in err


def test_simulate_plot_without_matplotlib_says_how_to_get_it(
        tmp_path: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "matplotlib.figure", None)  # import fails
    assert main(["simulate", "--games", "1", "--players", "2",
                 "--plot", str(tmp_path / "s.png")]) == 2
    assert "pip install 'unoformal[plot]'" in capsys.readouterr().err
