"""The one registry of checks: codes, catalogue, losses and the CPU facts the recommender uses
come from it, and it holds every check whatever was imported first."""

import importlib
import json
import subprocess
import sys
import types
from pathlib import Path

import pytest

from configurator.engine import checks
from configurator.engine.evaluate import CHECK_CODES
from configurator.engine.messages import Message
from configurator.engine.performance import BALANCE_LOSS, LOSSES
from configurator.engine.recommend import search
from configurator.engine.registry import (
    CHECK_MODULES,
    REGISTRY,
    CatalogueEntry,
    CheckKind,
    CheckRegistry,
    DuplicateCheck,
    UnlistedCheckModule,
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


# The registry is complete whatever is imported first. ---------------------------------------

ENGINE = Path(__file__).resolve().parents[2] / "configurator" / "engine"
ENGINE_MODULES = sorted(
    "configurator.engine." + ".".join(path.relative_to(ENGINE).with_suffix("").parts)
    for path in ENGINE.rglob("*.py")
    if path.name != "__init__.py"
)
READ_CODES = (
    "import importlib, json, sys\n"
    "importlib.import_module(sys.argv[1])\n"
    "from configurator.engine.registry import REGISTRY\n"
    "print(json.dumps(REGISTRY.codes()))\n"
)


def every_registered_code() -> tuple[str, ...]:
    """Return the codes once every engine module is imported (a check module left out of
    CHECK_MODULES registers nothing: the registry refuses it)."""
    for name in ENGINE_MODULES:
        importlib.import_module(name)
    return REGISTRY.codes()


@pytest.mark.parametrize("module", ENGINE_MODULES)
def test_the_registry_is_complete_whatever_module_is_imported_first(module):
    root = Path(__file__).resolve().parents[2]
    answer = subprocess.run(
        [sys.executable, "-c", READ_CODES, module],
        cwd=root, capture_output=True, text=True, check=True, timeout=60,
    )  # fmt: skip
    codes = tuple(json.loads(answer.stdout))
    assert codes == every_registered_code()
    assert {"P1", "pcie_lanes", "capacity", "shape"} <= set(codes)  # both modules' checks


def test_checks_run_in_the_order_of_their_modules_whatever_registered_first(monkeypatch):
    for name in ("first_checks", "second_checks"):
        monkeypatch.setitem(sys.modules, name, types.ModuleType(name))
    registry = CheckRegistry(("first_checks", "second_checks"))

    def late(build, workload, rules):
        raise AssertionError

    def early(build, workload, rules):
        raise AssertionError

    late.__module__, early.__module__ = "second_checks", "first_checks"
    registry.add("late", late, ENTRY, kind=CheckKind.WORKLOAD)
    registry.add("early", early, ENTRY, kind=CheckKind.WORKLOAD)
    assert registry.codes() == ("early", "late")


def test_a_check_from_a_module_the_registry_does_not_list_is_refused():
    with pytest.raises(UnlistedCheckModule):
        REGISTRY.add("unlisted", test_a_code_registered_twice_is_refused, ENTRY, kind="workload")
    assert "unlisted" not in REGISTRY


# Facts about checks are registry data. ------------------------------------------------------


def test_measured_losses_are_registered_with_their_checks():
    assert {code: loss.factor for code, loss in REGISTRY.losses().items()} == {
        "P1": 0.886 / 0.61,
        "P5": 2.16,
        "P8": 1.54,
    }
    assert dict(LOSSES) == {**REGISTRY.losses(), "balance": BALANCE_LOSS}
    assert BALANCE_LOSS.factor == 0.886 / 0.637


def test_the_checks_another_cpu_may_change_are_registry_data():
    assert REGISTRY.cpu_sensitive_codes() == {"P7"}
    assert REGISTRY.cpu_sensitive_codes() == search.CPU_SENSITIVE


def test_a_check_module_is_found_by_its_name():
    """Every `*_check` module of the engine registers without being listed anywhere."""
    engine = Path(__file__).resolve().parents[2] / "configurator" / "engine"
    named = {f"configurator.engine.{path.stem}" for path in engine.glob("*_check.py")}
    assert set(CHECK_MODULES) == {"configurator.engine.checks", *named}
