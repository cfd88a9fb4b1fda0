"""What each rule parameter means, for the people who set it: dimension, words, unit, source.

One entry per `RuleParams` field (a test holds the two together); the rules form groups its
fields by dimension and labels each from here, in the request's language.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

DIMENSIONS: dict[str, Promise] = {
    "cpu": _("CPU and NUMA"),
    "pcie": _("PCIe"),
    "memory": _("Memory"),
    "power": _("Power"),
    "fabric": _("Fabric (NVLink and network)"),
    "balance": _("Balance score"),
    "recommender": _("Recommender"),
    "performance": _("Time, throughput and cost of the work"),
    "other": _("Other"),
}

GUIDE = _("the operator's field guide")
DECISION = _("product decision (domain.md §6)")
NVIDIA_RA = _("NVIDIA reference architecture")
PERFORMANCE_DOC = _("product decision, calibrated in docs/performance.md")


@dataclass(frozen=True)
class ParameterInfo:
    dimension: str
    label: Promise
    unit: Promise
    source: Promise
    section: str = ""  # where in the source, e.g. "§2"


PARAMETERS: dict[str, ParameterInfo] = {
    "threads_per_gpu_min": ParameterInfo(
        "cpu", _("Fewest CPU threads per GPU"), _("threads"), GUIDE, "§2"
    ),
    "threads_per_gpu_max": ParameterInfo(
        "cpu", _("Most CPU threads per GPU before it is over-provisioned"), _("threads"), GUIDE,
        "§2",
    ),
    "cores_per_gpu_min": ParameterInfo(
        "cpu", _("Fewest physical cores per GPU (0 turns it off)"), _("cores"), NVIDIA_RA
    ),
    "gpus_per_socket_max": ParameterInfo(
        "cpu", _("Most GPUs on one CPU socket"), _("GPUs"), GUIDE, "§2, §4 P4"
    ),
    "sockets_min": ParameterInfo("cpu", _("Fewest CPU sockets"), _("sockets"), GUIDE, "§2"),
    "cpu_base_ghz_min": ParameterInfo(
        "cpu", _("Lowest CPU base clock for small-batch inference"), _("GHz"), GUIDE, "§4 P8"
    ),
    "small_batch_max": ParameterInfo(
        "cpu", _("Largest batch that counts as small-batch inference"), _("sequences"),
        DECISION, "P8",
    ),
    "pcie_lanes_per_gpu": ParameterInfo(
        "pcie", _("PCIe lanes each GPU needs"), _("lanes"), GUIDE, "§2"
    ),
    "pcie_gen_min": ParameterInfo(
        "pcie", _("Oldest PCIe generation for a multi-GPU node"), _("generation"), GUIDE,
        "§4 P1",
    ),
    "pcie_headroom_target": ParameterInfo(
        "pcie", _("Lane headroom that earns a full score"), _("fraction"), DECISION, "§5"
    ),
    "memory_vram_ratio_min": ParameterInfo(
        "memory", _("System memory per GB of GPU memory"), _("ratio"), GUIDE, "§2, §4 P3"
    ),
    "memory_floor_gb_8gpu": ParameterInfo(
        "memory", _("Least system memory of an 8-GPU node"), _("GB"), GUIDE, "§2"
    ),
    "memory_per_gpu_gb_min": ParameterInfo(
        "memory", _("Least system memory per GPU (0 turns it off)"), _("GB"), NVIDIA_RA
    ),
    "memory_headroom_target": ParameterInfo(
        "memory", _("Memory headroom that earns a full score"), _("fraction"), DECISION, "§5"
    ),
    "gpu_memory_usable_fraction": ParameterInfo(
        "memory", _("Share of a GPU's memory that sizing may fill"), _("fraction"), DECISION,
        "§6",
    ),
    "psu_floor_w_4gpu": ParameterInfo(
        "power", _("Least PSU output of a 4-GPU node"), _("W"), GUIDE, "§4 P7"
    ),
    "psu_floor_w_8gpu": ParameterInfo(
        "power", _("Least PSU output of an 8-GPU node"), _("W"), GUIDE, "§4 P7"
    ),
    "psu_headroom": ParameterInfo(
        "power", _("Headroom over the components' TDP"), _("factor"), DECISION, "P7"
    ),
    "dimm_w": ParameterInfo("power", _("Power of one DIMM under load"), _("W"), DECISION, "P7"),
    "chassis_overhead_w": ParameterInfo(
        "power", _("Fans, board, BMC and boot drives"), _("W"), DECISION, "P7"
    ),
    "sxm_board_share": ParameterInfo(
        "power", _("HGX baseboard power per SXM GPU, as a share of its TDP"), _("fraction"),
        DECISION, "P7",
    ),
    "nvlink_model_params_b_min": ParameterInfo(
        "fabric", _("Model size from which multi-GPU training needs NVLink"),
        _("billion parameters"), DECISION, "P5",
    ),
    "gpus_per_nic": ParameterInfo(
        "fabric", _("GPUs per high-speed NIC in multi-node training"), _("GPUs"), NVIDIA_RA
    ),
    "nic_speed_gbps_min": ParameterInfo(
        "fabric", _("Slowest NIC for multi-node training"), _("Gb/s"), NVIDIA_RA
    ),
    "nic_speed_gbps_min_hopper": ParameterInfo(
        "fabric", _("Slowest NIC for multi-node training on Hopper GPUs"), _("Gb/s"), NVIDIA_RA
    ),
    "balance_score_min": ParameterInfo(
        "balance", _("Lowest balance score a node is rented out with"), _("points"), GUIDE, "§5"
    ),
    "balance_margin": ParameterInfo(
        "balance", _("How far the overall score may exceed the weakest dimension"), _("points"),
        DECISION, "§5",
    ),
    "over_provision_penalty": ParameterInfo(
        "balance", _("Score lost when threads per GPU reach twice the maximum"), _("points"),
        DECISION, "§5",
    ),
    "recommend_max_nodes": ParameterInfo(
        "recommender", _("Most nodes a recommended build spreads over"), _("nodes"), DECISION,
    ),
    "mfu_nvswitch": ParameterInfo(
        "performance", _("Share of peak tensor throughput sustained on an NVSwitch board"),
        _("fraction"), PERFORMANCE_DOC,
    ),
    "mfu_bridge": ParameterInfo(
        "performance", _("Share of peak tensor throughput sustained with NVLink bridges"),
        _("fraction"), PERFORMANCE_DOC,
    ),
    "mfu_pcie": ParameterInfo(
        "performance", _("Share of peak tensor throughput sustained over PCIe only"),
        _("fraction"), PERFORMANCE_DOC,
    ),
    "memory_bandwidth_efficiency": ParameterInfo(
        "performance", _("Share of GPU memory bandwidth that decoding reads at"), _("fraction"),
        PERFORMANCE_DOC,
    ),
    "comm_bandwidth_efficiency": ParameterInfo(
        "performance", _("Share of a link's bandwidth an all-reduce achieves"), _("fraction"),
        PERFORMANCE_DOC,
    ),
    "comm_overlap": ParameterInfo(
        "performance", _("Gradient all-reduce overlaps the backward pass (1) or follows it (0)"),
        _("0 or 1"), PERFORMANCE_DOC,
    ),
    "inference_batch_max": ParameterInfo(
        "performance", _("Most sequences one inference replica batches for a throughput target"),
        _("sequences"), PERFORMANCE_DOC,
    ),
}  # fmt: skip
