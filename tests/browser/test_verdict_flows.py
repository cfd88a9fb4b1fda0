"""The verdict stays in view and the keyboard reaches the first fix (issue 20, items 4 and 7).

In a real (headless) browser: after a change of memory, at 1400 px and at 390 px, the summary
bar (verdict, score, price, watts) is inside the window; a rejected build's score is drawn
and worded as rejected; the skip link takes the focus and moves it to the results, from which
the first "Apply fix" is a few Tabs away.
"""

from __future__ import annotations

import pytest
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support import expected_conditions as ec
from selenium.webdriver.support.ui import Select

from tests.browser.test_flows import settled, wait

pytestmark = pytest.mark.django_db(transaction=True, serialized_rollback=True)

# The build: 8 GPUs on one socket with non-ECC memory.
ONE_SOCKET_NON_ECC = (
    "cpu=epyc-9754&gpu=h100-80g-sxm&gpu_count=8&cpu_count=1&gpus_per_socket=8&memory_ecc=false"
)
LEGACY = "platform=smc-sys-4028gr-tr&gpu=h100-80g-pcie&gpu_count=8"
BAD = "179, 38, 30"  # --bad in site.css, as rgb() or rgba()


def in_view(browser, element_id: str) -> bool:
    """Whether the element is drawn wholly inside the window (not scrolled away)."""
    return browser.execute_script(
        "const r = document.getElementById(arguments[0]).getBoundingClientRect();"
        "return r.height > 0 && r.top >= 0 && r.bottom <= window.innerHeight"
        " && r.left >= 0 && r.right <= document.documentElement.clientWidth;",
        element_id,
    )


def change_memory(browser) -> None:
    """Scroll to the memory select, as a person does, and pick another size."""
    select = browser.find_element(By.ID, "id_memory_gb")
    browser.execute_script("arguments[0].scrollIntoView({block: 'center'})", select)
    values = [o.get_attribute("value") for o in select.find_elements(By.TAG_NAME, "option")]
    current = Select(select).first_selected_option.get_attribute("value")
    results = browser.find_element(By.ID, "results")  # a memory change redraws the results
    Select(select).select_by_value(next(v for v in values if v and v != current))
    wait(browser, ec.staleness_of(results))
    wait(browser, lambda b: b.find_elements(By.ID, "results") and settled(b))


@pytest.mark.parametrize(("width", "height"), [(1400, 1000), (390, 844)], ids=["desktop", "phone"])
def test_the_summary_bar_stays_in_view_after_a_change(browser, live_server, width, height):
    browser.set_window_size(width, height)
    browser.get(f"{live_server.url}/configure/?{ONE_SOCKET_NON_ECC}")
    change_memory(browser)
    scrolled = browser.execute_script("return window.scrollY")
    assert scrolled > 300  # the memory select is far down the page: the bar had to follow
    assert in_view(browser, "summary-bar")
    bar = browser.find_element(By.ID, "summary-bar").text
    assert "Rejected" in bar and "per month" in bar and "W drawn" in bar
    assert "Balance score" in bar
    # Pinned, not a block the page scrolls past.
    position = browser.execute_script(
        "return getComputedStyle(document.getElementById('summary-bar')).position"
    )
    assert position == "sticky"
    assert browser.execute_script("return document.documentElement.scrollWidth") <= width


def test_a_rejected_builds_score_is_drawn_and_worded_as_rejected(browser, live_server):
    browser.get(f"{live_server.url}/configure/?{ONE_SOCKET_NON_ECC}")
    score = browser.find_element(By.ID, "summary-score")
    assert "rejected" in score.text
    number = score.find_element(By.TAG_NAME, "strong")
    assert BAD in number.value_of_css_property("color")
    arc = browser.find_element(By.CSS_SELECTOR, ".gauge .gauge-value")
    assert BAD in arc.value_of_css_property("stroke")
    assert "rejected" in browser.find_element(By.ID, "gauge-caption").text


def test_the_skip_link_takes_the_focus_and_leads_to_the_first_fix_in_ten_tabs(browser, live_server):
    browser.get(f"{live_server.url}/configure/?{LEGACY}")
    wait(browser, lambda b: b.find_elements(By.CSS_SELECTOR, "a.apply-fix"))
    keys = ActionChains(browser)
    keys.send_keys(Keys.TAB).perform()
    tabs = 1
    focused = browser.switch_to.active_element
    assert "skip-link" in focused.get_attribute("class")
    assert focused.is_displayed()
    assert browser.execute_script(
        "const r = document.activeElement.getBoundingClientRect();"
        "return r.top >= 0 && r.bottom <= window.innerHeight && r.width > 1"
    )  # seen when it has the focus
    keys.send_keys(Keys.ENTER).perform()
    wait(browser, lambda b: b.switch_to.active_element.get_attribute("id") == "results")
    while "apply-fix" not in (browser.switch_to.active_element.get_attribute("class") or ""):
        keys.send_keys(Keys.TAB).perform()
        tabs += 1
        assert tabs <= 10, browser.switch_to.active_element.get_attribute("outerHTML")[:200]
    assert browser.switch_to.active_element.text.startswith("Apply fix for")
    print(f"first Apply fix after {tabs} Tabs")
