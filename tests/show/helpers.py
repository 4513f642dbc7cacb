"""Shared by the show tests: write a page with the command line, read what a page shows."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from unoformal.commands.cli import main

ROOT = Path(__file__).resolve().parents[2]
SEED002 = ROOT / "tests" / "records" / "seed002_whole_game.json"


def write_page(tmp: Path, *argv: str, name: str = "page.html") -> Path:
    out = tmp / name
    assert main(["show", *argv, "--out", str(out)]) == 0
    return out


def page_data(path: Path) -> Any:
    """The JSON a page embeds (the escapes are JSON's own, so json.loads reads them)."""
    text = path.read_text(encoding="utf-8")
    start = text.index('id="data">') + len('id="data">')
    return json.loads(text[start:text.index("</script>", start)])


def seat_cards(driver: Any, seat: str) -> list[str]:
    """The card codes shown in a seat's hand, in order (card backs have none)."""
    hand = driver.find_element("css selector", f'.seat[data-seat="{seat}"] .hand')
    return [c.text for c in hand.find_elements("css selector", ".card") if c.text]


def seat_score(driver: Any, seat: str) -> int:
    text = driver.find_element("css selector", f'.seat[data-seat="{seat}"] .score').text
    return int(text.removeprefix("score "))


def go_to(driver: Any, step: int) -> None:
    """Step with the keyboard from the first step (Home, then → as often as needed)."""
    from selenium.webdriver.common.keys import Keys

    body = driver.find_element("tag name", "body")
    body.send_keys(Keys.HOME)
    for _ in range(step):
        body.send_keys(Keys.ARROW_RIGHT)
    assert driver.find_element("id", "step-label").text.startswith(f"step {step} of")


def view_as(driver: Any, seat: str) -> None:
    from selenium.webdriver.support.ui import Select

    Select(driver.find_element("id", "view-as")).select_by_value(seat)


def tokens(driver: Any, css: str = "#step") -> set[str]:
    """The words of an element's visible text."""
    return set(driver.find_element("css selector", css).text.split())
