"""Headless Chromium for the browser tests: Debian's chromium and its chromedriver.

No browser is downloaded at run time. Without chromium the tests are skipped with the reason;
`.ci/run` installs it first, so CI always runs them. A failing test leaves a screenshot and
the page's HTML in `browser-failures/` (or `$BROWSER_FAILURES`).
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")
CHROMEDRIVER = os.environ.get("CHROMEDRIVER", "/usr/bin/chromedriver")
FAILURES = Path(os.environ.get("BROWSER_FAILURES", "browser-failures"))


def chromium_missing() -> str | None:
    for path in (CHROMIUM, CHROMEDRIVER):
        if not (Path(path).exists() or shutil.which(path)):
            return (
                f"{path} not found: install Debian's chromium and chromium-driver "
                "(apt-get install chromium chromium-driver; .ci/run does)"
            )
    return None


@pytest.hookimpl(wrapper=True, tryfirst=True)
def pytest_runtest_makereport(item, call):
    report = yield
    setattr(item, f"report_{report.when}", report)
    return report


def make_driver(language: str = "en"):
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for argument in ("--headless=new", "--no-sandbox", "--disable-gpu",
                     "--disable-dev-shm-usage", "--window-size=1400,1000",
                     f"--lang={language}"):  # fmt: skip
        options.add_argument(argument)
    options.add_experimental_option("prefs", {"intl.accept_languages": language})
    return webdriver.Chrome(service=Service(CHROMEDRIVER), options=options)


@pytest.fixture
def browser(request):
    reason = chromium_missing()
    if reason:
        pytest.skip(reason)
    driver = make_driver()
    driver.implicitly_wait(0)
    yield driver
    report = getattr(request.node, "report_call", None)
    if report is not None and report.failed:
        FAILURES.mkdir(parents=True, exist_ok=True)
        stem = FAILURES / request.node.name
        driver.save_screenshot(f"{stem}.png")
        stem.with_suffix(".html").write_text(driver.page_source, encoding="utf-8")
    driver.quit()
