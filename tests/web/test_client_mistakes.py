"""A mistake in the configurator's query string or forms is named beside its field, never a 500."""

import re

import pytest
from django.core.cache import cache
from django.urls import reverse
from django.utils import translation

from configurator.quotes.models import Lead, LeadBuild
from tests.web.test_leads import BUILD, CUSTOMER

pytestmark = pytest.mark.django_db

# Switched from training to inference with the training fields still filled in.
SWITCHED = "start=recommend&model_params_b=7&mode=infer&train_tokens=1e9&deadline_days=3"


@pytest.fixture(autouse=True)
def fresh_throttle():
    cache.clear()


def field_errors(html: str, name: str) -> list[str]:
    return re.findall(rf'<span class="error" id="err_{name}">([^<]*)</span>', html)


def configure(client, query: str, **headers) -> str:
    response = client.get(f"/configure/?{query}", **headers)
    assert response.status_code == 200, response.content[:500]
    return response.content.decode()


@pytest.mark.parametrize("htmx", [{}, {"HTTP_HX_REQUEST": "true"}])
def test_recommend_after_switching_mode_names_the_other_modes_fields(client, htmx):
    html = configure(client, SWITCHED, **htmx)
    assert field_errors(html, "train_tokens") == [
        "Only for training and fine-tuning; mode is &#x27;infer&#x27;."
    ]
    assert field_errors(html, "deadline_days")
    assert "Correct the workload's fields marked above to get a recommendation." in html


def test_the_switched_workload_is_named_in_chinese(client):
    html = configure(client, SWITCHED, HTTP_ACCEPT_LANGUAGE="zh-hans")
    chinese = "仅用于训练和微调；当前模式为 &#x27;infer&#x27;。"
    assert field_errors(html, "train_tokens") == [chinese]


def test_the_page_names_the_field_the_api_names_for_the_same_workload(client):
    workload = {"model_params_b": 7, "mode": "infer", "train_tokens": 1e9}
    api = client.post("/api/v1/recommend", {"workload": workload}, content_type="application/json")
    assert api.status_code == 400
    assert list(api.json()["errors"]) == ["workload.train_tokens"]
    response = client.get("/configure/", {"start": "recommend", **workload})
    assert list(response.context["workload_errors"]) == ["train_tokens"]


def test_an_unknown_preferred_gpu_is_named_beside_its_field(client):
    html = configure(client, "start=recommend&model_params_b=7&mode=train&prefer_gpu=voodoo-2")
    assert field_errors(html, "prefer_gpu") == ["Unknown GPU &#x27;voodoo-2&#x27;."]


@pytest.mark.parametrize("pick", ["²", "-1", "3", "1e400", "9" * 5000])
def test_a_bad_pick_is_named_and_the_first_build_shown(client, pick):
    response = client.get(
        "/configure/", {"start": "recommend", "model_params_b": "7", "mode": "infer", "pick": pick}
    )
    assert response.status_code == 200
    html = response.content.decode()
    assert "Recommended build (pick):" in html
    assert response.context["recommendations"][0]["chosen"]


@pytest.mark.parametrize(
    "value",
    [
        "9" * 5000,  # int() raises ValueError past 4,300 digits
        "²",  # str.isdigit() says yes, int() says no
        "８",  # a full-width digit: int() reads it, a person rarely means it
        "٨",  # Arabic-Indic eight
        "1_000",
        "1e400",
        "nan",
        "inf",
        "-0x10",
    ],
)
@pytest.mark.parametrize("name", ["gpu_count", "memory_gb", "batch_size", "model_params_b"])
def test_a_number_that_is_not_plain_digits_is_named_beside_its_field(client, name, value):
    query = f"model_params_b=7&mode=train&{name}={value}"
    html = configure(client, query)
    assert field_errors(html, name), name


@pytest.mark.parametrize(
    ("value", "message"),
    [
        ("9" * 40, "Enter a number of at most 32 characters."),
        ("²", "Enter a whole number, in the digits 0–9."),
    ],
)
def test_the_number_messages_speak_chinese(value, message):
    from configurator.web.forms import ConfigurationForm

    form = ConfigurationForm({"gpu_count": value})
    assert form.errors["gpu_count"] == [message]
    with translation.override("zh-hans"):
        chinese = ConfigurationForm({"gpu_count": value}).errors["gpu_count"][0]
    assert chinese != message and re.search(r"[\u4e00-\u9fff]", chinese)


def test_a_quote_request_with_a_broken_build_names_the_field_and_saves_nothing(client):
    build = BUILD.replace("gpu_count=8", "gpu_count=" + "9" * 5000)
    response = client.post(reverse("web:quote"), {**CUSTOMER, "build": build})
    assert response.status_code == 400
    html = response.content.decode()
    assert 'id="err_build"' in html
    assert "GPUs per node (gpu_count): Enter a number of at most 32 characters." in html
    assert not Lead.objects.exists()


def test_a_quote_request_for_the_switched_workload_names_the_field(client):
    build = BUILD.replace("mode=train", "mode=infer") + "&train_tokens=1e9"
    response = client.post(reverse("web:quote"), {**CUSTOMER, "build": build})
    assert response.status_code == 400
    assert "Tokens to train on (train_tokens): Only for training" in response.content.decode()
    assert not Lead.objects.exists()


def test_saving_a_broken_build_to_a_lead_names_the_field_and_saves_nothing(presales_client):
    presales_client.post(reverse("web:quote"), CUSTOMER)  # the customer's request: a lead
    url = reverse("web:presales_lead_save", args=[Lead.objects.get().pk])
    response = presales_client.post(url, {"build": BUILD + "&memory_gb=²", "note": "x"})
    assert response.status_code == 400
    assert "System memory (GB) (memory_gb): Enter a whole number" in response.content.decode()
    assert not LeadBuild.objects.exists()
