"""Whole games play to the end under the classic rules, and the state text round-trips."""

import random

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
