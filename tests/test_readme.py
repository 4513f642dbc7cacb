"""The README is a landing page and the pages under docs/ hold the rest: every command
is written one way, as it runs in the activated virtualenv (``unoformal ...``,
``python ...``), never through a path such as ``.venv/bin/unoformal``; every ``python``
example runs; every relative link points at a file (and heading) of the repository."""

from __future__ import annotations

import importlib.metadata
import json
import re
import subprocess
import sys
import tomllib
from collections.abc import Sequence
from pathlib import Path

import pytest
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "README.md"
DOCS = ROOT / "docs"
PAGES = [README, *sorted(DOCS.glob("*.md"))]
ACTIVATE = ". .venv/bin/activate"
# The README stays a landing page: what the project is, the two commands, a short
# example per use, links. Details go to docs/.
MAX_README_LINES = 300
# Pages whose ``python`` blocks run here, each on its own, as a reader pastes them.
RUN = [README, DOCS / "api.md", DOCS / "records.md"]
# Pages whose ``python`` blocks are steps of one session: run in order, in one namespace.
RUN_IN_ORDER = [DOCS / "how-a-rule-is-written.md"]
# Pages whose ``python`` blocks are not examples to paste, and where they are checked.
NOT_RUN = {
    "tutorial.md": "doctests, run by tests/test_tutorial.py",
    "conform.md": "the adapter kit's worked example: its trace, code and output, run by "
                  "tests/compare/test_kit.py",
    "vectors.md": "the json-only checker, run against this engine by tests/compare/test_vectors.py",
    "rule-language.md": "an excerpt of the rule language's source, not a program",
}
FENCE = re.compile(r"```python\n(.*?)```", flags=re.DOTALL)
LINK = re.compile(r"\[[^\]]*\]\(([^)\s]+)\)")


def name(page: Path) -> str:
    return page.relative_to(ROOT).as_posix()


def commands(text: str) -> list[str]:
    """The commands of a page's ``sh`` blocks: every line, or in a transcript (a
    block with ``$`` prompts) the prompted lines, the ``$`` taken off."""
    out = []
    for block in re.findall(r"```sh\n(.*?)```", text, flags=re.DOTALL):
        lines = [line for line in block.splitlines()
                 if line.strip() and not line.startswith(("#", " "))]
        prompted = [line[2:] for line in lines if line.startswith("$ ")]
        out += prompted or lines
    return out


def test_the_readme_is_a_landing_page() -> None:
    lines = README.read_text(encoding="utf-8").splitlines()
    assert len(lines) <= MAX_README_LINES, (
        f"README.md has {len(lines)} lines: move details into docs/ "
        f"(at most {MAX_README_LINES})")
    # the two commands, exactly: one installs and runs the main job, one passes the tests
    assert ("python3 -m venv .venv && . .venv/bin/activate && pip install -q -e . "
            "&& unoformal verify") in lines
    assert ("python3 -m venv .venv && . .venv/bin/activate && pip install -q -e '.[test]' "
            "&& python -m pytest") in lines


@pytest.mark.parametrize("page", PAGES, ids=name)
def test_every_command_has_one_form(page: Path) -> None:
    for line in commands(page.read_text(encoding="utf-8")):
        assert ".venv/bin/" not in line.replace(ACTIVATE, ""), line
        first = line.split()[0]
        # spin, gcc and pan: Spin's own count of a program `explore --promela` writes
        assert first in ("unoformal", "python", "python3", "ruff", "yes", "spin", "gcc",
                         "./pan"), line


def test_the_readme_shows_the_commands() -> None:
    assert len(commands(README.read_text(encoding="utf-8"))) > 20


@pytest.mark.parametrize("page", RUN, ids=name)
def test_every_python_example_runs(page: Path, tmp_path: Path,
                                   monkeypatch: pytest.MonkeyPatch) -> None:
    # Each ``python`` block on its own, as a reader pastes it: a changed API or a changed
    # game (the chance example asserts the noted game is the plain one) fails here. A
    # reader runs them at the top of a checkout; the files they write go to a scratch
    # directory that sees the checkout's tests/, not into the checkout.
    (tmp_path / "tests").symlink_to(ROOT / "tests")
    monkeypatch.chdir(tmp_path)
    blocks = FENCE.findall(page.read_text(encoding="utf-8"))
    assert blocks, f"{name(page)} has no python example"
    for i, block in enumerate(blocks):
        exec(compile(block, f"{name(page)} python block {i}", "exec"), {"__name__": "readme"})


