"""Coverage counted by the commands as they run agrees with the frozen labeller, which
worked the labels out from the states (``coverage_agree.py``), on the small presets under
every shipped variant; and the check is shown able to fail.

The full run, every preset under every variant, is ``python -m tests.reference.coverage_agree``.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator

import pytest

from tests.engine.helpers import forget_commands
from tests.reference import FROZEN_VARIANTS, coverage_agree
from unoformal.language.coverage import Label
from unoformal.language.effects import Effect, Shows, Sorts
from unoformal.rulebook.table import CLASSIC
from unoformal.rules import play as card_play
from unoformal.verification.explore.coverage import catalogue

SMALL = ("micro", "duel", "skip", "reverse", "circle")


@pytest.fixture
def fresh_commands() -> Iterator[None]:
    """Commands built again after a plant (each section caches its commands per table,
    the engine its lookups per table), and again once the plant is gone."""
    forget_commands()
    yield
    forget_commands()


@pytest.mark.parametrize("variant", sorted(FROZEN_VARIANTS))
def test_the_commands_count_what_the_frozen_labeller_saw(variant: str) -> None:
    assert coverage_agree.catalogue_differences(variant) == []
    for preset in SMALL:
        tally = coverage_agree.compare(preset, variant)
        assert tally.edges > 0
        assert tally.disagreements == [], tally.disagreements[:3]
        # nothing the frozen labeller covered is lost, but by a decision named in DECIDED
        assert tally.old_covered - tally.new_covered <= set(coverage_agree.DECIDED)


def test_a_label_swapped_in_a_command_is_a_disagreement(
        monkeypatch: pytest.MonkeyPatch, fresh_commands: None) -> None:
    # Plant: PLAY-1's match counted the wrong way round (a card of the current color
    # counted as matched by number or symbol).
    build = card_play._matched

    def swapped(*args: object) -> tuple[Effect, ...]:
        return tuple(dataclasses.replace(s, yes=s.no, no=s.yes)
                     if isinstance(s, Sorts) and s.yes is card_play.BY_COLOR else s
                     for s in build(*args))  # type: ignore[arg-type]

    monkeypatch.setattr(card_play, "_matched", swapped)
    tally = coverage_agree.compare("micro", "classic")
    assert tally.disagreements, "the planted label was not reported"
    assert "PLAY-1" in tally.disagreements[0]


def test_a_label_a_command_states_is_in_the_catalogue(
        monkeypatch: pytest.MonkeyPatch, fresh_commands: None) -> None:
    # What coverage may count is read from the commands: a branch stated in a command
    # needs no edit of the explorer to be counted, or reported dead.
    build = card_play._matched
    extra = Label("PLAY-1", "planted", "a branch a new command states")

    def more(*args: object) -> tuple[Effect, ...]:
        return (*build(*args), Shows(extra))  # type: ignore[arg-type]

    assert ("PLAY-1", "planted") not in {(b.rule, b.name) for b in catalogue(CLASSIC)}
    monkeypatch.setattr(card_play, "_matched", more)
    card_play.plays.cache_clear()
    assert ("PLAY-1", "planted") in {(b.rule, b.name) for b in catalogue(CLASSIC)}
