"""A hostile record runs nothing in its page: markup and script in its metadata, its
variant's description and a refused action's words show as text, and no payload sets the
page's title or a global."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from .helpers import SEED002, write_page

PAYLOADS = [
    "</script><script>document.title='pwned';window.pwned=1</script>",
    "<img src=x onerror=\"document.title='pwned';window.pwned=2\">",
    "<svg onload=\"window.pwned=3\"></svg>\u2028<!-- -->",
    "javascript:window.pwned=4",
]


def _hostile(tmp: Path) -> Path:
    record = json.loads(SEED002.read_text())
    record["version"] = 2
    record["rules"] = {"name": "evil", "base": "classic",
                       "description": PAYLOADS[1] + " " + PAYLOADS[2], "rules": {}}
    record["meta"] = {"note": PAYLOADS[0], "by": PAYLOADS[3], PAYLOADS[1]: [PAYLOADS[2]]}
    record["actions"] = [*record["actions"][:3], {"player": "Ada", "action": "play",
                                                  "card": "W+4", "color": "red"}]
    path = tmp / "hostile.json"
    path.write_text(json.dumps(record))
    return path


def test_a_hostile_record_runs_no_script_and_shows_its_text(tmp_path: Path,
                                                            open_page: Any) -> None:
    page = write_page(tmp_path, str(_hostile(tmp_path)))
    driver = open_page(page)
    assert driver.title == "unoformal show: game record hostile.json"
    assert driver.execute_script("return window.pwned === undefined") is True
    meta = driver.find_element("id", "meta").text
    assert "</script><script>document.title='pwned'" in meta  # literally, as text
    assert PAYLOADS[1] in driver.find_element("css selector", ".variant").text
    assert driver.find_elements("css selector", "#app img, #app script, #app svg[onload]") == []
    driver.find_element("id", "last").click()  # Ada's refused Wild Draw Four (not her turn)
    assert "refused" in driver.find_element("id", "refused").text
    assert driver.execute_script("return window.pwned === undefined") is True
    assert driver.title == "unoformal show: game record hostile.json"


def test_the_payload_would_run_in_a_page_without_the_escapes(tmp_path: Path,
                                                             open_page: Any) -> None:
    # The check above can fail: the same payload written raw into a page does run.
    page = tmp_path / "raw.html"
    page.write_text(f"<html><body data-ready=yes>{PAYLOADS[0]}</body></html>")
    driver = open_page(page)
    assert driver.title == "pwned"