@pytest.mark.parametrize("page", RUN_IN_ORDER, ids=name)
def test_a_step_by_step_page_runs_in_order(page: Path, tmp_path: Path,
                                           monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "tests").symlink_to(ROOT / "tests")
    monkeypatch.chdir(tmp_path)
    blocks = FENCE.findall(page.read_text(encoding="utf-8"))
    assert len(blocks) >= 3, f"{name(page)}: a step-by-step page has its steps"
    session: dict[str, object] = {"__name__": "howto"}
    for i, block in enumerate(blocks):
        exec(compile(block, f"{name(page)} python block {i}", "exec"), session)


def test_every_python_block_is_run_or_said_where_it_is_checked() -> None:
    for page in PAGES:
        if page not in RUN + RUN_IN_ORDER and FENCE.search(page.read_text(encoding="utf-8")):
            assert page.name in NOT_RUN, f"{name(page)}: add it to RUN, or say in NOT_RUN why not"
    assert all((DOCS / page).is_file() for page in NOT_RUN)


def slug(heading: str) -> str:
    """A heading's anchor, as GitHub writes it."""
    text = re.sub(r"[^\w\- ]", "", heading.strip().lower())
    return text.replace(" ", "-")


def anchors(page: Path) -> set[str]:
    text = re.sub(r"```.*?```", "", page.read_text(encoding="utf-8"), flags=re.DOTALL)
    return {slug(m) for m in re.findall(r"^#+ (.+)$", text, flags=re.MULTILINE)}


@pytest.mark.parametrize("page", PAGES, ids=name)
def test_every_relative_link_points_into_the_repository(page: Path) -> None:
    text = re.sub(r"```.*?```", "", page.read_text(encoding="utf-8"), flags=re.DOTALL)
    for target in LINK.findall(text):
        if re.match(r"[a-z]+:", target):
            continue
        path, _, anchor = target.partition("#")
        file = (page.parent / path).resolve() if path else page
        assert file.is_relative_to(ROOT), f"{name(page)}: {target} leaves the repository"
        assert file.exists(), f"{name(page)}: {target} points at no file"
        if anchor and file.suffix == ".md":
            assert anchor in anchors(file), f"{name(page)}: {target}: no such heading"


def test_every_docs_page_is_listed_in_the_readme_and_the_index() -> None:
    readme = README.read_text(encoding="utf-8").split("\n## Documentation\n")[1]
    index = (DOCS / "index.md").read_text(encoding="utf-8")
    for page in DOCS.glob("*.md"):
        if page.name != "index.md":
            assert f"](docs/{page.name})" in readme, f"README's Documentation lacks {page.name}"
            assert f"]({page.name})" in index, f"docs/index.md lacks {page.name}"


# A process that can import only what an install brings (``pip install -e .``, or with
# extras): the distributions pyproject.toml declares for it and theirs, followed through
# the installed metadata. Any other installed package (the test extras' matplotlib,
# rlcard ...) is refused as that install would lack it, so a dependency used but not
# declared fails here. sys.argv[1] is the JSON list of the distributions allowed.
ONLY_INSTALLED = """
import importlib.abc, importlib.metadata, json, sys
allowed = set(json.loads(sys.argv[1]))
owners = importlib.metadata.packages_distributions()
norm = lambda d: d.lower().replace("_", "-").replace(".", "-")

class NotInstalled(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path, target=None):
        dists = owners.get(name.partition(".")[0], [])
        if dists and not any(norm(d) in allowed for d in dists):
            raise ModuleNotFoundError(f"No module named {name!r}", name=name)
        return None

sys.meta_path.insert(0, NotInstalled())
"""
CLI = ONLY_INSTALLED + "from unoformal.commands.cli import main\nsys.exit(main(sys.argv[2:]))\n"


