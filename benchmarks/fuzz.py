"""The fuzz suite run long: hostile inputs of every family, with their outcomes counted.

    python benchmarks/fuzz.py --examples 5000 [--family NAME ...] [--seed N]

The families and their checks are the test suite's (``tests/fuzz/families.py``); the
tests run each briefly. Each input is refused cleanly (``InvalidInputError``; on the
command line exit 2 with one line, no traceback) or accepted and consistent (texts and
records read back, refusals leave the state unchanged, views hide other hands, a seat's
view of two games it cannot tell apart is the same bytes). Prints
the inputs tried and the outcomes per family; exits 1 if any family found a failure,
with Hypothesis's shrunk example.
"""

from __future__ import annotations

import argparse
import random
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, given, seed, settings
from hypothesis import strategies as st

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))

from fuzz import families as f
from fuzz import surfaces as s
from fuzz import test_fuzz_house as house
from fuzz import test_fuzz_show as shown
from fuzz import views as v

from unoformal.rulebook.variants import VARIANTS


def _record_file(data: bytes, as_json: bool) -> str:
    with tempfile.TemporaryDirectory() as folder:
        return f.check_record_file(data, Path(folder), as_json)


# Actions of the hostile games, by outcome (each game is one input).
PLAYED: Counter[str] = Counter()


def _hostile_game(game_seed: int) -> str:
    PLAYED.update(f.play_hostile(game_seed, 100, f.random_action))
    return "game"


def _in_scratch(check: Callable[[bytes, Path], str], data: bytes) -> str:
    with tempfile.TemporaryDirectory() as folder:
        return check(data, Path(folder))


def _show_rows(rows: Any) -> str:
    import json

    data = json.dumps(rows, ensure_ascii=False).encode("utf-8", "surrogatepass")
    return _in_scratch(shown._check_show, data)


def _house_moves(table: str, names: list[str], game_seed: int, moves: int) -> str:
    """A round's first moves of a house-rule table, hostile ones among them, through the
    API and the referee in step (tests/fuzz/test_fuzz_house.py's check)."""
    both = house.Both(house.TABLES[table], names, game_seed)
    rng = random.Random(moves)
    refused = 0
    for _ in range(40):
        if both.api.round_over:
            break
        listed = both.check_listed()
        for _ in range(4):
            refused += not both.move(house._hostile(rng, both.api))
        if not both.api.round_over:
            assert both.move(rng.choice(both.api.legal_actions() or listed))
    return "a hostile move refused" if refused else "every hostile move legal"


def _families(folder: Path) -> dict[str, tuple[Callable[..., str], list[Any]]]:
    """name: (check, strategies of its arguments)."""
    return {
        "record files (replay CLI + API)": (_record_file, [f.record_bytes(), st.booleans()]),
        "records (API)": (f.check_record, [f.mutated_records()]),
        "state texts": (f.check_state_text, [f.state_texts()]),
        "action texts": (f.check_action_text, [f.action_texts()]),
        "hand-built actions": (lambda a, i: f.apply_checked(f.BASE_GAMES[i].copy(), a),
                               [f.api_actions(), st.integers(0, len(f.BASE_GAMES) - 1)]),
        "Game() arguments": (lambda a: f.check_api_game(*a), [f.game_arguments()]),
        "CLI argument vectors": (lambda argv: f.check_cli(argv, folder),
                                 [f.cli_vectors(folder)]),
        "hostile play (atomic, hidden, round-trip)": (_hostile_game,
                                                       [st.integers(0, 2**31)]),
        "referee sessions (JSON lines)": (s.check_referee, [s.referee_sessions()]),
        "play (stdin and options)": (lambda run: s.check_play(*run, folder),
                                     [s.play_runs()]),
        "conform (folders of records and logs)": (
            lambda files, extra: s.check_conform(files, extra, folder),
            [s.conform_folders(), s.conform_options()]),
        "show over hostile records": (lambda data: _in_scratch(shown._check_show, data),
                                      [f.record_bytes()]),
        "show over hostile verify rows": (_show_rows, [shown.verify_rows()]),
        "house-rule moves (API and referee in step)": (
            _house_moves, [st.sampled_from(sorted(house.TABLES)),
                           st.lists(st.sampled_from(["Ann", "Bob", *house.ODD]), min_size=2,
                                    max_size=5, unique=True),
                           st.integers(0, 2**32), st.integers(0, 2**32)]),
        "seat views (HIDDEN-1: alike games look alike)": (
            v.check_seat_view, [st.sampled_from(sorted(VARIANTS)), st.integers(0, 2**32),
                                st.integers(0, 80), st.integers(0, 2), st.integers(1, 10)]),
    }


def run_family(check: Callable[..., str], strategies: list[Any], examples: int,
               master: int) -> tuple[Counter[str], str | None]:
    outcomes: Counter[str] = Counter()

    @seed(master)
    @settings(max_examples=examples, deadline=None, database=None,
              suppress_health_check=list(HealthCheck))
    @given(st.tuples(*strategies))
    def prop(args: tuple[Any, ...]) -> None:
        outcomes[check(*args)] += 1

    try:
        prop()
    except Exception as err:  # Hypothesis re-raises the shrunk failure
        return outcomes, f"{type(err).__name__}: {err}"
    return outcomes, None


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--examples", type=int, default=2000, help="inputs per family")
    parser.add_argument("--family", action="append", help="only families containing this")
    parser.add_argument("--seed", type=int, default=None, help="Hypothesis seed (random)")
    args = parser.parse_args()
    master = args.seed if args.seed is not None else random.randrange(2**31)
    folder = f.scratch()
    failed = 0
    total = 0
    print(f"fuzz: {args.examples} examples per family, seed {master}")
    for name, (check, strategies) in _families(folder).items():
        if args.family and not any(part in name for part in args.family):
            continue
        start = time.perf_counter()
        outcomes, failure = run_family(check, strategies, args.examples, master)
        tried = sum(outcomes.values())
        total += tried
        shown = ", ".join(f"{k} {v}" for k, v in outcomes.most_common())
        print(f"{name:45s} {tried:7,d} tried in {time.perf_counter() - start:6.1f} s: {shown}")
        if name.startswith("hostile play"):
            print(f"{'':45s} actions: " + ", ".join(f"{k} {v:,}" for k, v in
                                                     PLAYED.most_common()))
        if failure:
            failed += 1
            print(f"  FAILED: {failure}")
    print(f"total {total:,} inputs; {failed} families failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
