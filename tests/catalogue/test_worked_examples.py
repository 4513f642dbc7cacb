"""The catalogue's new commands checked against worked examples from each rule's own
words, not against the commands: a state in the engine's text, a move in the action
text, and what the wording says happens. A wrong change in a rule file (a condition
left out, a kind of card named wrongly) is caught here, where ``validate`` cannot see
it: the engine and the relation are built from the same changed commands (a bug
planted in each of the four files below fails these tests: see
``test_a_wrong_file_is_caught``)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from pathlib import Path

import pytest

from unoformal.engine.actions import Action
from unoformal.engine.game import Game
from unoformal.errors import IllegalActionError
from unoformal.rulebook.deck import Deck
from unoformal.rulebook.table import RuleTable
from unoformal.rulebook.variants import load_rules, load_toml

CATALOGUE = Path(__file__).resolve().parents[2] / "unoformal" / "catalogue"


def _state(rules: RuleTable, hands: str, discard: str, *, phase: str = "play",
           pending: int = 0, kind: str = "-", offender: str = "-", turn: str = "A",
           color: str = "red", drawn: str = "-") -> Game:
    """A two-player position: A to move with ``hands`` (A's/B's), ``discard`` (its top
    last); every other card of the deck in the draw pile."""
    deck = Deck.of(rules)
    rest = Counter(deck.code(f) for f in deck.cards())
    rest.subtract(c for part in (*hands.split("/"), discard) for c in part.split(","))
    pile = ",".join(sorted(rest.elements()))
    text = (f"rules={rules.name} players=A,B dealer=B round=1 turn={turn} dir=left "
            f"color={color} phase={phase} hands={hands} pile={pile} "
            f"discard={discard} scores=0,0 uno=- drawn={drawn} pending={pending} "
            f"kind={kind} offender={offender} legal=1 prev=- reveal=- winner=- points=0 "
            "seed=0 shuffles=0")
    return Game.from_text(text, rules)


PLANTED: dict[str, RuleTable] = {}  # a catalogue name's table, as a test plants a bug


def rules_of(name: str) -> RuleTable:
    return PLANTED.get(name) or load_rules(name)


def _allowed(game: Game, move: str) -> bool:
    try:
        game.copy().apply(Action.parse(move))
    except IllegalActionError:
        return False
    return True


def _refused_under(game: Game, move: str) -> str:
    with pytest.raises(IllegalActionError) as err:
        game.copy().apply(Action.parse(move))
    return str(err.value.rule_id)


# --- no-wild-last: "A player cannot go out with a Wild or a Wild Draw Four"

def test_no_wild_last_a_last_wild_is_refused_under_the_house_rule() -> None:
    rules = rules_of("no-wild-last")
    game = _state(rules, "W/B5,B6", "R3")
    assert _refused_under(game, "A play W blue") == "HOUSE-NO-WILD-LAST"
    assert not _allowed(_state(rules, "W+4/B5,B6", "R3"), "A play W+4 blue")


def test_no_wild_last_a_wild_with_a_card_left_and_a_last_number_are_played() -> None:
    rules = rules_of("no-wild-last")
    assert _allowed(_state(rules, "W,R5/B5,B6", "R3"), "A play W blue")
    assert _allowed(_state(rules, "R5/B5,B6", "R3"), "A play R5")
    assert _allowed(_state(rules, "RS/B5,B6", "R3"), "A play RS")


# --- no-action-last: "their last card played is a number"; letsuno's reading: no Draw
# Two or Wild Draw Four last

def test_no_action_last_only_a_number_goes_out_and_letsuno_bars_draw_cards_only() -> None:
    actions = load_rules("no-action-last")
    assert _refused_under(_state(actions, "RS/B5,B6", "R3"), "A play RS") == \
        "HOUSE-NO-ACTION-LAST"
    assert not _allowed(_state(actions, "W/B5,B6", "R3"), "A play W red")
    assert _allowed(_state(actions, "R5/B5,B6", "R3"), "A play R5")
    draws = load_rules("no-action-last@draw-cards")
    assert _allowed(_state(draws, "RS/B5,B6", "R3"), "A play RS")
    assert _allowed(_state(draws, "W/B5,B6", "R3"), "A play W red")
    assert _refused_under(_state(draws, "R+2/B5,B6", "R3"), "A play R+2") == \
        "HOUSE-NO-DRAW-LAST"


# --- progressive: "a Draw Two by a Draw Two, a Wild Draw Four by a Wild Draw Four"

def _waiting(rules: RuleTable, hand: str, kind: str) -> Game:
    """A (the victim) to answer B's draw card of ``kind`` (B played it)."""
    top, count = ("R+2", 2) if kind == "+2" else ("W+4", 4)
    return _state(rules, f"{hand}/B5,B6,B7", f"R1,{top}", phase="respond", pending=count,
                  kind=kind, offender="B")


