"""The catalogue of house rules (issue 40): every rule and reading loads, each is off in
classic and changes it, names combine with '+' and refuse what cannot be combined,
a game under any of them saves a record that replays with no file, and the matrix
finds what each rule breaks from the tools."""

from __future__ import annotations

import functools
import json
import random
from pathlib import Path

import pytest

from unoformal.catalogue import FAMILIES, Combination, combinations, find, presets, rules
from unoformal.commands.cli import main
from unoformal.engine.game import Game
from unoformal.engine.record import replay, to_record
from unoformal.errors import InvalidInputError, VariantError
from unoformal.rulebook.cards import Kind
from unoformal.rulebook.table import CLASSIC
from unoformal.rulebook.variants import load_rules, load_toml
from unoformal.rules.play import playable
from unoformal.verification.matrix import Findings, _new, findings
from unoformal.verification.z3.manifest import OFF, expected

NAMES = [name for r in rules() for name in r.names()]


def test_the_catalogue_has_a_rule_in_each_family_it_names() -> None:
    assert {r.family for r in rules()} <= set(FAMILIES)
    assert len({r.name for r in rules()}) == len(rules())
    assert all(r.readings and r.title and r.elsewhere for r in rules())


@pytest.mark.parametrize("name", NAMES)
def test_each_reading_loads_and_departs_from_classic(name: str) -> None:
    table = load_rules(name)
    assert table != CLASSIC and (table.overrides or table.house)
    _, reading = find(name)  # type: ignore[misc]
    if reading.path is not None:  # a rule file a user can copy and run as it is
        assert load_toml(reading.path) == table


def test_every_house_rule_is_off_in_classic() -> None:
    assert CLASSIC.house == ()
    for name in NAMES:
        for rule in load_rules(name).house:
            assert rule.id not in {r.id for _, r in CLASSIC.entries()}


def test_names_joined_by_plus_combine_what_each_sets() -> None:
    table = load_rules("force-play+must-play+no-wild-last")
    assert table.name == "force-play+must-play+no-wild-last"
    assert table.draw.must_play_drawn and not table.draw.may_draw_when_able_to_play
    assert [r.id for r in table.house] == ["HOUSE-NO-WILD-LAST"]


def test_two_rules_that_set_one_value_differently_cannot_be_combined() -> None:
    with pytest.raises(VariantError) as err:
        load_rules("stack-draw-two+stack-mixed")
    said = err.value.message
    assert "stacking sets NOSTACK-1 answers" in said and "stack-mixed sets" in said
    assert "cannot be combined" in said and err.value.rule_id == "NOSTACK-1"


def test_an_unknown_name_or_reading_is_refused_naming_what_there_is() -> None:
    with pytest.raises(VariantError, match=r"a house rule or preset of the catalogue"):
        load_rules("draw-untill")
    with pytest.raises(VariantError, match=r"progressive has no reading .x.*same-kind"):
        load_rules("progressive@x")
    with pytest.raises(VariantError, match="unknown rules 'nope'"):
        load_rules("force-play+nope")


def test_a_play_change_naming_the_card_is_folded_per_kind() -> None:
    """card(...) is known when a play's command is built: the conjunct of stack-mixed@up
    is no part of a number's play, and reads as the pending kind alone in a Draw Two's."""
    table = load_rules("stack-mixed@up")
    assert all(c.rule != "HOUSE-STACK-UP" for c in playable(table, Kind.NUMBER))
    (part,) = [c for c in playable(table, Kind.DRAW_TWO) if c.rule == "HOUSE-STACK-UP"]
    assert part.cond.text() == "not (the card being answered is a Wild Draw Four)"


def test_card_names_the_card_played_only_in_a_change_of_play(tmp_path: Path) -> None:
    path = tmp_path / "bad.toml"
    path.write_text('name = "bad"\n[[house]]\nid = "HOUSE-X"\ntext = "x"\n'
                    '[[house.change]]\ncommand = "draw"\nrequire = "card(wild)"\n'
                    'words = "no"\n')
    with pytest.raises(VariantError, match=r"bad.toml.*change\[0\].require.*only a change "
                       "of play has one"):
        load_toml(path)


@pytest.mark.parametrize("name", ["draw-until+stack-mixed@up", "progressive+no-wild-last",
                                  "play-after-draw+uno-penalty@six", "app"])
