"""System memory: how much a node needs, and a DIMM population that provides it.

The need is the largest of three rules (domain.md §2, §4 P3, §8): RAM ≥ ratio × the node's
VRAM, a floor for 8-GPU nodes, and an optional per-GPU minimum. A valid population puts the
same DIMM on every channel of every socket (mixed sizes or empty channels unbalance the
memory bandwidth of a NUMA node), with one or two DIMMs per channel.
"""

from __future__ import annotations

from dataclasses import dataclass

from configurator.engine.rules import RuleParams

# Standard registered DIMM sizes on sale (datasheets); 48 and 96 GB exist only for DDR5.
DDR5_RDIMM_GB: tuple[int, ...] = (16, 32, 48, 64, 96, 128, 256)
DDR4_RDIMM_GB: tuple[int, ...] = (16, 32, 64, 128, 256)
DIMMS_PER_CHANNEL: tuple[int, ...] = (1, 2)
EIGHT_GPU_NODE = 8  # the guide states its memory floor for 8-GPU nodes


@dataclass(frozen=True, slots=True)
class Population:
    """A DIMM population: `dimms` modules of `dimm_gb` each."""

    dimms: int
    dimm_gb: int
    total_gb: int
    ddr_gen: int = 5

    def describe(self) -> str:
        """Return the population as a bill-of-materials line, e.g. `16 × 48 GB DDR5 RDIMM`."""
        return f"{self.dimms} × {self.dimm_gb} GB DDR{self.ddr_gen} RDIMM"


@dataclass(frozen=True, slots=True)
class MemoryRequirement:
    """The memory one node needs, and each rule that contributes to it."""

    required_gb: float
    vram_gb: int
    by_ratio_gb: float
    floor_gb: int
    by_gpu_gb: int

    @property
    def reason(self) -> str:
        """Name the rule that sets the requirement."""
        if self.required_gb == self.by_ratio_gb:
            return "ratio"
        if self.required_gb == self.floor_gb:
            return "floor"
        return "per_gpu"


def standard_dimm_sizes(ddr_gen: int) -> tuple[int, ...]:
    """Return the RDIMM sizes sold for this DDR generation."""
    return DDR4_RDIMM_GB if ddr_gen <= 4 else DDR5_RDIMM_GB


def memory_population(
    required_gb: float,
    channels: int,
    ddr_gen: int,
    sizes: tuple[int, ...] | None = None,
) -> Population | None:
    """Return the smallest balanced population holding `required_gb`, then the fewest DIMMs.

    `channels` counts every channel of every socket. None when even two of the largest DIMMs
    per channel are too little.
    """
    candidates = (
        Population(channels * per_channel, size, channels * per_channel * size, ddr_gen)
        for size in (sizes or standard_dimm_sizes(ddr_gen))
        for per_channel in DIMMS_PER_CHANNEL
        if channels * per_channel * size >= required_gb
    )
    return min(candidates, key=lambda p: (p.total_gb, p.dimms), default=None)


def memory_requirement(gpu_count: int, gpu_memory_gb: int, rules: RuleParams) -> MemoryRequirement:
    """Return the system memory a node with these GPUs needs under the rules."""
    vram_gb = gpu_count * gpu_memory_gb
    # Rounding drops float noise (1.2 × 192 = 230.39999…) so that a whole-GB answer compares true.
    by_ratio_gb = round(rules.memory_vram_ratio_min * vram_gb, 6)
    floor_gb = rules.memory_floor_gb_8gpu if gpu_count >= EIGHT_GPU_NODE else 0
    by_gpu_gb = rules.memory_per_gpu_gb_min * gpu_count
    return MemoryRequirement(
        required_gb=max(by_ratio_gb, floor_gb, by_gpu_gb),
        vram_gb=vram_gb,
        by_ratio_gb=by_ratio_gb,
        floor_gb=floor_gb,
        by_gpu_gb=by_gpu_gb,
    )
