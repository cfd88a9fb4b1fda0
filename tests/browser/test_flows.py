"""The flows a customer and a presales engineer go through, in a real (headless) browser."""

from __future__ import annotations

import os
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

import pytest
from selenium.common.exceptions import StaleElementReferenceException
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support import expected_conditions as ec
from selenium.webdriver.support.ui import Select, WebDriverWait

from configurator.quotes.models import Lead

# The seed catalog comes from data migrations; keep it across these transactional tests.
pytestmark = pytest.mark.django_db(transaction=True, serialized_rollback=True)

TIMINGS = Path(os.environ.get("BROWSER_TIMINGS", "browser-failures/timings.json"))
WAIT_S = 20


def wait(browser, condition, timeout=WAIT_S):
    ignored = (StaleElementReferenceException,)  # a swap or a page load replaced it: retry
    return WebDriverWait(browser, timeout, ignored_exceptions=ignored).until(condition)


def settled(browser) -> bool:
    return browser.execute_script("return !document.querySelector('.htmx-request')")


def swap(browser, action) -> None:
    """Do something that swaps the configurator, and wait until the new one is in place."""
    old = browser.find_element(By.ID, "configurator")
    action()
    wait(browser, ec.staleness_of(old))
    wait(browser, lambda b: b.find_elements(By.ID, "configurator") and settled(b))


def choose(browser, field: str, value: str) -> None:
    """Pick a value in one of the build's selects, as a person does, and wait for the checks."""
    select = Select(browser.find_element(By.ID, f"id_{field}"))
    if select.first_selected_option.get_attribute("value") != value:
        swap(browser, lambda: select.select_by_value(value))


def type_into(browser, field: str, value: str) -> None:
    """Type a value with the keyboard and leave the field, which re-evaluates the build."""
    element = browser.find_element(By.ID, f"id_{field}")

    def keys():
        element.send_keys(Keys.CONTROL, "a")
        element.send_keys(value, Keys.TAB)

    swap(browser, keys)


def centred(browser, element):
    """Scroll an element to the middle of the window, as a person does before clicking it: the
    summary bar pinned at the top covers what WebDriver scrolls to the very top edge."""
    browser.execute_script("arguments[0].scrollIntoView({block: 'center'})", element)
    return element


def apply_fix(browser, code: str):
    """Return the "Apply fix" link of a check: over htmx it comes after the results, with the
    fixes fragment (`/configure/fixes/`), its text beside it."""
    link = wait(
        browser,
        ec.element_to_be_clickable((By.LINK_TEXT, f"Apply fix for {code}")),
    )
    return centred(browser, link)


def check_status(browser, code: str) -> str:
    classes = browser.find_element(By.ID, f"check-{code}").get_attribute("class")
    return next(c.removeprefix("status-") for c in classes.split() if c.startswith("status-"))


def verdict(browser) -> str:
    return browser.find_element(By.ID, "verdict").text


def pick_legacy_eight_h100(browser, live_server) -> None:
    browser.get(f"{live_server.url}/configure/")
    choose(browser, "platform", "smc-sys-4028gr-tr")
    choose(browser, "gpu", "h100-80g-pcie")
    choose(browser, "gpu_count", "8")


def test_customer_sees_p1_with_its_fix_and_applies_it(browser, live_server):
    pick_legacy_eight_h100(browser, live_server)
    cpu = Select(browser.find_element(By.ID, "id_cpu")).first_selected_option
    assert cpu.get_attribute("value") == "xeon-e5-2680-v4"  # the platform takes no other
    assert check_status(browser, "P1") == "fail"
    p1 = browser.find_element(By.ID, "check-P1").text
    assert "Gen3" in p1 and "Fix:" in p1
    assert verdict(browser).startswith("Rejected")
    live = browser.find_element(By.ID, "summary-bar")  # the live region, with the new verdict
    assert live.get_attribute("aria-live") == "polite"
    assert "Rejected" in live.get_attribute("textContent")
    link = apply_fix(browser, "P1")  # loaded after the results, with the change it makes
    change = browser.find_element(By.CSS_SELECTOR, "#check-P1 .fix-change").text
    assert change.startswith("Change:") and "fix=P1" in link.get_attribute("href")

    swap(browser, lambda: apply_fix(browser, "P1").click())
    assert check_status(browser, "P1") == "pass"
    assert "Applied the fix for P1" in browser.page_source
    assert verdict(browser).startswith("Accepted")
    assert "platform=smc-sys-4028gr-tr" not in browser.current_url  # the URL is the permalink


