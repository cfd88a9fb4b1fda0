"""From a lead to the customer's PDF in real (headless) browsers, with the hands-on time of it.

A presales engineer, an architect and the customer each do their part, the way a person does
it: a click is a click on what the page shows (the architect finds the review queue from the
header), text is typed key by key, a sign-in is typed and sent with Enter. `Hands` counts the
clicks and keys and estimates the time a person's hands and attention take by the
Keystroke-Level Model; the pages' answers are timed as they come. The figures go to
`BROWSER_TIMINGS` (browser-failures/timings.json) and docs/benchmarks.md.
"""

from __future__ import annotations

import json
import os
import time
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from django.contrib.auth.models import Group
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support import expected_conditions as ec

from configurator.quotes import views as quote_views
from configurator.quotes.models import Lead, LeadBuild, Quote
from configurator.roles import ARCHITECTS, PRESALES
from tests.browser.conftest import make_driver
from tests.browser.test_flows import WAIT_S, panel_status, settled, wait
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db(transaction=True, serialized_rollback=True)

TIMINGS = Path(os.environ.get("BROWSER_TIMINGS", "browser-failures/timings.json"))
PASSWORD = "correct horse battery staple"
# The Keystroke-Level Model's operators (Card, Moran & Newell, "The keystroke-level model for
# user performance time with interactive systems", CACM 23(7), 1980; Kieras, "Using the
# Keystroke-Level Model to Estimate Execution Times", 2001), in seconds.
K = 0.28  # a keystroke, average non-secretary typist (40 words a minute)
P = 1.10  # point the mouse at a target
BB = 0.20  # press and release the mouse button
H = 0.40  # move a hand between mouse and keyboard
M = 1.35  # prepare mentally for the next action (Kieras' rules: before each click or string)


@dataclass
class Hands:
    """One person's clicks and keys, and the time they take by the Keystroke-Level Model,
    beside the time spent waiting for the pages (measured)."""

    clicks: int = 0
    keys: int = 0
    model_s: float = 0.0
    waiting_s: float = 0.0
    on: str = "mouse"
    steps: list[str] = field(default_factory=list)

    def _home(self, device: str) -> None:
        if self.on != device:
            self.model_s += H
            self.on = device

    def click(self, element, what: str) -> None:
        self._home("mouse")
        self.model_s += M + P + BB
        self.clicks += 1
        self.steps.append(f"click {what}")
        element.click()

    def type(self, element, text: str, what: str, *, then: str = "") -> None:
        """Type `text` into the focused `element`, then a key (Tab, Enter) when given."""
        self._home("keyboard")
        presses = len(text) + (1 if then else 0)
        self.model_s += M + K * presses
        self.keys += presses
        self.steps.append(f"type {what}")
        element.send_keys(text + then)

    def wait(self, browser, condition) -> None:
        started = time.perf_counter()
        wait(browser, condition)
        self.waiting_s += time.perf_counter() - started

    def figures(self) -> dict[str, object]:
        return {
            "clicks": self.clicks,
            "keys": self.keys,
            "model_s": round(self.model_s, 1),
            "waiting_s": round(self.waiting_s, 1),
            "hands_on_s": round(self.model_s + self.waiting_s, 1),
            "steps": self.steps,
        }


def sign_in_with_keys(browser, hands: Hands, username: str) -> None:
    """The sign-in page focuses the name: type it, Tab, the password, Enter."""
    hands.type(browser.switch_to.active_element, username, "user name", then=Keys.TAB)
    hands.type(browser.switch_to.active_element, PASSWORD, "password", then=Keys.ENTER)


def link(browser, text: str):
    return wait(browser, ec.element_to_be_clickable((By.LINK_TEXT, text)))


def button(browser, text: str):
    return wait(browser, ec.element_to_be_clickable((By.XPATH, f"//button[text()='{text}']")))


