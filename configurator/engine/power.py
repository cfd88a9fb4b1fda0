"""PSU sizing: the usable power a node needs (domain.md §4 P7, §6).

The guide's floors (2000 W for 4 GPUs, 3600 W for 8) are minimums, not a sizing method:
8 × H100 SXM alone draw 5.6 kW. The need is the sum of component TDPs × a headroom factor,
never below the floor, compared with usable capacity after redundancy (N+1, N+N).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from configurator.engine.build import Build
from configurator.engine.rules import RuleParams

# The GPU counts at which the guide states its floors; the parameter names carry them.
FOUR_GPU_NODE = 4
EIGHT_GPU_NODE = 8


@dataclass(frozen=True, slots=True)
class PowerBudget:
    """The node's load by component, and the usable PSU output it requires."""

    gpus_w: int
    cpus_w: int
    dimms_w: int
    nics_w: int
    nvme_w: int
    chassis_w: int
    headroom: float
    need_w: int  # load × headroom, rounded up
    floor_w: int
    required_w: int  # max(need, floor)

    @property
    def load_w(self) -> int:
        return self.gpus_w + self.cpus_w + self.dimms_w + self.nics_w + self.nvme_w + self.chassis_w


def psu_floor_w(gpu_count: int, rules: RuleParams) -> int:
    """Return the guide's minimum PSU rating for a node with this many GPUs."""
    if gpu_count >= EIGHT_GPU_NODE:
        return rules.psu_floor_w_8gpu
    if gpu_count >= FOUR_GPU_NODE:
        return rules.psu_floor_w_4gpu
    return 0


def power_budget(build: Build, rules: RuleParams) -> PowerBudget:
    """Return the usable PSU output one node of the build requires."""
    gpus_w = build.gpu.tdp_w * build.gpu_count
    cpus_w = build.cpu.tdp_w * build.cpu_count
    dimms_w = rules.dimm_w * build.dimms
    nics_w = build.nic_tdp_w * build.nics
    nvme_w = build.nvme_tdp_w * build.nvme
    load_w = gpus_w + cpus_w + dimms_w + nics_w + nvme_w + rules.chassis_overhead_w
    # Rounding before the ceiling keeps float noise (× 1.2) from adding a watt.
    need_w = math.ceil(round(load_w * rules.psu_headroom, 6))
    floor_w = psu_floor_w(build.gpu_count, rules)
    return PowerBudget(
        gpus_w=gpus_w,
        cpus_w=cpus_w,
        dimms_w=dimms_w,
        nics_w=nics_w,
        nvme_w=nvme_w,
        chassis_w=rules.chassis_overhead_w,
        headroom=rules.psu_headroom,
        need_w=need_w,
        floor_w=floor_w,
        required_w=max(need_w, floor_w),
    )
