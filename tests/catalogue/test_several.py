"""several-of-a-number, checked against worked examples from its own words and its
property in its own numbers, not against its commands: "A player who plays a number card
and still holds a number card of the same number keeps the turn: they may play one of
those cards, of any color ..., or pass to end the turn. They may not draw then."
(SEVERAL)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator

import pytest

from unoformal.engine import game as game_module
from unoformal.engine.actions import Action
from unoformal.engine.game import Game
from unoformal.errors import IllegalActionError, InvalidInputError
from unoformal.language.effects import When
from unoformal.rulebook.deck import Deck
from unoformal.rulebook.table import RuleTable
from unoformal.rulebook.variants import derive, load_rules
from unoformal.rules import effects as rule_effects
from unoformal.rules import play as rule_play
from unoformal.verification.z3 import prover
from unoformal.verification.z3.properties import property_named
from unoformal.verification.z3.prover import check_suite


def _state(rules: RuleTable, hands: str, top: str = "R1", phase: str = "play") -> Game:
    """A (to move) with ``hands`` A's/B's/C's, red current, ``top`` on R3."""
    deck = Deck.of(rules)
    rest = Counter(deck.code(f) for f in deck.cards())
    rest.subtract(c for part in (*hands.split("/"), "R3", top) for c in part.split(","))
    text = (f"rules={rules.name} players=A,B,C dealer=B round=1 turn=A dir=left "
            f"color=red phase={phase} hands={hands} pile={','.join(sorted(rest.elements()))} "
            f"discard=R3,{top} scores=0,0,0 uno=- drawn=- pending=0 kind=- offender=- "
            "legal=1 prev=- reveal=- winner=- points=0 seed=0 shuffles=0")
    return Game.from_text(text, rules)


def _moves(game: Game) -> list[str]:
    return [str(a) for a in game.legal_actions("A", penalties=False)]


def _refused(game: Game, move: str) -> str:
    with pytest.raises(IllegalActionError) as err:
        game.copy().apply(Action.parse(move))
    return str(err.value.rule_id)


HAND = "R5,B5,G5,R7,Y2/B6,B7/G1,G2"


def test_a_number_keeps_the_turn_while_another_of_its_number_is_held() -> None:
    g = _state(load_rules("several-of-a-number"), HAND)
    g.apply(Action.parse("A play R5"))
    assert (g.to_play, g.phase) == ("A", "more")
    assert _moves(g) == ["A play G5", "A play B5", "A pass"]  # any color, or a pass
    g.apply(Action.parse("A play B5"))
    assert (g.to_play, g.phase, g.color) == ("A", "more", 3)  # the last card's color


def test_only_that_number_follows_and_no_draw() -> None:
    g = _state(load_rules("several-of-a-number"), HAND)
    g.apply(Action.parse("A play R5"))
    assert _refused(g, "A play R7") == "SEVERAL"  # matches the color, not the number
    assert _refused(g, "A draw") == "SEVERAL"


def test_the_last_of_the_number_or_a_pass_ends_the_turn() -> None:
    g = _state(load_rules("several-of-a-number"), HAND)
    for move in ("A play R5", "A play B5", "A play G5"):
        g.apply(Action.parse(move))
    assert (g.to_play, g.phase) == ("B", "play")
    g = _state(load_rules("several-of-a-number"), HAND)
    g.apply(Action.parse("A play R5"))
    g.apply(Action.parse("A pass"))
    assert (g.to_play, g.phase) == ("B", "play")


def test_any_playable_lets_a_matching_card_follow() -> None:
    g = _state(load_rules("several-of-a-number@any-playable"), HAND)
    g.apply(Action.parse("A play R5"))
    assert "A play R7" in _moves(g) and "A play Y2" not in _moves(g)
    g.apply(Action.parse("A play R7"))
    assert (g.to_play, g.phase) == ("B", "play")  # no other 7 held


