"""``docs/rules.md``: the rules document, generated from the rule table.

For each rule ID: its words with the table's values filled in, the seed section, the
table entry, and where the rule lives elsewhere: the engine functions that cite it, the
Z3 steps and properties that cite or read it, the tests named after or citing it, and the
README's findings about it. Everything but the words and values is found by reading the
sources (the engine's and the tests' text, the README), so the document cannot claim a
link the code does not have; ``tests/rulebook/test_rules_doc.py`` fails when the committed
document is stale. Z3 is imported only here, only when the document is asked for.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from unoformal.rulebook.table import HOUSE_FILE, Rule, RuleTable
from unoformal.rulebook.words import show

PACKAGE = Path(__file__).resolve().parent.parent  # unoformal/
ROOT = PACKAGE.parent  # the repository, when the package is used from a clone
COMMAND = "unoformal rules --markdown > docs/rules.md"
FINDINGS = "What the tools found in the rulebook"


@dataclass
class Sites:
    """Where one rule ID is cited outside the table."""

    statement: dict[str, list[str]] = field(default_factory=dict)  # rules/ file -> functions
    commands: list[list[str]] = field(default_factory=list)  # its moves' commands, in words
    branches: dict[str, str] = field(default_factory=dict)  # what coverage counts: its words
    switched_on: bool = False  # a house rule off in the table: commands from it switched on
    filed: bool = False  # a rule file's house rule: stated in its file, as changed moves
    own: list[str] = field(default_factory=list)  # such a rule's [[house.property]], in words
    engine: dict[str, list[str]] = field(default_factory=dict)  # file -> functions
    steps: set[str] = field(default_factory=set)  # Z3 steps citing it
    read_by: set[str] = field(default_factory=set)  # Z3 steps reading its entry
    properties: list[str] = field(default_factory=list)
    tests: list[str] = field(default_factory=list)
    findings: list[str] = field(default_factory=list)


def cites(rule_id: str) -> re.Pattern[str]:
    """The ID as a word: ``PLAY-1`` but not ``PLAY-10``, ``XPLAY-1`` or ``PLAY-1a``."""
    return re.compile(rf"(?<![A-Za-z0-9-]){re.escape(rule_id)}(?![A-Za-z0-9])")


_RANGE = re.compile(r"\b([A-Z][A-Z0-9]*)-(\d+)\.\.(\d+)\b")


def expand(text: str) -> str:
    """Ranges written ``CHAL-1..4`` as the IDs they cite: ``CHAL-1 CHAL-2 CHAL-3 CHAL-4``."""
    return _RANGE.sub(lambda m: " ".join(
        f"{m.group(1)}-{i}" for i in range(int(m.group(2)), int(m.group(3)) + 1)), text)


def render(table: RuleTable, root: Path = ROOT, rules: str | None = None) -> str:
    """The whole document for ``table``: docs/rules.md's for classic, or, with ``rules``,
    the document of the variant or rule file ``--rules`` named, which says so."""
    ids = list(dict.fromkeys(rule.id for _, rule in table.entries()))
    sites = {rid: Sites() for rid in ids}
    _cited_in(sites, "rules", "statement")
    _commands(table, sites)
    _cited_in(sites, "engine", "engine")
    _z3(table, sites)
    for rid, on in _house_rules_on(table):  # off here: shown as they play when on
        sites[rid].switched_on = True
        _commands(on, {rid: sites[rid]})
        _z3(on, {rid: sites[rid]}, properties=False)
    _tests(root / "tests", sites)
    _findings(root / "README.md", sites)
    lines = _head(table, rules)
    for rid in ids:
        entries = [(attr, rule) for attr, rule in table.entries() if rule.id == rid]
        lines += _section(rid, entries, sites[rid])
    return "\n".join(lines).rstrip() + "\n"


def _generated(rules: str | None) -> str:
    if rules is None:  # docs/rules.md
        return (f"Generated from the rule table (`unoformal/rulebook/table.py`) by `{COMMAND}`; "
                "do not edit by hand: a test fails when this file is stale.")
    return (f"Generated from the rule table (`unoformal/rulebook/table.py`) as `{rules}` "
            f"sets it, by `unoformal rules --rules {rules} --markdown`.")


def _head(table: RuleTable, rules: str | None = None) -> list[str]:
    lines = [f"# UNO rules — {table.name}", "", table.description, "",
             _generated(rules), "",
             "Each rule gives its words with the table's values filled in, the seed section it "
             "is decided from (seed 000 governs), the table entry, and where the rule is "
             "interpreted and checked: engine functions citing the ID, Z3 actions (steps) "
             "citing it or reading its entry, Z3 properties, tests, and the findings of the "
             f"README's \"{FINDINGS}\"."]
    if table.overrides:
        lines += ["", "Overrides of the classic table: " + "; ".join(
            f"{rid}.{key} = {show(value)}" for rid, key, value in table.overrides) + "."]
    if table.expect:  # a variant file's own [[expect]]: what `unoformal verify` checks
        lines += ["", "Verdicts its file expects (`[[expect]]`, checked by `unoformal verify`):",
                  *(f"- `{e.property}` at {e.players} players: {e.verdict}. {e.reason}"
                    for e in table.expect)]
    return lines


def _section(rid: str, entries: list[tuple[str, Rule]], where: Sites) -> list[str]:
    lines = ["", f"## {rid}", ""]
    for attr, rule in entries:
        tag = " *(extension: not in the seeds)*" if rule.extension else \
            " *(house rule: not in the seeds; off in classic)*" if rule.house else ""
        lines.append(f"{rule.words()}{tag}")
        lines.append("")
        if rule.extension or rule.house:
            lines += [f"Why: {rule.reason}", ""]
        elif rule.reason:  # a rulebook entry with readings: which one is the default, why
            lines += [f"Readings: {rule.reason}", ""]
        if not rule.enabled and rule.when_off:
            lines += [f"Switched off: {rule.when_off}", ""]
        lines.append(f"- Seed: {rule.source}")
        lines.append(f"- Table entry: `{attr}` ({type(rule).__name__}){_values(rule)}")
    lines += _where(where)
    return lines


def _values(rule: Rule) -> str:
    # "enabled" matters only where it can be switched.
    shown = [f"`{key} = {show(value)}`" for key, value in rule.values().items()
             if key not in ("extension", "house") and (key != "enabled" or rule.switchable)]
    return ": " + ", ".join(shown) if shown else ""


def _unstated(where: Sites) -> str:
    if where.filed:
        return "in its rule file, as the changes to the moves below"
    return "not yet (engine and Z3 by hand)"


def _where(where: Sites) -> list[str]:
    statement, engine = _functions_of(where.statement), _functions_of(where.engine)
    reading = sorted(where.read_by - where.steps)
    stated = [f"- Stated in the rule language: {statement or _unstated(where)}",
              *_played(where.commands, where.switched_on),
              *_counted(where.branches)]
    if where.filed:
        # A rule file's rule: no engine function, shipped property, test or finding of the
        # package can name it (one that does names another rule of the same ID); what checks
        # it is its file's own properties and [[expect]], listed at the top.
        return [*stated,
                f"- Z3 steps reading its entry: {_list(reading)}",
                "- Its properties (`[[house.property]]`, proved by `unoformal verify`):"
                + ("" if where.own else " none"),
                *(f"  - {own}" for own in where.own)]
    return [
        *stated,
        f"- Engine: {engine or 'no function cites it'}",
        f"- Z3 steps citing it: {_list(sorted(where.steps))}",
        f"- Z3 steps reading its entry: {_list(reading)}",
        f"- Z3 properties: {_list(where.properties)}",
        "- Tests:" + ("" if where.tests else " none"),
        *(f"  - `{test}`" for test in where.tests),
        f"- Findings: {'; '.join(where.findings) or 'none'}",
    ]


def _house_rules_on(table: RuleTable) -> list[tuple[str, RuleTable]]:
    """Each house rule the table switches off, with the table that switches it on: its
    commands and steps exist only there."""
    from unoformal.rulebook.variants import derive

    return [(rule.id, derive(table, f"{table.name}-{rule.id.lower()}", table.description,
                             {rule.id: {"enabled": True}}))
            for _, rule in table.entries() if rule.house and not rule.enabled]


def _commands(table: RuleTable, sites: dict[str, Sites]) -> None:
    """Each guarded command in words, under every rule it cites: the same statement the
    engine runs and the relation encodes (``unoformal.language``)."""
    from unoformal.language.commands import labels_of
    from unoformal.language.effects import KnockOut
    from unoformal.rules.book import commands

    ends: dict[KnockOut, None] = {}
    # a rule file's house rules: each move a change of theirs reaches, by the conjuncts
    # and steps citing them (a move's own citations name the rulebook's rules)
    filed = {r.id for r in table.house if r.source == HOUSE_FILE and r.id in sites}
    for rule in table.house:
        if rule.id in filed:
            sites[rule.id].filed = True
            sites[rule.id].own = [f"`{p.name}`: {p.says}" for p in rule.properties]
    for command in commands(table):
        cited = command.cites + tuple(c for b in command.branches for c in b.cites)
        if filed:
            cited += _filed_in(command, filed)
        for rid in dict.fromkeys(cited):
            if rid in sites:
                sites[rid].commands.append(command.text())
        for label in labels_of(command):
            if label.rule in sites:
                sites[label.rule].branches.setdefault(label.branch, label.text)
        ends.update((s, None) for step in command.steps() for s in step.walk()
                    if isinstance(s, KnockOut))
    # MERCY's knock-out ends every move of a round, which none of them cites: stated once
    for step in ends:
        if step.rule in sites:
            sites[step.rule].commands.append(
                ["every move of a round, the start card's included, ends with `KnockOut`:",
                 *step.lines()])


def _filed_in(command: Any, filed: set[str]) -> tuple[str, ...]:
    """The house rules of ``filed`` that a conjunct or a step of ``command`` (a
    ``Command``: the table's layer reads the language's only inside functions) cites."""
    guard = command.guard + tuple(p for b in command.branches for p in b.guard)
    named = [p.rule for p in guard] + [getattr(n, "rule", None) for step in command.steps()
                                       for n in step.walk()]
    return tuple(r for r in dict.fromkeys(named) if r in filed)


def _counted(branches: dict[str, str]) -> list[str]:
    """The branches the commands state for the explorer's coverage (``Shows``, ``Sorts``,
    a ``When``'s ways), as its report and the step-by-step page name them."""
    if not branches:
        return []
    return ["- Coverage counts (the branches its commands state):",
            *(f"  - `{name}`: {text}" for name, text in branches.items())]


