"""POST /api/v1/recommend: priced builds the rules accept, with a BOM and a reason."""

import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from catalog.models import Gpu, Nic, Platform
from configurator.engine.rules import RuleParams

pytestmark = pytest.mark.django_db
URL = "/api/v1/recommend"
TRAIN_70B = {"model_params_b": 70, "mode": "train", "batch_size": 64}


def recommend(client, workload: dict, **extra) -> dict:
    body = json.dumps({"workload": workload, **extra})
    response = client.post(URL, body, content_type="application/json")
    assert response.status_code == 200, response.content[:500]
    return response.json()


def evaluate(client, build: dict, workload: dict) -> dict:
    body = json.dumps({"build": build, "workload": workload})
    response = client.post("/api/v1/evaluate", body, content_type="application/json")
    assert response.status_code == 200, response.content[:500]
    return response.json()


def test_70b_training_gets_priced_accepted_builds_with_bom_and_why(client):
    body = recommend(client, TRAIN_70B)
    assert body["reason"] is None
    assert body["builds"]
    # Multi-node training on NVSwitch boards first, then the rest; cheapest first in each.
    nvswitch = {p.slug for p in Platform.objects.filter(nvlink="nvswitch")}
    order = [
        (item["build"]["platform"] not in nvswitch, item["monthly_price"])
        for item in body["builds"]
    ]
    assert order == sorted(order)
    assert not order[0][0], "the top build of a multi-node training job is on NVSwitch boards"
    for item in body["builds"]:
        assert item["evaluation"]["verdict"] == "accept"
        assert item["currency"] == "CNY"
        assert "70B train" in item["why"]
        bom = item["build"]["bom"]
        assert {line["kind"] for line in bom} >= {"platform", "cpu", "gpu", "memory", "psu"}
        node_price = sum(line["monthly_price"] for line in bom)
        assert item["monthly_price"] == pytest.approx(node_price * item["build"]["nodes"])


def test_every_returned_build_is_accepted_when_posted_back(client):
    for item in recommend(client, TRAIN_70B)["builds"]:
        assert evaluate(client, item["build"], TRAIN_70B)["verdict"] == "accept"


