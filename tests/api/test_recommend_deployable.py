"""POST /api/v1/recommend on the seed catalog: top builds a datacenter architect would rack.

The workloads are docs/recommender.md's table (bench/recommend_table.py prints it). Each
test states what an architect checks first: GPUs per node and per replica, whole HGX boards,
headroom on every card, a fabric between training nodes, and that the build posts back to
/evaluate as accepted with its `shape` check passing.
"""

import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bench.recommend_table import DOCS, WORKLOADS, current_table, docs_table
from catalog.models import Gpu, Nic, Platform, Psu
from configurator.engine.rules import RuleParams

pytestmark = pytest.mark.django_db
RULES = RuleParams()
DEPLOYED_NODE_SIZES = {1, 2, 4, 8, 10}


def post(client, url: str, body: dict) -> dict:
    response = client.post(url, json.dumps(body), content_type="application/json")
    assert response.status_code == 200, response.content[:500]
    return response.json()


def builds(client, workload: dict) -> list[dict]:
    body = post(client, "/api/v1/recommend", {"workload": workload})
    assert body["builds"], body["reason"]
    return body["builds"]


def check(answer: dict, code: str) -> dict:
    """Return one check of an /evaluate answer or of a recommended build's evaluation."""
    checks = answer["evaluation"]["checks"] if "evaluation" in answer else answer["checks"]
    return next(c for c in checks if c["code"] == code)


def assert_rackable(client, item: dict, workload: dict) -> None:
    """Assert what an architect checks on any recommended build."""
    build = item["build"]
    assert build["gpu_count"] in DEPLOYED_NODE_SIZES
    platform = Platform.objects.get(slug=build["platform"])
    if platform.gpu_form_factor == "sxm":
        assert build["gpu_count"] in (4, 8), "whole HGX boards"
    if build["gpu_count"] == 10:
        assert platform.gpu_attach == "switch"
    assert check(item, "shape")["status"] == "pass", check(item, "shape")["detail"]
    capacity = check(item, "capacity")["numbers"]
    assert capacity["per_gpu_gb"] <= capacity["usable_gb"], "headroom on every card"
    back = post(client, "/api/v1/evaluate", {"build": build, "workload": workload})
    assert back["verdict"] == "accept"
    assert check(back, "shape")["status"] == "pass"


def test_the_docs_table_is_what_the_recommender_answers():
    documented = docs_table(DOCS.read_text(encoding="utf-8"))
    assert documented == current_table(), "run: python -m bench.recommend_table --write"


@pytest.mark.parametrize("label", list(WORKLOADS))
def test_every_top_build_of_the_docs_table_is_rackable(client, label):
    workload = WORKLOADS[label]
    for item in builds(client, workload):
        assert_rackable(client, item, workload)


def test_70b_inference_batch_32_is_served_by_whole_replicas_not_odd_counts(client):
    workload = WORKLOADS["70B inference, batch 32"]
    found = builds(client, workload)
    shapes = {(item["build"]["gpu"], item["build"]["gpu_count"]) for item in found}
    for odd in (("a800-80g-sxm", 3), ("l20", 5), ("rtx-4090", 7)):
        assert odd not in shapes
    for item in found:
        assert "replica" in item["why"]
        replicas = item["replicas"]
        assert replicas["gpus"] in (1, 2, 4, 8) and replicas["nodes_each"] == 1
        total = item["build"]["gpu_count"] * item["build"]["nodes"]
        assert replicas["gpus"] * replicas["count"] == total
        assert replicas["sequences_each"] * replicas["count"] >= workload["batch_size"]
        assert item["build"]["nics"] == 0, "replicas inside a node need no fabric"


def test_70b_inference_at_4k_context_plans_no_card_full(client):
    workload = WORKLOADS["70B inference, batch 32, 4k context"]
    for item in builds(client, workload):
        detail = check(item, "shape")["detail"]
        assert "GB usable" in detail
        assert check(item, "shape")["numbers"]["per_gpu_gb"] <= 0.9 * 80


