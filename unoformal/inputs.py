"""The boundary: the limits on every input, and the checks that enforce them.

Records, state and action texts, command-line options and Python API arguments
all pass through these checks before the engine sees them, so a bad input is
refused with one :class:`~unoformal.errors.InvalidInputError` naming what was
wrong, where, which rule it breaks and what is allowed. The limits are stated
here once; docs/inputs.md lists them.
"""

from __future__ import annotations

import contextlib
import itertools
import json
import math
import os
import re
import stat
import tempfile
from array import array
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import IO, Any

from unoformal.errors import InvalidInputError

# Bytes read from a record, variant or any other input file: enough for a record of
# thousands of actions, and a bound on what /dev/zero or a huge file can cost.
MAX_FILE_BYTES = 4 * 1024 * 1024
# JSON nesting: a record is four levels deep (record, deal, hands, a hand); one that
# embeds a rule file's house rules six (rules, house, a rule, change, a change); a verify
# row holding such a record nine (a list of rows, a row, reach, record ...).
MAX_JSON_DEPTH = 12
# Arrays and objects in one JSON text: a record action is at most a few (its draws, its
# reshuffles), so a 4 MiB record holds far fewer; a line of 4 MiB of "[]," would hold 1.4
# million, which json builds in most of a second.
MAX_JSON_CONTAINERS = 300_000
# Digits in one JSON integer: a seed below 2**63 has at most 19.
MAX_JSON_INT_DIGITS = 20
# Actions in one record; a simulated whole game takes a few hundred.
MAX_RECORD_ACTIONS = 100_000
# Characters in one state text (the whole deck and every name fit with room to spare)
# and in one action text.
MAX_STATE_TEXT = 16_384
MAX_ACTION_TEXT = 256
# Steps of a verify counterexample that ``show`` replays (verify's have one or two).
MAX_VERIFY_STEPS = 100
# Player names: 1 to 24 ASCII letters, digits and _ - . starting with a letter or digit.
# The text form separates with space , / : = and writes "-" for "nobody", so these
# characters keep every name readable back.
MAX_NAME_LENGTH = 24
NAME_CHARS = "ASCII letters and digits, then also _ - ."
NAME_PATTERN = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.\-]*")
# Seeds: 0 <= seed < 2**63 (what simulate derives its game seeds in).
MAX_SEED = 2**63
# Players a count may name before any rule table is consulted (every table's DECK-2
# range lies within this; the table's own range is then checked).
MAX_PLAYERS = 100
# Length of a rules name or path, and of other free-text options (simulate --bots).
MAX_RULES_TEXT = 4096
MAX_OPTION_TEXT = 256
# Command-line options (each also has a lower bound, stated with the option).
MAX_GAMES = 10_000_000           # simulate --games
MAX_GAME_ACTIONS = 10_000_000    # simulate --max-actions
MAX_JOBS = 64                    # verify --jobs (worker processes)
MAX_TIMEOUT_MS = 3_600_000       # verify --timeout: an hour per query
MAX_MEMORY_GIB = 4096.0          # explore --memory-budget
MAX_STATES = 10**12              # explore --max-states
MAX_COPIES = 100                 # explore: copies of one card, cards in a hand
MAX_PAGE_STATES = 2000           # show --limit: states a graph page draws


def show(value: Any, limit: int = 40) -> str:
    """A user's value echoed in a message: repr, cut short."""
    text = repr(value)
    return text if len(text) <= limit else text[: limit - 3] + "..."


def check_name(name: Any, what: str = "player name", key: str | None = None) -> str:
    """DECK-2 names a seat; a name must survive the text form (see ``NAME_PATTERN``)."""
    if not isinstance(name, str):
        raise InvalidInputError(f"{what} {show(name)}: a name is a string", "DECK-2", key=key)
    if len(name) > MAX_NAME_LENGTH or not NAME_PATTERN.fullmatch(name):
        raise InvalidInputError(
            f"{what} {show(name)}: use 1 to {MAX_NAME_LENGTH} {NAME_CHARS}, starting "
            "with a letter or digit", "DECK-2", key=key)
    return name


