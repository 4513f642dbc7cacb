"""A pytest plugin that collects every record the test suite builds or plays, for the
agreement check (``tests/reference/agree.py``: each replays alike in both engines).

Run it over the tests that build records (the engine's and the referee's)::

    python -m pytest tests/engine tests/compare -p tests.reference.harvest -q

It writes ``tests/reference/suite_records.jsonl.gz``, one record a line, deduplicated:

* every record (a JSON object) given to ``replay`` or ``game_from_record`` of
  :mod:`unoformal.engine.record`, wherever a module imported them by name; records the
  engine refuses are kept too (both engines must refuse them alike);
* every game a test played through ``apply`` or ``push`` (a plain ``Game`` or a
  ``StatedGame``, not the explorer's or the validator's subclasses), as
  :func:`~unoformal.engine.record.to_record` writes it after the test, kept only when that
  record replays to the game's own final state (a game read from a state text, or one
  whose chance was stated, does not: its record would start from the seed instead).

The positions are the tests' (the seeds' worked examples among them); the file is checked
in, so the agreement test does not run the suite. Run this again when tests change.
"""

from __future__ import annotations

import copy
import gzip
import json
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from unoformal.engine import record as live_record
from unoformal.engine.chance import StatedGame
from unoformal.engine.game import Game

HERE = Path(__file__).resolve().parent
TESTS = HERE.parent
PACKAGE = Path(live_record.__file__).resolve().parent.parent
OUT = HERE / "suite_records.jsonl.gz"
MAX_GAMES_PER_TEST = 200  # a Hypothesis test plays hundreds: enough of them

_records: dict[str, dict[str, Any]] = {}
_games: dict[int, Game] = {}
_stats = {"given": 0, "played": 0, "played_kept": 0, "played_dropped": 0}
_original: dict[str, Callable[..., Any]] = {
    "replay": live_record.replay, "game_from_record": live_record.game_from_record}
_apply, _push = Game.apply, Game.push
_quiet = False  # the harvest's own replays are not the suite's


def _note(record: Any) -> None:
    if _quiet:
        return
    if isinstance(record, live_record.Record):
        record = record.data
    if not isinstance(record, dict):
        return
    try:
        text = json.dumps(record, sort_keys=True)
    except (TypeError, ValueError):
        return
    if text not in _records:
        _records[text] = copy.deepcopy(record)
        _stats["given"] += 1


def _wrap(name: str) -> Any:
    original = _original[name]

    def wrapper(record: Any, *args: Any, **kwargs: Any) -> Any:
        _note(record)
        return original(record, *args, **kwargs)

    wrapper.__wrapped__ = original  # type: ignore[attr-defined]
    return wrapper


_wrappers = {name: _wrap(name) for name in _original}


def _watch(game: Game) -> None:
    if type(game) in (Game, StatedGame) and len(_games) < MAX_GAMES_PER_TEST:
        _games[id(game)] = game


def _apply_watched(self: Game, action: Any) -> None:
    _apply(self, action)
    if not _quiet:
        _watch(self)


def _push_watched(self: Game, action: Any) -> None:
    _push(self, action)
    if not _quiet:
        _watch(self)


def _patch_modules() -> None:
    for module in list(sys.modules.values()):
        where = str(getattr(module, "__file__", None) or "")
        if not where.startswith((str(TESTS), str(PACKAGE))) or where.startswith(str(HERE)):
            continue
        for attr, original in _original.items():
            if getattr(module, attr, None) is original:
                setattr(module, attr, _wrappers[attr])


def pytest_collection_finish(session: pytest.Session) -> None:
    _patch_modules()
    Game.apply = _apply_watched  # type: ignore[method-assign]
    Game.push = _push_watched  # type: ignore[method-assign]


@pytest.hookimpl(trylast=True)
def pytest_runtest_teardown(item: pytest.Item) -> None:
    global _quiet
    _quiet = True
    try:
        _keep_games()
    finally:
        _quiet = False
    _games.clear()


def _keep_games() -> None:
    for game in list(_games.values()):
        _stats["played"] += 1
        try:
            rec = live_record.to_record(game)
            result = _original["replay"](copy.deepcopy(rec))
            same = result.error is None and result.game.to_text() == game.to_text()
        except Exception as err:
            import os
            if os.environ.get("HARVEST_DEBUG"):
                print("harvest:", type(err).__name__, err, file=sys.stderr)
            same = False
        if not same:
            _stats["played_dropped"] += 1
            continue
        text = json.dumps(rec, sort_keys=True)
        if text not in _records:
            _records[text] = rec
            _stats["played_kept"] += 1


def pytest_sessionfinish(session: pytest.Session) -> None:
    Game.apply, Game.push = _apply, _push  # type: ignore[method-assign]
    data = "".join(text + "\n" for text in sorted(_records)).encode()
    with gzip.GzipFile(OUT, "wb", mtime=0) as out:  # the same bytes for the same records
        out.write(data)
    print(f"\nharvest: {len(_records)} distinct records written to {OUT.name} ({_stats})",
          file=sys.stderr)
