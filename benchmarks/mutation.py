"""Engine mutation score: how much of the engine and the table's interpreters the tests pin.

Not part of the default test run (a full run takes hours on two cores). Usage::

    python benchmarks/mutation.py [--only engine/game.py] [--only 'unoformal.rulebook.*'] [--json]
        [--jobs 2] [--suite tests/engine ...] [--keep DIR] [--no-planted]
    python benchmarks/mutation.py --resume DIR     # go on with a kept run that was stopped
    python benchmarks/mutation.py --resume DIR --recheck   # its survivors, against new tests
    python benchmarks/mutation.py --report DIR     # what a kept run has found so far

mutmut (3.x) mutates a scratch copy of the repository (``unoformal/``, ``tests/``,
``pyproject.toml``), so the worktree is never touched. Its mutants are whole-function
copies behind a trampoline; each one is run against only the tests of the killing suite
that call the mutated function (mutmut's per-test coverage), on ``--jobs`` forked workers.

The killing suite is :data:`KILLING_SUITE`, the one place to change it. The score is
killed / (total - equivalent); the equivalent mutants are explained, one by one, in
``mutation_equivalent.toml`` beside this script, each with the mutated line it was written
for, so an entry whose mutant has since changed is reported as stale, not counted.

:data:`PLANTED` are mutations mutmut does not generate (the WD4-1 one-liner that once passed
every test); each is written into its own scratch copy and the killing suite is run on it
with pytest, exactly as mutmut runs it. They are reported beside the score, not in it.

``--only`` narrows the run to a file (``engine/game.py``), a mutant name or a glob of
names (``unoformal.language.cards.xǁOfCurrentColorǁholds__mutmut_*``). Results are
deterministic: mutmut's mutants are numbered from the source, and the tests draw every
random choice from fixed seeds.
"""

from __future__ import annotations

import argparse
import fnmatch
import json
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import time
import tomllib
from collections import Counter
from contextlib import nullcontext
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
EQUIVALENT = Path(__file__).resolve().parent / "mutation_equivalent.toml"

# What is mutated: the engine, the rule language (unoformal/language/), the rules stated
# in it (unoformal/rules/), and the table's interpreters. mutmut mutates function and
# method bodies only, so module-level data (the CLASSIC literal, the VARIANTS overrides,
# dataclass field defaults) is never mutated: it is the rules themselves, pinned by the
# per-rule tests and the Z3 mutants of `unoformal verify --mutants`, not interpreter code.
# The variant schema (rulebook/schema.py, rulebook/bounds.py) validates tables rather than
# interpreting them, and has its own tests (tests/rulebook/): it is left out.
SCOPE = ["unoformal/engine/*.py", "unoformal/language/*.py", "unoformal/rules/*.py",
         "unoformal/rulebook/cards.py",
         "unoformal/rulebook/deck.py", "unoformal/rulebook/table.py",
         "unoformal/rulebook/variants.py"]

# The killing suite: the engine tests, a short `validate` run (the engine step by step
# against the relation compiled from the table, 1,500 steps at 2 and 4 players), the fast
# tests elsewhere that drive the engine (whole games, simulation, the explorer built on the
# engine's successors, engine-vs-Z3 successors), and the tests of variant files and the
# table (tests/rulebook/), and the referee's tests (tests/compare/: records with stated chance,
# refusal causes, conform), which drive engine/chance.py and engine/record.py. Change it here
# and only here.
KILLING_SUITE = [
    "tests/engine",
    "tests/compare/test_relation.py::test_classic_agrees",
    "tests/rulebook",
    "tests/compare",
    "tests/test_smoke.py",
    "tests/test_simulate.py",
    "tests/compare/test_successors.py",
    "tests/verification/test_explore_graph.py",
    "tests/verification/test_explore_extensions.py",
    "tests/verification/test_explore_cli.py",
    "tests/verification/test_rules_lang.py",
    "tests/verification/test_uno_window.py",
    # The commands' own tests: their words for every variant (built again, so that a
    # builder's mutant reaches them), both backends step by step, and the house rules'
    # relation (their properties and planted bugs).
    "tests/verification/test_command_words.py",
    "tests/verification/test_commands.py",
    "tests/verification/test_state_schema.py",
    "tests/verification/test_seven_o.py",
    "tests/verification/test_jump_in.py",
]

