"""The rule parameters a check reads: every threshold lives here, never inside a check.

The defaults are the operator baseline (domain.md §2–§4, api.md "Baseline rules"). Architects
edit them in the admin; each edit is a new version stored in the database, and the
selectors turn the stored mapping into a `RuleParams` with `RuleParams.from_mapping`.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, fields


@dataclass(frozen=True, slots=True)
class RuleParams:
    # CPU threads per GPU: 6–12 is the baseline band [guide §2].
    threads_per_gpu_min: float = 6
    threads_per_gpu_max: float = 12
    # A profile may require physical cores per GPU instead (NVIDIA RA: 7); 0 turns it off.
    cores_per_gpu_min: float = 0
    # PCIe: every GPU wants an x16 link [guide §2]; headroom beyond which the score is full.
    pcie_lanes_per_gpu: int = 16
    pcie_gen_min: int = 4  # P1: Gen3 (E5-class) platforms are legacy [guide §4 P1]
    pcie_headroom_target: float = 0.2
    # Memory: RAM ≥ 1.2 × total VRAM, 8-GPU nodes ≥ 512 GB [guide §2, §4 P3].
    memory_vram_ratio_min: float = 1.2
    memory_floor_gb_8gpu: int = 512
    memory_per_gpu_gb_min: int = 0  # NVIDIA RA: 128; 0 turns it off
    memory_headroom_target: float = 0.25
    # NUMA: P4 is one CPU carrying 6 or more GPUs, so at most 5 per socket [guide §4 P4,
    # decision §6: an even 5 + 5 behind PCIe switches is not P4], in a dual-socket node
    # [guide §2 "baseline threshold (dual socket)"; NVIDIA RA: ≥ 2 sockets].
    gpus_per_socket_max: int = 5
    sockets_min: int = 2
    # P5: full-parameter multi-GPU training of models above this size needs NVLink [§6].
    nvlink_model_params_b_min: float = 13
    # Sizing plans at most this share of a card's memory [decision §6; vLLM's
    # gpu_memory_utilization and SGLang's mem_fraction_static default to about 0.9].
    gpu_memory_usable_fraction: float = 0.9
    # P7: floors are minimums [guide §4 P7]. Where the platform states its power (a published
    # maximum, or the stock PSU configuration) that figure is the need; elsewhere the need is
    # component TDPs + board allowance, × headroom [decision §6]. Calibrated in docs/rules.md:
    # S1 on 2000 W passes, and 8 × H100 SXM as DGX H100 is built comes to its 10.2 kW.
    psu_floor_w_4gpu: int = 2000
    psu_floor_w_8gpu: int = 3600
    psu_headroom: float = 1.1
    dimm_w: int = 10  # a DDR5 RDIMM under load
    chassis_overhead_w: int = 200  # board, BMC, base fans, boot drives
    # HGX baseboard per SXM GPU, as a share of its TDP: NVSwitch chips, VRM losses, the fans.
    sxm_board_share: float = 0.37
    # P8: small-batch inference wants a high base clock [guide §4 P8, decision §6].
    cpu_base_ghz_min: float = 2.4
    small_batch_max: int = 16
    # Balance score [guide §5, decision]: below the minimum a node is not rented out.
    balance_score_min: float = 85
    balance_margin: float = 5
    over_provision_penalty: float = 10
    # Fabric: multi-node training has one NIC per `gpus_per_nic` GPUs, each at least
    # `nic_speed_gbps_min` Gb/s, `nic_speed_gbps_min_hopper` for Hopper GPUs [decision §6;
    # NVIDIA's DGX/HGX reference: one 200G NIC per A100/A800, one 400G NIC per H100].
    gpus_per_nic: int = 1
    nic_speed_gbps_min: int = 200
    nic_speed_gbps_min_hopper: int = 400
    # Recommender: multi-node builds span at most this many nodes.
    recommend_max_nodes: int = 64
    # Time and cost of the work (docs/performance.md). Share of the dense tensor peak that
    # training and prefill sustain, counting every executed FLOP (recomputation included), by
    # how the GPUs of a node talk: NVSwitch board, NVLink bridges, or PCIe only.
    mfu_nvswitch: float = 0.50
    mfu_bridge: float = 0.40
    mfu_pcie: float = 0.30
    # Share of the datasheet memory bandwidth that decoding reads at (weights + KV cache).
    memory_bandwidth_efficiency: float = 0.70
    # Share of a link's bandwidth that a ring all-reduce achieves (NCCL bus bandwidth).
    comm_bandwidth_efficiency: float = 0.80
    # 1: gradient communication overlaps the backward pass (only what outlasts it counts).
    comm_overlap: int = 1
    # Most sequences one inference replica batches when the workload does not say (vLLM's
    # default max_num_seqs).
    inference_batch_max: int = 256

    @classmethod
    def from_mapping(cls, values: dict[str, object]) -> RuleParams:
        """Build parameters from a stored mapping; ignore unknown keys, default missing ones."""
        casts = {f.name: float if f.type == "float" else int for f in fields(cls)}
        return cls(**{name: casts[name](value) for name, value in values.items() if name in casts})

    def as_dict(self) -> dict[str, float | int]:
        return asdict(self)

    @classmethod
    def names(cls) -> tuple[str, ...]:
        return tuple(f.name for f in fields(cls))
