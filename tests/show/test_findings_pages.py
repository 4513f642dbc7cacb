"""Pages of the other inputs, clicked through in headless Chromium: an explorer witness
(a record the explorer writes), a whole small state graph (``--preset micro``), a verify
counterexample (the property, its words, the table values that differ from classic, the
pre- and post-state side by side) and a validate mismatch."""

from __future__ import annotations

import contextlib
import io
import json
from pathlib import Path
from typing import Any

import pytest

from unoformal.commands.cli import main
from unoformal.compare.relation.check import Finding
from unoformal.compare.relation.records import write_mismatch
from unoformal.compare.relation.run import Mismatch
from unoformal.engine.record import load_record
from unoformal.rulebook.table import CLASSIC

from .helpers import SEED002, page_data, seat_cards, tokens, view_as, write_page


def _quiet(*argv: str) -> str:
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        assert main(list(argv)) in (0, 1)
    return out.getvalue()


@pytest.fixture(scope="module")
def pages(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    tmp = tmp_path_factory.mktemp("findings")
    _quiet("explore", "--preset", "duel", "--witnesses", str(tmp / "witnesses"),
           "--no-progress")
    verdicts = tmp / "verify.json"
    verdicts.write_text(_quiet("verify", "--rules", "seed004", "--players", "2",
                               "--property", "penalties", "--json"))
    return {
        "witness": write_page(tmp, str(tmp / "witnesses" / "CHAL-2.upheld.json"),
                              name="witness.html"),
        "graph": write_page(tmp, "--preset", "micro", name="graph.html"),
        "verify": write_page(tmp, str(verdicts), name="verify.html"),
        "mismatch": write_page(tmp, str(_mismatch(tmp)), name="mismatch.html")}


def _mismatch(tmp: Path) -> Path:
    """A mismatch folder as validate writes it (its own writer), for seed 002's game
    cut after four actions, with a made-up disagreement."""
    record = load_record(SEED002)
    record["actions"] = record["actions"][:4]
    finding = Finding("successor", "play_number", "the successors differ in the top card",
                      engine="top B9", relation="top B1")
    write_mismatch(Mismatch(finding, 3, record, 4), tmp / "mismatch-0", CLASSIC)
    return tmp / "mismatch-0"


def test_an_explorer_witness_steps_to_its_finding(pages: dict[str, Path],
                                                  open_page: Any) -> None:
    driver = open_page(pages["witness"])
    driver.find_element("id", "last").click()
    assert driver.find_element("id", "action").text.endswith("challenge")
    assert {"CHAL-1", "CHAL-2"} <= tokens(driver, "#rules")
    assert "differs from classic" in driver.find_element("id", "changes").find_element(
        "xpath", "..").text


def test_a_small_graph_draws_every_state_and_a_click_steps_its_path(
        pages: dict[str, Path], open_page: Any) -> None:
    driver = open_page(pages["graph"])
    nodes = driver.find_elements("css selector", "#graph .node")
    assert len(nodes) == 24  # explore --preset micro: 24 states
    assert driver.find_elements("css selector", "#graph .node.witness")
    assert len(driver.find_elements("css selector", "#graph .node.round-over")) == 12
    data = page_data(pages["graph"])["graph"]
    target = next(n for n in data["nodes"] if n["role"] == "round-over")
    driver.find_element("css selector", f'#graph .node[data-id="{target["id"]}"]').click()
    assert f"state #{target['id']}" in driver.find_element("id", "trace-title").text
    label = driver.find_element("id", "step-label").text
    depth = 0
    at = target["id"]
    while data["parent"][str(at)][0] >= 0:
        at, depth = data["parent"][str(at)][0], depth + 1
    assert label == f"step {depth} of {depth}"
    assert "END-1" in tokens(driver, "#rules")
    assert seat_cards(driver, "Ann") == [] or seat_cards(driver, "Bob") == []  # one is out
    driver.find_element("id", "first").click()
    assert driver.find_element("id", "action").text == "the deal"


def test_a_counterexample_names_its_property_and_shows_both_states(
        pages: dict[str, Path], open_page: Any) -> None:
    driver = open_page(pages["verify"])
    finding = driver.find_element("id", "finding").text
    assert "penalties" in finding and "refuted with 2 players" in finding
    assert "MISPLAY-1: An incorrect card" in finding  # the property's rules, in words
    changes = driver.find_element("id", "changes")
    assert "MISPLAY-1 cards = 1 (classic: 2)" in changes.get_attribute("textContent")
    pre = driver.find_element("id", "pre-state")
    post = driver.find_element("id", "post-state")
    sides = page_data(pages["verify"])["finding"]["sides"]
    counts = [{n: len(h) for n, h in side["state"]["hands"].items()} for side in sides]
    assert sum(counts[1].values()) - sum(counts[0].values()) == 1  # seed004: one card
    for box, shown in ((pre, counts[0]), (post, counts[1])):
        for seat, n in shown.items():
            count = box.find_element("css selector", f'.seat[data-seat="{seat}"] .count')
            assert count.text == f"{n} card{'' if n == 1 else 's'}"
    assert post.find_elements("css selector", ".changed")
    driver.find_element("id", "first").click()  # the record that reaches it, stepped
    assert driver.find_element("id", "action").text == "the deal"


def test_a_validate_mismatch_shows_what_differs_and_its_record(pages: dict[str, Path],
                                                                open_page: Any) -> None:
    driver = open_page(pages["mismatch"])
    finding = driver.find_element("id", "finding").text
    assert "check: successor" in finding and "relation: top B1" in finding
    assert driver.find_element("id", "step-label").text == "step 4 of 4"
    assert driver.find_element("id", "action").text == "Bo play B9"
    view_as(driver, "Ada")
    assert seat_cards(driver, "You") == []


def test_a_verify_output_without_a_refutation_is_refused(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    rows = [{"property": "x", "verdict": "proved"}]
    (tmp_path / "v.json").write_text(json.dumps(rows))
    assert main(["show", str(tmp_path / "v.json"), "--out", str(tmp_path / "p.html")]) == 2
    assert "no counterexample of any property" in capsys.readouterr().err
