"""A mismatch written out: the record that reaches it, its variant, and both sides."""

from __future__ import annotations

import json
from pathlib import Path

from unoformal.compare.relation.run import Mismatch
from unoformal.inputs import write_text
from unoformal.rulebook.table import RuleTable
from unoformal.rulebook.variants import VARIANTS, load_rules
from unoformal.verification.explore.witness import rules_toml


def write_mismatch(mismatch: Mismatch, folder: Path, rules: RuleTable) -> Path:
    """``folder/record.json`` (replayable with ``unoformal replay``: a shipped variant by
    its name, any other by the ``rules.toml`` written beside it) and ``folder/mismatch.txt``
    (the step and the two successors side by side). Returns the record's path."""
    folder.mkdir(parents=True, exist_ok=True)
    record = dict(mismatch.record)
    if not (rules.name in VARIANTS and load_rules(rules.name) == rules):
        variant = folder / "rules.toml"
        write_text(str(variant), rules_toml(rules), "mismatch's rules")
        record["rules"] = str(variant.resolve())
    path = folder / "record.json"
    write_text(str(path), json.dumps(record, indent=1) + "\n", "mismatch record")
    f = mismatch.finding
    write_text(str(folder / "mismatch.txt"),
        f"check: {f.check}\nstep: {f.step}\nplayers: {mismatch.players}\n"
        f"after: {mismatch.actions} actions\n{f.detail}\n"
        f"engine:   {f.engine}\nrelation: {f.relation}\n", "mismatch")
    return path
