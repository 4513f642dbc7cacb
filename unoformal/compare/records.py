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


@dataclass(frozen=True)
class Piece:
    """Records a campaign task reads for itself: a whole file, or the lines of a ``.jsonl``
    file from byte ``start`` (where line number ``line`` begins) up to byte ``end`` (None:
    to its end). ``size``: its bytes, what the tasks are balanced by."""

    path: str
    size: int
    start: int = 0
    end: int | None = None
    line: int = 1


def records_in(paths: Iterable[str]) -> Iterator[tuple[str, Any]]:
    """(where, record) for every record in the paths: a directory's ``*.json`` and
    ``*.jsonl`` files (sorted), a ``.jsonl`` file's lines, a ``.json`` file. A record
    that cannot be read comes as the :class:`InvalidInputError` saying why."""
    for where, raw in raw_records(paths):
        yield where, parse(where, raw)


def raw_records(paths: Iterable[str]) -> Iterator[tuple[str, Raw]]:
    """:func:`records_in`'s records, read but not parsed."""
    for piece in pieces(paths):
        yield from read_piece(piece)


def pieces(paths: Iterable[str]) -> Iterator[Piece]:
    """The files the paths name, in order (a directory's ``*.json`` and ``*.jsonl`` files
    sorted), each a piece weighed by its size; nothing read."""
    for path in paths:
        if os.path.isdir(path):
            for child in sorted(Path(path).iterdir()):
                if child.suffix in (".json", ".jsonl") and child.is_file():
                    yield _whole(str(child))
        else:
            yield _whole(path)


def _whole(path: str) -> Piece:
    try:
        return Piece(path, os.stat(path).st_size)
    except OSError:  # the task that reads it says why it cannot
        return Piece(path, 0)


def split(piece: Piece, most: int) -> list[Piece]:
    """A ``.jsonl`` file of more than ``most`` bytes cut at line starts into pieces of
    about ``most`` bytes; any other piece as it is. Only such a file is read here, for
    its line starts and their numbers (its records are named by them), never parsed; the
    file must not change until its pieces' tasks have read them."""
    if piece.size <= most or not piece.path.endswith(".jsonl") or piece.end is not None:
        return [piece]
    cuts = _line_starts(piece.path, most)
    ends = [at for at, _ in cuts[1:]]
    return [Piece(piece.path, (piece.size if end is None else end) - at, at, end, line)
            for (at, line), end in zip(cuts, [*ends, None], strict=True)]


SCAN_BLOCK = 1 << 20  # bytes read at a time while looking for where to cut a file


def _line_starts(path: str, most: int) -> list[tuple[int, int]]:
    """Where to cut a ``.jsonl`` file: (byte, line number) of the first line starting at
    least ``most`` bytes after the last cut, from (0, 1) on. A line longer than ``most``
    stays whole; a file that cannot be read is not cut (its task says why)."""
    cuts = [(0, 1)]
    want, offset, line = most, 0, 1
    try:
        with open_input(path, "record file") as handle:
            while block := handle.read(SCAN_BLOCK):
                at = 0
                while (lo := max(at, want - 1 - offset)) < len(block):
                    newline = block.find(b"\n", lo)
                    if newline < 0:
                        break
                    line += block.count(b"\n", at, newline + 1)
                    at = newline + 1
                    cuts.append((offset + at, line))
                    want = offset + at + most
                line += block.count(b"\n", at)
                offset += len(block)
    except (InvalidInputError, OSError):
        return [(0, 1)]
    if len(cuts) > 1 and cuts[-1][0] >= offset:  # a cut at the very end: nothing after it
        cuts.pop()
    return cuts


def read_piece(piece: Piece) -> Iterator[tuple[str, Raw]]:
    """The records of one piece, read but not parsed, named as :func:`raw_records` names
    them (a line by its number in its whole file)."""
    if piece.path.endswith(".jsonl"):
        yield from _lines(piece.path, piece.start, piece.end, piece.line)
        return
    try:
        yield piece.path, read_text(piece.path, "record")
    except InvalidInputError as err:
        yield piece.path, err


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