def _played(commands: list[list[str]], switched_on: bool = False) -> list[str]:
    if not commands:
        return []
    when = " when switched on" if switched_on else ""
    lines = [f"- How it is played{when} (its moves as guarded commands, read by the engine "
             "and Z3):"]
    for text in commands:
        lines.append(f"  - {text[0]}")
        lines += [f"    {line}" for line in text[1:]]
    return lines


def _functions_of(files: dict[str, list[str]]) -> str:
    return "; ".join(f"`{path}`: " + ", ".join(f"`{f}`" for f in funcs)
                     for path, funcs in sorted(files.items()))


def _list(items: Iterable[str]) -> str:
    shown = [f"`{item}`" for item in items]
    return ", ".join(shown) if shown else "none"


# --- The rule language and the engine: the functions whose source cites the ID ---------


def _cited_in(sites: dict[str, Sites], folder: str, where: str) -> None:
    """The functions of the package's ``folder`` citing each ID, into ``Sites.<where>``."""
    for path in sorted((PACKAGE / folder).glob("*.py")):
        rel = path.relative_to(PACKAGE.parent).as_posix()
        for rid, funcs in _citing_functions(path, sites).items():
            getattr(sites[rid], where)[rel] = funcs


def _citing_functions(path: Path, sites: dict[str, Sites]) -> dict[str, list[str]]:
    """For each ID, the functions (``Class.method``) whose lines cite it, comments and
    docstrings included; ``(module)`` for a citation outside every function."""
    source = path.read_text(encoding="utf-8")
    lines = expand(source).splitlines()
    spans = sorted(_functions(ast.parse(source)), key=lambda s: s[1] - s[0])
    found: dict[str, list[str]] = {}
    for rid in sites:
        pattern = cites(rid)
        for number, line in enumerate(lines, 1):
            if not pattern.search(line):
                continue
            name = next((n for a, b, n in spans if a <= number <= b), "(module)")
            if name not in found.setdefault(rid, []):
                found[rid].append(name)
    return found


