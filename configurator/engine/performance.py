"""Time, throughput and cost of the work a build does (docs/performance.md has the derivation).

Symbols: P parameters, N_a those a token uses (`Workload.active_b`: P for a dense model,
the active path of a mixture of experts), T training tokens, N GPUs of the build (all
nodes), peak the GPU's dense tensor throughput at the workload's precision (datasheet, no
sparsity), MFU the share of peak the build sustains — a rule parameter per interconnect
class (NVSwitch board, NVLink bridges, PCIe only) — BW the GPU's memory bandwidth and η its
rule-given efficiency.

Training (full training and full fine-tuning; full activation recomputation, as sizing
assumes):

    FLOPs       = 8·(N_a + 2·L·s·h)·T forward 2, backward 4 and recomputed forward 2 FLOPs per
                                      parameter and token (6 without recomputation), the
                                      attention scores counted as 2·L·s·h more parameters
                                      (Narayanan et al. 2021, eq. 3); LoRA/QLoRA 6·(…)·T:
                                      no weight gradients for the frozen base
    compute     = FLOPs / (N · peak · MFU)
    steps       = T / (batch per GPU · context · N)
    all-reduce  = 2·(N − 1)/N · gradient bytes / (link bandwidth · comm efficiency) per step
    step        = max(compute step, all-reduce)      when communication overlaps the backward
                  compute step + all-reduce          when it does not
    time        = steps · step

The link is the slowest a ring crosses: NVLink (half the datasheet's two-way figure) or the
GPU's PCIe x16 link inside a node, each GPU's share of the node's NICs between nodes.

Inference, a replica being the fewest GPUs (1, 2, 4, 8 …) that hold the model with its share of
the sequences, r GPUs each, B sequences in flight per replica:

    decode step = max((weights read + B · KV bytes at mean context) / (r · BW · η),
                      2·(N_a + 2·L·c·h)·B / (r · peak · MFU))      c = prompt + output / 2
                  + 2·L all-reduces of B·h activations when r > 1 (8 µs + ring bytes each);
                    a mixture of experts swaps each MoE layer's MLP all-reduce for a dispatch
                    and a combine all-to-all (expert parallel over the replica)
    prefill     = max(2·(N_a + 2·L·prompt·h)·prompt · B / (r · peak · MFU), weights / (r · BW · η))
    tokens/s    = replicas · B · output / (prefill + output · decode step)
    first token = prefill of one prompt on an idle replica

Weights read per decode step are all of them for a dense model and, for a mixture of
experts, the shared part plus the experts its B tokens touch (`weights_read`). KV bytes per
token follow the attention kind and KV precision (`sizing.kv_bytes_per_token`).

Cost: a month is 730 hours (365 × 24 / 12); cost per run = monthly price × hours / 730; cost
per million output tokens = monthly price / (tokens/s · 730 · 3600) · 10⁶.

A pitfall's cost is counted once (domain.md §6). Where the model times the cause itself —
P1's PCIe 3.0 links, P5's all-reduce over PCIe, P8's CPU scheduling latency (added to each
step and the first token, `cpu_latency_s`) — the figures carry no further factor and the
monthly loss is the modelled difference (`modelled_losses`). An unbalanced node loses what
the guide measured (`BALANCE_LOSS`): its time is multiplied, its throughput divided, and its
monthly loss is the share of the rent that buys nothing, price · (1 − 1/factor).

NVLink bridges join pairs: a ring over more than two bridged cards crosses PCIe between the
pairs (`_intra_link_gbs`); only an NVSwitch board joins every GPU at NVLink speed.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field, replace
from enum import StrEnum
from types import MappingProxyType

from configurator.engine.build import (
    DEFAULT_OUTPUT_TOKENS,
    DEFAULT_PROMPT_TOKENS,
    Build,
    FinetuneMethod,
    FormFactor,
    Gpu,
    Mode,
    Workload,
)
from configurator.engine.fabric import FALLBACK_NODE_LINK_GBPS, nic_requirement
from configurator.engine.messages import (
    Message,
    _,
    counted_days,
    counted_replicas,
    counted_sequences,
    ngettext,
)
from configurator.engine.model_shapes import published_shape
from configurator.engine.registry import REGISTRY
from configurator.engine.rules import RuleParams
from configurator.engine.shapes import deployable_count, tensor_parallel_sizes
from configurator.engine.sizing import (
    LORA_RANK,
    PRECISION_BYTES,
    gpus_needed,
    kv_bytes_per_token,
    model_shape,
    size_workload,
    usable_gb,
)

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


@dataclass(frozen=True, slots=True)
class Loss:
    """A pitfall's measured loss as a factor on the time a job takes."""

    factor: float
    measured: str
    source: str

    def monthly(self, monthly_price: float) -> float:
        """Return the share of a month's rent this loss wastes, in CNY."""
        return round(monthly_price * (1 - 1 / self.factor), 2)


BALANCED_UTILISATION = 0.886  # a node on the matching baseline [guide §1]
# An unbalanced node's loss; each check's own measured loss is registry data (its catalogue
# entry's `loss`, engine/catalogue.py), read through `LOSSES`.
BALANCE_LOSS = Loss(
    BALANCED_UTILISATION / 0.637,
    "GPU utilisation 63.7 % instead of 88.6 %",
    "domain.md §1 [guide]",
)


