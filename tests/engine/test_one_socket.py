"""Single-socket builds: judged on lanes, threads and memory; no cross-NUMA text.

domain.md §6 "Single-socket builds": one socket has one NUMA node, so no impact text of the
NUMA dimension or of P2 speaks of cross-NUMA latency it cannot have.
"""

from __future__ import annotations

from dataclasses import replace

from configurator.engine import catalogue, checks
from configurator.engine.findings import Status
from configurator.engine.rules import RuleParams
from tests.engine.builders import s1, s2

RULES = RuleParams()


def one_socket(**changes: object):
    return s2(cpu_count=1, gpu_count=4, gpus_per_socket=(4,), **changes)


def test_one_socket_below_the_dual_socket_baseline_fails_without_cross_numa_text() -> None:
    finding = checks.numa_affinity(one_socket(), None, RULES)
    assert finding.status is Status.FAIL
    assert finding.impact == catalogue.NUMA_ONE_SOCKET_IMPACT
    assert not any(word in finding.impact for word in ("+270", "latency"))


def test_one_socket_with_six_gpus_is_still_not_told_of_cross_numa_latency() -> None:
    build = s2(cpu_count=1, gpu_count=6, gpus_per_socket=(6,))
    finding = checks.numa_affinity(build, None, RULES)
    assert finding.failed
    assert "+270" not in finding.impact


def test_one_socket_passes_the_dimension_where_the_profile_allows_one() -> None:
    finding = checks.numa_affinity(one_socket(), None, replace(RULES, sockets_min=1))
    assert finding.status is Status.PASS


def test_two_sockets_keep_the_guides_measured_cross_numa_loss_on_p2() -> None:
    """A GPU served across NUMA nodes is P2's (docs/rules.md "One problem counted once"): P2
    fails with the guide's measured loss, the NUMA dimension says P2 counts it."""
    build = s2(gpu_count=8, gpus_per_socket=(4, 4), gpus_cross_numa=1)
    p2 = checks.numa_binding(build, None, RULES)
    assert p2.failed and p2.impact == catalogue.P2.impact
    numa = checks.numa_affinity(build, None, RULES)
    assert numa.status is Status.NA and numa.covered_by == "P2"


def test_a_profile_of_more_sockets_keeps_the_numa_dimensions_loss() -> None:
    finding = checks.numa_affinity(s2(), None, replace(RULES, sockets_min=4))
    assert finding.failed and finding.impact == catalogue.NUMA.impact


def test_p2_on_one_socket_does_not_claim_the_cross_numa_loss() -> None:
    finding = checks.numa_binding(one_socket(numa_binding=False), None, RULES)
    assert finding.failed  # the operator's rule: every node ships the binding script
    assert finding.impact == catalogue.P2_ONE_SOCKET_IMPACT
    assert "186" not in finding.impact


def test_p2_on_two_sockets_keeps_the_guides_measured_loss() -> None:
    finding = checks.numa_binding(s1(numa_binding=False), None, RULES)
    assert finding.impact == catalogue.P2.impact