def test_175b_training_runs_on_8_gpu_nvswitch_nodes_with_a_fabric(client):
    workload = WORKLOADS["175B training, batch 8"]
    top, *_ = builds(client, workload)
    build = top["build"]
    assert build["nodes"] > 1 and build["gpu_count"] == 8
    assert Platform.objects.get(slug=build["platform"]).nvlink == "nvswitch"
    assert build["nics"] == 8
    assert check(top, "fabric")["status"] == "pass"
    for item in builds(client, workload):
        if item["build"]["gpu"] == "h100-80g-sxm":
            assert item["build"]["gpu_count"] == 8
            assert Nic.objects.get(slug=item["build"]["nic"]).speed_gbps >= 400


def test_405b_inference_spans_nodes_only_because_its_weights_exceed_one(client):
    workload = WORKLOADS["405B inference, batch 8"]
    spans = 0
    for item in builds(client, workload):
        build = item["build"]
        assert build["gpu_count"] == 8
        if build["gpu"] == "h200-141g-sxm":  # 8 × 141 GB hold the weights: one node
            assert build["nodes"] == 1 and build["nics"] == 0
            continue
        spans += 1
        assert build["nodes"] >= 2
        # Fabric by board (domain.md §6): one NIC per GPU on HGX, one per two on PCIe boards.
        sxm = Gpu.objects.get(slug=build["gpu"]).form_factor == "sxm"
        assert build["nics"] == (8 if sxm else 4), "pipeline stages between nodes need fabric"
        assert "exceed" in item["why"]
    assert spans


def test_small_jobs_stay_on_one_node(client):
    for label in (
        "7B inference, batch 1",
        "7B LoRA fine-tune, batch 4",
        "13B LoRA fine-tune, batch 1",
    ):
        for item in builds(client, WORKLOADS[label]):
            assert item["build"]["nodes"] == 1
            assert item["build"]["gpu_count"] in (1, 2, 4)


def test_13b_full_fine_tune_fits_one_node(client):
    top, *_ = builds(client, WORKLOADS["13B full fine-tune, batch 4"])
    assert top["build"]["nodes"] == 1 and top["build"]["gpu_count"] in (4, 8)


def test_no_scenario_label_on_a_build_outside_the_recipe(client):
    for workload in WORKLOADS.values():
        for item in builds(client, workload):
            if item["scenario"] == "S1":
                assert 2 <= item["build"]["gpu_count"] <= 4 and item["build"]["nodes"] == 1
            if item["scenario"] == "S3":
                assert item["build"]["gpu_count"] == 8


def test_why_speaks_plain_words(client):
    for workload in WORKLOADS.values():
        for item in builds(client, workload):
            assert "_" not in item["why"], item["why"]
            nodes, per_node = item["build"]["nodes"], item["build"]["gpu_count"]
            if nodes > 1:
                assert f"{nodes} nodes × {per_node}" in item["why"]
                assert f"({nodes * per_node} GPUs)" in item["why"]


@settings(
    max_examples=25,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)
@given(
    params=st.sampled_from([1, 3, 7, 8, 13, 20, 34, 70, 120, 175, 405]),
    mode=st.sampled_from(["train", "finetune", "infer"]),
    method=st.sampled_from(["full", "lora", "qlora"]),
    batch=st.integers(min_value=1, max_value=64),
    context=st.sampled_from([1024, 2048, 4096, 8192]),
)
def test_every_recommended_build_round_trips_as_a_rackable_accept(
    client, params, mode, method, batch, context
):
    workload = {"model_params_b": params, "mode": mode, "batch_size": batch,
                "context_length": context, "finetune_method": method}  # fmt: skip
    body = post(client, "/api/v1/recommend", {"workload": workload})
    assert bool(body["builds"]) != bool(body["reason"])
    for item in body["builds"]:
        assert_rackable(client, item, workload)
        if item["build"]["nodes"] > 1 and mode != "infer":
            assert item["build"]["nics"] >= item["build"]["gpu_count"] // RULES.gpus_per_nic
            assert check(item, "fabric")["status"] == "pass"


@pytest.mark.parametrize("label", sorted(WORKLOADS))
def test_every_recommended_bill_puts_the_platforms_own_psus_in_it(client, label):
    """domain.md §6: a bill never puts one vendor's PSU in another's chassis."""
    for item in builds(client, WORKLOADS[label]):
        lines = {line["kind"]: line for line in item["build"]["bom"]}
        platform = Platform.objects.get(slug=lines["platform"]["slug"])
        own = platform.psus.all() or Psu.objects.filter(vendor=platform.vendor)
        assert lines["psu"]["slug"] in {psu.slug for psu in own}, (label, platform.slug)
