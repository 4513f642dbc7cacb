"""``unoformal simulate``: deterministic whole games between bots that see only their seat."""

from __future__ import annotations

import dataclasses
import json
import os
import random
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path

import pytest

from unoformal.commands.cli import main
from unoformal.engine.actions import Action, ActionType
from unoformal.engine.game import Game, PlayerView
from unoformal.engine.record import replay, to_record
from unoformal.errors import InvalidInputError
from unoformal.playing.bots import PENALTY_ACTIONS, Bot, GreedyBot, PublicGame, RandomBot, Seat
from unoformal.playing.simulate import Config, SimulationError, play_game, play_one, simulate
from unoformal.rulebook.deck import Deck
from unoformal.rulebook.table import CLASSIC
from unoformal.rulebook.variants import derive, load_rules


def run_json(capsys: pytest.CaptureFixture[str], *args: str) -> dict[str, object]:
    assert main(["simulate", *args, "--json"]) == 0
    data: dict[str, object] = json.loads(capsys.readouterr().out)
    return data


def test_simulate_same_seed_gives_identical_json(capsys: pytest.CaptureFixture[str]) -> None:
    args = ("--games", "4", "--players", "3", "--seed", "7")
    first = run_json(capsys, *args)
    assert run_json(capsys, *args) == first
    assert run_json(capsys, "--games", "4", "--players", "3", "--seed", "8") != first


def test_simulate_one_game_replays_on_its_own() -> None:
    config = Config(games=3, players=3, seed=11)
    summary = simulate(config)
    assert [play_one(config, i) for i in range(3)] == list(summary.results)


def test_score_2_every_game_ends_with_a_player_at_the_target() -> None:
    for rules in (CLASSIC, load_rules("stacking"),
                  derive(CLASSIC, "short", "target 150", {"SCORE-2": {"score": 150}})):
        summary = simulate(Config(games=3, players=4, seed=2, rules=rules))
        for result in summary.results:
            assert max(result.scores) >= rules.target.score
            assert result.scores[result.winner] == max(result.scores)


def test_end_2_a_round_is_dealt_only_while_nobody_has_reached_the_target() -> None:
    target = 200
    rules = derive(CLASSIC, "short", "target 200", {"SCORE-2": {"score": target}})
    deals: list[int] = []

    class Counted(Game):
        def next_round(self) -> None:
            assert max(self.scores) < target
            deals.append(max(self.scores))
            super().next_round()

    game = Counted(["A", "B", "C"], seed=4, rules=rules)
    actions = play_game(game, [GreedyBot(random.Random(i)) for i in range(3)])
    assert game.game_over and max(game.scores) >= target
    assert len(deals) == game.round - 1 and actions == len(game.history)


def test_seat_win_rates_sum_to_one(capsys: pytest.CaptureFixture[str]) -> None:
    data = run_json(capsys, "--games", "6", "--players", "4", "--seed", "3")
    seats = data["seats"]
    assert isinstance(seats, list)
    assert sum(s["wins"] for s in seats) == data["games"] == 6
    assert sum(s["win_rate"] for s in seats) == pytest.approx(1.0)
    assert [s["bot"] for s in seats] == ["random", "greedy", "random", "greedy"]
    assert data["moves"] == pytest.approx(
        data["actions_per_game"]["mean"] * 6)  # type: ignore[index]


class Checked:
    """Wraps a bot: every view it could get shows only its own cards, and every
    action it picks is legal for its player and was offered."""

    def __init__(self, inner: Bot, game: Game) -> None:
        self.inner, self.game, self.name = inner, game, inner.name
        self.views = 0

    def _check_seat(self, seat: PublicGame, player: str, options: Sequence[Action]) -> None:
        assert isinstance(seat, Seat)
        legal = seat.legal_actions(player)
        assert {a.player for a in legal} <= {player}
        assert set(options) <= set(legal)
        assert not any(a.type in PENALTY_ACTIONS for a in options)
        check_view(seat.view(player), self.game, player)
        self.views += 1

    def choose(self, game: PublicGame, player: str,
               options: Sequence[Action] | None = None) -> Action:
        assert options is not None
        self._check_seat(game, player, options)
        action = self.inner.choose(game, player, options)
        assert action in game.legal_actions(player) and action in options
        return action

    def react(self, game: PublicGame, player: str,
              options: Sequence[Action]) -> Action | None:
        self._check_seat(game, player, options)
        assert {a.type for a in options} <= {ActionType.UNO, ActionType.CATCH}
        action = self.inner.react(game, player, options)
        assert action is None or action in options
        return action


