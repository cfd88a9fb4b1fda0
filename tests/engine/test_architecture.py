"""GPU architectures are an open list; the number formats each runs derive from it (domain.md §6).

FP8 tensor cores arrived with Ada and Hopper, FP4 with Blackwell [NVIDIA architecture
whitepapers]; every later architecture runs what an earlier one introduced. A platform takes
its own PSUs: the models the catalog names for it, else its maker's, up to the bay rating.
"""

from dataclasses import replace

import pytest

from configurator.engine import checks
from configurator.engine.build import (
    PRECISION_ARCHITECTURES,
    Architecture,
    FormFactor,
    Mode,
    Platform,
    Psu,
    Workload,
    native_formats,
)
from configurator.engine.rules import RuleParams
from tests.engine.builders import h100_sxm, node, xeon_gold_6530

RULES = RuleParams()

# architecture -> (runs fp8, runs fp4), as NVIDIA's whitepapers state it.
SUPPORT = {
    Architecture.VOLTA: (False, False),
    Architecture.TURING: (False, False),
    Architecture.AMPERE: (False, False),
    Architecture.ADA: (True, False),
    Architecture.HOPPER: (True, False),
    Architecture.BLACKWELL: (True, True),
}


def test_the_list_runs_from_volta_to_blackwell():
    assert [arch.value for arch in Architecture] == [
        "volta", "turing", "ampere", "ada", "hopper", "blackwell",
    ]  # fmt: skip
    assert set(SUPPORT) == set(Architecture)


@pytest.mark.parametrize(("architecture", "support"), SUPPORT.items(), ids=str)
def test_formats_follow_the_architecture(architecture, support):
    fp8, fp4 = support
    assert native_formats(architecture) == {f for f, on in (("fp8", fp8), ("fp4", fp4)) if on}
    gpu = replace(h100_sxm(), architecture=architecture)
    assert (gpu.runs("fp8"), gpu.runs("FP4")) == (fp8, fp4)
    for everywhere in ("fp32", "fp16", "bf16", "int8", "int4"):
        assert gpu.runs(everywhere)


def test_precision_architectures_is_the_table_read_by_format():
    assert {
        "fp4": {Architecture.BLACKWELL},
        "fp8": {Architecture.ADA, Architecture.HOPPER, Architecture.BLACKWELL},
    } == PRECISION_ARCHITECTURES


@pytest.mark.parametrize(
    ("architecture", "expected"),
    [(Architecture.VOLTA, "fail"), (Architecture.TURING, "fail"), (Architecture.BLACKWELL, "pass")],
)
def test_the_precision_check_judges_legacy_and_new_cards(architecture, expected):
    gpu = replace(h100_sxm(), architecture=architecture)
    build = node(xeon_gold_6530(), gpu, 8, 1024, psu_watts=12000)
    finding = checks.precision_supported(build, Workload(7, Mode.INFER, precision="fp8"), RULES)
    assert finding.status.value == expected
    if expected == "fail":
        assert "Ada Lovelace or Hopper or Blackwell" in str(finding.detail)


def _platform(**changes) -> Platform:
    specs = dict(
        slug="hgx", name="HGX host", sockets=2, cpu_socket="LGA4677", pcie_gen=5,
        gpu_form_factor=FormFactor.SXM, gpu_slots=(4, 4), pcie_switch_uplinks=4,
        nvlink="nvswitch", dimm_slots_per_socket=16, psu_bays=6, max_power_w=16800,
        nic_slots=10, nvme_bays=16, psu_max_w=3000, vendor="Dell",
    )  # fmt: skip
    return Platform(**{**specs, **changes})


DELL = Psu("dell-2800", "Dell 2800 W", 2800, 90.0, vendor="Dell")
DELL_BIG = Psu("dell-3200", "Dell 3200 W", 3200, 95.0, vendor="Dell")
SMC = Psu("smc-2000", "Supermicro 2000 W", 2000, 60.0, vendor="Supermicro")


def test_a_platform_takes_its_makers_psus_up_to_the_bay_rating():
    platform = _platform()
    assert platform.takes_psu(DELL)
    assert not platform.takes_psu(SMC), "a Supermicro PSU in a Dell chassis"
    assert not platform.takes_psu(DELL_BIG), "above the bay rating"
    assert _platform(vendor=" dell ").takes_psu(DELL), "vendor names compare loosely"


def test_the_catalogs_psu_list_wins_over_the_maker():
    platform = _platform(psu_slugs=frozenset({"smc-2000"}))
    assert platform.takes_psu(SMC) and not platform.takes_psu(DELL)


def test_parts_without_a_vendor_are_not_held_to_one():
    assert _platform(vendor="").takes_psu(SMC)
    assert _platform().takes_psu(Psu("any", "Any 2000 W", 2000))
