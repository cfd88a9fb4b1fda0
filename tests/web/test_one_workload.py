"""One workload: the page's form, its permalink, the API's schema and the quote read the same
workload from one declaration (`engine.build.Workload`), and a default not typed is not shown
as typed."""

import json
from decimal import Decimal
from pathlib import Path

import pytest
from django.http import QueryDict

from configurator.engine.build import Workload
from configurator.engine.fields import declarations
from configurator.inputs import workload_from_input, workload_frozen
from configurator.quotes import services as quote_services
from configurator.schemas import BuildIn, WorkloadIn
from configurator.web.configuration import WORKLOAD_FIELDS, WorkloadChoice, query_value
from configurator.web.forms import WorkloadForm
from configurator.web.reading import read_query
from configurator.web.services import permalink_query
from tests.quotes.conftest import GOOD_BUILD
from tests.web.test_configure import API_EXAMPLE, page

pytestmark = pytest.mark.django_db
CONTRACT = Path(__file__).parent.parent / "fixtures" / "workload_in_openapi.json"

SERVING = {
    "model_params_b": 72,
    "mode": "infer",
    "concurrent_users": 50,
    "prompt_tokens": 512,
    "output_tokens": 256,
    "target_ttft_s": 2,
    "target_tokens_per_s": 2000,
}
# A whole server (a quote names its platform), as the API and the permalink write it.
EVALUATE_BUILD = GOOD_BUILD
BUILD_QUERY = "&".join(f"{name}={query_value(value)}" for name, value in GOOD_BUILD.items())
TYPED = [
    SERVING,
    {"model_params_b": 13, "mode": "finetune", "batch_size": 4, "precision": "fp16"},
    {"model_params_b": 34, "mode": "train", "train_tokens": 1e10, "deadline_days": 30},
    {"model_params_b": 7, "mode": "infer", "context_length": 8192, "target_tokens_per_s": 500},
    # A model by name, no size: its published shape fills it (api.md "Today's models").
    {"model": "qwen2.5-7b", "mode": "infer", "concurrent_users": 16, "context_length": 32768},
]


@pytest.fixture
def post_json(client):
    def post(url: str, body):
        return client.post(url, json.dumps(body), content_type="application/json")

    return post


def _query(workload: dict) -> str:
    return BUILD_QUERY + "&" + "&".join(f"{k}={v}" for k, v in workload.items())


@pytest.mark.parametrize(
    "typed", TYPED, ids=lambda w: f"{w.get('model_params_b') or w['model']}-{w['mode']}"
)
def test_the_form_the_permalink_the_api_and_the_quote_read_the_same_workload(
    typed, presales, client, post_json
):
    body = json.loads(json.dumps(typed))
    form = WorkloadForm(QueryDict(_query(typed)))
    assert form.is_valid(), form.errors
    choice = form.workload()
    assert choice.workload_input() == body  # what was typed, nothing filled in
    from_page = workload_from_input(WorkloadIn(**choice.workload_input()))
    from_api = workload_from_input(WorkloadIn.model_validate(body))
    assert from_page == from_api
    # The permalink reopens exactly the workload typed.
    config = read_query(QueryDict(_query(typed))).config
    assert read_query(QueryDict(permalink_query(config, choice))).workload == choice
    # The quote freezes the whole workload; read back, it is the same engine workload.
    quote = quote_services.quote_create(
        owner=presales,
        customer=quote_services.Customer("Li Wei", "", "", ""),
        build=BuildIn.model_validate(EVALUATE_BUILD),
        workload=WorkloadIn.model_validate(body),
        term_months=12,
        discount_pct=Decimal(0),
    )
    assert workload_from_input(WorkloadIn.model_validate(quote.workload)) == from_api
    assert {k: quote.workload[k] for k in body} == body
    # The API and the page judge it alike: the same checks with the same results.
    api = post_json("/api/v1/evaluate", {"build": EVALUATE_BUILD, "workload": body}).json()
    shown = page(client, _query(typed))[0].context["checks"]
    assert {c["code"]: c["status"] for c in shown} == {
        c["code"]: c["status"] for c in api["checks"]
    }
    frozen = {c["code"]: c["status"] for c in quote.evaluation["checks"]}
    assert frozen == {c["code"]: c["status"] for c in api["checks"]}


