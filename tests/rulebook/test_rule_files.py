"""A house rule in a file (issue 40): the rule file of docs/how-a-rule-is-written.md, run
by every verb with nothing in the package edited; its changes read alike by the engine,
the relation and the words; a broken file refused naming the file, the rule, the change
and the field."""

from __future__ import annotations

import json
import random
import re
import tomllib
from pathlib import Path
from typing import Any

import pytest

from tests.test_roundtrip import _play
from unoformal.commands.cli import main
from unoformal.engine.actions import Action, ActionType
from unoformal.engine.game import Game
from unoformal.engine.record import replay, to_record
from unoformal.errors import IllegalActionError, VariantError
from unoformal.rulebook.table import CLASSIC
from unoformal.rulebook.variants import load_rules
from unoformal.rules.book import commands
from unoformal.rules.state import DRAWN, PLAY

DOC = Path(__file__).resolve().parents[2] / "docs" / "how-a-rule-is-written.md"
RULE = "HOUSE-DRAW-UNTIL"


def doc_rule() -> str:
    """The rule file the page shows (its first toml block)."""
    return re.search(r"```toml\n(.*?)```", DOC.read_text("utf-8"), re.S).group(1)  # type: ignore[union-attr]


@pytest.fixture
def rule_file(tmp_path: Path) -> Path:
    path = tmp_path / "draw-until.toml"
    path.write_text(doc_rule(), encoding="utf-8")
    return path


def _drawn(path: Path, playable: bool) -> Game:
    """A game under the file just after its first player drew a card that may (or may
    not) be played."""
    rules = load_rules(str(path))
    for seed in range(300):
        game = Game(["A", "B"], seed=seed, rules=rules)
        if game.phase != PLAY:
            continue
        game.apply(Action(game.to_play, ActionType.DRAW))
        drawn = game.drawn
        assert drawn is not None
        if game._can_play(game.turn, drawn) == playable:
            return game
    raise AssertionError("no such deal in 300 seeds")


def test_a_player_who_drew_a_card_they_cannot_play_draws_again(rule_file: Path) -> None:
    game = _drawn(rule_file, playable=False)
    player = game.to_play
    listed = game.legal_actions(player)
    assert Action(player, ActionType.DRAW) in listed
    assert Action(player, ActionType.PASS) not in listed
    with pytest.raises(IllegalActionError) as err:
        game.copy().apply(Action(player, ActionType.PASS))
    assert err.value.rule_id == RULE
    assert "must draw again: the card drawn cannot be played" in err.value.message
    game.apply(Action(player, ActionType.DRAW))  # the engine makes it
    assert game.phase == DRAWN


def test_a_card_that_may_be_played_ends_the_drawing(rule_file: Path) -> None:
    game = _drawn(rule_file, playable=True)
    listed = game.legal_actions(game.to_play)
    assert Action(game.to_play, ActionType.DRAW) not in listed
    assert Action(game.to_play, ActionType.PASS) in listed


def test_switched_off_the_file_plays_the_base(rule_file: Path, tmp_path: Path) -> None:
    off = tmp_path / "off.toml"
    off.write_text(rule_file.read_text().replace('reason = "The', 'enabled = false\nreason = "The'))
    rules = load_rules(str(off))
    assert not rules.house[0].enabled
    ours, base = Game(["A", "B", "C"], seed=5, rules=rules), Game(["A", "B", "C"], seed=5)
    for i in range(300):
        if base.round_over:
            break
        listed = base.legal_actions()
        assert ours.legal_actions() == listed
        ours.apply(listed[i % len(listed)])
        base.apply(listed[i % len(listed)])
    assert ours.to_text().split(" ", 1)[1] == base.to_text().split(" ", 1)[1]


def test_the_house_rule_is_an_entry_of_the_table_with_its_words(rule_file: Path) -> None:
    rules = load_rules(str(rule_file))
    entry = rules.entry(RULE)
    assert entry.house and entry.enabled and "draws again" in entry.words()
    assert CLASSIC.house == ()


def test_verify_refutes_what_the_file_expects_and_exits_0(
        rule_file: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["verify", "--rules", str(rule_file), "--players", "2", "--json",
                 "--property", "after-draw", "--property", "uno", "--no-witness"])
    rows = json.loads(capsys.readouterr().out)
    assert code == 0
    verdicts = {r["property"]: (r["verdict"], r["expected"]) for r in rows}
    assert verdicts == {"after-draw": ("refuted", "refuted"), "uno": ("proved", "proved")}