class RegisteredLosses(Mapping[str, Loss]):
    """Every measured loss by code: the registered checks' and, under "balance", the
    unbalanced node's. A view of the registry, so a check's loss is stated once."""

    def _losses(self) -> dict[str, Loss]:
        return {**REGISTRY.losses(), "balance": BALANCE_LOSS}

    def __getitem__(self, code: str) -> Loss:
        return self._losses()[code]

    def __iter__(self) -> Iterator[str]:
        return iter(self._losses())

    def __len__(self) -> int:
        return len(self._losses())


LOSSES: Mapping[str, Loss] = RegisteredLosses()


@dataclass(frozen=True, slots=True)
class Performance:
    """What a build does with the workload's work, how long it takes and what it costs."""

    mode: Mode
    monthly_price: float
    time_to_train_days: float | None = None
    tokens_per_s: float | None = None
    time_to_first_token_s: float | None = None
    cost_per_run: float | None = None
    cost_per_million_tokens: float | None = None
    meets_target: bool = True
    meets_ttft_target: bool | None = None  # None without a time-to-first-token target
    assumptions: tuple[Message, ...] = ()
    served: Replica | None = None  # inference: the replicas the figures were timed on
    terms: dict[str, float] = field(default_factory=dict)  # the formula's terms, for docs/tests

    def priced(self, monthly_price: float) -> Performance:
        """Return these figures on a build of another monthly price: the costs scale with it."""
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
            result["cost_per_million_tokens"] = _round(self.cost_per_million_tokens, 4)
        else:
            result["time_to_train_days"] = _round(self.time_to_train_days, 2)
            result["cost_per_run"] = _round(self.cost_per_run, 2)
        result["currency"] = CURRENCY
        result["monthly_price"] = round(self.monthly_price, 2)
        result["meets_target"] = self.meets_target
        if self.meets_ttft_target is not None:
            result["meets_ttft_target"] = self.meets_ttft_target
        result["assumptions"] = [translate(note) for note in self.assumptions]
        return result


def _round(value: float | None, digits: int) -> float | None:
    return None if value is None else round(value, digits)


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
    """Return the share of peak the build sustains, by its interconnect class."""
    return {
        Interconnect.NVSWITCH: rules.mfu_nvswitch,
        Interconnect.BRIDGE: rules.mfu_bridge,
        Interconnect.PCIE: rules.mfu_pcie,
    }[interconnect(build)]


# Pitfalls whose cause the time model itself times (domain.md §6 "A pitfall's cost is counted
# once"): P1's PCIe 3.0 links and P5's all-reduce over PCIe are in the links it times, P8's
# scheduling latency is added on the CPU side (`cpu_latency_s`). Their loss is never a factor
# on the figures; their monthly loss is the modelled difference (`modelled_losses`).
MODELLED = frozenset({"P1", "P5", "P8"})


def loss_factor(codes: tuple[str, ...], balanced: bool) -> float:
    """Return the product of the measured losses of the failed checks that have one and that
    the time model does not time itself (`MODELLED`)."""
    losses = REGISTRY.losses()
    factor = 1.0
    for code in codes:
        if code in losses and code not in MODELLED:
            factor *= losses[code].factor
    if not balanced:
        factor *= BALANCE_LOSS.factor
    return factor


def cpu_latency_s(codes: tuple[str, ...], rules: RuleParams) -> float:
    """Return the CPU-side latency a step gains from P8: the measured +54 % of the serving
    engine's scheduling time per step (`cpu_scheduling_ms`); 0 when P8 did not fail."""
    if "P8" not in codes:
        return 0.0
    return (REGISTRY.losses()["P8"].factor - 1) * rules.cpu_scheduling_ms / 1000


def monthly_losses(
    codes: tuple[str, ...],
    balanced: bool,
    monthly_price: float,
    modelled: Mapping[str, float] | None = None,
) -> dict[str, float]:
    """Return what each failed check with a measured loss costs per month, by code.

    `modelled` holds, for the pitfalls the time model times (`MODELLED`), the share of the
    work's rent the cause wastes (`modelled_losses`); such a pitfall without a modelled share
    carries the guide's measured factor only where the guide measured it, training (P1, P5),
    and none for inference (the key "" is 0.0 then); P8 has none without a modelled share.
    """
    measured = REGISTRY.losses()
    modelled = modelled if modelled is not None else {}
    losses = {}
    for code in codes:
        if code in modelled:
            losses[code] = round(monthly_price * modelled[code], 2)
        elif code in measured and code not in MODELLED:
            losses[code] = measured[code].monthly(monthly_price)
        elif code in measured and code != "P8" and modelled.get("", 1.0):
            losses[code] = measured[code].monthly(monthly_price)  # the guide's, for training
    if not balanced:
        losses["balance"] = BALANCE_LOSS.monthly(monthly_price)
    return losses


def _without(build: Node, code: str, rules: RuleParams) -> Node:
    """Return the build as it would be without the cause of pitfall `code` (P1, P5)."""
    nodes = getattr(build, "nodes", 1)
    cluster = Cluster(
        gpu=build.gpu,
        gpu_count=build.gpu_count,
        nodes=nodes,
        nvlink=build.nvlink,
        nics=build.nics,
        nic_speed_gbps=build.nic_speed_gbps,
        pcie_gen=build.pcie_gen,
    )
    if code == "P1":
        return replace(cluster, pcie_gen=max(build.pcie_gen, rules.pcie_gen_min))
    return cluster


