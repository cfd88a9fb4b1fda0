"""The rule parameters a check reads: every threshold lives here, never inside a check.

The defaults are the operator baseline (domain.md §2–§4, api.md "Baseline rules"). Architects
edit them in the admin; each edit is a new version stored in the database, and the
selectors turn the stored mapping into a `RuleParams` with `RuleParams.from_mapping`.

Each parameter is declared once, with what it means for the people who set it (`rule`: its
dimension, label, unit and source, message ids rendered in the request's language): the
rules form groups and labels its fields from here (`configurator.rule_parameters`).
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field, fields
from functools import cache

from configurator.engine.messages import _

GUIDE = _("the operator's field guide")
DECISION = _("product decision (domain.md §6)")
NVIDIA_RA = _("NVIDIA reference architecture")
PERFORMANCE_DOC = _("product decision, calibrated in docs/performance.md")
FLEET_DOC = _("product decision, docs/fleet.md (delivered as quoted)")


@dataclass(frozen=True, slots=True)
class ParameterInfo:
    """What one rule parameter means: its dimension (`rule_parameters.DIMENSIONS`), label,
    unit and source, each a message id; `section` says where in the source, e.g. "§2"."""

    dimension: str
    label: str
    unit: str
    source: str
    section: str = ""


def rule(default: float, dimension: str, label: str, unit: str, source: str, section: str = ""):
    """Declare a rule parameter: its default and what it means (`ParameterInfo`)."""
    info = ParameterInfo(dimension, label, unit, source, section)
    return field(default=default, metadata={"info": info})


@dataclass(frozen=True, slots=True)
class RuleParams:
    # CPU threads per GPU: 6–12 is the baseline band [guide §2].
    threads_per_gpu_min: float = rule(
        6, "cpu", _("Fewest CPU threads per GPU"), _("threads"), GUIDE, "§2"
    )
    threads_per_gpu_max: float = rule(
        12,
        "cpu",
        _("Most CPU threads per GPU before it is over-provisioned"),
        _("threads"),
        GUIDE,
        "§2",
    )
    # A profile may require physical cores per GPU instead (NVIDIA RA: 7); 0 turns it off.
    cores_per_gpu_min: float = rule(
        0, "cpu", _("Fewest physical cores per GPU (0 turns it off)"), _("cores"), NVIDIA_RA
    )
    # PCIe: every GPU wants an x16 link [guide §2]; headroom beyond which the score is full.
    pcie_lanes_per_gpu: int = rule(
        16, "pcie", _("PCIe lanes each GPU needs"), _("lanes"), GUIDE, "§2"
    )
    # P1: Gen3 (E5-class) platforms are legacy [guide §4 P1]
    pcie_gen_min: int = rule(
        4, "pcie", _("Oldest PCIe generation for a multi-GPU node"), _("generation"), GUIDE, "§4 P1"
    )
    pcie_headroom_target: float = rule(
        0.2, "pcie", _("Lane headroom that earns a full score"), _("fraction"), DECISION, "§5"
    )
    # Memory: RAM ≥ 1.2 × total VRAM, 8-GPU nodes ≥ 512 GB [guide §2, §4 P3].
    memory_vram_ratio_min: float = rule(
        1.2, "memory", _("System memory per GB of GPU memory"), _("ratio"), GUIDE, "§2, §4 P3"
    )
    memory_floor_gb_8gpu: int = rule(
        512, "memory", _("Least system memory of an 8-GPU node"), _("GB"), GUIDE, "§2"
    )
    # NVIDIA RA: 128; 0 turns it off
    memory_per_gpu_gb_min: int = rule(
        0, "memory", _("Least system memory per GPU (0 turns it off)"), _("GB"), NVIDIA_RA
    )
    memory_headroom_target: float = rule(
        0.25, "memory", _("Memory headroom that earns a full score"), _("fraction"), DECISION, "§5"
    )
    # NUMA: P4 is one CPU carrying 6 or more GPUs, so at most 5 per socket [guide §4 P4,
    # decision §6: an even 5 + 5 behind PCIe switches is not P4], in a dual-socket node
    # [guide §2 "baseline threshold (dual socket)"; NVIDIA RA: ≥ 2 sockets].
    gpus_per_socket_max: int = rule(
        5, "cpu", _("Most GPUs on one CPU socket"), _("GPUs"), GUIDE, "§2, §4 P4"
    )
    sockets_min: int = rule(2, "cpu", _("Fewest CPU sockets"), _("sockets"), GUIDE, "§2")
    # P5: full-parameter multi-GPU training of models above this size needs NVLink [§6].
    nvlink_model_params_b_min: float = rule(
        13,
        "fabric",
        _("Model size from which multi-GPU training needs NVLink"),
        _("billion parameters"),
        DECISION,
        "P5",
    )
    # Sizing plans at most this share of a card's memory [decision §6; vLLM's
    # gpu_memory_utilization and SGLang's mem_fraction_static default to about 0.9].
    gpu_memory_usable_fraction: float = rule(
        0.9,
        "memory",
        _("Share of a GPU's memory that sizing may fill"),
        _("fraction"),
        DECISION,
        "§6",
    )
    # P7: floors are minimums [guide §4 P7]. Where the platform states its power (a published
    # maximum, or the stock PSU configuration) that figure is the need; elsewhere the need is
    # component TDPs + board allowance, × headroom [decision §6]. Calibrated in docs/rules.md:
    # S1 on 2000 W passes, and 8 × H100 SXM as DGX H100 is built comes to its 10.2 kW.
    psu_floor_w_4gpu: int = rule(
        2000, "power", _("Least PSU output of a 4-GPU node"), _("W"), GUIDE, "§4 P7"
    )
    psu_floor_w_8gpu: int = rule(
        3600, "power", _("Least PSU output of an 8-GPU node"), _("W"), GUIDE, "§4 P7"
    )
    psu_headroom: float = rule(
        1.1, "power", _("Headroom over the components' TDP"), _("factor"), DECISION, "P7"
    )
    # a DDR5 RDIMM under load
    dimm_w: int = rule(10, "power", _("Power of one DIMM under load"), _("W"), DECISION, "P7")
    # board, BMC, base fans, boot drives
    chassis_overhead_w: int = rule(
        200, "power", _("Fans, board, BMC and boot drives"), _("W"), DECISION, "P7"
    )
    # HGX baseboard per SXM GPU, as a share of its TDP: NVSwitch chips, VRM losses, the fans.
    sxm_board_share: float = rule(
        0.37,
        "power",
        _("HGX baseboard power per SXM GPU, as a share of its TDP"),
        _("fraction"),
        DECISION,
        "P7",
    )
    # P8: small-batch inference wants a high base clock [guide §4 P8, decision §6].
    cpu_base_ghz_min: float = rule(
        2.4, "cpu", _("Lowest CPU base clock for small-batch inference"), _("GHz"), GUIDE, "§4 P8"
    )
    # P8's +54 % is CPU-side latency (domain.md §6): the serving engine's scheduling time per
    # step at the baseline clock, which a low base clock lengthens; never a GPU slowdown.
    cpu_scheduling_ms: float = rule(
        1.0,
        "cpu",
        _("CPU scheduling time per inference step that a low base clock lengthens (P8)"),
        _("ms"),
        PERFORMANCE_DOC,
        "P8",
    )
    small_batch_max: int = rule(
        16,
        "cpu",
        _("Largest batch that counts as small-batch inference"),
        _("sequences"),
        DECISION,
        "P8",
    )
    # Balance score [guide §5, decision]: below the minimum a node is not rented out.
    balance_score_min: float = rule(
        85, "balance", _("Lowest balance score a node is rented out with"), _("points"), GUIDE, "§5"
    )
    balance_margin: float = rule(
        5,
        "balance",
        _("How far the overall score may exceed the weakest dimension"),
        _("points"),
        DECISION,
        "§5",
    )
    over_provision_penalty: float = rule(
        10,
        "balance",
        _("Score lost when threads per GPU reach twice the maximum"),
        _("points"),
        DECISION,
        "§5",
    )
    # Fabric: multi-node training has one NIC per `gpus_per_nic` GPUs, each at least
    # `nic_speed_gbps_min` Gb/s, `nic_speed_gbps_min_hopper` for Hopper GPUs [decision §6;
    # NVIDIA's DGX/HGX reference: one 200G NIC per A100/A800, one 400G NIC per H100].
    gpus_per_nic: int = rule(
        1,
        "fabric",
        _("GPUs per high-speed NIC in multi-node training on an HGX/DGX (SXM) board"),
        _("GPUs"),
        NVIDIA_RA,
    )
    # PCIe boards: NVIDIA's PCIe-optimised "2-8-5" node has 4 east-west NICs for 8 GPUs (one
    # per bridged pair) plus one north-south [domain.md §6, §8].
    gpus_per_nic_pcie: int = rule(
        2,
        "fabric",
        _("GPUs per high-speed NIC in multi-node training on a PCIe board"),
        _("GPUs"),
        NVIDIA_RA,
        "2-8-5",
    )
    nic_speed_gbps_min: int = rule(
        200, "fabric", _("Slowest NIC for multi-node training"), _("Gb/s"), NVIDIA_RA
    )
    nic_speed_gbps_min_hopper: int = rule(
        400, "fabric", _("Slowest NIC for multi-node training on Hopper GPUs"), _("Gb/s"), NVIDIA_RA
    )
    # Recommender: multi-node builds span at most this many nodes.
    recommend_max_nodes: int = rule(
        64, "recommender", _("Most nodes a recommended build spreads over"), _("nodes"), DECISION
    )
    # Time and cost of the work (docs/performance.md). Share of the dense tensor peak that
    # training and prefill sustain, counting every executed FLOP (recomputation included), by
    # how the GPUs of a node talk: NVSwitch board, NVLink bridges, or PCIe only.
    mfu_nvswitch: float = rule(
        0.50,
        "performance",
        _("Share of peak tensor throughput sustained on an NVSwitch board"),
        _("fraction"),
        PERFORMANCE_DOC,
    )
    mfu_bridge: float = rule(
        0.40,
        "performance",
        _("Share of peak tensor throughput sustained with NVLink bridges"),
        _("fraction"),
        PERFORMANCE_DOC,
    )
    mfu_pcie: float = rule(
        0.30,
        "performance",
        _("Share of peak tensor throughput sustained over PCIe only"),
        _("fraction"),
        PERFORMANCE_DOC,
    )
    # Share of the datasheet memory bandwidth that decoding reads at (weights + KV cache).
    memory_bandwidth_efficiency: float = rule(
        0.70,
        "performance",
        _("Share of GPU memory bandwidth that decoding reads at"),
        _("fraction"),
        PERFORMANCE_DOC,
    )
    # Share of a link's bandwidth that a ring all-reduce achieves (NCCL bus bandwidth).
    comm_bandwidth_efficiency: float = rule(
        0.80,
        "performance",
        _("Share of a link's bandwidth an all-reduce achieves"),
        _("fraction"),
        PERFORMANCE_DOC,
    )
    # 1: gradient communication overlaps the backward pass (only what outlasts it counts).
    comm_overlap: int = rule(
        1,
        "performance",
        _("Gradient all-reduce overlaps the backward pass (1) or follows it (0)"),
        _("0 or 1"),
        PERFORMANCE_DOC,
    )
    # Most sequences one inference replica batches when the workload does not say (vLLM's
    # default max_num_seqs: 256 on cards under 70 GiB, 1024 from 70 GiB on).
    inference_batch_max: int = rule(
        256,
        "performance",
        _("Most sequences one inference replica batches for a throughput target"),
        _("sequences"),
        PERFORMANCE_DOC,
    )
    inference_batch_max_large: int = rule(
        1024,
        "performance",
        _("Most sequences one inference replica of 70 GiB cards batches for a throughput target"),
        _("sequences"),
        PERFORMANCE_DOC,
    )
    # Delivered as quoted (fleet/manifest.compare): how close a probed node must come.
    # numactl reports each NUMA node's usable memory, a few per cent below what is installed
    # (the kernel's and firmware's reservations: about 2 % on a 1 TB node).
    probe_memory_share_min: float = rule(
        0.95,
        "delivery",
        _("Share of the quoted memory a probed node must show"),
        _("fraction"),
        FLEET_DOC,
    )
    # A NUMA node holding less than this share of its part of the memory has a channel empty.
    probe_node_memory_share_min: float = rule(
        0.90,
        "delivery",
        _("Share of its part of the memory each NUMA node must show"),
        _("fraction"),
        FLEET_DOC,
    )
    # A measured all-reduce plateau below this share of the time model's figure is a WARN: the
    # figure is an expectation, not a rule that rejects.
    probe_busbw_share_min: float = rule(
        0.80,
        "delivery",
        _("Share of the expected all-reduce bus bandwidth a probed node must reach"),
        _("fraction"),
        FLEET_DOC,
    )

    @classmethod
    def from_mapping(cls, values: dict[str, object]) -> RuleParams:
        """Build parameters from a stored mapping; ignore unknown keys, default missing ones."""
        casts = {f.name: float if f.type == "float" else int for f in fields(cls)}
        return cls(**{name: casts[name](value) for name, value in values.items() if name in casts})

    def as_dict(self) -> dict[str, float | int]:
        return asdict(self)

    @classmethod
    @cache  # the fields of a class never change; read on every evaluation with references
    def names(cls) -> tuple[str, ...]:
        return tuple(f.name for f in fields(cls))

    @classmethod
    def described(cls) -> dict[str, ParameterInfo]:
        """Return what each parameter means, by name, in the order they are declared."""
        return {f.name: f.metadata["info"] for f in fields(cls)}
