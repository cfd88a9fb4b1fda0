"""What each number of a check's finding is called on a page: its words and its unit.

A finding's `numbers` are keyed by identifiers (`memory_gb`, `by_ratio_gb`), stable in the
API; a page shows each in the request's language, "system memory: 1,536 GB" / "系统内存：
1,536 GB", never the key. Every key a check reports has an entry here (a test reads the
engine's checks for their keys); units are the ones both languages write (GB, W, GHz, Gb/s:
docs/glossary.md).
"""

from __future__ import annotations

from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from configurator.money import localized

FLAG = "flag"  # 1 / 0: yes / no
PERCENT = "percent"  # a fraction: 0.9 → 90%
# key → (label, unit): the unit is a format for the written number, or FLAG or PERCENT.
NUMBER_LABELS: dict[str, tuple[object, str]] = {
    "base_ghz": (_("CPU base clock"), "{} GHz"),
    "batch_size": (_("batch size"), "{}"),
    "busiest_socket": (_("GPUs on the busiest socket"), "{}"),
    "by_gpu_gb": (_("memory by the per-GPU minimum"), "{} GB"),
    "by_ratio_gb": (_("memory by the GPU memory ratio"), "{} GB"),
    "cores_per_gpu": (_("cores per GPU"), "{}"),
    "cores_per_gpu_min": (_("cores per GPU, at least"), "{}"),
    "cpu_base_ghz_min": (_("CPU base clock, at least"), "{} GHz"),
    "fabric_gbps": (_("network bandwidth per node"), "{} Gb/s"),
    "fabric_gbps_needed": (_("network bandwidth needed"), "{} Gb/s"),
    "floor_gb": (_("memory floor"), "{} GB"),
    "floor_w": (_("power floor"), "{} W"),
    "fp8": (_("FP8"), FLAG),
    "fp8_kv_cache": (_("FP8 KV cache"), FLAG),
    "gpu_memory_gb": (_("memory per GPU"), "{} GB"),
    "gpu_memory_usable_fraction": (_("usable share of GPU memory"), PERCENT),
    "gpus": (_("GPUs"), "{}"),
    "gpus_cross_numa": (_("GPUs across NUMA nodes"), "{}"),
    "gpus_fitting": (_("fewest GPUs it fits on"), "{}"),
    "gpus_per_node": (_("GPUs per node"), "{}"),
    "gpus_per_socket_max": (_("GPUs per socket, at most"), "{}"),
    "headroom": (_("memory headroom"), PERCENT),
    "lanes_available": (_("PCIe lanes available"), "{}"),
    "lanes_needed": (_("PCIe lanes needed"), "{}"),
    "load_w": (_("power drawn at full load"), "{} W"),
    "memory_ecc": (_("ECC memory"), FLAG),
    "memory_gb": (_("system memory"), "{} GB"),
    "model_params_b": (_("model size"), "{}B"),
    "need_w": (_("power the parts need"), "{} W"),
    "nic_speed_gbps": (_("network card speed"), "{} Gb/s"),
    "nic_speed_gbps_min": (_("network card speed, at least"), "{} Gb/s"),
    "nics": (_("network cards per node"), "{}"),
    "nics_needed": (_("network cards needed"), "{}"),
    "nodes": (_("nodes"), "{}"),
    "numa_binding": (_("NUMA binding"), FLAG),
    "nvlink": (_("NVLink"), FLAG),
    "nvlink_model_params_b_min": (_("model size that needs NVLink"), "{}B"),
    "nvme": (_("NVMe drives per node"), "{}"),
    "nvme_bays": (_("NVMe bays"), "{}"),
    "pcie_gen": (_("PCIe generation"), "{}"),
    "pcie_gen_min": (_("PCIe generation, at least"), "{}"),
    "per_gpu_gb": (_("GPU memory needed per GPU"), "{} GB"),
    "platform_w": (_("platform's rated power"), "{} W"),
    "psu_headroom": (_("power headroom factor"), "× {}"),
    "psu_watts": (_("usable power supply"), "{} W"),
    "required_gb": (_("system memory required"), "{} GB"),
    "replica_gpus": (_("GPUs per replica"), "{}"),
    "replicas": (_("replicas"), "{}"),
    "required_w": (_("usable power required"), "{} W"),
    "small_batch_max": (_("small batch, at most"), "{}"),
    "sockets": (_("CPU sockets"), "{}"),
    "sockets_min": (_("CPU sockets, at least"), "{}"),
    "spread": (_("GPU difference between sockets"), "{}"),
    "threads_per_gpu": (_("CPU threads per GPU"), "{}"),
    "threads_per_gpu_max": (_("CPU threads per GPU, at most"), "{}"),
    "threads_per_gpu_min": (_("CPU threads per GPU, at least"), "{}"),
    "total_gb": (_("GPU memory needed"), "{} GB"),
    "usable_gb": (_("usable memory per GPU"), "{} GB"),
    "vram_gb": (_("GPU memory of the node"), "{} GB"),
}


def number_text(key: str, value: float | int) -> str:
    """Return one number of a finding in words: "system memory: 1,536 GB"."""
    label, unit = NUMBER_LABELS.get(key, (key.replace("_", " "), "{}"))
    if unit == FLAG:
        written = gettext("yes") if value else gettext("no")
    elif unit == PERCENT:
        written = f"{localized(round(value * 100, 1))}%"
    else:
        written = unit.format(localized(value))
    # Translators: one number of a check, "system memory: 1,536 GB"; Chinese uses "：".
    return gettext("%(label)s: %(value)s") % {"label": label, "value": written}


def numbers_text(numbers: dict[str, float | int]) -> str:
    """Return a finding's numbers in words, one after another."""
    return " · ".join(number_text(key, value) for key, value in numbers.items())
