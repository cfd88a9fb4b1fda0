"""A model by name (api.md "Today's models"): the page's searchable list, its published fields
beside it, the permalink, the API without a size, and the quote that keeps what it filled."""

import json
from decimal import Decimal

import pytest
from django.http import QueryDict

from configurator.inputs import workload_from_input
from configurator.quotes import services as quote_services
from configurator.quotes.workload import workload_text
from configurator.schemas import BuildIn, WorkloadIn
from configurator.web.forms import WorkloadForm
from tests.quotes.conftest import GOOD_BUILD
from tests.web.test_configure import API_EXAMPLE, page

pytestmark = pytest.mark.django_db
QWEN = {"model": "qwen2.5-7b", "mode": "infer", "concurrent_users": 16, "context_length": 32768}


def post(client, url: str, body: dict):
    return client.post(url, json.dumps(body), content_type="application/json")


def test_the_page_lists_every_published_model_in_a_searchable_list(client):
    _, html = page(client, API_EXAMPLE)
    assert 'list="list_model"' in html and '<datalist id="list_model">' in html
    for name in ("Qwen2.5-7B", "DeepSeek-R1", "Mixtral-8x7B"):
        assert name in html


def test_a_picked_model_shows_its_published_fields_beside_it(client):
    _, html = page(client, API_EXAMPLE + "&model=Qwen2.5-7B&mode=infer")
    assert 'value="Qwen2.5-7B"' in html
    assert 'id="facts_model"' in html
    assert "GQA" in html and "4 of 28 heads" in html


def test_a_mixture_of_experts_shows_its_active_parameters_and_experts(client):
    _, html = page(client, API_EXAMPLE + "&model=deepseek-r1&mode=infer")
    assert "671B, 37B active" in html
    assert "256, 8 per token" in html and "MLA" in html


def test_the_published_fields_read_in_chinese(client):
    _, html = page(client, API_EXAMPLE + "&model=qwen3-235b-a22b&mode=infer",
                   HTTP_ACCEPT_LANGUAGE="zh-hans")  # fmt: skip
    assert "参数量" in html and "激活" in html


def test_the_form_takes_the_id_the_name_and_refuses_an_unknown_model():
    for typed in ("qwen2.5-7b", "Qwen2.5-7B", "QWEN2.5-7B"):
        form = WorkloadForm(QueryDict(f"model={typed}&mode=infer"))
        assert form.is_valid(), form.errors
        assert form.workload().workload_input() == {"model": "qwen2.5-7b", "mode": "infer"}
    form = WorkloadForm(QueryDict("model=gpt-9&mode=infer"))
    assert not form.is_valid() and "model" in form.errors


def test_a_mode_without_a_size_or_a_model_is_refused_on_the_size():
    form = WorkloadForm(QueryDict("mode=infer"))
    assert not form.is_valid() and "model_params_b" in form.errors


def test_the_page_and_the_api_judge_a_named_model_alike(client):
    query = API_EXAMPLE + "&" + "&".join(f"{k}={v}" for k, v in QWEN.items())
    shown = page(client, query)[0].context["checks"]
    build = {
        "cpu": "xeon-gold-6530", "cpu_count": 2, "gpu": "a800-80g-sxm", "gpu_count": 8,
        "gpus_per_socket": [4, 4], "memory_gb": 1024, "memory_ecc": True, "psu_watts": 6000,
        "nvlink": True, "numa_binding": True,
    }  # fmt: skip
    api = post(client, "/api/v1/evaluate", {"build": build, "workload": QWEN})
    assert api.status_code == 200, api.content
    assert {c["code"]: c["status"] for c in shown} == {
        c["code"]: c["status"] for c in api.json()["checks"]
    }


def test_the_api_takes_a_model_without_its_size(client):
    response = post(client, "/api/v1/sizing", {"workload": QWEN})
    assert response.status_code == 200, response.content


def test_the_api_refuses_a_workload_with_neither_size_nor_model_naming_the_size(client):
    response = post(client, "/api/v1/sizing", {"workload": {"mode": "infer"}})
    assert response.status_code == 400
    assert list(response.json()["errors"]) == ["workload.model_params_b"]


def test_a_size_given_beside_the_model_wins():
    taken = workload_from_input(WorkloadIn(**QWEN, model_params_b=8))
    assert taken.model_params_b == 8 and taken.kv_heads == 4


def test_the_quote_keeps_the_model_and_the_fields_it_filled(presales):
    quote = quote_services.quote_create(
        owner=presales,
        customer=quote_services.Customer("Li Wei", "", "", ""),
        build=BuildIn.model_validate(GOOD_BUILD),
        workload=WorkloadIn.model_validate(QWEN),
        term_months=12,
        discount_pct=Decimal(0),
    )
    frozen = quote.workload
    assert frozen["model"] == "qwen2.5-7b"
    assert frozen["model_params_b"] == pytest.approx(7.62, abs=0.05)
    assert (frozen["kv_heads"], frozen["attention"], frozen["layers"]) == (4, "gqa", 28)
    text = workload_text(frozen)
    assert "Qwen2.5-7B" in text and "7.6" in text
    # Read back, it is the same engine workload.
    again = workload_from_input(WorkloadIn.model_validate(frozen))
    assert again == workload_from_input(WorkloadIn.model_validate(QWEN))
