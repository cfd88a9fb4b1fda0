"""Training at scale: a tensor, pipeline and data-parallel layout per build, and its time.

docs/performance.md ("Training: layouts") has the derivation. Of the layouts a build can run
— tensor parallel TP within a node's NVLink domain, pipeline parallel PP over the layers,
data parallel DP over the rest, N = TP·PP·DP — that hold the work in the GPUs' usable
memory, the quickest is taken:

    FLOPs/step  = f · (N_a + L·s·h) · G      G tokens a step (`global_batch_tokens`), causal
                                              attention at half (L·s·h, not 2·L·s·h); f = 6
                                              (forward 2, backward 4) with selective
                                              recomputation, 8 with full recomputation when
                                              only that fits, 4 / 6 for LoRA and QLoRA
    compute     = FLOPs/step / (N · peak · ε)    ε by generation and precision (efficiency.py),
                                              × mfu_class / 0.50 on a board without NVSwitch
    bubble      = compute · (PP − 1) / (v · m)   1F1B with v interleaved stages a GPU, m
                                              micro-batches (one sequence each) per DP rank
    DP comm     = z · 2·(DP − 1)/DP · grad bytes / (TP·PP) / DP link     z = 1 with the optimizer
                                              sharded over DP (ZeRO-1, Megatron's distributed
                                              optimizer), 1.5·m when the weights are too (ZeRO-3:
                                              gathered again for each micro-batch)
    all-to-all  = a mixture of experts' dispatch and combine, forward and backward, over the
                  node's link when its experts are spread over the node's GPUs
    step        = compute + bubble + max(0, DP comm − window) + all-to-all    (comm_overlap = 1)
                  window: one micro-batch's compute, (compute + bubble) / m, under ZeRO-1 (the
                  gradients are reduced from the last micro-batch's backward, the weights
                  gathered in the next step's first forward); the whole step under ZeRO-3
    time        = steps · step,  steps = T / G

Memory per GPU: weights and gradients over TP·PP, the optimizer over TP·PP·DP (and the
weights too under ZeRO-3); activations 34·s·h/TP bytes a layer and sequence with selective
recomputation and sequence parallelism (Korthikanti et al. 2022, Table 2), 2·s·h/TP with full
recomputation, for the PP micro-batches 1F1B keeps in flight; the logits on the last stage.
Tensor-parallel traffic inside an NVLink domain is part of the measured efficiencies (the
runs they are read from overlap it); a layout never puts tensor parallelism over PCIe.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache

from configurator.engine.build import FinetuneMethod, Mode, Workload
from configurator.engine.messages import Message, _, counted_days, ngettext
from configurator.engine.performance.common import (
    HOURS_PER_MONTH,
    SECONDS_PER_DAY,
    Interconnect,
    Node,
    Performance,
    allreduce_busbw_gbs,
    interconnect,
    intra_link_gbs,
    mfu,
    month_note,
    node_fabric_gbs,
    nvlink_group,
    peak_note,
    sustained_gbs,
    unknown,
)
from configurator.engine.performance.efficiency import (
    Phase,
    compute_efficiency,
    compute_peak,
)
from configurator.engine.performance.serving import moe_layers
from configurator.engine.rules import RuleParams
from configurator.engine.shapes import tensor_parallel_sizes
from configurator.engine.sizing import (
    ADAPTER_ADAM_BYTES,
    ALLOCATOR_OVERHEAD,
    CUDA_CONTEXT_GB,
    FP32_ADAM_BYTES,
    GB,
    LORA_RANK,
    MIXED_ADAM_BYTES,
    PRECISION_BYTES,
    QLORA_BASE_BYTES,
    Shape,
    model_shape,
    usable_gb,
)

PIPELINE_SIZES = (1, 2, 4, 8, 16, 32, 64)
# Context parallelism splits each sequence over GPUs, halving its activations per step, for
# sequences of at least 4,096 tokens a GPU (NeMo's Llama 3 recipes: CP 2 at 8,192).
CONTEXT_SIZES = (1, 2)
CONTEXT_MIN_TOKENS = 4096
# Activation bytes a layer keeps per token and hidden unit with selective recomputation and
# sequence parallelism, and with full recomputation (Korthikanti et al. 2022, Table 2).
SELECTIVE_ACTIVATION_BYTES = 34
FULL_ACTIVATION_BYTES = 2
# Interleaved 1F1B puts this many layers in each virtual stage (NeMo's GPT-3 175B recipe:
# PP 8, VP 6 over 96 layers).
LAYERS_PER_VIRTUAL_STAGE = 2
# ZeRO-3 gathers the weights in the forward and the backward of every micro-batch and
# reduce-scatters its gradients: per micro-batch, 1.5 times the all-reduce's volume
# (Rajbhandari et al. 2020, §7.2.2).
ZERO3_VOLUME = 1.5


@dataclass(frozen=True, slots=True)
class Layout:
    """How a training run is spread over the build's GPUs."""

    tp: int
    pp: int
    dp: int
    zero3: bool  # weights sharded over DP too (else only the optimizer state)
    full_recompute: bool
    sequences: int  # a step's sequences, all DP ranks
    virtual: int  # interleaved pipeline stages a GPU
    cp: int = 1  # context parallel: each sequence split over this many GPUs

    @property
    def micro_batches(self) -> int:
        return math.ceil(self.sequences / self.dp)

    @property
    def bubble(self) -> float:
        """Return the pipeline's idle share of the compute: (PP − 1) / (v · m)."""
        if self.pp == 1:
            return 0.0
        return (self.pp - 1) / (self.virtual * self.micro_batches)