def test_a_game_under_catalogue_rules_replays_from_its_record_alone(name: str) -> None:
    table = load_rules(name)
    rng = random.Random(7)
    game = Game(["A", "B", "C"], seed=11, rules=table)
    for _ in range(400):
        if game.round_over:
            break
        game.apply(rng.choice(game.legal_actions()))
    record = json.loads(json.dumps(to_record(game)))
    assert isinstance(record["rules"], dict)  # embedded, never a catalogue name
    again = replay(record)
    assert again.error is None and again.game.to_text() == game.to_text()


def test_letsunos_party_preset_is_its_switches() -> None:
    """stackDrawTwo, stackDrawFour (no crossStack), zeroRotateHands, sevenSwapHands,
    jumpIn, drawUntilPlayable."""
    table = load_rules("party")
    assert set(table.no_stacking.answers) == {Kind.DRAW_TWO, Kind.WILD_DRAW_FOUR}
    assert {r.id for r in table.house} == {"HOUSE-PROGRESSIVE", "HOUSE-DRAW-UNTIL"}
    assert table.seven_o.enabled and table.jump_in.enabled
    assert table.seven_o.swap_with.value == "next"


def test_presets_are_tables_of_their_rules() -> None:
    (app,) = [p for p in presets() if p.name == "app"]
    table = load_rules("app")
    assert table.seven_o.enabled and table.jump_in.enabled and table.draw.must_play_drawn
    assert {r.id for r in table.house} == {"HOUSE-DRAW-UNTIL"}
    assert app.rules[0] == "stack-draw-two" and table.no_stacking.victim_may_answer


def test_house_rules_lists_the_catalogue(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["house-rules"]) == 0
    out = capsys.readouterr().out
    for name in NAMES:
        assert f"--rules {name} " in out
    assert "app" in out


