"""``unoformal show`` fuzzed in-process: hostile record files and hostile verify outputs
(fields of every JSON type, fields missing, huge values, a record of another game, rows
in odd company). Each run must exit 0 or 2 with one line of output and no traceback,
and leave either the whole page, every state in it of the page's seats, or no file at
all (never a partial page or a temporary file). Seeded (derandomized) and brief: a few seconds."""

from __future__ import annotations

import functools
import json
import tempfile
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from .families import (
    BASE_RECORDS,
    hostile_text,
    json_values,
    mutated_records,
    record_bytes,
    run_cli,
)

BRIEF = settings(max_examples=200, deadline=None, database=None, derandomize=True,
                 suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
# The fields show reads from a verify row, and values that are large but well-typed.
FIELDS = ["property", "verdict", "state", "steps", "record", "replayable", "players",
          "action", "expected", "expected_from", "rules"]
HUGE = [10**19, -(10**19), "x" * 100_000, ["P1 draw"] * 3000, [["x"]] * 50, 1e308]
# One value of each JSON type: every field gets each wrong one often.
WRONG = [0, 3, True, 1.5, "x", "", [], [1], [None], {}, {"a": 1}]


# A real refuted verify row (seed004's penalties, with its state, steps and record).
VERDICTS = Path(__file__).parents[1] / "show" / "test_show_robust_verdicts.json"


@functools.cache
def _base_row() -> dict[str, Any]:
    row: dict[str, Any] = json.loads(VERDICTS.read_text())[0]
    return row


@st.composite
def verify_rows(draw: st.DrawFn) -> Any:
    """A verify output: the real row with fields replaced, dropped or made huge, its
    record swapped for another game's or mutated, in the company of other rows."""
    row = json.loads(json.dumps(_base_row()))
    for _ in range(draw(st.integers(1, 3))):
        field = draw(st.sampled_from(FIELDS))
        op = draw(st.sampled_from(["wrong", "any", "drop", "huge", "record", "steps",
                                   "state"]))
        if op == "wrong":
            row[field] = draw(st.sampled_from(WRONG))
        elif op == "any":
            row[field] = draw(json_values)
        elif op == "drop":
            row.pop(field, None)
        elif op == "huge":
            row[field] = draw(st.sampled_from(HUGE))
        elif op == "record":
            row["record"] = draw(st.one_of(st.sampled_from(BASE_RECORDS), mutated_records()))
        elif op == "steps":
            row["steps"] = draw(st.lists(st.one_of(hostile_text(), json_values), max_size=4))
        elif isinstance(row.get("state"), str):
            text = row["state"]
            at = draw(st.integers(0, len(text)))
            row["state"] = text[:at] + draw(hostile_text(8)) + text[at + draw(st.integers(0, 9)):]
    if draw(st.integers(0, 9)) == 0:  # not a list of verdicts at all
        return draw(st.one_of(json_values, st.lists(json_values, max_size=3)))
    other = st.fixed_dictionaries({"property": st.one_of(st.just("p"), hostile_text()),
                                   "verdict": st.one_of(st.sampled_from(["proved",
                                                                         "refuted"]),
                                                        json_values)})
    others = draw(st.lists(other, max_size=2))
    return draw(st.permutations([row, *others]))


def _check_show(data: bytes, folder: Path) -> str:
    source = folder / "input.json"
    source.write_bytes(data)
    page = folder / "page.html"
    argv = ["show", str(source), "--out", str(page)]
    run = run_cli(argv, cwd=folder)
    assert run.code in (0, 2), f"exit {run.code}: {run.err}"
    assert "Traceback" not in run.err + run.out, run.err
    left = sorted(p.name for p in folder.iterdir())
    if run.code == 2:
        assert run.out == "" and run.err.count("\n") == 1, run.err
        assert run.err.startswith("error: ") and "input.json" in run.err, run.err
        assert left == ["input.json"], left  # no page, no temporary file
        return "refused"
    assert run.err == "" and run.out.count("\n") == 1 and run.out.startswith("wrote "), run
    assert left == ["input.json", "page.html"], left
    text = page.read_text(encoding="utf-8")
    assert text.endswith("</body></html>\n")
    _check_seats(text)
    return "shown"


def _check_seats(page: str) -> None:
    """Every state the page draws has exactly the page's seats: its script draws each
    seat's hand and score from every state (a record of other players broke it)."""
    start = page.index('id="data">') + len('id="data">')
    data = json.loads(page[start:page.index("</script>", start)])
    finding = data.get("finding") or {}
    states = [s["state"] for s in data["steps"]] + \
        [s["state"] for s in finding.get("sides", []) if s["state"]]
    for state in states:
        assert set(state["hands"]) == set(data["players"]) == set(state["scores"]), \
            (data["players"], sorted(state["hands"]))


@BRIEF
@given(record_bytes())
def test_a_hostile_record_file_is_shown_whole_or_refused_in_one_line(data: bytes) -> None:
    with tempfile.TemporaryDirectory() as folder:
        event(_check_show(data, Path(folder)))


@BRIEF
@given(verify_rows())
def test_a_hostile_verify_output_is_shown_whole_or_refused_in_one_line(rows: Any) -> None:
    _check_rows(rows)


@BRIEF
@given(st.sampled_from(FIELDS), st.one_of(st.sampled_from(WRONG), json_values))
def test_a_verify_row_with_one_field_of_any_type_is_shown_or_refused(field: str,
                                                                      value: Any) -> None:
    _check_rows([{**_base_row(), field: value}])


def _check_rows(rows: Any) -> None:
    with tempfile.TemporaryDirectory() as folder:
        data = json.dumps(rows, ensure_ascii=False).encode("utf-8", "surrogatepass")
        event(_check_show(data, Path(folder)))
