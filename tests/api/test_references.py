"""Which published reference a build meets (domain.md §6, §8; issue 18 item 5).

The operator baseline asks a base clock of ≥ 2.4 GHz for small-batch inference (the guide's
P8); NVIDIA's AI Enterprise reference architecture (PCIe-optimised "2-8-5" node) asks
≥ 2.0 GHz, ≥ 7 physical cores and ≥ 128 GB of system memory per GPU. /evaluate answers the
profile it judged by and, in `references`, every other profile's verdict on the same build;
the configurator page shows both side by side.
"""

import pytest

pytestmark = pytest.mark.django_db

URL = "/api/v1/evaluate"
SMALL_BATCH = {"model_params_b": 13, "mode": "infer", "batch_size": 4, "concurrent_users": 4}


def test_a_low_clock_build_fails_the_operator_and_meets_nvidia_ra(post_json, example):
    example["workload"] = SMALL_BATCH  # 2 × Xeon Gold 6530: 2.1 GHz base, 8 cores per GPU
    body = post_json(URL, example).json()
    assert body["verdict"] == "reject"
    assert [p["code"] for p in body["pitfalls"]] == ["P8"]
    assert body["ruleset"]["profile"] == "operator-baseline"
    (ra,) = body["references"]
    assert (ra["profile"], ra["verdict"]) == ("nvidia-ra-2-8-5", "accept")
    assert ra["name"] == "NVIDIA AI Enterprise RA 2-8-5" and ra["version"] >= 1


def test_judged_by_nvidia_ra_the_operator_baseline_is_the_reference(post_json, example):
    example["workload"] = SMALL_BATCH
    example["profile"] = "nvidia-ra-2-8-5"
    body = post_json(URL, example).json()
    assert body["verdict"] == "accept"
    assert [(r["profile"], r["verdict"]) for r in body["references"]] == [
        ("operator-baseline", "reject")
    ]


def test_the_p8_loss_is_latency_not_a_third_of_the_rent(post_json, example):
    """P8 adds CPU-side latency (domain.md §6): its monthly loss is the modelled difference,
    the throughput the added scheduling time costs, not the 35 % that dividing throughput by
    1.54 billed. The same build on a ≥ 2.4 GHz CPU serves what this one serves without it."""
    example["workload"] = SMALL_BATCH
    body = post_json(URL, example).json()
    (p8,) = body["pitfalls"]
    example["build"]["cpu"] = "xeon-gold-6542y"  # 2.9 GHz, the same socket
    fast = post_json(URL, example).json()
    assert "P8" not in [p["code"] for p in fast["pitfalls"]]
    served, unhindered = body["performance"]["tokens_per_s"], fast["performance"]["tokens_per_s"]
    share = 1 - served / unhindered
    assert p8["monthly_loss"] == pytest.approx(body["monthly_price"] * share, rel=0.01)
    assert p8["monthly_loss"] < 0.2 * body["monthly_price"] < 0.351 * body["monthly_price"]
    assert not any("× 1.54" in note for note in body["performance"]["assumptions"])
    assert any("low base clock (P8)" in note for note in body["performance"]["assumptions"])


def test_the_page_shows_the_operator_and_nvidia_ra_verdicts_side_by_side(client):
    query = (
        "cpu=xeon-gold-6530&cpu_count=2&gpu=a800-80g-sxm&gpu_count=8&gpus_per_socket=4,4"
        "&memory_gb=1024&memory_ecc=on&psu_watts=6000&nvlink=on&numa_binding=on"
        "&model_params_b=13&mode=infer&batch_size=4&concurrent_users=4"
    )
    response = client.get(f"/configure/?{query}")
    assert response.status_code == 200
    references = response.context["references"]
    assert [(r["profile"], r["verdict"]) for r in references] == [
        ("operator-baseline", "reject"),
        ("nvidia-ra-2-8-5", "accept"),
    ]
    html = response.content.decode()
    assert 'id="references"' in html and "NVIDIA AI Enterprise RA 2-8-5: accepted" in html
    # The profile's bilingual name shows its English part on an English page.
    assert "Operator baseline: rejected" in html