def check_view(view: PlayerView, game: Game, player: str) -> None:
    """HIDDEN-1: the view holds the player's own hand, sizes only for the others, and
    another hand only for the challenger right after the challenge (CHAL-1)."""
    assert view.player == player
    assert list(view.hand) == game.hand(player)
    assert view.hand_sizes == {n: len(game.hand(n)) for n in game.names}
    if view.revealed is not None:
        last = game.history[-1]
        assert last.type is ActionType.CHALLENGE and last.player == player
    card_fields = {"hand", "revealed", "top"}
    for name, value in dataclasses.asdict(view).items():
        if name == "out":  # END-2's seats out: names, public
            assert all(n in game.names for n in value)
        elif name not in card_fields:
            assert not isinstance(value, tuple | list), name


@pytest.mark.parametrize("players", [2, 3, 4])
def test_hidden_1_bots_choose_legal_actions_from_their_own_seat(players: int) -> None:
    game = Game([f"P{i}" for i in range(players)], seed=players)
    bots: list[Checked] = [
        Checked((RandomBot if i % 2 else GreedyBot)(random.Random(i)), game)
        for i in range(players)]
    actions = play_game(game, bots)
    assert game.game_over and actions == len(game.history)
    assert all(bot.views > 0 for bot in bots)
    # every action was legal: the game's record replays to the same state
    assert replay(to_record(game)).game.to_text() == game.to_text()


def test_hidden_1_a_seat_refuses_other_players() -> None:
    game = Game(["A", "B", "C"], seed=1)
    seat = Seat(game, "A")
    for peek in (lambda: seat.view("B"), lambda: seat.legal_actions("C")):
        with pytest.raises(InvalidInputError, match="HIDDEN-1"):
            peek()
    assert {a.player for a in seat.legal_actions()} <= {"A"}
    assert not hasattr(seat, "hands") and not hasattr(seat, "pile")


def test_uno_1_greedy_bots_always_say_uno_with_the_next_to_last_card() -> None:
    game = Game(["A", "B", "C"], seed=9)
    play_game(game, [GreedyBot(random.Random(i)) for i in range(3)])
    types = {a.type for a in game.history}
    assert ActionType.CATCH not in types and ActionType.UNO not in types
    assert ActionType.PLAY in types


def test_uno_1_random_bots_forget_uno_and_the_greedy_bot_catches_them() -> None:
    catches: list[Action] = []
    for seed in range(4):
        game = Game(["A", "B"], seed=seed)
        play_game(game, [RandomBot(random.Random(seed)), GreedyBot(random.Random(seed))])
        catches += [a for a in game.history if a.type is ActionType.CATCH]
    assert catches and all(a.player == "B" and a.target == "A" for a in catches)


def deal_rest(hands: dict[str, list[str]], start: str) -> dict[str, object]:
    """A deal with these hands; the start card on top, the rest of the deck below."""
    deck = Deck.of(CLASSIC)
    rest = [deck.code(c) for c in deck.cards()]
    for card in [start, *(c for hand in hands.values() for c in hand)]:
        rest.remove(card)
    return {"hands": hands, "draw_pile": [start, *rest]}


@pytest.mark.parametrize(("offender_hand", "expected"), [
    (["W+4", "R1"], ActionType.ACCEPT),
    (["W+4", "R1", "R2", "G3", "G4", "B5"], ActionType.CHALLENGE),
])
def test_wd4_2_greedy_challenges_when_a_bluff_is_likely(offender_hand: list[str],
                                                        expected: ActionType) -> None:
    hands = {"A": offender_hand, "B": ["G1", "G2", "G3", "G6", "G7", "G8", "B1"]}
    game = Game(["A", "B"], seed=0, dealer="B", deal=deal_rest(hands, "Y5"))
    # UNO-1: said with the card, so B has nothing to catch and must answer the card
    game.apply(Action("A", ActionType.PLAY, "W+4", "blue", uno=len(offender_hand) == 2))
    choice = GreedyBot(random.Random(0)).choose(Seat(game, "B"), "B")
    assert choice == Action("B", expected)


def test_greedy_plays_the_card_worth_most_and_keeps_wilds_for_last() -> None:
    hands = {"A": ["W", "Y2", "Y+2", "R5", "G9", "G8"], "B": ["G1", "G2", "G3", "G6", "G7"]}
    game = Game(["A", "B"], seed=0, dealer="B", deal=deal_rest(hands, "Y5"))
    bot = GreedyBot(random.Random(0))
    assert bot.choose(Seat(game, "A"), "A") == Action("A", ActionType.PLAY, "Y+2")  # SCORE-1
    game.apply(Action("A", ActionType.PLAY, "Y+2"))  # TWO-1: B draws 2, A plays again
    assert bot.choose(Seat(game, "A"), "A") == Action("A", ActionType.PLAY, "Y2")
    game.apply(Action("A", ActionType.PLAY, "Y2"))
    game.apply(Action("B", ActionType.DRAW))
    game.apply(Action("B", ActionType.PASS))
    # only the Wild matches now: it names green, the color A holds most of (WILD-1)
    assert bot.choose(Seat(game, "A"), "A") == Action("A", ActionType.PLAY, "W", "green")


