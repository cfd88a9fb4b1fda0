"""A mistake in a quote's address, query string or form is a 404 or a 400 naming the field."""

import json

import pytest

from configurator.quotes import selectors
from configurator.quotes.models import Quote
from tests.quotes.test_pages import FORM

pytestmark = pytest.mark.django_db
NUL_NUMBER = "Q-2026-000001%00"


@pytest.mark.parametrize(
    "path",
    [
        f"/quotes/{NUL_NUMBER}/",
        f"/quotes/{NUL_NUMBER}/pdf/",
        f"/api/v1/quotes/{NUL_NUMBER}",
        f"/api/v1/quotes/{NUL_NUMBER}.pdf",
    ],
)
def test_a_quote_number_holding_nul_names_no_quote(presales_client, make_quote, path):
    make_quote()
    assert presales_client.get(path).status_code == 404


def test_a_transition_on_a_number_holding_nul_names_no_quote(presales_client):
    response = presales_client.post(f"/quotes/{NUL_NUMBER}/transition/", {"action": "submit"})
    assert response.status_code == 404
    response = presales_client.post(
        f"/api/v1/quotes/{NUL_NUMBER}/transition",
        {"action": "submit"},
        content_type="application/json",
    )
    assert response.status_code == 404
    assert list(response.json()["errors"]) == ["number"]


@pytest.mark.parametrize("number", ["Q-2026-000001\x00", "x" * 5000, "Q-2026-00000１", ""])
def test_text_that_is_no_quote_number_is_not_sent_to_the_database(
    presales, number, django_assert_num_queries
):
    with django_assert_num_queries(0):
        assert selectors.quote_for(presales, number) is None


@pytest.mark.parametrize("saved_build", ["²", "9" * 5000, "-1", "0", "1e3", "nan"])
def test_a_saved_build_that_is_no_id_is_named(presales_client, saved_build):
    response = presales_client.get("/quotes/new/", {"saved_build": saved_build})
    assert response.status_code == 400
    assert "saved build (saved_build):" in response.content.decode()


def test_a_saved_build_id_is_named_in_chinese(presales_client):
    response = presales_client.get("/quotes/new/?saved_build=²", HTTP_ACCEPT_LANGUAGE="zh-hans")
    assert response.status_code == 400
    assert "已保存配置 (saved_build): 请输入整数，只用数字 0–9。" in response.content.decode()


def post_new(client, **changes):
    return client.post("/quotes/new/", {**FORM, **changes})


@pytest.mark.parametrize(
    ("build", "message"),
    [
        ('{"gpu_count": ' + "9" * 5000 + "}", "A number in the JSON has 5000 characters"),
        ('{"memory_gb": 1' + "0" * 400 + ".5}", "A number in the JSON has 403 characters"),
        ('{"gpu_count": NaN}', "NaN is not a JSON number"),
        ('{"psu_watts": -Infinity}', "-Infinity is not a JSON number"),
        ("[" * 100_000, "The JSON nests lists and objects too deep."),
        ('{"cpu": ', "Not valid JSON"),
    ],
)
def test_a_build_json_the_parser_cannot_take_is_named_and_nothing_saved(
    presales_client, build, message
):
    response = post_new(presales_client, build=build)
    assert response.status_code == 400
    assert message in response.content.decode()
    assert not Quote.objects.exists()


@pytest.mark.parametrize(
    ("name", "value"),
    [
        ("term_months", "9" * 5000),
        ("term_months", "²"),
        ("term_months", "١٢"),
        ("discount_pct", "NaN"),
        ("discount_pct", "1e400"),
        ("discount_pct", "9" * 5000),
        ("saved_build", "²"),
    ],
)
def test_a_number_in_the_quote_form_is_named_beside_its_field(presales_client, name, value):
    response = post_new(presales_client, **{name: value})
    assert response.status_code == 400
    assert name in response.context["form"].errors
    assert not Quote.objects.exists()


def test_a_bad_workload_is_named_in_chinese_on_the_chinese_page(presales_client):
    presales_client.cookies["django_language"] = "zh-hans"
    workload = {"model_params_b": 7, "mode": "train", "attention_heads": 32, "kv_heads": 64}
    response = post_new(presales_client, workload=json.dumps(workload))
    assert response.status_code == 400
    assert response.context["form"].errors["workload"] == [
        "workload.kv_heads: kv_heads（64）不能超过 attention_heads（32）。"
    ]
    assert not Quote.objects.exists()
