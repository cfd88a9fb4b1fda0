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
