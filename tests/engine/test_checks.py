"""The checks: the guide's recipes, its pitfalls, and every threshold at its boundary.

Thresholds are read from `RuleParams()`, never restated, so the tests follow an architect's
edit of the defaults.
"""

from __future__ import annotations

import json
import math
from dataclasses import FrozenInstanceError, replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from configurator.engine import checks
from configurator.engine.build import Build, FinetuneMethod, Mode, Workload
from configurator.engine.evaluate import CHECK_CODES, Verdict, evaluate
from configurator.engine.fabric import nic_requirement
from configurator.engine.findings import Status
from configurator.engine.power import power_budget
from configurator.engine.rules import RuleParams
from configurator.engine.sizing import card_gb, gpus_needed, size_workload, usable_gb
from tests.engine.builders import (
    a800_pcie,
    a800_sxm,
    epyc_9754,
    h100_sxm,
    l20,
    legacy_e5,
    node,
    rtx_4090,
    s1,
    s2,
    s3,
    xeon_e5_2680_v4,
    xeon_gold_5318y,
    xeon_gold_6530,
)

RULES = RuleParams()
# The NVIDIA AI Enterprise 2-8-5 reference profile (domain.md §8): 128 GB and 7 cores per GPU.
NVIDIA_RA = replace(RULES, memory_per_gpu_gb_min=128, cores_per_gpu_min=7)
TRAIN_LARGE = Workload(model_params_b=RULES.nvlink_model_params_b_min + 1, mode=Mode.TRAIN)


def failed_codes(build: Build, rules: RuleParams = RULES) -> set[str]:
    return set(evaluate(build, rules).failed_codes)


def status(check: checks.Check, build: Build, workload: Workload | None = None) -> Status:
    return check(build, workload, RULES).status


# The recipes and the pitfalls, as a table -------------------------------------------------


def single_socket_8_gpu() -> Build:
    return node(epyc_9754(), h100_sxm(), 8, 1024, psu_watts=12000, cpu_count=1)


BUILDS_AND_FAILURES = [
    pytest.param(s1(), set(), id="S1 4×L20 on 2×5318Y 256 GB"),
    pytest.param(s2(memory_gb=512), {"P3"}, id="S2 8×A800 512 GB"),
    pytest.param(s2(memory_gb=768), set(), id="S2 8×A800 768 GB"),
    pytest.param(s3(), set(), id="S3 8×H100 on 2×9754 1 TB"),
    pytest.param(legacy_e5(), {"P1", "pcie_lanes"}, id="legacy dual E5 with 8 GPUs"),
    pytest.param(single_socket_8_gpu(), {"P4", "numa"}, id="one socket carrying 8 GPUs"),
    pytest.param(s2(numa_binding=False), {"P2"}, id="no NUMA binding script"),
    pytest.param(s2(gpus_cross_numa=2), {"P2"}, id="GPUs wired across NUMA"),
    pytest.param(s2(gpus_per_socket=(6, 2)), {"P4"}, id="6 + 2 split"),
    pytest.param(s2(memory_ecc=False), {"P6"}, id="non-ECC memory"),
    pytest.param(s3(psu_watts=RULES.psu_floor_w_8gpu), {"P7"}, id="8×H100 on the 3600 W floor"),
    pytest.param(s2(nvlink=False), set(), id="no NVLink, no workload"),
]


def test_a_finding_never_changes_once_its_check_made_it() -> None:
    # Findings are not frozen dataclasses (engine/findings.py); the suite holds them to it.
    finding = evaluate(s2(), RuleParams()).checks[0]
    with pytest.raises(FrozenInstanceError):
        finding.status = Status.FAIL
    assert replace(finding, detail="another").detail == "another"


@pytest.mark.parametrize(("build", "expected"), BUILDS_AND_FAILURES)
def test_build_fails_exactly_the_expected_checks(build: Build, expected: set[str]) -> None:
    assert failed_codes(build) == expected


@pytest.mark.parametrize(("build", "expected"), BUILDS_AND_FAILURES)
def test_verdict_rejects_exactly_when_a_check_fails(build: Build, expected: set[str]) -> None:
    verdict = evaluate(build, RULES).verdict
    assert verdict is (Verdict.REJECT if expected else Verdict.ACCEPT)


def test_s2_with_512_gb_is_rejected_for_p3_only() -> None:
    """The guide pairs 8 × A800 80GB with 512 GB, but its own P3 asks for 1.2 × 640 = 768 GB.

    The engine keeps to its rules (domain.md §6): the recipe breaks P3 (and the memory
    dimension, the same requirement) and nothing else, and the fix names 768 GB as a valid
    DDR5 population: 16 channels × 48 GB.
    """
    evaluation = evaluate(s2(memory_gb=512), RULES)
    assert evaluation.pitfalls == ("P3",)
    p3 = evaluation.checks[CHECK_CODES.index("P3")]
    assert "768 GB" in p3.detail
    assert f"{RULES.memory_vram_ratio_min} × 640 GB VRAM" in p3.detail
    assert "512 GB" in p3.detail
    assert "16 × 48 GB DDR5 RDIMM" in p3.fix
    assert p3.impact