# Two things a run over the builders (unoformal/rules/: play, start, deal ...) must know:
# - mutmut's fork server builds every shipped table's commands and lookups before it forks a
#   mutant, and each is built once per table and process, so a builder's mutant reaches only
#   a test that builds a table afresh (derived in the test, as the cause-text, chance-node,
#   Seven-O and play-command tests do) or builds the commands anew (the words test);
# - a narrower suite is sound for a first pass (a mutant one of its tests kills, the whole
#   suite kills), and much faster, since the stats run is the suite's: --suite the commands'
#   own tests, then --resume DIR --recheck with more of the suite for the survivors.
# The rules document's tests read the engine's *source* to say which functions cite a rule;
# mutmut's copy holds trampolines and mutant copies of every function, so those tests would
# fail on the unmutated copy too. They test the document, not the engine's behaviour: they
# stay out of the killing suite.
NOT_KILLING = ["tests/rulebook/test_rules_doc.py"]

# One process ("-n 0"): the project's addopts ask for two pytest-xdist workers, and mutmut
# follows which test runs in its own process.
PYTEST_ARGS = ["-p", "no:cacheprovider", "-n", "0", *(f"--ignore={t}" for t in NOT_KILLING),
               "-q", "-x"]

# Some mutants make the engine loop for ever, appending to a list (a dealer draw that never
# settles): each worker gets this much address space, so such a mutant dies of MemoryError
# (a failing test: killed) within seconds instead of filling a shared machine's memory.
MEMORY_BYTES = 4 * 1024**3
# mutmut's CPU-time limit per mutant is (the mutant's tests' time + 1 s) x this x 2; its
# default of 15 lets one looping mutant hold a worker for a quarter of an hour.
TIMEOUT_MULTIPLIER = 4.0


@dataclass(frozen=True)
class Planted:
    """A hand-written mutation: ``old`` replaced once by ``new`` in ``path``."""

    name: str
    rule: str
    function: str  # mutmut's name of the function it is planted in
    path: str
    old: str
    new: str


PLANTED = [
    Planted(
        name="planted_wd4_1_counts_only_number_cards",
        rule="WD4-1",
        function="unoformal.language.cards.xǁOfCurrentColorǁholds",
        path="unoformal/language/cards.py",
        old="return game.f_color[face] == game.color",
        new="return game.f_color[face] == game.color and game.f_kind[face] is Kind.NUMBER",
    ),
]

# mutmut's exit-code verdicts, folded into the categories this report uses.
CATEGORY = {
    "killed": "killed",
    "survived": "survived",
    "timeout": "timeout",
    "suspicious": "suspicious",
    "skipped": "skipped",
    "no tests": "no_tests",
    "not checked": "not_checked",
    "segfault": "segfault",
    "caught by type check": "killed",
    "check was interrupted by user": "not_checked",
}


