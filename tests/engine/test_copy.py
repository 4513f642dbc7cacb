"""``Game.copy`` names every field of the engine.

The compiled engine (setup.py) keeps its fields in slots, so a copy cannot take the
instance's ``__dict__`` wholesale: ``copy_into`` assigns each field by name. These tests
find the fields from the source itself (every ``self.X =`` in the class), so a field
added to the engine and not to ``copy_into`` fails here, compiled or not.
"""

from __future__ import annotations

import ast
import random
from pathlib import Path

from unoformal.engine import game as game_module
from unoformal.engine.game import Game, PlayerView

SOURCE = Path(game_module.__file__ or "").with_name("game.py")


def _class(tree: ast.Module, name: str) -> ast.ClassDef:
    return next(n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == name)


def _assigned(node: ast.AST, owner: str) -> set[str]:
    """Names X in ``owner.X = ...`` (also annotated and tuple targets) under ``node``."""
    names: set[str] = set()
    for sub in ast.walk(node):
        targets: list[ast.expr] = []
        if isinstance(sub, ast.Assign):
            targets = list(sub.targets)
        elif isinstance(sub, ast.AnnAssign | ast.AugAssign):
            targets = [sub.target]
        for target in targets:
            for t in ast.walk(target):
                if (isinstance(t, ast.Attribute) and isinstance(t.value, ast.Name)
                        and t.value.id == owner):
                    names.add(t.attr)
    return names


def _fields_and_copied() -> tuple[set[str], set[str]]:
    game = _class(ast.parse(SOURCE.read_text()), "Game")
    fields = _assigned(game, "self")
    fields |= {n.target.id for n in game.body
               if isinstance(n, ast.AnnAssign) and isinstance(n.target, ast.Name)}
    fields |= {t.id for n in game.body if isinstance(n, ast.Assign)
               for t in n.targets if isinstance(t, ast.Name)}
    copy_into = next(n for n in game.body
                     if isinstance(n, ast.FunctionDef) and n.name == "copy_into")
    return fields, _assigned(copy_into, "new")


def test_copy_into_assigns_every_field_of_the_engine() -> None:
    fields, copied = _fields_and_copied()
    assert len(fields) > 30  # the scan found the class's fields
    assert fields - copied == set(), "fields copy_into leaves out"
    assert copied - fields == set(), "copy_into assigns what is not a field"


def test_the_compiled_class_has_exactly_these_fields() -> None:
    fields, _ = _fields_and_copied()
    slots = getattr(Game, "__mypyc_attrs__", None)
    if slots is None:  # pure Python: the fields are whatever __init__ and play assigned
        game = _played()
        assert set(vars(game)) <= fields
    else:
        assert set(slots) - {"__dict__"} == fields


def _played(steps: int = 60) -> Game:
    game = Game(["ann", "bob", "cy"], seed=11)
    rng = random.Random(4)
    for _ in range(steps):
        if game.round_over:
            break
        game.apply(rng.choice(game.legal_actions()))
    return game


def test_a_copy_is_equal_and_independent() -> None:
    game = _played()
    before = game.to_text()
    new = game.copy()
    fields, _ = _fields_and_copied()
    for name in fields - {"_legal"}:
        assert getattr(new, name) == getattr(game, name), name
    for name in ("hands", "pile", "discard", "scores", "history"):
        assert getattr(new, name) is not getattr(game, name), name
    assert all(a is not b for a, b in zip(new.hands, game.hands, strict=True))
    new.apply(new.legal_actions()[0])
    assert game.to_text() == before


class _Noted(Game):
    note: str = "class default"


def test_a_python_subclass_keeps_its_class_and_its_own_fields() -> None:
    game = _Noted(["ann", "bob"], seed=2)
    game.note = "set on the instance"
    new = game.copy()
    assert type(new) is _Noted
    assert new.note == "set on the instance"
    assert isinstance(new.view("ann"), PlayerView)
