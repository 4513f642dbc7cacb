"""Conformance: referee many records (any engine's logs) and tally their first deviations.

Each record is replayed (:func:`unoformal.engine.record.replay`); a record that plays to
its end is clean; one refused at some action deviates there, and the deviation is counted
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

from unoformal.engine.record import replay
from unoformal.errors import InvalidInputError, UnoError
from unoformal.inputs import MAX_FILE_BYTES, parse_json, read_text
from unoformal.spec.table import RuleTable

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

    def add(self, record: Any, source: str, rules: RuleTable | None = None) -> str | None:
        """Referee one record; the cause rule ID of its first deviation (None if clean)."""
        self.games += 1
        try:
            if isinstance(record, InvalidInputError):
                raise record
            result = replay(record, rules)
        except InvalidInputError as err:
            self._malformed(err.at(source=source))
            return None
        if result.error is None:
            self.clean += 1
            return None
        refused = result.error.at(source=source)
        cause = cause_of(refused)
        self.deviations[cause] += 1
        index = result.error_index if result.error_index is not None else 0
        best = self.examples.get(cause)
        if best is None or index + 1 < best.length:
            cut = {**record, "actions": record.get("actions", [])[: index + 1]}
            self.examples[cause] = Example(index + 1, source, cut, refused)
        return cause

    def _malformed(self, err: UnoError) -> None:
        self.malformed += 1
        if len(self.malformed_lines) < MAX_MALFORMED_SHOWN:
            self.malformed_lines.append(err.line())

    def to_json(self) -> dict[str, Any]:
        return {"games": self.games, "clean": self.clean, "malformed": self.malformed,
                "deviations": dict(self.deviations.most_common()),
                "examples": {rule: ex.record for rule, ex in self._ordered()},
                "explanations": {rule: {"source": ex.source, "index": ex.error.index,
                                        **ex.error.to_json()} for rule, ex in self._ordered()},
                "malformed_examples": list(self.malformed_lines)}

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
                         f"actions[{ex.error.index}]: {ex.error.message}")
        lines += [f"malformed: {line}" for line in self.malformed_lines]
        return "\n".join(lines)


def cause_of(err: UnoError) -> str:
    """The rule a deviation is counted under: its first cause, else the rule it broke."""
    if err.causes:
        return err.causes[0]
    return err.rule_id or "unknown"


def records_in(paths: Iterable[str]) -> Iterator[tuple[str, Any]]:
    """(where, record) for every record in the paths: a directory's ``*.json`` and
    ``*.jsonl`` files (sorted), a ``.jsonl`` file's lines, a ``.json`` file. A record
    that cannot be read comes as the :class:`InvalidInputError` saying why."""
    for path in paths:
        if os.path.isdir(path):
            for child in sorted(Path(path).iterdir()):
                if child.suffix in (".json", ".jsonl") and child.is_file():
                    yield from _file(str(child))
        else:
            yield from _file(path)


def _file(path: str) -> Iterator[tuple[str, Any]]:
    if path.endswith(".jsonl"):
        yield from _lines(path)
        return
    try:
        yield path, parse_json(read_text(path, "record"), path)
    except InvalidInputError as err:
        yield path, err


def _lines(path: str) -> Iterator[tuple[str, Any]]:
    """A JSON-lines file, one record a line; each line bounded like a record file."""
    try:
        handle = open(path, "rb")  # noqa: SIM115 - closed below, lines are streamed
    except OSError as err:
        yield path, InvalidInputError(f"cannot read it: {err.strerror}", source=path)
        return
    with handle:
        for number, raw in enumerate(handle, start=1):
            where = f"{path}:{number}"
            if not raw.strip():
                continue
            yield where, _line(raw, where)


def _line(raw: bytes, where: str) -> Any:
    if len(raw) > MAX_FILE_BYTES:
        return InvalidInputError(f"a line longer than {MAX_FILE_BYTES:,} bytes", source=where)
    try:
        return parse_json(raw.decode("utf-8"), where)
    except UnicodeDecodeError as err:
        return InvalidInputError(f"not UTF-8 text (byte {err.start})", source=where)
    except InvalidInputError as err:
        return err


def conform(paths: Iterable[str], rules: RuleTable | None = None) -> Tally:
    """Referee every record in ``paths`` in this process."""
    tally = Tally()
    for where, record in records_in(paths):
        tally.add(record, where, rules)
    return tally
