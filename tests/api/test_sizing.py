"""POST /api/v1/sizing: the GPU memory a workload needs, with its breakdown."""

import json

import pytest

from configurator.models import RuleProfile, RuleSetVersion

pytestmark = pytest.mark.django_db
URL = "/api/v1/sizing"
API_EXAMPLE = {
    "model_params_b": 7, "mode": "train", "batch_size": 4, "context_length": 2048,
    "precision": "bf16", "gpu_count": 8, "layers": 32, "hidden_size": 4096,
    "attention_heads": 32, "kv_heads": 32, "vocab_size": 32000,
}  # fmt: skip


def size(client, workload: dict):
    return client.post(URL, json.dumps({"workload": workload}), content_type="application/json")


def test_api_example_is_near_the_published_calculators(client):
    body = size(client, API_EXAMPLE).json()
    assert body["gpu_count"] == 8
    assert body["total_gb"] == pytest.approx(139.9, rel=0.05)
    assert body["per_gpu_gb"] == pytest.approx(17.5, rel=0.05)
    assert set(body["breakdown"]) == {"weights", "gradients", "optimizer", "activations",
                                      "kv_cache", "overhead"}  # fmt: skip
    assert any("ZeRO-3" in note for note in body["assumptions"])


def test_70b_fp16_inference_weights_are_140_gb(client):
    body = size(client, {"model_params_b": 70, "mode": "infer", "precision": "fp16"}).json()
    assert body["breakdown"]["weights"] == pytest.approx(140, rel=0.001)
    assert body["per_gpu_gb"] is None


def test_named_gpu_gets_the_fewest_that_hold_it(client):
    body = size(client, {"model_params_b": 70, "mode": "infer", "gpu": "H100-80G-SXM"}).json()
    assert (body["gpu"], body["gpus_needed"]) == ("h100-80g-sxm", 2)


@pytest.mark.parametrize(
    ("workload", "path"),
    [
        ({"mode": "train"}, "workload.model_params_b"),
        ({"model_params_b": 7}, "workload.mode"),
        ({"model_params_b": 7, "mode": "train", "precision": "fp4"}, "workload.precision"),
        ({"model_params_b": 7, "mode": "train", "gpu": "nope"}, "workload.gpu"),
        ({"model_params_b": 7, "mode": "train", "context_length": 0}, "workload.context_length"),
    ],
)
def test_bad_workload_is_400_naming_the_field(client, workload, path):
    response = size(client, workload)
    assert response.status_code == 400
    assert path in response.json()["errors"]


def test_named_gpu_answer_shows_need_usable_and_card_memory_with_units(client):
    body = size(client, {"model_params_b": 8, "mode": "infer", "gpu": "l20"}).json()
    assert body["gpu_memory_gib"] == 48
    assert body["card_gb"] == pytest.approx(51.54, abs=0.01)
    assert body["usable_fraction"] == 0.9
    assert body["usable_gb"] == pytest.approx(46.38, abs=0.01)
    assert "10^9 bytes" in body["unit"] and "GiB" in body["unit"]


def test_llama3_8b_at_batch_64_and_8k_context_is_mostly_kv_cache(client):
    """Chunked prefill and last-token logits: activations stay small, the KV cache dominates."""
    workload = {
        "model_params_b": 8, "mode": "infer", "batch_size": 64, "context_length": 8192,
        "gpu_count": 4,
    }  # fmt: skip
    breakdown = size(client, workload).json()["breakdown"]
    assert breakdown["kv_cache"] == pytest.approx(68.72, abs=0.01)
    assert breakdown["activations"] < 1
    assert breakdown["kv_cache"] > 60 * breakdown["activations"]


def test_a_profile_with_a_larger_usable_share_needs_fewer_gpus(client):
    profile = RuleProfile.objects.create(slug="tight", name="Tight")
    RuleSetVersion.objects.create(
        profile=profile, version=1, parameters={"gpu_memory_usable_fraction": 1.0}
    )
    workload = {"model_params_b": 70, "mode": "infer", "gpu": "l20", "batch_size": 1}
    body = json.dumps({"workload": workload, "profile": "tight"})
    tight = client.post(URL, body, content_type="application/json").json()
    default = size(client, workload).json()
    assert tight["usable_gb"] > default["usable_gb"]
    assert tight["gpus_needed"] <= default["gpus_needed"]


def test_unknown_profile_is_400(client):
    body = json.dumps({"workload": {"model_params_b": 7, "mode": "infer"}, "profile": "nope"})
    response = client.post(URL, body, content_type="application/json")
    assert response.status_code == 400
    assert "profile" in response.json()["errors"]


@pytest.mark.parametrize(
    ("shape", "field"),
    [
        ({"attention_heads": 32, "kv_heads": 64}, "workload.kv_heads"),
        ({"attention_heads": 32, "kv_heads": 5}, "workload.kv_heads"),
        ({"hidden_size": 4100, "attention_heads": 32}, "workload.attention_heads"),
        ({"hidden_size": 1}, "workload.hidden_size"),
        ({"hidden_size": 65536, "layers": 80}, "workload.hidden_size"),
    ],
)
def test_contradictory_shapes_are_refused_on_the_field(client, shape, field):
    body = {"workload": {"model_params_b": 70, "mode": "infer", **shape}}
    response = client.post("/api/v1/sizing", json.dumps(body), content_type="application/json")
    assert response.status_code == 400
    assert list(response.json()["errors"]) == [field]


@pytest.mark.parametrize(
    "shape",
    [
        {"layers": 80, "hidden_size": 8192, "attention_heads": 64, "kv_heads": 8},  # Llama-2-70B
        {"layers": 32, "hidden_size": 4096, "attention_heads": 32, "kv_heads": 8},  # 8x7B MoE
    ],
)
def test_real_shapes_are_accepted(client, shape):
    body = {"workload": {"model_params_b": 70 if shape["layers"] == 80 else 46.7,
                         "mode": "infer", **shape}}  # fmt: skip
    response = client.post("/api/v1/sizing", json.dumps(body), content_type="application/json")
    assert response.status_code == 200, response.json()
