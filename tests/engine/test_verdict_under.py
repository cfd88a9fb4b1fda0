"""Another profile's verdict, re-running only what reads a parameter it sets otherwise.

`/evaluate` and the configurator show, beside the operator's verdict, the verdict of every
other published profile (domain.md §8). `verdict_under` reuses each finding whose check read
no parameter that differs; it must give exactly the verdict a full evaluation gives, for any
profile an architect could publish.
"""

from dataclasses import fields, replace

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from configurator.engine.build import FinetuneMethod, Mode, Workload
from configurator.engine.evaluate import Verdict, differing, evaluate, verdict_under
from configurator.engine.registry import REGISTRY
from configurator.engine.rule_validation import parameter_errors
from configurator.engine.rules import RuleParams
from tests.engine.builders import (
    epyc_9374f,
    h100_nvl,
    h100_sxm,
    h200,
    legacy_e5,
    node,
    rtx_4090,
    s1,
    s2,
    s3,
    xeon_gold_5318y,
    xeon_gold_6530,
    xeon_gold_6542y,
)

BUILDS = {
    "S1": s1(),
    "S2": s2(),
    "S3": s3(),
    "S2 at 512 GB (P3)": s2(memory_gb=512),
    "S3 without binding (P2)": s3(numa_binding=False),
    "S2 at 6 + 2 (P4)": s2(gpus_per_socket=(6, 2)),
    "S1 non-ECC (P6)": s1(memory_ecc=False),
    "S2 on 3 kW (P7)": s2(psu_watts=3000),
    "legacy E5 (P1)": legacy_e5(),
    "8 × H200 on 6542Y": node(xeon_gold_6542y(), h200(), 8, 2048, psu_watts=12_000),
    "4 × H100 NVL on 9374F": node(epyc_9374f(), h100_nvl(), 4, 1024, psu_watts=5000),
    "8 × 4090 on 5318Y": node(xeon_gold_5318y(), rtx_4090(), 8, 512, psu_watts=6000),
    "2 nodes × 8 H100, no NIC": s3(nodes=2),
    "8 × H100 on one 6530": node(xeon_gold_6530(), h100_sxm(), 8, 1024, cpu_count=1),
}
WORKLOADS = {
    "none": None,
    "70B training": Workload(model_params_b=70, mode=Mode.TRAIN, batch_size=64),
    "13B inference, batch 4": Workload(model_params_b=13, mode=Mode.INFER, batch_size=4),
    "7B LoRA": Workload(
        model_params_b=7, mode=Mode.FINETUNE, batch_size=4, finetune_method=FinetuneMethod.LORA
    ),
    "405B FP8 inference": Workload(None, Mode.INFER, model="llama-3.1-405b", precision="fp8"),
}
NVIDIA_RA = RuleParams(
    threads_per_gpu_min=7,
    cores_per_gpu_min=7,
    memory_per_gpu_gb_min=128,
    cpu_base_ghz_min=2.0,
    gpus_per_nic=2,
)  # fmt: skip  (the values migration 0002/0005 publish for "nvidia-ra-2-8-5")


def _factor(value: float | int, factor: float) -> float | int:
    moved = value * factor if value else factor
    return max(1, round(moved)) if isinstance(value, int) else moved


@st.composite
def other_rules(draw) -> RuleParams:
    """A profile an architect could publish: some parameters moved, each within its bounds."""
    base = RuleParams()
    names = draw(st.sets(st.sampled_from([f.name for f in fields(RuleParams)]), max_size=4))
    changes = {
        name: _factor(getattr(base, name), draw(st.sampled_from((0.5, 0.8, 1.25, 2.0))))
        for name in names
    }
    assume(not parameter_errors(changes, base))
    return replace(base, **changes)


@pytest.mark.parametrize("workload", WORKLOADS.values(), ids=WORKLOADS.keys())
@pytest.mark.parametrize("build", BUILDS.values(), ids=BUILDS.keys())
def test_nvidia_ra_verdict_is_the_full_evaluations(build, workload):
    judged = evaluate(build, RuleParams(), workload, watch=differing(RuleParams(), [NVIDIA_RA]))
    assert (
        verdict_under(judged, build, workload, NVIDIA_RA)
        == evaluate(build, NVIDIA_RA, workload).verdict
    )