def test_s2_with_768_gb_is_accepted_and_balanced() -> None:
    """At 768 GB the S2 recipe meets P3 exactly: memory sits on the threshold, still balanced."""
    evaluation = evaluate(s2(memory_gb=768), RULES)
    assert evaluation.verdict is Verdict.ACCEPT
    assert evaluation.balance.memory == RULES.balance_score_min
    assert evaluation.balance.balanced


def test_guide_recipes_over_provisioned_threads_are_reported_as_waste_not_pitfall() -> None:
    for build in (s1(), s3()):
        finding = checks.cpu_threads_per_gpu(build, None, RULES)
        assert finding.status is Status.PASS
        assert "over-provisioned: cost waste" in finding.detail


def test_legacy_e5_details_state_the_lane_numbers() -> None:
    finding = checks.pcie_lane_budget(legacy_e5(), None, RULES)
    assert "128 lanes needed" in finding.detail
    assert "80 from 2 × Xeon E5-2680 v4" in finding.detail
    assert finding.numbers == {"lanes_needed": 128, "lanes_available": 80}


def test_single_socket_fix_asks_for_a_dual_socket_split() -> None:
    finding = checks.socket_overload(single_socket_8_gpu(), None, RULES)
    assert "CPU0 carries 8 GPUs" in finding.detail
    assert "4 + 4" in finding.fix


def test_every_check_is_registered_once_in_display_order() -> None:
    codes = tuple(finding.code for finding in evaluate(s1(), RULES).checks)
    assert codes == CHECK_CODES


def test_failed_findings_carry_impact_and_fix_passing_ones_do_not() -> None:
    for finding in evaluate(legacy_e5(memory_ecc=False), RULES).checks:
        if finding.failed:
            assert finding.impact and finding.fix, finding.code
        else:
            assert not finding.impact and not finding.fix, finding.code
        assert finding.title and finding.detail


def test_as_dict_has_the_api_shape_and_is_json() -> None:
    body = evaluate(s2(memory_gb=512), RULES).as_dict()
    assert set(body) == {"verdict", "pitfalls", "checks", "balance"}
    assert body["verdict"] == "reject"
    assert [p["code"] for p in body["pitfalls"]] == ["P3"]
    assert set(body["pitfalls"][0]) == {
        "code", "title", "title_translated", "detail", "impact", "fix"
    }  # fmt: skip
    assert [c["code"] for c in body["checks"]] == list(CHECK_CODES)
    assert set(body["checks"][0]) >= {
        "code", "status", "title", "title_translated", "title_message", "detail", "numbers"
    }  # fmt: skip
    assert set(body["balance"]) == {
        "cpu_threads",
        "pcie_lanes",
        "memory",
        "overall",
        "threshold",
        "balanced",
    }
    json.dumps(body)


# P1: PCIe generation -----------------------------------------------------------------------


def test_p1_passes_at_the_minimum_generation() -> None:
    assert status(checks.legacy_pcie_platform, s2(platform_pcie_gen=RULES.pcie_gen_min)) == "pass"


def test_p1_fails_one_generation_below_with_several_gpus() -> None:
    build = s2(platform_pcie_gen=RULES.pcie_gen_min - 1)
    finding = checks.legacy_pcie_platform(build, None, RULES)
    assert finding.status is Status.FAIL
    assert f"Gen{RULES.pcie_gen_min}" in finding.fix


def test_p1_spares_a_single_gpu_on_a_legacy_platform() -> None:
    assert status(checks.legacy_pcie_platform, legacy_e5(gpu_count=1)) == "pass"


# P2: NUMA binding --------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("changes", "expected"),
    [
        ({}, "pass"),
        ({"numa_binding": False}, "fail"),
        ({"gpus_cross_numa": 1}, "fail"),
    ],
)
def test_p2_needs_binding_and_no_cross_numa_gpu(changes: dict, expected: str) -> None:
    assert status(checks.numa_binding, s2(**changes)) == expected


# P3 and the memory dimension: the same requirement ----------------------------------------

MEMORY_CHECKS = [
    pytest.param(checks.memory_below_vram, id="P3"),
    pytest.param(checks.memory_capacity, id="memory"),
]
# P3 owns the shortfall: the memory dimension reports it as counted by P3 (docs/rules.md "One
# problem counted once"), never as a second failure.
SHORT = {checks.memory_below_vram: "fail", checks.memory_capacity: "na"}


@pytest.mark.parametrize("check", MEMORY_CHECKS)
def test_memory_at_the_vram_ratio_passes_one_gb_less_fails(check: checks.Check) -> None:
    need = math.ceil(RULES.memory_vram_ratio_min * s2().vram_gb)
    assert need > RULES.memory_floor_gb_8gpu
    assert status(check, s2(memory_gb=need)) == "pass"
    assert status(check, s2(memory_gb=need - 1)) == SHORT[check]


@pytest.mark.parametrize("check", MEMORY_CHECKS)
def test_an_8_gpu_node_needs_the_memory_floor(check: checks.Check) -> None:
    def cards(memory_gb: int) -> Build:
        return node(xeon_gold_6530(), rtx_4090(), 8, memory_gb, psu_watts=6000)

    assert RULES.memory_vram_ratio_min * cards(0).vram_gb < RULES.memory_floor_gb_8gpu
    assert status(check, cards(RULES.memory_floor_gb_8gpu)) == "pass"
    assert status(check, cards(RULES.memory_floor_gb_8gpu - 1)) == SHORT[check]


