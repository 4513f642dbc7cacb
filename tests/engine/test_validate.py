"""The engine step by step against the relation compiled from the table
(:mod:`unoformal.verification.validate`), on short full-deck games: every legal set, refusal
and successor the engine gives must be the relation's. A short run, so it is part of the
default suite and of the mutation score's killing suite; ``unoformal validate`` runs long.
"""

from __future__ import annotations

import pytest

from unoformal.spec.table import CLASSIC
from unoformal.verification.validate.run import validate

STEPS = 300


@pytest.mark.parametrize("players", [2, 4])
def test_play_1_the_engine_matches_the_relation_on_full_deck_games(players: int) -> None:
    report = validate(CLASSIC, players=(players,), steps=STEPS, seed=0)
    assert report.steps >= STEPS
    assert not report.mismatches, [m.to_json() for m in report.mismatches[:3]]
