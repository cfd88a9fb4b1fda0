"""What a platform takes and the part sets that fill it: plain Python over the catalog.

A balanced DIMM population (the same module on every channel, one or two per channel), a
redundant PSU set (N+N or N+1) that the chassis' bays hold, the GPU slots each socket serves,
the CPUs and GPUs a platform takes, and the cheapest platform that takes a CPU and its GPUs.
The bill (`pricing.py`), the configurator's options (`web/options.py`) and the recommender's
part pickers (`recommend/parts.py`) all read these, so a population or a PSU set means the same
thing on every surface.
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from dataclasses import dataclass

from configurator.engine.build import Cpu, Gpu, MemoryModule, Platform, Psu
from configurator.engine.catalog import Catalog

MAX_GPUS_WITHOUT_PLATFORM = 16  # the API's bound on GPUs per node
PSU_BAYS_WITHOUT_PLATFORM = 8
REDUNDANCY = ("N+N", "N+1")  # preferred first; a rental node never runs without a spare PSU


@dataclass(frozen=True, slots=True)
class MemoryOption:
    """A balanced DIMM population: the same module on every channel, one or two per channel."""

    module: MemoryModule
    count: int

    @property
    def total_gb(self) -> int:
        return self.module.capacity_gb * self.count

    @property
    def price(self) -> float:
        return self.module.monthly_price * self.count


@dataclass(frozen=True, slots=True)
class PsuOption:
    """A redundant PSU set: `active` working units and their spares."""

    psu: Psu
    count: int
    active: int
    scheme: str  # N+N or N+1

    @property
    def usable_w(self) -> int:
        return self.psu.rated_w * self.active

    @property
    def price(self) -> float:
        return self.psu.monthly_price * self.count

    @property
    def label(self) -> str:
        """The set as its units: "2+2", "3+1"."""
        return f"{self.active}+{self.count - self.active}"


def cpus_for(platform: Platform | None, catalog: Catalog) -> tuple[Cpu, ...]:
    if platform is None:
        return catalog.cpus
    return tuple(cpu for cpu in catalog.cpus if cpu.socket == platform.cpu_socket)


def gpus_for(platform: Platform | None, catalog: Catalog) -> tuple[Gpu, ...]:
    if platform is None:
        return catalog.gpus
    return tuple(gpu for gpu in catalog.gpus if platform.takes_gpu(gpu))


def slots_of(platform: Platform | None, cpu_count: int) -> tuple[int, ...]:
    """Return the GPU slots each populated socket serves (a socket without a CPU serves none)."""
    if platform is None:
        return (MAX_GPUS_WITHOUT_PLATFORM,) * cpu_count
    return tuple(platform.gpu_slots[:cpu_count])


def memory_populations(
    cpu: Cpu, cpu_count: int, platform: Platform | None, ecc: bool, modules
) -> Iterator[MemoryOption]:
    """Yield every balanced population of these modules the CPUs and board hold.

    ECC memory is registered (RDIMM); without a platform, two DIMMs per channel fit.
    """
    channels = cpu.memory_channels * cpu_count
    slots = platform.dimm_slots_per_socket * cpu_count if platform else channels * 2
    for module in modules:
        if module.ddr_gen != cpu.ddr_gen or module.ecc != ecc:
            continue
        if ecc and not module.registered:
            continue
        for per_channel in (1, 2):
            if channels * per_channel <= slots:
                yield MemoryOption(module, channels * per_channel)


def _memory_rank(option: MemoryOption) -> tuple[float, int]:
    return option.price, option.count


def memory_options(
    cpu: Cpu | None, cpu_count: int, platform: Platform | None, ecc: bool, catalog: Catalog
) -> tuple[MemoryOption, ...]:
    """Return the cheapest balanced population of each total the CPU and board can hold."""
    if cpu is None:
        return ()
    key = ("memory_options", cpu, cpu_count, platform, ecc)
    return catalog.derived(key, lambda: _memory_options(cpu, cpu_count, platform, ecc, catalog))


def _memory_options(
    cpu: Cpu, cpu_count: int, platform: Platform | None, ecc: bool, catalog: Catalog
) -> tuple[MemoryOption, ...]:
    best: dict[int, MemoryOption] = {}
    for option in memory_populations(cpu, cpu_count, platform, ecc, catalog.memory):
        kept = best.get(option.total_gb)
        if kept is None or _memory_rank(option) < _memory_rank(kept):
            best[option.total_gb] = option
    return tuple(best[total] for total in sorted(best))


def cheapest_population(
    required_gb: float, cpu: Cpu, cpu_count: int, platform: Platform | None, modules
) -> MemoryOption | None:
    """Return the cheapest balanced ECC RDIMM population of at least `required_gb`."""
    fits = [
        option
        for option in memory_populations(cpu, cpu_count, platform, True, modules)
        if option.total_gb >= required_gb
    ]
    return min(fits, key=_memory_rank, default=None)


def psu_sets(platform: Platform | None, psus) -> Iterator[PsuOption]:
    """Yield every redundant set of one PSU model that the platform's bays hold: PSUs it takes
    (`Platform.takes_psu`: its own models, else its maker's, rated at most its bays' limit);
    without a platform, any PSU in `PSU_BAYS_WITHOUT_PLATFORM` bays."""
    bays = platform.psu_bays if platform else PSU_BAYS_WITHOUT_PLATFORM
    for psu in psus:
        if platform is not None and not platform.takes_psu(psu):
            continue
        for active in range(1, bays):
            for scheme in REDUNDANCY:
                count = 2 * active if scheme == "N+N" else active + 1
                if count <= bays:
                    yield PsuOption(psu, count, active, scheme)


def _psu_rank(option: PsuOption) -> tuple[float, int]:
    return option.price, -option.count  # more units on a tie: more headroom per unit


def psu_options(platform: Platform | None, catalog: Catalog) -> tuple[PsuOption, ...]:
    """Return the cheapest redundant PSU set of each usable output the platform's bays hold.

    Only PSUs the platform takes count (engine Platform.takes_psu: its own models, its
    maker's, up to the bay rating).
    """
    return catalog.derived(("psu_options", platform), lambda: _psu_options(platform, catalog))


def _psu_options(platform: Platform | None, catalog: Catalog) -> tuple[PsuOption, ...]:
    best: dict[int, PsuOption] = {}
    for option in psu_sets(platform, catalog.psus):
        kept = best.get(option.usable_w)
        if kept is None or _psu_rank(option) < _psu_rank(kept):
            best[option.usable_w] = option
    return tuple(best[watts] for watts in sorted(best))


def cheapest_psu_set(required_w: int, bays: int, psus, bay_max_w: int = 0) -> PsuOption | None:
    """Return the cheapest redundant PSU set whose working units cover `required_w`.

    One of `psu_sets`: per model only the fewest working units that cover the need can be
    the cheapest, so only those are tried (the recommender asks this for every candidate).
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
            option = PsuOption(psu, count, active, scheme)
            if best is None or _psu_rank(option) < _psu_rank(best):
                best = option
    return best


def cheapest_platform(
    cpu: Cpu | None, cpu_count: int, gpu: Gpu | None, gpu_count: int, catalog: Catalog
) -> Platform | None:
    """Return the cheapest platform that takes the CPU's socket and count, the GPU and the GPU
    count: the one a build that names none is priced on."""
    by_price = catalog.derived(
        "platforms_by_price", lambda: sorted(catalog.platforms, key=lambda p: p.monthly_price)
    )
    for platform in by_price:
        if cpu is not None and cpu.socket != platform.cpu_socket:
            continue
        if platform.sockets < cpu_count:
            continue
        if gpu is not None and not platform.takes_gpu(gpu):
            continue
        if sum(slots_of(platform, cpu_count)) >= gpu_count:
            return platform
    return None