def _requires(dist: str, extras: frozenset[str]) -> list[tuple[str, frozenset[str]]]:
    try:
        listed = importlib.metadata.requires(dist) or []
    except importlib.metadata.PackageNotFoundError:
        return []  # declared but not installed here: nothing of it can be imported
    wanted = [Requirement(r) for r in listed]
    return [(r.name, frozenset(r.extras)) for r in wanted
            if r.marker is None or any(r.marker.evaluate({"extra": e}) for e in extras | {""})]


def installed(extras: Sequence[str] = ()) -> set[str]:
    """The distributions ``pip install -e '.[extras]'`` brings: pyproject's dependencies
    and those of the extras, closed."""
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    listed = [*project["dependencies"],
              *(r for extra in extras for r in project["optional-dependencies"][extra])]
    todo = [(r.name, frozenset(r.extras)) for r in map(Requirement, listed)]
    seen: set[tuple[str, frozenset[str]]] = set()
    while todo:
        item = todo.pop()
        if item not in seen:
            seen.add(item)
            todo += _requires(*item)
    return {canonicalize_name(name) for name, _ in seen} | {"unoformal"}


def run_installed(code: str, args: Sequence[str], extras: Sequence[str] = (),
                  ) -> subprocess.CompletedProcess[str]:
    """``python -c code`` from the repository's root, importing only what the install
    with ``extras`` brings; ``args`` follow the allowed list in sys.argv."""
    return subprocess.run(
        [sys.executable, "-c", code, json.dumps(sorted(installed(extras))), *args],
        cwd=ROOT, capture_output=True, text=True, timeout=300, check=False)


@pytest.mark.parametrize("command", [
    ["show", "--preset", "micro"], ["explore", "--preset", "micro"],
    ["vectors", "--preset", "micro"], ["replay", "tests/records/seed002_whole_game.json"],
], ids=" ".join)
def test_the_readme_commands_run_after_the_plain_install(
        command: list[str], tmp_path: Path) -> None:
    out = ["--out", str(tmp_path / "out")] if command[0] in ("show", "vectors") else []
    done = run_installed(CLI, [*command, *out])
    assert done.returncode == 0, done.stderr[-2000:]


def test_a_picture_without_its_extra_is_refused_in_one_line(tmp_path: Path) -> None:
    """matplotlib is the ``plot`` extra: without it, one line that says what to install."""
    done = run_installed(CLI, ["explore", "--preset", "micro", "--picture",
                               str(tmp_path / "micro.svg")])
    assert done.returncode == 2 and done.stderr.count("\n") == 1, done.stderr[-2000:]
    assert "pip install 'unoformal[plot]'" in done.stderr


def _option_help(help_text: str, option: str) -> str | None:
    """The words of one option's help in a command's --help, its lines joined."""
    lines = help_text.splitlines()
    start = next((i for i, line in enumerate(lines) if line.strip().startswith(option)), None)
    if start is None:
        return None
    rest = lines[start + 1:]
    end = next((i for i, line in enumerate(rest) if not line.startswith(" " * 6)), len(rest))
    return " ".join(line.strip() for line in [lines[start], *rest[:end]])


def test_every_rules_option_names_the_shipped_variants_and_the_file_format(
        capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    """A newcomer reads ``unoformal rules --help`` (or any command's) for the names
    ``--rules`` takes: every one is there whole, on a narrow terminal too, with where a
    variant file is described."""
    from unoformal.commands.cli import COMMANDS, main
    from unoformal.rulebook.variants import VARIANTS

    monkeypatch.setenv("COLUMNS", "60")
    taking = []
    for command in COMMANDS:
        assert main([command, "--help"]) == 0
        words = _option_help(capsys.readouterr().out, "--rules RULES")
        if words is None:
            continue
        taking.append(command)
        for variant in VARIANTS:
            assert re.search(rf"[ :,]{re.escape(variant)}[,;]", words), (command, words)
        assert "docs/rule-table.md" in words, (command, words)
    assert "rules" in taking and len(taking) >= 10, taking
