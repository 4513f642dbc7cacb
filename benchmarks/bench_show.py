"""``unoformal show`` pages in headless Chromium: time to first paint and per step of a
500-action game, and the size of the pages (seed 002's game, the 500-action game, the
micro graph and a graph of about 300 states). Also writes the screenshots of the docs.

    python benchmarks/bench_show.py [--actions 500] [--steps 200] [--screenshots docs]

Needs Debian's chromium and chromium-driver (by path: no driver is downloaded) and
selenium (the test extra). Figures go in docs/show.md with this command; the tests never
assert a time.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from unoformal.engine.game import Game
from unoformal.engine.record import to_record
from unoformal.show.graph import graph_page, preset_page
from unoformal.show.page import render, write_atomic
from unoformal.show.sources import record_page
from unoformal.verification.explore.graph import Config
from unoformal.verification.explore.presets import Size, small_rules

ROOT = Path(__file__).resolve().parents[1]
SEED002 = ROOT / "tests" / "records" / "seed002_whole_game.json"
# About 300 states: one color, ranks 0-2, one Wild; 2 players, 1 card (294 states).
GRAPH_300 = Size(colors=1, numbers=(1, 1, 1), wilds=1, wild_draw_fours=0, penalties=False)


def long_game(actions: int, seed: int = 1) -> dict[str, Any]:
    """A record of ``actions`` random legal actions of four players (rounds dealt again
    as they end)."""
    rng = random.Random(seed)
    game = Game(["Ann", "Bob", "Cy", "Di"], seed=seed)
    while len(game.history) < actions and not game.game_over:
        if game.round_over:
            game.next_round()
        game.apply(rng.choice(game.legal_actions(penalties=False)))
    return to_record(game)


def browser(width: int = 1280, height: int = 900) -> Any:
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = "/usr/bin/chromium"
    for arg in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                f"--window-size={width},{height}"):
        options.add_argument(arg)
    return webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)


# Each step timed in the page: a click on "next", then a forced layout (reading a size),
# so the figure includes the browser's own work, not only the script's.
STEP_TIMES = """
const n = arguments[0], next = document.getElementById('next'), out = [];
document.getElementById('first').click();
for (let i = 0; i < n; i += 1) {
  const t = performance.now();
  next.click();
  void document.getElementById('step').offsetHeight;
  out.push(performance.now() - t);
}
return out;
"""


def paint_ms(driver: Any, page: Path) -> float:
    driver.get(page.resolve().as_uri())
    time.sleep(0.2)
    entries = driver.execute_script(
        "return performance.getEntriesByType('paint').map(e => [e.name, e.startTime]);")
    return float(dict(entries).get("first-contentful-paint", float("nan")))


def measure(args: argparse.Namespace, folder: Path) -> dict[str, Any]:
    pages = {
        "seed002 game (19 actions)": record_page(json.loads(SEED002.read_text()),
                                                 "seed002_whole_game.json"),
        f"random game ({args.actions} actions)": record_page(long_game(args.actions),
                                                             "long.json"),
        "micro graph (24 states)": preset_page("micro", 400),
        "graph of 294 states": graph_page(Config(small_rules(GRAPH_300, name="g300"),
                                                 tuple(GRAPH_300.players_list()), "g300",
                                                 penalties=False), 400),
    }
    sizes, paths = {}, {}
    for name, data in pages.items():
        path = folder / (name.split()[0] + str(len(paths)) + ".html")
        write_atomic(path, render(data))
        sizes[name] = path.stat().st_size
        paths[name] = path
    driver = browser()
    try:
        long_page = paths[f"random game ({args.actions} actions)"]
        paints = [paint_ms(driver, long_page) for _ in range(args.runs)]
        steps = driver.execute_script(STEP_TIMES, args.steps)
        graph_paint = [paint_ms(driver, paths["graph of 294 states"]) for _ in range(args.runs)]
        if args.screenshots:
            shots(driver, args.screenshots)
    finally:
        driver.quit()
    return {"bytes": sizes, "first_paint_ms_500": statistics.median(paints),
            "first_paint_ms_graph_294": statistics.median(graph_paint),
            "step_ms_median": statistics.median(steps), "step_ms_max": max(steps),
            "steps_timed": len(steps)}


def shots(driver: Any, folder: Path) -> None:
    """The docs' screenshots: seed 002's challenge (referee view, then as Bo), and the
    micro graph with a round-over state's path."""
    from selenium.webdriver.support.ui import Select

    with tempfile.TemporaryDirectory() as tmp:
        page = Path(tmp) / "seed002.html"
        write_atomic(page, render(record_page(json.loads(SEED002.read_text()),
                                              "tests/records/seed002_whole_game.json")))
        driver.set_window_size(1200, 820)
        driver.get(page.resolve().as_uri())
        for _ in range(18):
            driver.find_element("id", "next").click()
        Select(driver.find_element("id", "view-as")).select_by_value("You")
        driver.save_screenshot(str(folder / "show-record.png"))
        graph = Path(tmp) / "micro.html"
        write_atomic(graph, render(preset_page("micro", 400)))
        driver.get(graph.resolve().as_uri())
        driver.find_element("css selector", '#graph .node[data-id="7"]').click()
        driver.execute_script("document.getElementById('graph').scrollIntoView()")
        driver.save_screenshot(str(folder / "show-graph.png"))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--actions", type=int, default=500)
    parser.add_argument("--steps", type=int, default=200, help="steps timed")
    parser.add_argument("--runs", type=int, default=5, help="page loads (median)")
    parser.add_argument("--screenshots", type=Path, default=None,
                        help="also write the docs' screenshots into this folder")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        result = measure(args, Path(tmp))
    print(json.dumps(result, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
