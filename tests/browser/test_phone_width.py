"""Every page of the README's table fits a phone: at 390 px nothing is wider than the screen.

Each page (`tests/pages.py`) is opened, in English and in Chinese, by each role that uses it,
in Chromium emulating a 390 × 844 phone; the document's scroll width must not exceed the
window's width (a table or a line of code that does not wrap makes the whole page scroll
sideways). Wide tables scroll inside their own box instead.
"""

from __future__ import annotations

import pytest
from django.conf import settings
from django.test import Client
from selenium.common.exceptions import StaleElementReferenceException
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

from tests.browser.conftest import chromium_missing, make_driver
from tests.pages import ANONYMOUS, ARCHITECT, PRESALES, page_data, pages

pytestmark = pytest.mark.django_db(transaction=True, serialized_rollback=True)

# Not `mobile`: a mobile viewport widens itself to the content, and the overflow would hide.
PHONE = {"width": 390, "height": 844, "deviceScaleFactor": 1, "mobile": False}
LANGUAGES = ("en", "zh-hans")
# What sticks out: each element whose right edge passes the window, the outermost first.
OVERFLOW = """
const width = window.innerWidth;
return [...document.querySelectorAll('body *')]
  .filter(e => e.getBoundingClientRect().right > width + 1)
  .filter(e => !e.parentElement || e.parentElement.getBoundingClientRect().right <= width + 1)
  .slice(0, 5)
  .map(e => `${e.tagName.toLowerCase()}${e.id ? '#' + e.id : ''}.${[...e.classList].join('.')}`
            + ` ${Math.round(e.getBoundingClientRect().right)}px`);
"""


@pytest.fixture
def phone():
    reason = chromium_missing()
    if reason:
        pytest.skip(reason)
    driver = make_driver()
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", PHONE)
    yield driver
    driver.quit()


def signed_in(browser, live_server, user, language: str) -> None:
    """Give the browser a session of `user` (none for a visitor) and the page language."""
    browser.get(f"{live_server.url}/healthz")
    browser.delete_all_cookies()
    browser.add_cookie({"name": settings.LANGUAGE_COOKIE_NAME, "value": language})
    if user is not None:
        client = Client()
        client.force_login(user)
        session = client.cookies[settings.SESSION_COOKIE_NAME].value
        browser.add_cookie({"name": settings.SESSION_COOKIE_NAME, "value": session})


def compared(browser, url: str, count: int) -> None:
    """Put the build at `url` on the comparison, as a person does, and wait for the tray."""
    browser.get(url)
    browser.find_element(By.CSS_SELECTOR, "#share-title ~ form button").click()
    WebDriverWait(browser, 20, ignored_exceptions=(StaleElementReferenceException,)).until(
        lambda b: str(count) in b.find_element(By.ID, "compare-tray").text
    )


def test_every_page_fits_a_390_px_phone(phone, live_server, presales, architect):
    values = page_data(presales, architect)
    users = {ANONYMOUS: None, PRESALES: presales, ARCHITECT: architect}
    wide = {}
    for language in LANGUAGES:
        for page in pages(values):
            for role in page.roles:
                signed_in(phone, live_server, users[role], language)
                for count, build in enumerate(page.compare, 1):
                    compared(phone, f"{live_server.url}/configure/?{build}", count)
                phone.get(f"{live_server.url}{page.url}")
                scroll, window = phone.execute_script(
                    "return [document.documentElement.scrollWidth, window.innerWidth]"
                )
                assert window == PHONE["width"]
                if scroll > window:
                    where = f"{language} {role} {page.url[:70]}"
                    wide[where] = f"{scroll}px: {phone.execute_script(OVERFLOW)}"
    assert not wide, "\n".join(f"{k}: {v}" for k, v in wide.items())