def test_from_a_lead_to_the_customers_pdf_in_at_most_15_clicks(
    browser, live_server, tmp_path, monkeypatch
):
    """The guide's reviewed plan: a lead → its build saved → a quote submitted → approved →
    issued → the customer's PDF, within 3 minutes of hands-on time and 15 clicks."""
    monkeypatch.setattr(quote_views, "STATUS_POLL_S", 1)  # the panel asks every second here
    lead = Lead.objects.create(
        name="Li Wei", company="Example AI Ltd", email="li@example.com", phone="+86 10 1234 5678",
        build={"gpu": "l20"}, permalink="start=S1", monthly_price=1, verdict="accept",
        language="en",
    )  # fmt: skip
    UserFactory(username="bob", is_staff=True).groups.add(Group.objects.get(name=PRESALES))
    UserFactory(username="ada", is_staff=True).groups.add(Group.objects.get(name=ARCHITECTS))
    presales, architect, customer = Hands(), Hands(), Hands()
    started = time.perf_counter()

    # Presales: the inbox, the lead, the customer's request in one line, the build saved.
    browser.get(f"{live_server.url}/presales/")
    sign_in_with_keys(browser, presales, "bob")
    presales.wait(browser, ec.presence_of_element_located((By.ID, "leads")))
    presales.click(link(browser, "Example AI Ltd"), "the lead")
    presales.wait(browser, ec.presence_of_element_located((By.ID, "id_sentence")))
    sentence = browser.switch_to.active_element
    assert sentence.get_attribute("id") == "id_sentence"  # the request line has the focus
    old = browser.find_element(By.ID, "configurator")
    presales.type(sentence, "train a 70B model, batch 64", "the request", then=Keys.ENTER)
    presales.wait(browser, ec.staleness_of(old))
    presales.wait(
        browser, lambda b: b.find_elements(By.CSS_SELECTOR, ".cards .card") and settled(b)
    )
    assert browser.find_element(By.ID, "verdict").text.startswith("Accepted")
    presales.click(browser.find_element(By.ID, "id_note"), "the note")
    presales.type(browser.switch_to.active_element, "70B training, batch 64.", "the note")
    presales.click(button(browser, "Save to lead"), "Save to lead")
    presales.wait(browser, ec.text_to_be_present_in_element((By.ID, "saved"), "Saved to the lead."))
    presales.click(link(browser, "Write a quote from this build"), "Write a quote")
    presales.click(button(browser, "Create and submit for review"), "Create and submit")
    presales.wait(
        browser, lambda b: b.find_elements(By.ID, "quote-panel") and panel_status(b) == "submitted"
    )
    quote = Quote.objects.get(saved_build=LeadBuild.objects.get(lead=lead))
    assert quote.lead == lead and quote.workload["model_params_b"] == 70

    # The architect finds the review queue from the header and approves.
    second = make_driver()
    try:
        second.get(f"{live_server.url}/")
        architect.click(link(second, "Log in"), "Log in")
        architect.wait(second, ec.presence_of_element_located((By.ID, "id_username")))
        sign_in_with_keys(second, architect, "ada")
        architect.click(link(second, "Review queue"), "Review queue in the header")
        card = wait(second, ec.presence_of_element_located((By.ID, f"review-{quote.number}")))
        assert "Against the scenario recipes" in card.text
        architect.click(card.find_element(By.XPATH, ".//button[@value='approve']"), "Approve")
        architect.wait(second, lambda b: not b.find_elements(By.ID, f"review-{quote.number}"))
    finally:
        second.quit()

    # Presales: the panel shows the approval by itself; issue, copy the customer's link.
    presales.wait(browser, lambda b: panel_status(b) == "approved")
    presales.click(browser.find_element(By.XPATH, "//button[@value='issue']"), "Issue")
    presales.wait(browser, lambda b: panel_status(b) == "issued")
    customer_link = browser.find_element(By.ID, "customer-link").get_attribute("value")
    presales.click(browser.find_element(By.CSS_SELECTOR, "button[data-copy=customer-link]"), "Copy")
    presales.wait(
        browser,
        ec.text_to_be_present_in_element((By.CSS_SELECTOR, "#quote-panel .copied"), "Copied"),
    )

    # The customer opens the link from the e-mail and downloads the PDF.
    third = make_driver()
    try:
        third.execute_cdp_cmd(
            "Browser.setDownloadBehavior", {"behavior": "allow", "downloadPath": str(tmp_path)}
        )
        customer.clicks += 1  # the link in the e-mail
        customer.model_s += M + P + BB
        customer.steps.append("click the link in the e-mail")
        third.get(customer_link)
        assert quote.number in third.find_element(By.TAG_NAME, "h1").text
        customer.click(link(third, "Download the PDF"), "Download the PDF")
        pdf = tmp_path / f"{quote.number}.pdf"
        customer.wait(third, lambda _: pdf.exists() and pdf.stat().st_size > 0)
    finally:
        third.quit()
    assert pdf.read_bytes().startswith(b"%PDF")
    quote.refresh_from_db()
    lead.refresh_from_db()
    assert quote.status == "issued" and lead.status == Lead.Status.QUOTED

    people = {"presales": presales, "architect": architect, "customer": customer}
    figures = {name: hands.figures() for name, hands in people.items()}
    clicks = sum(hands.clicks for hands in people.values())
    hands_on_s = sum(hands.model_s + hands.waiting_s for hands in people.values())
    figures |= {
        "clicks": clicks,
        "keys": sum(hands.keys for hands in people.values()),
        "hands_on_s": round(hands_on_s, 1),
        "machine_s": round(time.perf_counter() - started, 1),
    }
    TIMINGS.parent.mkdir(parents=True, exist_ok=True)
    TIMINGS.write_text(json.dumps(figures, indent=1))
    print(f"lead to PDF: {json.dumps(figures)}")
    assert clicks <= 15, figures
    assert hands_on_s <= 180, figures
    assert WAIT_S  # each wait above gives up after WAIT_S seconds
