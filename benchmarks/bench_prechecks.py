"""Time per MiB of the JSON pre-checks (nesting depth, integer sizes, then the parse they
guard) on adversarial input, up to the 4 MiB a line or file may hold.

    python benchmarks/bench_prechecks.py [--mib 4] [--repeats 3]

Each input is decided (refused or parsed) by ``unoformal.inputs.parse_json``; the depth
check is also timed alone. Reports the median CPU seconds of ``--repeats`` runs and the
time per MiB. The inputs: a string cut off inside escaped quotes (what hung the referee),
one long string, many short strings, deep nesting, shallow nesting repeated (the most
brackets the check must sum), a huge integer, escapes of every kind."""

from __future__ import annotations

import argparse
import contextlib
import statistics
import time
from collections.abc import Callable

from unoformal.errors import InvalidInputError
from unoformal.inputs import MAX_JSON_CONTAINERS, _check_depth, parse_json

MIB = 1024 * 1024


def inputs(size: int) -> dict[str, str]:
    return {
        "cut-off string of \\\" escapes": '{"cmd": "state", "id": "' + '\\"' * (size // 2),
        "one long string": '["' + "a" * size + '"]',
        "many short strings": "[" + '"",' * (size // 3) + "1]",
        "escapes of every kind": '["' + "\\n\\t\\\\\\u00e9\\/" * (size // 16) + '"]',
        "nested [ to the end": "[" * size,
        "[[[[[[[[]]]]]]]] repeated": "[" + ("[" * 7 + "]" * 7 + ",") * (size // 15) + "1]",
        "[] repeated": "[" + "[]," * (size // 3) + "1]",
        "[] repeated, at the limit": "[" + "[]," * (MAX_JSON_CONTAINERS - 1) + "1]",
        "an integer of 4 Mi digits": "9" * size,
    }


def cpu(work: Callable[[], object], repeats: int) -> float:
    times = []
    for _ in range(repeats):
        start = time.process_time()
        work()
        times.append(time.process_time() - start)
    return statistics.median(times)


def decide(text: str) -> str:
    try:
        parse_json(text, "bench")
    except InvalidInputError:
        return "refused"
    return "parsed"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--mib", type=float, default=4.0, help="input size (default 4)")
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()
    size = int(args.mib * MIB)
    print(f"{'input':32s} {'MiB':>5s} {'outcome':>8s} {'depth s':>8s} {'decided s':>9s} "
          f"{'s/MiB':>7s}")
    for name, text in inputs(size).items():
        mib = len(text.encode()) / MIB
        depth = cpu(lambda t=text: _try_depth(t), args.repeats)  # type: ignore[misc]
        whole = cpu(lambda t=text: decide(t), args.repeats)  # type: ignore[misc]
        print(f"{name:32s} {mib:5.2f} {decide(text):>8s} {depth:8.3f} {whole:9.3f} "
              f"{whole / mib:7.3f}")


def _try_depth(text: str) -> None:
    with contextlib.suppress(InvalidInputError):
        _check_depth(text, "bench")


if __name__ == "__main__":
    main()
