"""A move of a rule file's own (``[[house.move]]``, issue 40): made by an action the record
formats know (``pass``, ``draw``) where the rulebook's move of that action is refused,
read alike by the engine, Z3, validate, the packed successors, Promela and the words; a
record of it replays without the file; a broken move is refused naming the file, the
rule, the move and the field."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from tests.rulebook.test_rule_files import _doc_block, duel
from unoformal.commands.cli import main
from unoformal.engine.actions import Action, ActionType
from unoformal.engine.game import Game
from unoformal.engine.record import replay, to_record
from unoformal.errors import IllegalActionError
from unoformal.rulebook.table import CLASSIC
from unoformal.rulebook.variants import load_rules
from unoformal.rules.state import DRAWN, PLAY

RULE = "HOUSE-SIT-OUT"


@pytest.fixture
def sit_out(tmp_path: Path) -> Path:
    path = tmp_path / "sit-out.toml"
    path.write_text(_doc_block("sit-out.toml"), encoding="utf-8")
    return path


# A draw made after a draw: the card drawn first is kept, one more is taken, the turn ends.
DRAW_AGAIN = """\
name = "draw-again"
base = "classic"
description = "A player who drew may draw once more, keeping both, and the turn ends."

[[house]]
id = "HOUSE-DRAW-AGAIN"
text = "A player who drew may draw once more instead of playing or keeping: the turn ends."
reason = "A test's rule: a move of its own made by the action draw."

[[house.move]]
name = "draw-again"
action = "draw"
require = "phase(drawn) and cards-left(1)"
then = "take(actor, 1); end-turn"
"""


@pytest.fixture
def draw_again(tmp_path: Path) -> Path:
    path = tmp_path / "draw-again.toml"
    path.write_text(DRAW_AGAIN, encoding="utf-8")
    return path


def _to_move(rules: object, seed: int = 3) -> Game:
    game = Game(["A", "B", "C"], seed=seed, rules=rules)
    assert game.phase == PLAY
    return game


def test_a_move_of_a_files_own_is_made_by_its_action_where_the_rulebooks_is_refused(
        sit_out: Path) -> None:
    """sit-out.toml: a pass in the play phase takes two cards and ends the turn; under
    classic the same pass is refused in DRAW-1's words; after a draw a pass is still
    the rulebook's keep (no card taken)."""
    rules = load_rules(str(sit_out))
    game = _to_move(rules)
    me, held = game.turn, len(game.hands[game.turn])
    passing = Action(game.to_play, ActionType.PASS)
    assert passing in game.legal_actions(game.to_play, penalties=False)
    game.apply(passing)
    assert len(game.hands[me]) == held + 2
    assert game.turn == (me + 1) % 3 and game.phase == PLAY and game.drawn is None

    classic = _to_move(CLASSIC)
    with pytest.raises(IllegalActionError, match=r"pass only after drawing .*DRAW-1"):
        classic.apply(Action(classic.to_play, ActionType.PASS))

    drew = _to_move(rules)
    me = drew.turn
    drew.apply(Action(drew.to_play, ActionType.DRAW))
    if drew.phase == DRAWN:  # a card that may be played is kept: no sit-out now
        held = len(drew.hands[me])
        drew.apply(Action(drew.to_play, ActionType.PASS))
        assert len(drew.hands[me]) == held and drew.turn == (me + 1) % 3


def _short(rules: object, left: int) -> Game:
    """A game whose player to move is in the play phase with ``left`` cards left to draw
    (every other card moved from the pile into the next player's hand)."""
    game = _to_move(rules)
    text = game.to_text()
    pile = re.search(r" pile=([^ ]*) ", text)
    assert pile is not None
    cards = pile.group(1).split(",")
    keep, moved = cards[:left], cards[left:]
    hands = re.search(r" hands=([^ ]*) ", text)
    assert hands is not None
    each = hands.group(1).split("/")
    each[(game.turn + 1) % 3] += "," + ",".join(moved)
    text = text.replace(hands.group(0), f" hands={'/'.join(each)} ").replace(
        pile.group(0), f" pile={','.join(keep)} ")
    return Game.from_text(text, rules)