def _lines(path: str, start: int = 0, end: int | None = None,
           first: int = 1) -> Iterator[tuple[str, Raw]]:
    """A JSON-lines file, one record a line (from byte ``start``, line number ``first``,
    to the line starting at ``end``); each line bounded like a record file, and refused
    while it is read once it passes the limit (never held whole). Lines of JSON white
    space only are not records and are skipped."""
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
        if start:
            handle.seek(start)
        for number, raw in enumerate(read_lines(handle), start=first):
            if isinstance(raw, InvalidInputError):
                raw.source = f"{path}:{number}"
                yield raw.source, raw
            elif not is_empty(raw):
                yield f"{path}:{number}", raw
            if end is not None and handle.tell() >= end:  # the next piece's lines
                return


def _line(raw: bytes, where: str) -> Any:
    try:
        return parse_json(decode_line(raw), where)
    except InvalidInputError as err:
        return err.at(source=where)


# Bytes of records per campaign task, at least: fixed by the input alone (so any number of
# workers gives the same tally). A task is a list of pieces (file paths and byte ranges)
# that its worker reads itself: the graph holds names, never records (37 MB of records
# shipped in the graph made Dask warn "Sending large graph" and ran slower on two
# workers than on one). 1 MiB of whole-game records is about a quarter of a CPU second of
# refereeing (4.4 MB per CPU s, docs/performance.md), far above Dask's cost per task; a
# huge input gets larger tasks rather than more than MAX_TASKS (releasing 10,000 futures
# on Ctrl-C takes seconds: simulate's measurement).
BATCH_BYTES = 1 << 20
MAX_TASKS = 1_000
# Opening a file costs as much as reading this many bytes: many tiny files weigh something.
FILE_BYTES = 512
# Below this many bytes a run stays in this process unless workers are asked for: a local
# cluster takes about 2 s to start, what some 8 MB of records take to referee.
SMALL_BYTES = 8 << 20

_Job = tuple[list[Piece], RuleTable | None, bool]


def batches(found: list[Piece], most: int) -> list[list[Piece]]:
    """Consecutive pieces gathered into tasks of at least ``most`` bytes (the last may be
    lighter), in order: the tallies, merged in task order, are the tally of the whole."""
    out: list[list[Piece]] = []
    batch: list[Piece] = []
    weight = 0
    for piece in found:
        batch.append(piece)
        weight += piece.size + FILE_BYTES
        if weight >= most:
            out.append(batch)
            batch, weight = [], 0
    if batch:
        out.append(batch)
    return out


def conform(paths: Iterable[str], rules: RuleTable | None = None,
            where: campaign.Options | None = None, every: bool = False) -> Tally:
    """Referee every record in ``paths``: the files listed and weighed here (a large
    ``.jsonl`` file cut at line starts), read, parsed and refereed by campaign tasks of
    about ``BATCH_BYTES`` each (``where`` None: in this process), whose tallies are
    merged in order. ``every``: list every deviation of each record, not only the first."""
    files = list(pieces(paths))
    total = sum(piece.size for piece in files)
    most = max(BATCH_BYTES, -(-total // MAX_TASKS))
    found = [part for piece in files for part in split(piece, most)]
    jobs: list[_Job] = [(batch, rules, every) for batch in batches(found, most)]
    tally = Tally(listing=Listing() if every else None)
    # the bar counts kilobytes: how many records a file holds is known once it is read
    weights = [1 + sum(piece.size for piece in job[0]) // 1000 for job in jobs]
    parts = campaign.run(referee, jobs, where or campaign.Options(workers=1, bar=False),
                         label="conform", unit="kB", weights=weights,
                         small=total < SMALL_BYTES)
    for part in parts:
        tally.merge(part)
    return tally


def referee(job: _Job) -> Tally:
    """A campaign task: its pieces read (here, on the worker), parsed and refereed in
    order."""
    found, rules, every = job
    tally = Tally(listing=Listing() if every else None)
    for piece in found:
        for where, raw in read_piece(piece):
            tally.add(parse(where, raw), where, rules)
    return tally