def test_the_memory_floor_does_not_apply_below_8_gpus() -> None:
    seven = node(xeon_gold_6530(), rtx_4090(), 7, 256, psu_watts=6000)
    assert RULES.memory_vram_ratio_min * seven.vram_gb <= 256 < RULES.memory_floor_gb_8gpu
    assert status(checks.memory_below_vram, seven) == "pass"


@pytest.mark.parametrize("check", MEMORY_CHECKS)
def test_a_profile_can_require_memory_per_gpu(check: checks.Check) -> None:
    need = NVIDIA_RA.memory_per_gpu_gb_min * s2().gpu_count
    assert need > RULES.memory_vram_ratio_min * s2().vram_gb
    assert check(s2(memory_gb=need), None, NVIDIA_RA).status is Status.PASS
    assert check(s2(memory_gb=need - 1), None, NVIDIA_RA).status == SHORT[check]


def test_memory_fix_rounds_up_to_a_ddr4_population_without_48_gb_dimms() -> None:
    # 4 × A800 on DDR4 needs 384 GB; 16 channels × 24 GB does not exist, 16 × 32 GB = 512 does.
    build = node(xeon_gold_5318y(), a800_pcie(), 4, 256, psu_watts=3000)
    finding = checks.memory_below_vram(build, None, RULES)
    assert finding.status is Status.FAIL
    assert "16 × 32 GB DDR4 RDIMM" in finding.fix
    assert "+256 GB" in finding.fix


def test_memory_passing_detail_states_headroom() -> None:
    detail = checks.memory_capacity(s3(), None, RULES).detail
    assert detail == "1024 GB for 768 GB needed (1.2 × 640 GB VRAM): +33% headroom"


# P4 and the NUMA dimension -----------------------------------------------------------------


def test_p4_passes_at_the_per_socket_maximum() -> None:
    most = RULES.gpus_per_socket_max
    build = s2(gpu_count=2 * most, gpus_per_socket=(most, most))
    assert status(checks.socket_overload, build) == "pass"


def test_p4_fails_one_gpu_over_the_per_socket_maximum() -> None:
    most = RULES.gpus_per_socket_max
    build = s2(gpu_count=2 * most, gpus_per_socket=(most + 1, most - 1))
    finding = checks.socket_overload(build, None, RULES)
    assert finding.status is Status.FAIL
    assert f"{most} + {most}" in finding.fix


def test_p4_fix_spreads_more_gpus_than_two_sockets_hold_over_nodes() -> None:
    most = RULES.gpus_per_socket_max
    gpus = 2 * most + 2
    build = s2(gpu_count=gpus, gpus_per_socket=(most + 1, most + 1))
    assert "over 2 nodes" in checks.socket_overload(build, None, RULES).fix


@pytest.mark.parametrize(
    ("cpu_count", "split", "expected"),
    [
        pytest.param(2, (4, 4), "pass", id="4 + 4"),
        pytest.param(2, (5, 5), "pass", id="5 + 5 even, at the maximum"),
        pytest.param(2, (5, 4), "pass", id="5 + 4 differs by one"),
        pytest.param(2, (5, 3), "warn", id="5 + 3 uneven within the maximum"),
        pytest.param(2, (4, 2), "warn", id="4 + 2 uneven"),
        pytest.param(2, (6, 2), "na", id="6 + 2 over the maximum: counted by P4"),
        pytest.param(1, (4,), "fail", id="one socket: the baseline is dual-socket"),
        pytest.param(1, (6,), "fail", id="one socket over the maximum"),
    ],
)
def test_numa_wants_an_even_split_within_the_maximum(
    cpu_count: int, split: tuple[int, ...], expected: str
) -> None:
    # The table is written for the default maximum of 5 GPUs per socket (P4 at 6 or more).
    assert RULES.gpus_per_socket_max == 5
    build = s2(cpu_count=cpu_count, gpu_count=sum(split), gpus_per_socket=split)
    assert status(checks.numa_affinity, build) == expected


def test_single_socket_passes_numa_only_when_the_profile_allows_one_socket() -> None:
    build = s2(cpu_count=1, gpu_count=4, gpus_per_socket=(4,))
    finding = checks.numa_affinity(build, None, RULES)
    assert finding.status == "fail"
    assert f"{RULES.sockets_min}-socket" in finding.detail and "platform" in finding.fix
    one_socket_ok = replace(RULES, sockets_min=1)
    assert checks.numa_affinity(build, None, one_socket_ok).status == "pass"


def test_numa_leaves_a_gpu_served_across_numa_nodes_to_p2() -> None:
    assert status(checks.numa_binding, s2(gpus_cross_numa=1)) == "fail"
    assert status(checks.numa_affinity, s2(gpus_cross_numa=1)) == "na"


# P5: NVLink for multi-GPU training ---------------------------------------------------------


def test_p5_passes_a_model_at_the_size_threshold_without_nvlink() -> None:
    at_threshold = Workload(model_params_b=RULES.nvlink_model_params_b_min, mode=Mode.TRAIN)
    assert status(checks.training_without_nvlink, s2(nvlink=False), at_threshold) == "pass"


