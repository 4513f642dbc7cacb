"""Conformance: referee many records (any engine's logs) and tally their first deviations.

Each record is replayed (:func:`unoformal.engine.record.replay`); a record that plays to
its end is clean; one refused at some action (or at its set-up: a start Wild stated to be
put back under the pile, START-WILD) deviates there, and the deviation is counted
under its cause — the rule that made the state what it was (TWO-1, START-D2 ...), or the
rule the action broke when nothing earlier explains it. A record that is not a record
(bad JSON, a field the format refuses) is counted as malformed and the run goes on.
"""

from __future__ import annotations

import os
from collections import Counter
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from unoformal.compare.deviations import every_deviation
from unoformal.compare.listing import Listing, counted
from unoformal.engine import games
from unoformal.engine.record import replay
from unoformal.errors import InvalidInputError, UnoError
from unoformal.inputs import (
    decode_line,
    is_empty,
    open_input,
    parse_json,
    read_lines,
    read_text,
)
from unoformal.rulebook.table import RuleTable
from unoformal.runtime import campaign

MAX_MALFORMED_SHOWN = 5


@dataclass
class Example:
    """The shortest record seen for one cause: its actions up to the deviating one."""

    length: int
    source: str
    record: dict[str, Any]
    error: UnoError


@dataclass
class Tally:
    """First deviations by cause rule ID, with counts and the shortest example of each."""

    games: int = 0
    clean: int = 0
    malformed: int = 0
    deviations: Counter[str] = field(default_factory=Counter)
    examples: dict[str, Example] = field(default_factory=dict)
    malformed_lines: list[str] = field(default_factory=list)
    # every deviation of each record (None: the first only, as conform --first)
    listing: Listing | None = None

    def add(self, record: Any, source: str, rules: RuleTable | None = None) -> str | None:
        """Referee one record; the cause rule ID of its first deviation (None if clean)."""
        self.games += 1
        try:
            if isinstance(record, InvalidInputError):
                raise record
            first = self._first(record, source, rules)
        except InvalidInputError as err:
            self._malformed(err.at(source=source))
            return None
        if first is None:
            self.clean += 1
            return None
        refused, index = first
        refused.at(source=source)
        cause = cause_of(refused)
        self.deviations[cause] += 1
        # a set-up deviation (no index) is shown with no action: it replays straight to it
        length = 0 if index is None else index + 1
        best = self.examples.get(cause)
        if best is None or length < best.length:
            cut = games.cut(record, index, refused.key) if games.is_game(record) else \
                {**record, "actions": record.get("actions", [])[:length]}
            self.examples[cause] = Example(length, source, cut, refused)
        return cause

    def _first(self, record: Any, source: str,
               rules: RuleTable | None) -> tuple[UnoError, int | None] | None:
        """The first deviation and its index (None: clean); with a listing, every
        deviation is found and listed (the first is replay's, word for word)."""
        if self.listing is None:
            result = replay(record, rules)
            return None if result.error is None else (result.error, result.error_index)
        walk = every_deviation(record, rules)
        self.listing.add(source, walk)
        if not walk.deviations:
            return None
        return walk.deviations[0].error, walk.deviations[0].index

    def merge(self, other: Tally) -> None:
        """Fold in the tally of the records that follow this one's: the same as adding
        them one by one here (an example is replaced only by a strictly shorter one,
        causes keep the order they were first seen in)."""
        self.games += other.games
        self.clean += other.clean
        self.malformed += other.malformed
        for cause, count in other.deviations.items():
            self.deviations[cause] += count
        for cause, example in other.examples.items():
            best = self.examples.get(cause)
            if best is None or example.length < best.length:
                self.examples[cause] = example
        if self.listing is not None and other.listing is not None:
            self.listing.merge(other.listing)
        room = MAX_MALFORMED_SHOWN - len(self.malformed_lines)
        self.malformed_lines += other.malformed_lines[:max(0, room)]

    def _malformed(self, err: UnoError) -> None:
        self.malformed += 1
        if len(self.malformed_lines) < MAX_MALFORMED_SHOWN:
            self.malformed_lines.append(err.line())

    def to_json(self) -> dict[str, Any]:
        out = {"games": self.games, "clean": self.clean, "malformed": self.malformed,
               "deviations": dict(self.deviations.most_common()),
               "examples": {rule: ex.record for rule, ex in self._ordered()},
               "explanations": {rule: {"source": ex.source, "index": ex.error.index,
                                       **ex.error.to_json()} for rule, ex in self._ordered()},
               "malformed_examples": list(self.malformed_lines)}
        if self.listing is not None:  # keys added after the first deviation's, never in place
            out.update(self.listing.to_json())
        return out

    def _ordered(self) -> list[tuple[str, Example]]:
        return [(rule, self.examples[rule]) for rule, _ in self.deviations.most_common()]

    def table(self) -> str:
        """The deviations as a plain-text table, most frequent first."""
        lines = [f"{self.games} games: {self.clean} clean, "
                 f"{sum(self.deviations.values())} deviating, {self.malformed} malformed"]
        if self.deviations:
            lines.append(f"{'cause':<12} {'games':>6}  shortest example")
        for rule, ex in self._ordered():
            lines.append(f"{rule:<12} {self.deviations[rule]:>6}  {ex.source} "
                         f"{where(ex.error)}: {ex.error.message}")
        lines += [f"malformed: {line}" for line in self.malformed_lines]
        if self.listing is not None and self.listing.records:
            lines.append(self.listing.text())  # after the first deviations' table, as is
        return "\n".join(lines)