@dataclass
class Report:
    suite: list[str]
    only: list[str]
    wall_s: float = 0.0
    status: dict[str, str] = field(default_factory=dict)
    diffs: dict[str, str] = field(default_factory=dict)
    equivalent: dict[str, str] = field(default_factory=dict)
    stale: list[str] = field(default_factory=list)
    planted: dict[str, bool] = field(default_factory=dict)

    def counts(self) -> dict[str, int]:
        c = Counter(self.status.values())
        return {k: c.get(k, 0) for k in ("killed", "survived", "equivalent", "timeout",
                                          "suspicious", "skipped", "no_tests", "not_checked",
                                          "segfault")}

    def score(self) -> float | None:
        c = self.counts()
        scored = len(self.status) - c["equivalent"]
        return c["killed"] / scored if scored else None

    def detected(self) -> float | None:
        """Like the score, with timed-out mutants counted as caught (their tests never
        passed; mutmut stopped them)."""
        c = self.counts()
        scored = len(self.status) - c["equivalent"]
        return (c["killed"] + c["timeout"]) / scored if scored else None

    def checked_score(self) -> float | None:
        """The score over the mutants with a verdict (a run cut short leaves some unchecked)."""
        c = self.counts()
        scored = len(self.status) - c["equivalent"] - c["not_checked"]
        return c["killed"] / scored if scored else None

    def not_killed(self) -> list[str]:
        return sorted(n for n, s in self.status.items() if s not in ("killed", "equivalent"))

    def to_json(self) -> dict[str, Any]:
        return {"suite": self.suite, "only": self.only, "total": len(self.status),
                **self.counts(), "score": self.score(), "detected": self.detected(),
                "checked_score": self.checked_score(), "wall_s": round(self.wall_s, 1),
                "not_killed": {n: {"status": self.status[n], "diff": self.diffs.get(n, "")}
                               for n in self.not_killed()},
                "equivalent_explained": self.equivalent, "stale_equivalents": self.stale,
                "planted": self.planted}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--only", action="append", default=[],
                        help="a file (engine/game.py), a mutant name or a glob of names")
    parser.add_argument("--suite", action="append",
                        help="replace the killing suite by these pytest paths (repeatable)")
    parser.add_argument("--jobs", type=int, default=2, help="mutmut worker processes")
    parser.add_argument("--keep", type=Path, help="work in this directory and keep it")
    parser.add_argument("--no-planted", action="store_true", help="skip the planted mutants")
    parser.add_argument("--report", type=Path, metavar="DIR",
                        help="only report the results kept in DIR (a --keep directory, its run "
                             "finished or not: mutants not run yet count as not checked)")
    parser.add_argument("--resume", type=Path, metavar="DIR",
                        help="go on with the run kept in DIR (stopped or cut short): mutmut "
                             "keeps every verdict it has and runs the mutants left, with the "
                             "tests as they are now (the source must not have changed)")
    parser.add_argument("--recheck", action="store_true",
                        help="with --resume: run the survivors again (those not explained as "
                             "equivalent; those --only names, if given), e.g. against tests "
                             "added since")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    suite = args.suite or KILLING_SUITE
    if args.report is not None:
        report = Report(suite=suite, only=[_pattern(o) for o in args.only])
        _collect(args.report.resolve(), report)
        print(json.dumps(report.to_json(), indent=2, ensure_ascii=False) if args.json
              else _text(report))
        return 0
    report = measure(suite, [_pattern(o) for o in args.only], args.jobs, args.keep,
                     planted=not args.no_planted, resume=args.resume, recheck=args.recheck)
    print(json.dumps(report.to_json(), indent=2, ensure_ascii=False) if args.json
          else _text(report))
    return 0


def measure(suite: list[str], only: list[str], jobs: int, keep: Path | None,
            planted: bool = True, resume: Path | None = None, recheck: bool = False) -> Report:
    """Run mutmut over ``only`` (every mutant in scope when empty) with ``suite``; with
    ``resume``, go on with the run kept there instead (``wall_s`` is then this part's),
    running its survivors again too when ``recheck``."""
    report = Report(suite=suite, only=only)
    start = time.perf_counter()
    with _workdir(keep) if resume is None else nullcontext(resume.resolve()) as work:
        if resume is None:
            suite = _prepare(work, suite, only)
            names = only
        else:
            suite = _refresh(work, suite)
            names = _survivors(work, only) if recheck else only
        _mutmut_run(work, names, jobs)
        _collect(work, report)
        if planted:
            report.planted = {p.name: _planted_killed(p, suite, work) for p in _planted(only)}
    report.wall_s = time.perf_counter() - start
    return report


