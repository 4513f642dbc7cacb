"""The public ``Game`` methods check their arguments first, whatever the phase: a name
that is no player's, an action that is no action, a ``penalties`` that is not a bool are
refused after the round exactly as during it (they used to get an empty answer once the
round was over). And ``command_of`` finds a command for every well-formed action while
the round is under way, a play out of turn included (None only once it is over). The
variant API's arguments (``derive``, ``load_rules``) are likewise refused in words, naming
the argument, never with an AttributeError or a TypeError; so is a house rule's refusal
template, when its conjunct is built rather than when a move is refused."""

from __future__ import annotations

import contextlib
from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from unoformal.engine.actions import Action, ActionType
from unoformal.engine.game import Game
from unoformal.errors import IllegalActionError, InvalidInputError, UnoError, VariantError
from unoformal.language.cards import OfCurrentColor, Said
from unoformal.language.conditions import CONJUNCT_FIELDS, Conjunct, Fixed
from unoformal.language.protocols import Binding
from unoformal.rulebook.table import CLASSIC
from unoformal.rulebook.variants import VARIANTS, derive, load_rules

from .helpers import make_game, play

ABC = ("A", "B", "C")


def _games() -> tuple[Game, Game]:
    """The same position mid-round and after it: A, to move, holds one card."""
    during = make_game(ABC, "C", {"A": ["R1"], "B": ["G5", "G6"], "C": ["Y1"]}, ["R2"])
    after = play(during.copy(), "A play R1")
    assert not during.round_over and after.round_over and not after.game_over
    return during, after


def _refusal(call: Callable[[Game], object], game: Game) -> tuple[Any, ...]:
    before = game.to_text()
    with pytest.raises(UnoError) as info:
        call(game)
    err = info.value
    assert game.to_text() == before
    return type(err), err.message, err.rule_id, err.key


BAD_CALLS: dict[str, Callable[[Game], object]] = {
    "legal_actions(5)": lambda g: g.legal_actions(5),
    "legal_actions('Nobody')": lambda g: g.legal_actions("Nobody"),
    "legal_actions([])": lambda g: g.legal_actions([]),
    "legal_actions(penalties='no')": lambda g: g.legal_actions(penalties="no"),
    "legal_actions('A', penalties=None)": lambda g: g.legal_actions("A", penalties=None),
    "command_of('garbage')": lambda g: g.command_of("garbage"),
    "command_of(None)": lambda g: g.command_of(None),
    "command_of(Nobody draw)": lambda g: g.command_of(Action("Nobody", ActionType.DRAW)),
    "command_of(A play Z9)": lambda g: g.command_of(Action("A", ActionType.PLAY, "Z9")),
    "command_of(A draw B)": lambda g: g.command_of(Action("A", ActionType.DRAW, target="B")),
    "apply('garbage')": lambda g: g.apply("garbage"),
    "apply(Nobody draw)": lambda g: g.apply(Action("Nobody", ActionType.DRAW)),
    "hand('Nobody')": lambda g: g.hand("Nobody"),
    "view({})": lambda g: g.view({}),
    "seat(3.5)": lambda g: g.seat(3.5),
}


@pytest.mark.parametrize("name", sorted(BAD_CALLS))
def test_a_bad_argument_is_refused_after_the_round_as_during_it(name: str) -> None:
    during, after = _games()
    call = BAD_CALLS[name]
    refused = _refusal(call, during)
    assert issubclass(refused[0], InvalidInputError), refused
    assert _refusal(call, after) == refused


def test_good_arguments_after_the_round_get_the_empty_answers() -> None:
    _, after = _games()
    assert after.legal_actions() == after.legal_actions("B", penalties=False) == []
    assert after.command_of(Action("B", ActionType.DRAW)) is None
    with pytest.raises(IllegalActionError) as info:
        after.apply(Action("B", ActionType.DRAW))
    assert info.value.rule_id == "END-1"


@pytest.mark.parametrize("variant", sorted(VARIANTS))
def test_command_of_a_play_out_of_turn_mid_round_is_a_command(variant: str) -> None:
    # Reported: under classic, command_of of a play by a player not to move was None
    # mid-round (no jump-in command for it), where the docs promise None only after the
    # round. It is the card's play (refused: its actor is the player to move), or its
    # jump-in where the table has one.
    rules = load_rules(variant)
    game = Game(["A", "B", "C"], seed=4, rules=rules)
    assert not game.round_over
    waiting = [n for n in game.names if n != game.to_play]
    for name in waiting:
        for card in game.hand(name):
            action = Action(name, ActionType.PLAY, card,
                            "red" if card.startswith("W") else None,
                            None if rules.seven_o.enabled is False or card[1:] != "7"
                            else game.to_play)
            command = game.command_of(action)
            assert command is not None, action
            jumps = rules.jump_in.enabled and not card.startswith("W")
            assert command.name.startswith("jump_" if jumps else "play_"), (action, command)
            if not jumps:  # refused by PLAY-1, which the command cites
                with pytest.raises(IllegalActionError) as info:
                    game.apply(action)
                assert info.value.rule_id == "PLAY-1" and "PLAY-1" in command.cites