def where(err: UnoError) -> str:
    """Where in its record a deviation is: ``actions[i]``, or the set-up field it states
    (``start_reshuffles``) when the record deviates before its first action; in a game
    record, the key naming the round (``rounds[1].actions[3]``, ``rounds[0].end.points``)."""
    return games.place(err.index, err)


# The rule a deviation is counted under: its first cause, else the rule it broke.
cause_of = counted


Raw = bytes | str | InvalidInputError  # a .jsonl line, a .json file's text, or why not


def records_in(paths: Iterable[str]) -> Iterator[tuple[str, Any]]:
    """(where, record) for every record in the paths: a directory's ``*.json`` and
    ``*.jsonl`` files (sorted), a ``.jsonl`` file's lines, a ``.json`` file. A record
    that cannot be read comes as the :class:`InvalidInputError` saying why."""
    for where, raw in raw_records(paths):
        yield where, parse(where, raw)


def raw_records(paths: Iterable[str]) -> Iterator[tuple[str, Raw]]:
    """:func:`records_in`'s records, read but not parsed (what a campaign task is sent:
    text costs little to send, and the parsing is done where the refereeing is)."""
    for path in paths:
        if os.path.isdir(path):
            for child in sorted(Path(path).iterdir()):
                if child.suffix in (".json", ".jsonl") and child.is_file():
                    yield from _file(str(child))
        else:
            yield from _file(path)


def parse(where: str, raw: Raw) -> Any:
    """The record a raw one holds, or the :class:`InvalidInputError` saying why not."""
    if isinstance(raw, InvalidInputError):
        return raw
    if isinstance(raw, bytes):
        return _line(raw, where)
    try:
        return parse_json(raw, where)
    except InvalidInputError as err:
        return err


def _file(path: str) -> Iterator[tuple[str, Raw]]:
    if path.endswith(".jsonl"):
        yield from _lines(path)
        return
    try:
        yield path, read_text(path, "record")
    except InvalidInputError as err:
        yield path, err


def _lines(path: str) -> Iterator[tuple[str, Raw]]:
    """A JSON-lines file, one record a line; each line bounded like a record file, and
    refused while it is read once it passes the limit (never held whole). Lines of JSON
    white space only are not records and are skipped."""
    try:
        # a device or a pipe may never end (a link to /dev/zero), or never begin (a FIFO)
        handle = open_input(path, "record file")
    except InvalidInputError as err:
        yield path, err
        return
    except OSError as err:
        yield path, InvalidInputError(f"cannot read it: {err.strerror}", source=path)
        return
    with handle:
        for number, raw in enumerate(read_lines(handle), start=1):
            if isinstance(raw, InvalidInputError):
                raw.source = f"{path}:{number}"
                yield raw.source, raw
            elif not is_empty(raw):
                yield f"{path}:{number}", raw


def _line(raw: bytes, where: str) -> Any:
    try:
        return parse_json(decode_line(raw), where)
    except InvalidInputError as err:
        return err.at(source=where)


# Records per campaign task: fixed by the input alone (so any number of workers gives the
# same tally); 250 records take about half a CPU second, far above Dask's cost per task.
CHUNK = 250
# Below this many records a run stays in this process unless workers are asked for: a
# local cluster takes about 2 s to start.
SMALL = 2_000

_Job = tuple[list[tuple[str, Raw]], RuleTable | None, bool]


def conform(paths: Iterable[str], rules: RuleTable | None = None,
            where: campaign.Options | None = None, every: bool = False) -> Tally:
    """Referee every record in ``paths``: read here, in order, and parsed and refereed in
    chunks of ``CHUNK`` as campaign tasks (``where`` None: in this process), whose tallies are
    merged in order. ``every``: list every deviation of each record, not only the first."""
    found = list(raw_records(paths))
    jobs: list[_Job] = [(found[i:i + CHUNK], rules, every)
                        for i in range(0, len(found), CHUNK)]
    tally = Tally(listing=Listing() if every else None)
    parts = campaign.run(referee, jobs, where or campaign.Options(workers=1, bar=False),
                         label="conform", unit="records", weights=[len(j[0]) for j in jobs],
                         small=len(found) < SMALL)
    for part in parts:
        tally.merge(part)
    return tally


def referee(job: _Job) -> Tally:
    """A campaign task: one chunk of records, parsed and refereed in order."""
    records, rules, every = job
    tally = Tally(listing=Listing() if every else None)
    for where, raw in records:
        tally.add(parse(where, raw), where, rules)
    return tally