def _exchange(reading: str) -> RuleTable:
    """several-of-a-number with Seven-O (7 swaps with a chosen player), SEVERAL's
    exchange value as given."""
    both = load_rules("several-of-a-number+seven-o")
    return derive(both, f"several-seven-o-{reading}", "SEVERAL with SEVEN-O",
                  {"SEVERAL": {"exchange": reading}})


SWAPPED = "R7,Y2,G4/B7,G7,B6/G1,G2"  # B's hand, swapped for A's, holds another 7


def test_read_after_the_swapped_in_hand_decides_whether_the_turn_stays() -> None:
    """letsuno's reading, the default: the 7 swaps, and the hand A then holds has a 7."""
    for table in (load_rules("several-of-a-number+seven-o"), _exchange("after")):
        g = _state(table, SWAPPED)
        g.apply(Action.parse("A play R7 B"))
        assert (g.to_play, g.phase) == ("A", "more")
        assert sorted(g.hand("A")) == ["B6", "B7", "G7"]
        assert {"A play B7 C", "A play G7 C", "A pass"} <= set(_moves(g))


def test_read_ends_turn_an_exchange_card_is_the_last_card_of_the_turn() -> None:
    """"The last card played takes effect": the exchange is the 7's effect, so the turn
    passes after it, whatever the hand A is given holds."""
    g = _state(_exchange("ends-turn"), SWAPPED)
    g.apply(Action.parse("A play R7 B"))
    assert (g.to_play, g.phase) == ("B", "play")
    assert sorted(g.hand("A")) == ["B6", "B7", "G7"]
    # a number card that exchanges nothing keeps the turn as before
    g = _state(_exchange("ends-turn"), "R5,B5,Y2/B6,B7/G1,G2")
    g.apply(Action.parse("A play R5"))
    assert (g.to_play, g.phase) == ("A", "more")


@pytest.mark.parametrize("reading", ["after", "ends-turn"])
def test_the_pairs_seven_o_property_follows_the_reading(reading: str) -> None:
    """The matrix's pair finding is a reading: read after, SEVERAL keeps the turn after a
    swap and SEVEN-O's property ("the turn then passes on") is refuted; read ends-turn,
    it is proved. SEVERAL's own property holds under both."""
    table = _exchange(reading)
    seven_o, several = check_suite(table, (property_named("seven-o"),
                                           property_named("several")), (3,))
    assert seven_o.verdict == ("refuted" if reading == "after" else "proved")
    assert several.verdict == "proved"


def test_classic_plays_one_card_and_has_no_more_phase() -> None:
    classic = load_rules("classic")
    g = _state(classic, HAND)
    g.apply(Action.parse("A play R5"))
    assert (g.to_play, g.phase) == ("B", "play")
    with pytest.raises(InvalidInputError) as err:
        _state(classic, HAND, phase="more")
    assert err.value.rule_id == "SEVERAL"


@pytest.fixture
def never_keeps(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """A bug planted in the command: the turn never stays (the When's ways swapped)."""
    real = rule_effects._more

    def planted(table: RuleTable, moved: tuple[object, ...]) -> object:
        w = real(table, moved)  # type: ignore[arg-type]
        assert isinstance(w, When)
        return When(w.cond, w.otherwise, w.then, w.labels, w.part, w.covers)

    def forget() -> None:  # every cache of the commands built from the table
        rule_play.plays.cache_clear()
        game_module._LOOKUPS.clear()
        prover._setup.cache_clear()

    monkeypatch.setattr(rule_effects, "_more", planted)
    forget()
    yield
    monkeypatch.undo()
    forget()


def test_a_planted_wrong_effect_fails_the_example_and_the_property(
        never_keeps: None) -> None:
    with pytest.raises(AssertionError):
        test_a_number_keeps_the_turn_while_another_of_its_number_is_held()
    (result,) = check_suite(load_rules("several-of-a-number"), (property_named("several"),),
                            (3,))
    assert result.verdict == "refuted"
