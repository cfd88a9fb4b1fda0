"""A contradictory mixture-of-experts layout is the client's mistake: every endpoint that takes
a workload answers 400 naming the field, never a 500 (the engine refuses it with ValueError)."""

import json

import pytest

pytestmark = pytest.mark.django_db
BUILD = {
    "cpu": "xeon-gold-6530", "cpu_count": 2, "gpu": "a800-80g-sxm", "gpu_count": 8,
    "memory_gb": 1024, "memory_ecc": True, "psu_watts": 6000,
}  # fmt: skip
CONTRADICTIONS = [
    ({"model_params_b": 70, "mode": "infer", "experts": 8, "experts_per_token": 9},
     "workload.experts_per_token"),
    ({"model_params_b": 7, "mode": "infer", "active_params_b": 70}, "workload.active_params_b"),
    # A named model fills what is not given; what is given beside it wins, and can contradict.
    ({"model_params_b": 671, "model": "deepseek-v3", "mode": "infer", "experts_per_token": 300},
     "workload.experts_per_token"),
    ({"model_params_b": 10, "model": "deepseek-v3", "mode": "infer"}, "workload.model_params_b"),
]  # fmt: skip
ENDPOINTS = {
    "/api/v1/sizing": lambda workload: {"workload": workload},
    "/api/v1/recommend": lambda workload: {"workload": workload},
    "/api/v1/evaluate": lambda workload: {"build": BUILD, "workload": workload},
}


@pytest.mark.parametrize(("workload", "field"), CONTRADICTIONS)
@pytest.mark.parametrize("url", ENDPOINTS)
def test_a_contradictory_expert_layout_is_named_by_field(client, url, workload, field):
    answer = client.post(url, json.dumps(ENDPOINTS[url](workload)), "application/json")
    assert answer.status_code == 400, answer.content
    assert list(answer.json()["errors"]) == [field]


def test_the_refusal_speaks_the_request_language(client):
    workload, field = CONTRADICTIONS[0]
    answer = client.post(
        "/api/v1/sizing",
        json.dumps({"workload": workload}),
        "application/json",
        HTTP_ACCEPT_LANGUAGE="zh-hans",
    )
    assert "不能超过" in answer.json()["errors"][field][0]


def test_a_published_mixture_of_experts_is_sized(client):
    body = {"workload": {"model_params_b": 671, "model": "deepseek-v3", "mode": "infer"}}
    answer = client.post("/api/v1/sizing", json.dumps(body), "application/json")
    assert answer.status_code == 200


def test_an_unknown_model_is_named_by_field(client):
    body = {"workload": {"model_params_b": 7, "model": "llama-9", "mode": "infer"}}
    answer = client.post("/api/v1/sizing", json.dumps(body), "application/json")
    assert answer.status_code == 400
    assert list(answer.json()["errors"]) == ["workload.model"]