def test_greedy_beats_random_heads_up() -> None:
    summary = simulate(Config(games=10, players=2, seed=0, bots=("random", "greedy")))
    assert summary.wins()[1] >= 8


def test_penalties_flag_lets_bots_misplay_and_advise() -> None:
    game = Game(["A", "B", "C"], seed=3)
    bots = [RandomBot(random.Random(i)) for i in range(3)]
    play_game(game, [*bots[:2], GreedyBot(random.Random(9))], penalties=True,
              max_actions=200_000)
    assert {a.type for a in game.history} & PENALTY_ACTIONS


def test_a_bot_choosing_an_action_it_was_not_offered_is_refused() -> None:
    class Cheat(RandomBot):
        def choose(self, game: PublicGame, player: str,
                   options: Sequence[Action] | None = None) -> Action:
            return Action(player, ActionType.ADVISE)

    game = Game(["A", "B"], seed=0)
    with pytest.raises(SimulationError, match="not offered"):
        play_game(game, [Cheat(random.Random(0)), Cheat(random.Random(1))])


def test_score_2_the_action_cap_names_the_game_and_its_seed() -> None:
    config = Config(games=1, players=3, seed=6, max_actions=10)
    with pytest.raises(SimulationError, match=r"game 0 \(seed \d+\): still not over after 10"):
        simulate(config)


def stuck_deal() -> dict[str, object]:
    """Start card R5; A holds every yellow, green and blue card but the 5s (nothing
    playable), B the rest: the draw pile is empty once R5 is turned."""
    deck = Deck.of(CLASSIC)
    codes = [deck.code(c) for c in deck.cards()]
    codes.remove("R5")

    def unplayable(code: str) -> bool:
        return code[0] in "YGB" and not code.endswith("5")

    return {"hands": {"A": [c for c in codes if unplayable(c)],
                      "B": [c for c in codes if not unplayable(c)]},
            "draw_pile": ["R5"]}


@pytest.mark.parametrize("ext_pass", [True, False])
def test_ext_pass_a_player_with_nothing_to_play_or_draw(ext_pass: bool) -> None:
    rules = derive(CLASSIC, "pass", "EXT-PASS switched", {"EXT-PASS": {"enabled": ext_pass}})
    game = Game(["A", "B"], seed=0, rules=rules, dealer="B", deal=stuck_deal())
    bots = [GreedyBot(random.Random(0)), GreedyBot(random.Random(1))]
    if ext_pass:
        play_game(game, bots)
        assert str(game.history[0]) == "A pass" and game.game_over
    else:
        with pytest.raises(SimulationError, match="A has no action in phase 'play'"):
            play_game(game, bots, label="stuck game")


@pytest.mark.parametrize(("args", "message"), [
    (["--players", "1"], "DECK-2"),
    (["--players", "11"], "allow 2 to 10 players"),
    (["--rules", "no-such-rules"], "unknown rules 'no-such-rules'"),
    (["--bots", "random,clever"], "unknown bot 'clever'"),
])
def test_simulate_bad_arguments_exit_2(capsys: pytest.CaptureFixture[str], args: list[str],
                                       message: str) -> None:
    assert main(["simulate", "--games", "1", *args]) == 2
    assert message in capsys.readouterr().err


def test_deal_2_a_variant_whose_hands_do_not_fit_the_deck_exits_2(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    variant = tmp_path / "big.toml"
    variant.write_text('name = "big"\n[rules."DEAL-2"]\nhand_size = 20\n')
    assert main(["simulate", "--rules", str(variant), "--players", "6"]) == 2
    assert "DEAL-2" in capsys.readouterr().err


def test_simulate_json_is_the_same_in_another_process() -> None:
    args = [sys.executable, "-m", "unoformal", "simulate", "--games", "3", "--players",
            "3", "--seed", "9", "--penalties", "--json"]
    outs = [subprocess.run(args, capture_output=True, text=True, check=True,
                           env={**os.environ, "PYTHONHASHSEED": seed}).stdout
            for seed in ("1", "2")]
    assert outs[0] == outs[1] and json.loads(outs[0])["games"] == 3


@pytest.mark.parametrize("games", ["0", "-3", "many"])
def test_simulate_games_must_be_at_least_one(capsys: pytest.CaptureFixture[str],
                                             games: str) -> None:
    assert main(["simulate", "--games", games]) == 2
    err = capsys.readouterr().err
    assert "--games" in err and len(err.splitlines()) == 1


def test_simulate_prints_the_summary(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["simulate", "--games", "2", "--players", "2", "--seed", "1"]) == 0
    out = capsys.readouterr().out
    for text in ("moves (total actions)", "rounds:", "actions per game", "rounds per game",
                 "win rate", "greedy"):
        assert text in out
