"""``unoformal rules``: the rule table as a readable rules document."""

from __future__ import annotations

import argparse
import sys
from typing import Any

from rich.console import Console
from rich.markup import escape
from rich.table import Table

from unoformal.commands import SUMMARY
from unoformal.errors import InvalidInputError
from unoformal.rulebook.table import Rule, RuleTable
from unoformal.rulebook.variants import load_rules_arg
from unoformal.rulebook.words import show


def register(sub: Any) -> None:
    p = sub.add_parser("rules", help=SUMMARY["rules"])
    p.add_argument("--rules", default=None, help="variant name or TOML file (default classic)")
    p.add_argument("--markdown", action="store_true",
                   help="the rules document in Markdown (docs/rules.md): words, seed, values, "
                   "and the engine, Z3 and tests that cite each rule")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    try:
        table = load_rules_arg(args.rules, "--rules")
    except InvalidInputError as err:
        print(f"error: {err.line()}", file=sys.stderr)
        return 2
    if args.markdown:
        print(render_markdown(table, args.rules))
    else:
        Console().print(render_table(table))
    return 0


def _values(rule: Rule) -> str:
    parts = []
    for key, value in rule.values().items():
        # "enabled" matters only where it can be switched: extensions, and the entries
        # that say what off means.
        if key == "extension" or (key == "enabled" and not rule.switchable):
            continue
        parts.append(f"{key}={show(value)}")
    return ", ".join(parts)


def render_table(table: RuleTable) -> Table:
    # Names, descriptions and values come from variant files: shown as written, never
    # read as rich markup.
    out = Table(title=escape(f"UNO rules — {table.name}: {table.description}"),
                show_lines=True)
    for column in ("ID", "source", "rule", "values"):
        out.add_column(column, overflow="fold")
    for _, rule in table.entries():
        text = rule.words()
        if rule.extension:
            text = f"[extension] {text}\nWhy: {rule.reason}"
        elif rule.reason and not rule.house:
            text = f"{text}\nReadings: {rule.reason}"
        if not rule.enabled and rule.when_off:
            text = f"{text}\nSwitched off: {rule.when_off}"
        out.add_row(rule.id, rule.source, escape(text), escape(_values(rule)))
    if table.overrides:
        out.caption = escape("Overrides of the classic table: " + "; ".join(
            f"{rid}.{key} = {show(value)}" for rid, key, value in table.overrides))
    return out


def render_markdown(table: RuleTable, rules: str | None = None) -> str:
    """The rules document (``docs/rules.md`` for classic; with ``rules``, the variant or
    rule file ``--rules`` named, as it says); imports Z3 to list its steps."""
    from unoformal.rulebook.document import render

    return render(table, rules=rules).rstrip("\n")
