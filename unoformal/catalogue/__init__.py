"""The catalogue of house rules people play, as data: ``index.toml`` names each rule, its
family, what other engines and editions call it, and its readings; each reading is a rule
file of this folder (a variant file over classic, docs/how-a-rule-is-written.md) or a
shipped variant. The first reading is the default. Presets join rules; combinations
state, as expected verdicts, what rules give together and no rule alone.

This module only reads the index: what a reading's file says is read by the variant
loader (``rulebook.variants``), which asks here where a catalogue name's file is. So
the catalogue sits beside the table's data, below every reader, and a rule is added by
writing a file and an entry of the index, with no code.

Names a table is taken by (``--rules``): ``NAME`` (the rule's default reading),
``NAME@READING``, a preset's name, or several of these joined by ``+``.
"""

from __future__ import annotations

import functools
import tomllib
from dataclasses import dataclass, field
from pathlib import Path

from unoformal.errors import VariantError

__all__ = ["FAMILIES", "FOLDER", "CatalogueRule", "Preset", "Reading", "Wanted", "find",
           "preset", "presets", "rules", "wanted"]

FOLDER = Path(__file__).parent
FAMILIES = ("draw", "stacking", "play", "uno", "hands", "challenge", "end")


@dataclass(frozen=True)
class Reading:
    """One reading of a rule's wording: a rule file of the catalogue (``file``) or a
    shipped variant (``variant``), and where it comes from (``why``)."""

    name: str
    why: str
    file: str = ""
    variant: str = ""

    @property
    def path(self) -> Path | None:
        return FOLDER / self.file if self.file else None


@dataclass(frozen=True)
class CatalogueRule:
    name: str
    family: str
    title: str
    elsewhere: str
    readings: tuple[Reading, ...]
    # What the rule is a reading of where no command reads it: "stated chance" (how a
    # record's outcomes are judged: RESHUFFLE-1's split pile) or "views" (what a seat
    # sees: HIDDEN-1's open hands); the matrix asks nothing of its pairs (tests/catalogue
    # pins that its commands are classic's). "": the commands read it.
    reading_of: str = ""

    @property
    def default(self) -> Reading:
        return self.readings[0]

    def names(self) -> tuple[str, ...]:
        """Each reading as ``--rules`` names it: ``NAME`` for the default, then
        ``NAME@READING``."""
        return tuple(self.name if i == 0 else f"{self.name}@{r.name}"
                     for i, r in enumerate(self.readings))

    def reading(self, name: str) -> Reading:
        for reading in self.readings:
            if reading.name == name:
                return reading
        raise VariantError(f"{self.name}@{name}: {self.name} has no reading {name!r}; its "
                           f"readings are {', '.join(r.name for r in self.readings)}")


@dataclass(frozen=True)
class Preset:
    name: str
    description: str
    rules: tuple[str, ...]


@dataclass(frozen=True)
class Combination:
    """Catalogue rules that give together a verdict neither gives alone, or settle which
    of two that disagree holds (``[[combination]]`` in the index): ``rules``, as
    ``--rules`` names them; ``expect``, its ``[[expect]]`` tables (the fields of a variant
    file's), each with its reason. Every table that plays these rules (a preset, or a
    user's ``A+B+C``) expects them (``manifest.expected``)."""

    rules: tuple[str, ...]
    expect: tuple[dict[str, str], ...] = field(default=(), hash=False)
    # what the explorer finds of these rules together on a small deck and of neither
    # alone (``[[combination.finding]]``: deck, the finding as the matrix words it,
    # reason): the matrix page's "why" for its row
    findings: tuple[dict[str, str], ...] = field(default=(), hash=False)

    @property
    def name(self) -> str:
        return "+".join(self.rules)


@dataclass(frozen=True)
class Wanted:
    """A house rule people play that the catalogue does not have yet, and why."""

    name: str
    family: str
    title: str
    why: str


@dataclass(frozen=True)
class _Index:
    rules: tuple[CatalogueRule, ...]
    presets: tuple[Preset, ...]
    wanted: tuple[Wanted, ...]
    combinations: tuple[Combination, ...]


@functools.cache
def _index() -> _Index:
    data = tomllib.loads((FOLDER / "index.toml").read_text("utf-8"))
    return _Index(
        tuple(CatalogueRule(r["name"], r["family"], r["title"], r["elsewhere"],
                            tuple(Reading(**x) for x in r["readings"]),
                            r.get("reading_of", "")) for r in data["rule"]),
        tuple(Preset(p["name"], p["description"], tuple(p["rules"]))
              for p in data.get("preset", ())),
        tuple(Wanted(**w) for w in data.get("wanted", ())),
        tuple(Combination(tuple(c["rules"]), tuple(c.get("expect", ())),
                          tuple(c.get("finding", ())))
              for c in data.get("combination", ())))


def rules() -> tuple[CatalogueRule, ...]:
    """Every rule of the catalogue, in the index's order (by family)."""
    return _index().rules


def presets() -> tuple[Preset, ...]:
    return _index().presets


def wanted() -> tuple[Wanted, ...]:
    """What the catalogue does not have yet (docs/house-rules.md lists it)."""
    return _index().wanted


def combinations() -> tuple[Combination, ...]:
    """What catalogue rules give together and no rule alone, as expected verdicts."""
    return _index().combinations


def preset(name: str) -> Preset | None:
    return next((p for p in presets() if p.name == name), None)


def find(name: str) -> tuple[CatalogueRule, Reading] | None:
    """The rule and reading ``name`` takes (``NAME`` or ``NAME@READING``), or None where
    no rule of the catalogue has that name."""
    rule_name, _, reading = name.partition("@")
    rule = next((r for r in rules() if r.name == rule_name), None)
    if rule is None:
        return None
    return rule, rule.reading(reading) if reading else rule.default