def check_players(players: Any, lo: int, hi: int) -> list[str]:
    """A list (or tuple) of distinct valid names, as many as DECK-2 allows."""
    if isinstance(players, (str, bytes)) or not isinstance(players, Sequence):
        raise InvalidInputError(f"players {show(players)}: give a list of names", "DECK-2")
    if not lo <= len(players) <= hi:
        raise InvalidInputError(f"{len(players)} players: the rules allow {lo} to {hi}",
                                "DECK-2")
    names = [check_name(name) for name in players]
    if len(set(names)) != len(names):
        raise InvalidInputError(f"player names must differ: {names}", "DECK-2")
    return names


def check_seed(seed: Any) -> int:
    """A seed is an integer in [0, 2**63); bool is not an integer here."""
    if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed < MAX_SEED:
        raise InvalidInputError(f"{show(seed)}: expected an integer from 0 to 2**63-1",
                                key="seed")
    return seed


def ascii_int(text: str, key: str, lo: int = 0, hi: int = MAX_SEED - 1) -> int:
    """An integer written in ASCII digits (no sign, no other script's digits), in range."""
    if not (text.isascii() and text.isdigit()) or len(text) > MAX_JSON_INT_DIGITS:
        raise InvalidInputError(f"{key}={show(text)}: expected a whole number in ASCII digits")
    value = int(text)
    if not lo <= value <= hi:
        raise InvalidInputError(f"{key}={value}: expected {lo} to {hi}")
    return value


# ----------------------------------------------------------------------- files


def check_path(text: str, what: str) -> str:
    """A path the system can take: no NUL character, at most ``MAX_RULES_TEXT`` long."""
    if not text or "\x00" in text or len(text) > MAX_RULES_TEXT:
        raise InvalidInputError(f"{what} {show(text)}: not a usable path (empty, too long "
                                "or holding a NUL character)")
    return text


def check_input(path: str | Path, what: str) -> str:
    """The one check every input file passes before it is opened: it exists and is a
    regular file, told by ``stat`` alone. Opening is no test: opening a named pipe for
    reading waits for a writer (for ever), and a device may never end."""
    where = check_path(str(path), what)
    try:
        mode = os.stat(where).st_mode
    except OSError as err:
        raise InvalidInputError(f"cannot read the {what}: {err.strerror}",
                                source=where) from None
    except ValueError as err:  # a path the system cannot take (a lone surrogate ...)
        raise InvalidInputError(f"cannot read the {what}: {err}", source=where) from None
    if stat.S_ISDIR(mode):
        raise InvalidInputError(f"{what} is a directory", source=where)
    if not stat.S_ISREG(mode):
        raise InvalidInputError(f"not a regular file ({_kind(mode)}): the {what} must be "
                                "one", source=where)
    return where


def _kind(mode: int) -> str:
    kinds = ((stat.S_ISFIFO, "a named pipe"), (stat.S_ISCHR, "a character device"),
             (stat.S_ISBLK, "a block device"), (stat.S_ISSOCK, "a socket"))
    return next((name for test, name in kinds if test(mode)), "not a file")


def open_input(path: str | Path, what: str) -> IO[bytes]:
    """An input file opened for reading, after :func:`check_input`. Opened without
    waiting (``O_NONBLOCK``) and checked again once open, so a path swapped for a pipe
    between the check and the open is refused too, never waited on. What the system
    refuses (a permission) is its ``OSError``, for the caller to word."""
    where = check_input(path, what)
    fd = os.open(where, os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC)
    mode = os.fstat(fd).st_mode
    if not stat.S_ISREG(mode):
        os.close(fd)
        raise InvalidInputError(f"not a regular file ({_kind(mode)}): the {what} must be "
                                "one", source=where)
    os.set_blocking(fd, True)
    return os.fdopen(fd, "rb")


