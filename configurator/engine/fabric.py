"""The fabric multi-node training needs: how many NICs per GPU, and how fast (domain.md §6).

NVIDIA's DGX and HGX reference designs give every GPU its own NIC on its own PCIe switch
("rail-optimised"): one 200 Gb/s HDR NIC per A100 (DGX A100), one 400 Gb/s NDR NIC per H100
(DGX H100). The rule profile states both as parameters, so an operator whose design shares
a NIC between two GPUs (NVIDIA's PCIe "2-8-5" node) says so in its profile.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from configurator.engine.build import Architecture, Gpu
from configurator.engine.rules import RuleParams


@dataclass(frozen=True, slots=True)
class NicRequirement:
    """One NIC of at least `speed_gbps_min` Gb/s for every `gpus_per_nic` GPUs."""

    gpus_per_nic: int
    speed_gbps_min: int

    def nics_for(self, gpus: int) -> int:
        """Return the NICs a node with this many GPUs needs."""
        return math.ceil(gpus / self.gpus_per_nic)


def nic_requirement(gpu: Gpu, rules: RuleParams) -> NicRequirement:
    """Return the NICs per GPU and the NIC speed that multi-node training on `gpu` needs."""
    if gpu.architecture is Architecture.HOPPER:
        speed = rules.nic_speed_gbps_min_hopper
    else:
        speed = rules.nic_speed_gbps_min
    return NicRequirement(gpus_per_nic=rules.gpus_per_nic, speed_gbps_min=speed)
