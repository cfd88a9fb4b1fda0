"""Quotes that can always be finished, in a real (headless) browser: a refused submit says
why where the button was pressed, and a returned quote is fixed in the parts form."""

from __future__ import annotations

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.support import expected_conditions as ec

from configurator.quotes import services
from configurator.quotes.models import Status
from tests.browser.test_flows import apply_fix, choose, panel_status, sign_in, swap, wait
from tests.quotes.conftest import GOOD_BUILD

pytestmark = pytest.mark.django_db(transaction=True, serialized_rollback=True)


def open_signed_in(browser, live_server, path: str, username: str) -> None:
    browser.get(f"{live_server.url}{path}")
    sign_in(browser, username)  # the sign-in page sends them on to `path`
    wait(browser, ec.presence_of_element_located((By.ID, "quote-panel")))


def test_a_refused_submit_says_why_and_the_fix_is_applied_in_the_parts_form(
    browser, live_server, make_quote
):
    # Two 2,000 W units, 1+1, for eight A800s: P7 fails (the walk-through of issue 20).
    quote = make_quote({**GOOD_BUILD, "psu_watts": 2000})
    open_signed_in(browser, live_server, f"/quotes/{quote.number}/", "presales")
    browser.find_element(By.XPATH, "//button[@value='submit']").click()
    alert = wait(
        browser, ec.visibility_of_element_located((By.CSS_SELECTOR, "#quote-panel [role=alert]"))
    )
    assert "The build fails P7: fix it before submitting." in alert.text
    assert panel_status(browser) == "draft"
    assert browser.current_url.endswith(f"/quotes/{quote.number}/")  # still on its page

    browser.find_element(By.LINK_TEXT, "Edit the parts and terms").click()
    wait(browser, ec.presence_of_element_located((By.ID, "configurator")))
    assert browser.find_element(By.ID, "check-P7").get_attribute("class").endswith("status-fail")
    swap(browser, lambda: apply_fix(browser, "P7").click())
    assert "status-pass" in browser.find_element(By.ID, "check-P7").get_attribute("class")
    browser.find_element(By.XPATH, "//button[text()='Save and submit for review']").click()
    wait(
        browser, lambda b: b.find_elements(By.ID, "quote-panel") and panel_status(b) == "submitted"
    )
    quote.refresh_from_db()
    assert quote.status == Status.SUBMITTED and quote.build["psu_watts"] > 2000


def test_a_returned_quote_is_edited_in_the_parts_form_and_resubmitted(
    browser, live_server, make_quote, presales, architect
):
    quote = make_quote()
    services.quote_submit(quote=quote, user=presales)
    services.quote_return(quote=quote, user=architect, comment="Give it 1 TB of memory.")
    open_signed_in(browser, live_server, f"/quotes/{quote.number}/", "presales")
    note = browser.find_element(By.CSS_SELECTOR, "#quote-panel .returned-note").text
    assert note == "Returned by architect: Give it 1 TB of memory."

    browser.find_element(By.LINK_TEXT, "Edit the parts and terms").click()
    wait(browser, ec.presence_of_element_located((By.ID, "configurator")))
    assert "Give it 1 TB of memory." in browser.find_element(By.CSS_SELECTOR, ".intro").text
    assert not browser.find_elements(By.TAG_NAME, "textarea")  # no JSON to write
    choose(browser, "memory_gb", "1024")
    build = browser.find_element(By.ID, "quote-save-build").get_attribute("value")
    assert "memory_gb=1024" in build  # the build on screen is the one the form saves
    term = browser.find_element(By.ID, "id_term_months")
    term.clear()
    term.send_keys("24")
    browser.find_element(By.XPATH, "//button[text()='Save and submit for review']").click()
    wait(
        browser, lambda b: b.find_elements(By.ID, "quote-panel") and panel_status(b) == "submitted"
    )
    quote.refresh_from_db()
    assert quote.status == Status.SUBMITTED
    assert quote.build["memory_gb"] == 1024 and quote.term_months == 24
    history = browser.find_element(By.CSS_SELECTOR, "#quote-panel .history").text
    assert history.count("submitted") == 2  # submitted, returned, submitted again
