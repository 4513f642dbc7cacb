"""The catalogue's matrix, on two rules, one player count and the smallest deck that
shows their findings: every cell comes from verify or the explorer, and the page and
the records it writes are read back."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from unoformal.engine.record import replay
from unoformal.show.matrix import _why, markdown, picture, write_records
from unoformal.verification.matrix import Matrix, Pair, build, run_pair


@pytest.fixture(scope="module")
def small() -> Matrix:
    return build((2,), (2,), only=("draw-until", "no-action-last"), decks=("tiny",),
                 pair_decks=("tiny",))


def test_a_rule_breaks_what_its_words_take_away(small: Matrix) -> None:
    by = {s.rule.name: s for s in small.singles}
    # a last Wild may not be played, though PLAY-1 says a wild card is always playable
    assert ("play-matches", "proved 2", "refuted 2") in by["no-action-last"].breaks
    # a drawn card that cannot be played is drawn after (DRAW-1's one card)
    assert ("after-draw", "proved 2", "refuted 2") in by["draw-until"].breaks
    # the rule's own property holds
    assert by["draw-until"].verdicts.by_property["draw-until-playable"] == "proved 2"
    # a last Wild Draw Four never resolves: END-1's branch for it is dead on tiny
    assert "END-1 last-draw-card-resolved: never fires" in by["no-action-last"].new["tiny"]
    assert by["draw-until"].new["tiny"] == []


def test_readings_part_where_the_tools_say_with_a_record_that_reaches_it(
        small: Matrix) -> None:
    (keep,) = [a for a in small.ambiguities if a.rule == "draw-until"]
    assert keep.differ > 0 and keep.witness is not None
    again = replay(keep.witness)
    assert again.error is None and again.game.to_text() == keep.where
    assert "phase=drawn" in keep.where  # the card drawn fits: keep it, or must play it
    (last,) = [a for a in small.ambiguities if a.rule == "no-action-last"]
    # on tiny they part where a Wild is a player's last card: barred as an action card,
    # let through by letsuno's reading (only draw cards)
    assert last.differ > 0 and last.witness is not None
    assert replay(last.witness).game.to_text() == last.where


def test_a_pair_that_sets_one_value_twice_is_refused() -> None:
    said = run_pair(("stack-draw-two+stack-mixed", (2,), ("tiny",), {}))
    assert isinstance(said, str) and "cannot be combined" in said


def test_the_page_its_picture_and_records_are_written(small: Matrix, tmp_path: Path) -> None:
    page = markdown(small, "unoformal house-rules --out x.md", "x")
    assert "| `after-draw` | proved 2 | refuted 2 |" in page
    assert "[draw-until@play-tiny.json](x/draw-until@play-tiny.json)" in page
    assert "](x.svg)" in page  # the picture beside it
    written = write_records(small, tmp_path)
    assert len(written) == 2
    assert all(replay(json.loads(w.read_text())).error is None for w in written)
    svg = picture(small)
    assert svg.startswith("<svg") and "no-action-last: play-matches refuted 2" in svg


def test_a_table_the_explorer_cannot_hold_is_a_finding_not_the_matrix_s_end() -> None:
    """double-score on three: a round's points pass what the explorer's keys hold (254),
    which the matrix says, where before it stopped the whole run."""
    from unoformal.verification.matrix import run_table

    run = run_table(("double-score", (2,), ("three",)))
    (line,) = run.found["three"].lines()
    assert line.startswith("not explored: a state reached holds round_points")


def test_the_page_says_when_nothing_is_wanted(monkeypatch: pytest.MonkeyPatch) -> None:
    """The index lists no wanted rule (mercy was the last): the page says so in a
    sentence, not as an empty table; a wanted rule is a row again."""
    from unoformal.catalogue import Wanted
    from unoformal.show import matrix as page

    assert page._wanted().endswith("lists no house rule that a rule file cannot state yet.")
    monkeypatch.setattr(page, "wanted", lambda: (Wanted("seats", "end", "A rule", "why"),))
    assert page._wanted().splitlines()[-1] == "| end | A rule | why |"


def test_each_task_starts_with_the_prover_holding_nothing_of_the_tables_before() -> None:
    """A worker runs hundreds of tables; what the prover kept of the earlier ones (the
    compiled tables, the per-list terms) slowed the later ones by half."""
    from unoformal.rulebook.variants import load_rules
    from unoformal.verification.matrix import run_task
    from unoformal.verification.z3 import prover, state
    from unoformal.verification.z3.properties import property_named

    prover.check_together(load_rules("classic"), [property_named("conservation")], 2)
    assert prover._setup.cache_info().currsize and state._PER_LIST
    said = run_task(("pair", ("stack-draw-two+stack-mixed", (2,), ("tiny",), {})))
    assert isinstance(said, str)  # refused before any check: nothing of its own kept
    assert prover._setup.cache_info().currsize == 0 and not state._PER_LIST


def test_a_pair_s_finding_gives_the_reason_of_the_combination_that_expects_it() -> None:
    """The page's pairs say why, where the catalogue's index has a combination of the two
    rules stating the verdict; a finding with none says nothing more."""
    found = Pair("stack-draw-two", "jump-in", pair_only=[("jump-in", "refuted 2-4")])
    assert "a Draw Two jumped in on waits" in _why(found)
    assert _why(Pair("jump-in", "stack-draw-two", pair_only=[("jump-in", "refuted 2")])) \
        == _why(found)  # in either order
    assert _why(Pair("stack-draw-two", "jump-in", pair_only=[("uno", "refuted 2")])) == "-"
    assert _why(Pair("draw-until", "no-action-last", pair_only=[("jump-in", "x")])) == "-"


def test_an_explorer_finding_of_a_pair_gives_its_combination_s_reason() -> None:
    """An explorer finding has a reason too, where a combination of the two rules gives
    one for it on that deck; on another deck, or another finding, none."""
    dead = "EXT-LAST drawn-not-answered: never fires"
    assert "no draw card is ever a player's last" in _why(
        Pair("stack-mixed", "no-action-last", new={"tiny": [dead]}))
    assert _why(Pair("stack-mixed", "no-action-last", new={"three": [dead]})) == "-"
    assert _why(Pair("stack-mixed", "no-action-last",
                     new={"tiny": ["1 stuck state(s)"]})) == "-"