def _refresh(work: Path, suite: list[str]) -> list[str]:
    """A kept run goes on with the worktree's tests, as they are now; its mutants are of the
    source it began with, so the source must be the same."""
    theirs, ours = _files_under(work / "unoformal"), _files_under(ROOT / "unoformal")
    changed = sorted(n for n in theirs.keys() | ours.keys() if theirs.get(n) != ours.get(n))
    if changed:
        raise SystemExit(f"--resume {work}: the source changed since the run began "
                         f"({', '.join(changed[:5])}); start a new run")
    for tests in (work / "tests", work / "mutants" / "tests"):
        shutil.rmtree(tests, ignore_errors=True)  # mutmut copies tests/ into mutants/
    shutil.copytree(ROOT / "tests", work / "tests",
                    ignore=shutil.ignore_patterns("__pycache__", "*.pyc", ".hypothesis"))
    with (work / "tests" / "conftest.py").open("a") as f:
        f.write(conftest())
    inside = _inside(work, suite)
    _select(work, inside)  # the suite asked for now, not the one the run began with
    return inside


def _select(work: Path, inside: list[str]) -> None:
    """mutmut's test selection in the copy's pyproject: the suite ``inside``. A changed
    selection makes mutmut collect its per-test stats again and forget the verdicts kept
    so far: note the report first, and name the mutants to check again with --only."""
    config = work / "pyproject.toml"
    key = "pytest_add_cli_args_test_selection = "
    lines = [f"{key}{json.dumps(inside)}" if line.startswith(key) else line
             for line in config.read_text().splitlines()]
    config.write_text("\n".join(lines) + "\n")


def _files_under(root: Path) -> dict[str, bytes]:
    return {str(p.relative_to(root)): p.read_bytes() for p in root.rglob("*")
            if p.is_file() and "__pycache__" not in p.parts and p.suffix != ".so"}


def _survivors(work: Path, only: list[str]) -> list[str]:
    """The kept run's survivors not explained as equivalent (those ``only`` names, if any)."""
    explained = {e["name"] for e in _equivalents()}
    return sorted(n for n, s in _statuses(work).items() if s == "survived"
                  and n not in explained
                  and (not only or any(fnmatch.fnmatchcase(n, o) for o in only)))


def _collect(work: Path, report: Report) -> None:
    """Every mutant's verdict (of the subset, if any), equivalents applied, diffs of the rest."""
    status = _statuses(work)
    if report.only:
        status = {n: s for n, s in status.items()
                  if any(fnmatch.fnmatchcase(n, p) for p in report.only)}
    report.status = status
    _apply_equivalents(work, report)
    report.diffs.update(_diffs(work, [n for n in report.not_killed()
                                      if status[n] != "not_checked"]))


class _workdir:
    """A scratch directory, removed afterwards unless ``keep`` names one."""

    def __init__(self, keep: Path | None) -> None:
        self.keep = keep
        self.tmp: tempfile.TemporaryDirectory[str] | None = None

    def __enter__(self) -> Path:
        if self.keep is not None:
            shutil.rmtree(self.keep, ignore_errors=True)
            self.keep.mkdir(parents=True)
            return self.keep.resolve()
        self.tmp = tempfile.TemporaryDirectory(prefix="unoformal-mutation-")
        return Path(self.tmp.name)

    def __exit__(self, *exc: object) -> None:
        if self.tmp is not None:
            self.tmp.cleanup()


def _copy_sources(dest: Path, src: Path = ROOT) -> None:
    from unoformal.runtime.compiled import copy_source

    ignore = shutil.ignore_patterns("__pycache__", "*.pyc", ".hypothesis")
    # Without the compiled modules (setup.py): Python would import them in place of the
    # mutated source, and every mutant of the engine would survive.
    copy_source(dest, src)
    shutil.copytree(src / "tests", dest / "tests", ignore=ignore)
    # The referee's and the vectors' tests run the transcripts their documents show.
    shutil.copytree(src / "docs", dest / "docs", ignore=ignore)
    shutil.copy2(src / "pyproject.toml", dest / "pyproject.toml")


