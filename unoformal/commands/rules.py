"""``unoformal rules``: the rule table as a readable rules document."""

from __future__ import annotations

import argparse
import sys
from typing import Any

from rich.console import Console
from rich.markup import escape
from rich.table import Table

from unoformal.errors import InvalidInputError
from unoformal.inputs import load_rules_arg
from unoformal.spec.table import Rule, RuleTable


def register(sub: Any) -> None:
    p = sub.add_parser("rules", help="print the rule table as a rules document")
    p.add_argument("--rules", default=None, help="variant name or TOML file (default classic)")
    p.add_argument("--markdown", action="store_true", help="plain Markdown instead of a table")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    try:
        table = load_rules_arg(args.rules, "--rules")
    except InvalidInputError as err:
        print(f"error: {err.line()}", file=sys.stderr)
        return 2
    if args.markdown:
        print(render_markdown(table))
    else:
        Console().print(render_table(table))
    return 0


def _values(rule: Rule) -> str:
    parts = []
    for key, value in rule.values().items():
        # "enabled" matters only where it is switched: extensions, or an entry a variant
        # turned off.
        if key == "extension" or (key == "enabled" and value and not rule.extension):
            continue
        parts.append(f"{key}={_show(value)}")
    return ", ".join(parts)


def _show(value: Any) -> str:
    if isinstance(value, tuple):
        return "(" + ", ".join(_show(v) for v in value) + ")"
    return str(getattr(value, "value", value))


def render_table(table: RuleTable) -> Table:
    # Names, descriptions and values come from variant files: shown as written, never
    # read as rich markup.
    out = Table(title=escape(f"UNO rules — {table.name}: {table.description}"),
                show_lines=True)
    for column in ("ID", "source", "rule", "values"):
        out.add_column(column, overflow="fold")
    for _, rule in table.entries():
        text = rule.text
        if rule.extension:
            text = f"[extension] {text}\nWhy: {rule.reason}"
        if not rule.enabled and rule.when_off:
            text = f"{text}\nSwitched off: {rule.when_off}"
        out.add_row(rule.id, rule.source, escape(text), escape(_values(rule)))
    if table.overrides:
        out.caption = escape("Overrides of the classic table: " + "; ".join(
            f"{rid}.{key} = {_show(value)}" for rid, key, value in table.overrides))
    return out


def render_markdown(table: RuleTable) -> str:
    lines = [f"# UNO rules — {table.name}", "", table.description, ""]
    for _, rule in table.entries():
        tag = " *(extension)*" if rule.extension else ""
        lines.append(f"- **{rule.id}**{tag} ({rule.source}): {rule.text}")
        if rule.extension:
            lines.append(f"  Why: {rule.reason}")
        if not rule.enabled and rule.when_off:
            lines.append(f"  Switched off: {rule.when_off}")
        lines.append(f"  Values: {_values(rule)}")
    for rid, key, value in table.overrides:
        lines.append(f"- override: {rid}.{key} = {_show(value)}")
    return "\n".join(lines)
