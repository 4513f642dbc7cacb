"""The words naming a refusal's cause (``Game.cause_text``), pinned whole: one case per
rule that can decide the turn or phase, each a small position and the action it refuses.

Users read these sentences, so every word is observable: which rule, who played what,
whether the card was the one just drawn, who moves and whether "again".
"""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from tests.engine.helpers import NO_KEEP, afresh, make_game, play, refused
from unoformal.engine.game import Game
from unoformal.rulebook.table import CLASSIC, RuleTable
from unoformal.rulebook.variants import derive, load_rules

TWO = ("P0", "P1")
THREE = ("P0", "P1", "P2")
# TWO-1 with three players: a Reverse skips, so the turn goes on to someone else.
TWO_1_AT_THREE = derive(CLASSIC, "two-1-at-three", "", {"TWO-1": {"players": 3}})
# Challenge outcomes where both players draw (CHAL-3) and where nobody does (CHAL-2).
CHAL_DRAWS = derive(CLASSIC, "chal-draws", "", {"CHAL-3": {"offender_draws": 1},
                                                 "CHAL-2": {"offender_draws": 0}})
RLCARD = load_rules("rlcard")  # DRAW-1 must_play_drawn, WD4-1 no bluff
STACKING = load_rules("stacking")  # NOSTACK-1: a Draw Two answers a Draw Two


def _position(players: Sequence[str], hands: dict[str, list[str]], pile: list[str],
              rules: RuleTable = CLASSIC) -> Game:
    """The dealer is the last seat, so P0 moves first; the pile's first card starts."""
    return make_game(players, players[-1], hands, pile, rules=rules)