def _prepare(work: Path, suite: list[str], only: list[str]) -> list[str]:
    """The scratch copy, its pyproject carrying mutmut's settings for this run; returns the
    suite as paths inside the copy (a test file from outside the repository is copied in)."""
    _copy_sources(work)
    inside = _inside(work, suite)
    config = "\n".join([
        "", "[tool.mutmut]",
        'source_paths = ["unoformal"]',
        f"only_mutate = {json.dumps(_files(only))}",
        'also_copy = ["docs"]',
        f"pytest_add_cli_args = {json.dumps(PYTEST_ARGS[:-2])}",
        f"pytest_add_cli_args_test_selection = {json.dumps(inside)}",
        f"timeout_multiplier = {TIMEOUT_MULTIPLIER}",
        "use_git_change_detection = false", ""])
    with (work / "pyproject.toml").open("a") as f:
        f.write(config)
    with (work / "tests" / "conftest.py").open("a") as f:
        f.write(conftest())
    return inside


def _inside(work: Path, suite: list[str]) -> list[str]:
    """The suite as paths inside the copy: a test file from outside the repository is
    copied in, under tests/outside/."""
    inside = []
    for item in suite:
        path = Path(item)
        if path.is_absolute():
            dest = work / "tests" / "outside" / path.name
            dest.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(path, dest)
            item = str(dest.relative_to(work))
        inside.append(item)
    return inside


# Appended to the scratch copy's tests/conftest.py, for mutant runs only (not mutmut's stats
# run). Two things mutmut leaves to the suite:
# - Quickest first. mutmut hands each mutant the tests that cover its function in no
#   particular order, and the first failure ends the run (-x): run them quickest first (by
#   the durations of mutmut's own stats run), so a mutant dies as soon as any of its tests
#   can kill it; a survivor runs them all either way.
# - A CPU budget per test. mutmut's limit is per mutant, (its tests' time + 1 s) x
#   TIMEOUT_MULTIPLIER x 2: for a function every test calls (the shuffler) that is a quarter
#   of an hour of a worker for each mutant that loops for ever. A test that runs past
#   BUDGET_FACTOR x its stats time + BUDGET_SECONDS of CPU ends the mutant's run with
#   mutmut's own exit code for a timeout, so it is counted as a timeout, never as killed.
BUDGET_FACTOR = 10
BUDGET_SECONDS = 10


def conftest(factor: float = BUDGET_FACTOR, seconds: float = BUDGET_SECONDS) -> str:
    """The code appended to the copy's tests/conftest.py (pytest is imported there)."""
    return f"""


import functools  # added by benchmarks/mutation.py


@functools.cache  # read once: the budget asks for every test
def _mutmut_stats():  # added by benchmarks/mutation.py
    import json
    from pathlib import Path

    stats = Path(__file__).resolve().parent.parent / "mutmut-stats.json"
    if not stats.is_file():
        return None
    return json.loads(stats.read_text()).get("duration_by_test", {{}})


def _mutmut_durations():  # added by benchmarks/mutation.py
    import os

    # Not cached: mutmut's fork server collects (no mutant) before it forks each mutant run.
    if "__mutmut_" not in os.environ.get("MUTANT_UNDER_TEST", ""):
        return None
    return _mutmut_stats()


def pytest_collection_modifyitems(session, config, items):  # added by benchmarks/mutation.py
    took = _mutmut_durations()
    if took is not None:
        items.sort(key=lambda item: took.get(item.nodeid, float("inf")))


def _past_budget(signum, frame):  # added by benchmarks/mutation.py
    import os
    import sys

    sys.stderr.write("mutation.py: a test ran past its CPU budget (a mutant that loops)\\n")
    sys.stderr.flush()
    os._exit(36)  # mutmut's exit code for a timeout


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_protocol(item, nextitem):  # added by benchmarks/mutation.py
    import signal

    took = _mutmut_durations()
    if took is None:
        yield
        return
    budget = {factor} * took.get(item.nodeid, 6.0) + {seconds}
    signal.signal(signal.SIGPROF, _past_budget)
    signal.setitimer(signal.ITIMER_PROF, budget)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_PROF, 0)
"""


