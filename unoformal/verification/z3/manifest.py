"""The expected verdicts of ``unoformal verify``: the manifest (``manifest.toml``, shipped
with the package) for the shipped variants, and for any other table what it inherits.

Which expectations a table gets (docs/verification.md, "Your own variants"):

1. its own ``[[expect]]`` entries (``RuleTable.expect``, from a variant file) first;
   those that came from a part it plays (a preset's rules, a base file) are read as
   that part's, in step 3;
1a. a property that needs an entry this table has switched off (``Property.needs``: a
   house rule's own property, such as ``seven-o``) is expected vacuous: it has no action
   to ask about. No variant lists it, and a new house rule's property needs no entry for
   every variant that leaves the rule off;
2. a table whose entries all equal a shipped variant's gets that variant's manifest
   entries, whatever its name or description;
3. any other table gets what is stated for the tables the project ships that it plays
   (``contained``: a shipped variant, a catalogue reading, a preset, a combination of the
   catalogue). Of two that state a verdict, one that plays the other says more (a
   combination than its rules, a reading than its rule's default); of two that neither
   plays, the stronger verdict holds (refuted, then vacuous), as in a property's own
   verdict. A catalogue reading's base's manifest entries come after every statement
   of its own; last, the manifest entries of the table's *base*: the shipped variant it
   differs from in the fewest values (ties go to the one it was derived from, then to
   the earlier of ``VARIANTS``, classic first). A verdict that departs from the
   inherited one is unexpected, and the command says which changed entries the
   property's actions read and the ``[[expect]]`` entry that would record it.
"""

from __future__ import annotations

import dataclasses
import tomllib
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache, lru_cache
from pathlib import Path
from typing import Any

from unoformal.rulebook.table import RuleTable
from unoformal.rulebook.variants import VARIANTS, load_rules
from unoformal.verification.z3.prover import PROVED, REFUTED, SWITCHED_OFF, VACUOUS

PATH = Path(__file__).with_name("manifest.toml")

# Where an expectation comes from (``Expectation.source``): a variant file's own entry,
# the manifest, a base's manifest entries, or a property's rule switched off.
OWN, MANIFEST, INHERITED, OFF = "own", "manifest", "inherited", "switched off"


@dataclass(frozen=True)
class Expectation:
    """An expected verdict. ``source``: the table's own ``[[expect]]`` (OWN), the manifest
    entry of the shipped variant the table is (MANIFEST), or of its base (INHERITED);
    ``variant`` names that shipped variant. ``queries``: for a vacuous verdict, exactly
    which queries (or actions, for ``steps-enabled``) hold in no invariant state (None:
    any). ``reached``: for a refutation, whether a game from a deal reaches it (the
    bounded search of :mod:`unoformal.verification.z3.reach`; False: the property is
    expected *not proved at this strength*); None, as in a manifest written before the
    search, or a variant file's own entry: either."""

    verdict: str
    reason: str
    source: str = MANIFEST
    variant: str = "classic"
    queries: frozenset[str] | None = None
    reached: bool | None = None

    def met_by(self, verdict: str, vacuous: Sequence[str] = (),
               reached: bool | None = None) -> bool:
        """Whether a verdict is this one; ``reached``: whether the bounded search from a
        deal reached the refutation (None: not searched, or the search could not finish
        its bound, which tells neither way)."""
        if verdict != self.verdict:
            return False
        if verdict == REFUTED and None not in (reached, self.reached):
            return reached == self.reached
        return verdict != VACUOUS or self.queries is None or set(vacuous) == self.queries


def _players(text: str) -> range:
    lo, _, hi = text.partition("-")
    return range(int(lo), int(hi or lo) + 1)


@cache
def load() -> dict[str, Any]:
    return tomllib.loads(PATH.read_text())


def variants_of(entry: dict[str, Any]) -> list[str]:
    """An entry's ``rules``: one variant name, or a list of them."""
    rules = entry["rules"]
    return [rules] if isinstance(rules, str) else list(rules)


def differences(a: RuleTable, b: RuleTable) -> list[tuple[str, str]]:
    """The (rule ID, value name) pairs whose values differ between two tables."""
    out = []
    # a rule file's house rule is a difference of its own (``house``), not a value
    out += [(rule_id, "house") for rule_id in b.house_changed(a)]
    for (_, x), (_, y) in zip(a.rulebook_entries(), b.rulebook_entries(), strict=True):
        if x != y:
            old, new = x.values(), y.values()
            out += [(y.id, key) for key in new if old.get(key) != new[key]]
            if x.id != y.id:
                out.append((y.id, "id"))
    return out