# (case, players, hands, pile, rules, actions played, refused action, rule, causes, message)
CASES = [
    ("TWO-1, the player moves again", TWO, {"P0": ["RR", "G5"], "P1": ["R2"]}, ["R7"],
     CLASSIC, ["P0 play RR"], "P1 play R2", "PLAY-1", ("TWO-1",),
     "P1 play R2: P1 is not to move: P0's Reverse acted as a Skip (TWO-1), so P0 moves "
     "again"),
    ("TWO-1 at three players, the next but one moves", THREE,
     {"P0": ["RR", "G5"], "P1": ["R2"], "P2": ["R3"]}, ["R7"], TWO_1_AT_THREE,
     ["P0 play RR"], "P1 play R2", "PLAY-1", ("TWO-1",),
     "P1 play R2: P1 is not to move: P0's Reverse acted as a Skip (TWO-1), so P2 moves"),
    ("SKIP-1", THREE, {"P0": ["RS", "G5"], "P1": ["R2"], "P2": ["R3"]}, ["R7"], CLASSIC,
     ["P0 play RS"], "P1 play R2", "PLAY-1", ("SKIP-1",),
     "P1 play R2: P1 is not to move: P0's Skip skipped P1 (SKIP-1), so P2 moves"),
    ("D2-1 from the hand", THREE, {"P0": ["R+2", "G5"], "P1": ["R2"], "P2": ["R3"]}, ["R7"],
     CLASSIC, ["P0 play R+2"], "P1 play R2", "PLAY-1", ("D2-1",),
     "P1 play R2: P1 is not to move: P0's Draw Two made P1 draw and lose the turn (D2-1), "
     "so P2 moves"),
    # D2-1 says its own words even for a drawn Draw Two (the general ones would say "drawn").
    ("D2-1, the drawn card", THREE, {"P0": ["G5", "B6"], "P1": ["R2"], "P2": ["R3"]},
     ["R7", "R+2"], CLASSIC, ["P0 draw", "P0 play R+2"], "P1 play R2", "PLAY-1", ("D2-1",),
     "P1 play R2: P1 is not to move: P0's Draw Two made P1 draw and lose the turn (D2-1), "
     "so P2 moves"),
    ("DRAW-1, another player", TWO, {"P0": ["G5"], "P1": ["R2"]}, ["R7", "B9"], CLASSIC,
     ["P0 draw"], "P1 play R2", "PLAY-1", ("DRAW-1",),
     "P1 play R2: P1 is not to move: P0 drew and may play only the drawn card or pass "
     "(DRAW-1)"),
    ("DRAW-1, a second draw", TWO, {"P0": ["G5"], "P1": ["R2"]}, ["R7", "B9"], CLASSIC,
     ["P0 draw"], "P0 draw", "DRAW-1", ("DRAW-1",),
     "P0 draw: one draw per turn: P0 drew and may play only the drawn card or pass (DRAW-1)"),
    ("DRAW-1, another card than the drawn one", TWO, {"P0": ["R5"], "P1": ["R2"]},
     ["R7", "B9"], CLASSIC, ["P0 draw"], "P0 play R5", "DRAW-1", ("DRAW-1",),
     "P0 play R5: after drawing only the drawn card may be played: P0 drew and may play "
     "only the drawn card or pass (DRAW-1)"),
    ("NOSTACK-1, a Draw Two on a Wild Draw Four", TWO, {"P0": ["W+4", "G5"], "P1": ["R+2"]},
     ["R7"], CLASSIC, ["P0 play W+4 green"], "P1 play R+2", "NOSTACK-1", ("WD4-2",),
     "P1 play R+2: the victim of a draw card cannot answer it: P0's Wild Draw Four takes "
     "effect (WD4-2)"),
    ("MISPLAY-1", TWO, {"P0": ["G5", "R1"], "P1": ["R2"]}, ["R7", "B8", "B9"], CLASSIC,
     ["P0 misplay G5"], "P0 play R1", "PLAY-1", ("MISPLAY-1",),
     "P0 play R1: P0 is not to move: P0 misplayed and lost the turn (MISPLAY-1), so P1 "
     "moves"),
    ("START-D2", THREE, {"P0": ["RS"], "P1": ["R2"], "P2": ["R3"]}, ["R+2", "G1", "G2"],
     CLASSIC, [], "P0 play RS", "PLAY-1", ("START-D2",),
     "P0 play RS: P0 is not to move: the start card Draw Two (START-D2) gives the turn to P1"),
    ("WD4-2 from the hand", TWO, {"P0": ["W+4", "G5"], "P1": ["R2"]}, ["R7"], CLASSIC,
     ["P0 play W+4 green"], "P1 play R2", "WD4-2", ("WD4-2",),
     "P1 play R2: P1 must accept or challenge: P0's Wild Draw Four takes effect (WD4-2)"),
    ("WD4-2 accepted", THREE, {"P0": ["W+4", "G5"], "P1": ["R2"], "P2": ["R3"]}, ["R7"],
     CLASSIC, ["P0 play W+4 green", "P1 accept"], "P1 play R2", "PLAY-1", ("WD4-2",),
     "P1 play R2: P1 is not to move: P0's Wild Draw Four made P1 draw and lose the turn "
     "(WD4-2), so P2 moves"),
    # An upheld challenge: the offender draws and the challenger keeps the turn.
    ("CHAL-2", THREE, {"P0": ["W+4", "R1"], "P1": ["G2"], "P2": ["G3"]}, ["R7"], CLASSIC,
     ["P0 play W+4 green", "P1 challenge"], "P0 play R1", "PLAY-1", ("CHAL-2",),
     "P0 play R1: P0 is not to move: P1 challenged P0's Wild Draw Four: P0 drew 4 (CHAL-2), "
     "so P1 moves"),
    ("CHAL-3", THREE, {"P0": ["W+4", "G5"], "P1": ["G2"], "P2": ["G3"]}, ["R7"], CLASSIC,
     ["P0 play W+4 green", "P1 challenge"], "P1 play G2", "PLAY-1", ("CHAL-3",),
     "P1 play G2: P1 is not to move: P1 challenged P0's Wild Draw Four: P1 drew 6 (CHAL-3), "
     "so P2 moves"),
    ("CHAL-3, both draw", THREE, {"P0": ["W+4", "G5"], "P1": ["G2"], "P2": ["G3"]}, ["R7"],
     CHAL_DRAWS, ["P0 play W+4 green", "P1 challenge"], "P1 play G2", "PLAY-1", ("CHAL-3",),
     "P1 play G2: P1 is not to move: P1 challenged P0's Wild Draw Four: P0 drew 1 and P1 "
     "drew 6 (CHAL-3), so P2 moves"),
    ("CHAL-2, nobody draws", THREE, {"P0": ["W+4", "R1"], "P1": ["G2"], "P2": ["G3"]},
     ["R7"], CHAL_DRAWS, ["P0 play W+4 green", "P1 challenge"], "P0 play R1", "PLAY-1",
     ("CHAL-2",), "P0 play R1: P0 is not to move: P1 challenged P0's Wild Draw Four: "
     "nobody drew (CHAL-2), so P1 moves"),
    # must_play_drawn: a playable drawn card is not the player's to keep.
    ("DRAW-1, a playable drawn card", TWO, {"P0": ["G5"], "P1": ["R2"]}, ["R7", "R9"],
     RLCARD, ["P0 draw"], "P0 pass", "DRAW-1", ("DRAW-1",),
     "P0 pass: P0 may not keep the drawn card: P0 drew R9, which can be played, so it is "
     "played at once (DRAW-1)"),
    ("DRAW-1, a drawn Wild Draw Four", TWO, {"P0": ["G5"], "P1": ["R2"]}, ["R7", "W+4"],
     RLCARD, ["P0 draw"], "P1 play R2", "PLAY-1", ("DRAW-1",),
     "P1 play R2: P1 is not to move: P0 drew W+4, which can be played, so it is played at "
     "once (DRAW-1)"),
    ("WD4-2, the drawn card", TWO, {"P0": ["G5"], "P1": ["R2"]}, ["R7", "W+4"], CLASSIC,
     ["P0 draw", "P0 play W+4 green"], "P1 draw", "WD4-2", ("WD4-2",),
     "P1 draw: P1 must accept or challenge: P0's drawn Wild Draw Four takes effect (WD4-2)"),
    # Under stacking a Draw Two waits for its victim: nobody has drawn yet, so the words
    # do not say the victim drew and lost the turn (they did, before EXT-LAST's change).
    ("D2-1, waiting under stacking", THREE, {"P0": ["R+2", "G5"], "P1": ["R2"], "P2": ["R3"]},
     ["R7"], STACKING, ["P0 play R+2"], "P1 play R2", "D2-1", ("D2-1",),
     "P1 play R2: P1 must accept or answer with a Draw Two: P0's Draw Two takes effect "
     "(D2-1)"),
    ("D2-1, stacked and accepted", THREE,
     {"P0": ["R+2", "G5"], "P1": ["B+2", "R2"], "P2": ["R3"]}, ["R7"], STACKING,
     ["P0 play R+2", "P1 play B+2", "P2 accept"], "P2 play R3", "PLAY-1", ("D2-1",),
     "P2 play R3: P2 is not to move: P1's Draw Two made P2 draw and lose the turn (D2-1), "
     "so P0 moves"),
    # EXT-LAST: a Draw Two its player went out with is drawn, not answered; the words
    # name who went out and say why (not the cause: the refusal is about that card).
    ("EXT-LAST", THREE, {"P0": ["R+2"], "P1": ["B+2", "R2"], "P2": ["R3"]}, ["R7"], STACKING,
     ["P0 play R+2"], "P1 play B+2", "EXT-LAST", (),
     "P1 play B+2: P0 went out with the card that waits, so it is not answered: P1 draws "
     "its cards (END-1)"),
]


