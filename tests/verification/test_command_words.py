"""The words of every command, as the rules document prints them, pinned for every shipped
variant (``tests/data/commands_in_words.txt``): a primitive, a condition or a refusal whose
words change shows here, variant by variant, not only as a stale ``docs/rules.md``.

After a change of the words that is meant, write the file again with
``python -m tests.verification.test_command_words`` and read its diff.
"""

from __future__ import annotations

import difflib
import sys
from pathlib import Path

from tests.engine.helpers import forget_commands
from unoformal.language.commands import labels_of
from unoformal.language.conditions import Conjunct
from unoformal.language.effects import Shows, Sorts
from unoformal.rulebook.variants import VARIANTS, load_rules
from unoformal.rules.book import commands

PINNED = Path(__file__).resolve().parent.parent / "data" / "commands_in_words.txt"


def _words(variant: str) -> list[str]:
    table = load_rules(variant)
    lines = [f"## {variant}"]
    for command in commands(table):
        lines += command.text()
        parts: list[Conjunct] = [*command.guard,
                                 *(p for b in command.branches for p in b.guard)]
        lines += [f"  refusal {p.rule}: {p.words}" for p in parts]
        lines += [f"  counts {x.rule} {x.branch}: {x.text} "
                  f"({', '.join(k.value for k in x.kinds) or 'any card'})"
                  for x in labels_of(command)]
        steps = command.steps()
        lines += [f"  coverage: {node.text()}" for step in steps for node in step.walk()
                  if isinstance(node, (Shows, Sorts))]
    return lines


def words() -> str:
    # Each section caches its commands per table: built again here, so that the words are
    # those of the builders as they are now (a mutant of a builder reaches them too).
    forget_commands()
    return "\n".join(line for v in sorted(VARIANTS) for line in _words(v)) + "\n"


def test_the_words_of_every_command_are_pinned_for_every_variant() -> None:
    now, pinned = words(), PINNED.read_text(encoding="utf-8")
    diff = "".join(difflib.unified_diff(pinned.splitlines(True), now.splitlines(True),
                                        "pinned", "now", n=1))
    assert now == pinned, f"the commands' words changed:\n{diff[:4000]}"


if __name__ == "__main__":
    PINNED.write_text(words(), encoding="utf-8")
    print(f"wrote {PINNED} ({len(words().splitlines())} lines)", file=sys.stderr)
