"""What a platform takes: the choices the configurator offers for each field of a build.

Plain Python over the engine's catalog (no Django). `choices` lists, for a configuration, the
values each field may take on its platform; `conform` moves a configuration onto what its
platform takes (a CPU of the platform's socket, no more GPUs than its slots, a DIMM population
that exists, a PSU set its bays hold) and says what it changed, so a customer is only ever
offered combinations that can be built. Without a platform nothing is conformed: the build is
evaluated as the API would evaluate it. What a platform takes and the part sets that fill it
(populations, PSU sets, slots) are the engine's (`engine/parts.py`), read here.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType

from configurator.engine.build import NAMED_PARTS, Cpu, Gpu, Platform
from configurator.engine.catalog import Catalog
from configurator.engine.parts import (
    MAX_GPUS_WITHOUT_PLATFORM,
    MemoryOption,
    PsuOption,
    cpus_for,
    gpus_for,
    memory_options,
    psu_options,
    slots_of,
)
from configurator.engine.pcie import even_split
from configurator.engine.recommend.layouts import nic_positions
from configurator.schemas import MAX_NVME_PER_NODE
from configurator.web.configuration import Configuration

MAX_NICS_WITHOUT_PLATFORM = 8
MAX_NODES = 16  # the recommender's default node limit; the API takes more


@dataclass(frozen=True)
class Choices:
    """The values each field of a configuration may take on its platform."""

    platforms: tuple[Platform, ...]
    cpus: tuple[Cpu, ...]
    cpu_counts: tuple[int, ...]
    gpus: tuple[Gpu, ...]
    gpu_counts: tuple[int, ...]
    splits: tuple[tuple[int, ...], ...]
    memory: tuple[MemoryOption, ...]  # the cheapest population of each total, by total
    psus: tuple[PsuOption, ...]  # the cheapest set of each usable output, by output
    nvlink: tuple[bool, ...]
    nics: tuple[int, ...]
    nic_models: tuple
    nvme: tuple[int, ...]  # NVMe drives: as many as the platform has bays
    nodes: tuple[int, ...]
    parts: Mapping[str, tuple] = MappingProxyType({})  # each of NAMED_PARTS: the catalog's


def platform_of(config: Configuration, catalog: Catalog) -> Platform | None:
    return catalog.find("platforms", config.platform) if config.platform else None


def splits_for(gpu_count: int, slots: tuple[int, ...]) -> tuple[tuple[int, ...], ...]:
    """Return every placement of the GPUs over the sockets that their slots hold."""
    if len(slots) == 1:
        return ((gpu_count,),) if gpu_count <= slots[0] else ()
    return tuple(
        (first, gpu_count - first)
        for first in range(gpu_count, -1, -1)
        if first <= slots[0] and gpu_count - first <= slots[1]
    )


def choices(config: Configuration, catalog: Catalog) -> Choices:
    """Return what each field of the configuration may be, given its platform and parts."""
    platform = platform_of(config, catalog)
    cpu = catalog.find("cpus", config.cpu)
    gpu = catalog.find("gpus", config.gpu)
    max_sockets = min(platform.sockets if platform else 2, cpu.max_sockets if cpu else 2)
    slots = slots_of(platform, config.cpu_count)
    has_nvlink = gpu is not None and gpu.has_nvlink
    board_nvlink = platform is None or platform.nvlink != "none"
    # NIC slots, and on a PCIe board the GPU slots the GPUs leave empty (as the API counts).
    nic_slots = nic_positions(platform, config.gpu_count) if platform else MAX_NICS_WITHOUT_PLATFORM
    return Choices(
        platforms=catalog.platforms,
        cpus=cpus_for(platform, catalog),
        cpu_counts=tuple(range(1, max_sockets + 1)),
        gpus=gpus_for(platform, catalog),
        gpu_counts=tuple(range(1, min(sum(slots), MAX_GPUS_WITHOUT_PLATFORM) + 1)),
        splits=splits_for(config.gpu_count, slots),
        memory=memory_options(cpu, config.cpu_count, platform, config.memory_ecc, catalog),
        psus=psu_options(platform, catalog),
        nvlink=(False, True) if has_nvlink and board_nvlink else (False,),
        nics=tuple(range(nic_slots + 1)),
        nic_models=catalog.nics,
        nvme=tuple(range((platform.nvme_bays if platform else MAX_NVME_PER_NODE) + 1)),
        nodes=tuple(range(1, MAX_NODES + 1)),
        parts=MappingProxyType({part.name: getattr(catalog, part.key) for part in NAMED_PARTS}),
    )


@dataclass(frozen=True, slots=True)
class Adjustment:
    """One field that `conform` changed, and why."""

    field: str
    old: object
    new: object


def _nearest_at_least(values: list[int], wanted: int) -> int:
    """Return the smallest value ≥ `wanted`, else the largest."""
    above = [value for value in values if value >= wanted]
    return min(above) if above else max(values)


def conform(config: Configuration, catalog: Catalog) -> tuple[Configuration, list[Adjustment]]:
    """Move the configuration onto what its platform takes; return it and what changed.

    A part the platform does not take is replaced by the cheapest one it does; counts are
    clamped to its sockets, slots and bays; memory and PSU output move to the nearest option
    at least as large. Without a platform only the placement is made to add up.
    """
    platform = platform_of(config, catalog)
    values = {name: getattr(config, name) for name in Configuration.field_names()}
    if platform is not None:
        _conform_parts(values, platform, catalog)
    values["cpu_count"] = max(1, values["cpu_count"])
    cpu = catalog.find("cpus", values["cpu"])
    if cpu is not None and values["cpu_count"] > cpu.max_sockets:
        values["cpu_count"] = cpu.max_sockets
    slots = slots_of(platform, values["cpu_count"])
    values["gpu_count"] = max(1, min(values["gpu_count"], sum(slots)))
    split = tuple(values["gpus_per_socket"])
    if (
        platform is not None
        or len(split) != values["cpu_count"]
        or sum(split) != values["gpu_count"]
    ):
        valid = splits_for(values["gpu_count"], slots)
        if split not in valid:
            even = even_split(values["gpu_count"], values["cpu_count"])
            values["gpus_per_socket"] = even if even in valid else valid[0]
    gpu = catalog.find("gpus", values["gpu"])
    if values["nvlink"] and (
        gpu is None or not gpu.has_nvlink or (platform and platform.nvlink == "none")
    ):
        values["nvlink"] = False
    if platform is not None:
        memory = memory_options(cpu, values["cpu_count"], platform, values["memory_ecc"], catalog)
        if memory and values["memory_gb"] not in {option.total_gb for option in memory}:
            totals = [option.total_gb for option in memory]
            values["memory_gb"] = _nearest_at_least(totals, values["memory_gb"])
        psus = psu_options(platform, catalog)
        if psus and values["psu_watts"] not in {option.usable_w for option in psus}:
            values["psu_watts"] = _nearest_at_least([o.usable_w for o in psus], values["psu_watts"])
        values["nics"] = min(values["nics"], nic_positions(platform, values["gpu_count"]))
        values["nvme"] = min(values["nvme"], platform.nvme_bays)
    conformed = Configuration(**values)
    adjustments = [
        Adjustment(name, getattr(config, name), getattr(conformed, name))
        for name in Configuration.field_names()
        if getattr(config, name) != getattr(conformed, name)
    ]
    return conformed, adjustments


def _conform_parts(values: dict, platform: Platform, catalog: Catalog) -> None:
    cpus = cpus_for(platform, catalog)
    if cpus and all(cpu.slug != values["cpu"] for cpu in cpus):
        values["cpu"] = cpus[0].slug  # the catalog lists parts cheapest first
    gpus = gpus_for(platform, catalog)
    if gpus and all(gpu.slug != values["gpu"] for gpu in gpus):
        values["gpu"] = gpus[0].slug
    values["cpu_count"] = min(values["cpu_count"], platform.sockets)