def _files(only: list[str]) -> list[str]:
    """The source files a subset's mutants can come from (mutmut generates mutants for every
    file it is given, so naming fewer makes a small run quicker); all of SCOPE otherwise."""
    if not only:
        return SCOPE
    files = []
    for pattern in only:
        parts = []
        for part in pattern.split("."):
            if part.startswith(("x_", "xǁ")) or "*" in part or "?" in part:
                break
            parts.append(part)
        prefix = "/".join(parts)
        if (ROOT / f"{prefix}.py").is_file():
            files.append(f"{prefix}.py")
        elif prefix and (ROOT / prefix).is_dir():
            files.append(f"{prefix}/*.py")
        else:
            return SCOPE
    # A file inside the scope, or the scope's files inside a package named.
    inside = [f for f in files if any(fnmatch.fnmatchcase(f, s) for s in SCOPE)]
    inside += [s for f in files for s in SCOPE if fnmatch.fnmatchcase(s, f)]
    if not inside:
        raise SystemExit(f"--only {' '.join(only)}: outside the scope {' '.join(SCOPE)}")
    return sorted(set(inside))


def _mutmut_run(work: Path, only: list[str], jobs: int) -> None:
    log = work / "mutmut-run.log"
    (work / "mutants").mkdir(exist_ok=True)  # on PYTHONPATH (_env): must exist from the start
    with log.open("a") as out:  # a resumed run's log follows the first part's
        mutmut = str(Path(sys.executable).with_name("mutmut"))
        done = subprocess.run([mutmut, "run", "--max-children", str(jobs), *only], cwd=work,
                              stdout=out, stderr=subprocess.STDOUT, env=_env(work), check=False,
                              preexec_fn=_limit_memory)
    if done.returncode != 0:
        tail = log.read_text(errors="replace").replace("\r", "\n").splitlines()[-20:]
        raise SystemExit(f"mutmut run failed (exit {done.returncode}):\n" + "\n".join(tail))


def _limit_memory() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (MEMORY_BYTES, MEMORY_BYTES))


def _env(work: Path) -> dict[str, str]:
    # Tests that start `python -m unoformal` must import the mutated copy too: mutmut puts
    # it first on sys.path of its own process only.
    env = dict(os.environ)
    env.pop("MUTANT_UNDER_TEST", None)
    return _with_path(env, work / "mutants")


def _with_path(env: dict[str, str], first: Path) -> dict[str, str]:
    env["PYTHONPATH"] = os.pathsep.join(p for p in (str(first), env.get("PYTHONPATH")) if p)
    return env


def _statuses(work: Path) -> dict[str, str]:
    """Every mutant's verdict, from mutmut's per-file metadata."""
    from mutmut.stats import status_by_exit_code  # mutmut's own mapping of exit codes

    out: dict[str, str] = {}
    for meta in sorted((work / "mutants").rglob("*.py.meta")):
        data = json.loads(meta.read_text())
        for name, code in data["exit_code_by_key"].items():
            out[name] = CATEGORY.get(status_by_exit_code[code], "suspicious")
    return out


def _diffs(work: Path, names: list[str]) -> dict[str, str]:
    """mutmut's diff of each named mutant, asked in one process."""
    if not names:
        return {}
    code = ("import json, sys\n"
            "from mutmut.mutation.diff_apply import get_diff_for_mutant\n"
            "names = json.load(sys.stdin)\n"
            "out = {}\n"
            "for n in names:\n"
            "    try:\n"
            "        out[n] = get_diff_for_mutant(n)\n"
            "    except Exception as err:  # a mutant mutmut cannot show: say so, go on\n"
            "        out[n] = f'(no diff: {err})'\n"
            "print(json.dumps(out))\n")
    done = subprocess.run([sys.executable, "-c", code], cwd=work, input=json.dumps(names),
                          capture_output=True, text=True, check=True, env=_env(work))
    diffs: dict[str, str] = json.loads(done.stdout)
    return diffs