@pytest.mark.parametrize("mode", [Mode.TRAIN, Mode.FINETUNE])
def test_p5_fails_a_larger_model_trained_without_nvlink(mode: Mode) -> None:
    workload = replace(TRAIN_LARGE, mode=mode)
    assert status(checks.training_without_nvlink, s2(nvlink=False), workload) == "fail"
    assert status(checks.training_without_nvlink, s2(nvlink=True), workload) == "pass"


def test_p5_fails_a_gpu_that_has_no_nvlink_even_if_the_build_claims_it() -> None:
    build = node(xeon_gold_6530(), l20(), 8, 512, psu_watts=6000, nvlink=True)
    finding = checks.training_without_nvlink(build, TRAIN_LARGE, RULES)
    assert finding.status is Status.FAIL
    assert "has no NVLink" in finding.detail


@pytest.mark.parametrize(
    ("build", "workload"),
    [
        pytest.param(s2(nvlink=False), None, id="no workload"),
        pytest.param(s2(nvlink=False), replace(TRAIN_LARGE, mode=Mode.INFER), id="inference"),
        pytest.param(s2(nvlink=False, gpu_count=1, gpus_per_socket=(1, 0)), TRAIN_LARGE, id="1"),
    ],
)
def test_p5_does_not_apply(build: Build, workload: Workload | None) -> None:
    assert status(checks.training_without_nvlink, build, workload) == "na"


# P6: ECC ----------------------------------------------------------------------------------


def test_p6_fails_non_ecc_memory_and_names_an_ecc_population() -> None:
    finding = checks.non_ecc_memory(s2(memory_ecc=False), None, RULES)
    assert finding.status is Status.FAIL
    assert "16 × 48 GB DDR5 RDIMM" in finding.fix
    assert status(checks.non_ecc_memory, s2()) == "pass"


# P7: PSU ----------------------------------------------------------------------------------


@pytest.mark.parametrize("build", [s1(), s2(), s3()], ids=["S1", "S2", "S3"])
def test_p7_passes_at_the_required_watts_one_watt_less_fails(build: Build) -> None:
    required = power_budget(build, RULES).required_w
    assert status(checks.psu_undersized, replace(build, psu_watts=required)) == "pass"
    assert status(checks.psu_undersized, replace(build, psu_watts=required - 1)) == "fail"


def test_p7_floor_governs_a_low_power_4_gpu_node() -> None:
    light = replace(RULES, psu_headroom=1.0, chassis_overhead_w=0)
    floor = light.psu_floor_w_4gpu
    build = node(xeon_gold_5318y(), l20(), 4, 256, dimm_count=8)
    assert power_budget(build, light).need_w < floor
    assert checks.psu_undersized(replace(build, psu_watts=floor), None, light).status == "pass"
    assert checks.psu_undersized(replace(build, psu_watts=floor - 1), None, light).status == "fail"


def test_p7_fix_names_the_missing_watts() -> None:
    """(5600 + 720 + 240 + 200 + 8 × 259 HGX) = 8832 W × 1.1 = 9716 W; 6000 W is 3716 short."""
    finding = checks.psu_undersized(s3(psu_watts=6000), None, RULES)
    assert "9716 W" in finding.fix
    assert "+3716 W" in finding.fix
    assert "8 × 700 W GPUs" in finding.detail
    assert "2272 W board, fans, HGX" in finding.detail


# P8: base clock for small-batch inference --------------------------------------------------


def _clocked(ghz: float) -> Build:
    return s2(cpu=replace(xeon_gold_6530(), base_ghz=ghz))


SMALL_BATCH = Workload(model_params_b=7, mode=Mode.INFER, batch_size=RULES.small_batch_max)


def test_p8_passes_small_batch_inference_at_the_minimum_clock() -> None:
    assert status(checks.low_base_clock, _clocked(RULES.cpu_base_ghz_min), SMALL_BATCH) == "pass"


def test_p8_fails_small_batch_inference_just_below_the_minimum_clock() -> None:
    build = _clocked(round(RULES.cpu_base_ghz_min - 0.01, 2))
    finding = checks.low_base_clock(build, SMALL_BATCH, RULES)
    assert finding.status is Status.FAIL
    assert "Xeon Gold 6542Y 2.9 GHz" in finding.fix


def test_p8_fix_for_an_epyc_names_an_epyc_first() -> None:
    finding = checks.low_base_clock(s3(), SMALL_BATCH, RULES)
    assert finding.fix.index("EPYC 9374F 3.85 GHz") < finding.fix.index("Xeon")


@pytest.mark.parametrize(
    "workload",
    [
        pytest.param(None, id="no workload"),
        pytest.param(replace(SMALL_BATCH, mode=Mode.TRAIN), id="training"),
        pytest.param(replace(SMALL_BATCH, mode=Mode.FINETUNE), id="fine-tuning"),
        pytest.param(replace(SMALL_BATCH, batch_size=RULES.small_batch_max + 1), id="large batch"),
    ],
)
def test_p8_does_not_apply_outside_small_batch_inference(workload: Workload | None) -> None:
    slow = _clocked(round(RULES.cpu_base_ghz_min - 0.01, 2))
    assert status(checks.low_base_clock, slow, workload) == "na"


# PCIe lanes --------------------------------------------------------------------------------


def _lane_limited(gpus: int, nvme: int = 0, **changes: object) -> Build:
    return node(xeon_gold_5318y(), l20(), gpus, 1024, psu_watts=6000, nvme=nvme, **changes)