def _p5_share(build: Node, actual: Performance, rules: RuleParams) -> float:
    """Return the share of a training run P5's PCIe-only board costs, as the model times it:
    the run at the MFU of a linked board (NVLink bridges for PCIe cards, NVSwitch for SXM)
    with the gradient all-reduce hidden, against the run as timed (its PCIe MFU and the
    all-reduce exposed beyond the compute)."""
    seconds = actual.terms.get("seconds") or 0.0
    if not seconds or "compute_s" not in actual.terms:
        return 0.0
    sxm = build.gpu.form_factor == FormFactor.SXM
    linked = rules.mfu_nvswitch if sxm else rules.mfu_bridge
    factor = actual.terms.get("factor", 1.0)
    without = actual.terms["compute_s"] * actual.terms["mfu"] / linked * factor
    return max(0.0, 1 - without / seconds)


def modelled_losses(
    build: Node,
    workload: Workload | None,
    rules: RuleParams,
    failed_codes: tuple[str, ...],
    balanced: bool,
) -> dict[str, float]:
    """Return, per failed modelled pitfall (`MODELLED`), the share of the rent it wastes: the
    work timed as the build is against the work timed without the cause, 1 − t_without/t
    for a run, 1 − (tokens/s)/(tokens/s without) for serving (domain.md §6).

    P1: the same build on the baseline's PCIe generation. P5: the run at a linked board's
    MFU with the gradient all-reduce hidden (`_p5_share`). P8: the same serving without the
    CPU-side latency. Without stated work there is nothing modelled:
    the key "" then says whether the guide's factor may stand in for P1 and P5 (1.0 for
    training or no workload, 0.0 for inference, which the guide did not measure).
    """
    codes = tuple(code for code in failed_codes if code in MODELLED)
    if not codes:
        return {}
    if workload is None or not workload.has_work:
        inferring = workload is not None and workload.mode == Mode.INFER
        return {"": 0.0 if inferring else 1.0}
    actual = performance(build, workload, rules, 1.0, failed_codes, balanced)
    shares = {}
    for code in codes:
        if actual is None:
            break
        if code == "P5":
            shares[code] = _p5_share(build, actual, rules)
            continue
        rest = tuple(other for other in failed_codes if other != code)
        fixed = performance(_without(build, code, rules), workload, rules, 1.0, rest, balanced)
        if fixed is None:
            continue
        if actual.tokens_per_s and fixed.tokens_per_s:
            shares[code] = max(0.0, 1 - actual.tokens_per_s / fixed.tokens_per_s)
        elif actual.time_to_train_days and fixed.time_to_train_days:
            shares[code] = max(0.0, 1 - fixed.time_to_train_days / actual.time_to_train_days)
    return shares


def _training_peak(gpu: Gpu, precision: str) -> float:
    """Return the peak a training run computes at: fp8 and fp32 as named, the rest in bf16."""
    return gpu.peak_tflops(precision if precision in ("fp8", "fp32") else "bf16") * 1e12


def _full_training(workload: Workload) -> bool:
    """Return whether every weight gets a gradient: training, or a full fine-tune."""
    return workload.mode == Mode.TRAIN or workload.finetune_method == FinetuneMethod.FULL


def _training_flops(workload: Workload) -> float:
    """Return the FLOPs of the whole run: 8·(N + 2·L·s·h)·T, or 6·(…)·T for LoRA/QLoRA.

    N is the parameters a token uses (`Workload.active_b`: all of a dense model, the active
    path of a mixture of experts). Attention scores add 2·L·s·h "parameters" per token
    (Narayanan et al. 2021, eq. 3), h being the heads' width (`Shape.attention_width`).
    """
    shape = model_shape(workload)
    attention = 2 * shape.layers * workload.context_length * shape.attention_width()
    per_token = 8 if _full_training(workload) else 6
    return per_token * (workload.active_b * 1e9 + attention) * (workload.train_tokens or 0)


def moe_layers(workload: Workload) -> int:
    """Return the layers whose MLP is a mixture of experts (0 for a dense model)."""
    if not workload.is_moe:
        return 0
    layers = model_shape(workload).layers
    if workload.model:
        return layers - published_shape(workload.model).dense_layers
    return layers


def weights_read(workload: Workload, tokens: float) -> float:
    """Return the weight bytes a step over `tokens` tokens reads (each token its own experts).

    A dense model reads every weight. A mixture of experts of P parameters, A active,
    E routed experts, k per token holds E·x expert parameters with x = (P − A)/(E − k) (the
    rest is shared by every token); a step of B tokens routed evenly touches each expert with
    probability 1 − (1 − k/E)^B, so it reads P − E·x + E·x·(1 − (1 − k/E)^B): A at one token,
    all P from a few dozen on.
    """
    total = workload.model_params_b * 1e9
    weight_bytes = PRECISION_BYTES[workload.precision]
    if not workload.is_moe:
        return total * weight_bytes
    experts, k = workload.experts or 1, workload.experts_per_token or 1
    expert_params = experts * (total - workload.active_b * 1e9) / (experts - k)
    touched = 1 - (1 - k / experts) ** max(1.0, tokens)
    return (total - expert_params + expert_params * touched) * weight_bytes


def _pcie_link_gbs(build: Node) -> tuple[float, str]:
    gen = min(build.pcie_gen, build.gpu.pcie_gen)
    return PCIE_X16_GBS.get(gen, 15.75), f"PCIe {gen}.0 x16"


