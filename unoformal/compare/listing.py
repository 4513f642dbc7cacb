"""Every deviation of many records, listed and summed up (``unoformal conform``'s default).

Each deviating record is listed with every deviation (its key, rule, causes and words),
each place its replay was resynchronised and, if it stopped early, where and why. The
summary counts records, rounds and deviations per cause rule, and groups the deviations
into distinct ones: the same cause, rule broken, causes and kind of move is one behaviour
of the engine met again (a repeat), so an engine author sees how many bugs there are, not
only how many refusals.
"""

from __future__ import annotations

import bisect
import math
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from unoformal.compare.deviations import Deviation, Walk
from unoformal.engine.games import place
from unoformal.errors import UnoError

# A distinct deviation: cause rule (as counted), rule broken, causes, kind of move.
Group = tuple[str, str, tuple[str, ...], str]


def counted(err: UnoError) -> str:
    """The rule a deviation is counted under: its first cause, else the rule it broke."""
    if err.causes:
        return err.causes[0]
    return err.rule_id or "unknown"


def where(index: int | None, err: UnoError) -> str:
    """``actions[i]``, or the set-up field a set-up deviation states; in a game record
    the key naming the round (``rounds[1].actions[3]``, ``rounds[0].end.points``)."""
    return place(index, err)


def group(dev: Deviation) -> Group:
    err = dev.error
    return (counted(err), err.rule_id or "unknown", err.causes, dev.kind)


@dataclass
class Listed:
    """One deviating record's walk, under its source."""

    source: str
    walk: Walk

    def to_json(self) -> dict[str, Any]:
        walk = self.walk
        stopped = None if walk.stopped is None else {"index": walk.stopped[0],
                                                     "why": walk.stopped[1]}
        return {"source": self.source,
                "deviations": [_deviation_json(d) for d in walk.deviations],
                "resynchronised": [{"index": i, "how": how} for i, how in walk.resynchronised],
                "stopped": stopped}

    def lines(self) -> list[str]:
        walk = self.walk
        end = "refereed to its end" if walk.stopped is None else \
            f"stopped at {_at(walk.stopped[0], walk)}: {walk.stopped[1]}"
        out = [f"{self.source}: {len(walk.deviations)} deviation(s), {end}"]
        events = [(_order(d.index, d.error.key, walk), 0, _deviation_line(d))
                  for d in walk.deviations]
        events += [(order, 1, f"  ~ {at} resynchronised: {how}")
                   for order, at, how in (_resynchronised(i, how, walk)
                                          for i, how in walk.resynchronised)]
        return out + [line for _, _, line in sorted(events, key=lambda e: e[:2])]


def _order(index: int | None, key: str | None, walk: Walk) -> float:
    """Where in the record an event is, to list them in order: an action by its index; in
    a game record a round's deal before its first action, its end after its last, the
    game's end last."""
    if index is not None:
        return index
    if not walk.offsets or not key:
        return -1
    if key.startswith("end"):
        return math.inf
    r = int(key[len("rounds["):key.index("]")]) if key.startswith("rounds[") else 0
    ends = [*walk.offsets[1:], math.inf]
    return ends[r] - 0.5 if ".end" in key else walk.offsets[r] - 0.5


def _resynchronised(index: int | None, how: str, walk: Walk) -> tuple[float, str, str]:
    """Where a resynchronisation is listed, its place and words: one of a game record's
    round (no index, its words led by the key: ``rounds[0].end.scores: ...``) at that
    key, after the deviation there."""
    key, sep, rest = how.partition(": ")
    if index is None and sep and key.startswith(("rounds[", "end")):
        return _order(None, key, walk), key, rest
    return _order(index, None, walk), _at(index, walk), how


def _at(index: int | None, walk: Walk | None = None) -> str:
    if index is None:
        return "set-up"
    if walk is None or not walk.offsets:
        return f"actions[{index}]"
    r = bisect.bisect_right(walk.offsets, index) - 1
    return f"rounds[{r}].actions[{index - walk.offsets[r]}]"


def _deviation_json(dev: Deviation) -> dict[str, Any]:
    err = dev.error
    return {"index": dev.index, "key": where(dev.index, err), "round": dev.round,
            "move": dev.kind, "action": err.action, "counted": counted(err),
            "rule": err.rule_id, "causes": list(err.causes), "message": err.message}


