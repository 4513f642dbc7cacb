"""A rule file's Python module (issue 40, point 2): the conditions the language lacks, in
their three readings, named by the file (docs/how-a-rule-is-written.md, "Inside"). Its
code runs only when a file names it; what goes wrong is one line naming the file; every
verb takes the file; a record names the module and replays only with the rule file; and
validate catches a module whose engine and Z3 readings disagree."""

from __future__ import annotations

import json
import pickle
import re
from pathlib import Path

import pytest

from unoformal.commands.cli import main
from unoformal.compare.relation.run import validate
from unoformal.engine.actions import ActionType
from unoformal.engine.game import Game
from unoformal.engine.record import replay, to_record
from unoformal.errors import InvalidInputError
from unoformal.language import Binding
from unoformal.rulebook.cards import Kind
from unoformal.rulebook.variants import load_rules
from unoformal.rules.uno import advise, catch

DOC = Path(__file__).resolve().parents[2] / "docs" / "how-a-rule-is-written.md"
MODULE, RULE_FILE = "my_conditions.py", "catch-after.toml"


def from_doc(kind: str, name: str) -> str:
    """The page's block that starts ``# name``: the files a reader saves."""
    found = re.search(f"```{kind}\n(# {re.escape(name)}\n.*?)```", DOC.read_text("utf-8"), re.S)
    assert found, name
    return found.group(1)


@pytest.fixture
def rule_file(tmp_path: Path) -> Path:
    (tmp_path / MODULE).write_text(from_doc("python", MODULE), encoding="utf-8")
    path = tmp_path / RULE_FILE
    path.write_text(from_doc("toml", RULE_FILE), encoding="utf-8")
    return path


def _window(rules: object) -> Game:
    """A seeded 3-player game under ``rules`` in which someone forgot to say UNO."""
    game = Game(["Ann", "Bob", "Cy"], seed=1, rules=rules)  # type: ignore[arg-type]
    for i in range(500):
        if game.uno_window is not None:
            return game
        moves = game.legal_actions(penalties=False)
        plays = [a for a in moves if a.type is ActionType.PLAY and not a.uno]
        game.apply((plays or moves)[i % len(plays or moves)])
    raise AssertionError("no UNO window in 500 moves")


def test_the_modules_condition_is_read_by_the_engine_and_the_words(rule_file: Path) -> None:
    rules = load_rules(str(rule_file))
    assert [c.name for c in rules.own] == ["sits-after-target"]
    assert "- only if the actor sits after the target (HOUSE-CATCH)" in catch(rules).text()
    game = _window(rules)
    offender = game.uno_window
    assert offender is not None
    after = game._next(offender)
    catches = {a.player for a in game.legal_actions() if a.type is ActionType.CATCH}
    assert catches == {game.names[after]}  # the module's condition refuses the others'
    other = next(p for p in range(3) if p not in (after, offender))
    assert catch(rules).refusal(game, Binding(other, offender)) == (
        "HOUSE-CATCH", f"only the player after {game.names[offender]} may catch them")


def test_its_code_runs_only_when_a_file_names_it(tmp_path: Path) -> None:
    ran = tmp_path / "ran"
    (tmp_path / MODULE).write_text(f"open({str(ran)!r}, 'a').write('x')\n"
                                   + from_doc("python", MODULE))
    plain = tmp_path / "plain.toml"
    plain.write_text('name = "plain"\ndescription = "beside a module it does not name"\n')
    load_rules(str(plain))
    assert not ran.exists()
    named = tmp_path / "named.toml"
    named.write_text(from_doc("toml", RULE_FILE))
    assert load_rules(str(named)) == load_rules(str(named))  # one import per process
    assert ran.read_text() == "x"


