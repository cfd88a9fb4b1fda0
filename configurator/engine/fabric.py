"""The fabric multi-node training needs: how many NICs per GPU, and how fast (domain.md §6).

NVIDIA's DGX and HGX reference designs give every GPU its own NIC on its own PCIe switch
("rail-optimised"): one 200 Gb/s HDR NIC per A100 (DGX A100), one 400 Gb/s NDR NIC per H100
(DGX H100). PCIe boards share one NIC between two GPUs (NVIDIA's PCIe-optimised "2-8-5"
node: 8 GPUs, 4 east-west NICs and one north-south). The rule profile states both shares
as parameters, by form factor (domain.md §6 "Fabric by board"). The fabric check judges a
node by its fabric bandwidth, NICs × speed, against what those NICs would give.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from configurator.engine.build import Architecture, FormFactor, Gpu
from configurator.engine.rules import RuleParams

# Between nodes without high-speed NICs, the node's 25 Gb/s Ethernet carries the gradients.
FALLBACK_NODE_LINK_GBPS = 25


@dataclass(frozen=True, slots=True)
class NicRequirement:
    """One NIC of at least `speed_gbps_min` Gb/s for every `gpus_per_nic` GPUs."""

    gpus_per_nic: int
    speed_gbps_min: int

    def nics_for(self, gpus: int) -> int:
        """Return the NICs a node with this many GPUs needs."""
        return math.ceil(gpus / self.gpus_per_nic)

    def bandwidth_gbps(self, gpus: int) -> int:
        """Return the fabric bandwidth (Gb/s, one way) a node with this many GPUs needs."""
        return self.nics_for(gpus) * self.speed_gbps_min


def nic_requirement(gpu: Gpu, rules: RuleParams) -> NicRequirement:
    """Return the NICs per GPU and the NIC speed that multi-node training on `gpu` needs."""
    if gpu.architecture is Architecture.HOPPER:
        speed = rules.nic_speed_gbps_min_hopper
    else:
        speed = rules.nic_speed_gbps_min
    sxm = gpu.form_factor is FormFactor.SXM
    share = rules.gpus_per_nic if sxm else rules.gpus_per_nic_pcie
    return NicRequirement(gpus_per_nic=max(1, share), speed_gbps_min=speed)
