"""Campaigns (``unoformal.runtime.campaign``): the same output on one worker (in this process) and
on two (a Dask cluster), byte for byte; task errors reported on one line; bad options
refused with exit 2. The cluster is the session's ``scheduler`` fixture (tests/conftest.py),
started once; one test starts its own local cluster through ``--workers 2``."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest

from unoformal.commands.cli import main
from unoformal.compare import records as conform_module
from unoformal.compare.records import Tally, records_in
from unoformal.playing.simulate import Config, SimulationError, chunks, play_games
from unoformal.runtime import campaign


def _out(capsys: pytest.CaptureFixture[str], *argv: str, code: int = 0) -> str:
    assert main(list(argv)) == code
    out: str = capsys.readouterr().out
    return out


def test_simulate_json_is_the_same_on_one_and_two_workers(
        scheduler: str, capsys: pytest.CaptureFixture[str]) -> None:
    args = ("simulate", "--games", "230", "--players", "3", "--seed", "5", "--json")
    one = _out(capsys, *args, "--workers", "1")
    assert len(chunks(230)) == 3  # three tasks, finishing in any order on two workers
    assert _out(capsys, *args, "--scheduler", scheduler) == one
    assert _out(capsys, *args, "--workers", "2") == one  # a local cluster of its own
    assert json.loads(one)["games"] == 230
    assert _out(capsys, *args[:-2], "6", "--json", "--workers", "1") != one


def test_results_come_in_task_order_not_in_the_order_tasks_end(scheduler: str) -> None:
    config = Config(games=300, players=2, seed=1)
    jobs = [(config, range(0, 150)), *[(config, range(i, i + 1)) for i in range(150, 156)]]
    ended: list[int] = []
    here = campaign.run(play_games, jobs, campaign.Options(workers=1), label="simulate")
    there = campaign.run(play_games, jobs, campaign.Options(scheduler=scheduler),
                         label="simulate", on_result=lambda i, _: ended.append(i))
    assert there == here and sorted(ended) == list(range(7))


def _without_timings(text: str) -> str:
    """The report minus its two timing lines (wall and CPU seconds), byte for byte."""
    return "".join(line for line in text.splitlines(keepends=True)
                   if not line.lstrip().startswith(('"seconds"', '"cpu_seconds"')))


def test_validate_json_is_the_same_on_one_and_two_workers(
        scheduler: str, capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    args = ("validate", "--players", "3,2", "--steps", "300", "--seed", "3", "--json",
            "--out", str(tmp_path))
    one = _out(capsys, *args, "--workers", "1", code=1)  # 300 steps: not all covered
    two = _out(capsys, *args, "--scheduler", scheduler, code=1)
    assert _without_timings(two) == _without_timings(one)
    data = json.loads(one)
    assert data["players"] == [3, 2] and data["steps"] == 600
    assert list(data["coverage"]) == ["3", "2"]


def _records(folder: Path) -> Path:
    """RLCard's games (clean ones and deviations of several causes, of many lengths) and
    malformed lines, in one log."""
    log = folder / "games.jsonl"
    assert main(["conform", "--engine", "rlcard", "--games", "12", "--players", "2,4",
                 "--seed", "1", "--save", str(log)]) == 1
    lines = log.read_text().splitlines()
    lines[5:5] = ["not json", json.dumps({"players": 3})]
    lines[12:12] = ["{", "[1, 2]", "null"]  # more than the examples shown (5)
    lines.append("[1, 2]")
    log.write_text("\n".join(lines) + "\n")
    return log


def test_conform_json_is_the_same_on_one_and_two_workers(
        scheduler: str, capsys: pytest.CaptureFixture[str], tmp_path: Path,
        monkeypatch: pytest.MonkeyPatch) -> None:
    log = _records(tmp_path)
    capsys.readouterr()
    monkeypatch.setattr(conform_module, "BATCH_BYTES", 2000)  # the split is made here
    one = _out(capsys, "conform", str(log), "--json", "--workers", "1", code=1)
    assert _out(capsys, "conform", str(log), "--json", "--scheduler", scheduler,
                code=1) == one
    data = json.loads(one)
    assert data["games"] == 30 and data["malformed"] == 6 and len(data["deviations"]) >= 2
    assert len(data["malformed_examples"]) == 5


LONG_GAME = 'name = "long"\nbase = "classic"\ndescription = "To 10,000."\n' \
    '[rules."SCORE-2"]\nscore = 10000\n'


def _simulated(folder: Path, *argv: str) -> list[dict[str, Any]]:
    """The game records ``simulate --records`` writes for 2 players, seed 3."""
    log = folder / "games.jsonl"
    assert main(["simulate", *argv, "--players", "2", "--seed", "3", "--json",
                 "--records", str(log)]) == 0
    games = [json.loads(line) for line in log.read_text().splitlines()]
    log.unlink()
    return games


def _game_records(folder: Path) -> Path:
    """Whole-game records (version 3) in three files: a game to 10,000 points (117 rounds,
    0.5 MB) alone in a .json file first, so that its task ends after the next ones on two
    workers; then the six shortest of 12 games, in a .jsonl file cut into several pieces
    and a .json file. The long game and two others miscount a round's points the same way
    (examples of one cause as short as each other, in different tasks: the first must be
    shown, and listed first), one plays a Wild Draw Four without naming a color, one line
    is not a record."""
    (folder / "long.toml").write_text(LONG_GAME)
    [long] = _simulated(folder, "--games", "1", "--rules", str(folder / "long.toml"))
    games = sorted(_simulated(folder, "--games", "12"), key=lambda g: len(json.dumps(g)))[:6]
    for game in (long, games[0], games[2]):
        game["rounds"][0]["end"]["points"] += 1  # SCORE-1
    action = games[3]["rounds"][1]["actions"][0]
    action.update(action="play", card="W+4" if action.get("card") != "W+4" else "R0")
    records = folder / "records"
    records.mkdir()
    (records / "a.json").write_text(json.dumps(long))
    lines = [json.dumps(game) for game in games[:-1]]
    lines.insert(2, "not json")
    (records / "b.jsonl").write_text("\n".join(lines) + "\n")
    (records / "c.json").write_text(json.dumps(games[-1]))
    return records


def test_conform_of_game_records_is_the_same_on_one_and_two_workers(
        scheduler: str, capsys: pytest.CaptureFixture[str], tmp_path: Path,
        monkeypatch: pytest.MonkeyPatch) -> None:
    records = _game_records(tmp_path)
    capsys.readouterr()
    monkeypatch.setattr(conform_module, "BATCH_BYTES", 10_000)  # the split is made here
    files = list(conform_module.pieces([str(records)]))
    found = [p for f in files for p in conform_module.split(f, 10_000)]
    tasks = conform_module.batches(found, 10_000)
    assert len(found) > len(files) and len(tasks) >= 4  # b.jsonl cut; tasks by bytes
    assert files[0].size > 10 * max(sum(p.size for p in t) for t in tasks[1:])
    for form in ([], ["--json"]):
        one = _out(capsys, "conform", str(records), *form, "--workers", "1", code=1)
        assert _out(capsys, "conform", str(records), *form, "--scheduler", scheduler,
                    code=1) == one
    data = json.loads(one)
    assert data["games"] == 8 and data["clean"] == 3 and data["malformed"] == 1
    assert data["deviations"] == {"SCORE-1": 3, "WILD-1": 1}
    assert data["per_rule"]["SCORE-1"] == {"records": 3, "rounds": 3, "deviations": 3}
    # a tie between examples goes to the first record, whichever task ended first
    assert data["explanations"]["SCORE-1"]["source"].endswith("a.json")


def test_merged_tallies_equal_one_tally_over_every_split(tmp_path: Path) -> None:
    found = list(records_in([str(_records(tmp_path))]))
    whole = Tally()
    for where, record in found:
        whole.add(record, where)
    rng = random.Random(0)
    for _ in range(20):
        cuts = sorted(rng.sample(range(1, len(found)), rng.randint(1, 8)))
        merged = Tally()
        for lo, hi in zip([0, *cuts], [*cuts, len(found)], strict=True):
            part = Tally()
            for where, record in found[lo:hi]:
                part.add(record, where)
            merged.merge(part)
        assert json.dumps(merged.to_json()) == json.dumps(whole.to_json())


def test_a_task_that_raises_a_package_error_raises_it_here(scheduler: str) -> None:
    stuck = Config(games=1, players=2, seed=0, max_actions=3)
    for where in (campaign.Options(workers=1), campaign.Options(scheduler=scheduler)):
        with pytest.raises(SimulationError, match="still not over after 3 actions"):
            campaign.run(play_games, [(stuck, range(1))], where, label="simulate")


def test_a_task_that_fails_otherwise_is_named(scheduler: str) -> None:
    for where in (campaign.Options(workers=1), campaign.Options(scheduler=scheduler)):
        with pytest.raises(campaign.TaskError, match=r"simulate: task 1 failed: TypeError"):
            campaign.run(play_games, [(Config(1, 2, 0), range(1)), None], where,
                         label="simulate")


def test_errors_in_tasks_reach_the_command_line_as_one_line(
        scheduler: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["simulate", "--games", "3", "--max-actions", "5", "--scheduler",
                 scheduler]) == 1
    err = capsys.readouterr().err
    assert err.startswith("error: game 0") and len(err.strip().splitlines()) == 1, err


def test_bad_campaign_options_exit_2(capsys: pytest.CaptureFixture[str],
                                     monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(campaign, "CONNECT_TIMEOUT_S", 1)
    assert main(["simulate", "--games", "3", "--scheduler", "tcp://127.0.0.1:9"]) == 2
    err = capsys.readouterr().err
    assert "--scheduler tcp://127.0.0.1:9: cannot reach a Dask scheduler" in err
    assert len(err.strip().splitlines()) == 1 and "Traceback" not in err
    assert main(["validate", "--workers", "2", "--scheduler", "tcp://127.0.0.1:9"]) == 2
    assert "--workers and --scheduler: give one" in capsys.readouterr().err
    assert main(["conform", ".", "--workers", "0"]) == 2
    assert "--workers" in capsys.readouterr().err


def test_small_jobs_stay_in_this_process_and_asked_workers_do_not() -> None:
    auto, one, two = campaign.Options(), campaign.Options(workers=1), \
        campaign.Options(workers=2)
    assert auto.local(tasks=5, small=True) and auto.local(tasks=1, small=False)
    assert not auto.local(tasks=5, small=False)
    assert one.local(tasks=5, small=False) and not two.local(tasks=5, small=True)
    assert not campaign.Options(scheduler="tcp://x:1").local(tasks=1, small=True)
    assert two.processes(tasks=1) == 1 and auto.processes(tasks=64) == campaign.cores()


def test_verify_json_is_the_same_on_one_and_two_workers(
        scheduler: str, capsys: pytest.CaptureFixture[str]) -> None:
    args = ("verify", "--rules", "stacking", "--players", "2-4", "--property", "no-stacking",
            "--property", "card-effects", "--jobs", "2", "--no-witness", "--json")
    one = _out(capsys, *args, "--workers", "1")  # refuted, as the manifest expects
    two = _out(capsys, *args, "--scheduler", scheduler)
    assert _without_timings(two) == _without_timings(one)
    assert any(row["verdict"] == "refuted" and row["state"] for row in json.loads(one))


def test_mutants_are_killed_alike_on_one_and_two_workers(scheduler: str) -> None:
    from unoformal.rulebook.table import CLASSIC
    from unoformal.verification.z3 import mutants

    jobs = [(CLASSIC, m, (2,), 3000, None, False)
            for m in list(mutants.mutants(CLASSIC))[:6]]
    here = campaign.run(mutants.outcome, jobs, campaign.Options(workers=1), label="mutants")
    there = campaign.run(mutants.outcome, jobs, campaign.Options(scheduler=scheduler),
                         label="mutants")
    assert [(o.mutant, o.killed_by) for o in there] == [(o.mutant, o.killed_by) for o in here]
    assert all(o.killed_by for o in here)


def test_the_progress_bar_shows_on_a_terminal_only_and_never_when_turned_off() -> None:
    from io import StringIO

    from rich.console import Console

    jobs = [(Config(1, 2, 0), range(1))] * 2

    def shown(terminal: bool, bar: bool) -> str:
        out = StringIO()
        campaign.run(play_games, jobs, campaign.Options(workers=1, bar=bar), label="simulate",
                     unit="games", console=Console(file=out, force_terminal=terminal))
        return out.getvalue()

    assert "simulate" in shown(terminal=True, bar=True)
    assert shown(terminal=False, bar=True) == "" and shown(terminal=True, bar=False) == ""


def test_no_cyclic_collection_runs_while_dask_threads_run_here() -> None:
    # A Z3 term collected in Dask's event-loop thread crashed a CI run (Z3_dec_ref racing
    # the main thread's Z3): campaign collects garbage in this thread only, around Dask.
    import gc

    from unoformal.runtime.campaign import _collected_here

    assert gc.isenabled()
    with _collected_here():
        assert not gc.isenabled()
    assert gc.isenabled()
    gc.disable()
    try:
        with _collected_here():
            assert not gc.isenabled()
        assert not gc.isenabled()  # a caller's choice is kept
    finally:
        gc.enable()


def _collecting(item: int) -> tuple[int, bool]:
    import gc

    return item, gc.isenabled()


def test_no_cyclic_collection_runs_in_a_worker_while_its_task_runs(scheduler: str) -> None:
    # The same race inside a worker process (its event-loop thread beside the task's):
    # a pair's task of the matrix failed inside Z3 ("Overflow encountered when expanding
    # vector"). Each task runs with the collector off, in the worker, for good.
    got = campaign.run(_collecting, list(range(6)), campaign.Options(scheduler=scheduler),
                       label="gc")
    assert got == [(i, False) for i in range(6)]