def test_pcie_lanes_pass_when_the_need_equals_what_the_cpus_provide() -> None:
    gpus = xeon_gold_5318y().lanes_for(2) // RULES.pcie_lanes_per_gpu
    assert status(checks.pcie_lane_budget, _lane_limited(gpus)) == "pass"


def test_pcie_lanes_fail_one_device_over_what_the_cpus_provide() -> None:
    gpus = xeon_gold_5318y().lanes_for(2) // RULES.pcie_lanes_per_gpu
    assert status(checks.pcie_lane_budget, _lane_limited(gpus, nvme=1)) == "fail"


def test_pcie_lanes_count_nics_beside_direct_gpus() -> None:
    build = _lane_limited(4, nics=4)
    finding = checks.pcie_lane_budget(build, None, RULES)
    assert finding.numbers["lanes_needed"] == 4 * RULES.pcie_lanes_per_gpu + 4 * build.nic_lanes


def test_pcie_lanes_count_switch_uplinks_not_the_devices_behind_them() -> None:
    gpus = xeon_gold_5318y().lanes_for(2) // RULES.pcie_lanes_per_gpu * 2
    build = _lane_limited(gpus, nics=gpus, pcie_switch_uplinks=4)
    finding = checks.pcie_lane_budget(build, None, RULES)
    assert finding.numbers["lanes_needed"] == 4 * RULES.pcie_lanes_per_gpu
    assert finding.status is Status.PASS


def test_a_legacy_dual_e5_carries_only_as_many_x16_gpus_as_its_80_lanes_allow() -> None:
    fits = xeon_e5_2680_v4().lanes_for(2) // RULES.pcie_lanes_per_gpu
    assert status(checks.pcie_lane_budget, legacy_e5(gpu_count=fits)) == "pass"
    assert status(checks.pcie_lane_budget, legacy_e5(gpu_count=fits + 1)) == "fail"


# CPU threads per GPU -----------------------------------------------------------------------


def _threaded(threads_per_socket: int, cores_per_socket: int | None = None) -> Build:
    cpu = replace(
        xeon_gold_6530(),
        threads=threads_per_socket,
        cores=cores_per_socket or threads_per_socket // 2,
    )
    return node(cpu, a800_sxm(), 2, 512, psu_watts=6000)


def test_threads_per_gpu_at_the_minimum_pass() -> None:
    # Two sockets, two GPUs: threads per socket equal threads per GPU.
    assert status(checks.cpu_threads_per_gpu, _threaded(int(RULES.threads_per_gpu_min))) == "pass"


def test_threads_per_gpu_below_the_minimum_fail() -> None:
    build = _threaded(int(RULES.threads_per_gpu_min) - 1)
    finding = checks.cpu_threads_per_gpu(build, None, RULES)
    assert finding.status is Status.FAIL
    assert f"≥ {int(RULES.threads_per_gpu_min)} threads per socket" in finding.fix


def test_threads_per_gpu_at_the_maximum_are_not_over_provisioned() -> None:
    detail = checks.cpu_threads_per_gpu(_threaded(int(RULES.threads_per_gpu_max)), None, RULES)
    assert "over-provisioned" not in detail.detail
    over = checks.cpu_threads_per_gpu(_threaded(int(RULES.threads_per_gpu_max) + 1), None, RULES)
    assert over.status is Status.PASS
    assert "over-provisioned: cost waste" in over.detail


def test_a_profile_can_require_cores_per_gpu() -> None:
    cores = int(NVIDIA_RA.cores_per_gpu_min)
    enough = _threaded(2 * cores, cores_per_socket=cores)
    short = _threaded(2 * cores, cores_per_socket=cores - 1)
    assert checks.cpu_threads_per_gpu(enough, None, NVIDIA_RA).status is Status.PASS
    assert checks.cpu_threads_per_gpu(short, None, NVIDIA_RA).status is Status.FAIL


# The recipes with their workloads (domain.md §3) --------------------------------------------

LORA_7B = Workload(7, Mode.FINETUNE, batch_size=4, finetune_method=FinetuneMethod.LORA)
TRAIN_34B = Workload(34, Mode.TRAIN, batch_size=2)
TRAIN_175B = Workload(175, Mode.TRAIN, batch_size=1)


def s3_fabric(**changes: object) -> Build:
    """S3 on its HGX board (4 PCIe switch uplinks) with one 400G NIC per H100."""
    fabric = {"pcie_switch_uplinks": 4, "nics": 8, "nic_speed_gbps": 400, "nic_lanes": 16}
    return s3(**{**fabric, **changes})


RECIPES_WITH_WORKLOADS = [
    pytest.param(s1(), LORA_7B, set(), id="S1 LoRA fine-tuning of 7B"),
    pytest.param(s1(), SMALL_BATCH, {"P8"}, id="S1 small-batch inference: base clock"),
    pytest.param(s2(memory_gb=512), TRAIN_34B, {"P3"}, id="S2 512 GB, 34B training"),
    pytest.param(s2(), TRAIN_34B, set(), id="S2 768 GB, 34B training"),
    pytest.param(s2(nvlink=False), TRAIN_34B, {"P5"}, id="S2 without NVLink, 34B training"),
    pytest.param(s3_fabric(nodes=6), TRAIN_175B, set(), id="S3 × 6 nodes, 175B training"),
    pytest.param(s3_fabric(nodes=5), TRAIN_175B, {"capacity"}, id="S3 × 5 nodes, 175B training"),
    pytest.param(s3(nodes=6), TRAIN_175B, {"fabric"}, id="S3 × 6 nodes without NICs"),
]


