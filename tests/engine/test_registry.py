"""The one registry of checks: codes, catalogue and the CPU-side prefilter come from it."""

import pytest

from configurator.engine import checks
from configurator.engine.evaluate import CHECK_CODES
from configurator.engine.messages import Message
from configurator.engine.registry import (
    REGISTRY,
    CatalogueEntry,
    CheckKind,
    CheckRegistry,
    DuplicateCheck,
)

ENTRY = CatalogueEntry(title="t", impact="i", source="s")


def test_a_code_registered_twice_is_refused():
    registry = CheckRegistry()
    registry.add("x", checks.numa_binding, ENTRY, kind=CheckKind.WORKLOAD)
    with pytest.raises(DuplicateCheck):
        registry.add("x", checks.non_ecc_memory, ENTRY, kind=CheckKind.WORKLOAD)


def test_the_shipped_registry_refuses_a_second_p1():
    with pytest.raises(DuplicateCheck):
        REGISTRY.add("P1", checks.numa_binding, ENTRY, kind=CheckKind.PITFALL)


def test_the_decorator_registers_the_function_unchanged_in_order():
    registry = CheckRegistry()

    @registry.register("a", ENTRY, kind=CheckKind.WORKLOAD, cpu_side=True)
    def first(build, workload, rules):
        raise AssertionError

    @registry.register("b", ENTRY, kind=CheckKind.WORKLOAD)
    def second(build, workload, rules):
        raise AssertionError

    assert registry.codes() == ("a", "b")
    assert registry.checks() == (first, second)
    assert registry.cpu_side_checks() == (first,)
    assert registry.entry("b") is ENTRY


def test_codes_are_the_pitfalls_then_the_dimensions_then_the_workload_checks():
    assert REGISTRY.codes_of(CheckKind.PITFALL) == tuple(f"P{n}" for n in range(1, 9))
    assert REGISTRY.codes_of(CheckKind.DIMENSION) == ("pcie_lanes", "cpu_threads", "memory", "numa")
    assert CHECK_CODES[:12] == (
        *REGISTRY.codes_of(CheckKind.PITFALL),
        *REGISTRY.codes_of(CheckKind.DIMENSION),
    )
    assert "capacity" in REGISTRY.codes_of(CheckKind.WORKLOAD)


def test_cpu_side_prefilter_holds_the_checks_the_cpu_alone_decides():
    assert set(REGISTRY.cpu_side_checks()) == {
        checks.legacy_pcie_platform,
        checks.low_base_clock,
        checks.pcie_lane_budget,
        checks.cpu_threads_per_gpu,
    }


def test_every_registered_check_has_a_title_an_impact_and_a_source_as_message_ids():
    for item in REGISTRY:
        assert isinstance(item.entry.title, Message) and item.entry.title, item.code
        assert isinstance(item.entry.impact, Message) and item.entry.source, item.code