def test_a_changed_parameter_is_judged_again():
    """S2 with 1 TB serving 13B at batch 4: 2.1 GHz fails P8 under the operator (≥ 2.4 GHz)
    and passes NVIDIA RA (≥ 2.0 GHz); reusing P8's finding would say reject."""
    build, workload = s2(memory_gb=1024), WORKLOADS["13B inference, batch 4"]
    judged = evaluate(build, RuleParams(), workload, watch=differing(RuleParams(), [NVIDIA_RA]))
    assert judged.verdict == Verdict.REJECT
    assert "cpu_base_ghz_min" in judged.reads["P8"]
    assert verdict_under(judged, build, workload, NVIDIA_RA) == Verdict.ACCEPT


def test_only_the_watched_parameters_a_check_reads_are_kept():
    watch = differing(RuleParams(), [NVIDIA_RA])
    assert watch == {
        "threads_per_gpu_min", "cores_per_gpu_min", "memory_per_gpu_gb_min",
        "cpu_base_ghz_min", "gpus_per_nic",
    }  # fmt: skip
    judged = evaluate(s2(), RuleParams(), WORKLOADS["70B training"], watch=watch)
    assert judged.reads["P3"] == {"memory_per_gpu_gb_min"}
    assert "cpu_base_ghz_min" not in judged.reads["P3"]
    assert "P6" not in judged.reads  # ECC reads none of them
    assert judged.reads["balance"]


def test_a_profile_that_changes_an_unwatched_parameter_is_judged_in_full():
    """Watching NVIDIA RA's parameters says nothing of a profile that moves the PSU
    headroom: its verdict comes from a whole evaluation (S2 on 6 kW fails P7 at × 2)."""
    build = s2(memory_gb=1024)
    judged = evaluate(build, RuleParams(), None, watch=differing(RuleParams(), [NVIDIA_RA]))
    stricter = replace(RuleParams(), psu_headroom=2.0)
    assert verdict_under(judged, build, None, stricter) == evaluate(build, stricter).verdict
    assert evaluate(build, stricter).verdict == Verdict.REJECT


def test_an_evaluation_that_watched_nothing_reuses_nothing_it_cannot():
    build = s2(memory_gb=1024)
    judged = evaluate(build, RuleParams(), WORKLOADS["13B inference, batch 4"])
    assert verdict_under(judged, build, WORKLOADS["13B inference, batch 4"], NVIDIA_RA) == (
        Verdict.ACCEPT
    )
    assert verdict_under(judged, build, None, RuleParams()) == judged.verdict


@settings(max_examples=150, deadline=None)
@given(
    build=st.sampled_from(list(BUILDS.values())),
    workload=st.sampled_from(list(WORKLOADS.values())),
    rules=other_rules(),
)
def test_any_other_profile_gets_the_full_evaluations_verdict(build, workload, rules):
    judged = evaluate(build, RuleParams(), workload, watch=differing(RuleParams(), [rules]))
    assert verdict_under(judged, build, workload, rules) == evaluate(build, rules, workload).verdict


# Checks with a decision (`fails`) are re-run by it alone: it must say what the finding says.
DECIDING = [registered for registered in REGISTRY if registered.fails is not None]


@pytest.mark.parametrize("rules", [RuleParams(), NVIDIA_RA], ids=["operator", "NVIDIA RA"])
@pytest.mark.parametrize("workload", WORKLOADS.values(), ids=WORKLOADS.keys())
@pytest.mark.parametrize("build", BUILDS.values(), ids=BUILDS.keys())
def test_a_checks_decision_is_what_its_finding_says(build, workload, rules):
    for registered in DECIDING:
        finding = registered.check(build, workload, rules)
        assert registered.failed(build, workload, rules) == finding.failed, registered.code


@settings(max_examples=200, deadline=None)
@given(
    build=st.sampled_from(list(BUILDS.values())),
    workload=st.sampled_from(list(WORKLOADS.values())),
    rules=other_rules(),
    registered=st.sampled_from(DECIDING),
)
def test_a_checks_decision_is_what_its_finding_says_under_any_profile(
    build, workload, rules, registered
):
    assert (
        registered.failed(build, workload, rules) == registered.check(build, workload, rules).failed
    )
