"""The readings of JUMP-IN and SEVEN-O in the relation: each reading is a property in the
rule's own numbers, stated apart from the table's value (jump-in: the defaults, a Draw
Two jumped in on hitting the player after the jumper and a jump closing a UNO window;
jump-in-adds, jump-in-window-open; seven-o: any other player; seven-o-next). Each is
proved of the variant of its reading, refuted by the variant of the other, vacuous where
the rule is off, and refutes a command that plays its reading wrong, which engine and
relation would share. The explorer reaches a Draw Two jumped in on under each reading."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.engine.helpers import forget_built
from tests.verification.test_commands import _changed, _planted, _property
from unoformal.errors import InvalidInputError
from unoformal.language.commands import Command
from unoformal.language.conditions import Conjunct, Differ
from unoformal.language.protocols import Who
from unoformal.rulebook.table import RuleTable
from unoformal.rulebook.variants import load_rules
from unoformal.rules import play as card_play
from unoformal.verification.explore import Config, Size, analyse, explore
from unoformal.verification.explore.presets import small_rules
from unoformal.verification.z3.prover import check

READINGS = Path(__file__).parent.parent / "data" / "readings"
ADDS = load_rules(str(READINGS / "jump-in-adds.toml"))
STAYS_OPEN = load_rules(str(READINGS / "jump-in-window-open.toml"))
NEXT = load_rules(str(READINGS / "seven-o-next.toml"))


@pytest.fixture(autouse=True)
def _fresh_relations() -> Iterator[None]:
    yield
    forget_built()  # no plant outlives its test


JUMP_IN, SEVEN_O = load_rules("jump-in"), load_rules("seven-o")


@pytest.mark.parametrize(("rules", "prop"), [
    (JUMP_IN, "jump-in"), (ADDS, "jump-in-adds"), (STAYS_OPEN, "jump-in-window-open"),
    (SEVEN_O, "seven-o"), (NEXT, "seven-o-next")])
def test_each_reading_is_proved_of_its_variant(rules: RuleTable, prop: str) -> None:
    assert check(rules, _property(prop), 3).verdict == "proved"


@pytest.mark.parametrize(("rules", "prop", "label"), [
    (ADDS, "jump-in", "jump_draw_two"), (STAYS_OPEN, "jump-in", "(the window closes)"),
    (JUMP_IN, "jump-in-adds", "(adds)"),
    (JUMP_IN, "jump-in-window-open", "(the window stays open)"),
    (NEXT, "seven-o", "(any other player)"), (SEVEN_O, "seven-o-next", "(the next player)")])
def test_each_reading_is_refuted_by_a_table_that_plays_the_other(rules: RuleTable, prop: str,
                                                                  label: str) -> None:
    # A property states its reading apart from the table's value: a mutant of the value is
    # killed, and the manifest (or the variant file) says why each such verdict is refuted.
    result = check(rules, _property(prop), 3)
    assert result.verdict == "refuted" and label in (result.label or ""), result.label


@pytest.mark.parametrize("prop", ["jump-in-adds", "jump-in-window-open", "seven-o-next"])
def test_the_readings_properties_are_vacuous_where_their_rule_is_off(prop: str) -> None:
    assert check(load_rules("classic"), _property(prop), 3).verdict == "vacuous"


def test_the_seven_o_property_catches_a_seven_that_swaps_with_anyone_under_next(
        monkeypatch: pytest.MonkeyPatch) -> None:
    def chosen(table: RuleTable) -> tuple[Conjunct, ...]:
        return (Conjunct(Differ(Who.ACTOR, Who.TARGET), "SEVEN-O", "not themself"),)

    monkeypatch.setattr(card_play, "_aimed", chosen)
    forget_built()
    result = check(NEXT, _property("seven-o-next"), 3)
    assert result.verdict == "refuted" and "(the next player)" in (result.label or "")


def test_the_jump_in_property_catches_a_jump_that_closes_the_window_under_stays_open(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(card_play, "_jump_effect",
                        lambda table, played: played.effect)
    forget_built()
    result = check(STAYS_OPEN, _property("jump-in-window-open"), 3)
    assert result.verdict == "refuted" and "(the window stays open)" in (result.label or "")


def test_the_jump_in_property_catches_a_jump_that_adds_the_wrong_count(
        monkeypatch: pytest.MonkeyPatch) -> None:
    _planted(monkeypatch, "jump", _changed("AddPending", "jump_draw_two", cards=1), card_play)
    result = check(ADDS, _property("jump-in-adds"), 3)
    assert result.verdict == "refuted" and "(adds)" in (result.label or "")


def test_the_jump_in_property_catches_a_draw_two_drawn_by_the_first_victim_under_each(
        monkeypatch: pytest.MonkeyPatch) -> None:
    def first_victim(command: Command) -> Command:
        if command.name != "jump_draw_two":
            return command  # the plant: the jump's Draw Two hits the player to move
        return dataclasses.replace(command, effect=tuple(
            dataclasses.replace(e, who=Who.TO_MOVE) if type(e).__name__ == "Take" else e
            for e in command.effect))

    _planted(monkeypatch, "jump", first_victim, card_play)
    result = check(JUMP_IN, _property("jump-in"), 3)
    assert result.verdict == "refuted" and "(each)" in (result.label or "")


# A small deck with two copies of the Draw Two: a card identical to the top exists.
_D2_DECK = Size(colors=1, numbers=(2, 2, 2), draw_twos=2, wilds=0, wild_draw_fours=0,
                penalties=False)


@pytest.mark.parametrize("reading", ["each", "adds"])
def test_the_explorer_reaches_a_draw_two_jumped_in_on_under_each_reading(reading: str) -> None:
    # UNO-1 off: under "adds" a jumper caught (UNO-1) draws the Draw Two back and adds it
    # again, so what waits grows without bound (the next test).
    extra = {"JUMP-IN": {"enabled": True, "draw_two": reading}, "UNO-1": {"enabled": False}}
    cfg = Config(small_rules(_D2_DECK, extra=extra, name=f"jump-d2-{reading}"),
                 tuple(_D2_DECK.players_list()), "jump", penalties=False)
    graph = explore(cfg)
    found = analyse(graph)
    assert graph.complete and not found.stuck and not found.doomed
    assert ("JUMP-IN", "jump-in") in graph.covered


def test_the_explorer_refuses_in_one_line_a_count_that_grows_without_bound() -> None:
    extra = {"JUMP-IN": {"enabled": True, "draw_two": "adds"}}
    cfg = Config(small_rules(_D2_DECK, extra=extra, name="jump-d2-caught"),
                 tuple(_D2_DECK.players_list()), "jump", penalties=False)
    with pytest.raises(InvalidInputError) as info:
        explore(cfg)
    assert info.value.message == (
        "a state reached holds pending 256: the explorer's keys hold counts up to 254, and a "
        "count that grows without bound makes the state space infinite")
