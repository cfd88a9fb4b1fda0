"""POST /api/v1/evaluate: verdict, every check, the numbers and the fix; 400 for bad input."""

import pytest

from catalog.models import Gpu

pytestmark = pytest.mark.django_db
URL = "/api/v1/evaluate"
ALL_CODES = {f"P{n}" for n in range(1, 9)} | {"pcie_lanes", "cpu_threads", "memory", "numa"}


def checks_by_code(body: dict) -> dict[str, dict]:
    return {check["code"]: check for check in body["checks"]}


def test_api_example_answers_every_check_and_names_the_rule_version(post_json, example):
    response = post_json(URL, example)
    body = response.json()
    assert response.status_code == 200
    assert set(checks_by_code(body)) == ALL_CODES | {
        "capacity", "precision", "fabric", "shape", "drive_bays"
    }  # fmt: skip
    assert body["ruleset"] == {"version": 1, "profile": "operator-baseline"}
    assert set(body["balance"]) >= {"cpu_threads", "pcie_lanes", "memory", "overall"}
    assert body["balance"]["threshold"] == 85


def test_balanced_build_without_workload_is_accepted(post_json, example):
    del example["workload"]
    body = post_json(URL, example).json()
    assert body["verdict"] == "accept"
    assert body["pitfalls"] == []
    assert checks_by_code(body)["capacity"]["status"] == "na"
    assert checks_by_code(body)["P5"]["status"] == "na"


def test_memory_below_ratio_is_p3_with_numbers_impact_and_fix(post_json, example):
    example["build"]["memory_gb"] = 512
    del example["workload"]
    body = post_json(URL, example).json()
    assert body["verdict"] == "reject"
    (p3,) = [p for p in body["pitfalls"] if p["code"] == "P3"]
    assert "768" in p3["detail"] and "512" in p3["detail"]
    assert "22%" in p3["impact"]
    assert "48 GB" in p3["fix"] and "768" in p3["fix"]
    memory = checks_by_code(body)["memory"]  # P3's shortfall, counted once: by P3
    assert memory["status"] == "na" and memory["covered_by"] == "P3"
    assert checks_by_code(body)["P3"]["covered_by"] is None


def test_consumer_memory_is_p6(post_json, example):
    example["build"]["memory_ecc"] = False
    del example["workload"]
    body = post_json(URL, example).json()
    assert [p["code"] for p in body["pitfalls"]] == ["P6"]


def test_legacy_e5_with_eight_gpus_is_p1_and_short_of_lanes(post_json):
    build = {
        "cpu": "xeon-e5-2680-v4", "cpu_count": 2, "gpu": "rtx-4090", "gpu_count": 8,
        "memory_gb": 256, "memory_ecc": True, "psu_watts": 8000,
    }  # fmt: skip
    body = post_json(URL, {"build": build}).json()
    codes = {p["code"] for p in body["pitfalls"]}
    assert "P1" in codes
    assert checks_by_code(body)["pcie_lanes"]["status"] == "fail"
    assert "80" in checks_by_code(body)["pcie_lanes"]["detail"]


def test_single_socket_build_is_evaluated_not_refused(post_json, example):
    example["build"].update(cpu_count=1, gpus_per_socket=[8])
    response = post_json(URL, example)
    assert response.status_code == 200
    assert "P4" in {p["code"] for p in response.json()["pitfalls"]}


def test_default_split_and_nvlink_follow_the_gpu(post_json, example):
    del example["build"]["gpus_per_socket"]
    del example["build"]["nvlink"]
    example["workload"]["batch_size"] = 1
    body = post_json(URL, example).json()
    assert checks_by_code(body)["numa"]["status"] == "pass"
    assert checks_by_code(body)["P5"]["status"] == "pass"


def test_small_batch_inference_on_low_clock_cpu_is_p8(post_json, example):
    example["workload"] = {"model_params_b": 7, "mode": "infer", "batch_size": 1}
    body = post_json(URL, example).json()
    assert "P8" in {p["code"] for p in body["pitfalls"]}


def test_catalog_name_works_like_a_slug(post_json, example):
    example["build"]["gpu"] = Gpu.objects.get(slug="a800-80g-sxm").name
    assert post_json(URL, example).status_code == 200


@pytest.mark.parametrize(
    ("change", "path"),
    [
        ({"cpu": "xeon-9999"}, "build.cpu"),
        ({"gpu": "voodoo-5"}, "build.gpu"),
        ({"gpu_count": -1}, "build.gpu_count"),
        ({"gpu_count": 10_000}, "build.gpu_count"),
        ({"gpu_count": "8"}, "build.gpu_count"),
        ({"cpu_count": 3}, "build.cpu_count"),
        ({"memory_ecc": "yes"}, "build.memory_ecc"),
        ({"gpus_per_socket": [4, 3]}, "build.gpus_per_socket"),
        ({"gpus_per_socket": [8]}, "build.gpus_per_socket"),
        ({"psu_watts": 0}, "build.psu_watts"),
        ({"unknown_field": 1}, "build.unknown_field"),
    ],
)
def test_bad_build_field_is_named(post_json, example, change, path):
    example["build"].update(change)
    response = post_json(URL, example)
    assert response.status_code == 400
    assert path in response.json()["errors"]