def test_multi_node_training_has_a_nic_per_gpu_by_default(client):
    multi = [b for b in recommend(client, TRAIN_70B)["builds"] if b["build"]["nodes"] > 1]
    assert multi
    for item in multi:
        build = item["build"]
        assert build["nics"] == -(-build["gpu_count"] // RuleParams().gpus_per_nic)
        assert any(line["kind"] == "nic" and line["qty"] == build["nics"] for line in build["bom"])
        speed = Nic.objects.get(slug=build["nic"]).speed_gbps
        assert speed >= (400 if build["gpu"].startswith("h100") else 200)


def test_gpu_and_count_preferences_are_met(client):
    workload = {"model_params_b": 13, "mode": "train", "batch_size": 8, "gpu": "h100-80g-sxm",
                "gpu_count": 8}  # fmt: skip
    body = recommend(client, workload)
    assert body["builds"]
    for item in body["builds"]:
        build = item["build"]
        assert build["gpu"] == "h100-80g-sxm"
        assert build["gpu_count"] * build["nodes"] == 8


def test_100b_plus_training_gets_eight_h100_class_gpus_with_a_terabyte(client):
    body = recommend(client, {"model_params_b": 175, "mode": "train", "batch_size": 8})
    h100_nodes = [
        item["build"] for item in body["builds"]
        if item["build"]["gpu"].startswith("h100") and item["build"]["gpu_count"] == 8
    ]  # fmt: skip
    assert any(build["memory_gb"] >= 1024 for build in h100_nodes)
    assert "S3" in {item["scenario"] for item in body["builds"]}


def test_small_batch_7b_inference_gets_a_high_clock_cpu(client):
    body = recommend(client, {"model_params_b": 7, "mode": "infer", "batch_size": 1})
    catalog = client.get("/api/v1/catalog").json()
    clocks = {cpu["slug"]: cpu["base_ghz"] for cpu in catalog["cpus"]}
    assert body["builds"]
    for item in body["builds"]:
        assert clocks[item["build"]["cpu"]] >= RuleParams().cpu_base_ghz_min
        assert "base clock" in item["why"]


def test_mid_size_training_shows_the_guides_pairing(client):
    body = recommend(client, {"model_params_b": 13, "mode": "train", "batch_size": 8})
    s2 = [item for item in body["builds"] if item["scenario"] == "S2"]
    assert s2
    assert s2[0]["build"]["cpu"] == "xeon-gold-6530"
    assert "S2" in s2[0]["why"]


def test_impossible_workload_gets_an_empty_answer_with_numbers(client):
    body = recommend(client, {"model_params_b": 70, "mode": "train", "batch_size": 64,
                              "gpu_count": 8, "gpu": "h100-80g-sxm"})  # fmt: skip
    assert body["builds"] == []
    assert "GB per GPU over 8 GPUs" in body["reason"]
    assert "80 GiB" in body["reason"]
    # 16 hold it within the usable 77.31 GB (90 % of 80 GiB) of each card: 2 whole HGX nodes.
    assert "at least 16 × NVIDIA H100 80GB SXM5 (2 nodes of 8)" in body["reason"]


def test_workload_beyond_the_largest_build_is_explained(client):
    body = recommend(client, {"model_params_b": 5000, "mode": "train"})
    assert body["builds"] == []
    assert "nodes" in body["reason"]


@pytest.mark.parametrize(
    ("body", "path"),
    [
        ({"workload": {"model_params_b": 7, "mode": "train", "gpu": "voodoo"}}, "workload.gpu"),
        ({"workload": {"model_params_b": -7, "mode": "train"}}, "workload.model_params_b"),
        ({"workload": {"model_params_b": 7, "mode": "dream"}}, "workload.mode"),
        ({"workload": {"model_params_b": 7, "mode": "train"}, "limit": 0}, "limit"),
        ({"workload": {"model_params_b": 7, "mode": "train"}, "profile": "nope"}, "profile"),
        ({}, "workload"),
    ],
)
def test_bad_request_names_the_field(client, body, path):
    response = client.post(URL, json.dumps(body), content_type="application/json")
    assert response.status_code == 400
    assert path in response.json()["errors"]


ROUND_TRIP = settings(
    max_examples=25,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)


@ROUND_TRIP
@given(
    params=st.sampled_from([0.5, 1.3, 3, 7, 8, 13, 20, 34, 70, 110, 180, 405]),
    mode=st.sampled_from(["train", "finetune", "infer"]),
    batch=st.sampled_from([1, 2, 8, 16, 17, 64]),
    context=st.sampled_from([512, 2048, 8192]),
    precision=st.sampled_from(["bf16", "fp8", "int4"]),
    method=st.sampled_from(["full", "lora", "qlora"]),
)
def test_every_recommendation_round_trips_to_accept(
    client, params, mode, batch, context, precision, method
):
    workload = {
        "model_params_b": params, "mode": mode, "batch_size": batch, "context_length": context,
        "precision": precision, "finetune_method": method,
    }  # fmt: skip
    body = recommend(client, workload)
    assert body["builds"] or body["reason"]
    for item in body["builds"]:
        assert evaluate(client, item["build"], workload)["verdict"] == "accept"


def test_limit_holds_even_when_several_recipes_match(client):
    workload = {"model_params_b": 13, "mode": "finetune", "finetune_method": "lora"}
    assert len(recommend(client, workload, limit=1)["builds"]) == 1


def test_recipe_follows_a_renamed_catalog_part(client):
    # Two L20 as two replicas: S1's 2–4 GPUs on its platform.
    workload = {"model_params_b": 7, "mode": "infer", "batch_size": 32}
    assert "S1" in {item["scenario"] for item in recommend(client, workload)["builds"]}
    gpu = Gpu.objects.get(slug="l20")
    gpu.slug = "nvidia-l20-48g"
    gpu.save()
    builds = recommend(client, workload)["builds"]
    assert "S1" in {item["scenario"] for item in builds}


def test_multi_node_inference_gets_nics_too(client):
    body = recommend(client, {"model_params_b": 405, "mode": "infer", "batch_size": 32})
    multi = [item["build"] for item in body["builds"] if item["build"]["nodes"] > 1]
    assert multi
    assert all(build["nics"] > 0 for build in multi)
