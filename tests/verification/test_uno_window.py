"""UNO-1's window closes when the offender's hand grows back, in the engine and in the Z3
relation alike: after an upheld challenge on the next-to-last card the offender holds five
cards again, and holds no forgotten UNO (no "uno" to say, nobody to catch)."""

from __future__ import annotations

from tests.engine.helpers import make_game, play
from unoformal.compare.successors import Successors, to_sym
from unoformal.engine.actions import Action
from unoformal.engine.game import Game
from unoformal.verification.z3.state import NONE

ABC = ("A", "B", "C")


def _bluffed() -> Game:
    """A holds R2 (the current color) and plays W+4 as the next-to-last card, without UNO;
    the pile holds exactly the four cards the offender draws if B's challenge is upheld."""
    game = make_game(ABC, "C", {"A": ["W+4", "R2"], "B": ["B1"]}, ("R5", "G1", "G2", "G3",
                                                                    "G4"), rest_to="C")
    return play(game, "A play W+4 blue")


def test_uno_1_the_engine_closes_the_window_when_the_offender_draws() -> None:
    game = _bluffed()
    assert game.state_json()["uno_pending"] == "A"  # the window is open
    play(game, "B challenge")  # upheld (CHAL-2): A draws 4
    assert len(game.hand("A")) == 5
    assert game.state_json()["uno_pending"] is None
    assert Action.parse("A uno") not in game.legal_actions()
    assert not any(a.target == "A" for a in game.legal_actions())


def test_uno_1_advice_drawn_by_the_offender_closes_it_too() -> None:
    game = play(_bluffed(), "A advise")  # ADVICE-1: A draws 2
    assert game.state_json()["uno_pending"] is None


def test_uno_1_the_relation_closes_it_too() -> None:
    game = _bluffed()
    successors = Successors(game.rules, game.n)(to_sym(game))
    upheld = [s for s in successors if sum(s.hands[0]) == 5 and s.turn == 1]
    assert upheld, "no successor where A drew the four cards"
    assert all(s.uno_window == NONE for s in upheld), [s.uno_window for s in upheld]
    # a catch of A is another successor; A's window closes there as well
    caught = [s for s in successors if sum(s.hands[0]) == 3]
    assert caught and all(s.uno_window == NONE for s in caught)
