"""The bill of materials and monthly price of a configured build (plain Python, no Django).

The customer chooses capacities (memory in GB, usable PSU output in W); the bill uses the
cheapest parts that give them: the cheapest balanced DIMM population of that total and the
cheapest redundant PSU set of that output (`options`), or the next size up when no part gives
exactly the value (a permalink without a platform may name any). Without a platform, the
cheapest platform that takes the CPU, the GPUs and their count is priced. The bill says both.
"""

from __future__ import annotations

from dataclasses import dataclass

from configurator.engine.build import Platform
from configurator.engine.catalog import Catalog
from configurator.engine.recommend import Line
from configurator.web.configuration import Configuration
from configurator.web.options import (
    gpus_for,
    memory_options,
    platform_of,
    psu_options,
    slots_of,
)


@dataclass(frozen=True)
class Bill:
    """One node's lines, and the monthly price of all nodes."""

    lines: tuple[Line, ...]
    node_price: float
    monthly_price: float
    platform_assumed: bool = False  # no platform chosen: the cheapest that fits is priced
    unpriced: tuple[str, ...] = ()  # kinds no catalog part provides (none large enough)
    # (field, priced value): no part gives exactly the value; the next size up is priced
    substituted: tuple[tuple[str, int], ...] = ()


def cheapest_platform(config: Configuration, catalog: Catalog) -> Platform | None:
    """Return the cheapest platform that takes the CPU, the GPU and the GPU count."""
    cpu = catalog.find("cpus", config.cpu)
    for platform in sorted(catalog.platforms, key=lambda p: p.monthly_price):
        if cpu is not None and cpu.socket != platform.cpu_socket:
            continue
        if platform.sockets < config.cpu_count:
            continue
        if not any(gpu.slug == config.gpu for gpu in gpus_for(platform, catalog)):
            continue
        if sum(slots_of(platform, config.cpu_count)) >= config.gpu_count:
            return platform
    return None


def bill_of_materials(config: Configuration, catalog: Catalog) -> Bill:
    """Return the bill of materials of one node and the monthly price of the build."""
    platform = platform_of(config, catalog)
    assumed = platform is None
    if platform is None:
        platform = cheapest_platform(config, catalog)
    cpu = catalog.find("cpus", config.cpu)
    gpu = catalog.find("gpus", config.gpu)
    lines: list[Line] = []
    unpriced: list[str] = []
    substituted: list[tuple[str, int]] = []
    if platform is not None:
        lines.append(Line("platform", platform.slug, platform.name, 1, platform.monthly_price))
    else:
        unpriced.append("platform")
    if cpu is not None:
        lines.append(Line("cpu", cpu.slug, cpu.name, config.cpu_count, cpu.monthly_price))
    if gpu is not None:
        lines.append(Line("gpu", gpu.slug, gpu.name, config.gpu_count, gpu.monthly_price))
    memory = memory_options(cpu, config.cpu_count, platform, config.memory_ecc, catalog)
    population = _exact_or_above(memory, config.memory_gb, lambda option: option.total_gb)
    if population is not None:
        module = population.module
        lines.append(
            Line("memory", module.slug, module.name, population.count, module.monthly_price)
        )
        if population.total_gb != config.memory_gb:
            substituted.append(("memory_gb", population.total_gb))
    else:
        unpriced.append("memory")
    psus = _exact_or_above(
        psu_options(platform, catalog), config.psu_watts, lambda option: option.usable_w
    )
    if psus is not None:
        lines.append(Line("psu", psus.psu.slug, psus.psu.name, psus.count, psus.psu.monthly_price))
        if psus.usable_w != config.psu_watts:
            substituted.append(("psu_watts", psus.usable_w))
    else:
        unpriced.append("psu")
    if config.nics:
        nic = catalog.find("nics", config.nic) if config.nic else None
        if nic is None:
            nic = min(catalog.nics, key=lambda n: n.monthly_price, default=None)
        if nic is not None:
            lines.append(Line("nic", nic.slug, nic.name, config.nics, nic.monthly_price))
    node_price = round(sum(line.qty * line.monthly_price for line in lines), 2)
    return Bill(
        lines=tuple(lines),
        node_price=node_price,
        monthly_price=round(node_price * config.nodes, 2),
        platform_assumed=assumed and platform is not None,
        unpriced=tuple(unpriced),
        substituted=tuple(substituted),
    )


def _exact_or_above(options, wanted: int, size):
    """Return the option of exactly `wanted`, else the smallest above it, else None."""
    above = [option for option in options if size(option) >= wanted]
    return min(above, key=size) if above else None