def _functions(tree: ast.AST, prefix: str = "") -> Iterator[tuple[int, int, str]]:
    for node in ast.iter_child_nodes(tree):
        if isinstance(node, ast.ClassDef):
            yield from _functions(node, f"{prefix}{node.name}.")
        elif isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            yield node.lineno, node.end_lineno or node.lineno, f"{prefix}{node.name}"
            yield from _functions(node, f"{prefix}{node.name}.")


# --- Z3: the steps and properties --------------------------------------------------------


def _z3(table: RuleTable, sites: dict[str, Sites], properties: bool = True) -> None:
    # Imported here only: `unoformal rules` without --markdown must not load Z3.
    from unoformal.verification.z3.actions import Spec
    from unoformal.verification.z3.properties import PROPERTIES
    from unoformal.verification.z3.state import fresh

    low = table.players.minimum
    for players in sorted({low, min(low + 1, table.players.maximum)}):
        spec = Spec(table, players)  # two counts: TWO-1 is read at 2 only
        for step in spec.steps(fresh(players, spec.deck, prefix="doc", knocks=spec.knocks)):
            for rid in step.rule_ids:
                if rid in sites:
                    sites[rid].steps.add(step.name)
            for rid in step.reads:
                if rid in sites:
                    sites[rid].read_by.add(step.name)
    for prop in PROPERTIES if properties else ():
        for rid in prop.rule_ids:
            if rid in sites:
                sites[rid].properties.append(prop.name)


