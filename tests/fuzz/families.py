"""Fuzz families: for each kind of input, a Hypothesis strategy of hostile inputs and a
check that one input is refused cleanly or accepted and consistent.

A check returns the outcome ("accepted", "refused", "illegal" ...) and fails with an
AssertionError when a property breaks: a traceback or an exception outside the
``UnoError`` family, an exit code other than 0/1/2, an error that is not one line,
a refusal that changed the state, a view that shows another player's cards, a text
that does not read back. The tests run each family briefly; ``benchmarks/fuzz.py``
runs them long and counts the outcomes.
"""

from __future__ import annotations

import atexit
import contextlib
import io
import json
import random
import shutil
import sys
import tempfile
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from hypothesis import strategies as st

from unoformal.commands.cli import main
from unoformal.engine.actions import Action, ActionType
from unoformal.engine.game import Game
from unoformal.engine.record import load_record, replay, to_record
from unoformal.errors import InvalidInputError, UnoError
from unoformal.rulebook.cards import Color
from unoformal.rulebook.deck import Deck
from unoformal.rulebook.table import CLASSIC
from unoformal.rulebook.variants import load_rules

ROOT = Path(__file__).resolve().parents[2]
CODES = list(Deck.of(CLASSIC).codes)
COLORS = [c.value for c in Color]

# Values that broke the boundary once, or are near a limit.
HOSTILE = ["", "-", " ", "\t", "\n", "\r", "\x00", "\x85", "\u2028", "\xa0", "A\xa0B", "A B",
           "R\u0663", "R\u00b3", "w+4", " W+4\t", "b7", "W+4 ", "nan", "inf", "-inf", "1e300",
           "-1", "0", "1.5", "9" * 30, "2-1000000000", "x" * 300, "é", "名前", "..", "/", "a,b",
           "a=b", "a:b", "a/b", "[", "{}", "null", "true", "classic", "stacking", "Ann", "Bob",
           "R1", "W", "green", "GREEN", "g", "-x", "_a", "a" * 24, "a" * 25, "/dev/zero",
           "/tmp", "/nonexistent/x", "a\x00b"]


def hostile_text(max_size: int = 30) -> st.SearchStrategy[str]:
    return st.one_of(st.sampled_from(HOSTILE), st.text(max_size=max_size))


json_leaves = st.one_of(
    st.none(), st.booleans(), st.integers(), st.integers(min_value=2**62, max_value=2**70),
    st.floats(allow_nan=False, allow_infinity=False), hostile_text())
json_values = st.recursive(
    json_leaves, lambda inner: st.one_of(st.lists(inner, max_size=3),
                                          st.dictionaries(hostile_text(8), inner, max_size=3)),
    max_leaves=6)


# ------------------------------------------------------------------ base inputs


def _played(players: list[str], seed: int, steps: int, rules: str = "classic") -> Game:
    game = Game(players, seed=seed, rules=load_rules(rules))
    rng = random.Random(seed)
    for _ in range(steps):
        if game.game_over:
            break
        if game.round_over:
            game.next_round()
        game.apply(rng.choice(game.legal_actions()))
    return game


def _base_games() -> list[Game]:
    return [_played(["Ann", "Bob"], 1, 0), _played(["Ann", "Bob", "Cy"], 2, 15),
            _played(["A", "B.c", "d_1", "Z-9"], 3, 60, "stacking"),
            _played(["P1", "P2"], 4, 200, "seed004"), _played(["x", "y", "z"], 5, 400)]


BASE_GAMES = _base_games()
BASE_RECORDS = [to_record(g) for g in BASE_GAMES] + [
    json.loads((ROOT / "tests" / "records" / name).read_text())
    for name in ("seed000_s09_challenge_fails.json", "seed000_s09_challenge_wins.json")]
BASE_TEXTS = [g.to_text() for g in BASE_GAMES]


# ------------------------------------------------------------------- mutations