def test_progressive_answers_a_draw_card_only_with_its_own_kind() -> None:
    rules = rules_of("progressive")
    assert _allowed(_waiting(rules, "B+2,R7", "+2"), "A play B+2")
    assert _allowed(_waiting(rules, "W+4,R7", "W+4"), "A play W+4 red")
    assert _refused_under(_waiting(rules, "W+4,R7", "+2"), "A play W+4 red") == \
        "HOUSE-PROGRESSIVE"
    assert _refused_under(_waiting(rules, "R+2,R7", "W+4"), "A play R+2") == \
        "HOUSE-PROGRESSIVE"


def test_progressive_the_penalty_grows_and_passes_on() -> None:
    game = _waiting(rules_of("progressive"), "B+2,R7", "+2")
    game.apply(Action.parse("A play B+2"))
    assert (game.to_play, game.pending, game.pending_kind.value if game.pending_kind
            else None) == ("B", 4, "+2")


# --- stack-mixed@up: "A Draw Two never answers a Wild Draw Four; a Wild Draw Four may
# answer a Draw Two"

def test_stack_up_the_larger_card_on_the_smaller_only() -> None:
    rules = rules_of("stack-mixed@up")
    assert _allowed(_waiting(rules, "W+4,R7", "+2"), "A play W+4 red")
    assert _refused_under(_waiting(rules, "R+2,R7", "W+4"), "A play R+2") == \
        "HOUSE-STACK-UP"
    both = load_rules("stack-mixed")
    assert _allowed(_waiting(both, "R+2,R7", "W+4"), "A play R+2")


# --- play-after-draw: "the player may play any card in hand that can be played"

def test_play_after_draw_any_playable_card_after_drawing() -> None:
    rules = load_rules("play-after-draw")
    game = _state(rules, "R5,G9,B2/B5,B6", "R3", phase="drawn", drawn="G9")
    assert _allowed(game, "A play R5")
    classic = load_rules("classic")
    assert not _allowed(_state(classic, "R5,G9,B2/B5,B6", "R3", phase="drawn",
                               drawn="G9"), "A play R5")


# --- hand-limit: "A player who holds 15 cards or more may not draw on their turn ... Such
# a player who cannot play passes"

_FIFTEEN = "B0,B1,B2,B4,B5,B6,B7,B8,B9,G0,G1,G2,G4,G5,G6"  # nothing plays on R3


def test_hand_limit_no_draw_at_the_limit_and_a_pass_instead() -> None:
    rules = rules_of("hand-limit")
    full = _state(rules, f"{_FIFTEEN}/B5,B6", "R3")
    assert _refused_under(full, "A draw") == "HOUSE-HAND-LIMIT"
    assert _allowed(full, "A pass")
    below = _state(rules, f"{_FIFTEEN[3:]}/B5,B6", "R3")  # 14 cards
    assert _allowed(below, "A draw") and not _allowed(below, "A pass")


def test_hand_limit_a_player_at_the_limit_who_can_play_must_play() -> None:
    game = _state(rules_of("hand-limit"), f"{_FIFTEEN},R7/B5,B6", "R3")
    assert not _allowed(game, "A pass") and not _allowed(game, "A draw")
    assert _allowed(game, "A play R7")