# --- Tests: named after the ID, or citing it ---------------------------------------------


def _tests(folder: Path, sites: dict[str, Sites]) -> None:
    if not folder.is_dir():
        return
    for path in sorted(folder.rglob("test_*.py")):
        source = path.read_text(encoding="utf-8")
        lines = expand(source).splitlines()
        rel = path.relative_to(folder.parent).as_posix()
        tests = [(a, b, n) for a, b, n in _functions(ast.parse(source))
                 if n.rsplit(".", 1)[-1].startswith("test")]
        for rid, where in sites.items():
            pattern, named = cites(rid), _named(rid)
            for a, b, name in tests:
                body = "\n".join(lines[a - 1:b])
                if named.search(name) or pattern.search(body):
                    where.tests.append(f"{rel}::{name}")


def _named(rid: str) -> re.Pattern[str]:
    """``test_chal_2_...`` is named after CHAL-2."""
    token = rid.lower().replace("-", "_")
    return re.compile(rf"(?:^|[._]){re.escape(token)}(?:_|$)")


# --- Findings: the README's bullets that name the ID -------------------------------------


def _findings(readme: Path, sites: dict[str, Sites]) -> None:
    if not readme.is_file():
        return
    text = readme.read_text(encoding="utf-8")
    start = text.find(f"## {FINDINGS}")
    if start < 0:
        return
    section = text[start:].split("\n## ", 1)[0]  # from its heading to the next one
    for bullet in re.split(r"\n- ", "\n" + section.split("\n", 1)[1]):
        title = re.match(r"\*\*(.+?)\*\*", bullet.strip())
        if title is None:
            continue
        for rid, where in sites.items():
            if cites(rid).search(bullet):
                where.findings.append(f"{title.group(1)} (README, \"{FINDINGS}\")")
