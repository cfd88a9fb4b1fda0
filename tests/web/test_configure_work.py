"""The configurator and the presales workspace show time, throughput, cost and monthly loss."""

import pytest

from tests.web.test_configure import API_EXAMPLE, LEGACY, page

pytestmark = pytest.mark.django_db
TRAIN_WORK = "&model_params_b=34&mode=train&batch_size=8&train_tokens=1e10&deadline_days=30"
SERVE_WORK = "&model_params_b=70&mode=infer&target_tokens_per_s=2000"


def test_training_work_shows_days_and_cost_per_run_beside_the_price(client):
    response, html = page(client, API_EXAMPLE + TRAIN_WORK)
    labels = [label for label, _ in response.context["performance"]]
    assert labels[:2] == ["Time to train", "Cost per run"]
    assert 'id="work"' in html and "Cost per run" in html


def test_serving_work_shows_tokens_per_second_first_token_and_cost_per_million(client):
    response, _html = page(client, API_EXAMPLE + SERVE_WORK)
    labels = [label for label, _ in response.context["performance"]]
    assert "Output tokens per second" in labels
    assert "Cost per million output tokens" in labels


def test_work_survives_the_permalink(client):
    response, _ = page(client, API_EXAMPLE + TRAIN_WORK)
    assert "train_tokens=10000000000" in response.context["permalink"]
    assert "deadline_days=30" in response.context["permalink"]


def test_a_failing_pitfall_states_what_it_costs_per_month_on_the_bill(client):
    response, html = page(client, LEGACY)
    p1 = next(c for c in response.context["checks"] if c["code"] == "P1")
    assert p1["monthly_loss"].startswith("CNY ")
    loss = float(p1["monthly_loss"].removeprefix("CNY ").replace(",", ""))
    bill = response.context["bill"]["monthly_price_value"]
    assert loss == pytest.approx(bill * (1 - 0.61 / 0.886), abs=1)
    assert "Costs per month" in html


def test_without_work_the_page_shows_no_figures(client):
    response, html = page(client, API_EXAMPLE)
    assert response.context["performance"] == []
    assert 'id="work"' not in html


def test_recommendation_cards_show_the_works_figures(client):
    response, html = page(client, API_EXAMPLE + SERVE_WORK + "&start=recommend")
    cards = response.context["recommendations"]
    assert cards and all(card["performance"] for card in cards)
    assert "Cost per million output tokens" in html


SERVE_DETAIL = (
    "&model_params_b=70&mode=infer&concurrent_users=16&prompt_tokens=2000&output_tokens=300"
    "&target_ttft_s=5"
)


def test_serving_details_survive_the_permalink_and_reach_the_figures(client):
    response, html = page(client, API_EXAMPLE + SERVE_DETAIL)
    permalink = response.context["permalink"]
    for field in ("concurrent_users=16", "prompt_tokens=2000", "output_tokens=300"):
        assert field in permalink
    assert "target_ttft_s=5" in permalink
    rows = dict(response.context["performance"])
    assert rows["Time to first token target"] == "met"
    shorter, _ = page(client, API_EXAMPLE + SERVE_DETAIL.replace("prompt_tokens=2000", ""))
    assert (
        dict(shorter.context["performance"])["Time to first token"] != rows["Time to first token"]
    )
    missed, _ = page(client, API_EXAMPLE + SERVE_DETAIL.replace("ttft_s=5", "ttft_s=0.001"))
    assert dict(missed.context["performance"])["Time to first token target"] == "missed"
    for name in ("concurrent_users", "prompt_tokens", "output_tokens", "target_ttft_s"):
        assert f'name="{name}"' in html


def test_epochs_and_data_set_train_as_their_product(client):
    by_epochs, html = page(client, API_EXAMPLE + "&model_params_b=7&mode=train"
                           "&epochs=3&dataset_tokens=2e9")  # fmt: skip
    by_tokens, _ = page(client, API_EXAMPLE + "&model_params_b=7&mode=train&train_tokens=6e9")
    assert "epochs=3" in by_epochs.context["permalink"]
    assert "dataset_tokens=2000000000" in by_epochs.context["permalink"]
    assert by_epochs.context["performance"] == by_tokens.context["performance"]
    assert 'name="epochs"' in html and 'name="dataset_tokens"' in html


def test_a_bad_work_field_is_named_beside_it_and_changes_the_form_state(client):
    good, _ = page(client, API_EXAMPLE + SERVE_DETAIL)
    bad, html = page(
        client, API_EXAMPLE + SERVE_DETAIL.replace("target_ttft_s=5", "target_ttft_s=0")
    )
    assert "target_ttft_s" in bad.context["workload_errors"]
    assert 'id="err_target_ttft_s"' in html
    assert bad.context["form_state"] != good.context["form_state"]


def test_the_new_work_fields_are_labelled_in_chinese(client):
    _, html = page(client, API_EXAMPLE + SERVE_DETAIL, HTTP_ACCEPT_LANGUAGE="zh-hans")
    for label in ("Concurrent users", "Prompt tokens per request", "Epochs"):
        assert label not in html
