"""What the serving round and the training layouts share: the build as the time model reads
it (`Cluster`), its links, the answer (`Performance`) and the notes every answer carries."""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from enum import StrEnum
from types import MappingProxyType
from typing import TYPE_CHECKING

from configurator.engine.build import Build, FormFactor, Gpu, Mode, Workload
from configurator.engine.fabric import FALLBACK_NODE_LINK_GBPS, nic_requirement
from configurator.engine.messages import Message, _, counted_replicas, counted_sequences
from configurator.engine.rules import RuleParams

if TYPE_CHECKING:
    from configurator.engine.performance.serving import Replica

HOURS_PER_MONTH = 730  # 365 × 24 / 12
SECONDS_PER_DAY = 86_400
CURRENCY = "CNY"
# PCIe x16 bandwidth per direction by generation, GB/s (PCI-SIG: 8, 16, 32 GT/s, 128b/130b).
PCIE_X16_GBS: Mapping[int, float] = MappingProxyType({3: 15.75, 4: 31.5, 5: 63.0, 6: 121.0})
# Start-up latency of one small NCCL all-reduce inside a node (llm-analysis' figure for H100).
ALL_REDUCE_LATENCY_S = 8e-6


@dataclass(frozen=True, slots=True)
class Cluster:
    """The part of a build the performance model reads; a `Build` has the same attributes.

    Sizing has no build, only GPUs: it times the work on `Cluster.of_gpus`.
    """

    gpu: Gpu
    gpu_count: int  # per node
    nodes: int = 1
    nvlink: bool = False
    nics: int = 0
    nic_speed_gbps: int = 0
    pcie_gen: int = 4

    @classmethod
    def of_gpus(cls, gpu: Gpu, total: int, rules: RuleParams, per_node_max: int = 8) -> Cluster:
        """Return `total` GPUs on the fewest nodes, NVLink where the GPU has it, NICs between."""
        nodes = math.ceil(total / per_node_max)
        per_node = math.ceil(total / nodes)
        fabric = nic_requirement(gpu, rules)
        nics = fabric.nics_for(per_node) if nodes > 1 else 0
        return cls(
            gpu=gpu,
            gpu_count=per_node,
            nodes=nodes,
            nvlink=gpu.has_nvlink,
            nics=nics,
            nic_speed_gbps=fabric.speed_gbps_min if nics else 0,
            pcie_gen=gpu.pcie_gen,
        )


Node = Build | Cluster


def as_cluster(build: Node) -> Cluster:
    """Return the attributes of a build the time model reads, as a `Cluster`."""
    return Cluster(
        gpu=build.gpu,
        gpu_count=build.gpu_count,
        nodes=getattr(build, "nodes", 1),
        nvlink=build.nvlink,
        nics=build.nics,
        nic_speed_gbps=build.nic_speed_gbps,
        pcie_gen=build.pcie_gen,
    )


class Interconnect(StrEnum):
    NVSWITCH = "nvswitch"
    BRIDGE = "bridge"
    PCIE = "pcie"


# Each interconnect class as the assumptions name its MFU.
INTERCONNECT_WORDS: Mapping[Interconnect, Message] = MappingProxyType(
    {
        Interconnect.NVSWITCH: _("nvswitch"),
        Interconnect.BRIDGE: _("bridge"),
        Interconnect.PCIE: _("pcie"),
    }
)


def interconnect(build: Node) -> Interconnect:
    """Return how the GPUs of a node talk to each other."""
    if build.nvlink and build.gpu.has_nvlink:
        return (
            Interconnect.NVSWITCH
            if build.gpu.form_factor == FormFactor.SXM
            else Interconnect.BRIDGE
        )
    return Interconnect.PCIE


def mfu(build: Node, rules: RuleParams) -> float:
    """Return the rule profile's share of peak for the build's interconnect class."""
    return {
        Interconnect.NVSWITCH: rules.mfu_nvswitch,
        Interconnect.BRIDGE: rules.mfu_bridge,
        Interconnect.PCIE: rules.mfu_pcie,
    }[interconnect(build)]


def nvlink_group(build: Node) -> int:
    """Return the most GPUs of a node NVLink joins: all on an NVSwitch board, a bridged pair,
    or one (PCIe only)."""
    kind = interconnect(build)
    if kind is Interconnect.NVSWITCH:
        return build.gpu_count
    if kind is Interconnect.BRIDGE:
        return min(2, build.gpu_count)
    return 1


