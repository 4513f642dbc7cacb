"""deflect, checked against worked examples from its own words and its property in its
own numbers, not against its commands: "A Skip or a Reverse of the current color played
by the victim of a waiting Draw Two passes it on, its 2 cards unchanged: a Skip to the
next player, a Reverse back the other way ... A player who passes it on with their last
card ends the round at once, and nobody draws it." (NOSTACK-1's deflect_with)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from pathlib import Path

import pytest

from unoformal.engine import game as game_module
from unoformal.engine.actions import Action
from unoformal.engine.game import Game
from unoformal.errors import IllegalActionError, VariantError
from unoformal.language.effects import PassTurn
from unoformal.rulebook.deck import Deck
from unoformal.rulebook.table import RuleTable
from unoformal.rulebook.variants import load_rules, load_toml
from unoformal.rules import effects as rule_effects
from unoformal.rules import play as rule_play
from unoformal.verification.z3 import prover
from unoformal.verification.z3.properties import property_named
from unoformal.verification.z3.prover import check_suite


def _waiting(rules: RuleTable, hands: str, *, offender: str = "C", kind: str = "+2",
             top: str = "R+2", count: int = 2) -> Game:
    """A (to move) is the victim of ``offender``'s waiting draw card, red current;
    ``hands`` A's/B's(/C's); every other card in the pile."""
    seats = "A,B,C"[: 2 * hands.count("/") + 1]
    deck = Deck.of(rules)
    rest = Counter(deck.code(f) for f in deck.cards())
    rest.subtract(c for part in (*hands.split("/"), "R1", top) for c in part.split(","))
    text = (f"rules={rules.name} players={seats} dealer=B round=1 turn=A dir=left "
            f"color=red phase=respond hands={hands} pile={','.join(sorted(rest.elements()))} "
            f"discard=R1,{top} scores={','.join('0' for _ in seats.split(','))} uno=- "
            f"drawn=- pending={count} kind={kind} offender={offender} legal=1 prev=- "
            "reveal=- winner=- points=0 seed=0 shuffles=0")
    return Game.from_text(text, rules)


def _after(game: Game, move: str) -> Game:
    game.apply(Action.parse(move))
    return game


def _refused(game: Game, move: str) -> str:
    with pytest.raises(IllegalActionError) as err:
        game.copy().apply(Action.parse(move))
    return str(err.value.rule_id)


def test_a_skip_passes_the_draw_on_to_the_next_player() -> None:
    g = _after(_waiting(load_rules("deflect"), "RS,B5/B6,B7/G1,G2"), "A play RS")
    assert (g.to_play, g.phase, g.pending, g.offender, g.direction) == ("B", "respond", 2, 0, 1)
    assert [len(h) for h in g.hands] == [1, 2, 2]  # nobody drew


def test_a_reverse_sends_it_back_the_other_way() -> None:
    g = _after(_waiting(load_rules("deflect"), "RR,B5/B6,B7/G1,G2"), "A play RR")
    assert (g.to_play, g.phase, g.pending, g.direction) == ("C", "respond", 2, -1)
    g.apply(Action.parse("C accept"))  # the Draw Two's own player draws its 2 cards
    assert [len(h) for h in g.hands] == [1, 2, 4] and g.to_play == "B"


def test_with_two_players_either_card_gives_it_to_the_other_player() -> None:
    for card in ("RS", "RR"):
        g = _after(_waiting(load_rules("deflect"), f"{card},B5/B6,B7", offender="B"),
                   f"A play {card}")
        assert (g.to_play, g.phase, g.pending, g.direction) == ("B", "respond", 2, 1)


def test_the_card_must_match_unless_read_any_color() -> None:
    hands = "BS,B5/B6,B7/G1,G2"
    assert _refused(_waiting(load_rules("deflect"), hands), "A play BS") == "NOSTACK-1"
    g = _after(_waiting(load_rules("deflect@any-color"), hands), "A play BS")
    assert (g.to_play, g.pending, g.color) == ("B", 2, 3)  # blue is current now


def test_the_reverse_reading_deflects_with_a_reverse_alone() -> None:
    rules = load_rules("deflect@reverse")
    assert _refused(_waiting(rules, "RS,B5/B6,B7/G1,G2"), "A play RS") == "D2-1"
    assert _after(_waiting(rules, "RR,B5/B6,B7/G1,G2"), "A play RR").to_play == "C"


def test_a_wild_draw_four_that_may_be_challenged_is_not_deflected() -> None:
    g = _waiting(load_rules("deflect"), "RS,B5/B6,B7/G1,G2", kind="W+4", top="W+4", count=4)
    assert _refused(g, "A play RS") == "WD4-2"


def test_passing_it_on_with_the_last_card_ends_the_round_and_nobody_draws() -> None:
    g = _after(_waiting(load_rules("deflect"), "RS/B6,B7/G1,G2"), "A play RS")
    assert (g.phase, g.pending, g.offender) == ("over", 0, None)
    assert [len(h) for h in g.hands] == [0, 2, 2] and g.round_points == 6 + 7 + 1 + 2


def test_classic_has_no_deflection() -> None:
    classic = load_rules("classic")
    assert classic.no_stacking.deflect_with == ()
    assert property_named("deflect").needs == ("NOSTACK-1.deflect_with",)


@pytest.fixture
def skip_two_seats(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """A bug planted in the deflection's command: a Skip passes the draw two seats on."""
    real = rule_effects._deflected

    def planted(table: RuleTable, kind: object) -> tuple[object, ...]:
        return tuple(PassTurn(2) if isinstance(s, PassTurn) else s
                     for s in real(table, kind))  # type: ignore[arg-type]

    def forget() -> None:  # every cache of the commands built from the table
        rule_play.plays.cache_clear()
        game_module._LOOKUPS.clear()
        prover._setup.cache_clear()

    monkeypatch.setattr(rule_effects, "_deflected", planted)
    forget()
    yield
    monkeypatch.undo()
    forget()


def test_a_planted_wrong_effect_fails_the_example_and_the_property(
        skip_two_seats: None) -> None:
    """Neither check reads the commands: the worked example knows from the words who is
    next, the property from NOSTACK-1's numbers. validate cannot see this bug, since the
    engine and the relation share the command."""
    rules = load_rules("deflect")
    with pytest.raises(AssertionError):
        test_a_skip_passes_the_draw_on_to_the_next_player()
    (result,) = check_suite(rules, (property_named("deflect"),), (3,))
    assert result.verdict == "refuted"


def test_a_refusal_says_what_the_victim_may_do() -> None:
    g = _waiting(load_rules("deflect"), "R5,RS/B6,B7/G1,G2")
    with pytest.raises(IllegalActionError) as err:
        g.apply(Action.parse("A play R5"))
    assert "A must accept or pass it on with a Skip or a Reverse" in str(err.value)


@pytest.mark.parametrize(("values", "said"), [
    ('deflect_with = ["S"]\ndeflects = ["W+4"]', "deflects[0]: a card whose victim draws and "
     "may not challenge it"),
    ('deflect_with = ["+2"]', "deflect_with[0]: a card that skips or reverses"),
])
def test_a_deflection_that_cannot_be_played_is_refused(values: str, said: str,
                                                       tmp_path: Path) -> None:
    path = tmp_path / "mine.toml"
    path.write_text(f'name = "mine"\nbase = "classic"\n\n[rules."NOSTACK-1"]\n{values}\n',
                    "utf-8")
    with pytest.raises(VariantError) as err:
        load_toml(path)
    assert said in err.value.message and err.value.rule_id == "NOSTACK-1"


def test_a_refusal_after_a_deflection_says_who_passed_what_on() -> None:
    g = _after(_waiting(load_rules("deflect"), "RS,B5/B6,B7/G1,G2"), "A play RS")
    with pytest.raises(IllegalActionError) as err:
        g.apply(Action.parse("C draw"))
    assert "A's Skip passed the Draw Two on (NOSTACK-1), so B must answer it" in str(err.value)