def test_permalink_reopens_the_build(browser, live_server):
    pick_legacy_eight_h100(browser, live_server)
    permalink = browser.find_element(By.ID, "permalink").get_attribute("value")
    query = parse_qs(urlsplit(permalink).query)
    assert query["gpu"] == ["h100-80g-pcie"] and query["gpu_count"] == ["8"]
    browser.delete_all_cookies()
    browser.get(permalink)
    assert check_status(browser, "P1") == "fail"
    selected = Select(browser.find_element(By.ID, "id_platform")).first_selected_option
    assert selected.get_attribute("value") == "smc-sys-4028gr-tr"


def test_customer_compares_two_builds(browser, live_server):
    pick_legacy_eight_h100(browser, live_server)
    centred(browser, browser.find_element(By.XPATH, "//button[text()='Add to comparison']")).click()
    wait(browser, ec.text_to_be_present_in_element((By.ID, "compare-tray"), "1 build"))
    swap(browser, lambda: apply_fix(browser, "P1").click())
    centred(browser, browser.find_element(By.XPATH, "//button[text()='Add to comparison']")).click()
    wait(browser, ec.text_to_be_present_in_element((By.ID, "compare-tray"), "2 builds"))
    browser.find_element(By.CSS_SELECTOR, "#compare-tray a").click()
    wait(browser, ec.presence_of_element_located((By.CSS_SELECTOR, "table.compare")))
    header = browser.find_elements(By.CSS_SELECTOR, "table.compare thead th")
    assert len(header) == 3  # the row labels and two builds
    verdicts = browser.find_element(By.XPATH, "//tr[th='Verdict']").text
    assert "rejected" in verdicts and "accepted" in verdicts


def test_customer_switches_to_chinese(browser, live_server):
    pick_legacy_eight_h100(browser, live_server)
    browser.find_element(By.CSS_SELECTOR, "button[name=language][value=zh-hans]").click()
    wait(browser, lambda b: b.find_element(By.TAG_NAME, "html").get_attribute("lang") == "zh-hans")
    assert check_status(browser, "P1") == "fail"  # the same build, in Chinese
    p1 = browser.find_element(By.ID, "check-P1").text
    assert "老旧 PCIe 3.0 平台" in p1 and "不通过" in p1 and "修复" in p1
    assert "装在 PCIe Gen3 平台上" in p1  # the detail, with its numbers, in Chinese
    assert "改用 PCIe Gen4/Gen5 平台" in p1  # and the fix
    assert "元" in browser.find_element(By.CSS_SELECTOR, ".price-box .price").text
    browser.get(f"{live_server.url}/configure/")  # the choice is remembered
    assert browser.find_element(By.TAG_NAME, "h1").text == "配置 GPU 服务器"


def test_customer_requests_a_quote(browser, live_server):
    browser.get(f"{live_server.url}/configure/?start=S3")
    # Another memory size redraws only the results: the quote form below keeps its place and
    # is told the new build out of band.
    memory = Select(browser.find_element(By.ID, "id_memory_gb"))
    other = next(o.get_attribute("value") for o in memory.options if not o.is_selected())
    memory.select_by_value(other)
    wait(browser, lambda b: f"memory_gb={other}" in quote_build(b) and settled(b))
    assert f"memory_gb={other}" in browser.find_element(By.ID, "permalink").get_attribute("value")
    centred(browser, browser.find_element(By.CSS_SELECTOR, ".quote-box summary")).click()
    form = {"id_name": "Li Wei", "id_company": "Example AI Ltd", "id_email": "li@example.com",
            "id_phone": "not a phone"}  # fmt: skip
    for field, value in form.items():
        browser.find_element(By.ID, field).send_keys(value)
    browser.find_element(By.XPATH, "//button[text()='Send the request']").click()
    wait(browser, ec.presence_of_element_located((By.ID, "err_phone")))
    assert not Lead.objects.exists()
    phone = browser.find_element(By.ID, "id_phone")
    phone.clear()
    phone.send_keys("+86 10 1234 5678")
    browser.find_element(By.XPATH, "//button[text()='Send the request']").click()
    wait(browser, ec.presence_of_element_located((By.CSS_SELECTOR, "#quote .confirmation")))
    lead = Lead.objects.get()
    assert f"#{lead.pk}" in browser.find_element(By.CSS_SELECTOR, "#quote .confirmation").text
    assert lead.build["gpu"] == "h100-80g-sxm"
    assert lead.build["memory_gb"] == int(other)


def quote_build(browser) -> str:
    return browser.find_element(By.ID, "quote-build").get_attribute("value")


def sign_in(browser, username: str) -> None:
    browser.find_element(By.ID, "id_username").send_keys(username)
    browser.find_element(By.ID, "id_password").send_keys("correct horse battery staple")
    browser.find_element(By.CSS_SELECTOR, "input[type=submit]").click()


def panel_status(browser) -> str:
    return browser.find_element(By.CSS_SELECTOR, "#quote-panel .status").text