@pytest.mark.parametrize(("build", "workload", "expected"), RECIPES_WITH_WORKLOADS)
def test_recipe_with_workload_fails_exactly_the_expected_checks(
    build: Build, workload: Workload, expected: set[str]
) -> None:
    evaluation = evaluate(build, RULES, workload)
    assert set(evaluation.failed_codes) == expected
    assert evaluation.verdict is (Verdict.REJECT if expected else Verdict.ACCEPT)


def test_s1_small_batch_inference_fix_names_a_high_base_clock_cpu() -> None:
    """All three recipe CPUs sit under P8's 2.4 GHz; only small-batch inference is refused."""
    finding = checks.low_base_clock(s1(), SMALL_BATCH, RULES)
    assert finding.status is Status.FAIL
    assert "2.1 GHz base" in finding.detail
    assert finding.fix.startswith(f"a high-base-clock CPU (≥ {RULES.cpu_base_ghz_min} GHz base)")
    assert "Xeon Gold 6542Y 2.9 GHz" in finding.fix
    assert "EPYC 9374F 3.85 GHz" in finding.fix


def test_s3_training_builds_are_not_rejected_for_base_clock() -> None:
    assert status(checks.low_base_clock, s3(), TRAIN_175B) == "na"


# GPU memory capacity -----------------------------------------------------------------------


def _with_gpu_memory(build: Build, memory_gb: int) -> Build:
    return replace(build, gpu=replace(build.gpu, memory_gb=memory_gb))


def test_capacity_passes_when_the_usable_memory_holds_the_need_and_fails_below() -> None:
    """Each GPU may fill 90 % of its memory; the maker's GB are GiB (2³⁰ bytes)."""
    build = s3(nodes=6)
    need = size_workload(TRAIN_175B, gpu_count=build.gpu_count * build.nodes).per_gpu_gb
    fits = math.ceil(need / (card_gb(1) * RULES.gpu_memory_usable_fraction))
    assert (
        usable_gb(fits - 1, RULES.gpu_memory_usable_fraction)
        < need
        <= usable_gb(fits, RULES.gpu_memory_usable_fraction)
    )
    assert status(checks.gpu_memory_capacity, _with_gpu_memory(build, fits), TRAIN_175B) == "pass"
    short = _with_gpu_memory(build, fits - 1)
    assert status(checks.gpu_memory_capacity, short, TRAIN_175B) == "fail"


def test_capacity_never_plans_a_card_full() -> None:
    """A need at 95 % of the card fails at the default 90 %, passes at a profile's 100 %."""
    build = s3(nodes=6)
    need = size_workload(TRAIN_175B, gpu_count=48).per_gpu_gb
    memory = math.ceil(need / card_gb(1) / 0.95)
    tight = _with_gpu_memory(build, memory)
    assert checks.gpu_memory_capacity(tight, TRAIN_175B, RULES).status is Status.FAIL
    full = replace(RULES, gpu_memory_usable_fraction=1.0)
    assert checks.gpu_memory_capacity(tight, TRAIN_175B, full).status is Status.PASS


def test_capacity_states_need_usable_and_card_memory_with_their_units() -> None:
    finding = checks.gpu_memory_capacity(s3_fabric(nodes=6), TRAIN_175B, RULES)
    assert finding.status is Status.PASS
    assert "may fill 77.31 GB (90% of its 80 GiB = 85.9 GB)" in finding.detail
    assert finding.numbers["usable_gb"] == 77.31


def test_capacity_counts_every_node_and_says_how_many_gpus_fit() -> None:
    finding = checks.gpu_memory_capacity(s3(nodes=4), TRAIN_175B, RULES)
    assert finding.status is Status.FAIL
    assert "over 32 GPUs (4 nodes)" in finding.detail
    fewest = finding.numbers["gpus_fitting"]
    assert fewest == gpus_needed(TRAIN_175B, usable_gb(80, RULES.gpu_memory_usable_fraction), 1024)
    nodes = math.ceil(fewest / 8)
    assert f"at least {fewest} × H100 80GB SXM5 ({nodes} nodes of 8)" in finding.fix
    assert "8 × ≥ 400 Gb/s NICs per node" in finding.fix


def test_capacity_fix_passes_when_applied() -> None:
    """The fix's node count, with the NICs it names, is accepted on capacity and fabric."""
    finding = checks.gpu_memory_capacity(s3(nodes=4), TRAIN_175B, RULES)
    nodes = math.ceil(finding.numbers["gpus_fitting"] / 8)
    fixed = s3_fabric(nodes=nodes)
    assert evaluate(fixed, RULES, TRAIN_175B).verdict is Verdict.ACCEPT


def test_capacity_needs_a_workload() -> None:
    assert status(checks.gpu_memory_capacity, s3()) == "na"


# P5 for full-parameter training only; precision; fabric ------------------------------------