def read_text(path: str | Path, what: str) -> str:
    """A file's text: a regular file (:func:`open_input`), at most ``MAX_FILE_BYTES``,
    UTF-8. Never reads more than the limit, so a huge file costs nothing."""
    try:
        with open_input(path, what) as handle:
            data = handle.read(MAX_FILE_BYTES + 1)
    except OSError as err:
        raise InvalidInputError(f"cannot read the {what}: {err.strerror}",
                                source=str(path)) from None
    if len(data) > MAX_FILE_BYTES:
        raise InvalidInputError(f"{what} is larger than {MAX_FILE_BYTES:,} bytes",
                                source=str(path))
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as err:
        raise InvalidInputError(f"not UTF-8 text (byte {err.start})",
                                source=str(path)) from None


# JSON's own white space (RFC 8259): a line of only these is empty. Python's str.strip
# also strips form feed, NEL, NBSP, U+2028 ..., which JSON does not count as white space.
JSON_WHITESPACE = " \t\n\r"


def is_empty(text: str | bytes) -> bool:
    """A line holding only JSON white space (or nothing)."""
    if isinstance(text, bytes):
        return not text.strip(JSON_WHITESPACE.encode())
    return not text.strip(JSON_WHITESPACE)


def read_lines(stream: IO[bytes]) -> Iterator[bytes | InvalidInputError]:
    """Each line of a byte stream, at most ``MAX_FILE_BYTES`` read at a time; a longer
    line comes as the error saying so, skipped to its end and never held whole (a huge
    one-line file, /dev/zero)."""
    while True:
        raw = stream.readline(MAX_FILE_BYTES + 1)
        if not raw:
            return
        if len(raw) > MAX_FILE_BYTES:
            while raw and not raw.endswith(b"\n"):
                raw = stream.readline(MAX_FILE_BYTES + 1)
            yield InvalidInputError(f"a line longer than {MAX_FILE_BYTES:,} bytes")
            continue
        yield raw


def decode_line(raw: bytes) -> str:
    """A line's text, or the error naming the first byte that is not UTF-8."""
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as err:
        raise InvalidInputError(f"not UTF-8 text (byte {err.start})") from None


# --------------------------------------------------------------------- outputs


def check_output(text: str, what: str) -> str:
    """A file to write, checked before any work: its folder exists and takes a new file
    (tried, since permission bits say little to root or on /sys), and the path is not a
    folder and not a device or anything else that is not a regular file, but for the null
    device (``/dev/null``, or a link to it)."""
    where = check_path(text, what)
    if is_null_device(where):
        return where  # the ordinary way to throw output away: written to directly
    parent = os.path.dirname(where) or "."
    if os.path.isdir(where):
        raise InvalidInputError(f"{what} is a directory; name a file", source=where)
    if not os.path.isdir(parent):
        raise InvalidInputError(f"{what}: no directory {show(parent)}", source=where)
    if os.path.lexists(where) and not os.path.isfile(where):
        raise InvalidInputError(f"{what} exists and is not a regular file (a device?)",
                                source=where)
    name = os.path.basename(where)
    try:
        limit = os.pathconf(parent, "PC_NAME_MAX")
        if len(name.encode("utf-8", "surrogateescape")) > limit:
            raise InvalidInputError(f"{what}: a file name of at most {limit} bytes",
                                    source=where)
        with tempfile.TemporaryFile(dir=parent):
            pass
    except OSError as err:
        raise InvalidInputError(f"cannot write in {show(parent)}: {err.strerror}",
                                source=where) from None
    return where


def is_null_device(path: str) -> bool:
    """Whether ``path`` is the null device: a character device with its device number,
    so a link to it is too, and ``/dev/full`` (also a character device) is not."""
    try:
        info, null = os.stat(path), os.stat(os.devnull)
    except (OSError, ValueError):
        return False
    return stat.S_ISCHR(info.st_mode) and info.st_rdev == null.st_rdev