def _intra_link_gbs(build: Node, group: int | None = None) -> tuple[float, str]:
    """Return the one-way bandwidth per GPU of a ring over `group` GPUs of a node (all of
    them when not given), and its name.

    NVLink bridges join pairs (domain.md §6): a ring over more than two bridged cards
    crosses PCIe between the pairs, so PCIe is its slowest hop. Only an NVSwitch board joins
    every GPU at NVLink speed.
    """
    group = build.gpu_count if group is None else group
    kind = interconnect(build)
    if kind is Interconnect.PCIE:
        return _pcie_link_gbs(build)
    if kind is Interconnect.BRIDGE and group > 2:
        gbs, name = _pcie_link_gbs(build)
        return gbs, _("%(link)s between NVLink-bridged pairs", link=name)
    return build.gpu.nvlink_gbps / 2, f"NVLink {build.gpu.nvlink_gbps / 2:g} GB/s"


def _link_gbs(build: Node, rules: RuleParams) -> tuple[float, str]:
    """Return the one-way bandwidth per GPU of the slowest link a ring crosses, and its name."""
    intra, name = _intra_link_gbs(build)
    if build.nodes <= 1:
        return intra, name
    # NCCL splits the ring's data over every NIC of the node (one ring per rail), so between
    # nodes the ring runs at the node's whole fabric bandwidth.
    if build.nics:
        speed = build.nic_speed_gbps or nic_requirement(build.gpu, rules).speed_gbps_min
        inter = build.nics * speed / 8
        inter_name = _("%(nics)s × %(speed)s Gb/s NICs per node", nics=build.nics, speed=speed)
    else:
        inter = FALLBACK_NODE_LINK_GBPS / 8
        inter_name = _("%(speed)s Gb/s Ethernet (no fabric NICs)", speed=FALLBACK_NODE_LINK_GBPS)
    if inter < intra:
        return inter, inter_name
    return intra, name


def training(
    build: Node,
    workload: Workload,
    rules: RuleParams,
    monthly_price: float,
    factor: float = 1.0,
) -> Performance:
    """Return the time and cost of training `workload.train_tokens` tokens on the build."""
    gpus = build.gpu_count * build.nodes
    params = workload.model_params_b * 1e9
    tokens = float(workload.train_tokens or 0)
    full = _full_training(workload)
    per_token = 8 if full else 6
    shape = model_shape(workload)
    flops = _training_flops(workload)
    peak = _training_peak(build.gpu, workload.precision)
    efficiency = mfu(build, rules)
    if peak <= 0 or tokens <= 0:
        return _unknown(workload, monthly_price, build.gpu)
    compute = flops / (gpus * peak * efficiency)
    step_tokens = workload.batch_size * workload.context_length * gpus
    steps = max(1.0, tokens / step_tokens)
    compute_step = compute / steps
    if full:
        grad_bytes = params * (4 if workload.precision == "fp32" else 2)
    else:
        kv = shape.kv_heads * shape.head_dim
        grad_bytes = LORA_RANK * shape.layers * (17 * shape.hidden_size + 2 * kv) * 4
    link_gbs, link = _link_gbs(build, rules)
    if gpus > 1:
        volume = 2 * (gpus - 1) / gpus * grad_bytes
        comm_step = volume / (link_gbs * 1e9 * rules.comm_bandwidth_efficiency)
    else:
        volume = comm_step = 0.0
    overlap = bool(rules.comm_overlap)
    step = max(compute_step, comm_step) if overlap else compute_step + comm_step
    seconds = steps * step * factor
    days = seconds / SECONDS_PER_DAY
    cost = monthly_price * seconds / 3600 / HOURS_PER_MONTH
    meets = workload.deadline_days is None or days <= workload.deadline_days
    if full:
        work = _(
            "%(per_token)s·(P + 2·L·s·h)·T = %(flops)s FLOPs (full activation recomputation)",
            per_token=per_token,
            flops=f"{flops:.3g}",
        )
    else:
        work = _(
            "%(per_token)s·(P + 2·L·s·h)·T = %(flops)s FLOPs (frozen base: no weight gradients)",
            per_token=per_token,
            flops=f"{flops:.3g}",
        )
    backward = _("overlapping the backward pass") if overlap else _("after the backward pass")
    assumptions = [
        work,
        _(
            "%(gpus)s at %(peak)s",
            gpus=f"{gpus} × {build.gpu.name}",
            peak=_peak_note(peak, efficiency, build),
        ),
        ngettext(
            "data parallel over %(n)s GPU: ring all-reduce of %(gb)s GB of gradients per step "
            "over %(link)s at %(efficiency)s, %(backward)s",
            "data parallel over %(n)s GPUs: ring all-reduce of %(gb)s GB of gradients per step "
            "over %(link)s at %(efficiency)s, %(backward)s",
            gpus,
            gb=f"{grad_bytes / 1e9:.3g}",
            link=link,
            efficiency=f"{rules.comm_bandwidth_efficiency:.0%}",
            backward=backward,
        ),
        ngettext(
            "%(steps)s step of %(tokens)s tokens",
            "%(steps)s steps of %(tokens)s tokens",
            round(steps),
            steps=f"{steps:,.0f}",
            tokens=f"{step_tokens:,}",
        ),
    ]
    if workload.active_b < workload.model_params_b:
        assumptions.append(
            _(
                "FLOPs on the %(active)sB parameters a token uses, of %(total)sB",
                active=f"{workload.active_b:g}",
                total=f"{workload.model_params_b:g}",
            )
        )
    if workload.epochs is not None and workload.dataset_tokens is not None:
        assumptions.append(
            _(
                "%(epochs)s epoch(s) × %(tokens)s tokens",
                epochs=f"{workload.epochs:g}",
                tokens=f"{workload.dataset_tokens:.3g}",
            )
        )
    assumptions.append(_month_note())
    if factor != 1:
        assumptions.append(_("measured pitfall losses: time × %(factor)s", factor=f"{factor:.2f}"))
    if workload.deadline_days is not None:
        deadline = counted_days(f"{workload.deadline_days:g}")
        if meets:
            assumptions.append(_("deadline %(days)s: met", days=deadline))
        else:
            assumptions.append(_("deadline %(days)s: missed", days=deadline))
    return Performance(
        mode=workload.mode,
        monthly_price=monthly_price,
        time_to_train_days=days,
        cost_per_run=cost,
        meets_target=meets,
        assumptions=tuple(assumptions),
        terms={
            "flops": flops,
            "compute_s": compute,
            "steps": steps,
            "compute_step_s": compute_step,
            "comm_step_s": comm_step,
            "comm_bytes_per_step": volume,
            "exposed_comm_s": steps * (step - compute_step),
            "link_gbs": link_gbs,
            "mfu": efficiency,
            "factor": factor,
            "seconds": seconds,
        },
    )


