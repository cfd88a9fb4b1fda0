"""Part pickers: the cheapest memory population, redundant PSU set and network card that fit.

A population and a PSU set are those of `engine/parts.py`, which the bill and the
configurator's options read too: the recommender picks the cheapest of them that covers a need.
"""

from __future__ import annotations

from configurator.engine.build import Cpu, MemoryModule, Nic, Platform, Psu
from configurator.engine.parts import (
    REDUNDANCY,
    MemoryOption,
    PsuOption,
    cheapest_population,
    cheapest_psu_set,
)

MemoryChoice = MemoryOption
PsuChoice = PsuOption

__all__ = [
    "REDUNDANCY",
    "MemoryChoice",
    "PsuChoice",
    "cheapest_memory",
    "cheapest_nic",
    "cheapest_psus",
]


def cheapest_memory(
    required_gb: float, cpu: Cpu, platform: Platform, modules: tuple[MemoryModule, ...]
) -> MemoryOption | None:
    """Return the cheapest ECC RDIMM population: same DIMM on every channel, 1 or 2 per channel."""
    return cheapest_population(required_gb, cpu, platform.sockets, platform, modules)


def cheapest_psus(
    required_w: int, bays: int, psus: tuple[Psu, ...], bay_max_w: int = 0
) -> PsuOption | None:
    """Return the cheapest redundant PSU set whose working units cover `required_w`.

    Only PSUs a bay takes count: rated at most `bay_max_w` (0: any).
    """
    return cheapest_psu_set(required_w, bays, psus, bay_max_w)


def cheapest_nic(nics: tuple[Nic, ...], speed_min: int) -> Nic | None:
    """Return the cheapest NIC of at least `speed_min` Gb/s (the faster on a tie), or None."""
    fast = [nic for nic in nics if nic.speed_gbps >= speed_min]
    return min(fast, key=lambda nic: (nic.monthly_price, -nic.speed_gbps), default=None)