def pcie_link_gbs(build: Node) -> tuple[float, str]:
    gen = min(build.pcie_gen, build.gpu.pcie_gen)
    return PCIE_X16_GBS.get(gen, 15.75), f"PCIe {gen}.0 x16"


def intra_link_gbs(build: Node, group: int | None = None) -> tuple[float, str]:
    """Return the one-way bandwidth per GPU of a ring over `group` GPUs of a node (all of
    them when not given), and its name.

    NVLink bridges join pairs (domain.md §6): a ring over more than two bridged cards
    crosses PCIe between the pairs, so PCIe is its slowest hop. Only an NVSwitch board joins
    every GPU at NVLink speed.
    """
    group = build.gpu_count if group is None else group
    kind = interconnect(build)
    if kind is Interconnect.PCIE:
        return pcie_link_gbs(build)
    if kind is Interconnect.BRIDGE and group > 2:
        gbs, name = pcie_link_gbs(build)
        return gbs, _("%(link)s between NVLink-bridged pairs", link=name)
    return build.gpu.nvlink_gbps / 2, f"NVLink {build.gpu.nvlink_gbps / 2:g} GB/s"


def sustained_gbs(link_gbs: float, rules: RuleParams) -> float:
    """Return the bus bandwidth a collective sustains over a link of `link_gbs` one way:
    the rule set's `comm_bandwidth_efficiency` of it (nccl-tests' `busbw`)."""
    return link_gbs * rules.comm_bandwidth_efficiency


def allreduce_busbw_gbs(build: Node, rules: RuleParams, group: int | None = None) -> float:
    """Return the bus bandwidth, GB/s, the time model times a collective over `group` GPUs of
    a node at (all of them when not given): the one-way bandwidth of its ring's slowest link
    (`intra_link_gbs`), sustained at `comm_bandwidth_efficiency`.

    The one figure for the training all-reduce inside a node, the serving tensor-parallel
    link, the MoE all-to-all, and the all-reduce plateau a probe of the build should measure
    (fleet/manifest.py).
    """
    return sustained_gbs(intra_link_gbs(build, group)[0], rules)


def node_fabric_gbs(build: Node, rules: RuleParams) -> tuple[float, str]:
    """Return a node's fabric bandwidth to the other nodes, one way in GB/s, and its name.

    NCCL splits a ring's data over every NIC of the node (one ring per rail), so between nodes
    a ring runs at the node's whole fabric bandwidth.
    """
    if build.nics:
        speed = build.nic_speed_gbps or nic_requirement(build.gpu, rules).speed_gbps_min
        name = _("%(nics)s × %(speed)s Gb/s NICs per node", nics=build.nics, speed=speed)
        return build.nics * speed / 8, name
    name = _("%(speed)s Gb/s Ethernet (no fabric NICs)", speed=FALLBACK_NODE_LINK_GBPS)
    return FALLBACK_NODE_LINK_GBPS / 8, name


def ring_link_gbs(build: Node, rules: RuleParams, spans_nodes: bool) -> tuple[float, str]:
    """Return the one-way bandwidth per GPU of the slowest link a ring crosses, and its name:
    the node's link between its GPUs, and the node's fabric when the ring spans nodes."""
    intra, name = intra_link_gbs(build)
    if not spans_nodes:
        return intra, name
    inter, inter_name = node_fabric_gbs(build, rules)
    return (inter, inter_name) if inter < intra else (intra, name)


