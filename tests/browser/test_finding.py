"""Finding and sharing, in a real (headless) browser: an architect reaches every tool from the
header; a customer makes a short link, copies it, and it opens the same build."""

from __future__ import annotations

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.support import expected_conditions as ec

from configurator.quotes import services
from tests.browser.test_flows import sign_in, wait

pytestmark = pytest.mark.django_db(transaction=True, serialized_rollback=True)

# Each tool of the header's second row, and what its page shows.
TOOLS = [
    ("Leads", (By.ID, "leads")),
    ("Quotes", (By.ID, "quote-table")),
    ("Review queue", (By.CSS_SELECTOR, ".review")),
    ("Rules", (By.ID, "result_list")),
    ("Catalog admin", (By.ID, "content-main")),
    ("Fleet audit", (By.CSS_SELECTOR, "input[type=file]")),
    ("Node probes", (By.CSS_SELECTOR, "input[type=file]")),
    ("Monthly report", (By.CSS_SELECTOR, "main h1")),
]


def test_the_architect_finds_every_tool_from_the_header(
    browser, live_server, architect, make_quote
):
    services.quote_submit(quote=(quote := make_quote()), user=quote.owner)
    browser.get(f"{live_server.url}/")
    browser.find_element(By.LINK_TEXT, "Log in").click()
    sign_in(browser, "architect")
    row = wait(browser, ec.presence_of_element_located((By.CSS_SELECTOR, "nav.role-tools")))
    assert [a.text for a in row.find_elements(By.TAG_NAME, "a")] == [name for name, _ in TOOLS]
    for name, shown in TOOLS:
        tools = browser.find_element(By.CSS_SELECTOR, "nav.role-tools")
        tools.find_element(By.LINK_TEXT, name).click()
        wait(browser, ec.presence_of_element_located(shown))
        if browser.find_elements(By.CSS_SELECTOR, "nav.role-tools"):  # the site's pages
            current = browser.find_element(By.CSS_SELECTOR, "nav.role-tools [aria-current=page]")
            assert current.text == name
        else:  # the admin's own pages: back to the site's
            browser.back()
            wait(browser, ec.presence_of_element_located((By.CSS_SELECTOR, "nav.role-tools")))
        if name == "Review queue":
            assert browser.find_element(By.ID, f"review-{quote.number}")


def test_the_admin_index_lists_the_same_tools(browser, live_server, architect):
    browser.get(f"{live_server.url}/admin/")
    sign_in(browser, "architect")
    box = wait(browser, ec.presence_of_element_located((By.CSS_SELECTOR, ".role-tools-admin")))
    assert [a.text for a in box.find_elements(By.TAG_NAME, "a")] == [name for name, _ in TOOLS]
    box.find_element(By.LINK_TEXT, "Monthly report").click()
    wait(browser, ec.presence_of_element_located((By.CSS_SELECTOR, "nav.role-tools")))
    assert browser.current_url.endswith("/fleet/report/")


def test_a_short_link_is_made_copied_and_opens_the_same_build(browser, live_server):
    browser.get(f"{live_server.url}/configure/?start=S3")
    long_link = browser.find_element(By.ID, "permalink").get_attribute("value")
    browser.find_element(By.XPATH, "//button[text()='Make a short link']").click()
    short = wait(browser, ec.visibility_of_element_located((By.ID, "short-link")))
    url = short.get_attribute("value")
    assert url.startswith(f"{live_server.url}/c/") and len(url) < len(long_link) / 4
    copy = browser.find_element(By.CSS_SELECTOR, "button[data-copy=short-link]")
    assert copy.is_displayed()  # shown by the script; without it the field alone is there
    copy.click()
    wait(
        browser,
        ec.text_to_be_present_in_element((By.CSS_SELECTOR, "#share-link .copied"), "Copied"),
    )
    browser.get(url)
    wait(browser, ec.presence_of_element_located((By.ID, "permalink")))
    assert browser.find_element(By.ID, "permalink").get_attribute("value") == long_link