@dataclass(frozen=True, slots=True)
class Replica:
    gpus: int  # r: GPUs of one tensor-parallel replica
    count: int  # replicas in the build
    sequences: int  # B: sequences in flight per replica


def _fits(workload: Workload, gpus: int, sequences: int, memory_gb: float) -> bool:
    sized = size_workload(replace(workload, batch_size=sequences), gpus)
    return sized.per_gpu_gb <= memory_gb


def _max_sequences(workload: Workload, gpus: int, memory_gb: float, cap: int) -> int:
    """Return the most sequences (≤ cap) whose weights and KV cache fit r GPUs; 0 if none."""
    one = size_workload(replace(workload, batch_size=1), gpus).per_gpu_gb
    if one > memory_gb:
        return 0
    two = size_workload(replace(workload, batch_size=2), gpus).per_gpu_gb
    slope = two - one
    if slope <= 0:
        return cap
    most = min(cap, 1 + math.floor((memory_gb - one) / slope))
    while most > 1 and not _fits(workload, gpus, most, memory_gb):
        most -= 1
    return max(1, most)


def replica_plans(build: Node, workload: Workload, rules: RuleParams) -> list[Replica]:
    """Return every replica size (1, 2, 4, 8 … GPUs, within a node) that holds the model.

    With `concurrent_users` (default `batch_size`) the users are spread over the replicas;
    with only a throughput target each replica batches as many sequences as its memory
    holds, at most `inference_batch_max`. A model no node holds spans the fewest whole nodes
    that hold it.
    """
    total = build.gpu_count * build.nodes
    memory = usable_gb(build.gpu.memory_gb, rules.gpu_memory_usable_fraction)
    fixed = workload.concurrent_users
    if fixed is None and workload.target_tokens_per_s is None:
        fixed = workload.batch_size
    # Tensor-parallel groups that split the heads, as the `shape` check deploys them.
    groups = tensor_parallel_sizes(workload)
    sizes = [r for r in groups if r <= build.gpu_count and build.gpu_count % r == 0]
    # A replica spans whole nodes only when no node holds it (pipeline over the nodes).
    sizes += [
        build.gpu_count * k
        for k in range(1, build.nodes + 1)
        if build.nodes % k == 0 and build.gpu_count * k not in sizes
    ]
    plans = []
    for r in sizes:
        count = total // r
        if fixed is not None:
            sequences = math.ceil(fixed / count)
            if _fits(workload, r, sequences, memory):
                plans.append(Replica(r, min(count, fixed), sequences))
        else:
            sequences = _max_sequences(workload, r, memory, rules.inference_batch_max)
            if sequences:
                plans.append(Replica(r, count, sequences))
        if plans and r >= build.gpu_count:
            break  # a replica spanning nodes only when none within a node holds the model
    return plans


def _lengths(workload: Workload) -> tuple[int, int]:
    """Return (prompt, output) tokens per request: as given, else 1024 in and 256 out."""
    output = workload.output_tokens or DEFAULT_OUTPUT_TOKENS
    prompt = workload.prompt_tokens or DEFAULT_PROMPT_TOKENS
    return prompt, output


@dataclass(frozen=True, slots=True)
class _Serving:
    """The inference terms of one replica plan."""

    plan: Replica
    decode_weights: float
    decode_kv: float
    decode_comm: float
    decode_memory: float
    decode_compute: float
    decode_step: float
    first_token: float
    prefill_batch: float
    per_replica: float

    @property
    def tokens_per_s(self) -> float:
        return self.plan.count * self.per_replica