def _refusal(tmp_path: Path, capsys: pytest.CaptureFixture[str], module: str | None,
             toml_edit: tuple[str, str] = ("", "")) -> str:
    if module is not None:
        (tmp_path / MODULE).write_text(module)
    path = tmp_path / RULE_FILE
    path.write_text(from_doc("toml", RULE_FILE).replace(*toml_edit))
    assert main(["rules", "--rules", str(path)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "Traceback" not in err, err
    assert RULE_FILE in err, err
    return err


GOOD = from_doc("python", MODULE)


@pytest.mark.parametrize(("module", "said"), [
    (None, "module = 'my_conditions.py': no such file"),
    ("raise RuntimeError('no\\nluck')\n", "importing it raised RuntimeError: no luck"),
    ("def broken(:\n", "importing it raised SyntaxError: "),
    ("import sys\nsys.exit(3)\n", "importing it raised SystemExit: 3"),
    ("X = 1\n", "defines no CONDITIONS"),
    ("CONDITIONS = [1]\n", "CONDITIONS = [1]: expected CONDITIONS = {"),
    ("CONDITIONS = {'sits-after-target': print}\n", "CONDITIONS['sits-after-target']"),
    ("CONDITIONS = {'Sits': (print, 'x')}\n", "CONDITIONS name 'Sits': expected lower-case"),
    (GOOD.replace('raise ValueError("takes no arguments")', "pass").replace(
        "return SitsAfterTarget()", "raise KeyError('lost')"),
     "house rule HOUSE-CATCH: change[0].require: 'sits-after-target': sits-after-target "
     "(module 'my_conditions.py') raised KeyError: 'lost'"),
    (GOOD.replace("return SitsAfterTarget()", "return 42"),
     "built 42, not a condition"),
    (GOOD.replace("def encode(", "def _encode("),
     "SitsAfterTarget has no encode(); a condition has three readings"),
    (GOOD.replace('{"sits-after-target"', '{"phase"'),
     "condition 'phase' is the rule language's"),
], ids=["missing", "raises", "syntax", "exits", "no-conditions", "not-a-dict", "not-a-pair",
        "bad-name", "builder-raises", "builder-returns", "no-encode", "shadows"])
def test_what_goes_wrong_is_one_line_naming_the_file(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], module: str | None,
        said: str) -> None:
    assert said in _refusal(tmp_path, capsys, module)


def test_arguments_a_builder_refuses_are_said_with_its_words(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    err = _refusal(tmp_path, capsys, GOOD,
                   ('require = "sits-after-target"', 'require = "sits-after-target(2)"'))
    assert "raised ValueError: takes no arguments (sits-after-target: the actor sits" in err


def test_a_record_names_the_module_and_replays_only_with_the_rule_file(
        rule_file: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    rules = load_rules(str(rule_file))
    game = _window(rules)
    for i in range(300):
        if game.round_over:
            break
        listed = game.legal_actions()
        game.apply(listed[i % len(listed)])
    data = json.loads(json.dumps(to_record(game)))
    assert data["rules"]["modules"] == [MODULE]
    assert data["rules"]["house"][0]["id"] == "HOUSE-CATCH"
    with pytest.raises(InvalidInputError, match=r"pass --rules FILE"):
        replay(data)
    done = replay(data, load_rules(str(rule_file)))
    assert done.error is None and done.game.to_text() == game.to_text()
    record = tmp_path / "game.json"
    record.write_text(json.dumps(data))
    assert main(["replay", str(record)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "never runs: pass --rules FILE" in err, err
    assert main(["replay", str(record), "--rules", str(rule_file)]) == 0


def test_a_table_sent_to_a_worker_imports_the_module_again(rule_file: Path) -> None:
    rules = load_rules(str(rule_file))
    assert pickle.loads(pickle.dumps(rules)) == rules


def test_verify_explore_and_show_take_the_file(
        rule_file: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # the catalogue's non-vacuity witness at 3 players: a counterexample for show to draw
    assert main(["verify", "--rules", str(rule_file), "--players", "3", "--json",
                 "--property", "uno", "--property", "two-player-reverse-is-skip"]) == 0
    said = capsys.readouterr().out
    assert {r["property"]: r["verdict"] for r in json.loads(said)} == {
        "uno": "proved", "two-player-reverse-is-skip": "refuted"}
    out = tmp_path / "v.json"
    out.write_text(said)
    page = tmp_path / "v.html"
    assert main(["show", str(out), "--rules", str(rule_file), "--out", str(page)]) == 0
    assert "catch-after" in page.read_text("utf-8")  # the page is drawn under the file
    capsys.readouterr()
    assert main(["explore", "--preset", "tiny", "--rules", str(rule_file), "--json"]) in (0, 1)
    assert json.loads(capsys.readouterr().out)["stuck"] == 0


def test_validate_finds_engine_and_relation_agree_on_the_module(rule_file: Path) -> None:
    report = validate(load_rules(str(rule_file)), (3,), 3000, 0)
    assert report.mismatches == []


def test_validate_catches_a_module_whose_holds_and_encode_disagree(rule_file: Path) -> None:
    """The planted bug: ``encode`` says two seats after the target, ``holds`` one."""
    module = rule_file.parent / MODULE
    module.write_text(module.read_text().replace("s.direction, 1)", "s.direction, 2)"))
    report = validate(load_rules(str(rule_file)), (3,), 3000, 0, first=True)
    assert report.mismatches, "validate missed the planted disagreement"
    assert any("catch" in m.finding.detail for m in report.mismatches)


def test_a_mismatchs_rules_file_names_the_module_so_its_record_replays(
        rule_file: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """validate --out writes each mismatch's record with a rules.toml beside it: that file
    names the module by its path, so --rules FOLDER/rules.toml replays the record."""
    module = rule_file.parent / MODULE
    module.write_text(module.read_text().replace("s.direction, 1)", "s.direction, 2)"))
    out = tmp_path / "out"
    assert main(["validate", "--rules", str(rule_file), "--players", "3", "--steps", "1000",
                 "--workers", "1", "--out", str(out)]) == 1
    capsys.readouterr()
    folder = sorted(out.iterdir())[0]
    assert main(["replay", str(folder / "record.json")]) == 2
    assert "pass --rules FILE" in capsys.readouterr().err
    assert main(["replay", str(folder / "record.json"), "--rules",
                 str(folder / "rules.toml")]) in (0, 1)
    assert "error" not in capsys.readouterr().err


@pytest.mark.parametrize("key", ["modules", "module"])
def test_a_record_never_runs_the_module_it_names(tmp_path: Path, key: str) -> None:
    ran = tmp_path / "ran"
    module = tmp_path / MODULE
    module.write_text(f"open({str(ran)!r}, 'a').write('x')\n" + GOOD)
    named = [str(module)] if key == "modules" else str(module)
    record = {"version": 2, "players": ["A", "B"], "seed": 1, "actions": [],
              "rules": {"name": "catch-after", "base": "classic", "rules": {}, key: named}}
    with pytest.raises(InvalidInputError, match="never runs"):
        replay(record)
    assert not ran.exists()


def test_a_file_over_one_that_names_a_module_reads_its_conditions(
        rule_file: Path, tmp_path: Path) -> None:
    """A base's module comes with it: the base's changes are built with its conditions,
    and a file over it may name them too; its module is run once, from the base's folder."""
    over = tmp_path / "over.toml"
    over.write_text('name = "over"\nbase = "catch-after.toml"\n'
                    '[[house]]\nid = "HOUSE-OVER"\ntext = "Advice only from after."\n'
                    '[[house.change]]\ncommand = "advise"\nrequire = "sits-after-target"\n'
                    'words = "only the player after {target} may advise them"\n')
    rules = load_rules(str(over))
    assert rules.own == load_rules(str(rule_file)).own
    assert "- only if the actor sits after the target (HOUSE-CATCH)" in catch(rules).text()
    assert "- only if the actor sits after the target (HOUSE-OVER)" in advise(rules).text()


AGAIN_MODULE = '''from dataclasses import dataclass
from typing import Any

from unoformal.language import Binding, Effect


@dataclass(frozen=True)
class PlaysAgain(Effect):
    """The actor is to move again."""

    def run(self, game: Any, b: Binding) -> None:
        game.turn = b.actor

    def encode(self, spec: Any, s: Any, b: Binding, tag: str) -> Any:
        return s.evolve(turn=b.actor), []

    def text(self) -> str:
        return "the actor plays again"


def plays_again(args: list[Any]) -> Effect:
    if args:
        raise ValueError("takes no arguments")
    return PlaysAgain()


EFFECTS = {"plays-again": (plays_again, "plays-again: the actor is to move again")}
'''

AGAIN_FILE = '''name = "reverse-again"
base = "classic"
description = "A player who plays a Reverse plays again."
module = "again.py"

[[house]]
id = "HOUSE-AGAIN"
text = "A player who plays a Reverse plays again."

[[house.change]]
command = "play"
then_if = "card(reverse)"
then = "plays-again"
'''


@pytest.fixture
def again(tmp_path: Path) -> Path:
    (tmp_path / "again.py").write_text(AGAIN_MODULE, encoding="utf-8")
    path = tmp_path / "reverse-again.toml"
    path.write_text(AGAIN_FILE, encoding="utf-8")
    return path


def test_a_modules_effect_is_a_step_every_reader_takes(again: Path) -> None:
    """An effect the language lacks, from the file's module (``EFFECTS``): the engine
    makes it (after a Reverse at three players the same player is to move), the words
    say it, and validate finds the engine's reading and the relation's agree."""
    from unoformal.rules.play import play

    rules = load_rules(str(again))
    assert [(c.name, c.effect) for c in rules.own] == [("plays-again", True)]
    assert "  - then the actor plays again" in play(rules, Kind.REVERSE).text()
    assert "the actor plays again" not in "\n".join(play(rules, Kind.SKIP).text())
    for seed in range(300):
        game = Game(["Ann", "Bob", "Cy"], seed=seed, rules=rules)
        plays = [a for a in game.legal_actions(game.to_play, penalties=False)
                 if a.type is ActionType.PLAY and a.card is not None and a.card[1:] == "R"]
        if plays and game.phase == "play":
            player = game.turn
            game.apply(plays[0])
            assert game.turn == player and game.direction == -1
            break
    else:
        raise AssertionError("no Reverse to play in 300 seeds")
    assert validate(rules, (3,), 2000, 0).mismatches == []


@pytest.mark.parametrize(("old", "new", "said"), [
    ("    def encode(self, spec: Any, s: Any, b: Binding, tag: str) -> Any:\n"
     "        return s.evolve(turn=b.actor), []\n", "", "PlaysAgain has no encode()"),
    ("    return PlaysAgain()", "    return 7", "built 7, not an effect"),
    ('raise ValueError("takes no arguments")', 'raise KeyError("boom")', "raised KeyError"),
    ('EFFECTS = {"plays-again"', 'EFFECTS = {"take"', "effect 'take' is the rule language's"),
])
def test_a_broken_module_effect_is_refused_naming_the_file(
        again: Path, old: str, new: str, said: str,
        capsys: pytest.CaptureFixture[str]) -> None:
    module = again.parent / "again.py"
    text = module.read_text().replace(old, new)
    if "KeyError" in new:
        text = text.replace("    if args:\n", "    if True:\n")
    module.write_text(text)
    assert main(["verify", "--rules", str(again), "--players", "2"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "Traceback" not in err
    assert "reverse-again.toml" in err and said in err, err


def test_validate_catches_a_module_effect_whose_run_and_encode_disagree(again: Path) -> None:
    """The planted bug: ``encode`` passes the turn on from the actor, ``run`` keeps it."""
    module = again.parent / "again.py"
    module.write_text(module.read_text().replace(
        "return s.evolve(turn=b.actor), []",
        "return s.evolve(turn=spec.seat_after(b.actor, s.direction, 1)), []"))
    report = validate(load_rules(str(again)), (3,), 2000, 0, first=True)
    assert report.mismatches, "validate missed the planted disagreement"
