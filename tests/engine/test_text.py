"""Text forms round-trip (cards, actions, states) and ``unoformal rules`` prints every rule."""

from __future__ import annotations

import random
import re
from typing import Any, cast

import pytest

from unoformal.commands.cli import main
from unoformal.engine.actions import Action, ActionType
from unoformal.engine.game import Game
from unoformal.errors import InvalidInputError
from unoformal.rulebook.cards import parse_face
from unoformal.rulebook.deck import Deck
from unoformal.rulebook.table import CLASSIC
from unoformal.rulebook.variants import load_rules

from .helpers import make_game, play

# Every rule ID of docs/rules.md, and the extensions and house rules the table adds.
RULE_IDS = (
    "DECK-1", "DECK-2", "DECK-3", "DEAL-1", "DEAL-2", "DEAL-3", "START-D2", "START-SKIP",
    "START-REV", "START-WILD", "START-WD4", "PLAY-1", "DRAW-1", "RESHUFFLE-1", "HIDDEN-1",
    "SKIP-1", "REV-1", "D2-1", "NOSTACK-1", "WILD-1", "TWO-1", "MISPLAY-1", "ADVICE-1",
    "WD4-1", "WD4-2", "CHAL-1", "CHAL-2", "CHAL-3", "CHAL-4", "UNO-1", "END-1", "END-2",
    "SCORE-1", "SCORE-2", "EXT-PASS", "EXT-SHORT", "EXT-START", "EXT-LAST", "SEVEN-O", "SEVERAL",
    "JUMP-IN", "MERCY",
)


def test_deck_1_the_table_traces_every_rule_id() -> None:
    ids = {rule.id for _, rule in CLASSIC.entries()}
    # An ID is an entry's own, or cited by the entry that carries its value (CHAL-1's
    # "shown to the challenger only" is a value of HIDDEN-1).
    cited = {i for _, rule in CLASSIC.entries() for i in RULE_IDS if f"({i})" in rule.text}
    missing = set(RULE_IDS) - ids - cited
    assert not missing, f"rule IDs without a table entry: {sorted(missing)}"
    assert ids <= set(RULE_IDS)
    assert all(rule.extension == rule.id.startswith("EXT-") for _, rule in CLASSIC.entries())


def test_deck_1_card_codes_round_trip() -> None:
    deck = Deck.of(CLASSIC)
    assert len(deck.faces) == 54
    for face in deck.faces:
        assert parse_face(face.code) == face
        assert deck.face_id(face.code) == deck.faces.index(face)
    # DECK-1 codes are accepted in their canonical spelling only: no other case, no
    # spaces, no digits of other scripts (R٣ is Arabic-Indic three, R³ a superscript).
    for bad in ("", "R", "R10", "Z5", "W+2", "+4", "RSS", "w+4", "b7", " W+4\t", "R\u0663",
                "R\u00b3", "R+2 "):
        with pytest.raises(ValueError, match="unknown card code"):
            parse_face(bad)


def _sample_actions() -> list[Action]:
    game = Game(["Ann", "Bob", "Cy"], seed=3)
    rng = random.Random(3)
    seen: list[Action] = []
    for _ in range(120):
        legal = game.legal_actions()
        seen += legal
        if game.round_over:
            break
        game.apply(rng.choice(game.legal_actions(penalties=False)))
    seen += [Action("Ann", ActionType.PLAY, "W+4", "green", uno=True),
             Action("Bob", ActionType.CATCH, target="Ann"),
             Action("Cy", ActionType.CHOOSE_COLOR, color="blue"),
             Action("Cy", ActionType.MISPLAY, "R+2")]
    return seen


def test_play_1_actions_round_trip_through_text_and_json() -> None:
    actions = _sample_actions()
    assert {a.type for a in actions} >= {ActionType.PLAY, ActionType.DRAW, ActionType.PASS,
                                         ActionType.CATCH, ActionType.MISPLAY}
    for action in actions:
        assert Action.parse(str(action)) == action
        assert Action.from_json(action.to_json()) == action
    assert str(Action("Ada", ActionType.PLAY, "W+4", "green", uno=True)) == \
        "Ada play W+4 green uno"


