"""The five kinds of catalog item, and the specs each shows in lists and the public API."""

from dataclasses import dataclass

from django.db import models
from django.utils.translation import gettext_lazy as _

from catalog.models import Cpu, Gpu, MemoryModule, Nic, Platform, Psu


@dataclass(frozen=True)
class Kind:
    key: str  # the API's plural key: cpus, gpus, memory, psus, nics, platforms
    model: type[models.Model]
    label: str
    specs: tuple[str, ...]  # model fields shown beside slug, name, vendor and price


KINDS: tuple[Kind, ...] = (
    Kind(
        "cpus",
        Cpu,
        _("CPUs"),
        (
            "socket",
            "cores",
            "threads",
            "base_ghz",
            "boost_ghz",
            "tdp_w",
            "pcie_gen",
            "pcie_lanes",
            "pcie_lanes_2s",
            "memory_channels",
            "ddr_gen",
            "memory_speed_mts",
            "max_sockets",
        ),
    ),
    Kind(
        "gpus",
        Gpu,
        _("GPUs"),
        (
            "memory_gb",
            "memory_type",
            "tdp_w",
            "pcie_gen",
            "form_factor",
            "nvlink_gbps",
            "ecc",
            "gpu_class",
            "architecture",
            "bf16_tflops",
            "fp8_tflops",
            "int8_tops",
            "memory_bandwidth_gbs",
        ),
    ),
    Kind(
        "memory",
        MemoryModule,
        _("Memory"),
        ("ddr_gen", "capacity_gb", "registered", "ecc", "speed_mts"),
    ),
    Kind("psus", Psu, _("Power supplies"), ("rated_w", "efficiency")),
    Kind(
        "nics",
        Nic,
        _("Network cards"),
        ("speed_gbps", "ports", "fabric", "pcie_gen", "pcie_lanes", "tdp_w"),
    ),
    Kind(
        "platforms",
        Platform,
        _("Platforms"),
        (
            "sockets",
            "cpu_socket",
            "pcie_gen",
            "gpu_form_factor",
            "gpu_slots_socket0",
            "gpu_slots_socket1",
            "gpu_attach",
            "pcie_switch_uplinks",
            "nvlink",
            "dimm_slots_per_socket",
            "psu_bays",
            "psu_max_w",
            "max_power_w",
            "rated_power_w",
            "rated_gpu_w",
            "nic_slots",
            "nvme_bays",
            "rack_units",
        ),
    ),
)
KINDS_BY_KEY = {kind.key: kind for kind in KINDS}