def test_nvlink_on_a_card_without_it_is_refused(post_json, example):
    example["build"].update(gpu="rtx-4090", nvlink=True)
    response = post_json(URL, example)
    assert response.status_code == 400
    assert "no NVLink" in response.json()["errors"]["build.nvlink"][0]


def test_every_bad_field_is_reported_at_once(post_json, example):
    example["build"].update(cpu="nope", gpu="nope-either")
    errors = post_json(URL, example).json()["errors"]
    assert {"build.cpu", "build.gpu"} <= set(errors)


@pytest.mark.parametrize(
    ("body", "path"),
    [
        ("{not json", "body"),
        ("[1, 2]", "body"),
        ('"build"', "body"),
        ("{}", "build"),
        ('{"build": null}', "build"),
        ('{"build": {}, "workload": {"mode": "sing"}}', "workload.mode"),
    ],
)
def test_malformed_request_is_400_naming_the_field(post_json, body, path):
    response = post_json(URL, body)
    assert response.status_code == 400
    assert path in response.json()["errors"]


def test_workload_bounds_are_enforced(post_json, example):
    example["workload"]["model_params_b"] = 0
    response = post_json(URL, example)
    assert response.status_code == 400
    assert "workload.model_params_b" in response.json()["errors"]


def test_unknown_profile_is_400(post_json, example):
    example["profile"] = "no-such-profile"
    response = post_json(URL, example)
    assert response.status_code == 400
    assert "profile" in response.json()["errors"]


def test_named_profile_is_used_and_reported(post_json, example):
    example["profile"] = "nvidia-ra-2-8-5"
    del example["workload"]
    body = post_json(URL, example).json()
    assert body["ruleset"]["profile"] == "nvidia-ra-2-8-5"
    # NVIDIA's RA asks 128 GB per GPU: 8 × 128 = 1024 GB, which the build has.
    assert checks_by_code(body)["memory"]["status"] == "pass"


def test_answer_matches_the_documented_schema(post_json, example):
    from configurator.schemas import EvaluationOut

    body = post_json(URL, example).json()
    assert EvaluationOut.model_validate(body).model_dump(exclude_unset=True) == body


def test_catalog_edit_is_seen_by_the_next_evaluation(post_json, example):
    del example["workload"]
    assert post_json(URL, example).json()["verdict"] == "accept"
    gpu = Gpu.objects.get(slug="a800-80g-sxm")
    gpu.tdp_w = 1500  # a (fictional) hotter module needs more power than the 6000 W PSUs give
    gpu.save()
    assert "P7" in {p["code"] for p in post_json(URL, example).json()["pitfalls"]}


def test_new_catalog_item_can_be_evaluated_at_once(post_json, example):
    from tests.factories import GpuFactory

    GpuFactory(slug="brand-new-gpu", memory_gb=96)
    example["build"].update(gpu="brand-new-gpu", nvlink=False)
    assert post_json(URL, example).status_code == 200


def test_platform_must_take_the_cpu_and_gpu(post_json, example):
    example["build"]["platform"] = "smc-as-8125gs-tnhr"  # SP5 with an H100 baseboard
    errors = post_json(URL, example).json()["errors"]["build.platform"]
    assert any("SP5" in message for message in errors)
    assert any("does not take" in message for message in errors)


def test_platform_switch_uplinks_count_against_the_lanes(post_json, example):
    example["build"].update(
        cpu="epyc-9754", gpu="h100-80g-sxm", platform="smc-as-8125gs-tnhr", psu_watts=9000, nics=8
    )
    body = post_json(URL, example).json()
    lanes = checks_by_code(body)["pcie_lanes"]
    assert lanes["status"] == "pass", lanes["detail"]


def test_api_example_is_accepted_as_documented(post_json, example):
    # 34B training at batch 64 per GPU runs as gradient accumulation on 8 × 80 GB.
    body = post_json(URL, example).json()
    assert body["verdict"] == "accept", [c for c in body["checks"] if c["status"] == "fail"]
    assert checks_by_code(body)["capacity"]["status"] == "pass"


def test_unknown_workload_gpu_is_refused(post_json, example):
    example["workload"]["gpu"] = "voodoo-5"
    response = post_json(URL, example)
    assert response.status_code == 400
    assert "workload.gpu" in response.json()["errors"]


