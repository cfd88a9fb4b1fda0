"""The requests of issue 20's "Why", typed as a customer types them, in a real (headless)
browser, in English and in Chinese: the flagship request finds a build that meets its target,
用 H20 部署 DeepSeek-R1 finds H20 builds, LoRA on a budget is a LoRA fine-tune on the cheapest
card, and a target no build meets shows the closest builds and the target that finds one."""

from __future__ import annotations

import re

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support import expected_conditions as ec
from selenium.webdriver.support.ui import Select

from tests.browser.test_flows import settled, swap, type_into, wait

pytestmark = pytest.mark.django_db(transaction=True, serialized_rollback=True)


def open_page(browser, live_server, language: str = "en") -> None:
    browser.get(f"{live_server.url}/configure/")
    if language != "en":
        browser.find_element(By.CSS_SELECTOR, f"button[name=language][value={language}]").click()
        wait(
            browser, lambda b: b.find_element(By.TAG_NAME, "html").get_attribute("lang") == language
        )
    wait(browser, lambda b: b.find_elements(By.ID, "id_sentence") and settled(b))


def ask(browser, sentence: str) -> None:
    """Type the request in its line and press Enter, as a person does."""
    line = browser.find_element(By.ID, "id_sentence")
    line.clear()

    def enter():
        line.send_keys(sentence, Keys.ENTER)

    swap(browser, enter)
    wait(browser, ec.presence_of_element_located((By.ID, "sentence-reading")))


def value(browser, name: str) -> str:
    return browser.find_element(By.ID, f"id_{name}").get_attribute("value")


def picked(browser, name: str) -> str:
    return Select(browser.find_element(By.ID, f"id_{name}")).first_selected_option.get_attribute(
        "value"
    )


def cards(browser) -> list:
    return browser.find_elements(By.CSS_SELECTOR, "#recommendations-list .card")


def accepted(browser) -> bool:
    return "verdict-accept" in browser.find_element(By.ID, "verdict").get_attribute("class")


def work(browser) -> str:
    return browser.find_element(By.ID, "work").text


@pytest.mark.parametrize(
    ("language", "sentence", "met"),
    [
        ("en", "serve Qwen2.5-72B to 50 users, first token under 1 s", "met"),
        ("zh-hans", "Qwen2.5-72B 推理，50 个并发，首字 1 秒以内", "达到"),
    ],
    ids=["en", "zh"],
)
def test_the_flagship_request_finds_a_build_that_meets_its_target(
    browser, live_server, language, sentence, met
):
    open_page(browser, live_server, language)
    ask(browser, sentence)
    # Each field it read is in the form, where it can be changed; the defaults stay empty.
    assert value(browser, "model") == "Qwen2.5-72B"
    assert picked(browser, "mode") == "infer"
    assert value(browser, "concurrent_users") == "50"
    assert value(browser, "target_ttft_s") == "1"
    assert value(browser, "context_length") == "" and value(browser, "batch_size") == ""
    assert len(browser.find_elements(By.CSS_SELECTOR, ".field.from-sentence")) == 4
    # Builds that meet the target, the first on screen, accepted; its figures say so too.
    assert cards(browser) and "chosen" in cards(browser)[0].get_attribute("class")
    assert accepted(browser)
    assert met in work(browser)
    assert not browser.find_elements(By.ID, "no-build")
    # The address bar is the permalink of what was read.
    assert "model=qwen2.5-72b" in browser.current_url and "sentence" not in browser.current_url
    # Changing a field it read redraws the form without the marks; the value is the one typed.
    type_into(browser, "concurrent_users", "80")
    assert not browser.find_elements(By.CSS_SELECTOR, ".field.from-sentence")
    assert value(browser, "concurrent_users") == "80"


def test_h20_deepseek_r1_in_chinese_finds_h20_builds(browser, live_server):
    open_page(browser, live_server, "zh-hans")
    ask(browser, "用 H20 部署 DeepSeek-R1，1000 tok/s")
    reading = browser.find_element(By.ID, "sentence-reading").text
    assert "从您的需求读取" in reading and "NVIDIA H20 96GB" in reading
    assert picked(browser, "prefer_gpu") == "h20-96g"
    assert value(browser, "model") == "DeepSeek-R1"
    assert value(browser, "target_tokens_per_s") == "1000"
    assert cards(browser) and all("H20" in card.text for card in cards(browser))
    assert accepted(browser)


@pytest.mark.parametrize(
    ("language", "sentence"),
    [("en", "fine-tune a 7B with LoRA on a budget"), ("zh-hans", "7B LoRA 便宜点")],
    ids=["en", "zh"],
)
def test_lora_on_a_budget_is_a_lora_fine_tune_on_the_cheapest_card(
    browser, live_server, language, sentence
):
    open_page(browser, live_server, language)
    ask(browser, sentence)
    assert picked(browser, "finetune_method") == "lora"
    assert picked(browser, "mode") == "finetune"
    assert value(browser, "model_params_b") == "7"
    # The cheapest first, said back as the ranking rather than guessed into a budget.
    notes = browser.find_elements(By.CSS_SELECTOR, "#sentence-reading .reading-note")
    assert len(notes) == 1 and value(browser, "budget_monthly") == ""
    first = cards(browser)[0].text
    assert "1 × NVIDIA GeForce RTX 4090 24GB" in first
    assert re.sub(r"\D", "", browser.find_element(By.CSS_SELECTOR, ".card .price").text) == "4040"
    assert accepted(browser)


def test_a_target_no_build_meets_shows_the_closest_and_the_target_that_finds_one(
    browser, live_server
):
    open_page(browser, live_server)
    ask(browser, "serve Qwen2.5-72B to 50 users, first token under 20 ms")
    assert browser.find_element(By.ID, "no-build").text.startswith("No build")
    first = cards(browser)[0]
    misses = first.find_element(By.CSS_SELECTOR, ".misses").text
    assert "against 0.02 s" in misses
    assert accepted(browser)  # the closest build is on screen, accepted
    assert "missed" in work(browser)  # and says it misses the target
    link = first.find_element(By.CSS_SELECTOR, ".misses a")
    swap(browser, link.click)
    assert not browser.find_elements(By.ID, "no-build")
    assert cards(browser) and accepted(browser)
    assert "Time to first token target\nmet" in work(browser)