@pytest.mark.parametrize(("args", "kwargs", "key", "words"), [
    # reported: a base named by its name, or None, failed with an AttributeError
    (("classic", "mine", "", {}), {}, "base", 'base = "classic": expected a RuleTable'),
    ((None, "mine", "", {}), {}, "base", "base = null: expected a RuleTable"),
    ((CLASSIC, ["x"], "", {}), {}, "name", 'name = ["x"]: expected a string'),  # TypeError
    ((CLASSIC, None, "", {}), {}, "name", "name = null: expected a string"),
    ((CLASSIC, "mine", "", {}), {"where": 5}, "where", "where = 5: expected a string"),
    ((CLASSIC, "mine", "", {}), {"shipped": "yes"}, "shipped", 'shipped = "yes": expected'),
])
def test_derive_refuses_an_argument_of_the_wrong_type_naming_it(
        args: tuple[Any, ...], kwargs: dict[str, Any], key: str, words: str) -> None:
    with pytest.raises(VariantError) as info:
        derive(*args, **kwargs)
    assert info.value.key == key and words in info.value.message


ANY = st.one_of(st.none(), st.booleans(), st.integers(), st.floats(), st.text(max_size=8),
                st.binary(max_size=4), st.lists(st.integers(), max_size=2),
                st.dictionaries(st.text(max_size=6), st.none() | st.integers(), max_size=2),
                st.just(CLASSIC), st.just("classic"), st.sampled_from(sorted(VARIANTS)))


@settings(max_examples=150, deadline=None, database=None, derandomize=True)
@given(ANY, ANY, ANY, ANY, ANY, ANY, ANY)
def test_derive_and_load_rules_refuse_any_argument_in_words(
        base: Any, name: Any, description: Any, overrides: Any, expect: Any, where: Any,
        shipped: Any) -> None:
    # anything but a VariantError fails the test
    with contextlib.suppress(VariantError):
        derive(base, name, description, overrides, expect, where, shipped=shipped)
    with contextlib.suppress(VariantError):
        load_rules(name)


def test_load_rules_refuses_an_empty_name() -> None:
    # "" was read as the path of the current folder ("." is a directory)
    with pytest.raises(VariantError, match=r'^rules = "": expected a variant name'):
        load_rules("")


@pytest.mark.parametrize(("words", "why"), [
    # reported: 100 MB of spaces when the move was refused
    ("{target:>99999999} cannot", "write {target} bare, without a format spec or conversion"),
    # reported: a KeyError when the move was refused
    ("{nobody} cannot", "unknown field {nobody}; the fields are {actor}, {to_move}, "),
    ("{actor!r}", "write {actor} bare"),
    ("{actor.__class__}", "unknown field {actor.__class__}"),
    ("{0} and {}", "unknown field {0}"),
    ("{actor", "expected '}' before end of string (write {{ and }} for a brace)"),
    ("}", "Single '}' encountered"),
])
def test_a_malformed_template_is_refused_when_its_conjunct_is_built(
        words: str, why: str) -> None:
    with pytest.raises(InvalidInputError) as info:
        Conjunct(Fixed(False, "never"), "HOUSE-1", words)
    err = info.value
    assert err.key == "words" and err.message.startswith(f"HOUSE-1's words {words!r}: ")
    assert why in err.message
    with pytest.raises(InvalidInputError) as said:
        Said(OfCurrentColor(), words.replace("actor", "card").replace("target", "top"))
    assert said.value.key == "template"


def test_every_field_a_template_may_name_is_filled_by_a_refusal() -> None:
    # the fields the check allows are exactly those refusal() fills: a template naming
    # them all is built, and filled in a state where each has a value (a draw card waits)
    game = make_game(ABC, "C", {"A": ["W+4", "R5"], "B": ["G5", "G6"], "C": ["Y1"]},
                     ["R2"])
    play(game, "A play W+4 green")
    template = " ".join(f"<{{{field}}}>" for field in CONJUNCT_FIELDS)
    part = Conjunct(Fixed(False, "never"), "HOUSE-1", template)
    b, g5 = game.seat("B"), game.deck.face_id("G5")
    rule, words = part.refusal(game, Binding(b, game.seat("A"), game.seat("A"), g5))
    # A, who played W+4 leaving one card without UNO, holds the window
    assert (rule, words) == ("HOUSE-1", "<B> <B> <A> <A> <1> <4> <G5> <A> <W+4> <green> "
                             "<G6, a card of the current color green> <accept or challenge>")
    assert Said(OfCurrentColor(), "{card} {top} {color}").words(card="R5", top="W+4",
                                                               color="green") == "R5 W+4 green"
