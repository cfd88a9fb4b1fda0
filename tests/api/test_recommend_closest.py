"""POST /api/v1/recommend when no build meets the workload's targets or budget: the closest
builds (additive, `closest`), what each misses, and the target that makes it pass — a target
the recommender then meets (docs/recommender.md, "Closest builds")."""

import json

import pytest

pytestmark = pytest.mark.django_db
URL = "/api/v1/recommend"
# A first token in 20 ms for 50 users of Qwen2.5-72B: no GPU of the catalog gives it.
TOO_SOON = {"model": "qwen2.5-72b", "mode": "infer", "concurrent_users": 50, "target_ttft_s": 0.02}
# A 7B LoRA fine-tune for CNY 3,000 a month: the cheapest build rents for 4,040.
LORA_3000 = {"model_params_b": 7, "mode": "finetune", "finetune_method": "lora",
             "budget_monthly": 3000}  # fmt: skip
# 70B on 10T tokens in a week: 512 H800s take 266 days.
TOO_FAST = {"model_params_b": 70, "mode": "train", "train_tokens": 1e13, "deadline_days": 7}


def post(client, url: str, body: dict, **headers) -> dict:
    response = client.post(url, json.dumps(body), content_type="application/json", **headers)
    assert response.status_code == 200, response.content[:800]
    return response.json()


def recommend(client, workload: dict, **headers) -> dict:
    return post(client, URL, {"workload": workload, "limit": 3}, **headers)


@pytest.mark.parametrize(
    "workload", [TOO_SOON, LORA_3000, TOO_FAST], ids=["ttft", "budget", "deadline"]
)
def test_each_closest_build_says_what_it_misses_and_meets_what_it_says(client, workload):
    answer = recommend(client, workload)
    assert answer["builds"] == [] and answer["reason"]
    closest = answer["closest"]
    assert 1 <= len(closest) <= 3
    assert len({item["build"]["gpu"] for item in closest}) == len(closest)  # one per GPU
    for item in closest:
        assert item["misses"], item["build"]
        for miss in item["misses"]:
            assert miss["target"] == workload[miss["field"]]
            larger_is_better = miss["field"] == "target_tokens_per_s"
            if larger_is_better:
                assert miss["value"] < miss["target"] and miss["passes_with"] <= miss["value"]
            else:
                assert miss["value"] > miss["target"] and miss["passes_with"] >= miss["value"]
            assert miss["text"]
        # The build is one /evaluate accepts, with the figures the misses quote.
        evaluated = post(client, "/api/v1/evaluate",
                         {"build": _as_input(item["build"]), "workload": workload})  # fmt: skip
        assert evaluated["verdict"] == "accept"
        assert evaluated["monthly_price"] == item["monthly_price"]
        for miss in item["misses"]:
            if miss["field"] == "target_ttft_s":
                assert evaluated["performance"]["time_to_first_token_s"] == pytest.approx(
                    miss["value"], rel=1e-3
                )
            if miss["field"] == "deadline_days":
                assert evaluated["performance"]["time_to_train_days"] == pytest.approx(
                    miss["value"], rel=1e-3
                )
    # Asked again with the target the closest build meets, the recommender finds builds.
    first = closest[0]
    relaxed = {**workload, **{m["field"]: m["passes_with"] for m in first["misses"]}}
    again = recommend(client, relaxed)
    assert again["builds"] and again["closest"] == []


def test_over_the_budget_the_cheapest_accepted_build_comes_first(client):
    answer = recommend(client, LORA_3000)
    assert "3,000" in answer["reason"] and "4,040" in answer["reason"]
    # What the reason names is what it is: the cheapest of the closest accepted builds.
    assert "of the closest accepted builds, the cheapest" in answer["reason"]
    first = answer["closest"][0]
    assert (first["build"]["gpu"], first["build"]["gpu_count"]) == ("rtx-4090", 1)
    (miss,) = first["misses"]
    assert (miss["field"], miss["value"], miss["passes_with"]) == ("budget_monthly", 4040, 4100)
    within = recommend(client, {**LORA_3000, "budget_monthly": 4100})["builds"]
    assert [b["monthly_price"] for b in within] == [4040]


def test_a_budget_keeps_only_the_builds_within_it(client):
    served = {"model": "qwen2.5-72b", "mode": "infer", "concurrent_users": 50,
              "target_ttft_s": 1}  # fmt: skip
    within = recommend(client, {**served, "budget_monthly": 30_000})["builds"]
    assert within and all(b["monthly_price"] <= 30_000 for b in within)
    assert all(b["performance"]["meets_target"] for b in within)


@pytest.mark.parametrize(
    "served",
    [{"model": "qwen2.5-72b", "mode": "infer", "concurrent_users": 50},
     {"model_params_b": 7, "mode": "infer"}],
    ids=["ranked-by-work", "ranked-by-price"],
)  # fmt: skip
def test_a_budget_keeps_every_build_within_it(client, served):
    # Over the budget is a bound on the price, not a rejection of the GPU or platform: a
    # build over it never hides another within it. A budget of the cheapest accepted build's
    # exact price returns that build; each GPU's best build within a budget stays.
    every = post(client, URL, {"workload": served, "limit": 20})["builds"]
    prices = sorted({b["monthly_price"] for b in every})
    cheapest = min(every, key=lambda b: b["monthly_price"])
    for budget in prices[:3]:
        asked = {"workload": {**served, "budget_monthly": budget}, "limit": 20}
        within = [(b["build"], b["monthly_price"]) for b in post(client, URL, asked)["builds"]]
        assert (cheapest["build"], cheapest["monthly_price"]) in within
        for build in every:
            if build["monthly_price"] <= budget:
                assert (build["build"], build["monthly_price"]) in within, budget


@pytest.mark.parametrize(
    "workload",
    [{"model_params_b": 20000, "mode": "infer", "target_ttft_s": 1}, TOO_SOON, LORA_3000],
    ids=["20000b-ttft-1s", "ttft", "budget"],
)
def test_every_closest_build_misses_something(client, workload):
    # A build that misses nothing meets the workload: it is among the builds, never a miss.
    answer = recommend(client, workload)
    assert answer["builds"] or answer["closest"]
    assert all(item["misses"] for item in answer["closest"])
    assert not (answer["builds"] and answer["closest"])
    for build in answer["builds"]:
        assert build["performance"]["meets_target"]


def test_a_deadline_no_build_meets_offers_the_largest_builds_first(client):
    first = recommend(client, TOO_FAST)["closest"][0]
    assert first["build"]["nodes"] * first["build"]["gpu_count"] == 512
    (miss,) = first["misses"]
    assert miss["field"] == "deadline_days" and miss["value"] > 200


def test_without_targets_or_budget_there_is_nothing_to_come_close_to(client):
    answer = recommend(client, {"model_params_b": 4000, "mode": "train", "batch_size": 512})
    assert answer["builds"] == [] and answer["closest"] == []
    assert recommend(client, {"model_params_b": 7, "mode": "infer"})["closest"] == []


def test_the_misses_are_said_in_the_request_language(client):
    answer = recommend(client, TOO_SOON, HTTP_ACCEPT_LANGUAGE="zh-hans")
    text = answer["closest"][0]["misses"][0]["text"]
    assert "首" in text and "0.02" in text


def _as_input(build: dict) -> dict:
    return {key: value for key, value in build.items() if key not in ("bom",)}
