"""The rule language as a package of its own (``unoformal.language``): its public surface,
its layering apart from the rules stated in it, and the old paths that forward with a
DeprecationWarning for one minor version."""

from __future__ import annotations

import ast
import importlib
import warnings
from pathlib import Path

import pytest

import unoformal.language as language

PACKAGE = Path(language.__file__).parent


def test_every_public_name_is_importable_and_documented() -> None:
    for name in language.__all__:
        assert getattr(language, name) is not None, name
    assert sorted(language.__all__) == sorted(set(language.__all__))
    assert {"Cond", "Effect", "Command", "Conjunct", "Either", "Both", "Unless",
            "Concrete", "Symbolic", "Binding"} <= set(language.__all__)


def test_the_language_imports_no_rule_and_no_interpreter() -> None:
    """Table, then language, then rules, then interpreters: the language reads the
    table's types and the state schema's phases, nothing of a rule or a backend."""
    allowed = ("unoformal.language", "unoformal.rulebook", "unoformal.rules.state",
               "unoformal.errors", "unoformal.inputs", "unoformal._deprecation")
    for path in PACKAGE.glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text("utf-8"))):
            if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("unoformal"):
                assert (node.module or "").startswith(allowed), (path.name, node.module)


@pytest.mark.parametrize(("old", "name", "new"), [
    ("unoformal.rules.commands", "Command", "unoformal.language.commands"),
    ("unoformal.rules.commands", "Cond", "unoformal.language.conditions"),
    ("unoformal.rules.commands", "Take", "unoformal.language.effects"),
    ("unoformal.rules.commands", "Label", "unoformal.language.coverage"),
    ("unoformal.rules.commands", "Binding", "unoformal.language.protocols"),
    ("unoformal.rules.lang", "Said", "unoformal.language.cards"),
])
def test_an_old_path_forwards_the_same_object_with_a_deprecation_warning(
        old: str, name: str, new: str) -> None:
    module = importlib.import_module(old)
    said = rf"{old}\.{name} moved to {new}\.{name}; the old path is removed in unoformal 0\.2\.0"
    with pytest.warns(DeprecationWarning, match=said):
        found = getattr(module, name)
    assert found is getattr(importlib.import_module(new), name)


def test_an_old_path_refuses_a_name_it_never_had() -> None:
    module = importlib.import_module("unoformal.rules.commands")
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        with pytest.raises(AttributeError, match="no attribute 'Nonesuch'"):
            module.Nonesuch  # noqa: B018 - the read is the test
