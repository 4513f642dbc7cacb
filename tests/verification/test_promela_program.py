"""The Promela program as ``unoformal explore --promela`` prints it, and a node the
Promela reading does not know refused in one line (no Spin needed)."""

from __future__ import annotations

import pytest

from unoformal.commands.cli import main
from unoformal.language.effects import PassHands
from unoformal.language.protocols import Binding
from unoformal.verification.explore.graph import preset_config
from unoformal.verification.promela.context import Ctx, PromelaError
from unoformal.verification.promela.effects import effect


def test_explore_promela_prints_one_process(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["explore", "--promela", "micro"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("/* classic-micro: 2 players")
    assert out.count("active proctype") == 1 and "d_step" in out


def test_a_node_without_a_promela_reading_is_named() -> None:
    ctx = Ctx(preset_config("micro").rules, 2, 1)
    with pytest.raises(PromelaError, match=r"^PassHands has no Promela reading"):
        effect(ctx, (PassHands(True),), Binding(0, 1))