@dataclass(frozen=True, slots=True)
class Performance:
    """What a build does with the workload's work, how long it takes and what it costs."""

    mode: Mode
    monthly_price: float
    time_to_train_days: float | None = None
    time_to_train_s: float | None = None
    tokens_per_s: float | None = None
    time_to_first_token_s: float | None = None
    time_per_output_token_s: float | None = None
    cost_per_run: float | None = None
    cost_per_million_tokens: float | None = None
    meets_target: bool = True
    meets_ttft_target: bool | None = None  # None without a time-to-first-token target
    meets_tpot_target: bool | None = None  # None without a time-per-output-token target
    assumptions: tuple[Message, ...] = ()
    served: Replica | None = None  # inference: the replicas the figures were timed on
    terms: dict[str, float] = field(default_factory=dict)  # the formula's terms, for docs/tests

    def priced(self, monthly_price: float) -> Performance:
        """Return these figures on a build of another monthly price: the costs scale with it."""
        if (
            self.monthly_price
            and monthly_price == self.monthly_price
            and type(monthly_price) is type(self.monthly_price)
        ):
            return self  # the same price: every figure as it is (frozen, so shared safely)
        scale = monthly_price / self.monthly_price if self.monthly_price else 0.0

        def scaled(value: float | None) -> float | None:
            return None if value is None else value * scale

        return replace(
            self,
            monthly_price=monthly_price,
            cost_per_run=scaled(self.cost_per_run),
            cost_per_million_tokens=scaled(self.cost_per_million_tokens),
        )

    @property
    def work_cost(self) -> float:
        """Return the cost the recommender ranks by: per run, or per million output tokens."""
        value = self.cost_per_run if self.mode != Mode.INFER else self.cost_per_million_tokens
        return math.inf if value is None else value

    def as_dict(self, translate: Callable[[str], str] = str) -> dict[str, object]:
        """Return api.md's `performance` object: the fields that apply to the mode.

        `translate` renders each assumption (`engine.messages`); English when not given.
        """
        result: dict[str, object] = {}
        if self.mode == Mode.INFER:
            result["tokens_per_s"] = _round(self.tokens_per_s, 1)
            result["time_to_first_token_s"] = _round(self.time_to_first_token_s, 4)
            result["time_per_output_token_s"] = _round(self.time_per_output_token_s, 5)
            result["cost_per_million_tokens"] = _round(self.cost_per_million_tokens, 4)
        else:
            result["time_to_train_days"] = _round(self.time_to_train_days, 2)
            result["time_to_train_s"] = _round(self.time_to_train_s, 0)
            result["cost_per_run"] = _round(self.cost_per_run, 2)
        result["currency"] = CURRENCY
        result["monthly_price"] = round(self.monthly_price, 2)
        result["meets_target"] = self.meets_target
        if self.meets_ttft_target is not None:
            result["meets_ttft_target"] = self.meets_ttft_target
        if self.meets_tpot_target is not None:
            result["meets_tpot_target"] = self.meets_tpot_target
        result["assumptions"] = [translate(note) for note in self.assumptions]
        return result


def _round(value: float | None, digits: int) -> float | None:
    return None if value is None else round(value, digits)


def peak_note(peak: float, efficiency: float, phase: Message) -> Message:
    """Say what the GPUs compute at: `989 TFLOPS dense × 42% (training)`."""
    return _(
        "%(peak)s TFLOPS dense × %(share)s (%(phase)s)",
        peak=f"{peak / 1e12:g}", share=f"{efficiency:.0%}", phase=phase,
    )  # fmt: skip


def month_note() -> Message:
    return _("a month is %(hours)s hours of the build's monthly price", hours=HOURS_PER_MONTH)


def served_note(replicas: int, gpus: str, sequences: int, staged: bool = False) -> Message:
    """Say how the GPUs serve: `2 replicas of 4 × H100, 16 sequences in flight each`; a
    replica whose GPUs hold whole layers each (`staged`) says so."""
    if staged:
        return _(
            "%(replicas)s of %(gpus)s, whole layers on each GPU, %(sequences)s in flight each",
            replicas=counted_replicas(replicas), gpus=gpus,
            sequences=counted_sequences(sequences),
        )  # fmt: skip
    return _(
        "%(replicas)s of %(gpus)s, %(sequences)s in flight each",
        replicas=counted_replicas(replicas), gpus=gpus, sequences=counted_sequences(sequences),
    )  # fmt: skip


def gpu_rent_note(gpus: int, gpu: Gpu) -> Message:
    """Say that sizing times the work on the GPUs alone, at their monthly rent."""
    return _("priced at the monthly rent of %(gpus)s alone", gpus=f"{gpus} × {gpu.name}")


def unknown(workload: Workload, monthly_price: float, gpu: Gpu) -> Performance:
    note = _(
        "%(gpu)s: no datasheet throughput or memory bandwidth in the catalog, "
        "or the model does not fit",
        gpu=gpu.name,
    )
    return Performance(
        mode=workload.mode, monthly_price=monthly_price, meets_target=False, assumptions=(note,)
    )
