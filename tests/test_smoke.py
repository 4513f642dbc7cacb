"""Whole games play to the end under the classic rules, and the state text round-trips."""

import importlib
import random
import subprocess
import sys

import pytest

from unoformal import ActionType, Game


def test_deck_1_whole_games_keep_108_cards_and_round_trip() -> None:
    rng = random.Random(0)
    for seed in range(3):
        game = Game(["A", "B", "C"], seed=seed)
        while not game.game_over:
            if game.round_over:
                game.next_round()
            moves = [a for a in game.legal_actions()
                     if a.type not in (ActionType.ADVISE, ActionType.MISPLAY)]
            game.apply(rng.choice(moves))
            assert sum(map(len, game.hands)) + len(game.pile) + len(game.discard) == 108
        text = game.to_text()
        assert Game.from_text(text).to_text() == text
        assert max(game.scores) >= 500


def test_the_package_exports_what_it_lists_and_loads_it_on_first_use() -> None:
    """``import unoformal`` loads nothing else (so the command handles Ctrl-C from its
    first line); each listed name then resolves to its home module's object."""
    code = ("import sys, unoformal; "
            "print(sorted(m for m in sys.modules if m.startswith('unoformal.')))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          check=True)
    assert done.stdout.strip() == "[]"
    import unoformal

    for name in unoformal.__all__:
        value = getattr(unoformal, name)
        home = importlib.import_module(unoformal._MODULE_OF[name])
        assert value is getattr(home, name)
    assert sorted(unoformal.__all__) == sorted(unoformal._MODULE_OF)
    with pytest.raises(AttributeError, match="no attribute 'Gmae'"):
        unoformal.Gmae  # noqa: B018