@lru_cache(maxsize=16)
def base_of(rules: RuleTable) -> str:
    """The shipped variant ``rules`` is, or else differs from in the fewest values; among
    equals, the one the table was derived from (its overrides begin with that variant's),
    then the first of ``VARIANTS`` (classic first). A name is not trusted: a file named
    after a shipped variant is compared like any other."""
    def distance(name: str) -> tuple[int, bool]:
        shipped = load_rules(name)
        derived = rules.overrides[:len(shipped.overrides)] == shipped.overrides
        return len(differences(shipped, rules)), not derived

    return min(VARIANTS, key=distance)


def changed_rules(rules: RuleTable) -> list[str]:
    """The rule IDs whose values ``rules`` changes from its base, in table order."""
    return list(dict.fromkeys(rule_id for rule_id, _ in
                              differences(load_rules(base_of(rules)), rules)))


def expected(rules: RuleTable, prop: str, n: int) -> Expectation:
    """The verdict expected of ``prop`` at ``n`` players under ``rules`` (proved unless an
    entry says otherwise): the table's own entries first, then what is stated for the
    tables the project ships that it plays (the more specific first), then the
    manifest's for the shipped variant it is or inherits from (its base)."""
    base = base_of(rules)
    source = MANIFEST if not differences(load_rules(base), rules) else INHERITED
    played = () if source == MANIFEST else contained(rules, base)
    # A part's entries (a preset's or A+B's rules', a base file's) are that part's, and
    # are read in its place below: a combination of two parts says more than either.
    theirs = {e for name in played for e in _known()[name].expect}
    for own in rules.expect:
        if own.property == prop and n in _players(own.players) and own not in theirs:
            return Expectation(own.verdict, own.reason, OWN, rules.name)
    off = switched_off(rules, prop)
    if off:
        why = ("no action of the table asks about it" if all(" is off " in o for o in off)
               else "the property of that reading asks nothing of this table")
        return Expectation(VACUOUS, f"{', '.join(off)}: {why}", OFF, rules.name,
                           frozenset({SWITCHED_OFF}))
    # What a played table states itself first, then what a reading takes from its base:
    # mercy's refuted start-card (its file's) before stack-mixed@up's base's vacuity.
    for based in (False, True):
        said = {part: x for part in played if (x := _stated(part, prop, n, based))}
        # a table that plays another says more than it (seven-o@next than seven-o); of
        # the rest, the strongest verdict holds, as in a property's own (a refutation
        # of one rule's, mercy's start-card, stays one beside seven-o's vacuous query)
        kept = [p for p in said if not any(q != p and p in _plays(q) for q in said)]
        if kept:
            part = max(kept, key=lambda p: _RANK.get(said[p].verdict, 0))
            return dataclasses.replace(said[part], source=INHERITED, variant=part)
    found = _manifest_entry(base, prop, n, source)
    return found or Expectation(PROVED, "", source, base)


def _manifest_entry(variant: str, prop: str, n: int, source: str) -> Expectation | None:
    """The manifest's entry for a shipped variant, a property and a player count."""
    for entry in load().get("expect", []):
        if variant in variants_of(entry) and entry["property"] == prop and n in _players(
                entry["players"]):
            queries = entry.get("queries")
            return Expectation(entry["verdict"], entry["reason"], source, variant,
                               None if queries is None else frozenset(queries),
                               entry.get("reached"))
    return None


def _stated(name: str, prop: str, n: int, based: bool) -> Expectation | None:
    """What is stated of ``prop`` at ``n`` for a table the project ships (``_known``):
    a shipped variant's manifest entries, or a file's own entries; with ``based``,
    instead, the manifest entries of a catalogue reading's base. None where nothing is
    (proved by default). A preset or combination says only what its own entries say:
    its rules are tables of their own, each read in its place."""
    rules = _known()[name]
    if based:
        return (None if name in VARIANTS or name in _joined() else
                _manifest_entry(base_of(rules), prop, n, INHERITED))
    if name in VARIANTS:
        return _manifest_entry(name, prop, n, MANIFEST)
    for own in rules.expect:
        if own.property == prop and n in _players(own.players):
            return Expectation(own.verdict, own.reason, OWN, rules.name)
    return None


_RANK = {REFUTED: 3, VACUOUS: 2, "unknown": 1}  # proved: 0


def _plays(name: str) -> tuple[str, ...]:
    """The tables the project ships that the shipped table ``name`` plays."""
    rules = _known()[name]
    return contained(rules, base_of(rules))


@cache
def _joined() -> frozenset[str]:
    """The names of the catalogue's presets and combinations."""
    from unoformal.catalogue import combinations, presets

    return frozenset((*(p.name for p in presets()),
                      *(c.name for c in combinations() if c.expect)))