# fresh: the same values in a table met for the first time, its commands built now (a
# table's commands are built once per process: a shipped one's long before these tests)
@pytest.mark.parametrize("fresh", [False, True], ids=["table", "fresh-table"])
@pytest.mark.parametrize(("players", "hands", "pile", "rules", "before", "action", "rule",
                          "causes", "message"),
                         [case[1:] for case in CASES], ids=[case[0] for case in CASES])
def test_a_refusal_names_its_cause_in_whole_words(
        players: Sequence[str], hands: dict[str, list[str]], pile: list[str],
        rules: RuleTable, before: list[str], action: str, rule: str,
        causes: tuple[str, ...], message: str, fresh: bool) -> None:
    if fresh:
        rules = afresh(rules)
    game = play(_position(players, hands, pile, rules), *before)
    err = refused(game, action, rule)
    assert err.causes == causes
    assert err.message == message


def test_without_a_cause_there_are_no_words() -> None:
    game = _position(TWO, {"P0": ["G5"], "P1": ["R2"]}, ["R7"])
    assert game.cause is None and game.cause_text() == ""


def test_a_state_read_from_text_has_no_cause_and_refuses_plainly() -> None:
    # Text does not carry the cause: the same refusal, without its second half.
    game = play(_position(TWO, {"P0": ["G5"], "P1": ["R2"]}, ["R7", "B9"]), "P0 draw")
    read = Game.from_text(game.to_text())
    assert read.cause is None
    err = refused(read, "P0 draw", "DRAW-1")
    assert err.causes == () and err.message == "P0 draw: one draw per turn"