@pytest.mark.parametrize(("file", "name", "old", "new", "test"), [
    # the kind of card named wrongly: a last Wild Draw Four is let through
    ("no-wild-last.toml", "no-wild-last", "card(wild, wild_draw_four)", "card(wild)",
     test_no_wild_last_a_last_wild_is_refused_under_the_house_rule),
    # one of the two clauses left out: a Draw Two answers a Wild Draw Four
    ("progressive.toml", "progressive",
     "not (pending-in(wild_draw_four) and card(draw_two)) and ", "",
     test_progressive_answers_a_draw_card_only_with_its_own_kind),
    # the direction turned round
    ("stack-up.toml", "stack-mixed@up", "pending-in(wild_draw_four) and card(draw_two)",
     "pending-in(draw_two) and card(wild_draw_four)",
     test_stack_up_the_larger_card_on_the_smaller_only),
    # the pass's "cannot play" left out: a player at the limit passes holding a card
    ("hand-limit.toml", "hand-limit", " and can-play(false)", "",
     test_hand_limit_a_player_at_the_limit_who_can_play_must_play),
])
def test_a_wrong_file_is_caught(file: str, name: str, old: str, new: str,
                                test: Callable[[], None], tmp_path: Path) -> None:
    """A bug planted in each of four new commands' files fails its worked example (and
    the shipped file passes it, above)."""
    text = (CATALOGUE / file).read_text("utf-8")
    assert old in text
    planted = tmp_path / file
    planted.write_text(text.replace(old, new), "utf-8")
    PLANTED[name] = load_toml(planted)
    try:
        with pytest.raises((AssertionError, pytest.fail.Exception)):
            test()
    finally:
        del PLANTED[name]


# --- wild-excuses: "Holding another wild card ... makes it legal whatever else is held, so
# a challenge of it fails"

def _challenged(rules: RuleTable, hand: str) -> Game:
    """B played a Wild Draw Four on R3 (red current) from ``hand`` + W+4; A to answer."""
    game = _state(rules, f"B5,B6/{hand},W+4", "R3", turn="B")
    game.apply(Action.parse("B play W+4 blue"))
    return game


def test_wild_excuses_a_challenge_of_a_bluff_held_with_a_wild_fails() -> None:
    rules = rules_of("wild-excuses")
    for other in ("W", "W+4"):  # a Wild or another Wild Draw Four
        excused = _challenged(rules, f"R7,{other}")
        excused.apply(Action.parse("A challenge"))
        assert len(excused.hands[0]) == 2 + 6, other  # the challenger draws 6 (CHAL-3)
    bluff = _challenged(rules, "R7,G2")
    bluff.apply(Action.parse("A challenge"))
    assert len(bluff.hands[1]) == 2 + 4  # no wild held: the bluff is caught (CHAL-2)
    classic = _challenged(load_rules("classic"), "R7,W")
    classic.apply(Action.parse("A challenge"))
    assert len(classic.hands[1]) == 2 + 4


# --- last-draw-card-ends with stacking: "a last Draw Two ends the round at once: nobody
# draws for it", also when it answers one that waits

def test_a_round_a_last_answer_ends_leaves_nothing_pending() -> None:
    """Going out with a Draw Two that answers one ends the round at once; the Draw Two
    that waited is nobody's now, so the state holds nothing pending (the invariant's
    'nothing pending outside a respond phase'), and its text reads back as it is."""
    rules = load_rules("stack-draw-two+last-draw-card-ends")
    game = _waiting(rules, "B+2", "+2")
    game.apply(Action.parse("A play B+2"))
    assert (game.phase, game.pending, game.pending_kind, game.offender) == \
        ("over", 0, None, None)
    assert " pending=0 kind=- offender=- " in game.to_text()
    assert Game.from_text(game.to_text(), rules).to_text() == game.to_text()


# --- party (seven-o@next with jump-in): "A 7 played swaps its player's hand with the hand
# of the next player"; "a player holding a card identical to the top may play it out of
# turn ... as if it had been their turn"

def test_party_a_seven_jumped_in_swaps_with_the_jumpers_next_player() -> None:
    """The engine listed no jump that names a seat under SEVEN-O's next reading: it asked
    the jump with no seat named first, and "the next player only" holds for none (the
    relation allowed it: validate found it on party)."""
    rules = load_rules("party")
    deck = Deck.of(rules)
    hands = "R5,B2/G1,G2/R7,B9"
    rest = Counter(deck.code(f) for f in deck.cards())
    rest.subtract(c for part in (*hands.split("/"), "R3", "R7") for c in part.split(","))
    game = Game.from_text(
        f"rules={rules.name} players=A,B,C dealer=C round=1 turn=A dir=left color=red "
        f"phase=play hands={hands} pile={','.join(sorted(rest.elements()))} discard=R3,R7 "
        "scores=0,0,0 uno=- drawn=- pending=0 kind=- offender=- legal=1 prev=- reveal=- "
        "winner=- points=0 seed=0 shuffles=0", rules)
    listed = [str(a) for a in game.legal_actions("C")]
    assert "C play R7 A" in listed and "C play R7 B" not in listed
    assert _allowed(game, "C play R7 A")
