"""docs/rules.md is the table's own rules document, and every rule's words follow its values."""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import Any

import pytest

from unoformal.commands.cli import main
from unoformal.rulebook.document import COMMAND, expand, render
from unoformal.rulebook.table import CLASSIC, Rule
from unoformal.rulebook.variants import VARIANTS, load_rules
from unoformal.rulebook.words import TemplateError, fill, placeholders

ROOT = Path(__file__).resolve().parents[2]
DOC = ROOT / "docs" / "rules.md"
# The head, and what a template need not say: an effect's or start rule's kind names the
# entry (its words say which card), "enabled" is said apart ("Switched off").
UNSAID = {"enabled", "extension", "kind"}


def test_docs_rules_md_is_the_generated_document() -> None:
    assert DOC.read_text(encoding="utf-8") == render(CLASSIC), (
        f"docs/rules.md is stale: regenerate it with `{COMMAND}`")


def test_the_staleness_check_notices_a_changed_value() -> None:
    # The check above compares whole documents: a one-value change (UNO-1's penalty in
    # seed004) must change the document, in that rule's words.
    changed = render(load_rules("seed004"))
    assert changed != render(CLASSIC)
    assert "draw 1 card." in changed and "draw 2 cards." not in changed


def test_every_rule_id_has_a_section_with_its_words_and_sites() -> None:
    doc = DOC.read_text(encoding="utf-8")
    for _, rule in CLASSIC.entries():
        assert f"\n## {rule.id}\n" in doc
        assert rule.words() in doc
    play = doc.split("\n## CHAL-3\n")[1].split("\n## ")[0]
    assert "`Game._do_challenge`" in play and "`challenge_failed`" in play
    assert "tests/engine/test_rules.py::test_chal_3" in play


def test_no_path_from_outside_the_repository() -> None:
    machine = ("/work/", "/tmp/", "venv/", "/home/")
    outside = ("RULES.md", "shared/", "the verification issue")
    for path in [*(ROOT / "docs").glob("*.md"), *(ROOT / "benchmarks").glob("*.py")]:
        text = path.read_text(encoding="utf-8")
        for bad in (*machine, *outside):
            assert bad not in text, f"{path.name} mentions {bad!r}"
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert not [bad for bad in outside if bad in readme]


@pytest.mark.parametrize("name", sorted(VARIANTS))
def test_words_have_no_field_names_and_no_braces(name: str) -> None:
    for _, rule in load_rules(name).entries():
        words = rule.words()
        assert "{" not in words and "}" not in words, (rule.id, words)
        for field in rule.values():
            if "_" in field:
                assert field not in words, (rule.id, field, words)


def test_every_value_is_in_its_entrys_words() -> None:
    for _, rule in CLASSIC.entries():
        missing = set(rule.values()) - UNSAID - placeholders(rule.text)
        assert not missing, f"{rule.id}: the words do not say {sorted(missing)}"


def _changed(value: Any) -> Any:
    if isinstance(value, bool):
        return not value
    if isinstance(value, int):
        return value + 1
    return None


def test_changing_any_switch_or_count_changes_the_words() -> None:
    for _, rule in CLASSIC.entries():
        for key, value in rule.values().items():
            new = _changed(value)
            if key in UNSAID or new is None:
                continue
            other: Rule = dataclasses.replace(rule, **{key: new})
            if other.words() == rule.words():
                # a house rule's reading, said only while the rule is on (a choice within
                # its switch's words): changed where a catalogue table switches it on
                assert any(dataclasses.replace(on, **{key: _changed(getattr(on, key))})
                           .words() != on.words() for on in _switched_on(rule)), \
                    f"{rule.id}.{key} = {new} says the same"


def _switched_on(rule: Rule) -> list[Rule]:
    """The entry ``rule`` as the catalogue's tables set it, where they change it."""
    from unoformal.catalogue import rules as catalogue

    tables = [load_rules(f"{r.name}@{x.name}") for r in catalogue() for x in r.readings]
    return [other for table in tables for _, other in table.entries()
            if other.id == rule.id and other != rule]


def test_nostack_1_deflection_is_said_only_where_it_is_on() -> None:
    assert "pass it on" not in CLASSIC.no_stacking.words()
    words = load_rules("deflect").no_stacking.words()
    assert "pass it on with one of these cards: a Skip, a Reverse, of the current color" in words
    assert "of any color" in load_rules("deflect@any-color").no_stacking.words()


def test_nostack_1_under_stacking_the_victim_may_answer() -> None:
    words = load_rules("stacking").no_stacking.words()
    assert "cannot answer" not in words
    assert "may answer it with a Draw Two" in words


def test_end_2_winner_deals_says_so() -> None:
    assert "goes to the round winner" in load_rules("winner-deals").next_round.words()
    assert "passes to the left" in CLASSIC.next_round.words()


def test_a_template_naming_no_field_is_refused() -> None:
    with pytest.raises(TemplateError, match="first_seats"):
        fill("The player {first_seats} left", {"first_seat": 1})
    assert fill("{n:card}, {n?yes|no}, {d=left?L|R}", {"n": 1, "d": "left"}) == "1 card, yes, L"


def test_a_value_with_braces_is_not_read_as_a_placeholder() -> None:
    assert fill("{x}", {"x": ("{y}",), "y": 1}) == "{y}"


def test_deal_3_rules_command_fills_the_values(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["rules"]) == 0
    out = capsys.readouterr().out
    assert "first_seat seats" not in out and "in direction" not in out
    assert main(["rules", "--rules", "stacking", "--markdown"]) == 0
    out = capsys.readouterr().out
    assert "may answer it with a Draw Two" in out and "cannot answer" not in out


def test_a_range_of_ids_cites_each() -> None:
    assert expand("CHAL-1..3 and UNO-1") == "CHAL-1 CHAL-2 CHAL-3 and UNO-1"


def test_findings_come_from_the_readme_s_findings_section(tmp_path: Path) -> None:
    # Only the bullets of "What the tools found in the rulebook" are findings; the section
    # after it (here one whose bullet cites a rule in bold) is not (the parser once read
    # the next section instead).
    readme = tmp_path / "README.md"
    readme.write_text("# x\n\n## What the tools found in the rulebook\n\n"
                      "- **Found here.** DRAW-1 is read.\n\n## Next\n\n"
                      "- **Not a finding.** PLAY-1 too.\n", encoding="utf-8")
    (tmp_path / "tests").mkdir()
    text = render(CLASSIC, root=tmp_path)
    draw = text[text.index("\n## DRAW-1\n"):text.index("\n## RESHUFFLE-1\n")]
    assert 'Findings: Found here. (README, "What the tools found in the rulebook")' in draw
    assert "Not a finding" not in text
