"""The fabric multi-node training needs, by GPU architecture and rule profile."""

from dataclasses import replace

import pytest

from configurator.engine.fabric import NicRequirement, nic_requirement
from configurator.engine.rules import RuleParams
from tests.engine.builders import a800_pcie, a800_sxm, h100_sxm, l20, rtx_4090

RULES = RuleParams()


@pytest.mark.parametrize(
    ("gpu", "speed"),
    [
        pytest.param(h100_sxm(), 400, id="H100: one 400G NIC per GPU"),
        pytest.param(a800_sxm(), 200, id="A800 SXM: one 200G NIC per GPU"),
        pytest.param(a800_pcie(), 200, id="A800 PCIe: one 200G NIC per GPU"),
        pytest.param(l20(), 200, id="L20"),
        pytest.param(rtx_4090(), 200, id="RTX 4090"),
    ],
)
def test_nvidia_reference_defaults(gpu, speed):
    assert nic_requirement(gpu, RULES) == NicRequirement(gpus_per_nic=1, speed_gbps_min=speed)


def test_the_profile_decides_share_and_speed():
    rules = replace(RULES, gpus_per_nic=2, nic_speed_gbps_min=100, nic_speed_gbps_min_hopper=200)
    assert nic_requirement(h100_sxm(), rules) == NicRequirement(2, 200)
    assert nic_requirement(a800_sxm(), rules) == NicRequirement(2, 100)


@pytest.mark.parametrize(("gpus", "share", "nics"), [(8, 1, 8), (8, 2, 4), (5, 2, 3), (1, 4, 1)])
def test_nics_for_rounds_up(gpus, share, nics):
    assert NicRequirement(share, 200).nics_for(gpus) == nics