def _deviation_line(dev: Deviation) -> str:
    err = dev.error
    causes = f" (causes {', '.join(err.causes)})" if err.causes else ""
    return f"  {where(dev.index, err)} {err.rule_id}{causes}: {err.message}"


@dataclass
class Listing:
    """Every deviation of the records refereed, in order: ``add`` one record's walk,
    ``merge`` the listing of the records that follow."""

    records: list[Listed] = field(default_factory=list)
    stopped: int = 0

    def add(self, source: str, walk: Walk) -> None:
        if walk.deviations:
            self.records.append(Listed(source, walk))
            self.stopped += walk.stopped is not None

    def merge(self, other: Listing) -> None:
        self.records += other.records
        self.stopped += other.stopped

    # ------------------------------------------------------------------ summary

    def per_rule(self) -> dict[str, dict[str, int]]:
        """Records, rounds and deviations per cause rule, most deviations first."""
        deviations: Counter[str] = Counter()
        records: dict[str, set[str]] = {}
        rounds: dict[str, set[tuple[str, int]]] = {}
        for listed in self.records:
            for dev in listed.walk.deviations:
                rule = counted(dev.error)
                deviations[rule] += 1
                records.setdefault(rule, set()).add(listed.source)
                rounds.setdefault(rule, set()).add((listed.source, dev.round))
        return {rule: {"records": len(records[rule]), "rounds": len(rounds[rule]),
                       "deviations": n} for rule, n in deviations.most_common()}

    def distinct(self) -> list[dict[str, Any]]:
        """The deviations grouped as one behaviour (cause, rule, causes, kind of move):
        how many, in how many records, and the first seen; most deviations first."""
        seen: dict[Group, dict[str, Any]] = {}
        for listed in self.records:
            for dev in listed.walk.deviations:
                key = group(dev)
                entry = seen.get(key)
                if entry is None:
                    entry = seen[key] = {
                        "counted": key[0], "rule": key[1], "causes": list(key[2]),
                        "move": key[3], "deviations": 0, "records": set(),
                        "first": {"source": listed.source, "index": dev.index,
                                  "key": where(dev.index, dev.error),
                                  "message": dev.error.message}}
                entry["deviations"] += 1
                entry["records"].add(listed.source)
        out = [{**e, "records": len(e["records"])} for e in seen.values()]
        return sorted(out, key=lambda e: -e["deviations"])  # stable: first seen first

    def total(self) -> int:
        return sum(len(listed.walk.deviations) for listed in self.records)

    def rounds(self) -> int:
        return len({(listed.source, dev.round) for listed in self.records
                    for dev in listed.walk.deviations})

    def to_json(self) -> dict[str, Any]:
        """The keys ``conform --json`` adds to its first-deviation ones."""
        distinct = self.distinct()
        return {"every_deviation": {"deviations": self.total(), "records": len(self.records),
                                    "rounds": self.rounds(), "distinct": len(distinct),
                                    "repeats": self.total() - len(distinct),
                                    "stopped": self.stopped},
                "per_rule": self.per_rule(), "distinct": distinct,
                "listed": [listed.to_json() for listed in self.records]}

    def text(self) -> str:
        if not self.records:
            return ""
        lines = ["", "every deviation, record by record:"]
        for listed in self.records:
            lines += listed.lines()
        distinct = self.distinct()
        total = self.total()
        lines += ["", f"every deviation: {total} in {len(self.records)} record(s), "
                      f"{self.rounds()} round(s); {len(distinct)} distinct, "
                      f"{total - len(distinct)} repeat(s); {self.stopped} record(s) stopped "
                      "early",
                  f"{'cause':<12} {'records':>7} {'rounds':>7} {'deviations':>10}"]
        lines += [f"{rule:<12} {n['records']:>7} {n['rounds']:>7} {n['deviations']:>10}"
                  for rule, n in self.per_rule().items()]
        lines += ["", f"{'cause':<12} {'rule':<12} {'causes':<20} {'move':<10} "
                      f"{'deviations':>10} {'records':>7}  first seen"]
        lines += [f"{e['counted']:<12} {e['rule']:<12} {','.join(e['causes']) or '-':<20} "
                  f"{e['move']:<10} {e['deviations']:>10} "
                  f"{e['records']:>7}  {e['first']['source']} {e['first']['key']}: "
                  f"{e['first']['message']}" for e in distinct]
        return "\n".join(lines)