def _serve(
    plan: Replica,
    workload: Workload,
    gpu: Gpu,
    peak: float,
    bandwidth: float,
    efficiency: float,
    factor: float,
    link_gbs: float,
    cpu_latency: float = 0.0,
) -> _Serving:
    prompt, output = _lengths(workload)
    active = workload.active_b * 1e9
    shape = model_shape(workload)
    kv_per_token = kv_bytes_per_token(workload)
    weights = workload.model_params_b * 1e9 * PRECISION_BYTES[workload.precision]
    r, b = plan.gpus, plan.sequences
    mean_context = prompt + output / 2
    decode_weights = weights_read(workload, b) / (r * bandwidth)
    decode_kv = b * mean_context * kv_per_token / (r * bandwidth)
    decode_memory = decode_weights + decode_kv
    # Forward FLOPs per token: 2·(N_active + 2·L·s·h), s the tokens attended to; MLA decodes
    # over its latent (absorbed up-projections), prefill over the rebuilt heads.
    decode_attention = 2 * shape.layers * shape.attention_width(absorbed=True)
    prefill_attention = 2 * shape.layers * shape.attention_width()
    decode_compute = 2 * (active + decode_attention * mean_context) * b / (r * peak * efficiency)
    experts_layers = moe_layers(workload)
    k = workload.experts_per_token or 0

    # Tensor parallelism: two all-reduces of the activations per layer (attention and MLP
    # outputs, Shoeybi et al. 2019), each a start-up latency plus the ring's bytes. A mixture
    # of experts spreads its experts over the replica (expert parallel): its MLP's all-reduce
    # becomes a dispatch and a combine all-to-all, each GPU sending its share of the tokens'
    # k copies, (r − 1)/r of them to other GPUs, over the same link.
    def all_reduces(tokens: float) -> float:
        if r == 1:
            return 0.0
        activations = tokens * shape.hidden_size * 2
        ring = 2 * (r - 1) / r * activations / (link_gbs * 1e9)
        dense = 2 * shape.layers - experts_layers
        all_to_all = activations / r * k * (r - 1) / r / (link_gbs * 1e9)
        return dense * (ALL_REDUCE_LATENCY_S + ring) + experts_layers * 2 * (
            ALL_REDUCE_LATENCY_S + all_to_all
        )

    decode_comm = all_reduces(b)
    decode_step = (max(decode_memory, decode_compute) + decode_comm) * factor + cpu_latency
    prefill_compute = 2 * (active + prefill_attention * prompt) * prompt / (r * peak * efficiency)
    prefill_memory = weights / (r * bandwidth)
    prefill = max(prefill_compute, prefill_memory) + all_reduces(prompt)
    first_token = prefill * factor + cpu_latency
    prefill_batch = (max(prefill_compute * b, prefill_memory) + all_reduces(prompt * b)) * factor
    prefill_batch += cpu_latency
    per_replica = b * output / (prefill_batch + output * decode_step)
    return _Serving(
        plan,
        decode_weights,
        decode_kv,
        decode_comm,
        decode_memory,
        decode_compute,
        decode_step,
        first_token,
        prefill_batch,
        per_replica,
    )


def served_workload(workload: Workload) -> Workload:
    """Return the workload as serving is sized and timed: each sequence's context holds its
    prompt and output (the defaults of docs/performance.md for those not given)."""
    prompt, output = _lengths(workload)
    return replace(workload, context_length=max(workload.context_length, prompt + output))


