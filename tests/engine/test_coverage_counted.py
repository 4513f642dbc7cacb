"""Coverage counted as a move runs (``Game.ran``): the labels are the commands' own, the
engine counts only while asked, and a label costs nothing in play (the commands the
engine runs uncounted hold none)."""

from __future__ import annotations

from tests.engine.helpers import make_game, pile_runs_out, play
from unoformal.engine.game import Game
from unoformal.language.commands import Command
from unoformal.language.effects import Effect, Shows, Sorts, When

ABC = ["A", "B", "C"]


def _counted(game: Game, action: str) -> list[tuple[str, str]]:
    game.ran = []
    play(game, action)
    ran, game.ran = game.ran, None
    return ran


def _nodes(command: Command) -> list[Effect]:
    steps = command.steps()
    return [node for step in steps for node in step.walk()]


def test_play_1_a_play_counts_its_match_and_what_the_card_did() -> None:
    game = make_game(ABC, "C", {"A": ["R1", "G5", "RS"], "B": ["B1"]}, ("R5",))
    assert _counted(game, "A play G5") == [("PLAY-1", "by-number"), ("PLAY-1", "number")]
    game = make_game(ABC, "C", {"A": ["R1", "G5", "RS"], "B": ["B1"]}, ("R5",))
    assert _counted(game, "A play RS") == [("PLAY-1", "by-color"), ("SKIP-1", "skip")]


def test_uno_1_the_turn_after_a_missed_uno_counts_the_window_closing() -> None:
    game = make_game(ABC, "C", {"A": ["R1", "R2"], "B": ["B1", "R3"]}, ("R5",))
    play(game, "A play R1")  # next-to-last card, no UNO: A's window opens
    assert ("UNO-1", "window-closes") in _counted(game, "B play R3")


def test_reshuffle_1_the_engine_s_draw_counts_a_reshuffle() -> None:
    game = pile_runs_out()
    ran: list[tuple[str, str]] = []
    game.ran = ran
    while ("RESHUFFLE-1", "reshuffle") not in ran and not game.round_over:
        action = next(a for a in game.legal_actions() if a.type.value == "draw") \
            if any(a.type.value == "draw" for a in game.legal_actions()) \
            else game.legal_actions()[0]
        game.apply(action)
    assert ("RESHUFFLE-1", "reshuffle") in ran


def test_play_1_nothing_is_counted_unless_asked_and_a_copy_starts_uncounted() -> None:
    game = make_game(ABC, "C", {"A": ["R1", "G5"], "B": ["B1"]}, ("R5",))
    play(game, "A play G5")
    assert game.ran is None
    game.ran = []
    assert game.copy().ran is None


def test_play_1_the_commands_run_uncounted_hold_no_label_and_the_counted_ones_do() -> None:
    game = Game(ABC, seed=3)
    t = game.t
    assert t.counted is not None
    plain = [*t.play, *t.turn.all(), *t.responses.__dict__.values(),
             *t.out_of_turn.__dict__.values()]
    full = [*t.counted.play, *t.counted.turn.all()]
    assert not any(isinstance(n, (Shows, Sorts)) for c in plain for n in _nodes(c))
    assert any(isinstance(n, (Shows, Sorts)) for c in full for n in _nodes(c))
    # a When keeps its labels (one test of a field), so both keep the same branches
    assert [type(n) for c in plain for n in _nodes(c) if isinstance(n, When)] == \
        [type(n) for c in [*t.counted.play, *t.counted.turn.all(),
                           *t.counted.responses.__dict__.values(),
                           *t.counted.out_of_turn.__dict__.values()]
         for n in _nodes(c) if isinstance(n, When)]
