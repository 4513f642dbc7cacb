"""JUMP-IN in the relation and the explorer: the property that states the house rule in
its own words (only a card identical to the top, only before the player to move plays or
draws, play goes on from the jumper) is proved of the shipped variant and refutes a wrong
command, which engine and relation would share; the explorer reaches the jump."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator

import pytest

from tests.engine.helpers import forget_built
from tests.verification.test_commands import _changed, _planted, _property
from unoformal.language.commands import Command
from unoformal.language.conditions import IsTop
from unoformal.rulebook.variants import load_rules
from unoformal.rules import play as card_play
from unoformal.verification.explore import Config, Size, analyse, explore
from unoformal.verification.explore.presets import small_rules
from unoformal.verification.z3.prover import check

JUMP_IN = load_rules("jump-in")


@pytest.fixture(autouse=True)
def _fresh_relations() -> Iterator[None]:
    yield
    forget_built()  # no plant outlives its test


def test_the_jump_in_property_is_proved_of_the_house_rule_and_vacuous_in_classic() -> None:
    assert check(JUMP_IN, _property("jump-in"), 3).verdict == "proved"
    assert check(load_rules("classic"), _property("jump-in"), 3).verdict == "vacuous"


def test_one_card_per_turn_is_refuted_at_a_jump() -> None:
    result = check(JUMP_IN, _property("one-card-per-turn"), 3)
    assert result.verdict == "refuted" and (result.label or "").startswith("jump_")


def _without(kind: type) -> object:
    def change(command: Command) -> Command:
        return dataclasses.replace(command, guard=tuple(
            g for g in command.guard if not isinstance(g.cond, kind)))
    return change


def test_the_jump_in_property_catches_a_jump_with_any_matching_card(
        monkeypatch: pytest.MonkeyPatch) -> None:
    _planted(monkeypatch, "jump", _without(IsTop), card_play)  # type: ignore[arg-type]
    result = check(JUMP_IN, _property("jump-in"), 3)
    assert result.verdict == "refuted" and "jump_" in (result.label or "")


def test_the_jump_in_property_catches_a_jump_after_which_play_skips_a_player(
        monkeypatch: pytest.MonkeyPatch) -> None:
    _planted(monkeypatch, "jump", _changed("PassTurn", "jump_number", steps=2), card_play)
    result = check(JUMP_IN, _property("jump-in"), 3)
    assert result.verdict == "refuted" and "(goes on from the jumper)" in (result.label or "")


def test_the_explorer_reaches_a_jump_on_a_small_deck() -> None:
    # Two copies of one number per color, no wilds: a card identical to the top exists.
    size = Size(colors=2, numbers=(2,), wilds=0, wild_draw_fours=0, penalties=False)
    cfg = Config(small_rules(size, extra={"JUMP-IN": {"enabled": True}}, name="jump"),
                 tuple(size.players_list()), "jump", penalties=False)
    graph = explore(cfg)
    found = analyse(graph)
    assert graph.complete and not found.stuck and not found.doomed
    assert ("JUMP-IN", "jump-in") in graph.covered