def _full_training(workload: Workload) -> bool:
    """Return whether every weight gets a gradient: training, or a full fine-tune."""
    return workload.mode == Mode.TRAIN or workload.finetune_method == FinetuneMethod.FULL


def passes(workload: Workload, full_recompute: bool) -> int:
    """Return f, the FLOPs per parameter a trained token costs (module docstring)."""
    return (6 if _full_training(workload) else 4) + (2 if full_recompute else 0)


def flops_per_token(workload: Workload, shape: Shape, full_recompute: bool) -> float:
    """Return the FLOPs a trained token costs: f·(N_a + L·s·h), causal attention at half."""
    attention = shape.layers * workload.context_length * shape.attention_width()
    return passes(workload, full_recompute) * (workload.active_b * 1e9 + attention)


def training_flops(workload: Workload) -> float:
    """Return the fewest FLOPs the run takes: selective recomputation, every token."""
    shape = model_shape(workload)
    return flops_per_token(workload, shape, False) * (workload.train_tokens or 0)


def _state_bytes(workload: Workload, shape: Shape) -> tuple[float, float, float]:
    """Return (weights, gradients, optimizer) bytes of the whole model."""
    params = workload.model_params_b * 1e9
    precision = str(workload.precision).lower()
    if _full_training(workload):
        w, g, o = FP32_ADAM_BYTES if precision == "fp32" else MIXED_ADAM_BYTES
        return params * w, params * g, params * o
    adapters = _adapters(shape)
    w, g, o = ADAPTER_ADAM_BYTES
    qlora = workload.finetune_method == FinetuneMethod.QLORA
    base = QLORA_BASE_BYTES if qlora else PRECISION_BYTES[precision]
    return params * base + adapters * w, adapters * g, adapters * o


def _adapters(shape: Shape) -> float:
    kv = shape.kv_heads * shape.head_dim
    return LORA_RANK * shape.layers * (17 * shape.hidden_size + 2 * kv)


def _gradient_bytes(workload: Workload, shape: Shape) -> float:
    if _full_training(workload):
        return workload.model_params_b * 1e9 * (4 if workload.precision == "fp32" else 2)
    return _adapters(shape) * 4


def _per_gpu_gb(workload: Workload, shape: Shape, layout: Layout) -> float:
    """Return what one GPU holds under the layout, overhead included (module docstring)."""
    weights, gradients, optimizer = _state_bytes(workload, shape)
    model = layout.tp * layout.pp * layout.cp
    if layout.zero3:
        states = (weights + gradients + optimizer) / (model * layout.dp)
        states += 2 * weights / shape.layers / layout.tp  # the layers being gathered
    else:
        states = (weights + gradients) / model + optimizer / (model * layout.dp)
    s, h = workload.context_length / layout.cp, shape.hidden_size
    act_bytes = 2 if workload.precision == "fp32" else 1
    per_layer = FULL_ACTIVATION_BYTES if layout.full_recompute else SELECTIVE_ACTIVATION_BYTES
    # 1F1B keeps PP micro-batches in flight on the first stage: L/PP layers each.
    in_flight = min(layout.pp, layout.micro_batches)
    activations = per_layer * act_bytes * s * h / layout.tp * shape.layers / layout.pp * in_flight
    if layout.full_recompute:  # the layer being recomputed
        activations += SELECTIVE_ACTIVATION_BYTES * act_bytes * s * h / layout.tp
    logits = 2 * act_bytes * s * shape.vocab_size / layout.tp
    tensors = (states + activations + logits) / GB
    return tensors * (1 + ALLOCATOR_OVERHEAD) + CUDA_CONTEXT_GB