def two_node_training(example: dict) -> dict:
    example["build"].update(
        cpu="xeon-gold-6530", gpu="h100-80g-sxm", platform="smc-sys-821ge-tnhr", nodes=2,
        psu_watts=12000, memory_gb=2048,
    )  # fmt: skip
    example["workload"] = {"model_params_b": 70, "mode": "train", "batch_size": 1}
    return example


def test_two_node_training_without_nics_is_rejected_for_its_fabric(post_json, example):
    body = post_json(URL, two_node_training(example)).json()
    fabric = checks_by_code(body)["fabric"]
    assert body["verdict"] == "reject"
    assert fabric["status"] == "fail"
    assert "no high-speed NICs" in fabric["detail"]
    assert "8 × ≥ 400 Gb/s" in fabric["fix"]


def test_two_node_training_with_a_400g_nic_per_h100_passes_the_fabric(post_json, example):
    example = two_node_training(example)
    example["build"].update(nics=8, nic="cx7-ndr-400g-osfp")
    fabric = checks_by_code(post_json(URL, example).json())["fabric"]
    assert fabric["status"] == "pass", fabric["detail"]


def test_200g_nics_are_too_slow_for_h100(post_json, example):
    example = two_node_training(example)
    example["build"].update(nics=8, nic_speed_gbps=200)
    fabric = checks_by_code(post_json(URL, example).json())["fabric"]
    assert fabric["status"] == "fail"
    assert "8 × 200 Gb/s" in fabric["detail"]


def test_nic_speed_must_agree_with_the_named_nic(post_json, example):
    example["build"].update(nics=8, nic="cx7-ndr-400g-osfp", nic_speed_gbps=200)
    response = post_json(URL, example)
    assert response.status_code == 400
    assert "build.nic_speed_gbps" in response.json()["errors"]


def test_fp8_on_a800_is_rejected_for_precision(post_json, example):
    example["workload"]["precision"] = "fp8"
    body = post_json(URL, example).json()
    precision = checks_by_code(body)["precision"]
    assert body["verdict"] == "reject"
    assert precision["status"] == "fail"
    assert "Ampere" in precision["detail"] and "Hopper" in precision["detail"]


def test_an_answer_with_a_warning_matches_the_documented_schema(post_json, example):
    from configurator.schemas import EvaluationOut

    example["build"]["gpus_per_socket"] = [5, 3]  # uneven within the maximum: numa warns
    body = post_json(URL, example).json()
    assert checks_by_code(body)["numa"]["status"] == "warn"
    assert checks_by_code(body)["numa"]["fix"]
    assert body["verdict"] == "accept"
    assert EvaluationOut.model_validate(body).model_dump(exclude_unset=True) == body


def pcie_training_node(gpus: int, nics: int) -> dict:
    """A800 PCIe cards on a 10-slot PCIe-switch box with 2 NIC slots, two nodes training."""
    return {
        "build": {
            "cpu": "xeon-gold-6530",
            "cpu_count": 2,
            "gpu": "a800-80g-pcie",
            "gpu_count": gpus,
            "memory_gb": 768,
            "memory_ecc": True,
            "psu_watts": 5400,
            "platform": "smc-sys-421ge-tnrt",
            "nics": nics,
            "nic": "cx6-hdr-200g-qsfp56",
            "nodes": 2,
        },
        "workload": {"model_params_b": 34, "mode": "train", "batch_size": 8},
    }


def test_more_nics_than_the_platform_has_room_for_are_refused(post_json):
    # 8 GPUs leave 2 of the 10 GPU slots empty: 2 NIC slots + 2 = 4 places, not 8.
    response = post_json(URL, pcie_training_node(8, 8))
    assert response.status_code == 400
    assert "room for 4 NICs beside 8 GPUs" in response.json()["errors"]["build.platform"][0]


def test_nics_in_the_gpu_slots_a_node_leaves_empty_are_accepted(post_json):
    assert post_json(URL, pcie_training_node(8, 4)).status_code == 200
    assert post_json(URL, pcie_training_node(4, 4)).status_code == 200


def test_a_fix_that_is_a_build_change_answers_it_beside_its_text(post_json, example):
    del example["workload"]
    example["build"]["gpus_per_socket"] = [6, 2]
    p4 = checks_by_code(post_json(URL, example).json())["P4"]
    assert p4["fix_change"] == {"gpus_per_socket": [4, 4]}
    assert p4["fix"] == "split the GPUs evenly over the sockets: 4 + 4"
    assert p4["fix_message"]["params"] == {"split": "4 + 4"}


def test_a_fix_that_is_a_part_to_pick_and_a_passing_check_answer_no_change(post_json, example):
    del example["workload"]
    example["build"]["cpu"] = "xeon-e5-2680-v4"
    checks = checks_by_code(post_json(URL, example).json())
    assert checks["P1"]["status"] == "fail" and checks["P1"]["fix_change"] is None
    assert checks["P6"]["status"] == "pass" and checks["P6"]["fix_change"] is None
