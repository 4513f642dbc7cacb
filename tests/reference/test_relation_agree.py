"""The live Z3 relation equals the frozen one (``relation_agree``), and the check can fail:
bugs planted in the live relation (monkeypatched) are each reported as the action and the
part of it that changed, with a Z3 model in words.

The scale here is small (classic at 2 and 3 players, every other shipped variant at 2,
about ten seconds on two cores); ``python -m tests.reference.relation_agree`` runs every
variant at 2-10 players."""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest
import z3

from tests.reference import FROZEN_VARIANTS
from unoformal.language.cards import All, Not, OfCurrentColor, OfKind, Playable, Said
from unoformal.language.commands import Command
from unoformal.language.effects import Effect, Take
from unoformal.rulebook.cards import Kind
from unoformal.rulebook.table import Holding, RuleTable
from unoformal.rulebook.variants import load_rules
from unoformal.rules import play as card_play
from unoformal.verification.z3 import actions
from unoformal.verification.z3 import state as live_state
from unoformal.verification.z3.actions import Spec

from . import relation_agree
from .relation_agree import FieldsOutOfDate, Report, check, check_fields, main

AGREE = [("classic", 2), ("classic", 3),
         *[(name, 2) for name in sorted(FROZEN_VARIANTS) if name != "classic"]]


def _classic(players: int = 2) -> Report:
    return check(load_rules("classic"), players, "classic")


def _names(report: Report) -> set[str]:
    return {d.action.split("[")[0] for d in report.differences}


def _other_notes(report: Report) -> list[str]:
    """The notes, but the plays' UNO window: the play command opens it by the hand's size
    after the card is placed (unoformal.rules.play), the frozen relation by the size before
    less one; they differ only for a player to move who has no seat, which the invariant
    rules out."""
    return [n for n in report.notes
            if not (n.startswith("play_") and n.endswith(": post.uno_window proved under the "
                                                         "invariant only"))]


@pytest.mark.parametrize(("name", "players"), AGREE)
def test_the_live_relation_is_the_frozen_one(name: str, players: int) -> None:
    report = check(load_rules(name), players, name)
    assert report.differences == []
    assert report.ok and report.actions == report.proved > 30


def test_a_rewrite_that_keeps_the_meaning_agrees(monkeypatch: pytest.MonkeyPatch) -> None:
    # UNO-1's window closed by a draw, written another way: not the same Z3 term, so Z3
    # is asked, and proves it the same (the check is about meaning, not about terms).
    take = Spec.take

    def rewritten(self: Spec, s: Any, who: Any, count: Any, tag: str) -> Any:
        post, cons, drawn = take(self, s, who, count, tag)
        stays = z3.Or(s.uno_window != who, z3.Sum(list(drawn)) < 1)
        return post.evolve(uno_window=z3.If(stays, s.uno_window, live_state.NONE)), cons, drawn

    monkeypatch.setattr(Spec, "take", rewritten)
    report = _classic()
    assert report.differences == [] and _other_notes(report) == []
    assert report.ok and report.queries >= 10


def test_fields_names_every_field_of_both_states(monkeypatch: pytest.MonkeyPatch) -> None:
    check_fields()
    renamed = tuple("pkind" if f == "pending_kind" else f for f in live_state.STATE_FIELDS)
    monkeypatch.setattr(live_state, "STATE_FIELDS", renamed)
    with pytest.raises(FieldsOutOfDate, match="pkind"):
        check_fields()


# ---------------------------------------------------------------- planted bugs


def test_a_draw_two_that_gives_three_cards_is_found(monkeypatch: pytest.MonkeyPatch) -> None:
    # Planted in the command's effect (unoformal.rules.effects), which the live relation
    # reads: the victim's draw takes one card more.
    build = card_play.play

    def heavier(table: RuleTable, kind: Kind, *able: Any) -> Command:
        command = build(table, kind, *able)
        if kind is not Kind.DRAW_TWO:
            return command

        def more(step: Effect) -> Effect:
            return dataclasses.replace(step, cards=step.cards + 1) \
                if isinstance(step, Take) else step
        return dataclasses.replace(command,
                                   effect=tuple(e.replaced(more) for e in command.effect))

    monkeypatch.setattr(card_play, "play", heavier)
    report = _classic()
    # The cards drawn are the same constants on both sides: how many is the chance
    # constraint's (Step.draws), so that is the part that differs, not the hands.
    assert report.parts_differing() == {("play_draw_two[pile]", "draws"),
                                        ("play_draw_two[reshuffle]", "draws")}
    assert all("the cards drawn" in d.words and "state phase" in d.words
               for d in report.differences)
    assert report.proved == report.actions - 2