@cache
def _known() -> dict[str, RuleTable]:
    """Every table the project ships besides classic, by name: the shipped variants, each
    reading of the catalogue's rules, each preset and each of the catalogue's
    combinations, these two with only their own entries (their rules' are theirs)."""
    from unoformal.catalogue import combinations, presets
    from unoformal.rulebook.schema import expect_of

    readings = [name for names in _readings() for name in names]
    known = {name: load_rules(name) for name in (
        *(v for v in VARIANTS if v != "classic"), *readings)}
    for p in presets():  # its rules' entries are theirs: it states none of its own
        known[p.name] = dataclasses.replace(load_rules(p.name), expect=())
    for c in combinations():
        if not c.expect:  # an explorer finding's reason alone: no verdict to expect
            continue
        known[c.name] = dataclasses.replace(load_rules(c.name), name=c.name,
                                            expect=expect_of(list(c.expect)))
    return known


@lru_cache(maxsize=256)
def contained(rules: RuleTable, base: str) -> tuple[str, ...]:
    """The tables the project ships (``_known``) that ``rules`` plays (``base`` among
    them where it does; the argument keys the cache with the table's base):
    each value such a table changes from classic, ``rules`` sets as it does, and each
    house rule it adds, ``rules`` has as it is; the larger first (the more it changes),
    then in the order of ``_known``. A table that plays SEVEN-O as seven-o does (the
    no-mercy preset) so expects what seven-o's manifest entries say of the properties
    its base's entries leave proved (a hand passed on the next-to-last card closes the
    UNO window, as under seven-o alone).

    A reading that sets a value its rule's default leaves as classic's (seven-o@next's
    ``swap_with``) plays the default's changes too; where both state a verdict,
    :func:`expected` takes the reading's, the table that plays the other (seven-o-next.toml
    says its reading's property is proved, where seven-o's manifest refutes it)."""
    classic = load_rules("classic")
    mine = dict(rules.rulebook_entries())

    def plays(other: RuleTable) -> int:
        """How many values and house rules ``other`` changes, where ``rules`` plays
        every change of it; else 0."""
        changed = [(attr, key, value) for (attr, entry), (_, was) in
                   zip(other.rulebook_entries(), classic.rulebook_entries(), strict=True)
                   for key, value in entry.values().items() if was.values()[key] != value]
        if other.house_changed(rules) or any(mine[attr].values()[key] != value
                                             for attr, key, value in changed):
            return 0
        return len(changed) + len(other.house)

    sizes = {name: plays(table) for name, table in _known().items()}
    return tuple(sorted((name for name, size in sizes.items() if size),
                        key=lambda name: -sizes[name]))


@cache
def _readings() -> tuple[tuple[str, ...], ...]:
    """The names of each catalogue rule's readings (``NAME``, ``NAME@READING``)."""
    from unoformal.catalogue import rules as catalogue

    return tuple(rule.names() for rule in catalogue())


def switched_off(rules: RuleTable, prop: str) -> list[str]:
    """What property ``prop`` needs that ``rules`` does not have, in words: an entry
    switched off (``"SEVEN-O"``), or a reading (``"UNO-1.catch_until=any-time"``: a
    property of a value's other reading asks nothing of a table that reads it otherwise)."""
    from unoformal.verification.z3.properties import properties_of

    needs = next((p.needs for p in properties_of(rules) if p.name == prop), ())
    return [said for said in map(lambda need: _unmet(rules, need), needs) if said]


def _unmet(rules: RuleTable, need: str) -> str:
    """``need`` in words where ``rules`` does not meet it, else ''."""
    rule_id, _, reading = need.partition(".")
    entry = rules.entry(rule_id)
    if not entry.enabled:
        return f"{rule_id} is off in this table (a house rule)"
    if not reading:
        return ""
    name, eq, want = reading.partition("=")
    value = getattr(entry, name)
    if not eq:  # "ID.value": a house rule's value, read where it is set at all (an
        # enumeration's "none" is not)
        if getattr(value, "value", value) not in ("none", (), False, None):
            return ""
        return f"{rule_id} has no {name} in this table (a house rule's value, off)"
    have = getattr(value, "value", value)
    if str(have) == want:
        return ""
    return f"{rule_id} reads {name} = {have!r} in this table, not {want!r}"


def mutants() -> list[dict[str, Any]]:
    return list(load().get("mutant", []))


def equivalents() -> dict[str, str]:
    return {e["rule"]: e["reason"] for e in load().get("equivalent", [])}
