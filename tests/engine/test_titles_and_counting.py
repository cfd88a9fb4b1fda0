"""A passed check says what passed, and one problem is counted once (docs/rules.md)."""

from __future__ import annotations

import pytest

from configurator.engine import checks
from configurator.engine.evaluate import evaluate
from configurator.engine.findings import Status
from configurator.engine.registry import REGISTRY, CheckKind
from configurator.engine.rules import RuleParams
from tests.engine.builders import epyc_9754, h100_sxm, node, s2

RULES = RuleParams()
PITFALLS = REGISTRY.codes_of(CheckKind.PITFALL)


def finding(build, code: str):
    return next(f for f in evaluate(build, RULES).checks if f.code == code)


# Pass titles -------------------------------------------------------------------------------


@pytest.mark.parametrize("code", PITFALLS)
def test_every_pitfall_names_what_a_pass_has(code: str) -> None:
    entry = REGISTRY.entry(code)
    assert entry.passed and entry.passed != entry.title
    assert entry.title_for("pass") == entry.passed
    for status in ("fail", "warn", "na"):
        assert entry.title_for(status) == entry.title


def test_ecc_memory_passes_as_ecc_server_memory_not_as_the_pitfall() -> None:
    passed = finding(s2(memory_ecc=True), "P6")
    assert passed.status is Status.PASS and passed.title == "ECC server memory"
    failed = finding(s2(memory_ecc=False), "P6")
    assert failed.status is Status.FAIL and failed.title == "Non-ECC consumer memory"


def test_the_api_keeps_the_rules_name_beside_what_passed() -> None:
    shape = finding(s2(), "P6").as_dict()
    assert shape["title"] == "ECC server memory"
    assert shape["title_message"]["message_id"] == "ECC server memory"
    assert shape["rule_title"] == "Non-ECC consumer memory"


@pytest.mark.parametrize("code", [c for c in REGISTRY.codes() if c not in PITFALLS])
def test_a_check_named_by_its_subject_keeps_its_name_on_a_pass(code: str) -> None:
    entry = REGISTRY.entry(code)  # "PCIe lanes", "NUMA affinity": neutral names
    assert entry.title_for("pass") == entry.title


# One problem counted once ------------------------------------------------------------------


def test_memory_short_of_the_p3_requirement_fails_p3_only() -> None:
    evaluation = evaluate(s2(memory_gb=512), RULES)
    assert evaluation.failed_codes == ("P3",)
    memory = next(f for f in evaluation.checks if f.code == "memory")
    assert memory.status is Status.NA and memory.covered_by == "P3"
    assert "short by 256 GB" in memory.detail and "P3" in memory.detail
    assert memory.change is None and not memory.fix  # the fix is P3's, offered once
    assert memory.as_dict()["covered_by"] == "P3"


def test_memory_with_headroom_still_reports_it() -> None:
    memory = checks.memory_capacity(s2(memory_gb=1024), None, RULES)
    assert memory.status is Status.PASS and not memory.covered_by
    assert "+33% headroom" in memory.detail


def test_an_overloaded_socket_fails_p4_and_numa_says_p4_counts_it() -> None:
    evaluation = evaluate(s2(gpus_per_socket=(6, 2)), RULES)
    assert evaluation.failed_codes == ("P4",)
    numa = next(f for f in evaluation.checks if f.code == "numa")
    assert numa.status is Status.NA and numa.covered_by == "P4"
    assert "CPU0 carries 6 GPUs" in numa.detail and "P4" in numa.detail


def test_one_socket_with_eight_gpus_fails_numa_for_the_socket_not_again_for_the_load() -> None:
    """The issue's build: 8 GPUs on one socket. P4 counts the overload; `numa` fails for its
    own problem, a single socket below the dual-socket baseline, and says the load is P4's."""
    build = node(epyc_9754(), h100_sxm(), 8, 1024, psu_watts=12000, cpu_count=1)
    evaluation = evaluate(build, RULES)
    assert {"P4", "numa"} <= set(evaluation.failed_codes)
    numa = next(f for f in evaluation.checks if f.code == "numa")
    assert "1 socket; the baseline is a 2-socket node" in numa.detail
    assert "counted once, by P4" in numa.detail


def test_an_uneven_split_within_the_maximum_still_warns() -> None:
    numa = checks.numa_affinity(s2(gpus_per_socket=(5, 3)), None, RULES)
    assert numa.status is Status.WARN and not numa.covered_by


def test_a_gpu_across_numa_nodes_fails_p2_and_numa_says_p2_counts_it() -> None:
    """P2's own text names GPUs served across NUMA nodes, with the guide's measured loss: the
    NUMA dimension reports it as P2's instead of failing a second time."""
    evaluation = evaluate(s2(gpus_cross_numa=1), RULES)
    assert evaluation.failed_codes == ("P2",)
    numa = next(f for f in evaluation.checks if f.code == "numa")
    assert numa.status is Status.NA and numa.covered_by == "P2"
    assert "1 GPU served across NUMA nodes: counted once, by P2" in numa.detail


def test_across_numa_nodes_and_overloaded_numa_names_both_owners() -> None:
    numa = checks.numa_affinity(s2(gpus_per_socket=(6, 2), gpus_cross_numa=2), None, RULES)
    assert numa.status is Status.NA and numa.covered_by == "P2"
    assert "counted once, by P2" in numa.detail and "counted once, by P4" in numa.detail


def test_one_socket_across_numa_nodes_fails_numa_for_the_socket_and_names_p2() -> None:
    numa = checks.numa_affinity(s2(cpu_count=1, gpus_cross_numa=1), None, RULES)
    assert numa.status is Status.FAIL
    assert "counted once, by P2" in numa.detail