def test_a_uno_window_left_open_by_a_draw_is_found(monkeypatch: pytest.MonkeyPatch) -> None:
    take = Spec.take

    def keeps_window(self: Spec, s: Any, who: Any, count: Any, tag: str) -> Any:
        post, cons, drawn = take(self, s, who, count, tag)
        return post.evolve(uno_window=s.uno_window), cons, drawn  # the bug 8c7a9d5 fixed

    monkeypatch.setattr(Spec, "take", keeps_window)
    report = _classic()
    assert {part for _, part in report.parts_differing()} == {"post.uno_window"}
    assert _names(report) == {"accept", "advise", "challenge_failed", "challenge_upheld"}
    assert ("advise[adviser 1, pile]", "post.uno_window") in report.parts_differing()
    words = next(d.words for d in report.differences if d.action == "advise[adviser 1, pile]")
    assert words.startswith("uno_window after it: live 1, frozen -1")
    # The first player's draw from a Draw Two turned up (START-D2) changes the window too,
    # but only in states no game reaches (dealt with a window open): a pass, noted.
    assert {n.split(":")[0] for n in _other_notes(report)} == {
        f"start_draw_two[dealer {d}, {m}]" for d in (0, 1) for m in ("pile", "reshuffle")}
    assert all("under the invariant only" in n for n in report.notes)


def _other_reading(table: RuleTable) -> Said:
    """WD4-1's two readings swapped (as in test_rules_lang)."""
    if table.wd4_legality.illegal_when_holding is Holding.CARD_OF_CURRENT_COLOR:
        return Said(All((Not(OfKind(Kind.WILD_DRAW_FOUR)), Playable())), "{card}")
    return Said(OfCurrentColor(), "{card}")


def test_the_other_reading_of_wd4_1_is_found(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(actions, "wd4_blocks", _other_reading)
    report = _classic()
    assert report.parts_differing() == {("play_wild_draw_four", "post.wd4_legal")}
    assert report.differences[0].words.startswith("wd4_legal after it: live False, frozen True")


def test_an_upheld_challenge_with_a_heavier_penalty_is_found(
        monkeypatch: pytest.MonkeyPatch) -> None:
    take = Spec.take

    def heavier(self: Spec, s: Any, who: Any, count: Any, tag: str) -> Any:
        if tag.endswith(".offender") and not (isinstance(count, int) and count == 0):
            count += 2  # CHAL-2: the offender draws 6, not 4
        return take(self, s, who, count, tag)

    monkeypatch.setattr(Spec, "take", heavier)
    report = _classic()
    assert report.parts_differing() == {
        (f"challenge_upheld[offender {p}, {m}]", "draws")
        for p in (0, 1) for m in ("pile", "reshuffle")}


def test_a_uno_call_by_no_seat_is_found(monkeypatch: pytest.MonkeyPatch) -> None:
    # The actor of uno and catch is any number, not a seat (the guard's bound dropped).
    monkeypatch.setattr(Spec, "_actor",
                        lambda self, tag: (z3.Int(f"{tag}.actor"), z3.BoolVal(True)))
    report = _classic()
    assert {part for _, part in report.parts_differing()} == {"guard"}
    assert _names(report) == {"uno", "catch"}
    words = next(d.words for d in report.differences if d.action == "uno")
    assert words.startswith("enabled in live True, in frozen False; choices actor ")


def test_an_action_left_out_is_found(monkeypatch: pytest.MonkeyPatch) -> None:
    builders = Spec._make_builders
    monkeypatch.setattr(Spec, "_make_builders",
                        lambda self: [b for b in builders(self) if b[0] != "keep"])
    report = _classic()
    assert [str(d) for d in report.differences] == [
        "keep: actions: an action of the frozen relation only"]
    assert not report.ok


def test_an_unknown_is_a_failure(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(actions, "wd4_blocks", _other_reading)
    monkeypatch.setattr(relation_agree._Asker, "_check",
                        lambda self, formulas: (z3.unknown, "timeout"))
    report = _classic()
    # Every query Z3 is asked fails: the planted reading, and the commands, whose terms
    # differ from the frozen ones (unoformal.rules.play, .turn, .respond, .uno, .deal, and
    # of the start commands the one that draws, start_draw_two) but mean the same.
    found = [(d.action, d.part, d.words) for d in report.differences]
    assert any(action == "play_wild_draw_four" and "post.wd4_legal" in part
               for action, part, _ in found)
    assert all(words == "unknown to Z3 (timeout): not proved" for _, _, words in found)
    plays = {f"play_{kind.name.lower()}" for kind in Kind}
    assert {action.split("[")[0] for action, _, _ in found} == plays | {
        "draw", "keep", "pass_nothing_to_draw", "misplay", "choose_color", "uno", "catch",
        "advise", "accept", "challenge_failed", "challenge_upheld", "start_draw_two",
        "next_deal"}
    assert not report.ok


# ------------------------------------------------------------------------ CLI


def test_the_command_prints_one_row_per_variant_and_count(
        capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--variants", "classic,stacking", "--players", "2"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0].split() == ["variant", "players", "actions", "proved", "queries", "seconds"]
    assert [row.split()[:4] for row in out[1:3]] == [["classic", "2", "49", "49"],
                                                     ["stacking", "2", "48", "48"]]
    assert out[-1].startswith("2/2 (variant, players) agree, 97 actions")
    with pytest.raises(SystemExit):
        main(["--variants", "nope"])