def inference(
    build: Node,
    workload: Workload,
    rules: RuleParams,
    monthly_price: float,
    factor: float = 1.0,
    cpu_latency: float = 0.0,
) -> Performance:
    """Return the output tokens per second, time to first token and cost of serving.

    `cpu_latency` (seconds) is CPU-side scheduling time added to every step and to the first
    token (P8, `cpu_latency_s`); it never scales the GPUs' terms.

    Of the replica sizes that hold the model, the one that serves the most tokens per second
    is taken (the fewest GPUs per replica on a tie); with a time-to-first-token target, the
    best of those that meet it, when any does.
    """
    gpu = build.gpu
    peak = gpu.peak_tflops(workload.precision) * 1e12
    bandwidth = gpu.memory_bandwidth_gbs * 1e9 * rules.memory_bandwidth_efficiency
    prompt, output = _lengths(workload)
    sized = served_workload(workload)
    plans = replica_plans(build, sized, rules) if peak > 0 and bandwidth > 0 else []
    if not plans:
        return _unknown(workload, monthly_price, gpu)
    efficiency = mfu(build, rules)

    def link(plan: Replica) -> float:
        return _intra_link_gbs(build, plan.gpus)[0] * rules.comm_bandwidth_efficiency

    ttft = workload.target_ttft_s
    serving = max(
        (
            _serve(plan, sized, gpu, peak, bandwidth, efficiency, factor, link(plan), cpu_latency)
            for plan in plans
        ),
        key=lambda serving: (
            ttft is None or serving.first_token <= ttft,
            serving.tokens_per_s,
            -serving.plan.gpus,
        ),
    )
    plan = serving.plan
    tokens_per_s = serving.tokens_per_s
    per_million = monthly_price / (tokens_per_s * HOURS_PER_MONTH * 3600) * 1e6
    target = workload.target_tokens_per_s
    meets_ttft = None if ttft is None else serving.first_token <= ttft
    meets = (target is None or tokens_per_s >= target) and meets_ttft is not False
    if serving.decode_memory >= serving.decode_compute:
        bound = _("decode bound by memory bandwidth")
    else:
        bound = _("decode bound by compute")
    assumptions = [
        served_note(plan.count, f"{plan.gpus} × {gpu.name}", plan.sequences),
        _(
            "%(prompt)s prompt and %(output)s output tokens per request",
            prompt=prompt,
            output=output,
        ),
        _(
            "%(bound)s: weights and KV cache read at %(bandwidth)s GB/s × %(efficiency)s, %(peak)s",
            bound=bound,
            bandwidth=f"{gpu.memory_bandwidth_gbs:g}",
            efficiency=f"{rules.memory_bandwidth_efficiency:.0%}",
            peak=_peak_note(peak, efficiency, build),
        ),
        ngettext(
            "tensor parallel over %(n)s GPU: two all-reduces per layer, %(latency)s µs each "
            "plus the bytes",
            "tensor parallel over %(n)s GPUs: two all-reduces per layer, %(latency)s µs each "
            "plus the bytes",
            plan.gpus,
            latency=f"{ALL_REDUCE_LATENCY_S * 1e6:g}",
        ),
        _month_note(),
    ]
    if interconnect(build) is Interconnect.BRIDGE and plan.gpus > 2:
        assumptions.append(
            _(
                "NVLink bridges join pairs: the all-reduces between the %(pairs)s pairs cross "
                "%(link)s",
                pairs=plan.gpus // 2,
                link=_pcie_link_gbs(build)[1],
            )
        )
    if workload.is_moe:
        assumptions.append(
            _(
                "mixture of experts: compute on %(active)sB active parameters, each decode step "
                "reads the experts its tokens touch; over more than one GPU the experts are "
                "spread (expert parallel), a dispatch and a combine all-to-all per expert layer",
                active=f"{workload.active_b:g}",
            )
        )
    if factor != 1:
        assumptions.append(
            _("measured pitfall losses: latency × %(factor)s", factor=f"{factor:.2f}")
        )
    if cpu_latency:
        assumptions.append(
            _(
                "low base clock (P8): %(ms)s ms of CPU scheduling added to every step and to "
                "the first token",
                ms=f"{cpu_latency * 1000:.2g}",
            )
        )
    if target is not None:
        shown = f"{target:g}"
        if tokens_per_s >= target:
            assumptions.append(_("target %(tokens)s output tokens/s: met", tokens=shown))
        else:
            assumptions.append(_("target %(tokens)s output tokens/s: missed", tokens=shown))
    if ttft is not None:
        if meets_ttft:
            assumptions.append(_("target time to first token %(s)s s: met", s=f"{ttft:g}"))
        else:
            assumptions.append(_("target time to first token %(s)s s: missed", s=f"{ttft:g}"))
    return Performance(
        mode=workload.mode,
        monthly_price=monthly_price,
        tokens_per_s=tokens_per_s,
        time_to_first_token_s=serving.first_token,
        cost_per_million_tokens=per_million,
        meets_target=meets,
        meets_ttft_target=meets_ttft,
        assumptions=tuple(assumptions),
        served=plan,
        terms={
            "replica_gpus": plan.gpus,
            "replicas": plan.count,
            "sequences": plan.sequences,
            "decode_weights_s": serving.decode_weights,
            "decode_kv_s": serving.decode_kv,
            "decode_comm_s": serving.decode_comm,
            "decode_memory_s": serving.decode_memory,
            "decode_compute_s": serving.decode_compute,
            "decode_step_s": serving.decode_step,
            "prefill_s": serving.first_token,
            "prefill_batch_s": serving.prefill_batch,
            "per_replica_tokens_per_s": serving.per_replica,
            "mfu": efficiency,
            "factor": factor,
            "cpu_latency_s": cpu_latency,
        },
    )


def _peak_note(peak: float, efficiency: float, build: Node) -> Message:
    """Say what the GPUs compute at: `989 TFLOPS dense × 45% (nvswitch MFU)`."""
    return _(
        "%(peak)s TFLOPS dense × %(mfu)s (%(interconnect)s MFU)",
        peak=f"{peak / 1e12:g}", mfu=f"{efficiency:.0%}",
        interconnect=INTERCONNECT_WORDS[interconnect(build)],
    )  # fmt: skip


def _month_note() -> Message:
    return _("a month is %(hours)s hours of the build's monthly price", hours=HOURS_PER_MONTH)


def served_note(replicas: int, gpus: str, sequences: int) -> Message:
    """Say how the GPUs serve: `2 replicas of 4 × H100, 16 sequences in flight each`."""
    return _(
        "%(replicas)s of %(gpus)s, %(sequences)s in flight each",
        replicas=counted_replicas(replicas), gpus=gpus, sequences=counted_sequences(sequences),
    )  # fmt: skip


def gpu_rent_note(gpus: int, gpu: Gpu) -> Message:
    """Say that sizing times the work on the GPUs alone, at their monthly rent."""
    return _("priced at the monthly rent of %(gpus)s alone", gpus=f"{gpus} × {gpu.name}")


def _unknown(workload: Workload, monthly_price: float, gpu: Gpu) -> Performance:
    note = _(
        "%(gpu)s: no datasheet throughput or memory bandwidth in the catalog, "
        "or the model does not fit",
        gpu=gpu.name,
    )
    return Performance(
        mode=workload.mode, monthly_price=monthly_price, meets_target=False, assumptions=(note,)
    )


def performance(
    build: Node,
    workload: Workload,
    rules: RuleParams,
    monthly_price: float,
    failed_codes: tuple[str, ...] = (),
    balanced: bool = True,
) -> Performance | None:
    """Return the time, throughput and cost of the workload's work; None without work."""
    if not workload.has_work:
        return None
    factor = loss_factor(failed_codes, balanced)
    if workload.mode == Mode.INFER:
        latency = cpu_latency_s(failed_codes, rules)
        return inference(build, workload, rules, monthly_price, factor, latency)
    return training(build, workload, rules, monthly_price, factor)


