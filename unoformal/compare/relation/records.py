"""A mismatch written out: the record that reaches it, its variant, and both sides."""

from __future__ import annotations

import json
from pathlib import Path

from unoformal.compare.relation.run import Mismatch
from unoformal.engine.record import with_rules
from unoformal.inputs import write_text
from unoformal.rulebook.table import RuleTable
from unoformal.rulebook.variants import VARIANTS, load_rules
from unoformal.verification.explore.witness import rules_toml


def write_mismatch(mismatch: Mismatch, folder: Path, rules: RuleTable) -> Path:
    """``folder/record.json`` (replayable with ``unoformal replay`` from anywhere: a
    shipped variant by its name, any other embedded, as a version-2 record states it; a
    path there is refused) with any other variant's ``rules.toml`` beside it, the same
    table for ``--rules``, and ``folder/mismatch.txt`` (the step and the two successors
    side by side). Returns the record's path."""
    folder.mkdir(parents=True, exist_ok=True)
    record = with_rules(mismatch.record, rules)
    if not (rules.name in VARIANTS and load_rules(rules.name) == rules):
        write_text(str(folder / "rules.toml"), rules_toml(rules), "mismatch's rules")
    path = folder / "record.json"
    write_text(str(path), json.dumps(record, indent=1) + "\n", "mismatch record")
    f = mismatch.finding
    write_text(str(folder / "mismatch.txt"),
        f"check: {f.check}\nstep: {f.step}\nplayers: {mismatch.players}\n"
        f"after: {mismatch.actions} actions\n{f.detail}\n"
        f"engine:   {f.engine}\nrelation: {f.relation}\n", "mismatch")
    return path
