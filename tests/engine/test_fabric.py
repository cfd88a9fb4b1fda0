"""The fabric multi-node training needs, by GPU architecture and rule profile."""

from dataclasses import replace

import pytest

from configurator.engine.fabric import NicRequirement, nic_requirement
from configurator.engine.rules import RuleParams
from tests.engine.builders import a800_pcie, a800_sxm, h100_sxm, l20, rtx_4090

RULES = RuleParams()


@pytest.mark.parametrize(
    ("gpu", "share", "speed"),
    [
        pytest.param(h100_sxm(), 1, 400, id="H100 SXM (HGX): one 400G NIC per GPU"),
        pytest.param(a800_sxm(), 1, 200, id="A800 SXM (HGX): one 200G NIC per GPU"),
        pytest.param(a800_pcie(), 2, 200, id="A800 PCIe: one 200G NIC per two GPUs (2-8-5)"),
        pytest.param(l20(), 2, 200, id="L20 (PCIe)"),
        pytest.param(rtx_4090(), 2, 200, id="RTX 4090 (PCIe)"),
    ],
)
def test_nvidia_reference_defaults(gpu, share, speed):
    """Fabric by board (domain.md §6): one NIC per GPU on HGX/DGX boards (DGX H100: 8 ×
    400G ConnectX-7 for 8 GPUs), one per two on PCIe boards (NVIDIA's PCIe-optimised RA
    "2-8-5": 8 GPUs, 4 east-west NICs + 1 north-south)."""
    assert nic_requirement(gpu, RULES) == NicRequirement(gpus_per_nic=share, speed_gbps_min=speed)


def test_the_pcie_share_is_its_own_rule_parameter():
    assert nic_requirement(a800_pcie(), replace(RULES, gpus_per_nic_pcie=1)).gpus_per_nic == 1
    assert nic_requirement(h100_sxm(), replace(RULES, gpus_per_nic_pcie=4)).gpus_per_nic == 1


def test_the_bandwidth_a_node_needs_is_its_nics_at_the_slowest_speed():
    assert nic_requirement(h100_sxm(), RULES).bandwidth_gbps(8) == 3200
    assert nic_requirement(a800_pcie(), RULES).bandwidth_gbps(8) == 800


def test_the_profile_decides_share_and_speed():
    rules = replace(RULES, gpus_per_nic=2, nic_speed_gbps_min=100, nic_speed_gbps_min_hopper=200)
    assert nic_requirement(h100_sxm(), rules) == NicRequirement(2, 200)
    assert nic_requirement(a800_sxm(), rules) == NicRequirement(2, 100)


@pytest.mark.parametrize(("gpus", "share", "nics"), [(8, 1, 8), (8, 2, 4), (5, 2, 3), (1, 4, 1)])
def test_nics_for_rounds_up(gpus, share, nics):
    assert NicRequirement(share, 200).nics_for(gpus) == nics