def test_where_neither_may_be_made_the_refusal_is_the_rulebooks(sit_out: Path) -> None:
    """One card left: the sit-out needs two and EXT-PASS needs none, so the pass is
    refused in DRAW-1's words; the state is left as it was. With none left, the pass is
    EXT-PASS's own (no card taken)."""
    rules = load_rules(str(sit_out))
    game = _short(rules, 1)
    before = game.to_text()
    with pytest.raises(IllegalActionError, match=r"pass only after drawing .*DRAW-1"):
        game.apply(Action(game.to_play, ActionType.PASS))
    assert game.to_text() == before
    empty = _short(rules, 0)
    me, held = empty.turn, len(empty.hands[empty.turn])
    empty.apply(Action(empty.to_play, ActionType.PASS))
    assert len(empty.hands[me]) == held and empty.turn == (me + 1) % 3


def test_a_move_of_its_own_is_read_by_every_tool(
        sit_out: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The words show it beside the rulebook's pass; verify proves the file's property;
    validate finds the engine and the relation agree, the move covered; explore finds
    the states the docs give (20,518 on `tiny`)."""
    assert main(["rules", "--rules", str(sit_out), "--markdown"]) == 0
    words = capsys.readouterr().out
    section = words[words.index(f"\n## {RULE}\n"):]
    assert "  - `pass_nothing_to_draw` (EXT-PASS, HOUSE-SIT-OUT):" in section
    assert "    - otherwise (`sit-out (HOUSE-SIT-OUT)`):\n" \
        "      - then the actor draws 2 cards (HOUSE-SIT-OUT)\n" in section
    assert "  - `sit-out`: the player to move sits out: takes two cards and passes" in section
    assert main(["verify", "--rules", str(sit_out), "--players", "2-3", "--json",
                 "--property", "sit-out-needs-two", "--no-witness"]) == 0
    rows = json.loads(capsys.readouterr().out)
    assert {r["verdict"] for r in rows} == {"proved"}
    assert main(["validate", "--rules", str(sit_out), "--players", "3", "--steps", "1500",
                 "--workers", "1", "--out", str(tmp_path / "mismatch")]) in (0, 1)
    said = capsys.readouterr().out
    assert "0 mismatches" in said and "sit-out" not in said.split("uncovered:")[-1]
    assert main(["explore", "--preset", "tiny", "--rules", str(sit_out), "--json",
                 "--no-progress"]) == 0
    assert json.loads(capsys.readouterr().out)["states"] == 20_518


def test_a_record_of_a_move_of_its_own_replays_without_the_file(sit_out: Path) -> None:
    rules = load_rules(str(sit_out))
    game = _to_move(rules)
    game.apply(Action(game.to_play, ActionType.PASS))  # the sit-out
    for i in range(120):
        if game.round_over:
            break
        listed = game.legal_actions(penalties=False)
        game.apply(listed[i % len(listed)])
    data = json.loads(json.dumps(to_record(game)))
    assert data["rules"]["house"][0]["move"][0]["name"] == "sit-out"
    sit_out.unlink()
    done = replay(data)
    assert done.error is None and done.game.to_text() == game.to_text()


def test_a_move_made_by_draw_reads_alike_in_the_engine_and_the_relation(
        draw_again: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """draw after a draw: the card drawn first is kept, one more taken, the turn ends.
    The relation's draw step then holds the rulebook's draw and the move's, and validate
    places the engine's one draw as the move's (a draw of the branch not taken is none)."""
    rules = load_rules(str(draw_again))
    game = _to_move(rules)
    me, held = game.turn, len(game.hands[game.turn])
    game.apply(Action(game.to_play, ActionType.DRAW))
    assert game.phase == DRAWN
    game.apply(Action(game.to_play, ActionType.DRAW))
    assert len(game.hands[me]) == held + 2
    assert game.turn == (me + 1) % 3 and game.phase == PLAY and game.drawn is None
    assert main(["validate", "--rules", str(draw_again), "--players", "2", "--steps", "1500",
                 "--workers", "1", "--out", str(tmp_path / "mismatch")]) in (0, 1)
    said = capsys.readouterr().out
    assert "0 mismatches" in said and "draw-again" not in said.split("uncovered:")[-1]


def test_a_planted_requirement_is_caught_by_the_files_property_not_by_validate(
        sit_out: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The move made with one card left (``cards-left(1)``): the file's own property
    refutes it, and validate cannot see it, the engine and the relation reading the same
    move."""
    sit_out.write_text(sit_out.read_text().replace(
        'require = "phase(play) and cards-left(2)"', 'require = "phase(play) and cards-left(1)"'))
    assert main(["verify", "--rules", str(sit_out), "--players", "2", "--json",
                 "--property", "sit-out-needs-two", "--no-witness"]) == 1
    assert [r["verdict"] for r in json.loads(capsys.readouterr().out)] == ["refuted"]
    assert main(["validate", "--rules", str(sit_out), "--players", "2", "--steps", "600",
                 "--workers", "1", "--out", str(tmp_path / "mismatch")]) in (0, 1)
    assert "0 mismatches" in capsys.readouterr().out


@pytest.mark.parametrize(("old", "new", "said"), [
    ('action = "pass"', 'action = "play"',
     'house[0].move[0].action = "play": expected one of "draw", "pass"'),
    ('require = "phase(play) and cards-left(2)"', 'require = "phase(plya)"',
     "move[0] (sit-out).require: 'phase(plya)': phase: a phase is one of"),
    ('then = "take(actor, 2); end-turn"', 'then = "take(actor); end-turn"',
     "move[0] (sit-out).then: 'take(actor); end-turn': take: takes a seat and a number"),
    ('then = "take(actor, 2); end-turn"', 'then = "end-turn(1)"',
     "end-turn: takes no value"),
    ('name = "sit-out"\naction', 'name = "draw"\naction',
     "move[0].name = 'draw': a move of that name exists already"),
    ('then = "take(actor, 2); end-turn"\n', '', "house[0].move[0]: missing key then"),
])
def test_a_broken_move_is_refused_naming_the_file_the_rule_and_the_field(
        sit_out: Path, old: str, new: str, said: str,
        capsys: pytest.CaptureFixture[str]) -> None:
    text = sit_out.read_text()
    assert old in text
    sit_out.write_text(text.replace(old, new, 1))
    assert main(["verify", "--rules", str(sit_out), "--players", "2"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "Traceback" not in err
    assert "sit-out.toml" in err and said in err, err
    assert "HOUSE-SIT-OUT" in err or "house[0]" in err, err


def test_the_packed_readings_make_a_move_of_its_own(sit_out: Path, draw_again: Path,
                                                    tmp_path: Path) -> None:
    """Both packed successors, read and generated, and Promela take a move of a file's
    own, made by pass and by draw, on the `duel` deck: the engine's graph edge for edge,
    which differs from the rulebook's."""
    import numpy as np

    from unoformal.verification.packed.search import search
    from unoformal.verification.promela.model import program
    from unoformal.verification.promela.spin import count, missing

    rulebook = search(duel(None)).edges
    for path in (sit_out, draw_again):
        engine = search(duel(str(path)))
        assert engine.edges != rulebook, path.name
        for successor in ("commands", "generated"):
            got = search(duel(str(path)), successor=successor)
            for part in ("records", "dst", "act"):
                assert np.array_equal(getattr(got, part).read(),
                                      getattr(engine, part).read()), (path.name, successor)
        model = program(duel(str(path)))
        if missing() is None:  # Spin counts the same states (CI installs it)
            assert model.explorer_states(count(model.text, tmp_path).states) == engine.states


def test_mercys_property_asks_a_move_made_by_a_pass(
        sit_out: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    """MERCY's property leaves EXT-PASS's pass out (it changes no hand), but a rule file's
    move made by a pass is part of that step: it is asked. Planted, the knock-out made
    after the rulebook's pass alone (the sit-out's two cards then keep a hand at the
    limit) is refused by it."""
    from unoformal.rules import house, turn

    def verdict(at: int) -> str:
        sit_out.write_text(_doc_block("sit-out.toml").split("[[house.property]]")[0]
                           + f"\n[rules.MERCY]\nenabled = true\nat = {at}\n")
        main(["verify", "--rules", str(sit_out), "--players", "2", "--json", "--jobs", "1",
              "--property", "mercy", "--no-witness"])
        rows = json.loads(capsys.readouterr().out)
        return str(rows[0]["verdict"])

    assert verdict(9) == "proved"

    def planted(table: Any, command: Any) -> Any:
        return house.own_moves(table, house.knocking(table, house.then(table, command)))

    monkeypatch.setattr(turn, "changed", planted)
    assert verdict(10) == "refuted"  # a table not built before: its commands are new
