"""PSU sizing: the usable power a node needs (domain.md §4 P7, §6).

The guide's floors (2000 W for 4 GPUs, 3600 W for 8) are minimums, not a sizing method:
8 × H100 SXM alone draw 5.6 kW. The need comes from the platform's maker where the catalog
has its figure, and from the components otherwise; it is never below the floor and is
compared with usable capacity after redundancy (N+1, N+N).

- **Platform figure** (`Build.rated_power_w` > 0): the maker's published maximum system
  power (DGX H100: 10.2 kW), or the usable output of the PSU configuration it ships fully
  populated (Supermicro 740GP-TNRT: 2 × 2200 W, 1+1 = 2200 W). It is stated for the full
  GPU complement at a GPU power (`rated_gpus` × `rated_gpu_w`); a build with other GPUs or
  fewer of them moves it by the difference: need = rated + G × gpu TDP − rated_gpus ×
  rated_gpu_w. The maker's figure is already a maximum, so no headroom is added.
- **A partly filled chassis** (fewer GPUs than the platform's figure is stated for) needs
  what its installed parts draw (domain.md §6): its load (the estimate's components and
  allowance) × the platform's own headroom, the maker's figure over the load of the fully
  loaded configuration (the build's CPUs, DIMMs, NICs and drives with `rated_gpus` ×
  `rated_gpu_w`), never less than `psu_headroom`; and never more than the figure moved to
  its GPUs. One RTX 4090 in a 10-slot chassis stated at 5400 W for 10 × 350 W needs
  1310 W × 5400 / 4360 = 1623 W, not 2350 W. The fully loaded configuration gets the
  maker's figure exactly, so the calibration points stay where they are.
- **Estimate** (no platform figure): load = GPU + CPU + DIMM + NIC + NVMe TDPs + a board
  allowance (`chassis_overhead_w`, plus `sxm_board_share` × TDP for each SXM GPU: the HGX
  baseboard's NVSwitch chips, VRM losses and the fans that cool 400–700 W modules); need =
  ⌈load × `psu_headroom`⌉.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from configurator.engine.build import Build, FormFactor
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
    chassis_w: int  # board allowance, the SXM baseboard's included
    headroom: float
    need_w: int  # the platform figure, or load × headroom rounded up
    floor_w: int
    required_w: int  # max(need, floor)
    platform_w: int = 0  # the maker's figure moved to this build's GPUs; 0: estimated
    # A partly filled chassis: the fully loaded configuration's load the maker's figure is
    # stated for, and the headroom it implies (platform_w is then load × that factor).
    full_load_w: int = 0
    platform_headroom: float = 0.0

    @property
    def load_w(self) -> int:
        return self.gpus_w + self.cpus_w + self.dimms_w + self.nics_w + self.nvme_w + self.chassis_w

    @property
    def from_platform(self) -> bool:
        return self.platform_w > 0

    @property
    def partly_filled(self) -> bool:
        """Whether the need is the installed parts' load on the platform's headroom."""
        return self.full_load_w > 0


def psu_floor_w(gpu_count: int, rules: RuleParams) -> int:
    """Return the guide's minimum PSU rating for a node with this many GPUs."""
    if gpu_count >= EIGHT_GPU_NODE:
        return rules.psu_floor_w_8gpu
    if gpu_count >= FOUR_GPU_NODE:
        return rules.psu_floor_w_4gpu
    return 0


def board_allowance_w(build: Build, rules: RuleParams) -> int:
    """Return the estimate's allowance for board, fans and, on SXM, the HGX baseboard."""
    if build.gpu.form_factor is not FormFactor.SXM:
        return rules.chassis_overhead_w
    per_gpu = math.ceil(round(rules.sxm_board_share * build.gpu.tdp_w, 6))
    return rules.chassis_overhead_w + per_gpu * build.gpu_count


def platform_power_w(build: Build) -> int:
    """Return the maker's power figure moved to this build's GPUs, or 0 when there is none."""
    if build.rated_power_w <= 0:
        return 0
    rated_gpus_w = build.rated_gpus * build.rated_gpu_w
    return max(1, build.rated_power_w + build.gpu_count * build.gpu.tdp_w - rated_gpus_w)


def _sxm_share_w(build: Build, tdp_w: int, gpus: int, rules: RuleParams) -> int:
    if build.gpu.form_factor is not FormFactor.SXM:
        return 0
    return math.ceil(round(rules.sxm_board_share * tdp_w, 6)) * gpus


def full_load_w(build: Build, rules: RuleParams, load_w: int) -> int:
    """Return the load of the build's chassis fully loaded as the maker's figure is stated:
    its own CPUs, DIMMs, NICs and drives with `rated_gpus` GPUs of `rated_gpu_w` each."""
    own_gpus_w = build.gpu.tdp_w * build.gpu_count + _sxm_share_w(
        build, build.gpu.tdp_w, build.gpu_count, rules
    )
    rated_gpus_w = build.rated_gpu_w * build.rated_gpus + _sxm_share_w(
        build, build.rated_gpu_w, build.rated_gpus, rules
    )
    return load_w - own_gpus_w + rated_gpus_w


def power_budget(build: Build, rules: RuleParams) -> PowerBudget:
    """Return the usable PSU output one node of the build requires."""
    gpus_w = build.gpu.tdp_w * build.gpu_count
    cpus_w = build.cpu.tdp_w * build.cpu_count
    dimms_w = rules.dimm_w * build.dimms
    nics_w = build.nic_tdp_w * build.nics
    nvme_w = build.nvme_tdp_w * build.nvme
    chassis_w = board_allowance_w(build, rules)
    load_w = gpus_w + cpus_w + dimms_w + nics_w + nvme_w + chassis_w
    platform_w = platform_power_w(build)
    full_w, platform_headroom = 0, 0.0
    if platform_w and build.gpu_count < build.rated_gpus:
        full_w = max(1, full_load_w(build, rules, load_w))
        platform_headroom = max(rules.psu_headroom, build.rated_power_w / full_w)
        partial_w = math.ceil(round(load_w * platform_headroom, 6))
        platform_w = min(platform_w, partial_w)
        if platform_w < partial_w:  # the figure moved is the lower: it is the need
            full_w, platform_headroom = 0, 0.0
    # Rounding before the ceiling keeps float noise (× 1.1) from adding a watt.
    need_w = platform_w or math.ceil(round(load_w * rules.psu_headroom, 6))
    floor_w = psu_floor_w(build.gpu_count, rules)
    return PowerBudget(
        gpus_w=gpus_w,
        cpus_w=cpus_w,
        dimms_w=dimms_w,
        nics_w=nics_w,
        nvme_w=nvme_w,
        chassis_w=chassis_w,
        headroom=rules.psu_headroom,
        need_w=need_w,
        floor_w=floor_w,
        required_w=max(need_w, floor_w),
        platform_w=platform_w,
        full_load_w=full_w,
        platform_headroom=platform_headroom,
    )