def gpu_seconds_floor(gpu: Gpu, workload: Workload, rules: RuleParams) -> float:
    """Return a lower bound of the GPU-seconds the work takes on any build of this GPU.

    Per run in training, per million output tokens in inference; infinite when the figures are
    unknown. A build of N GPUs at a monthly price M then costs at least M / N · floor / 3600 /
    730 (docs/performance.md). Training: the run's FLOPs at the dense peak and the best MFU the
    GPU's interconnects give, no communication, no loss.

    Inference: a replica of r GPUs serving B sequences, per GPU, serves B · output over
    r · (prefill + output · decode step). Times r, the prefill and decode terms are those of
    one GPU with B sequences, and the all-reduces only add, more with every GPU more. More
    sequences share each step's fixed costs, so a GPU serves more with more of them: at most
    the users (or `inference_batch_max`), and at most what r GPUs hold beside the weights
    (r · memory − weights) / KV cache per sequence. So the most a GPU serves, on the best link
    and MFU it has, is on a replica of between the fewest GPUs that hold the model with one
    sequence and the fewest that hold every sequence; past 16 sizes, the next size with every
    sequence bounds the rest.
    """
    efficiency = max(mfu(Cluster(gpu, 1, nvlink=True), rules), rules.mfu_pcie)
    if workload.mode != Mode.INFER:
        peak = _training_peak(gpu, workload.precision)
        flops = _training_flops(workload)
        return flops / (peak * efficiency) if peak > 0 and flops > 0 else math.inf
    peak = gpu.peak_tflops(workload.precision) * 1e12
    bandwidth = gpu.memory_bandwidth_gbs * 1e9 * rules.memory_bandwidth_efficiency
    if peak <= 0 or bandwidth <= 0:
        return math.inf
    sized = served_workload(workload)
    users = workload.concurrent_users
    if users is None and workload.target_tokens_per_s is None:
        users = workload.batch_size
    most = users if users is not None else rules.inference_batch_max
    pcie = max(gbs for gen, gbs in {0: 15.75, **PCIE_X16_GBS}.items() if gen <= gpu.pcie_gen)
    link = max(gpu.nvlink_gbps / 2, pcie) * rules.comm_bandwidth_efficiency
    memory = usable_gb(gpu.memory_gb, rules.gpu_memory_usable_fraction)
    one = replace(sized, batch_size=1, gpu_count=None)
    sizing = size_workload(one, 1).breakdown
    # `replica_plans` fits at least one sequence; beyond sizing's search, one GPU.
    gpus = fewest = gpus_needed(one, memory) or 1
    served = 0.0
    while True:
        held = (gpus * memory - sizing["weights"]) / sizing["kv_cache"]
        sequences = most if gpus >= fewest + 16 else max(1, min(most, math.floor(held)))
        replica = Replica(gpus, 1, sequences)
        serving = _serve(replica, sized, gpu, peak, bandwidth, efficiency, 1.0, link)
        served = max(served, serving.per_replica / gpus)
        if sequences >= most:
            return 1e6 / served
        gpus += 1


def has_target(workload: Workload) -> bool:
    """Return whether the work has a deadline, a throughput target or a first-token target."""
    return any(
        value is not None
        for value in (workload.deadline_days, workload.target_tokens_per_s, workload.target_ttft_s)
    )


def gpus_for_work(
    workload: Workload,
    gpu: Gpu,
    fewest: int,
    rules: RuleParams,
    max_gpus: int,
    per_node_max: int = 8,
) -> int | None:
    """Return the GPUs (all nodes) that do the work within its deadline or target, or None.

    Starts from the fewest GPUs that hold the workload and scales by the shortfall, at most
    doubling a step — time falls and throughput grows about in proportion to the GPUs, or
    faster — rounding to whole nodes,
    until the figures on `Cluster.of_gpus` meet the deadline or target, or `max_gpus` is
    passed. Without a deadline or target the fewest GPUs are the answer.
    """
    if not has_target(workload):
        return fewest
    total = deployable_count(gpu, fewest, per_node_max)  # whole boards before the target
    for _step in range(16):
        if total > max_gpus:
            return None
        result = performance(Cluster.of_gpus(gpu, total, rules, per_node_max), workload, rules, 0.0)
        if result is None or result.meets_target:
            return total
        if result.time_to_train_days is not None:
            shortfall = result.time_to_train_days / workload.deadline_days
        elif result.tokens_per_s:
            shortfall = 1.0
            if workload.target_tokens_per_s is not None:
                shortfall = workload.target_tokens_per_s / result.tokens_per_s
            if workload.target_ttft_s is not None and result.time_to_first_token_s:
                shortfall = max(shortfall, result.time_to_first_token_s / workload.target_ttft_s)
        elif workload.mode == Mode.INFER and gpu.peak_tflops(workload.precision) > 0:
            shortfall = 2.0  # no replica of this count holds the model and a sequence: grow
        else:
            return None  # no datasheet figures: the work cannot be timed
        # At most double: more GPUs per replica also free memory for more sequences, so
        # throughput can grow faster than the GPUs.
        grown = max(total + 1, min(2 * total, math.ceil(total * shortfall)))
        total = deployable_count(gpu, grown, per_node_max)
    return None
