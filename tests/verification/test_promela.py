"""Spin as the independent count: the Promela program of a preset, generated from the same
commands the engine runs, holds exactly the states the explorer finds (Spin's extra
states are its initial one, before the deal, and one per deal before its start card is
turned), and a wrong reading of one effect makes the counts differ. Skipped where Spin or
gcc is not installed (Debian: ``spin``, ``gcc``; ``.ci/run`` installs them)."""

from __future__ import annotations

from pathlib import Path

import pytest

from unoformal.language.effects import PassTurn
from unoformal.verification.explore.graph import explore, preset_config
from unoformal.verification.promela import effects
from unoformal.verification.promela.context import PromelaError
from unoformal.verification.promela.model import program
from unoformal.verification.promela.spin import count, missing

pytestmark = pytest.mark.skipif(missing() is not None, reason=str(missing()))


def spin_states(name: str, workdir: Path) -> int:
    """Spin's count of the preset's states, less its initial state and its dealt states
    (before the start card is turned), which the explorer does not hold."""
    model = program(preset_config(name))
    return model.explorer_states(count(model.text, workdir).states)


@pytest.mark.parametrize("name", ["micro", "duel"])
def test_spin_counts_the_explorers_states(name: str, tmp_path: Path) -> None:
    assert spin_states(name, tmp_path) == explore(preset_config(name)).states


def test_a_wrong_effect_changes_the_count(tmp_path: Path,
                                          monkeypatch: pytest.MonkeyPatch) -> None:
    """Planted: the turn passes one seat too far (to the actor again, with two players).
    The count can fail: the programs agree only when the readings do."""
    right = explore(preset_config("micro")).states

    def too_far(ctx: object, node: PassTurn, b: object) -> list[str]:
        return [f"turn = {ctx.next_seat(b.actor, node.steps + 1)}"]  # type: ignore[attr-defined]

    monkeypatch.setitem(effects._READINGS, PassTurn, too_far)  # type: ignore[arg-type]
    assert spin_states("micro", tmp_path) != right


def test_a_search_stopped_at_an_error_is_no_count(tmp_path: Path) -> None:
    """pan stops at its first error, its count then of part of the graph: refused."""
    broken = ("byte a[2]; byte i;\nactive proctype p() {\nend: do\n"
              "  :: d_step { i < 5 -> a[i] = 1; i = i + 1 }\n  od\n}\n")
    with pytest.raises(PromelaError, match=r"^pan stopped at an error: .*invalid array index"):
        count(broken, tmp_path)
