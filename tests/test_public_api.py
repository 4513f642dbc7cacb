"""The stated public API (docs/api.md, ``unoformal.__all__``): every public name imports
from the package without a warning, docs/api.md lists exactly them; of the two module
paths that moved under a user's harness, ``unoformal.spec.variants`` (shown by a
tutorial) still works, warning, until the version that removes it, and the module
``unoformal.conform`` (never public) is gone, its name the public function's."""

from __future__ import annotations

import importlib
import json
import re
import subprocess
import sys
import warnings
from pathlib import Path

import pytest

import unoformal
from unoformal._deprecation import moved_module, warn_moved

DOC = Path(__file__).resolve().parents[1] / "docs" / "api.md"
REMOVED_IN = (0, 2, 0)


def test_every_public_name_imports_from_the_package_without_a_warning() -> None:
    # A fresh interpreter: a name loaded earlier by another test would hide a broken one.
    code = ("import json, warnings; warnings.simplefilter('error'); import unoformal; "
            "from unoformal import *; "
            "print(json.dumps({n: type(getattr(unoformal, n)).__name__ "
            "for n in unoformal.__all__}))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 0, done.stderr
    kinds = json.loads(done.stdout)
    assert sorted(kinds) == sorted(unoformal.__all__)
    for name in ("Game", "Record", "load_rules", "derive", "conform", "Referee", "explore",
                 "UnoError", "InvalidInputError", "IllegalActionError", "ChanceError",
                 "VariantError"):
        assert name in kinds  # the list of what users may import


def test_docs_api_lists_exactly_the_public_names() -> None:
    text = DOC.read_text(encoding="utf-8")
    block = re.search(r"<!-- public-api:.*?-->(.*?)<!-- /public-api -->", text, re.DOTALL)
    assert block is not None, "docs/api.md lost its list of public names"
    names = {name for row in block.group(1).splitlines() if row.startswith("| `")
             for name in re.findall(r"`([A-Za-z_]+)`", row.split("|")[1])}
    assert names == set(unoformal.__all__)


def test_the_api_names_semantic_versioning_and_a_version_of_that_form() -> None:
    assert "semantic" in DOC.read_text(encoding="utf-8")
    assert re.fullmatch(r"\d+\.\d+\.\d+", unoformal.__version__)


MOVED = [  # (old module, a name there, its new module)
    ("unoformal.spec.variants", "load_rules", "unoformal.rulebook.variants"),
    ("unoformal.spec.variants", "derive", "unoformal.rulebook.variants"),
    ("unoformal.spec", "load_rules", "unoformal.rulebook"),
]


@pytest.mark.parametrize(("old", "name", "new"), MOVED)
def test_a_moved_path_warns_naming_the_new_one_and_forwards(old: str, name: str,
                                                           new: str) -> None:
    module = importlib.import_module(old)
    with pytest.warns(DeprecationWarning, match=re.escape(f"{old}.{name} moved to {new}.{name}"
                                                          "; the old path is removed in "
                                                          "unoformal 0.2.0")) as caught:
        value = getattr(module, name)
    assert value is getattr(importlib.import_module(new), name)
    assert caught[0].filename == __file__  # the user's line is named, not the shim's


def test_from_import_of_a_moved_path_warns_at_the_importing_line() -> None:
    with pytest.warns(DeprecationWarning) as caught:
        from unoformal.spec.variants import load_rules
    assert load_rules is unoformal.load_rules
    assert caught[0].filename == __file__


def test_unoformal_conform_is_the_public_function_and_the_old_module_is_gone() -> None:
    from unoformal.compare.records import conform

    assert unoformal.conform is conform
    with pytest.raises(ModuleNotFoundError):
        importlib.import_module("unoformal.conform")
    assert unoformal.conform is conform  # the failed import took nothing from it


def test_dunder_lookups_on_a_moved_module_neither_warn_nor_forward() -> None:
    module = importlib.import_module("unoformal.spec.variants")
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert not hasattr(module, "__wrapped__")
        assert "load_rules" in dir(module)


def test_the_moved_paths_are_gone_by_the_version_that_removes_them() -> None:
    # Fails once the version reaches 0.2.0 with the shims still there: a reminder that
    # keeps the promise "one minor version" true.
    version = tuple(int(part) for part in unoformal.__version__.split("."))
    shims = [Path(unoformal.__file__).parent / "spec"]
    if version >= REMOVED_IN:
        assert not any(p.exists() for p in shims), "remove the deprecated module paths"
    else:
        assert all(p.exists() for p in shims)


def test_the_helper_writes_a_move_for_any_module() -> None:
    getattr_, dir_ = moved_module("old.place", "json", "9.9.0")
    with pytest.warns(DeprecationWarning, match=r"old\.place\.dumps moved to json\.dumps; the "
                                                r"old path is removed in unoformal 9\.9\.0"):
        assert getattr_("dumps") is json.dumps
    assert "dumps" in dir_()
    with pytest.raises(AttributeError):
        getattr_("__all__")
    with pytest.warns(DeprecationWarning, match="a moved to b") as caught:
        warn_moved("a", "b", "1.0.0", stacklevel=1)
    assert caught[0].filename == __file__
