"""Serving under load: the steady-state continuous-batching round of a replica.

docs/performance.md ("Serving: one round under load") has the derivation. A replica of r
GPUs (tensor parallel) serves U users, each with one request in flight: its prompt of p
tokens, then o output tokens, then the next request. It holds B = min(U, S) of them in its KV
cache (S what its memory holds at the mean context c̄ = p + o/2); the others wait for room.
Every step decodes one token for each of the B sequences and, as chunked prefill spreads
them, prefills the prompts of the other sequences' next requests, (B − 1)·p/o tokens a step:

    T          = B + (B − 1)·p/o                             tokens through the weights a step
    linear     = max(W(T) / (r·BW·η),  2·(N_a·T + E_T·m½) / (r·peak·ε))   read or multiplied;
                 E_T the routed-expert parameters the step's tokens touch, m½ = 100 tokens
    attention  = max(B·c̄·kv / (r·BW·η),  2·2·L·h′·c̄·B / (r·peak·ε))    decode
               + 2·L·h·p·(T − B) / (r·peak·ε)                         prefill, causal (p/2 each)
    comm       = 2 all-reduces a layer of T·h activations (a mixture of experts: a dispatch and
                 a combine all-to-all a MoE layer), 8 µs each plus the ring's bytes
    step       = (linear + attention + comm) · losses + CPU scheduling   = time per output token

A request's prompt is prefilled in the next step, on top of that step's load (alone on an
idle replica: the first token of one user). The replica's GPU time is one cycle of each
sequence, C = S_first + (o − 1)·step, which sets its throughput. As latency only, a request
also waits for half the step in flight and, prompts arriving at random, for those ahead of
it: an M/D/1 wait ρ/(2(1 − ρ))·S_p on one prompt's own time S_p at the replica's prefill
utilisation ρ = (B − 1)·S_p / C. Users beyond the KV cache wait for a slot, (U − B)·C/B.

    TTFT     = S_first + half a step + prompt queue (+ KV-cache queue)
    TPOT     = step
    tokens/s = replicas · U · o / (C + KV-cache queue)

Without users (a throughput target only) each replica batches what its memory holds, at most
`inference_batch_max` sequences on cards under 70 GiB and `inference_batch_max_large` above
(vLLM's own defaults, 256 and 1024).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace
from functools import lru_cache

from configurator.engine.build import (
    DEFAULT_OUTPUT_TOKENS,
    DEFAULT_PROMPT_TOKENS,
    STAGED,
    Gpu,
    Parallelism,
    Workload,
)
from configurator.engine.messages import Message, _, ngettext
from configurator.engine.model_shapes import published_shape
from configurator.engine.performance.common import (
    ALL_REDUCE_LATENCY_S,
    HOURS_PER_MONTH,
    Interconnect,
    Node,
    Performance,
    allreduce_busbw_gbs,
    interconnect,
    month_note,
    pcie_link_gbs,
    peak_note,
    served_note,
    unknown,
)
from configurator.engine.performance.efficiency import (
    EXPERT_READ_SHARE,
    GROUPED_GEMM_HALF_TOKENS,
    Phase,
    bandwidth,
    compute_efficiency,
    compute_peak,
)
from configurator.engine.rules import RuleParams
from configurator.engine.shapes import replica_sizes
from configurator.engine.sizing import (
    PRECISION_BYTES,
    PREFILL_CHUNK_TOKENS,
    kv_bytes_per_token,
    model_shape,
    size_workload,
    usable_gb,
)

# A replica waits for a prompt ahead of it at most at this utilisation of its prefill: the
# M/D/1 wait grows without bound towards 1, where the round's own arithmetic stops holding.
MAX_PREFILL_UTILISATION = 0.9
# Cards of this much memory or more batch `inference_batch_max_large` sequences (vLLM's
# get_batch_defaults: 1024 on GPUs of at least 70 GiB, 256 below).
LARGE_CARD_GIB = 70


@dataclass(frozen=True, slots=True)
class Replica:
    gpus: int  # r: GPUs of one tensor-parallel replica
    count: int  # replicas in the build that serve
    sequences: int  # B: sequences in flight per replica (held in its KV cache)
    waiting: int = 0  # users per replica beyond what its KV cache holds, queued
    stages: int = 1  # p: pipeline stages, each a run of whole layers on gpus / p GPUs

    @property
    def users(self) -> int:
        return self.sequences + self.waiting


def lengths(workload: Workload) -> tuple[int, int]:
    """Return (prompt, output) tokens per request: as given, else 1024 in and 256 out."""
    output = workload.output_tokens or DEFAULT_OUTPUT_TOKENS
    prompt = workload.prompt_tokens or DEFAULT_PROMPT_TOKENS
    return prompt, output


def served_workload(workload: Workload) -> Workload:
    """Return the workload as serving is sized and timed: each sequence's context holds its
    prompt and output (the defaults of docs/performance.md for those not given)."""
    prompt, output = lengths(workload)
    return replace(workload, context_length=max(workload.context_length, prompt + output))


def held_workload(workload: Workload) -> Workload:
    """Return the workload as a replica's KV cache holds its sequences: at the mean context,
    prompt + output/2 (engines allocate KV blocks as a sequence grows, so in the steady state
    the cache holds sequences at every stage of their requests)."""
    prompt, output = lengths(workload)
    return replace(workload, context_length=prompt + math.ceil(output / 2))


def moe_layers(workload: Workload) -> int:
    """Return the layers whose MLP is a mixture of experts (0 for a dense model)."""
    if not workload.is_moe:
        return 0
    layers = model_shape(workload).layers
    if workload.model:
        return layers - published_shape(workload.model).dense_layers
    return layers


def expert_touch(workload: Workload, tokens: float) -> float:
    """Return the share of a mixture of experts' routed experts `tokens` tokens touch: each
    expert with probability 1 − (1 − k/E)^T when tokens are routed evenly (1 for a dense
    model, whose weights are all read)."""
    if not workload.is_moe:
        return 1.0
    experts, k = workload.experts or 1, workload.experts_per_token or 1
    return 1 - (1 - k / experts) ** max(1.0, tokens)


def weight_split(workload: Workload, tokens: float) -> tuple[float, float]:
    """Return the bytes a step over `tokens` tokens reads: (shared weights, routed experts).

    A dense model reads every weight. A mixture of experts of P parameters, A active, E routed
    experts, k per token holds E·x expert parameters with x = (P − A)/(E − k) (the rest is
    shared by every token); a step reads the experts its tokens touch (`expert_touch`).
    """
    total = workload.model_params_b * 1e9
    weight_bytes = PRECISION_BYTES[workload.precision]
    if not workload.is_moe:
        return total * weight_bytes, 0.0
    experts, k = workload.experts or 1, workload.experts_per_token or 1
    expert_params = experts * (total - workload.active_b * 1e9) / (experts - k)
    touched = expert_touch(workload, tokens)
    return (total - expert_params) * weight_bytes, expert_params * touched * weight_bytes


def weights_read(workload: Workload, tokens: float) -> float:
    """Return the weight bytes a step over `tokens` tokens reads (each token its experts)."""
    return sum(weight_split(workload, tokens))


def _need(workload: Workload, gpus: int, sequences: int) -> float:
    """Return what one of `gpus` GPUs holds with `sequences` sequences, GB."""
    return size_workload(replace(workload, batch_size=sequences), gpus).per_gpu_gb


@lru_cache(maxsize=4096)
def max_sequences(workload: Workload, gpus: int, memory_gb: float, most: int) -> int:
    """Return the most sequences (≤ most) whose weights and KV cache fit r GPUs; 0 if none.

    Per GPU the need grows with each sequence (its KV cache, its logits, up to a prefill chunk
    its activations) and never falls, so the answer is the last S whose need fits. It lies
    at most at 1 + (room after one) / (KV a sequence); the line through the needs at the two
    ends of what is left proposes the next S (the need is nearly linear in S), each proposal
    checked, so the answer is exact in a few sizings. `workload.context_length` is the context
    a sequence holds. Memoised: the builds of a search share their GPU's replica sizes.
    """
    low_need = _need(workload, gpus, 1)
    if low_need > memory_gb:
        return 0
    kv = kv_bytes_per_token(workload) * workload.context_length / gpus / 1e9
    if kv <= 0:
        return most
    low, high = 1, min(most, 1 + math.floor((memory_gb - low_need) / kv))
    if high <= low:
        return low
    high_need = _need(workload, gpus, high)
    if high_need <= memory_gb:
        return high
    # low fits, high does not: propose along the line, else halve; keep the invariant.
    while high - low > 1:
        slope = (high_need - low_need) / (high - low)
        guess = low + math.floor((memory_gb - low_need) / slope) if slope > 0 else high - 1
        guess = min(max(guess, low + 1), high - 1)
        need = _need(workload, gpus, guess)
        if need <= memory_gb:
            low, low_need = guess, need
            if guess + 1 < high:
                after = _need(workload, gpus, guess + 1)
                if after > memory_gb:
                    return guess
                low, low_need = guess + 1, after
        else:
            high, high_need = guess, need
            middle = (low + high) // 2
            if middle > low:
                need = _need(workload, gpus, middle)
                if need <= memory_gb:
                    low, low_need = middle, need
                else:
                    high, high_need = middle, need
    return low


def batch_cap(gpu: Gpu, rules: RuleParams) -> int:
    """Return the most sequences a replica batches for a throughput target (vLLM's default)."""
    if gpu.memory_gb >= LARGE_CARD_GIB:
        return rules.inference_batch_max_large
    return rules.inference_batch_max


def replica_plans(build: Node, workload: Workload, rules: RuleParams) -> list[Replica]:
    """Return every replica size (1, 2, 4, 8 … GPUs, within a node) that holds the model.

    With `concurrent_users` (default `batch_size`) the users are spread over the replicas and
    those beyond what a replica's KV cache holds wait; with only a throughput target each
    replica batches as many sequences as its memory holds (`batch_cap`). A model no node holds
    spans the fewest whole nodes that hold it.
    """
    total = build.gpu_count * build.nodes
    memory = usable_gb(build.gpu.memory_gb, rules.gpu_memory_usable_fraction)
    fixed = workload.concurrent_users
    if fixed is None and workload.target_tokens_per_s is None:
        fixed = workload.batch_size
    staged = workload.parallelism in STAGED
    groups = replica_sizes(workload)
    sizes = [r for r in groups if r <= build.gpu_count and build.gpu_count % r == 0]
    # A replica spans whole nodes only when no node holds it (pipeline over the nodes).
    sizes += [
        build.gpu_count * k
        for k in range(1, build.nodes + 1)
        if build.nodes % k == 0 and build.gpu_count * k not in sizes
    ]
    # One sequence at its full context must fit (as sizing asks); the cache holds them at
    # their mean context (`held_workload`).
    held_at = held_workload(workload)

    def plan_of(r: int) -> Replica | None:
        if max_sequences(workload, r, memory, 1) == 0:
            return None
        count, stages = total // r, (r if staged else 1)
        if fixed is None:
            held = max_sequences(held_at, r, memory, batch_cap(build.gpu, rules))
            return Replica(r, count, held, stages=stages) if held else None
        count = min(count, fixed)
        users = math.ceil(fixed / count)
        held = max_sequences(held_at, r, memory, users)
        return Replica(r, count, held, users - held, stages) if held else None

    # The size the engine is started with serves, when the build can take it; otherwise the
    # answer says so, and the best of the others serves.
    pinned = plan_of(workload.replica_gpus) if workload.replica_gpus in sizes else None
    if pinned is not None:
        return [pinned]
    plans = []
    for r in sizes:
        plan = plan_of(r)
        if plan is not None:
            plans.append(plan)
        if plans and r >= build.gpu_count:
            break  # a replica spanning nodes only when none within a node holds the model
    return plans


@dataclass(frozen=True, slots=True)
class Hardware:
    """What one replica's GPUs do per second, as the round reads them."""

    peak: float  # FLOP/s of one GPU at the workload's precision (serving)
    efficiency: float  # share of it the serving FLOPs sustain
    bandwidth: float  # bytes/s one GPU reads weights and KV cache at
    link_gbs: float  # one-way GB/s of the replica's all-reduce ring, after comm efficiency
    cpu_s: float  # CPU scheduling time a step, s
    factor: float = 1.0  # measured pitfall losses on the GPUs' time


@dataclass(frozen=True, slots=True)
class Round:
    """The terms of one replica plan's steady-state round, in seconds."""

    plan: Replica
    tokens: float  # T: tokens through the weights a step
    decode_weights: float
    decode_kv: float
    decode_compute: float
    attention_prefill: float
    decode_comm: float
    step: float  # time per output token
    prefill: float  # S_p: one prompt on the replica
    queue: float  # the wait for the step in flight and the prompts ahead
    kv_queue: float  # the wait for a slot in the KV cache
    first_token: float
    per_replica: float  # output tokens/s of one replica

    @property
    def tokens_per_s(self) -> float:
        return self.plan.count * self.per_replica

    @property
    def decode_memory(self) -> float:
        return self.decode_weights + self.decode_kv


def serve(plan: Replica, workload: Workload, hw: Hardware) -> Round:
    """Return the replica's round: the step, the first token under load and its throughput."""
    prompt, output = lengths(workload)
    shape = model_shape(workload)
    kv_per_token = kv_bytes_per_token(workload)
    active = workload.active_b * 1e9
    r, b, p = plan.gpus, plan.sequences, plan.stages
    t = r // p  # GPUs of one stage, tensor parallel within it
    expert_bandwidth = hw.bandwidth * EXPERT_READ_SHARE.share
    shared, experts = weight_split(workload, math.inf)
    expert_params = experts / PRECISION_BYTES[workload.precision]
    mean_context = prompt + output / 2
    # Forward FLOPs per token a position attended to: 2·L·h′, h′ the heads' width; MLA
    # decodes over its latent (absorbed up-projections), prefills over the rebuilt heads.
    decode_width = 2 * shape.layers * shape.attention_width(absorbed=True)
    prefill_width = 2 * shape.layers * shape.attention_width()
    experts_layers = moe_layers(workload)
    k = workload.experts_per_token or 0

    # Tensor parallelism: two all-reduces of the activations per layer (attention and MLP
    # outputs, Shoeybi et al. 2019), each a start-up latency plus the ring's bytes. A mixture
    # of experts spreads its experts over the replica (expert parallel): its MLP's all-reduce
    # becomes a dispatch and a combine all-to-all, each GPU sending its share of the tokens'
    # k copies, (r − 1)/r of them to other GPUs, over the same link. Pipeline stages hand a
    # micro-batch's activations to the next stage instead, p − 1 sends a round.
    def comm(tokens: float, micro: int) -> float:
        batch = tokens / micro  # one micro-batch's tokens
        activations = batch * shape.hidden_size * 2
        handoff = (p - 1) * (ALL_REDUCE_LATENCY_S + activations / (hw.link_gbs * 1e9))
        if t == 1:
            return handoff
        ring = 2 * (t - 1) / t * activations / (hw.link_gbs * 1e9)
        dense = 2 * shape.layers - experts_layers
        all_to_all = activations / t * k * (t - 1) / t / (hw.link_gbs * 1e9)
        return (
            handoff
            + dense * (ALL_REDUCE_LATENCY_S + ring)
            + experts_layers * 2 * (ALL_REDUCE_LATENCY_S + all_to_all)
        )

    def step(
        decoding: float, prefilled: float, prompts: float, whole: float = 0.0
    ) -> tuple[float, ...]:
        """Return a step's GPU time and terms: `decoding` sequences each decode a token and
        `prefilled` prompt tokens of `prompts` prompts are prefilled, `whole` of them one new
        prompt's. The decode tokens touch their experts; a prompt touches its own (all of
        them, from a few dozen tokens on).

        Over p stages the step runs as m micro-batches (`micro_batches`): a stage reads its
        layers' weights once per micro-batch, so a round reads every weight p times over the
        replica (once per GPU of a stage), and a micro-batch's maths runs on one stage at a
        time, so the step's spreads over m · t GPUs, not r (one micro-batch: t). A new prompt
        passes the stages in its own chunks: the step lasts at least that pass."""
        micro = micro_batches(workload, p, decoding, decoding + prefilled)
        spread = micro * t  # GPUs the step's maths runs on at once (r without stages)
        flops_rate = spread * hw.peak * hw.efficiency
        touched = expert_touch(workload, decoding)
        touched += min(1.0, prompts) * (expert_touch(workload, prompt) - touched)
        weights_time = (shared / hw.bandwidth + experts * touched / expert_bandwidth) / t
        tokens = decoding + prefilled
        # Routed experts run grouped GEMMs: each expert touched costs m½ tokens' time more
        # than its tokens' (GROUPED_GEMM_HALF_TOKENS).
        grouped = expert_params * touched * GROUPED_GEMM_HALF_TOKENS
        linear_compute = 2 * (active * tokens + grouped) / flops_rate
        kv_time = decoding * mean_context * kv_per_token / (spread * hw.bandwidth)
        attention_decode = 2 * decode_width * mean_context * decoding / flops_rate
        # Causal attention: a prompt token attends to half the prompt on average.
        attention_prefill = prefill_width * prompt / 2 * prefilled * 2 / flops_rate
        traffic = comm(tokens, micro) if r > 1 else 0.0
        gpu = (
            max(weights_time, linear_compute)
            + max(kv_time, attention_decode)
            + attention_prefill
            + traffic
        )
        if p > 1 and whole:
            chunks = micro_batches(workload, p, 0, whole)
            own = 2 * (active * whole + prefill_width * prompt / 2 * whole)
            gpu = max(gpu, max(own / (chunks * t * hw.peak * hw.efficiency), weights_time))
        return (gpu * hw.factor + hw.cpu_s, tokens, weights_time, kv_time, linear_compute,
                attention_prefill, traffic)  # fmt: skip

    # The steady step a sequence decodes in: B decode tokens and, in chunks, the prompts of
    # the other B − 1 sequences' next requests, (B − 1)/o of them a step (its own prompt is
    # prefilled before it decodes).
    others = b - 1
    tpot, tokens, weights_time, kv_time, linear_compute, attention_prefill, traffic = step(
        b, others * prompt / output, others / output
    )
    # A new request waits for the step in flight, then its prompt is prefilled in the next
    # step, on top of that step's load: the B − 1 others decoding and their prompts' share
    # (alone on an idle replica). The replica's GPU time is then one cycle of every sequence,
    # which sets its throughput.
    alone = step(0, prompt, 1, prompt)[0]
    with_prompt = step(others, prompt + others * prompt / output, 1 + others / output, prompt)[0]
    cycle = with_prompt + (output - 1) * tpot
    # It arrives at random: it waits for half the step in flight and, prompts arriving at
    # random too, for those ahead of it: an M/D/1 queue on one prompt's own time S_p at the
    # replica's prefill utilisation ρ, at most the B − 1 others. The GPUs spend these waits on
    # the others' steps, so they are latency, not work.
    prefill = step(others, prompt, 1, prompt)[0] - (step(others, 0, 0)[0] if others else 0.0)
    rho = min(others / cycle * prefill, MAX_PREFILL_UTILISATION)
    queue = tpot / 2 * others / b + min(rho / (2 * (1 - rho)), others) * prefill
    # Users beyond what the KV cache holds wait for a slot: (U − B) of them, B leaving a cycle.
    kv_queue = plan.waiting * cycle / b
    first_token = with_prompt + queue + kv_queue
    per_replica = plan.users * output / (cycle + kv_queue)
    return Round(
        plan,
        tokens,
        weights_time,
        kv_time,
        linear_compute,
        attention_prefill,
        traffic,
        tpot,
        alone,
        queue,
        kv_queue,
        first_token,
        per_replica,
    )


def hardware(build: Node, workload: Workload, plan: Replica, rules: RuleParams,
             factor: float, cpu_latency: float) -> Hardware:  # fmt: skip
    """Return what a replica of `plan.gpus` GPUs of the build computes, reads and sends at."""
    gpu = build.gpu
    link = allreduce_busbw_gbs(build, rules, plan.gpus)
    return Hardware(
        peak=compute_peak(gpu, workload.precision, Phase.SERVING),
        efficiency=compute_efficiency(gpu, workload.precision, Phase.SERVING, rules),
        bandwidth=bandwidth(gpu, rules),
        link_gbs=link,
        cpu_s=rules.cpu_scheduling_ms / 1000 + cpu_latency,
        factor=factor,
    )


# llama.cpp splits a batch into micro-batches of at most `n_ubatch` tokens (512, its default),
# and pipelines them over its GPUs (ggml-org/llama.cpp#6017, "pipeline parallelism").
LLAMA_CPP_UBATCH_TOKENS = 512


def micro_batches(workload: Workload, stages: int, sequences: float, tokens: float) -> int:
    """Return the micro-batches a step of `sequences` sequences and `tokens` tokens runs as
    over `stages` stages of whole layers: as many as stages, one sequence or more each, under
    pipeline parallelism (vLLM's and TensorRT-LLM's schedulers keep every stage busy); one per
    512 tokens under llama.cpp's layer split, which splits a batch only past its `n_ubatch`
    (a decode step of fewer tokens passes the stages in turn); a prompt alone, one per chunk
    of the engine's prefill (8,192 tokens; 512 for llama.cpp)."""
    if stages == 1:
        return 1
    if workload.parallelism == Parallelism.LAYERS:
        return min(stages, max(1, math.ceil(tokens / LLAMA_CPP_UBATCH_TOKENS)))
    if sequences:
        return min(stages, max(1, math.ceil(sequences)))
    return min(stages, max(1, math.ceil(tokens / PREFILL_CHUNK_TOKENS)))


def _meets(value: float, target: float | None) -> bool | None:
    return None if target is None else value <= target


def inference(
    build: Node,
    workload: Workload,
    rules: RuleParams,
    monthly_price: float,
    factor: float = 1.0,
    cpu_latency: float = 0.0,
) -> Performance:
    """Return the output tokens per second, time to first token, time per output token and
    cost of serving, under the load given.

    `cpu_latency` (seconds) is CPU-side scheduling time P8 adds to every step
    (`cpu_latency_s`); the serving engine's own scheduling time (`cpu_scheduling_ms`) is in
    every step already. It never scales the GPUs' terms.

    Of the replica sizes that hold the model, the one that serves the most tokens per second
    is taken (the fewest GPUs per replica on a tie); with a first-token or per-token target,
    the best of those that meet them, when any does.
    """
    gpu = build.gpu
    sized = served_workload(workload)
    runs = gpu.peak_tflops(workload.precision) > 0 and gpu.memory_bandwidth_gbs > 0
    plans = replica_plans(build, sized, rules) if runs else []
    if not plans:
        return unknown(workload, monthly_price, gpu)
    ttft, tpot = workload.target_ttft_s, workload.target_tpot_s
    rounds = [
        serve(plan, sized, hardware(build, sized, plan, rules, factor, cpu_latency))
        for plan in plans
    ]
    best = max(
        rounds,
        key=lambda done: (
            (ttft is None or done.first_token <= ttft) and (tpot is None or done.step <= tpot),
            done.tokens_per_s,
            -done.plan.gpus,
        ),
    )
    return _answer(build, workload, rules, monthly_price, best, factor, cpu_latency)


def _split_note(plan: Replica, workload: Workload) -> Message:
    """Say how a replica splits the model over its GPUs."""
    if plan.stages > 1:
        micro = micro_batches(workload, plan.stages, plan.sequences, plan.sequences)
        return ngettext(
            "layers split over %(n)s GPU: each holds a run of whole layers and hands its "
            "activations to the next; a decode step runs as %(micro)s, so one sequence's "
            "token passes every GPU in turn",
            "layers split over %(n)s GPUs: each holds a run of whole layers and hands its "
            "activations to the next; a decode step runs as %(micro)s, so one sequence's "
            "token passes every GPU in turn",
            plan.stages,
            micro=ngettext("%(n)s micro-batch", "%(n)s micro-batches", micro),
        )
    return ngettext(
        "tensor parallel over %(n)s GPU: two all-reduces per layer, %(latency)s µs each "
        "plus the bytes",
        "tensor parallel over %(n)s GPUs: two all-reduces per layer, %(latency)s µs each "
        "plus the bytes",
        plan.gpus,
        latency=f"{ALL_REDUCE_LATENCY_S * 1e6:g}",
    )


def _answer(build: Node, workload: Workload, rules: RuleParams, monthly_price: float,
            done: Round, factor: float, cpu_latency: float) -> Performance:  # fmt: skip
    gpu, plan = build.gpu, done.plan
    prompt, output = lengths(workload)
    tokens_per_s = done.tokens_per_s
    per_million = monthly_price / (tokens_per_s * HOURS_PER_MONTH * 3600) * 1e6
    target = workload.target_tokens_per_s
    meets_ttft = _meets(done.first_token, workload.target_ttft_s)
    meets_tpot = _meets(done.step, workload.target_tpot_s)
    meets = (
        (target is None or tokens_per_s >= target)
        and meets_ttft is not False
        and meets_tpot is not False
    )
    hw = hardware(build, workload, plan, rules, factor, cpu_latency)
    if done.decode_memory >= done.decode_compute:
        bound = _("decode bound by memory bandwidth")
    else:
        bound = _("decode bound by compute")
    assumptions = [
        served_note(plan.count, f"{plan.gpus} × {gpu.name}", plan.sequences, plan.stages > 1),
        _(
            "%(prompt)s prompt and %(output)s output tokens per request",
            prompt=prompt,
            output=output,
        ),
        _(
            "continuous batching: each step decodes a token for every sequence in flight and "
            "prefills %(share)s prompt tokens for each, the prompts of the requests that "
            "replace finished ones",
            share=f"{prompt / output:.3g}",
        ),
        _(
            "%(bound)s: weights and KV cache read at %(bandwidth)s GB/s × %(efficiency)s, %(peak)s",
            bound=bound,
            bandwidth=f"{gpu.memory_bandwidth_gbs:g}",
            efficiency=f"{rules.memory_bandwidth_efficiency:.0%}",
            peak=peak_note(hw.peak, hw.efficiency, _("serving")),
        ),
        _(
            "%(ms)s ms of CPU scheduling a step (the serving engine's)",
            ms=f"{rules.cpu_scheduling_ms:g}",
        ),
        _split_note(plan, workload),
        month_note(),
    ]
    if workload.replica_gpus is not None and workload.replica_gpus != plan.gpus:
        assumptions.append(
            ngettext(
                "replicas of %(n)s GPU cannot serve on this build (its GPUs or the model's heads "
                "do not split into them, or they do not hold the model); the figures are for "
                "the size that serves the most",
                "replicas of %(n)s GPUs cannot serve on this build (its GPUs or the model's heads "
                "do not split into them, or they do not hold the model); the figures are for "
                "the size that serves the most",
                workload.replica_gpus,
            )
        )
    if plan.waiting:
        assumptions.append(
            _(
                "%(waiting)s users per replica wait for room in the KV cache: %(s)s s more "
                "before their first token",
                waiting=plan.waiting,
                s=f"{done.kv_queue:.3g}",
            )
        )
    if interconnect(build) is Interconnect.BRIDGE and plan.gpus > 2:
        assumptions.append(
            _(
                "NVLink bridges join pairs: the all-reduces between the %(pairs)s pairs cross "
                "%(link)s",
                pairs=plan.gpus // 2,
                link=pcie_link_gbs(build)[1],
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
    if meets_ttft is not None:
        ttft = f"{workload.target_ttft_s:g}"
        if meets_ttft:
            assumptions.append(_("target time to first token %(s)s s: met", s=ttft))
        else:
            assumptions.append(_("target time to first token %(s)s s: missed", s=ttft))
    if meets_tpot is not None:
        tpot = f"{workload.target_tpot_s:g}"
        if meets_tpot:
            assumptions.append(_("target time per output token %(s)s s: met", s=tpot))
        else:
            assumptions.append(_("target time per output token %(s)s s: missed", s=tpot))
    return Performance(
        mode=workload.mode,
        monthly_price=monthly_price,
        tokens_per_s=tokens_per_s,
        time_to_first_token_s=done.first_token,
        time_per_output_token_s=done.step,
        cost_per_million_tokens=per_million,
        meets_target=meets,
        meets_ttft_target=meets_ttft,
        meets_tpot_target=meets_tpot,
        assumptions=tuple(assumptions),
        served=plan,
        terms={
            "replica_gpus": plan.gpus,
            "replicas": plan.count,
            "sequences": plan.sequences,
            "waiting": plan.waiting,
            "step_tokens": done.tokens,
            "decode_weights_s": done.decode_weights,
            "decode_kv_s": done.decode_kv,
            "decode_comm_s": done.decode_comm,
            "decode_memory_s": done.decode_memory,
            "decode_compute_s": done.decode_compute,
            "attention_prefill_s": done.attention_prefill,
            "decode_step_s": done.step,
            "prefill_s": done.prefill,
            "queue_s": done.queue,
            "kv_queue_s": done.kv_queue,
            "first_token_s": done.first_token,
            "per_replica_tokens_per_s": done.per_replica,
            "efficiency": hw.efficiency,
            "factor": factor,
            "cpu_latency_s": cpu_latency,
        },
    )
