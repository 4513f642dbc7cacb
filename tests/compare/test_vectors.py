"""``unoformal vectors``: the lines read back, say what the engine does, are deterministic,
and the json-only checker of docs/vectors.md passes this engine and catches a wrong line
or a wrong engine."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from unoformal.commands.cli import main
from unoformal.compare.vectors import game_vectors, preset_vectors
from unoformal.engine.actions import Action
from unoformal.engine.chance import StatedChance
from unoformal.engine.game import Game
from unoformal.engine.record import apply_stated, embedded_rules
from unoformal.rulebook.variants import load_rules

DOC = Path(__file__).resolve().parents[2] / "docs" / "vectors.md"
Check = Callable[[list[str], Any], list[str]]


def _blocks(kind: str) -> list[str]:
    return re.findall(rf"```{kind}\n(.*?)```", DOC.read_text(encoding="utf-8"), re.DOTALL)


def _checker() -> Check:
    """The checker exactly as docs/vectors.md prints it."""
    code = next(b for b in _blocks("python") if "def check(" in b)
    assert "import json\n" in code and "unoformal" not in code  # json only
    space: dict[str, Any] = {}
    exec(compile(code, str(DOC), "exec"), space)
    check: Check = space["check"]
    return check


class OurEngine:
    """This engine behind the checker's two methods, as another engine would be."""

    def __init__(self, count_reshuffles: bool = True) -> None:
        self.count_reshuffles = count_reshuffles

    def _game(self, rules: Any, state: str) -> Game:
        return Game.from_text(state, embedded_rules(rules))

    def legal(self, rules: Any, state: str) -> dict[str, list[str]]:
        game = self._game(rules, state)
        out: dict[str, list[str]] = {name: [] for name in game.names}
        for action in game.legal_actions():
            out[action.player].append(str(action))
        return out

    def successor(self, rules: Any, state: str, action: str, piles: list[list[str]]) -> str:
        game = self._game(rules, state)
        stated = game.copy()
        stated.chance = StatedChance()
        faces = [[game.deck.face_id(c) for c in pile] for pile in piles]
        apply_stated(stated, Action.parse(action), (None, faces))
        if self.count_reshuffles:  # a stated pile is taken, not shuffled: count it
            stated.shuffles += len(piles)
        return stated.to_text()


def _lines(vectors: Any) -> list[str]:
    return [json.dumps(v) for v in vectors]


@pytest.fixture(scope="module")
def lines() -> list[str]:
    classic = load_rules("classic")
    return (_lines(preset_vectors("micro", None, 1000))
            + _lines(preset_vectors("duel", None, 1000))
            + _lines(game_vectors(classic, 2, 2, 5)) + _lines(game_vectors(classic, 1, 4, 3)))


def test_the_doc_checker_passes_this_engine(lines: list[str]) -> None:
    reshuffling = [line for line in lines if '"reshuffles"' in line]
    assert len(lines) > 1000 and reshuffling, "the vectors lost their reshuffles"
    assert _checker()(lines, OurEngine()) == []


def test_the_checker_catches_a_changed_successor(lines: list[str]) -> None:
    vector = json.loads(lines[40])
    action = next(iter(vector["next"]))
    vector["next"][action] = vector["state"]  # the action said to change nothing
    spoiled = [*lines[:40], json.dumps(vector), *lines[41:]]
    problems = _checker()(spoiled, OurEngine())
    assert len(problems) == 1 and problems[0].startswith(f"line 41: {action} leads to")


def test_the_checker_catches_a_dropped_legal_action(lines: list[str]) -> None:
    vector = json.loads(lines[7])
    player = next(p for p, acts in vector["legal"].items() if acts)
    vector["legal"][player].pop()
    problems = _checker()([*lines[:7], json.dumps(vector)], OurEngine())
    assert problems == [problem for problem in problems if problem.startswith("line 8:")]
    assert len(problems) == 1 and f"{player} may" in problems[0]


def test_the_checker_catches_an_engine_that_forgets_a_reshuffle(lines: list[str]) -> None:
    reshuffling = [line for line in lines if '"reshuffles"' in line]
    problems = _checker()(reshuffling, OurEngine(count_reshuffles=False))
    assert problems and all("leads to" in p for p in problems)


def test_every_text_reads_back_and_successors_are_the_engines(lines: list[str]) -> None:
    for line in lines[::25]:
        vector = json.loads(line)
        rules = embedded_rules(vector["rules"])
        game = Game.from_text(vector["state"], rules)
        assert game.to_text() == vector["state"]
        for action, text in vector["next"].items():
            assert Game.from_text(text, rules).to_text() == text
            if action not in vector.get("reshuffles", {}):
                child = game.copy()
                child.apply(Action.parse(action))
                assert child.to_text() == text


def test_the_doc_shows_the_first_micro_line() -> None:
    shown = json.loads(next(b for b in _blocks("json") if '"classic-micro"' in b))
    assert shown == next(preset_vectors("micro", None, 1))


def test_the_command_is_deterministic_and_refuses_bad_options(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    outs = [tmp_path / "a.jsonl", tmp_path / "b.jsonl"]
    for out in outs:
        assert main(["vectors", "--games", "1", "--players", "3", "--seed", "9",
                     "--out", str(out)]) == 0
    assert outs[0].read_bytes() == outs[1].read_bytes()
    assert len(outs[0].read_text().splitlines()) > 20
    capsys.readouterr()
    assert main(["vectors", "--preset", "nope"]) == 2
    assert "expected one of micro" in capsys.readouterr().err
    assert main(["vectors", "--games", "1", "--players", "11"]) == 2
    assert main(["vectors", "--games", "1", "--preset", "micro"]) == 2
    assert main(["vectors", "--preset", "micro", "--max-states", "3"]) == 0
    assert len(capsys.readouterr().out.splitlines()) == 3


@pytest.mark.parametrize(("rules", "marker"), [
    ("seven-o", re.compile(r" play [RYGB]7 \w+\"")),  # a 7 names the player it swaps with
    ("jump-in", None),
])
def test_a_house_rules_vectors_pass_the_doc_checker(rules: str,
                                                    marker: re.Pattern[str] | None) -> None:
    table = load_rules(rules)
    lines = _lines(game_vectors(table, 2, 4, 7))
    assert _checker()(lines, OurEngine()) == []
    if marker is not None:
        assert any(marker.search(line) for line in lines)
    else:  # a jump: a play listed for a player who is not to move
        jumps = 0
        for line in lines:
            data = json.loads(line)
            mover = Game.from_text(data["state"], table).to_play
            jumps += any(a.split()[1] == "play" for p, acts in data["legal"].items()
                         if p != mover for a in acts)
        assert jumps