def test_explore_and_show_take_the_file(rule_file: Path, tmp_path: Path,
                                        capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["explore", "--preset", "tiny", "--rules", str(rule_file), "--json"]) in (0, 1)
    ours = json.loads(capsys.readouterr().out)
    assert main(["explore", "--preset", "tiny", "--json"]) in (0, 1)
    base = json.loads(capsys.readouterr().out)
    assert ours["states"] != base["states"]  # drawing again reaches other states
    out = tmp_path / "v.json"
    assert main(["verify", "--rules", str(rule_file), "--players", "2", "--json",
                 "--property", "after-draw"]) == 0
    out.write_text(capsys.readouterr().out)
    page = tmp_path / "v.html"
    assert main(["show", str(out), "--rules", str(rule_file), "--out", str(page)]) == 0
    assert RULE in page.read_text("utf-8")


def test_a_record_of_a_game_under_the_file_replays_without_it(rule_file: Path) -> None:
    rules = load_rules(str(rule_file))
    game = Game(["A", "B"], seed=2, rules=rules)
    for i in range(200):
        if game.round_over:
            break
        listed = game.legal_actions(penalties=False)
        game.apply(listed[i % len(listed)])
    data = json.loads(json.dumps(to_record(game)))
    assert data["rules"]["house"][0]["id"] == RULE
    rule_file.unlink()
    done = replay(data)
    assert done.error is None and done.game.to_text() == game.to_text()


@pytest.mark.parametrize(("change", "said"), [
    ('when = "phase(play) or drawn-playble(false)"', "no condition 'drawn-playble'"),
    ('when = "phase(nowhere)"', "a phase is one of"),
    ('when = "phase(play) or"', "expected more"),
    ('when = "(phase(play)"', "expected ')'"),
    ('when = "phase(play) ; drop"', "unexpected ';'"),
])
def test_a_broken_condition_is_refused_naming_the_file_the_rule_and_the_field(
        rule_file: Path, change: str, said: str) -> None:
    text = rule_file.read_text().replace(
        'when = "phase(play) or (phase(drawn) and drawn-playable(false))"', change)
    rule_file.write_text(text)
    with pytest.raises(VariantError) as err:
        load_rules(str(rule_file))
    assert "draw-until.toml" in err.value.message and RULE in err.value.message
    assert "change[0].when" in err.value.message and said in err.value.message


