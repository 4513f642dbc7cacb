"""Each chance node is named by the rule that calls for it (docs/api.md, "Chance is a
player"): the start card's nodes and the next deal's, now that they are commands, name
START-WD4, START-D2, START-WILD and DEAL-2 as the hand-written code did."""

from __future__ import annotations

import pytest

from tests.engine.helpers import afresh, full_deal, play
from tests.reference.engine_v1 import game as frozen_game
from unoformal.engine import game as live_game
from unoformal.engine.game import Chance, Game
from unoformal.rulebook.table import CLASSIC, RuleTable
from unoformal.rulebook.variants import load_rules


class Noted(Chance):
    """The seeded chance player, noting each node and the rule it is asked under."""

    def __init__(self) -> None:
        self.nodes: list[tuple[str, str]] = []

    def shuffle(self, game: Game, cards: list[int], rule: str) -> None:
        self.nodes.append(("shuffle", rule))
        super().shuffle(game, cards, rule)

    def turn_again(self, game: Game, pile: list[int], rule: str) -> None:
        self.nodes.append(("turn_again", rule))
        super().turn_again(game, pile, rule)

    def draw(self, game: Game, seat: int, rule: str) -> int:
        self.nodes.append(("draw", rule))
        return super().draw(game, seat, rule)

    def color(self, game: Game, rule: str) -> int:
        self.nodes.append(("color", rule))
        return super().color(game, rule)


def _dealt(pile: list[str], rules: RuleTable = CLASSIC) -> tuple[Game, Noted]:
    noted = Noted()
    deal = full_deal({"A": ["R1"], "B": ["B1"]}, pile, rules=rules)
    return Game(["A", "B", "C"], rules=rules, dealer="C", deal=deal, chance=noted), noted


@pytest.mark.parametrize(("pile", "variant", "node"), [
    (["W+4", "R5"], "classic", ("turn_again", "START-WD4")),  # back in the pile
    (["G+2"], "classic", ("draw", "START-D2")),  # the first player draws
    (["W"], "rlcard", ("color", "START-WILD")),  # the color drawn at random
])
@pytest.mark.parametrize("fresh", [False, True])
def test_start_the_start_card_s_chance_nodes_name_its_rule(
        pile: list[str], variant: str, node: tuple[str, str], fresh: bool) -> None:
    # fresh: the same values in a table met for the first time, its commands built now
    # (a shipped table's are built once per process)
    rules = load_rules(variant)
    if fresh:
        rules = afresh(rules)
    _, noted = _dealt(pile, rules)
    assert node in noted.nodes, noted.nodes


def test_end_2_the_next_deal_shuffles_under_deal_2() -> None:
    game, noted = _dealt(["R5"])
    play(game, "A play R1")  # A goes out
    noted.nodes.clear()
    game.next_round()
    assert noted.nodes[0] == ("shuffle", "DEAL-2")


def test_start_wild_a_color_drawn_at_random_takes_the_next_seeded_stream() -> None:
    """Under ``rlcard`` a start Wild's color is drawn at random (START-WILD), from the
    seeded stream after the deal's: every later shuffle (a reshuffle, the next deal) then
    comes from the stream after it, as in the frozen hand-written engine, so seeded games
    replay as before."""
    rules = load_rules("rlcard")
    names = ["A", "B", "C"]
    seed = next(s for s in range(500) if any(
        rule == "START-WILD" for rule, _ in Game(names, seed=s, rules=rules).started))
    live, frozen = (module.Game(names, seed=seed, rules=rules)
                    for module in (live_game, frozen_game))
    assert live.to_text() == frozen.to_text()
    while not live.round_over:  # the first play, else the first move on turn
        moves = live.legal_actions(live.to_play, penalties=False)
        action = next((a for a in moves if a.card is not None), moves[0])
        live.apply(action)
        frozen.apply(action)
    live.next_round()
    frozen.next_round()
    assert live.to_text() == frozen.to_text()