@pytest.mark.parametrize("method", [FinetuneMethod.LORA, FinetuneMethod.QLORA])
def test_p5_passes_lora_and_qlora_with_a_note(method: FinetuneMethod) -> None:
    build = node(xeon_gold_6530(), rtx_4090(), 8, 512, psu_watts=6000)
    workload = Workload(70, Mode.FINETUNE, finetune_method=method)
    finding = checks.training_without_nvlink(build, workload, RULES)
    assert finding.status is Status.PASS
    assert "only the adapters' gradients" in finding.detail


def test_p5_fails_full_fine_tuning_of_a_large_model_without_nvlink() -> None:
    build = node(xeon_gold_6530(), rtx_4090(), 8, 512, psu_watts=6000)
    workload = Workload(70, Mode.FINETUNE, finetune_method=FinetuneMethod.FULL)
    finding = checks.training_without_nvlink(build, workload, RULES)
    assert finding.status is Status.FAIL
    assert "full fine-tuning" in finding.detail
    assert "LoRA" in finding.fix


@pytest.mark.parametrize(
    ("gpu", "precision", "expected"),
    [
        pytest.param(a800_sxm(), "fp8", "fail", id="FP8 on Ampere A800"),
        pytest.param(h100_sxm(), "fp8", "pass", id="FP8 on Hopper H100"),
        pytest.param(l20(), "fp8", "pass", id="FP8 on Ada L20"),
        pytest.param(rtx_4090(), "fp8", "pass", id="FP8 on Ada RTX 4090"),
        pytest.param(a800_sxm(), "bf16", "pass", id="BF16 on Ampere"),
        pytest.param(a800_sxm(), "int4", "pass", id="weight-only INT4 on Ampere"),
    ],
)
def test_precision_against_the_gpu_architecture(gpu, precision: str, expected: str) -> None:
    build = node(xeon_gold_6530(), gpu, 8, 1024, psu_watts=12000)
    workload = Workload(7, Mode.INFER, precision=precision)
    assert status(checks.precision_supported, build, workload) == expected


def test_precision_fix_names_a_format_and_gpus_that_run_it() -> None:
    workload = Workload(7, Mode.INFER, precision="fp8")
    finding = checks.precision_supported(s2(), workload, RULES)
    assert "bf16" in finding.fix and "H100" in finding.fix
    assert checks.precision_supported(s2(), None, RULES).status is Status.NA


@pytest.mark.parametrize(
    ("build", "workload", "expected"),
    [
        pytest.param(s3(), TRAIN_175B, "na", id="one node"),
        pytest.param(s3(nodes=2), Workload(70, Mode.INFER), "na", id="inference"),
        pytest.param(s3(nodes=2), None, "na", id="no workload"),
        pytest.param(s3(nodes=2), TRAIN_175B, "fail", id="two nodes, no NICs"),
        pytest.param(s3_fabric(nodes=2), TRAIN_175B, "pass", id="one 400G NIC per H100"),
        pytest.param(s3_fabric(nodes=2, nics=4), TRAIN_175B, "fail", id="one NIC per pair"),
        pytest.param(s3_fabric(nodes=2, nic_speed_gbps=200), TRAIN_175B, "fail", id="200G"),
        pytest.param(s3_fabric(nodes=2, nic_speed_gbps=0), TRAIN_175B, "fail", id="speed unknown"),
        pytest.param(s2(nodes=2, nics=8, nic_speed_gbps=200), TRAIN_34B, "pass", id="A800 200G"),
        pytest.param(
            s1(nodes=2),
            Workload(7, Mode.FINETUNE, finetune_method=FinetuneMethod.LORA),
            "fail",
            id="LoRA over two nodes still exchanges gradients",
        ),
    ],
)
def test_fabric_for_multi_node_training(build: Build, workload, expected: str) -> None:
    assert status(checks.multi_node_fabric, build, workload) == expected


def test_fabric_share_comes_from_the_profile() -> None:
    pairs = replace(RULES, gpus_per_nic=2)
    finding = checks.multi_node_fabric(s3_fabric(nodes=2, nics=4), TRAIN_175B, pairs)
    assert finding.status is Status.PASS


def test_fabric_fix_on_a_direct_board_says_when_the_lanes_do_not_hold_the_nics() -> None:
    """8 GPUs and 4 NICs (one per two PCIe GPUs) direct to 2 × 6530 need 192 lanes of 160."""
    build = node(xeon_gold_6530(), a800_pcie(), 8, 1024, psu_watts=6000, nodes=2)
    finding = checks.multi_node_fabric(build, TRAIN_34B, RULES)
    assert finding.status is Status.FAIL
    assert "PCIe-switch board" in finding.fix
    assert "192 lanes" in finding.fix and "160" in finding.fix
    assert "4 GPUs per node with 2 NICs" in finding.fix
    fewer = node(xeon_gold_6530(), a800_pcie(), 4, 512, psu_watts=6000, nodes=4)
    fitted = replace(fewer, nics=4, nic_speed_gbps=200)
    assert checks.pcie_lane_budget(fitted, None, RULES).status is Status.PASS
    assert checks.multi_node_fabric(fitted, TRAIN_34B, RULES).status is Status.PASS


# Fixes propose changes that pass --------------------------------------------------------------