@pytest.mark.parametrize("text", ["Ada", "Ada fly", "Ada draw R1", "Ada play R1 red blue"])
def test_play_1_malformed_action_text_is_refused(text: str) -> None:
    with pytest.raises(InvalidInputError):
        Action.parse(text)


@pytest.mark.parametrize("data", [
    "Ada draw", {"player": "Ada"}, {"player": "Ada", "action": "draw", "x": 1},
    {"player": "Ada", "action": "play", "card": 5}, {"player": "Ada", "action": "play",
                                                     "card": "R1", "uno": "yes"},
])
def test_play_1_malformed_action_json_is_refused(data: object) -> None:
    with pytest.raises(InvalidInputError):
        Action.from_json(data)


def test_hidden_1_states_round_trip_through_text_in_every_phase() -> None:
    phases: set[str] = set()
    for seed in range(6):
        rng = random.Random(seed)
        game = Game([f"P{i}" for i in range(2 + seed)], seed=seed)
        for _ in range(150):
            text = game.to_text()
            again = Game.from_text(text)
            assert again.to_text() == text
            assert again.legal_actions() == game.legal_actions()
            phases.add(game.phase)
            if game.round_over:
                break
            game.apply(rng.choice(game.legal_actions()))
    assert {"play", "drawn"} <= phases


def test_chal_1_a_state_with_a_reveal_round_trips() -> None:
    game = make_game(("A", "B", "C"), "C", {"A": ["R2", "G5", "W+4"], "B": ["G8"]}, ("R7",))
    play(game, "A play W+4 blue", "B challenge")
    text = game.to_text()
    assert "reveal=B:A:R2,G5" in text
    again = Game.from_text(text)
    assert again.to_text() == text and again.view("B").revealed == ("A", ("R2", "G5"))


@pytest.mark.parametrize(("hand", "legal"), [(["R2", "G3"], "0"), (["Y2", "G3"], "1")],
                         ids=["a bluff", "legal"])
def test_wd4_2_a_challengeable_wild_draw_four_keeps_what_a_challenge_decides_by(
        hand: list[str], legal: str) -> None:
    # A plays W+4 on R5 holding a red card (a bluff, WD4-1) or none: the text keeps whether
    # it was legal and the color before it, which a challenge decides by and restores (CHAL-*).
    game = play(make_game(("A", "B"), "B", {"A": ["W+4", *hand]}, ("R5",)), "A play W+4 green")
    text = game.to_text()
    fields = dict(field.split("=", 1) for field in text.split())
    assert (fields["phase"], fields["legal"], fields["prev"]) == ("respond", legal, "red")
    again = Game.from_text(text)
    for g in (game, again):
        play(g, "B challenge")
    assert again.to_text() == game.to_text()


# An Action built by hand with a type that is not an ActionType is refused, and shown as
# it was built in the refusal (its action), not as something else.
HAND_BUILT: list[tuple[Action, str, str]] = [
    (Action("A", cast(Any, "dance")), "A dance", "action type 'dance': expected an ActionType"),
    (Action("A", cast(Any, 7), "R1"), "A 7 R1", "action type 7: expected an ActionType"),
]


@pytest.mark.parametrize(("action", "shown", "message"), HAND_BUILT,
                         ids=[case[1] for case in HAND_BUILT])
def test_play_1_an_action_built_by_hand_with_a_wrong_type_is_shown_as_built(
        action: Action, shown: str, message: str) -> None:
    game = Game(["A", "B"], seed=1)
    before = game.to_text()
    with pytest.raises(InvalidInputError) as info:
        game.apply(action)
    err = info.value
    assert (str(action), err.action, err.message, err.key) == (shown, shown, message, "action")
    assert game.to_text() == before


def test_start_wild_a_state_in_the_color_phase_round_trips() -> None:
    game = make_game(("A", "B"), "B", {"A": ["R2"]}, ("W",))
    text = game.to_text()
    assert "phase=color" in text and "color=-" in text
    assert Game.from_text(text).to_text() == text


