"""One headless Chromium for every browser test of the session (a start costs a second
or two), driven by selenium through Debian's chromedriver.

Selenium Manager is never asked for anything: the browser and its driver are the system's
(``chromium``, ``chromium-driver``), named by path, so no download is tried. Without them
the browser tests skip with the reason, except in CI (``CI`` set, as ``.ci/run`` runs),
where a missing browser is a failure: ``.ci/run`` installs it.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

CHROMIUM = os.environ.get("UNOFORMAL_CHROMIUM", "/usr/bin/chromium")
DRIVER = os.environ.get("UNOFORMAL_CHROMEDRIVER", "/usr/bin/chromedriver")


def _missing() -> str | None:
    for what, path in (("chromium", CHROMIUM), ("chromedriver", DRIVER)):
        if shutil.which(path) is None:
            return f"{what} not found at {path} (Debian: apt-get install chromium " \
                   "chromium-driver)"
    try:
        import selenium  # noqa: F401
    except ImportError:
        return "selenium is not installed (pip install -e '.[test]')"
    return None


def start_browser(width: int = 1280, height: int = 900) -> Any:
    """A headless Chromium under selenium, from the system's paths only."""
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for arg in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                f"--window-size={width},{height}", "--allow-file-access-from-files"):
        options.add_argument(arg)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    return webdriver.Chrome(service=Service(DRIVER), options=options)


@pytest.fixture(scope="session")
def browser() -> Iterator[Any]:
    missing = _missing()
    if missing is not None:
        if os.environ.get("CI"):
            pytest.fail(f"CI runs the browser tests, but {missing}")
        pytest.skip(missing)
    driver = start_browser()
    try:
        yield driver
    finally:
        driver.quit()


@pytest.fixture
def open_page(browser: Any) -> Any:
    """Load a page file and wait until its script has drawn it; browser log cleared."""
    def load(path: Path) -> Any:
        browser.get(path.resolve().as_uri())
        browser.get_log("browser")
        assert browser.find_element("tag name", "body").get_attribute("data-ready") == "yes"
        return browser
    return load
