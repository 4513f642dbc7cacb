"""Pictures of a simulation (``unoformal simulate --plot FILE``), drawn with matplotlib:
each seat's win rate with its 95 % confidence interval, and how many actions a round
takes. matplotlib is an optional extra (``pip install 'unoformal[plot]'``), imported
only here, only when a picture is asked for.
"""

from __future__ import annotations

import math
from pathlib import Path
from typing import TYPE_CHECKING

from unoformal.errors import InvalidInputError
from unoformal.inputs import atomic_path
from unoformal.playing.simulate import Summary

if TYPE_CHECKING:
    from matplotlib.axes import Axes

FORMATS = ("png", "svg", "pdf")
Z95 = 1.959964  # the normal quantile of a two-sided 95 % interval


def wilson(wins: int, games: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a proportion: unlike the normal approximation it
    stays within [0, 1] and is sound for few games or a rate near 0 or 1. (Five lines;
    statsmodels' ``proportion_confint`` computes the same, at the cost of a heavy
    dependency.)"""
    if games <= 0:
        return 0.0, 1.0
    p = wins / games
    centre = (p + z * z / (2 * games)) / (1 + z * z / games)
    spread = math.sqrt(p * (1 - p) / games + z * z / (4 * games * games))
    half = z * spread / (1 + z * z / games)
    return max(0.0, centre - half), min(1.0, centre + half)


def check_path(path: str) -> None:
    """Refuse a file name matplotlib cannot write, before any game is played."""
    suffix = Path(path).suffix.lower().lstrip(".")
    if suffix not in FORMATS:
        raise InvalidInputError(f"--plot {path}: the name must end in "
                                f"{', '.join('.' + f for f in FORMATS)}")


def plot(summary: Summary, path: str) -> None:
    """Write the two pictures side by side to ``path`` (its suffix picks the format)."""
    check_path(path)
    try:
        from matplotlib.figure import Figure
    except ImportError:
        raise InvalidInputError("--plot needs matplotlib: pip install 'unoformal[plot]'") \
            from None
    figure = Figure(figsize=(10, 4), layout="constrained")
    left, right = figure.subplots(1, 2)
    _win_rates(left, summary)
    _round_lengths(right, summary)
    c = summary.config
    figure.suptitle(f"{len(summary.results)} games, {c.players} players, rules {c.rules.name}, "
                    f"seed {c.seed}")
    # No date in the file: the same run gives the same picture.
    metadata = {"Software": None} if path.endswith(".png") else {"Date": None}
    with atomic_path(path, "plot") as temporary:
        figure.savefig(temporary, metadata=metadata, format=path.rsplit(".", 1)[-1])


def _win_rates(ax: Axes, summary: Summary) -> None:
    games = len(summary.results)
    wins = summary.wins()
    names = [f"{name}\n{bot}" for name, bot in zip(summary.config.names(),
                                                   summary.config.seat_bots(), strict=True)]
    rates = [w / games for w in wins]
    low = [r - wilson(w, games)[0] for r, w in zip(rates, wins, strict=True)]
    high = [wilson(w, games)[1] - r for r, w in zip(rates, wins, strict=True)]
    ax.bar(names, rates, yerr=[low, high], capsize=6, color="tab:blue")
    ax.axhline(1 / summary.config.players, color="grey", linestyle="--", label="equal chances")
    ax.set_ylabel("win rate (95 % Wilson interval)")
    ax.set_ylim(0, 1)
    ax.set_title("games won by seat (SCORE-2)")
    ax.legend()


def _round_lengths(ax: Axes, summary: Summary) -> None:
    lengths = [n for r in summary.results for n in r.round_lengths]
    bins = min(40, max(5, len(lengths) // 10))
    ax.hist(lengths, bins=bins, color="tab:orange")
    ax.set_xlabel("actions in the round")
    ax.set_ylabel("rounds")
    ax.set_title(f"round lengths ({len(lengths)} rounds)")
