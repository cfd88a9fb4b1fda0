"""The customer's request in one line on the configurator and the presales lead page: read
into the workload form (every field it set shown and editable, what it could not read said),
without JavaScript and over htmx, in English and Chinese."""

import re
from urllib.parse import parse_qs, urlencode, urlsplit

import pytest
from django.urls import reverse

from configurator.engine.sentence import MAX_SENTENCE
from configurator.quotes.models import Lead
from tests.web.test_configure import page

pytestmark = pytest.mark.django_db

FLAGSHIP = "serve Qwen2.5-72B to 50 users, first token under 1 s"
H20 = "用 H20 部署 DeepSeek-R1，1000 tok/s"
LORA = "7B LoRA 便宜点"


def said(sentence: str) -> str:
    return urlencode({"sentence": sentence})


def input_value(html: str, name: str) -> str:
    tag = re.search(rf'<input id="id_{name}" name="{name}"[^>]*>', html)
    assert tag, name
    value = re.search(r'value="([^"]*)"', tag.group(0))
    return value.group(1) if value else ""


def selected(html: str, name: str) -> str:
    select = re.search(rf'<select id="id_{name}" name="{name}".*?</select>', html, re.S)
    assert select, name
    option = re.search(r'<option value="([^"]*)" selected>', select.group(0))
    return option.group(1) if option else ""


def test_the_sentence_fills_the_form_it_reads_without_javascript(client):
    response, html = page(client, said(FLAGSHIP))
    # Every field it set, shown in the form where it can be changed, marked as read.
    assert input_value(html, "model") == "Qwen2.5-72B"
    assert selected(html, "mode") == "infer"
    assert input_value(html, "concurrent_users") == "50"
    assert input_value(html, "target_ttft_s") == "1"
    assert html.count("from-sentence") == 4
    # Nothing else is filled in as if typed: the defaults stay defaults.
    assert input_value(html, "context_length") == ""
    assert input_value(html, "batch_size") == ""
    # What it read, said back above the form; the sentence stays in its input.
    reading = response.context["sentence"]
    assert [r["name"] for r in reading["reads"]] == [
        "model", "mode", "concurrent_users", "target_ttft_s",
    ]  # fmt: skip
    assert reading["unread"] == [] and reading["notes"] == []
    assert input_value(html, "sentence") == FLAGSHIP
    # It starts the recommender: builds that meet the target, the first one on screen.
    cards = response.context["recommendations"]
    assert cards and all(card["chosen"] == (i == 0) for i, card in enumerate(cards))
    assert response.context["verdict"] == "accept"


def test_over_htmx_the_region_is_swapped_and_the_address_is_the_permalink(client):
    response, html = page(client, said(FLAGSHIP), HTTP_HX_REQUEST="true")
    assert "<html" not in html and 'id="configurator"' in html
    pushed = parse_qs(urlsplit(response["HX-Push-Url"]).query)
    assert pushed["model"] == ["qwen2.5-72b"] and pushed["concurrent_users"] == ["50"]
    assert pushed["target_ttft_s"] == ["1"] and pushed["mode"] == ["infer"]
    assert "sentence" not in pushed
    # The permalink reopens the same workload and build, without the sentence.
    again, _ = page(client, urlsplit(response["HX-Push-Url"]).query)
    assert again.context["permalink"] == response.context["permalink"]


def test_the_page_and_the_api_answer_the_sentence_alike(client):
    response, _ = page(client, said(FLAGSHIP))
    body = {"workload": {"model": "qwen2.5-72b", "mode": "infer", "concurrent_users": 50,
                         "target_ttft_s": 1}, "limit": 3}  # fmt: skip
    api = client.post("/api/v1/recommend", body, content_type="application/json")
    first = api.json()["builds"][0]
    assert first["performance"]["meets_target"] is True
    card = response.context["recommendations"][0]
    assert card["permalink"].startswith(f"cpu={first['build']['cpu']}")
    assert f"gpu={first['build']['gpu']}" in card["permalink"]
    # The card, the build on screen and the API say the same price, time and cost.
    assert card["price"] == response.context["bill"]["monthly_price"]
    assert card["performance"] == response.context["performance"]
    work = dict(card["performance"])
    assert work["Time to first token"] == f"{first['performance']['time_to_first_token_s']:.2f} s"
    assert work["Cost per million output tokens"].endswith(
        f"{first['performance']['cost_per_million_tokens']:.2f}"
    )
    assert work["Time to first token target"] == "met"
    assert f"{first['performance']['cost_per_million_tokens']:.2f}" in card["why"]