def changed_lines(diff: str) -> list[str]:
    """The removed and added lines of a diff, stripped: what an equivalence is written for."""
    return [line[0] + line[1:].strip() for line in diff.splitlines()
            if line[:1] in "+-" and not line.startswith(("+++", "---"))]


def _equivalents() -> list[dict[str, Any]]:
    """Every explained mutant, with its group's reason."""
    if not EQUIVALENT.exists():
        return []
    groups = tomllib.loads(EQUIVALENT.read_text())["group"]
    return [{**m, "why": " ".join(g["why"].split())} for g in groups for m in g["mutant"]]


def _apply_equivalents(work: Path, report: Report) -> None:
    wanted = [e for e in _equivalents() if e["name"] in report.status]
    diffs = _diffs(work, [e["name"] for e in wanted])
    for e in wanted:
        name = e["name"]
        if changed_lines(diffs[name]) != e["change"]:
            report.stale.append(name)  # the mutant changed since it was explained
            continue
        if report.status[name] != "killed":
            report.status[name] = "equivalent"
            report.equivalent[name] = e["why"]


def _pattern(only: str) -> str:
    """A file such as ``engine/game.py`` becomes the glob of its mutant names."""
    if only.endswith(".py"):
        module = only.removesuffix(".py").replace("/", ".")
        if not module.startswith("unoformal."):
            module = "unoformal." + module
        return module + ".*"
    return only


def _planted(only: list[str]) -> list[Planted]:
    if not only:
        return PLANTED
    # Planted in a function, it belongs to any subset that names that function's mutants.
    return [p for p in PLANTED if any(fnmatch.fnmatchcase(p.function + "__mutmut_1", o)
                                      or fnmatch.fnmatchcase(p.name, o) for o in only)]


def _planted_killed(p: Planted, suite: list[str], work: Path) -> bool:
    """Whether the killing suite fails on a copy with ``p`` written in."""
    copy = work / "planted" / p.name
    _copy_sources(copy, src=work)  # the pristine copy, with any test copied in from outside
    target = copy / p.path
    text = target.read_text()
    if text.count(p.old) != 1:
        raise SystemExit(f"planted mutant {p.name}: {p.old!r} is not in {p.path} exactly once")
    target.write_text(text.replace(p.old, p.new))
    env = _with_path(dict(os.environ), copy)
    done = subprocess.run([sys.executable, "-m", "pytest", *PYTEST_ARGS, *suite], cwd=copy,
                          env=env, capture_output=True, text=True, check=False)
    return done.returncode != 0


def _text(report: Report) -> str:
    c = report.counts()
    score, detected = report.score(), report.detected()
    lines = [
        f"killing suite: {' '.join(report.suite)}",
        f"mutants: {len(report.status)}" + (f" (only {', '.join(report.only)})"
                                             if report.only else ""),
        *(f"  {k.replace('_', ' ')}: {v}" for k, v in c.items()),
        "score (killed / (total - equivalent)): "
        + (f"{score:.2%}" if score is not None else "n/a"),
        "with timeouts counted as caught: " + (f"{detected:.2%}" if detected is not None
                                               else "n/a"),
        *([f"of the {len(report.status) - c['not_checked']} checked (the run was cut short): "
           + (f"{checked:.2%}" if (checked := report.checked_score()) is not None
              else "none yet")] if c["not_checked"] else []),
        f"wall time: {report.wall_s:.1f} s",
    ]
    for name in report.not_killed():
        if report.status[name] != "not_checked":  # counted above; they have no verdict yet
            lines += [f"\n{report.status[name].upper()} {name}", report.diffs.get(name, "")]
    for name in report.stale:
        lines.append(f"STALE equivalence (the mutant changed; re-check it): {name}")
    for name, killed in report.planted.items():
        lines.append(f"planted {name}: {'killed' if killed else 'SURVIVED'}")
    return "\n".join(lines)


if __name__ == "__main__":
    raise SystemExit(main())