@pytest.mark.parametrize(("argv", "said"), [
    (["--only", "nope"], "--only nope: no such rule in the catalogue"),
    (["--players", "11"], "player counts"),
    (["--pair-players", "1"], "player counts are 2 to 10 (DECK-2)"),
])
def test_house_rules_refuses_bad_options(argv: list[str], said: str, tmp_path: Path,
                                         capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "m.md"
    assert main(["house-rules", "--out", str(out), *argv]) == 2
    err = capsys.readouterr().err
    assert said in err and "Traceback" not in err and not out.exists()


def test_every_verb_takes_a_catalogue_name(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["verify", "--rules", "no-wild-last", "--players", "2",
                 "--property", "play-matches", "--quiet", "--jobs", "1", "--no-witness"]) in (0, 1)
    assert main(["explore", "--preset", "micro", "--rules", "misplay-one+no-uno-call",
                 "--no-progress"]) == 0
    assert "states" in capsys.readouterr().out


def test_a_catalogue_error_on_the_command_line_is_one_line(
        capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["rules", "--rules", "stack-draw-two+stack-mixed"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "cannot be combined" in err


def test_invalid_input_is_not_swallowed() -> None:
    with pytest.raises((VariantError, InvalidInputError)):
        load_rules("")


def test_explorer_witnesses_rules_file_keeps_the_house_rules(tmp_path: Path) -> None:
    """What explore --witnesses writes beside its records, a variant file for --rules,
    reads back as the very table (its house rules were left out before)."""
    assert main(["explore", "--preset", "micro", "--rules", "draw-until",
                 "--witnesses", str(tmp_path), "--no-progress"]) == 0
    again = load_toml(tmp_path / "rules.toml")
    assert [r.id for r in again.house] == ["HOUSE-DRAW-UNTIL"]
    assert again.house == load_rules("draw-until").house


@pytest.mark.parametrize("name", NAMES)
def test_each_reading_verifies_as_its_file_expects_at_two_players(name: str) -> None:
    """Every verdict a rule changes is stated with its reason ([[expect]], or the manifest
    for a shipped variant): verify at two players exits 0 (an entry left out fails it)."""
    assert main(["verify", "--rules", name, "--players", "2", "--quiet", "--jobs", "1",
                 "--no-witness"]) == 0


def test_a_round_ended_at_once_under_stacking_keeps_the_invariant() -> None:
    """The relation's reading of the same fix: a last Draw Two answering one ends the
    round with nothing pending, so the pair's invariant is proved (it was refuted while
    the round kept the waiting count, a finding of our own encoding, not of the pair)."""
    assert main(["verify", "--rules", "stack-draw-two+last-draw-card-ends", "--players",
                 "2", "--property", "invariant", "--quiet", "--jobs", "1",
                 "--no-witness"]) == 0


@pytest.mark.parametrize("name", [p.name for p in presets()])
def test_each_preset_validates_clean_in_a_short_run(
        name: str, capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """A preset combines rules no single reading's test plays together: the engine and
    the relation must agree on it too (a short run, too short to cover every branch;
    validate party found the engine listing no 7 jumped in under seven-o@next with
    jump-in)."""
    main(["validate", "--rules", name, "--players", "3", "--steps", "400", "--workers",
          "1", "--json", "--out", str(tmp_path)])
    report = json.loads(capsys.readouterr().out)
    assert report["steps"] >= 400 and report["mismatches"] == []


def test_a_wild_draw_four_stacked_as_the_last_card_without_a_challenge_keeps_the_invariant(
        ) -> None:
    """The invariant's WD4-1 strengthening (an offender who went out with a Wild Draw
    Four played it legally) holds only where the play notes that verdict, for a
    challenge: with none (no-challenge), a Wild Draw Four that waits to be stacked on
    (stack-mixed@up) notes nothing, and the pair's invariant was refuted at 2-10 (the
    no-mercy preset's 9 unexpected verdicts). The conjunct now applies where WD4-2's
    challenge exists."""
    assert main(["verify", "--rules", "stack-mixed@up+no-challenge", "--players", "2",
                 "--property", "invariant", "--quiet", "--jobs", "1", "--no-witness"]) == 0


@pytest.mark.parametrize("combination", [c for c in combinations() if c.expect],
                         ids=lambda c: c.name)
def test_each_combination_verifies_as_its_entries_say_at_two_players(
        combination: Combination) -> None:
    """What rules give together is checked on those rules alone: each combination's
    properties verify at two players as its entries say, and each entry is needed: its
    rules alone expect another verdict, or disagree (no-challenge's vacuous challenge
    beside mercy's refuted one), so left out it fails or is a guess."""
    name = combination.name
    props = sorted({e["property"] for e in combination.expect})
    args = ["verify", "--rules", name, "--players", "2", "--quiet", "--jobs", "1",
            "--no-witness", *[x for p in props for x in ("--property", p)]]
    assert main(args) == 0
    alone = load_rules(name)
    assert all(expected(alone, p, 2).source == "inherited" for p in props)
    assert all(expected(alone, p, 2).variant == name for p in props)
    parts = [load_rules(part) for part in combination.rules]
    for e in combination.expect:
        if e["players"].split("-")[0] == "2":  # a rule that switches the property off
            # asks nothing of it, so says nothing; one rule at least asks
            alone = [expected(part, e["property"], 2) for part in parts]
            asked = [x.verdict for x in alone if x.source != OFF]
            assert asked and set(asked) != {e["verdict"]}, (name, e["property"])


@functools.cache
def _found(name: str, deck: str) -> Findings:
    return findings(load_rules(name), deck)[0]


def _first_of_each_reason() -> list[Combination]:
    """The first combination giving each explorer finding's reason (the others repeat
    it for another stacking rule: the page test below checks that they agree with the
    matrix's own run)."""
    seen: dict[str, Combination] = {}
    for c in combinations():
        for e in c.findings:
            seen.setdefault(e["reason"], c)
    return list(dict.fromkeys(seen.values()))


@pytest.mark.parametrize("combination", _first_of_each_reason(), ids=lambda c: c.name)
def test_a_combination_s_explorer_finding_is_the_pair_s_and_neither_rule_s(
        combination: Combination) -> None:
    """A combination's explorer finding, with the reason the matrix page gives for it,
    is what the matrix reports: the explorer finds it of the rules together on its deck
    and of neither rule alone. Where the reason says a deck with Draw Twos makes it
    fire, it does (``reverse``)."""
    for e in combination.findings:
        alone = [_found(r, e["deck"]) for r in combination.rules]
        assert e["finding"] in _new(_found(combination.name, e["deck"]), alone), \
            (combination.name, e["finding"])
        if "(explored on `reverse`)" in e["reason"]:
            dead = e["finding"].removesuffix(": never fires")
            assert dead not in _found(combination.name, "reverse").dead


def test_the_page_shows_each_combination_s_explorer_finding_with_its_reason() -> None:
    """Every combination's explorer finding is one the matrix found for that pair (the
    generated page's row), and the row gives the combination's reason."""
    page = (Path(__file__).parents[2] / "docs" / "house-rules.md").read_text("utf-8")
    rows = {line.split(" | ")[0]: line for line in page.splitlines()
            if line.startswith("| `") and "` + `" in line.split(" | ")[0]}
    for c in combinations():
        for e in c.findings:
            row = rows["| " + " + ".join(f"`{r}`" for r in c.rules)]
            cells = row.split(" | ")
            assert e["finding"] in cells[2].split("<br>"), (c.name, e["finding"])
            assert e["reason"] in row, c.name
