"""The values each rule parameter may take, checked before a new rule version is published.

Bounds are sanity limits, not policy: they stop a typo (a ratio of 12 instead of 1.2, a
negative wattage) from being published, and leave every real profile expressible.
"""

from __future__ import annotations

from dataclasses import fields
from math import isfinite

from configurator.engine.rules import RuleParams

# name -> (lowest, highest) allowed; a parameter absent here must only be ≥ 0.
BOUNDS: dict[str, tuple[float, float]] = {
    "threads_per_gpu_min": (0.5, 256),
    "threads_per_gpu_max": (1, 512),
    "cores_per_gpu_min": (0, 256),
    "pcie_lanes_per_gpu": (1, 32),
    "pcie_gen_min": (1, 7),
    "pcie_headroom_target": (0.01, 1),
    "memory_vram_ratio_min": (0.1, 10),
    "memory_floor_gb_8gpu": (0, 65536),
    "memory_per_gpu_gb_min": (0, 4096),
    "memory_headroom_target": (0.01, 5),
    "gpus_per_socket_max": (1, 16),
    "sockets_min": (1, 2),
    "nvlink_model_params_b_min": (0, 100000),
    "gpu_memory_usable_fraction": (0.5, 1),
    "psu_floor_w_4gpu": (0, 100000),
    "psu_floor_w_8gpu": (0, 100000),
    "psu_headroom": (1, 3),
    "dimm_w": (0, 100),
    "chassis_overhead_w": (0, 10000),
    "sxm_board_share": (0, 2),
    "cpu_base_ghz_min": (0, 10),
    "cpu_scheduling_ms": (0, 1000),
    "small_batch_max": (0, 100000),
    "balance_score_min": (0, 100),
    "balance_margin": (0, 100),
    "over_provision_penalty": (0, 100),
    "gpus_per_nic": (1, 16),
    "gpus_per_nic_pcie": (1, 16),
    "nic_speed_gbps_min": (1, 3200),
    "nic_speed_gbps_min_hopper": (1, 3200),
    "recommend_max_nodes": (1, 1024),
    "mfu_nvswitch": (0.01, 1),
    "mfu_bridge": (0.01, 1),
    "mfu_pcie": (0.01, 1),
    "memory_bandwidth_efficiency": (0.01, 1),
    "comm_bandwidth_efficiency": (0.01, 1),
    "comm_overlap": (0, 1),
    "inference_batch_max": (1, 65536),
    "inference_batch_max_large": (1, 65536),
    "probe_memory_share_min": (0.01, 1),
    "probe_node_memory_share_min": (0.01, 1),
    "probe_busbw_share_min": (0.01, 1),
}


def parameter_errors(changes: dict[str, object], current: RuleParams) -> dict[str, list[str]]:
    """Return the errors of applying `changes` to `current`, by parameter name."""
    kinds = {f.name: f.type for f in fields(RuleParams)}
    errors: dict[str, list[str]] = {}
    for name, value in changes.items():
        if name not in kinds:
            errors[name] = [f"Unknown rule parameter; known ones: {', '.join(sorted(kinds))}."]
            continue
        if isinstance(value, bool) or not isinstance(value, int | float) or not isfinite(value):
            errors[name] = ["Must be a number."]
            continue
        if kinds[name] == "int" and value != int(value):
            errors[name] = ["Must be a whole number."]
            continue
        low, high = BOUNDS.get(name, (0, float("inf")))
        if not low <= value <= high:
            errors[name] = [f"Must be between {low:g} and {high:g}."]
    if errors:
        return errors
    merged = {**current.as_dict(), **changes}
    if merged["threads_per_gpu_min"] > merged["threads_per_gpu_max"]:
        errors["threads_per_gpu_min"] = ["Cannot exceed threads_per_gpu_max."]
    if not merged["mfu_pcie"] <= merged["mfu_bridge"] <= merged["mfu_nvswitch"]:
        errors["mfu_bridge"] = ["Must lie between mfu_pcie and mfu_nvswitch."]
    if merged["psu_floor_w_4gpu"] > merged["psu_floor_w_8gpu"]:
        errors["psu_floor_w_4gpu"] = ["Cannot exceed psu_floor_w_8gpu."]
    return errors