def _sequences(workload: Workload, gpus: int) -> int:
    """Return a step's sequences: the global batch given, else `batch_size` per GPU."""
    if workload.global_batch_tokens is not None:
        return max(1, round(workload.global_batch_tokens / workload.context_length))
    return workload.batch_size * gpus


def layouts(build: Node, workload: Workload, rules: RuleParams) -> list[Layout]:
    """Return every layout the build can run the work in that fits its GPUs' memory.

    Tensor parallelism splits the heads within a node's NVLink domain; pipeline stages split
    the layers; data parallelism takes at least one sequence a step. For each split the
    lightest that fits is taken: the optimizer sharded over DP (else the weights too), then
    selective recomputation (else full).
    """
    memory = usable_gb(build.gpu.memory_gb, rules.gpu_memory_usable_fraction)
    total = build.gpu_count * build.nodes
    return list(_layouts(workload, build.gpu_count, total, nvlink_group(build), memory))


@lru_cache(maxsize=4096)
def _layouts(workload: Workload, per_node: int, total: int, domain: int,
             memory: float) -> tuple[Layout, ...]:  # fmt: skip
    """`layouts`, on what they read of a build (memoised: builds and GPUs alike share them)."""
    shape = model_shape(workload)
    sequences = _sequences(workload, total)
    found = []
    for tp in tensor_parallel_sizes(workload):
        if tp > domain or per_node % tp:
            continue
        for pp in PIPELINE_SIZES:
            for cp in CONTEXT_SIZES:
                if pp > shape.layers or total % (tp * pp * cp):
                    continue
                dp = total // (tp * pp * cp)
                if dp > sequences or (cp > 1 and workload.context_length < cp * CONTEXT_MIN_TOKENS):
                    continue
                virtual = max(1, shape.layers // (pp * LAYERS_PER_VIRTUAL_STAGE)) if pp > 1 else 1
                for zero3, full in ((False, False), (True, False), (False, True), (True, True)):
                    layout = Layout(tp, pp, dp, zero3, full, sequences, virtual, cp)
                    if _per_gpu_gb(workload, shape, layout) <= memory:
                        found.append(layout)
                        break
    return tuple(found)


def clear_memos() -> None:
    """Forget the memoised layouts (benchmarks time the model cold with it)."""
    _layouts.cache_clear()


def sized_layout(build: Node, workload: Workload) -> Layout:
    """Return the layout sizing assumes (docs/sizing.md): sharded data parallel over every GPU
    (ZeRO-3) with full recomputation, taken when no layout fits, so the run is still timed."""
    total = build.gpu_count * build.nodes
    sequences = max(_sequences(workload, total), total)
    return Layout(1, 1, total, True, True, sequences, 1)


@dataclass(frozen=True, slots=True)
class Timed:
    """A layout's time per step, and its terms."""

    layout: Layout
    flops: float  # of the whole run
    compute: float  # s, the whole run at the efficiency, no bubbles
    compute_step: float
    bubble_step: float
    comm_step: float
    comm_bytes: float  # per GPU a step
    all_to_all_step: float
    step: float
    steps: float
    link_gbs: float
    link: Message | str


def time_layout(build: Node, workload: Workload, rules: RuleParams, layout: Layout,
                efficiency: float, peak: float) -> Timed:  # fmt: skip
    """Return the time of a layout's steps (module docstring)."""
    shape = model_shape(workload)
    per_node, total = build.gpu_count, build.gpu_count * build.nodes
    step_tokens = layout.sequences * workload.context_length
    tokens = float(workload.train_tokens or 0)
    steps = tokens / step_tokens
    per_token = flops_per_token(workload, shape, layout.full_recompute)
    compute_step = per_token * step_tokens / (total * peak * efficiency)
    bubble_step = compute_step * layout.bubble
    # Data-parallel traffic: the gradient shard of each GPU, over the slowest link its ring
    # crosses. Between nodes the DP members of a node share its NICs (one ring per rail).
    shard = _gradient_bytes(workload, shape) / (layout.tp * layout.pp)
    # Context-parallel ranks hold the same weights: their gradients are reduced with the DP
    # ranks' (Megatron's DP × CP group).
    reducers = layout.dp * layout.cp
    volume = 0.0
    comm_step = 0.0
    link_gbs, link = intra_link_gbs(build)
    busbw = allreduce_busbw_gbs(build, rules)
    if reducers > 1:
        volume = 2 * (reducers - 1) / reducers * shard
        if layout.zero3:
            volume *= ZERO3_VOLUME * layout.micro_batches  # gathered again each micro-batch
        if build.nodes > 1 and reducers > per_node // layout.tp:
            members = max(1, per_node // layout.tp)
            fabric, name = node_fabric_gbs(build, rules)
            if fabric * members / per_node < link_gbs:
                link_gbs, link = fabric * members / per_node, name
                busbw = sustained_gbs(link_gbs, rules)
        comm_step = volume / (busbw * 1e9)
    # A mixture of experts spread over a node's GPUs: dispatch and combine, forward and
    # backward (twice: the activations' and the weights' gradients), per MoE layer of a stage.
    all_to_all = 0.0
    experts_layers = moe_layers(workload)
    spread = min(workload.experts or 1, per_node // layout.tp)
    if experts_layers and spread > 1:
        tokens_here = step_tokens / layout.dp / layout.cp / layout.tp
        k = workload.experts_per_token or 1
        sent = tokens_here * k * shape.hidden_size * 2 * (spread - 1) / spread
        intra = allreduce_busbw_gbs(build, rules, spread) * 1e9
        all_to_all = 2 * 3 * sent * experts_layers / layout.pp / intra
    busy = compute_step + bubble_step
    step = busy + exposed_traffic(layout, busy, comm_step, rules) + all_to_all
    return Timed(
        layout,
        per_token * tokens,
        compute_step * steps,
        compute_step,
        bubble_step,
        comm_step,
        volume,
        all_to_all,
        step,
        steps,
        link_gbs,
        link,
    )


def exposed_traffic(layout: Layout, busy: float, comm_step: float, rules: RuleParams) -> float:
    """Return the data-parallel traffic a step waits for (module docstring, `step`).

    Gradients are accumulated over the step's micro-batches and reduced once, from the last
    micro-batch's backward pass; the updated weights are gathered during the next step's first
    forward (Megatron-LM's `--overlap-grad-reduce` and `--overlap-param-gather`: `param_and_grad_
    buffer.register_grad_ready` issues a bucket's reduction only when `is_last_microbatch`). So
    under ZeRO-1 the traffic hides behind one micro-batch's compute, not the step's. ZeRO-3
    gathers and reduces layer by layer in every micro-batch, behind the whole step.
    """
    if not rules.comm_overlap:
        return comm_step
    window = busy if layout.zero3 else busy / layout.micro_batches
    return max(0.0, comm_step - window)


def training_efficiency(build: Node, workload: Workload, rules: RuleParams) -> float:
    """Return the share of peak the run's FLOPs sustain: the measured efficiency of its GPU
    and precision, × the board's class (`mfu_bridge`, `mfu_pcie`) over NVSwitch's when the
    GPUs of a node share work without an NVSwitch board."""
    share = compute_efficiency(build.gpu, workload.precision, Phase.TRAINING, rules)
    if build.gpu_count * build.nodes > 1:
        share *= mfu(build, rules) / rules.mfu_nvswitch
    return share


def training(
    build: Node,
    workload: Workload,
    rules: RuleParams,
    monthly_price: float,
    factor: float = 1.0,
) -> Performance:
    """Return the time and cost of training `workload.train_tokens` tokens on the build."""
    gpus = build.gpu_count * build.nodes
    peak = compute_peak(build.gpu, workload.precision, Phase.TRAINING)
    tokens = float(workload.train_tokens or 0)
    if peak <= 0 or tokens <= 0:
        return unknown(workload, monthly_price, build.gpu)
    efficiency = training_efficiency(build, workload, rules)
    candidates = layouts(build, workload, rules) or [sized_layout(build, workload)]
    timed = min(
        (time_layout(build, workload, rules, layout, efficiency, peak) for layout in candidates),
        key=lambda done: (done.step * done.steps, done.layout.tp * done.layout.pp),
    )
    layout = timed.layout
    seconds = timed.step * timed.steps * factor
    days = seconds / SECONDS_PER_DAY
    cost = monthly_price * seconds / 3600 / HOURS_PER_MONTH
    meets = workload.deadline_days is None or days <= workload.deadline_days
    assumptions = _assumptions(build, workload, rules, timed, efficiency, peak, factor, meets)
    return Performance(
        mode=workload.mode,
        monthly_price=monthly_price,
        time_to_train_days=days,
        time_to_train_s=seconds,
        cost_per_run=cost,
        meets_target=meets,
        assumptions=tuple(assumptions),
        terms={
            "flops": timed.flops,
            "compute_s": timed.compute,
            "steps": timed.steps,
            "compute_step_s": timed.compute_step,
            "bubble_step_s": timed.bubble_step,
            "comm_step_s": timed.comm_step,
            "comm_bytes_per_step": timed.comm_bytes,
            "all_to_all_step_s": timed.all_to_all_step,
            "busy_s": timed.steps * (timed.compute_step + timed.bubble_step),
            "exposed_comm_s": timed.steps * (timed.step - timed.compute_step - timed.bubble_step),
            "link_gbs": timed.link_gbs,
            "mfu": mfu(build, rules) if gpus > 1 else rules.mfu_nvswitch,
            "efficiency": efficiency,
            "tp": layout.tp,
            "pp": layout.pp,
            "dp": layout.dp,
            "cp": layout.cp,
            "full_recompute": float(layout.full_recompute),
            "zero3": float(layout.zero3),
            "tokens": tokens,
            "factor": factor,
            "seconds": seconds,
        },
    )


def _assumptions(
    build: Node,
    workload: Workload,
    rules: RuleParams,
    timed: Timed,
    efficiency: float,
    peak: float,
    factor: float,
    meets: bool,
) -> list[Message]:
    layout = timed.layout
    gpus = build.gpu_count * build.nodes
    recompute = (
        _("full activation recomputation (only that fits)")
        if layout.full_recompute
        else _("selective activation recomputation")
    )
    assumptions = [
        _(
            "%(flops)s FLOPs: %(passes)s·(N + L·s·h)·T, causal attention at half, %(recompute)s",
            flops=f"{timed.flops:.3g}",
            passes=passes(workload, layout.full_recompute),
            recompute=recompute,
        ),
        _(
            "%(gpus)s at %(peak)s",
            gpus=f"{gpus} × {build.gpu.name}",
            peak=peak_note(peak, efficiency, _("training")),
        ),
        _(
            "layout: tensor parallel %(tp)s, pipeline parallel %(pp)s, context parallel "
            "%(cp)s, data parallel %(dp)s; %(micro)s micro-batches a step per data-parallel "
            "rank, pipeline bubbles %(bubble)s of the compute",
            tp=layout.tp,
            pp=layout.pp,
            cp=layout.cp,
            dp=layout.dp,
            micro=layout.micro_batches,
            bubble=f"{layout.bubble:.1%}",
        ),
        ngettext(
            "%(steps)s step of %(tokens)s tokens",
            "%(steps)s steps of %(tokens)s tokens",
            max(1, round(timed.steps)),
            steps=f"{timed.steps:,.0f}",
            tokens=f"{layout.sequences * workload.context_length:,}",
        ),
    ]
    if layout.dp * layout.cp > 1:
        optimizer = (
            _("weights, gradients and optimizer state sharded over data parallel (ZeRO-3)")
            if layout.zero3
            else _("optimizer state sharded over data parallel (ZeRO-1)")
        )
        if not rules.comm_overlap:
            backward = _("after the backward pass")
        elif layout.zero3 or layout.micro_batches == 1:
            backward = _("overlapping the backward pass")
        else:
            backward = _("overlapping the last micro-batch's backward pass")
        assumptions.append(
            _(
                "%(optimizer)s: %(gb)s GB of gradient traffic per GPU a step over %(link)s at "
                "%(efficiency)s, %(backward)s",
                optimizer=optimizer,
                gb=f"{timed.comm_bytes / 1e9:.3g}",
                link=timed.link,
                efficiency=f"{rules.comm_bandwidth_efficiency:.0%}",
                backward=backward,
            )
        )
    if timed.all_to_all_step:
        assumptions.append(
            _(
                "mixture of experts: dispatch and combine all-to-all over the node's link, "
                "%(ms)s ms a step",
                ms=f"{timed.all_to_all_step * 1000:.3g}",
            )
        )
    if gpus > 1 and interconnect(build) is not Interconnect.NVSWITCH:
        share = f"{mfu(build, rules) / rules.mfu_nvswitch:.2f}"
        if interconnect(build) is Interconnect.BRIDGE:
            note = _(
                "NVLink bridges, no NVSwitch board: the GPUs' efficiency × %(share)s (the rule "
                "profile's share for bridged cards over the NVSwitch one)",
                share=share,
            )
        else:
            note = _(
                "PCIe only, no NVSwitch board: the GPUs' efficiency × %(share)s (the rule "
                "profile's share for PCIe-only cards over the NVSwitch one)",
                share=share,
            )
        assumptions.append(note)
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
    assumptions.append(month_note())
    if factor != 1:
        assumptions.append(_("measured pitfall losses: time × %(factor)s", factor=f"{factor:.2f}"))
    if workload.deadline_days is not None:
        deadline = counted_days(f"{workload.deadline_days:g}")
        if meets:
            assumptions.append(_("deadline %(days)s: met", days=deadline))
        else:
            assumptions.append(_("deadline %(days)s: missed", days=deadline))
    return assumptions