def _paths(value: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    out = [prefix]
    if isinstance(value, dict):
        for key, item in value.items():
            out += _paths(item, (*prefix, key))
    elif isinstance(value, list):
        for i, item in enumerate(value[:6]):
            out += _paths(item, (*prefix, i))
    return out


@st.composite
def mutated_records(draw: st.DrawFn) -> Any:
    """A real record with a few of its values replaced, removed or added."""
    record = json.loads(json.dumps(draw(st.sampled_from(BASE_RECORDS))))
    for _ in range(draw(st.integers(1, 3))):
        paths = _paths(record)
        path = draw(st.sampled_from(paths))
        if not path:
            continue
        *parent_path, last = path
        parent = record
        for key in parent_path:
            parent = parent[key]
        op = draw(st.sampled_from(["replace", "delete", "add"]))
        if op == "replace":
            parent[last] = draw(json_values)
        elif op == "delete":
            del parent[last]
        elif isinstance(parent, dict):
            parent[draw(hostile_text(8))] = draw(json_values)
        else:
            parent.insert(last, draw(json_values))
    return record


@st.composite
def record_bytes(draw: st.DrawFn) -> bytes:
    """The bytes of a record file: a mutated record, or a real one spoiled as bytes."""
    kind = draw(st.sampled_from(["json", "json", "bytes", "deep", "number", "random"]))
    if kind == "json":
        return json.dumps(draw(mutated_records()),
                          ensure_ascii=draw(st.booleans())).encode("utf-8", "surrogatepass")
    text = json.dumps(draw(st.sampled_from(BASE_RECORDS))).encode()
    if kind == "bytes":
        at = draw(st.integers(0, len(text)))
        return text[:at] + draw(st.binary(max_size=8)) + text[at + draw(st.integers(0, 4)):]
    if kind == "deep":
        depth = draw(st.integers(1, 3000))
        return b'{"actions": ' + b"[" * depth + b"]" * depth + text[1:]
    if kind == "number":
        number = draw(st.sampled_from([b"9" * 4301, b"1e400", b"NaN", b"-Infinity",
                                       b"-1", b"1.0", b"true", b"9" * 19, b"0x10"]))
        return b'{"seed": ' + number + b", " + text[1:].replace(b'"seed": ', b'"x": ', 1)
    return draw(st.binary(max_size=64))


@st.composite
def state_texts(draw: st.DrawFn) -> Any:
    """A real state text with fields replaced, dropped, repeated or characters spliced in."""
    if draw(st.integers(0, 20)) == 0:
        return draw(st.one_of(st.none(), st.integers(), hostile_text(100)))
    words = draw(st.sampled_from(BASE_TEXTS)).split(" ")
    for _ in range(draw(st.integers(1, 3))):
        i = draw(st.integers(0, len(words) - 1))
        key = words[i].partition("=")[0]
        op = draw(st.sampled_from(["value", "value", "drop", "repeat", "splice", "swap"]))
        if op == "value":
            words[i] = f"{key}={draw(_field_values(key))}"
        elif op == "drop":
            del words[i]
        elif op == "repeat":
            words.insert(i, words[i])
        elif op == "splice":
            at = draw(st.integers(0, len(words[i])))
            words[i] = words[i][:at] + draw(hostile_text(4)) + words[i][at:]
        else:
            j = draw(st.integers(0, len(words) - 1))
            words[i], words[j] = words[j], words[i]
        if not words:
            break
    return " ".join(words)


def _field_values(key: str) -> st.SearchStrategy[str]:
    near = {"hands": st.lists(st.sampled_from([*CODES, ""]), max_size=6).map(",".join),
            "pile": st.lists(st.sampled_from(CODES), max_size=6).map(",".join),
            "players": st.lists(hostile_text(6), min_size=1, max_size=4).map(",".join),
            "scores": st.lists(st.integers(-5, 10**25).map(str), max_size=4).map(",".join),
            "reveal": st.lists(hostile_text(5), max_size=4).map(":".join)}
    common = st.one_of(hostile_text(12), st.integers(-5, 10**25).map(str),
                       st.sampled_from([*CODES, *COLORS, "-", "left", "right", "play",
                                        "respond", "W+4", "+2", "0", "1", "Ann", "Bob"]))
    return st.one_of(near[key], common) if key in near else common


@st.composite
def action_texts(draw: st.DrawFn) -> str:
    """Action texts: legal ones, spoiled ones and random words."""
    game = draw(st.sampled_from(BASE_GAMES))
    legal = game.legal_actions() or [Action(game.names[0], ActionType.DRAW)]
    words = str(draw(st.sampled_from(legal))).split(" ")
    for _ in range(draw(st.integers(0, 3))):
        i = draw(st.integers(0, len(words)))
        op = draw(st.sampled_from(["insert", "replace", "drop"]))
        if op == "insert" or not words:
            words.insert(i, draw(hostile_text(8)))
        elif op == "replace":
            words[min(i, len(words) - 1)] = draw(hostile_text(8))
        else:
            del words[min(i, len(words) - 1)]
    return draw(st.sampled_from([" ", "  ", "\t", "\xa0"])).join(words)


@st.composite
def api_actions(draw: st.DrawFn) -> Any:
    """Action objects built by hand, fields of any type, or things that are not actions."""
    if draw(st.integers(0, 10)) == 0:
        return draw(st.one_of(st.none(), st.integers(), hostile_text(), st.just([1])))
    field = st.one_of(st.none(), st.sampled_from([*CODES, *COLORS, "Ann", "Bob", "Cy", "x"]),
                      hostile_text(8), st.integers(), st.floats(), st.just(["R1"]))
    kind = draw(st.one_of(st.sampled_from(list(ActionType)), hostile_text(6), st.none()))
    return Action(draw(st.one_of(st.sampled_from(["Ann", "Bob", "Cy"]), field)), kind,
                  draw(field), draw(field), draw(field),
                  draw(st.one_of(st.booleans(), st.integers(0, 2), st.none())))


NAMES = ["Ann", "Bob", "Cy", "a.b", "x_1", "Z-9", "0"]


@st.composite
def game_arguments(draw: st.DrawFn) -> tuple[Any, Any, Any, Any]:
    """``Game(players, seed, rules, dealer)`` arguments: valid ones with one of them
    (or one name) replaced by a hostile value, or none."""
    players: Any = draw(st.lists(st.sampled_from(NAMES), min_size=2, max_size=4, unique=True))
    args: list[Any] = [players, draw(st.integers(0, 2**63 - 1)), CLASSIC,
                       draw(st.sampled_from([None, players[0]]))]
    spoil = draw(st.integers(0, 5))
    if spoil == 0:
        players[draw(st.integers(0, len(players) - 1))] = draw(hostile_text(8))
    elif spoil == 1:
        args[0] = draw(st.one_of(hostile_text(), st.none(), st.integers(), st.just([]),
                                 st.just(tuple(players)), st.lists(st.integers())))
    elif spoil == 2:
        args[1] = draw(st.one_of(st.integers(-2, 2**64), st.floats(), hostile_text(),
                                 st.booleans(), st.none()))
    elif spoil == 3:
        args[2] = draw(st.one_of(hostile_text(), st.none(), st.integers()))
    elif spoil == 4:
        args[3] = draw(st.one_of(hostile_text(8), st.integers(), st.just(["Ann"])))
    return args[0], args[1], args[2], args[3]


# ---------------------------------------------------------------------- checks


@dataclass
class Run:
    code: int
    out: str
    err: str


def run_cli(argv: list[str], cwd: Path | None = None, stdin: bytes = b"") -> Run:
    """``unoformal ARGV`` in-process, in ``cwd`` (a scratch folder: a vector's relative
    output paths land there), reading ``stdin``; any exception escaping main is a
    failure."""
    out, err = io.StringIO(), io.StringIO()
    with contextlib.chdir(cwd or Path(tempfile.gettempdir())), \
            contextlib.redirect_stdout(out), contextlib.redirect_stderr(err), \
            _stdin(stdin):
        code = main(argv)
    return Run(code, out.getvalue(), err.getvalue())


@contextlib.contextmanager
def _stdin(data: bytes) -> Iterator[None]:
    saved = sys.stdin
    sys.stdin = io.TextIOWrapper(io.BytesIO(data), encoding="utf-8")
    try:
        yield
    finally:
        sys.stdin = saved


def check_clean(run: Run, argv: list[str]) -> str:
    assert run.code in (0, 1, 2), f"exit {run.code} for {argv!r}"
    assert "Traceback" not in run.err, f"traceback for {argv!r}:\n{run.err}"
    if run.code == 2:
        lines = run.err.splitlines()
        assert len(lines) == 1 and lines[0].startswith("error: "), \
            f"not one error line for {argv!r}: {run.err!r}"
    return {0: "accepted", 1: "finding", 2: "refused"}[run.code]


def check_record_file(data: bytes, folder: Path, as_json: bool) -> str:
    """``unoformal replay`` of the bytes, and the same through the API."""
    path = folder / "record.json"
    path.write_bytes(data)
    argv = ["replay", str(path), *(["--json"] if as_json else [])]
    run = run_cli(argv)
    outcome = check_clean(run, argv)
    assert run.code != 1, "replay exits 0 or 2"
    if as_json:
        shown = json.loads(run.out)
        if run.code == 2 and shown.get("state") is not None:
            assert shown["error"]["index"] is not None, "a refused action names its index"
    api = check_record(_loaded(path))
    assert run.code == (0 if api == "accepted" else 2), f"CLI and API differ: {run.err}"
    return outcome


def _loaded(path: Path) -> Any:
    try:
        return load_record(path)
    except InvalidInputError as err:
        assert err.source == str(path)
        return None


def check_record(record: Any) -> str:
    """A record is refused (InvalidInputError) or replays; a replayed game's record replays
    to the same state; a refused action left the game exactly as before it."""
    if record is None:
        return "malformed"
    try:
        result = replay(record)
    except InvalidInputError as err:
        assert err.line().count("\n") == 0
        return "malformed"
    text = result.game.to_text()
    if result.error is not None:
        err = result.error
        assert err.index == result.error_index and err.state == text, "refusal not atomic"
        assert err.key == f"actions[{err.index}]"
    again = replay(to_record(result.game))
    assert again.error is None and again.game.to_text() == text, "record does not replay"
    return "refused" if result.error is not None else "accepted"


def check_state_text(text: Any) -> str:
    """Refused with InvalidInputError, or read back to a text that reads back to itself."""
    try:
        game = Game.from_text(text)
    except InvalidInputError as err:
        assert err.source == "state text" and "\n" not in err.line()
        return "refused"
    written = game.to_text()
    assert Game.from_text(written).to_text() == written, f"does not round-trip: {text!r}"
    return "accepted"


def check_action_text(text: str) -> str:
    """Refused, or an action whose text and JSON read back to it; applying it to a game
    either plays it or leaves the state text unchanged."""
    try:
        action = Action.parse(text)
    except InvalidInputError:
        return "refused"
    assert Action.parse(str(action)) == action, f"text does not round-trip: {text!r}"
    assert Action.from_json(action.to_json()) == action
    return apply_checked(BASE_GAMES[1].copy(), action)


def apply_checked(game: Game, action: Any) -> str:
    before = game.to_text()
    try:
        game.apply(action)
    except UnoError as err:
        assert game.to_text() == before, f"refused {action!r} changed the state"
        assert err.state == before
        return "illegal" if not isinstance(err, InvalidInputError) else "refused"
    return "accepted"


def check_api_game(players: Any, seed: Any, rules: Any, dealer: Any) -> str:
    try:
        game = Game(players, seed=seed, rules=rules, dealer=dealer)
    except InvalidInputError:
        return "refused"
    text = game.to_text()
    assert Game.from_text(text, game.rules).to_text() == text
    return "accepted"


def check_views(game: Game) -> None:
    """HIDDEN-1: a view shows its own hand and others' sizes only (CHAL-1: the challenger
    sees the offender's hand)."""
    for name in game.names:
        view = game.view(name)
        assert list(view.hand) == game.hand(name)
        assert view.hand_sizes == {n: len(game.hand(n)) for n in game.names}
        if view.revealed is not None:
            assert game.reveal is not None and game.names[game.reveal[0]] == name


def play_hostile(seed: int, steps: int, rng_actions: Callable[[random.Random, Game], Any],
                 ) -> Counter[str]:
    """A game mixing legal actions with hostile ones: every refusal is atomic, every view
    hides the others' hands, the text reads back. Returns the outcomes of the actions."""
    rng = random.Random(seed)
    game = Game(["Ann", "Bob", "Cy"], seed=seed)
    outcomes: Counter[str] = Counter()
    for _ in range(steps):
        if game.game_over:
            break
        if game.round_over:
            game.next_round()
        if rng.random() < 0.5:
            outcomes[apply_checked(game, rng_actions(rng, game))] += 1
        else:
            game.apply(rng.choice(game.legal_actions()))
            outcomes["legal"] += 1
        check_views(game)
        text = game.to_text()
        assert Game.from_text(text).to_text() == text
    return outcomes


def random_action(rng: random.Random, game: Game) -> Action:
    """A well-formed action, legal or not."""
    name = rng.choice(game.names)
    kind = rng.choice(list(ActionType))
    card = rng.choice(CODES) if kind in (ActionType.PLAY, ActionType.MISPLAY) else None
    color = rng.choice([None, *COLORS]) if kind in (ActionType.PLAY,
                                                     ActionType.CHOOSE_COLOR) else None
    target = rng.choice(game.names) if kind is ActionType.CATCH else None
    return Action(name, kind, card, color, target, rng.random() < 0.1)


# --------------------------------------------------------------------- the CLI


def scratch() -> Path:
    """A folder with the files the CLI vectors name (made once per process)."""
    folder = Path(tempfile.mkdtemp(prefix="unoformal-fuzz-"))
    atexit.register(shutil.rmtree, folder, True)
    (folder / "ok.json").write_text(json.dumps(BASE_RECORDS[1]))
    (folder / "bad.json").write_bytes(b"\xff{")
    (folder / "afile").write_text("x")
    (folder / "dir.toml").mkdir()
    (folder / "v.toml").write_text('name = "v"\nbase = "classic"\n[rules."DECK-2"]\n'
                                   "maximum = 0\n")
    return folder


def cli_vectors(folder: Path) -> st.SearchStrategy[list[str]]:
    """Argument vectors for every command, from valid and hostile values; runs stay short
    (small decks and few games, a state cap) so a vector's run is quick."""
    f = str(folder)
    paths = st.sampled_from([f"{f}/ok.json", f"{f}/bad.json", f"{f}/missing.json", f,
                             "/dev/zero", f"{f}/afile/x", f"{f}/out.dot", f"{f}/new",
                             f"{f}/dir.toml", f"{f}/v.toml", "/dev/full", "/proc/version",
                             "/sys/kernel/x.json", "x" * 300, f"{f}/out.jsonl", "."])
    value = st.one_of(hostile_text(12), paths, st.integers(-3, 12).map(str))
    rules = st.one_of(st.sampled_from(["classic", "stacking", "seed004", f"{f}/v.toml",
                                       f"{f}/dir.toml", "/dev/zero.toml"]), value)

    def opts(pool: dict[str, st.SearchStrategy[str]]) -> st.SearchStrategy[list[str]]:
        pairs = st.lists(st.sampled_from(sorted(pool)), max_size=3, unique=True)
        return pairs.flatmap(lambda names: st.tuples(*[st.tuples(
            st.just(n), pool[n]) for n in names]).map(
                lambda kv: [x for k, v in kv for x in ((k,) if v == "" else (k, v))]))

    flag = st.just("")
    small = st.one_of(st.sampled_from(["1", "2"]), value)
    replay = st.tuples(st.one_of(paths, value), opts({"--json": flag, "--rules": rules}))
    simulate = opts({"--games": small, "--players": st.one_of(st.just("2"), value),
                     "--seed": st.one_of(st.just("7"), value), "--rules": rules,
                     "--bots": st.one_of(st.just("random"), value), "--json": flag,
                     "--max-actions": st.one_of(st.just("50"), value),
                     "--plot": st.one_of(paths, value)})
    explore = opts({"--colors": small, "--numbers": st.one_of(st.just("1"), value),
                    "--players": small, "--hand": small, "--wilds": small,
                    "--dot": st.one_of(paths, value), "--witnesses": st.one_of(paths, value),
                    "--picture": st.one_of(st.just(f"{f}/out.svg"), paths, value),
                    "--memory-budget": st.one_of(st.just("1"), value), "--off": value,
                    "--rules": rules, "--json": flag, "--symmetry": flag})
    verify = opts({"--players": st.one_of(st.just("2"), value), "--jobs": value,
                   "--timeout": value, "--rules": rules, "--property": value})
    vectors = opts({"--players": small, "--seed": st.one_of(st.just("7"), value),
                    "--rules": rules, "--out": st.one_of(paths, value),
                    "--preset": st.one_of(st.sampled_from(["micro", "duel"]), value)})
    play = opts({"--out": st.one_of(paths, value), "--players": small, "--bots": value,
                 "--rules": rules, "--name": value})
    conform = opts({"--save": st.one_of(paths, value), "--rules": rules, "--json": flag,
                    "--players": st.one_of(st.just("2"), value)})
    validate = opts({"--out": st.one_of(paths, value), "--rules": rules, "--json": flag})
    return st.one_of(
        replay.map(lambda t: ["replay", t[0], *t[1]]),
        play.map(lambda o: ["play", "--seed", "1", *o]),  # standard input: empty
        st.tuples(st.one_of(paths, value), conform).map(lambda t: ["conform", t[0], *t[1]]),
        conform.map(lambda o: ["conform", "--engine", "rlcard", "--games", "1", *o]),
        validate.map(lambda o: ["validate", "--players", "2", "--steps", "20", *o]),
        vectors.map(lambda o: ["vectors", *(o if "--preset" in o else ["--games", "1", *o]),
                               "--max-states", "20"]),
        simulate.map(lambda o: ["simulate", "--games", "1", *o]),
        explore.map(lambda o: ["explore", "--preset", "micro", "--no-progress", *o,
                               "--max-states", "300"]),
        verify.map(lambda o: ["verify", "--no-witness", *o, "--jobs", "0"]),
        opts({"--rules": rules, "--markdown": flag}).map(lambda o: ["rules", *o]),
        st.lists(value, max_size=3))


def check_cli(argv: list[str], folder: Path) -> str:
    """One vector, run in a fresh folder inside ``folder`` (its outputs stay there)."""
    with tempfile.TemporaryDirectory(dir=folder) as cwd:
        return check_clean(run_cli(argv, Path(cwd)), argv)

