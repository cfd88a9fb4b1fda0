"""Part pickers: the cheapest memory population, redundant PSU set and network card that fit."""

from __future__ import annotations

import math
from dataclasses import dataclass

from configurator.engine.build import Cpu, MemoryModule, Nic, Platform, Psu

REDUNDANCY = ("N+N", "N+1")  # preferred first; a rental node never runs without a spare PSU


@dataclass(frozen=True, slots=True)
class PsuChoice:
    psu: Psu
    count: int
    scheme: str
    usable_w: int

    @property
    def price(self) -> float:
        return self.count * self.psu.monthly_price


@dataclass(frozen=True, slots=True)
class MemoryChoice:
    module: MemoryModule
    count: int

    @property
    def total_gb(self) -> int:
        return self.count * self.module.capacity_gb

    @property
    def price(self) -> float:
        return self.count * self.module.monthly_price


def cheapest_memory(
    required_gb: float, cpu: Cpu, platform: Platform, modules: tuple[MemoryModule, ...]
) -> MemoryChoice | None:
    """Return the cheapest ECC RDIMM population: same DIMM on every channel, 1 or 2 per channel."""
    channels = cpu.memory_channels * platform.sockets
    slots = platform.dimm_slots_per_socket * platform.sockets
    best = None
    for module in modules:
        if module.ddr_gen != cpu.ddr_gen or not (module.ecc and module.registered):
            continue
        for per_channel in (1, 2):
            count = channels * per_channel
            if count > slots or count * module.capacity_gb < required_gb:
                continue
            choice = MemoryChoice(module, count)
            if best is None or (choice.price, count) < (best.price, best.count):
                best = choice
    return best


def cheapest_psus(
    required_w: int, bays: int, psus: tuple[Psu, ...], bay_max_w: int = 0
) -> PsuChoice | None:
    """Return the cheapest redundant PSU set whose working units cover `required_w`.

    Only PSUs a bay takes count: rated at most `bay_max_w` (0: any).
    """
    best = None
    for psu in psus:
        if bay_max_w and psu.rated_w > bay_max_w:
            continue
        active = max(1, math.ceil(required_w / psu.rated_w))
        for scheme in REDUNDANCY:
            count = 2 * active if scheme == "N+N" else active + 1
            if count > bays:
                continue
            label = f"{active}+{count - active}"
            choice = PsuChoice(psu, count, label, active * psu.rated_w)
            if best is None or (choice.price, -count) < (best.price, -best.count):
                best = choice
    return best


def cheapest_nic(nics: tuple[Nic, ...], speed_min: int) -> Nic | None:
    """Return the cheapest NIC of at least `speed_min` Gb/s (the faster on a tie), or None."""
    fast = [nic for nic in nics if nic.speed_gbps >= speed_min]
    return min(fast, key=lambda nic: (nic.monthly_price, -nic.speed_gbps), default=None)
