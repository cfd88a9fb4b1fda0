"""The PCIe lane budget of one node (domain.md §2, §7).

Every GPU wants an x16 link straight to a CPU; NICs and NVMe drives take lanes from the same
budget. On a PCIe-switch board the GPUs and the NICs beside them share the switch uplinks, so
the uplinks, not the devices behind them, count against the CPUs.
"""

from __future__ import annotations

from dataclasses import dataclass

from configurator.engine.build import Build, even_split  # noqa: F401 (its home was here)
from configurator.engine.rules import RuleParams


@dataclass(frozen=True, slots=True)
class LaneBudget:
    """The lanes the node's devices need and the lanes its CPUs provide."""

    gpu_lanes: int  # GPU links, or switch uplinks on a switch board
    nic_lanes: int  # 0 on a switch board: the NICs sit behind the uplinks
    nvme_lanes: int
    available: int

    @property
    def needed(self) -> int:
        return self.gpu_lanes + self.nic_lanes + self.nvme_lanes

    @property
    def headroom(self) -> float:
        """Return spare lanes as a fraction of the need (0.25 = 25% more than needed)."""
        if self.needed <= 0:
            return float("inf")
        return self.available / self.needed - 1


def lane_budget(build: Build, rules: RuleParams) -> LaneBudget:
    """Return the node's PCIe lane need against what its CPUs provide."""
    if build.pcie_switch_uplinks:
        gpu_lanes = build.pcie_switch_uplinks * rules.pcie_lanes_per_gpu
        nic_lanes = 0
    else:
        gpu_lanes = build.gpu_count * rules.pcie_lanes_per_gpu
        nic_lanes = build.nics * build.nic_lanes
    return LaneBudget(
        gpu_lanes=gpu_lanes,
        nic_lanes=nic_lanes,
        nvme_lanes=build.nvme * build.nvme_lanes,
        available=build.cpu.lanes_for(build.cpu_count),
    )


def socket_loads(build: Build) -> tuple[int, ...]:
    """Return the GPUs on each socket, one entry per socket of the build."""
    sockets = max(build.cpu_count, 1)
    given = build.gpus_per_socket
    if len(given) > sockets:
        # GPUs listed on a socket the node lacks hang off its last real socket.
        return (*given[: sockets - 1], sum(given[sockets - 1 :]))
    # A shorter list leaves the remaining sockets without GPUs.
    return (*given, *(0,) * (sockets - len(given)))


def split_label(loads: tuple[int, ...]) -> str:
    """Return a socket split the way operators write it, e.g. `4 + 4`."""
    return " + ".join(str(load) for load in loads)