@pytest.mark.parametrize(("old", "new", "said"), [
    ('command = "draw"', 'command = "play_number"', "a rule file changes one of"),
    ('conjunct = "one draw per turn"', 'conjunct = "two draws per turn"',
     "draw has no conjunct in those words"),
    ('words = "{actor} must draw again: the card drawn cannot be played"', "",
     "has the words of its refusal"),
    ('id = "HOUSE-DRAW-UNTIL"', 'id = "DRAW-1"', "an entry of the table has this ID"),
])
def test_a_broken_change_is_refused_naming_what_is_wrong(
        rule_file: Path, old: str, new: str, said: str,
        capsys: pytest.CaptureFixture[str]) -> None:
    rule_file.write_text(rule_file.read_text().replace(old, new))
    assert main(["verify", "--rules", str(rule_file), "--players", "2"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "Traceback" not in err
    assert "draw-until.toml" in err and said in err, err


def _verdicts(path: Path, capsys: pytest.CaptureFixture[str], *more: str) -> dict[str, str]:
    main(["verify", "--rules", str(path), "--players", "2", "--json", "--no-witness",
          "--property", "draw-until-playable", *more])
    return {r["property"]: r["verdict"] for r in json.loads(capsys.readouterr().out)}


def test_the_files_property_proves_its_rule_and_is_vacuous_where_it_is_off(
        rule_file: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert _verdicts(rule_file, capsys) == {"draw-until-playable": "proved"}
    off = tmp_path / "off.toml"
    off.write_text(rule_file.read_text().replace('reason = "The', 'enabled = false\nreason = "The'))
    assert _verdicts(off, capsys) == {"draw-until-playable": "vacuous"}


def test_a_wrong_change_is_caught_by_the_files_property_and_not_by_validate(
        rule_file: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The issue's planted bug: the engine and the relation share the changed command, so
    validate agrees with itself; the property, stated apart from it, refutes it."""
    rule_file.write_text(rule_file.read_text().replace(
        'require = "drawn-playable(true) or', 'require = "drawn-playable(false) or'))
    assert _verdicts(rule_file, capsys) == {"draw-until-playable": "refuted"}
    assert main(["validate", "--rules", str(rule_file), "--players", "2", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["mismatches"] == []


@pytest.mark.parametrize(("old", "new", "said"), [
    ('command = "keep"\nbefore', 'command = "nowhere"\nbefore', "no such move"),
    ('name = "draw-until-playable"', 'name = "after-draw"', "a property of that name exists"),
    ('before = "phase(drawn) and (drawn-playable(true) or fewer-cards-left-than(1))"', "",
     "states before, after or both"),
])
def test_a_broken_property_is_refused_naming_it(rule_file: Path, old: str, new: str,
                                               said: str) -> None:
    text = rule_file.read_text()
    assert old in text
    rule_file.write_text(text.replace(old, new))
    with pytest.raises(VariantError) as err:
        load_rules(str(rule_file))
    assert "property[0]" in err.value.message and said in err.value.message


ANY_CARD = '''name = "any-card-after-drawing"
base = "classic"
description = "After drawing, any card that may be played is played."

[[house]]
id = "HOUSE-ANY-AFTER-DRAW"
text = "A player who has drawn may play any card of their hand that may be played."
reason = "DRAW-1 lets only the drawn card be played; some engines let any."

[[house.change]]
command = "play"
conjunct = "after drawing only the drawn card may be played"
drop = true
'''


def test_a_change_to_whether_a_card_may_be_played_reaches_every_reader(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """``play`` changes the conjuncts every play ends with: after drawing, a card other
    than the drawn one is listed (by the full listing and a bot's, whose shortcut asks the
    drawn card alone only where DRAW-1's conjunct is kept) and played; the relation
    agrees step by step, and DRAW-1's property is refuted."""
    path = tmp_path / "any-card.toml"
    path.write_text(ANY_CARD)
    rules = load_rules(str(path))
    for seed in range(300):
        game = Game(["A", "B"], seed=seed, rules=rules)
        if game.phase != PLAY:
            continue
        game.apply(Action(game.to_play, ActionType.DRAW))  # DRAW-1: able to play or not
        others = [c for c in set(game.hands[game.turn]) if c != game.drawn
                  and game._can_play(game.turn, c)]
        if others:
            break
    else:
        raise AssertionError("no deal where a card other than the drawn one may be played")
    card = game.deck.code(others[0])
    for penalties in (True, False):
        listed = {a.card for a in game.legal_actions(game.to_play, penalties=penalties)
                  if a.type is ActionType.PLAY}
        assert card in listed, (penalties, listed)
    assert main(["validate", "--rules", str(path), "--players", "2", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["mismatches"] == []
    main(["verify", "--rules", str(path), "--players", "2", "--json", "--no-witness",
          "--property", "after-draw"])
    assert [r["verdict"] for r in json.loads(capsys.readouterr().out)] == ["refuted"]


def test_a_required_play_condition_holds_on_the_engines_shortcut_too(tmp_path: Path) -> None:
    """The listing's shortcut where a play is exactly a matching card (EXT-SHORT on,
    bluffs playable) is left where a rule file changes whether a card may be played: a
    play required not to be made from a hand of 3 is listed by neither listing."""
    path = tmp_path / "no-play-at-3.toml"
    path.write_text(ANY_CARD.replace(
        'conjunct = "after drawing only the drawn card may be played"\ndrop = true',
        'require = "not hand-size(3)"\nwords = "{actor} holds 3 cards: no play"'))
    rules = load_rules(str(path))
    rng = random.Random(3)
    for seed in range(200):
        game = Game(["A", "B"], seed=seed, rules=rules)
        while not game.round_over and not (game.phase == PLAY and
                                           len(game.hands[game.turn]) == 3):
            game.apply(rng.choice(game.legal_actions(penalties=False)))
        if not game.round_over:
            break
    else:
        raise AssertionError("no game reached a hand of 3 on its turn")
    for penalties in (True, False):
        assert not [a for a in game.legal_actions(game.to_play, penalties=penalties)
                    if a.type is ActionType.PLAY]


def _doc_block(name: str) -> str:
    """The page's toml block that starts with ``# name``."""
    found = re.search(f"```toml\n(# {re.escape(name)}\n.*?)```", DOC.read_text("utf-8"), re.S)
    assert found is not None, name
    return found.group(1)


@pytest.fixture
def skip_draw(tmp_path: Path) -> Path:
    path = tmp_path / "skip-draw.toml"
    path.write_text(_doc_block("skip-draw.toml"), encoding="utf-8")
    return path


def _skip_played(rules: Any) -> tuple[Game, Game]:
    """A game at three players where the player to move holds a Skip that may be played,
    before and after playing it."""
    return _played(rules, ["A", "B", "C"], "S")


def test_a_step_a_file_adds_is_played_by_the_engine(skip_draw: Path) -> None:
    """skip-draw.toml's ``then``: the player a Skip skips draws one card; under classic,
    the same Skip draws nothing."""
    before, after = _skip_played(load_rules(str(skip_draw)))
    skipped = (before.turn + 1) % 3
    assert len(after.hands[skipped]) == len(before.hands[skipped]) + 1
    assert after.turn == (before.turn + 2) % 3
    before, after = _skip_played(CLASSIC)
    skipped = (before.turn + 1) % 3
    assert len(after.hands[skipped]) == len(before.hands[skipped])


def test_a_step_a_file_adds_is_read_by_every_tool(
        skip_draw: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The words list it in the Skip's play, Z3 refutes what the file expects (and no
    other kind of card has the step), validate finds the engine and the relation agree,
    and a record of a game under the file replays without it."""
    assert main(["rules", "--rules", str(skip_draw), "--markdown"]) == 0
    words = capsys.readouterr().out
    start = words.index("  - `play_skip` (")
    play_skip = words[start:words.index("- Engine:", start)]
    assert "the next player draws 1 card (HOUSE-SKIP-DRAW)" in play_skip
    blocks = re.split(r"\n  - `", words)  # each command's words, under each rule it cites
    # the Skip's play, and the same play jumped in with (JUMP-IN's section, switched on)
    assert {b.split("`")[0] for b in blocks if "(HOUSE-SKIP-DRAW)" in b} == \
        {"play_skip", "jump_skip"}
    assert main(["verify", "--rules", str(skip_draw), "--players", "3", "--json",
                 "--property", "card-effects", "--no-witness"]) == 0
    rows = json.loads(capsys.readouterr().out)
    assert [(r["verdict"], r["expected"]) for r in rows] == [("refuted", "refuted")]
    # a short run: no mismatch (what it leaves uncovered makes the exit 1)
    assert main(["validate", "--rules", str(skip_draw), "--players", "3",
                 "--steps", "1500", "--workers", "1"]) in (0, 1)
    said = capsys.readouterr().out
    assert "0 mismatches" in said and "play_skip" not in said.split("uncovered:")[-1]
    record = tmp_path / "game.json"
    game = _play(monkeypatch, record, str(skip_draw), seed=4)
    assert any(a.type is ActionType.PLAY and a.card is not None and a.card[1:] == "S"
               for a in game.history)  # the record has the step to replay
    skip_draw.unlink()
    capsys.readouterr()
    assert main(["replay", str(record), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["text"] == game.to_text()


def test_a_files_rules_document_names_its_command_and_what_the_file_checks(
        skip_draw: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The document of a rule file says the command that makes it (not docs/rules.md's),
    lists the file's [[expect]], writes its change as the file does, and lists none of the
    package's tests under its rule: this module's tests cite HOUSE-SKIP-DRAW, the docs'
    example, which a user's rule of that ID is not."""
    assert main(["rules", "--rules", str(skip_draw), "--markdown"]) == 0
    words = capsys.readouterr().out
    head = words[:words.index("\n## ")]
    assert f"by `unoformal rules --rules {skip_draw} --markdown`" in head
    assert "stale" not in head
    assert "- `card-effects` at 2-10 players: refuted. A Skip now makes" in head
    section = words[words.index("\n## HOUSE-SKIP-DRAW\n"):]
    entry = re.search(r"`changes = (\{.*?\})`", section)
    assert entry is not None, section
    filed = tomllib.loads(skip_draw.read_text(encoding="utf-8"))["house"][0]["change"][0]
    assert tomllib.loads(f"change = {entry.group(1)}")["change"] == filed
    assert "- Tests:" not in section and "- Engine:" not in section
    assert "test_rule_files.py" not in section
    assert "- Its properties (`[[house.property]]`, proved by `unoformal verify`): none" \
        in section


@pytest.mark.parametrize(("old", "new", "said"), [
    ('then = "take(next, 1)"', 'then = "tkae(next, 1)"', "no effect 'tkae'"),
    ('then = "take(next, 1)"', 'then = "take(nobody, 1)"', "a seat is one of"),
    ('then = "take(next, 1)"', 'then = "take(offender, 1)"',
     "offender is named only by accept and challenge"),
    ('then = "take(next, 1)"', 'then = "take(next, 0)"', "from 1 to 20"),
    ('then = "take(next, 1)"', 'then = "take(next 1)"', "values are separated by commas"),
    ('then = "take(next, 1)"', 'then = "take(next, 1);"', "an effect is missing"),
    ('then = "take(next, 1)"', 'then = "flip-direction(1)"', "takes no value"),
    ('then = "take(next, 1)"', '', "then_if is the condition of the steps"),
    ('then_if = "card(skip)"', 'then_if = "card(skp)"', "a kind of card is one of"),
])
def test_a_broken_step_is_refused_naming_the_file_the_rule_and_the_field(
        skip_draw: Path, old: str, new: str, said: str,
        capsys: pytest.CaptureFixture[str]) -> None:
    skip_draw.write_text(skip_draw.read_text().replace(old, new))
    assert main(["verify", "--rules", str(skip_draw), "--players", "2"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "Traceback" not in err
    assert "skip-draw.toml" in err and "HOUSE-SKIP-DRAW" in err and said in err, err


# ------------------------------------------------- a step made in the place of the move's own


@pytest.fixture
def skip_two(tmp_path: Path) -> Path:
    path = tmp_path / "skip-two.toml"
    path.write_text(_doc_block("skip-two.toml"), encoding="utf-8")
    return path


def _played(rules: Any, players: list[str], face: str) -> tuple[Game, Game]:
    """A game where the player to move may play a card of ``face`` (``S``, ``+2``; ``W``
    a Wild), before and after playing it."""
    for seed in range(400):
        game = Game(players, seed=seed, rules=rules)
        if game.phase != PLAY:
            continue
        plays = [a for a in game.legal_actions(game.to_play, penalties=False)
                 if a.type is ActionType.PLAY and a.card is not None
                 and (a.card == face if face == "W" else a.card[1:] == face)]
        if plays:
            after = game.copy()
            after.apply(plays[0])
            return game, after
    raise AssertionError(f"no {face} to play in 400 seeds")


def test_a_step_a_file_replaces_is_made_in_its_place(skip_two: Path) -> None:
    """skip-two.toml: a Skip moves the turn three seats on; a Draw Two, whose play has the
    same step, still two (then_if); under classic a Skip moves it two."""
    four = ["A", "B", "C", "D"]
    rules = load_rules(str(skip_two))
    before, after = _played(rules, four, "S")
    assert after.turn == before._next(before.turn, 3) != before._next(before.turn, 2)
    before, after = _played(rules, four, "+2")
    assert after.turn == before._next(before.turn, 2)
    before, after = _played(CLASSIC, four, "S")
    assert after.turn == before._next(before.turn, 2)


def test_a_replaced_step_is_read_by_every_tool(
        skip_two: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The words say what the Skip's play makes instead, and the Draw Two's is its own;
    Z3 refutes what the file expects at two players; validate finds the engine and the
    relation agree; a record replays without the file."""
    assert main(["rules", "--rules", str(skip_two), "--markdown"]) == 0
    words = capsys.readouterr().out
    section = words[words.index("\n## HOUSE-SKIP-TWO\n"):]
    skip = section[section.index("  - `play_skip` ("):]
    assert '    - instead of "the turn goes 2 seats on" (HOUSE-SKIP-TWO):\n' \
        "      - then the turn goes 3 seats on\n" in skip
    assert "  - `play_draw_two` (" not in section  # the change leaves the Draw Two's play
    assert main(["verify", "--rules", str(skip_two), "--players", "2", "--json",
                 "--property", "two-player-turn-returns", "--no-witness"]) == 0
    rows = json.loads(capsys.readouterr().out)
    assert [(r["verdict"], r["expected"]) for r in rows] == [("refuted", "refuted")]
    assert main(["validate", "--rules", str(skip_two), "--players", "4",
                 "--steps", "1500", "--workers", "1"]) in (0, 1)
    said = capsys.readouterr().out
    assert "0 mismatches" in said and "play_skip" not in said.split("uncovered:")[-1]
    record = tmp_path / "game.json"
    game = _play(monkeypatch, record, str(skip_two), seed=4)
    assert any(a.type is ActionType.PLAY and a.card is not None and a.card[1:] == "S"
               for a in game.history)
    skip_two.unlink()
    capsys.readouterr()
    assert main(["replay", str(record), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["text"] == game.to_text()


def test_a_dropped_step_is_made_nowhere(tmp_path: Path) -> None:
    """drop = true: a Wild that leaves the turn with its player (its "the turn passes to
    the next player" dropped), in the engine and in the words."""
    path = tmp_path / "wild-again.toml"
    path.write_text(_doc_block("skip-two.toml").replace('"pass-turn(3)"', "").replace(
        'instead = ', "drop = true").replace("card(skip)", "card(wild)").replace(
        "the turn goes 2 seats on", "the turn passes to the next player").split(
        "[[expect]]")[0], encoding="utf-8")
    rules = load_rules(str(path))
    before, after = _played(rules, ["A", "B", "C"], "W")
    assert after.turn == before.turn
    before, after = _played(CLASSIC, ["A", "B", "C"], "W")
    assert after.turn == before._next(before.turn, 1)
    wild = next(c for c in commands(rules) if c.name == "play_wild")
    assert '- instead of "the turn passes to the next player" (HOUSE-SKIP-TWO):' in \
        wild.text() and "  - then nothing" in wild.text()


@pytest.mark.parametrize(("old", "new", "said"), [
    ('step = "the turn goes 2 seats on"', 'step = "the turn goes two seats on"',
     "step = 'the turn goes two seats on': no play has a step in those words (the plays' "
     "steps: `uno_window` is set to none;"),
    ('instead = "pass-turn(3)"', '', "give what is made in its place (instead) or drop"),
    ('instead = "pass-turn(3)"', 'instead = "pass-turn(3)"\ndrop = true',
     "give instead or drop = true, not both"),
    ('instead = "pass-turn(3)"', 'instead = "pass-trun(3)"', "no effect 'pass-trun'"),
    ('step = "the turn goes 2 seats on"', '', "instead is made in the place of one of the "
     "move's steps: name it (step)"),
    ('command = "play"', 'command = "draw"', "change[0].step = 'the turn goes 2 seats on': "
     "draw has no step in those words (its steps:"),
])
def test_a_broken_replacement_is_refused_naming_the_file_the_rule_and_the_field(
        skip_two: Path, old: str, new: str, said: str,
        capsys: pytest.CaptureFixture[str]) -> None:
    text = skip_two.read_text()
    if 'command = "draw"' in new:  # then_if's card(...) reads a play only
        text = text.replace('then_if = "card(skip)"\n', "")
    skip_two.write_text(text.replace(old, new, 1))
    assert main(["verify", "--rules", str(skip_two), "--players", "2"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "Traceback" not in err
    assert "skip-two.toml" in err and "HOUSE-SKIP-TWO" in err and said in err, err


def test_the_packed_readings_make_a_replaced_step(tmp_path: Path) -> None:
    """The packed successors, read and generated, and Promela take a replaced step (a
    number card that keeps the turn and makes the other player draw, on the `duel` deck):
    the engine's graph, edge for edge, which differs from the rulebook's. (Keeping the
    turn alone would not tell a reading that drops the step: two seats on is no move at
    two players.)"""
    import numpy as np

    from unoformal.verification.packed.search import search
    from unoformal.verification.promela.model import program
    from unoformal.verification.promela.spin import count, missing

    path = tmp_path / "number-again.toml"
    path.write_text(_doc_block("skip-two.toml").replace("card(skip)", "card(number)").replace(
        "the turn goes 2 seats on", "the turn passes to the next player").replace(
        "pass-turn(3)", "take(next, 1)").split("[[expect]]")[0], encoding="utf-8")
    engine = search(duel(str(path)))
    assert engine.edges != search(duel(None)).edges
    for successor in ("commands", "generated"):
        got = search(duel(str(path)), successor=successor)
        assert np.array_equal(got.records.read(), engine.records.read()), successor
        assert np.array_equal(got.dst.read(), engine.dst.read()), successor
        assert np.array_equal(got.act.read(), engine.act.read()), successor
    model = program(duel(str(path)))  # a node without a Promela reading is refused here
    if missing() is None:  # Spin counts the same states (CI installs it)
        assert model.explorer_states(count(model.text, tmp_path).states) == engine.states


def duel(rules: str | None) -> Any:
    """The `duel` preset's round under ``rules`` (a rule file's path; None: the
    rulebook), as the explorer and the packed search take it."""
    from unoformal.verification.explore.graph import Config
    from unoformal.verification.explore.presets import PRESETS, small_rules

    preset = PRESETS["duel"]
    return Config(small_rules(preset.size, rules, dict(preset.extra), "duel"),
                  tuple(preset.size.players_list()), "duel", False, preset.size.penalties)