@contextlib.contextmanager
def atomic_path(path: str, what: str) -> Iterator[str]:
    """For a writer that takes a file name (matplotlib, graphviz): a temporary name
    beside ``path`` with its extension, renamed over ``path`` once the writer is done,
    removed if it fails, so a failure never destroys an older file either. The null
    device is the name itself: a rename onto it would replace the device with a file
    (as root) or fail, and it holds nothing to destroy."""
    if is_null_device(path):
        try:
            yield path
        except OSError as err:
            raise InvalidInputError(f"cannot write the {what}: {err.strerror}",
                                    source=path) from None
        return
    folder = os.path.dirname(path) or "."
    extension = os.path.splitext(path)[1][:16]
    try:
        fd, temporary = tempfile.mkstemp(dir=folder, suffix=f".tmp{extension}",
                                         prefix=f".{os.path.basename(path)[:64]}.")
        os.close(fd)
        os.chmod(temporary, 0o666 & ~_umask())
    except OSError as err:
        raise InvalidInputError(f"cannot write the {what}: {err.strerror}",
                                source=path) from None
    try:
        yield temporary
        os.replace(temporary, path)
    except OSError as err:
        raise InvalidInputError(f"cannot write the {what}: {err.strerror}",
                                source=path) from None
    finally:
        if os.path.exists(temporary):
            os.unlink(temporary)


@contextlib.contextmanager
def atomic_output(path: str, what: str) -> Iterator[IO[str]]:
    """A text file written whole or not at all (see :func:`atomic_path`). A failure to
    write is one error naming the file."""
    with atomic_path(path, what) as temporary, open(temporary, "w",
                                                    encoding="utf-8") as handle:
        yield handle


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def write_text(path: str, text: str, what: str) -> None:
    """``text`` written to ``path`` atomically (see :func:`atomic_output`)."""
    with atomic_output(path, what) as handle:
        handle.write(text)


def parse_json(text: str, where: str) -> Any:
    """JSON with its nesting depth and integer sizes bounded before anything is built."""
    _check_depth(text, where)
    try:
        return json.loads(text, parse_int=_json_int, parse_constant=_json_constant,
                          parse_float=_json_float)
    except json.JSONDecodeError as err:
        raise InvalidInputError(f"not valid JSON: {err}", source=where) from None
    except InvalidInputError as err:
        raise err.at(source=where) from None


# A JSON string, or the rest of the text when it is cut off inside one (a lone backslash
# at the end included). Possessive, and it matches wherever a '"' starts, so one pass over
# the text is linear: a failed match retried from every escaped quote was quadratic.
_STRING = re.compile(r'"(?:[^"\\]++|\\.)*+(?:"|\\?\Z)', re.DOTALL)
_NOT_BRACKET = re.compile(r"[^\[\]{}]++")
# Opening brackets become 1 and closing ones -1 (as signed bytes), to be summed in C.
_STEPS = bytes.maketrans(b"[{]}", b"\x01\x01\xff\xff")


def _check_depth(text: str, where: str) -> None:
    """Nesting deeper than ``MAX_JSON_DEPTH``, or more than ``MAX_JSON_CONTAINERS`` arrays
    and objects, refused in linear time, each step in C: the strings cut out, the brackets
    left counted and summed as +1/-1, the largest running sum taken."""
    if text.count("[") + text.count("{") <= MAX_JSON_DEPTH:
        return  # too few brackets to nest that deep, wherever they are
    brackets = _NOT_BRACKET.sub("", _STRING.sub("", text))
    steps = array("b")
    steps.frombytes(brackets.encode("ascii").translate(_STEPS))
    opened = brackets.count("[") + brackets.count("{")
    if opened > MAX_JSON_CONTAINERS:
        raise InvalidInputError(f"JSON of {opened:,} arrays and objects: at most "
                                f"{MAX_JSON_CONTAINERS:,} are allowed", source=where)
    deepest = max(itertools.accumulate(steps), default=0)
    if deepest > MAX_JSON_DEPTH:
        raise InvalidInputError(f"JSON nested {deepest:,} deep: at most {MAX_JSON_DEPTH} "
                                "levels are allowed", source=where)


def _json_int(text: str) -> int:
    if len(text.lstrip("-")) > MAX_JSON_INT_DIGITS:
        raise InvalidInputError(f"an integer of {len(text)} digits: at most "
                                f"{MAX_JSON_INT_DIGITS} are allowed")
    return int(text)


def _json_float(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise InvalidInputError(f"number {show(text)} is out of range")
    return value


def _json_constant(text: str) -> float:
    raise InvalidInputError(f"{text} is not a JSON number")


