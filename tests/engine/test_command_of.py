"""``Game.command_of``: the command an action runs, as the refusal finds it. The referee's
answer cites a play's command, so each type of action must find its own command, a play
out of turn the card's jump-in, and a round that is over none."""

from __future__ import annotations

import random

import pytest

from unoformal.engine.actions import ActionType
from unoformal.engine.game import Game
from unoformal.rulebook.cards import Kind
from unoformal.rulebook.variants import VARIANTS, load_rules

# the command each type of action runs, by name (a pass: keeping the card drawn, or
# passing with nothing left to draw)
NAMES = {ActionType.DRAW: ("draw",), ActionType.PASS: ("keep", "pass_nothing_to_draw"),
         ActionType.ACCEPT: ("accept",), ActionType.CHALLENGE: ("challenge",),
         ActionType.UNO: ("uno",), ActionType.CATCH: ("catch",),
         ActionType.ADVISE: ("advise",), ActionType.MISPLAY: ("misplay",),
         ActionType.CHOOSE_COLOR: ("choose_color",)}


@pytest.mark.parametrize("variant", sorted(VARIANTS))
def test_every_legal_action_finds_its_own_command(variant: str) -> None:
    rules = load_rules(variant)
    rng = random.Random(5)
    seen: set[str] = set()
    for seed in range(4):
        game = Game(["A", "B", "C"], rules=rules, seed=seed)
        while not game.round_over:
            actions = game.legal_actions(penalties=True)
            for action in actions:
                command = game.command_of(action)
                assert command is not None, action
                seen.add(command.name)
                if action.type is not ActionType.PLAY:
                    assert command.name in NAMES[action.type], (action, command.name)
                    continue
                kind = game.deck.faces[game.deck.face_id(str(action.card))].kind
                own = "jump_" if action.player != game.to_play else "play_"
                assert command.name.startswith(own), (action, command.name)
                assert rules.effect(kind).id in command.cites, (action, command.cites)
            plays = [a for a in actions if a.type is ActionType.PLAY]  # rounds that end
            game.apply(rng.choice(plays if plays and rng.random() < 0.9 else actions))
        assert game.command_of(actions[0]) is None  # the round is over
    wanted = {"draw", "play_number", "play_wild_draw_four"}
    if rules.effect(Kind.WILD_DRAW_FOUR).victim_may_challenge:
        wanted.add("challenge")
    if rules.jump_in.enabled:
        wanted.add("jump_number")
    assert wanted <= seen