def test_every_declared_field_is_in_the_api_schema_with_its_bounds_and_default():
    properties = WorkloadIn.model_json_schema()["properties"]
    for field in declarations(Workload):
        schema = properties[field.name]
        kinds = schema.get("anyOf", [schema])[0]
        assert kinds.get("maximum") == field.spec.le, field.name
        assert kinds.get("minimum") == field.spec.ge, field.name
        assert kinds.get("exclusiveMinimum") == field.spec.gt, field.name
        assert schema.get("default") == field.stated_default, field.name
    assert list(properties) == [field.name for field in declarations(Workload)]


def test_the_api_schema_keeps_the_contract_byte_for_byte():
    """Every workload field of the contract keeps its OpenAPI text (name, bounds, default,
    description) and its place; a field added to the declaration is added, never one dropped
    (api.md: add freely, never rename or drop)."""
    from configurator.api import api

    schema = api.get_openapi_schema(path_prefix="")["components"]["schemas"]["WorkloadIn"]
    contract = json.loads(CONTRACT.read_text())
    properties = schema["properties"]
    for name, text in contract["properties"].items():
        assert json.dumps(properties[name]) == json.dumps(text), name
    assert [name for name in properties if name in contract["properties"]] == list(
        contract["properties"]
    )
    assert schema["required"] == contract["required"]
    rest = {k: v for k, v in schema.items() if k != "properties"}
    assert rest == {k: v for k, v in contract.items() if k != "properties"}


def test_the_form_refuses_what_the_api_refuses_at_each_bound():
    for field in declarations(Workload):
        if field.spec.kind not in ("int", "float") or not field.spec.page:
            continue
        low = field.spec.gt if field.spec.gt is not None else field.spec.ge - 1
        form = WorkloadForm(QueryDict(f"model_params_b=7&mode=infer&{field.name}={low:g}"))
        assert field.name in form.errors, field.name


def test_fifty_users_are_the_serving_batch_and_p8_does_not_say_batch_1(client, post_json):
    workload = {"model_params_b": 70, "mode": "infer", "concurrent_users": 50}
    api = post_json("/api/v1/evaluate", {"build": EVALUATE_BUILD, "workload": workload}).json()
    p8 = next(c for c in api["checks"] if c["code"] == "P8")
    assert "at batch 1" not in p8["detail"] and "batch 50" in p8["detail"]
    response, html = page(client, _query(workload))
    shown = next(c for c in response.context["checks"] if c["code"] == "P8")
    assert "at batch 1" not in shown["detail"] and "batch 50" in shown["detail"]
    assert "at batch 1" not in html


def test_a_workload_without_batch_or_context_fills_neither_in(client):
    response, html = page(client, API_EXAMPLE + "&model_params_b=70&mode=infer")
    inputs = {f["name"]: f for f in response.context["workload_inputs"]}
    assert inputs["batch_size"]["value"] == "" and inputs["context_length"]["value"] == ""
    assert inputs["batch_size"]["placeholder"] == "default: 1"
    assert inputs["context_length"]["placeholder"] == "default: 2048 tokens"
    precision = inputs["precision"]["options"]
    assert precision[0] == ("", "default: bf16", True)
    assert (
        'name="batch_size" type="number" min="1" max="65536" placeholder="default: 1" value=""'
        in (html)
    )
    permalink = response.context["permalink"]
    assert "batch_size" not in permalink and "context_length" not in permalink
    assert "precision" not in permalink


def test_the_default_shown_follows_what_was_typed(client):
    response, _html = page(client, _query(SERVING))
    inputs = {f["name"]: f for f in response.context["workload_inputs"]}
    assert inputs["batch_size"]["placeholder"] == "default: 50"  # the users
    assert inputs["context_length"]["placeholder"] == "default: 768 tokens"  # 512 + 256
    assert inputs["concurrent_users"]["value"] == "50"


def test_a_workload_choice_holds_only_what_was_typed():
    choice = WorkloadChoice(model_params_b=70, mode="infer", concurrent_users=50)
    assert choice.batch_size is None and choice.context_length is None
    assert choice.workload_input() == {
        "model_params_b": 70,
        "mode": "infer",
        "concurrent_users": 50,
    }
    assert set(WORKLOAD_FIELDS) <= {f.name for f in declarations(Workload)}


def test_the_quote_freezes_the_batch_the_engine_served():
    frozen = workload_frozen(WorkloadIn.model_validate(SERVING))
    assert frozen["batch_size"] == 50 and frozen["context_length"] == 768
    assert frozen["target_ttft_s"] == 2 and frozen["target_tokens_per_s"] == 2000
    assert set(frozen) == {f.name for f in declarations(Workload)}  # the whole workload