def test_a_chinese_sentence_on_the_chinese_page(client):
    response, html = page(client, said(H20), HTTP_ACCEPT_LANGUAGE="zh-hans")
    assert selected(html, "prefer_gpu") == "h20-96g"
    assert input_value(html, "target_tokens_per_s") == "1000"
    assert input_value(html, "model") == "DeepSeek-R1"
    labels = [r["label"] for r in response.context["sentence"]["reads"]]
    assert "模式" in labels and "首选 GPU" in labels
    cards = response.context["recommendations"]
    assert cards and all("H20" in card["gpus"] for card in cards)
    assert "从您的需求读取" in html


def test_chinese_notes_name_modes_and_gpus_in_chinese(client):
    # The mode by its label in the page's language, never the word typed or the value; the
    # GPUs by their names, never the catalog's slugs.
    response, _html = page(
        client, said("deploy 7B，期限 14 天，用 H100"), HTTP_ACCEPT_LANGUAGE="zh-hans"
    )
    notes = response.context["sentence"]["notes"]
    mode = next(note for note in notes if "期限 14 天" in note)
    assert "推理" in mode and "deploy" not in mode and "infer" not in mode
    gpus = next(note for note in notes if "H100" in note)
    assert "NVIDIA H100 80GB SXM5" in gpus and "h100-80g" not in gpus


def test_lora_on_a_budget_is_a_lora_fine_tune_ranked_cheapest(client):
    response, html = page(client, said(LORA), HTTP_ACCEPT_LANGUAGE="zh-hans")
    assert selected(html, "finetune_method") == "lora"
    assert selected(html, "mode") == "finetune"
    assert input_value(html, "model_params_b") == "7"
    (note,) = response.context["sentence"]["notes"]
    assert "便宜点" in note and "预算" in note
    prices = [card["price"] for card in response.context["recommendations"]]
    # 1 × RTX 4090 at CNY 4,040 a month, as the API's `finetune_method: lora` answers.
    assert prices and re.sub(r"\D", "", prices[0]) == "4040"
    assert response.context["recommendations"][0]["gpus"].startswith("1 × ")


def test_what_it_cannot_read_is_said_plainly(client):
    response, html = page(client, said("serve GPT-4 to 1000 users"))
    assert response.context["sentence"]["unread"] == ["GPT-4"]
    assert "Not read:" in html and "<q>GPT-4</q>" in html
    # No model: nothing to recommend, and the form says what is missing, by its field.
    assert 'id="err_model_params_b"' in html
    assert "Correct the workload's fields marked above" in html


def test_a_sentence_over_the_limit_is_refused_by_name(client):
    response, html = page(client, said("7B " * MAX_SENTENCE))
    assert response.context["sentence"]["errors"]
    assert 'id="err_sentence"' in html
    assert response.context["sentence"]["read"] is False


def test_a_change_after_the_sentence_redraws_the_whole_form(client):
    response, _ = page(client, said(FLAGSHIP), HTTP_HX_REQUEST="true")
    state = response.context["form_state"]
    query = f"{urlsplit(response['HX-Push-Url']).query}&form_state={state}"
    changed, html = page(client, query, HTTP_HX_REQUEST="true")
    # The marks of the sentence go with it: the form is redrawn, not only the results.
    assert "HX-Retarget" not in changed
    assert "from-sentence" not in html


@pytest.fixture
def lead(db):
    return Lead.objects.create(
        name="Li Wei", company="Example AI Ltd", email="li@example.com", phone="+86 123456789",
        build={"cpu": "epyc-9754"}, workload={"model_params_b": 70, "mode": "train"},
        permalink="start=S2", monthly_price=100000, verdict="accept", language="en",
    )  # fmt: skip


def test_the_lead_page_starts_from_the_sentence(presales_client, lead):
    url = reverse("web:presales_lead", args=[lead.pk])
    html = presales_client.get(url).content.decode()
    assert re.search(r'<input id="id_sentence"[^>]*autofocus', html)
    response = presales_client.get(f"{url}?{said(FLAGSHIP)}")
    assert response.context["recommendations"]
    assert input_value(response.content.decode(), "concurrent_users") == "50"
    swapped = presales_client.get(f"{url}?{said(FLAGSHIP)}", HTTP_HX_REQUEST="true")
    assert 'id="sentence-reading"' in swapped.content.decode()
    assert urlsplit(swapped["HX-Push-Url"]).path == url