# RESHUFFLE-1 without keep_top: a penalty that empties the draw pile shuffles the whole
# discard back, the draw card that set it too. The words still name that card.

# (case, P0's hand, pile, actions played, refused action, causes, message); P2 holds every
# card not named. P0's R1 makes the Wild Draw Four a bluff (CHAL-2), G5 does not (CHAL-3).
SHORT_PILE_CASES = [
    ("WD4-2 accepted", ["W+4", "G5"], ["R7", "Y1", "Y2"], ["P0 play W+4 green", "P1 accept"],
     "P1 play R2", ("WD4-2",), "P1 play R2: P1 is not to move: P0's Wild Draw Four made P1 "
     "draw and lose the turn (WD4-2), so P2 moves"),
    ("CHAL-3", ["W+4", "G5"], ["R7", "Y1", "Y2", "Y3", "Y4"],
     ["P0 play W+4 green", "P1 challenge"], "P1 play R2", ("CHAL-3",),
     "P1 play R2: P1 is not to move: P1 challenged P0's Wild Draw Four: P1 drew 6 (CHAL-3), "
     "so P2 moves"),
    ("CHAL-2", ["W+4", "R1"], ["R7", "Y1", "Y2"], ["P0 play W+4 green", "P1 challenge"],
     "P0 play R1", ("CHAL-2",), "P0 play R1: P0 is not to move: P1 challenged P0's Wild "
     "Draw Four: P0 drew 4 (CHAL-2), so P1 moves"),
    # P2's advice penalty (ADVICE-1) empties the pile while P1 has still to answer
    ("WD4-2 accepted after an advice", ["W+4", "G5"], ["R7", "Y1"],
     ["P0 play W+4 green", "P2 advise", "P1 accept"], "P1 play R2", ("WD4-2",),
     "P1 play R2: P1 is not to move: P0's Wild Draw Four made P1 draw and lose the turn "
     "(WD4-2), so P2 moves"),
]


@pytest.mark.parametrize(("hand", "pile", "before", "action", "causes", "message"),
                         [case[1:] for case in SHORT_PILE_CASES],
                         ids=[case[0] for case in SHORT_PILE_CASES])
def test_reshuffle_1_a_draw_card_shuffled_back_by_its_own_penalty_is_still_named(
        hand: list[str], pile: list[str], before: list[str], action: str,
        causes: tuple[str, ...], message: str) -> None:
    game = make_game(THREE, "P2", {"P0": hand, "P1": ["R2"]}, pile, rules=NO_KEEP,
                     rest_to="P2")
    play(game, *before)
    assert game.top is None  # the whole discard, the Wild Draw Four too, went back
    err = refused(game, action, "PLAY-1")
    assert err.causes == causes
    assert err.message == message


def test_reshuffle_1_a_state_read_from_text_names_the_pending_draw_card_by_its_kind() -> None:
    # the advice empties the discard while P1 must answer; the text carries no cause, only
    # the pending kind, and that is what the words name
    game = make_game(THREE, "P2", {"P0": ["W+4", "G5"], "P1": ["R2"]}, ["R7", "Y1"],
                     rules=NO_KEEP, rest_to="P2")
    play(game, "P0 play W+4 green", "P2 advise")
    read = Game.from_text(game.to_text(), NO_KEEP)
    assert read.phase == "respond" and read.top is None and read.cause is None
    play(read, "P1 accept")
    err = refused(read, "P1 play R2", "PLAY-1")
    assert err.message == ("P1 play R2: P1 is not to move: P0's Wild Draw Four made P1 draw "
                           "and lose the turn (WD4-2), so P2 moves")
