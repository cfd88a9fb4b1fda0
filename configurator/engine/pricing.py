"""The monthly rent of a build that names its parts, for the cost of its work and its losses.

A recommendation prices every line of its bill of materials. A build posted to `/evaluate`
names its CPU, GPU and RAM size, and may name its platform and NIC: those are priced, the RAM
at the cheapest ECC RDIMM per GB of the CPU's DDR generation; PSUs and drives, which such a
build does not name, are not.
"""

from __future__ import annotations

from configurator.engine.build import Build, MemoryModule, Nic, Platform


def memory_price_per_gb(ddr_gen: int, modules: tuple[MemoryModule, ...]) -> float:
    """Return the lowest monthly price per GB of an ECC RDIMM of this generation (0: none)."""
    prices = [
        module.monthly_price / module.capacity_gb
        for module in modules
        if module.ddr_gen == ddr_gen and module.ecc and module.registered
    ]
    return min(prices, default=0.0)


def build_monthly_price(
    build: Build,
    modules: tuple[MemoryModule, ...],
    platform: Platform | None = None,
    nic: Nic | None = None,
) -> float:
    """Return the monthly rent of every node of the build, in CNY, from the parts it names."""
    node = (
        build.cpu.monthly_price * build.cpu_count
        + build.gpu.monthly_price * build.gpu_count
        + memory_price_per_gb(build.cpu.ddr_gen, modules) * build.memory_gb
        + (nic.monthly_price * build.nics if nic else 0.0)
        + (platform.monthly_price if platform else 0.0)
    )
    return round(node * build.nodes, 2)