def test_lane_fix_never_offers_a_platform_smaller_than_the_need() -> None:
    """8 GPUs + 8 NICs + 8 NVMe need 288 lanes: no two-socket platform gives that many."""
    build = node(xeon_gold_6530(), a800_pcie(), 8, 1024, psu_watts=8000, nics=8, nvme=8)
    finding = checks.pcie_lane_budget(build, None, RULES)
    assert finding.status is Status.FAIL
    assert "288 lanes needed" in finding.detail
    assert "a platform with ≥" not in finding.fix
    assert "no two-socket platform gives 288 lanes" in finding.fix
    assert "PCIe-switch board" in finding.fix
    assert "split the 8 GPUs over 2 nodes of 4" in finding.fix
    split = replace(build, gpu_count=4, gpus_per_socket=(2, 2), nics=4, nodes=2)
    assert checks.pcie_lane_budget(split, None, RULES).status is Status.PASS


def test_lane_fix_names_a_platform_when_one_holds_the_need() -> None:
    finding = checks.pcie_lane_budget(legacy_e5(), None, RULES)
    assert "a platform with ≥ 128 usable lanes" in finding.fix
    assert "Xeon Gold 6530 (Gen5, 160 lanes)" in finding.fix


@pytest.mark.parametrize(
    "build",
    [
        pytest.param(legacy_e5(memory_ecc=False, numa_binding=False), id="legacy E5, everything"),
        pytest.param(s2(gpus_per_socket=(6, 2), memory_gb=512), id="S2 6 + 2, 512 GB"),
        pytest.param(s3(psu_watts=3600, nodes=2), id="S3 on the floor, two nodes"),
    ],
)
def test_no_text_shows_an_internal_code(build: Build) -> None:
    internal = ("psu_bays", "gpus_per_socket_max", "nic_speed", "rated_power", "pcie_lanes_per")
    for finding in evaluate(build, RULES, TRAIN_34B).checks:
        for text in (finding.detail, finding.fix):
            assert not any(code in text for code in internal), (finding.code, text)


# Properties: a fix, applied, passes its own check -------------------------------------------

GPUS = [rtx_4090(), l20(), a800_pcie(), a800_sxm(), h100_sxm()]


@settings(max_examples=60, deadline=None)
@given(
    gpu=st.sampled_from(GPUS),
    params=st.sampled_from([7, 13, 34, 70, 175, 405]),
    mode=st.sampled_from([Mode.TRAIN, Mode.INFER]),
    batch=st.sampled_from([1, 4, 32]),
)
def test_capacity_fix_applied_passes_capacity_and_fabric(gpu, params, mode, batch) -> None:
    build = node(xeon_gold_6530(), gpu, 8, 2048, psu_watts=20_000)
    workload = Workload(params, mode, batch_size=batch)
    finding = checks.gpu_memory_capacity(build, workload, RULES)
    if finding.status is Status.PASS or "gpus_fitting" not in finding.numbers:
        return
    nodes = math.ceil(finding.numbers["gpus_fitting"] / build.gpu_count)
    need = nic_requirement(gpu, RULES)
    fixed = replace(
        build, nodes=nodes, nics=need.nics_for(8), nic_speed_gbps=need.speed_gbps_min,
        pcie_switch_uplinks=4,
    )  # fmt: skip
    assert checks.gpu_memory_capacity(fixed, workload, RULES).status is Status.PASS
    assert checks.multi_node_fabric(fixed, workload, RULES).status is not Status.FAIL


@settings(max_examples=40, deadline=None)
@given(
    gpu=st.sampled_from(GPUS),
    gpus=st.sampled_from([2, 4, 8]),
    nodes=st.integers(2, 8),
    nics=st.integers(0, 8),
    speed=st.sampled_from([0, 100, 200, 400]),
)
def test_fabric_fix_applied_passes_fabric(gpu, gpus, nodes, nics, speed) -> None:
    build = node(xeon_gold_6530(), gpu, gpus, 2048, nodes=nodes, nics=nics, nic_speed_gbps=speed)
    finding = checks.multi_node_fabric(build, TRAIN_34B, RULES)
    if finding.status is not Status.FAIL:
        return
    need = nic_requirement(gpu, RULES)
    fixed = replace(build, nics=need.nics_for(gpus), nic_speed_gbps=need.speed_gbps_min)
    assert checks.multi_node_fabric(fixed, TRAIN_34B, RULES).status is Status.PASS
    assert f"{need.nics_for(gpus)} × ≥ {need.speed_gbps_min} Gb/s" in finding.fix


def test_p7_fix_proposes_fewer_gpus_when_the_platforms_bays_cannot_hold_the_need() -> None:
    """4 bays × 2000 W cannot feed 8 × H100 SXM: the fix must not ask for PSUs that won't fit."""
    build = s3(psu_watts=6000, platform_psu_w=8000)
    finding = checks.psu_undersized(build, None, RULES)
    assert finding.status is Status.FAIL
    assert "bays hold at most 8000 W" in finding.fix
    assert "put 4 GPUs in each node" in finding.fix and "over 2 nodes" in finding.fix
    fewer = s3(gpu_count=4, gpus_per_socket=(2, 2), psu_watts=8000, platform_psu_w=8000)
    assert checks.psu_undersized(fewer, None, RULES).status is Status.PASS


def test_p7_fix_asks_for_psus_when_the_bays_hold_them() -> None:
    finding = checks.psu_undersized(s3(psu_watts=6000, platform_psu_w=18000), None, RULES)
    assert finding.fix.startswith("fit PSUs giving ≥ 9716 W usable")