@pytest.mark.parametrize(("edit", "words"), [
    (lambda t: t.replace("phase=play", "phase=dance"), "phase"),
    (lambda t: t.replace("dir=left", "dir=up"), "dir"),
    (lambda t: t.replace(" seed=0", ""), "missing seed"),
    (lambda t: t + " extra=1", "extra=1"),
    (lambda t: re.sub(r"hands=\S+", "hands=R1", t), "hands"),
])
def test_deck_1_bad_state_text_is_refused(edit: object, words: str) -> None:
    text = make_game(("A", "B"), "B", {"A": ["R2"]}, ("R7",)).to_text()
    with pytest.raises(InvalidInputError) as info:
        Game.from_text(edit(text))  # type: ignore[operator]
    assert words in info.value.line()


@pytest.mark.parametrize("kind", ["-", "#", "S"])
def test_wd4_2_a_respond_phase_without_a_pending_draw_card_is_refused(kind: str) -> None:
    # an accept or a challenge resolves the pending draw card: a respond phase needs one
    game = play(make_game(("A", "B", "C"), "C", {"A": ["W+4", "G5"], "B": ["R2"]}, ("R7",)),
                "A play W+4 green")
    text = game.to_text()
    assert " phase=respond " in text and " kind=W+4 " in text
    assert Game.from_text(text).to_text() == text
    with pytest.raises(InvalidInputError) as info:
        Game.from_text(text.replace(" kind=W+4 ", f" kind={kind} "))
    assert info.value.line() == (f"state text: kind: {kind!r}: a respond phase answers a draw "
                                 "card; expected +2 or W+4 (breaks WD4-2)")
    with pytest.raises(InvalidInputError) as info:
        Game.from_text(text.replace(" offender=A ", " offender=- "))
    assert info.value.line() == ("state text: offender: -: a respond phase names who played the "
                                 "draw card (breaks WD4-2)")


@pytest.mark.parametrize(("key", "value"), [("pending", "4"), ("kind", "+2"),
                                            ("offender", "A")])
def test_wd4_2_outside_a_respond_phase_nothing_is_pending(key: str, value: str) -> None:
    # A Draw Two played from such a state would carry the stated count on (mutmut's
    # surviving mutant _do_play_36 relied on this text being read).
    game = make_game(("A", "B", "C"), "C", {"A": ["R+2", "G5"], "B": ["R2"]}, ("R7",))
    text = game.to_text()
    assert " phase=play pending=0 kind=- offender=- " in re.sub(
        r" (hands|pile|discard|scores|uno|drawn)=\S*", "", text)
    edited = re.sub(rf" {key}=\S+ ", f" {key}={value} ", text)
    with pytest.raises(InvalidInputError) as info:
        Game.from_text(edited)
    none = "0" if key == "pending" else "-"
    assert info.value.line() == (f"state text: {key}: {value!r}: nothing is pending in a play "
                                 f"phase; expected {none} (breaks WD4-2)")


def test_score_1_points_read_in_a_round_still_in_play_are_not_reported() -> None:
    # SCORE-1: state_json's round_points are a finished round's; a text may state points
    # in a round still in play (the reader keeps them for the text), they are not reported
    text = make_game(("A", "B"), "B", {"A": ["R2"]}, ("R7",)).to_text()
    game = Game.from_text(text.replace(" points=0 ", " points=7 "))
    assert game.round_points == 7 and " points=7 " in game.to_text()
    out = game.state_json()
    assert not out["round_over"] and out["round_points"] == 0


@pytest.mark.parametrize("args", [[], ["--rules", "stacking"], ["--markdown"],
                                  ["--rules", "seed004", "--markdown"]])
def test_deck_1_rules_command_prints_every_rule_id(capsys: pytest.CaptureFixture[str],
                                                   args: list[str]) -> None:
    assert main(["rules", *args]) == 0
    out = capsys.readouterr().out
    missing = [rule_id for rule_id in RULE_IDS if not re.search(rf"\b{re.escape(rule_id)}\b",
                                                                out)]
    assert not missing, f"not printed: {missing}"


def test_nostack_1_rules_command_shows_the_variants_override(
        capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["rules", "--rules", "stacking", "--markdown"]) == 0
    out = capsys.readouterr().out
    assert "stacking" in out and "NOSTACK-1.victim_may_answer = true" in out
    assert load_rules("stacking").no_stacking.victim_may_answer


def test_deck_1_rules_command_refuses_an_unknown_variant(
        capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["rules", "--rules", "nonesuch"]) == 2
    assert "nonesuch" in capsys.readouterr().err
