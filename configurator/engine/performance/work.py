"""The work's figures on a build, the losses they carry, and the GPUs a target needs."""

from __future__ import annotations

import math
from dataclasses import replace
from functools import lru_cache

from configurator.engine.build import STAGED, FormFactor, Gpu, Mode, Workload
from configurator.engine.performance.common import (
    PCIE_X16_GBS,
    Cluster,
    Node,
    Performance,
    as_cluster,
    sustained_gbs,
)
from configurator.engine.performance.efficiency import (
    Phase,
    bandwidth,
    compute_efficiency,
    compute_peak,
)
from configurator.engine.performance.losses import MODELLED, cpu_latency_s, loss_factor
from configurator.engine.performance.serving import (
    Hardware,
    Replica,
    batch_cap,
    held_workload,
    inference,
    max_sequences,
    serve,
    served_workload,
)
from configurator.engine.performance.training import clear_memos as training_memos
from configurator.engine.performance.training import training, training_flops
from configurator.engine.rules import RuleParams
from configurator.engine.shapes import deployable_count
from configurator.engine.sizing import gpus_needed, size_workload, usable_gb


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
    latency = cpu_latency_s(failed_codes, rules) if workload.mode == Mode.INFER else 0.0
    timed = _figures if _hashable(rules) else _figures.__wrapped__
    return timed(as_cluster(build), workload, rules, factor, latency).priced(monthly_price)


def _hashable(rules: RuleParams) -> bool:
    """Return whether the rules may key a memo: parameters that record what a check reads
    (evaluate.WatchedReads) are not, so every read is made and seen."""
    try:
        hash(rules)
    except TypeError:
        return False
    return True


def clear_memos() -> None:
    """Forget the memoised figures (benchmarks time the model cold with it)."""
    _figures.cache_clear()
    _seconds_floor.cache_clear()
    max_sequences.cache_clear()
    training_memos()


@lru_cache(maxsize=4096)
def _figures(
    cluster: Cluster, workload: Workload, rules: RuleParams, factor: float, latency: float
) -> Performance:
    """Return the work's figures at a monthly price of 1 (memoised: the figures read only the
    cluster's attributes, and a search times the same layout for many builds)."""
    if workload.mode == Mode.INFER:
        return inference(cluster, workload, rules, 1.0, factor, latency)
    return training(cluster, workload, rules, 1.0, factor)


def _without(build: Node, code: str, rules: RuleParams) -> Node:
    """Return the build as it would be without the cause of pitfall `code` (P1, P5)."""
    cluster = as_cluster(build)
    if code == "P1":
        return replace(cluster, pcie_gen=max(build.pcie_gen, rules.pcie_gen_min))
    if code == "P5":
        return replace(cluster, nvlink=True)
    return cluster


def _unbridgeable_p5_share(build: Node, actual: Performance, rules: RuleParams) -> float:
    """Return P5's share for a card no bridge links (no board of it to time): the run at the
    efficiency of a linked board (NVLink bridges for PCIe cards, NVSwitch for SXM) with the
    gradient traffic hidden, against the run as timed."""
    seconds = actual.terms.get("seconds") or 0.0
    if not seconds or "busy_s" not in actual.terms:
        return 0.0
    sxm = build.gpu.form_factor == FormFactor.SXM
    linked = rules.mfu_nvswitch if sxm else rules.mfu_bridge
    factor = actual.terms.get("factor", 1.0)
    without = actual.terms["busy_s"] * actual.terms["mfu"] / linked * factor
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

    P1: the same build on the baseline's PCIe generation. P5: the same build with its GPUs
    linked (bridged pairs for PCIe cards, NVSwitch for SXM), its traffic timed as that board
    exposes it; a card no bridge links, at a linked board's efficiency with the gradient
    traffic hidden (`_unbridgeable_p5_share`). P8: the same serving without
    the CPU-side latency. Without stated work there is nothing modelled: the key "" then says
    whether the guide's factor may stand in for P1 and P5 (1.0 for training or no workload,
    0.0 for inference, which the guide did not measure).
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
        if code == "P5" and not build.gpu.has_nvlink:
            shares[code] = _unbridgeable_p5_share(build, actual, rules)
            continue
        rest = tuple(other for other in failed_codes if other != code)
        fixed = performance(_without(build, code, rules), workload, rules, 1.0, rest, balanced)
        if fixed is None:
            continue
        if actual.tokens_per_s and fixed.tokens_per_s:
            shares[code] = max(0.0, 1 - actual.tokens_per_s / fixed.tokens_per_s)
        elif actual.time_to_train_s and fixed.time_to_train_s:
            shares[code] = max(0.0, 1 - fixed.time_to_train_s / actual.time_to_train_s)
    return shares


def gpu_seconds_floor(gpu: Gpu, workload: Workload, rules: RuleParams) -> float:
    """Return a lower bound of the GPU-seconds the work takes on any build of this GPU
    (`_seconds_floor`, memoised where the rules can key it)."""
    floor = _seconds_floor if _hashable(rules) else _seconds_floor.__wrapped__
    return floor(gpu, workload, rules)


@lru_cache(maxsize=1024)
def _seconds_floor(gpu: Gpu, workload: Workload, rules: RuleParams) -> float:
    """Return a lower bound of the GPU-seconds the work takes on any build of this GPU.

    Per run in training, per million output tokens in inference; infinite when the figures are
    unknown. A build of N GPUs at a monthly price M then costs at least M / N · floor / 3600 /
    730 (docs/performance.md). Training: the run's FLOPs with selective recomputation at the
    dense peak and the GPU's measured efficiency (a board without NVSwitch only lowers it), no
    bubbles, no communication, no loss.

    Inference: times r, a replica of r GPUs has one GPU's terms of the round, and the
    all-reduces only add, more with every GPU more. More sequences share each step's fixed
    costs, so a GPU serves more with more of them: at most the users (or the batch cap), and
    at most what r GPUs hold beside the weights. So the most a GPU serves, on the best link
    it has, is on a replica of between the fewest GPUs that hold the model with one sequence
    and the fewest that hold every sequence; past 16 sizes, the next size with every sequence
    bounds the rest.
    """
    if workload.mode != Mode.INFER:
        peak = compute_peak(gpu, workload.precision, Phase.TRAINING)
        efficiency = compute_efficiency(gpu, workload.precision, Phase.TRAINING, rules)
        flops = training_flops(workload)
        return flops / (peak * efficiency) if peak > 0 and flops > 0 else math.inf
    peak = compute_peak(gpu, workload.precision, Phase.SERVING)
    if peak <= 0 or gpu.memory_bandwidth_gbs <= 0:
        return math.inf
    sized = served_workload(workload)
    users = workload.concurrent_users
    if users is None and workload.target_tokens_per_s is None:
        users = workload.batch_size
    most = users if users is not None else batch_cap(gpu, rules)
    pcie = max(gbs for gen, gbs in {0: 15.75, **PCIE_X16_GBS}.items() if gen <= gpu.pcie_gen)
    hw = Hardware(
        peak=peak,
        efficiency=compute_efficiency(gpu, workload.precision, Phase.SERVING, rules),
        bandwidth=bandwidth(gpu, rules),
        link_gbs=sustained_gbs(max(gpu.nvlink_gbps / 2, pcie), rules),
        cpu_s=rules.cpu_scheduling_ms / 1000,
    )
    memory = usable_gb(gpu.memory_gb, rules.gpu_memory_usable_fraction)
    one = replace(sized, batch_size=1, gpu_count=None)
    # Sequences are held at their mean context, as `replica_plans` holds them.
    sizing = size_workload(held_workload(one), 1).breakdown
    # `replica_plans` fits at least one sequence; beyond sizing's search, one GPU.
    gpus = fewest = gpus_needed(one, memory) or 1
    staged = workload.parallelism in STAGED  # stages of whole layers, one a GPU
    served = 0.0
    while True:
        held = (gpus * memory - sizing["weights"]) / sizing["kv_cache"]
        sequences = most if gpus >= fewest + 16 else max(1, min(most, math.floor(held)))
        done = serve(Replica(gpus, 1, sequences, stages=gpus if staged else 1), sized, hw)
        served = max(served, done.per_replica / gpus)
        if sequences >= most:
            return 1e6 / served
        gpus += 1


def has_target(workload: Workload) -> bool:
    """Return whether the work has a deadline or a throughput, first-token or per-token
    target."""
    return any(
        value is not None
        for value in (
            workload.deadline_days,
            workload.target_tokens_per_s,
            workload.target_ttft_s,
            workload.target_tpot_s,
        )
    )


def shortfall(result: Performance, workload: Workload) -> float:
    """Return by how much the figures miss the work's deadline or targets (the worst ratio,
    above 1 when missed)."""
    if result.time_to_train_days is not None:
        return result.time_to_train_days / workload.deadline_days
    ratio = 1.0
    if workload.target_tokens_per_s is not None and result.tokens_per_s:
        ratio = workload.target_tokens_per_s / result.tokens_per_s
    if workload.target_ttft_s is not None and result.time_to_first_token_s:
        ratio = max(ratio, result.time_to_first_token_s / workload.target_ttft_s)
    if workload.target_tpot_s is not None and result.time_per_output_token_s:
        ratio = max(ratio, result.time_per_output_token_s / workload.target_tpot_s)
    return ratio


def gpus_for_work(
    workload: Workload,
    gpu: Gpu,
    fewest: int,
    rules: RuleParams,
    max_gpus: int,
    per_node_max: int = 8,
) -> int | None:
    """Return the GPUs (all nodes) that do the work within its deadline or targets, or None.

    Starts from the fewest GPUs that hold the workload and scales by the shortfall, at most
    doubling a step — time falls and throughput grows about in proportion to the GPUs, or
    faster; first-token and per-token latencies fall as more replicas share the users —
    rounding to whole nodes, until the figures on `Cluster.of_gpus` meet the deadline or
    targets, or `max_gpus` is passed. A count that misses by more than a smaller one did (its
    GPUs split into a worse layout) is passed by one board, not scaled from. Without a
    deadline or target the fewest GPUs are the answer.
    """
    if not has_target(workload):
        return fewest
    total = deployable_count(gpu, fewest, per_node_max)  # whole boards before the target
    least_missed = math.inf
    for _step in range(16):
        if total > max_gpus:
            return None
        result = performance(Cluster.of_gpus(gpu, total, rules, per_node_max), workload, rules, 0.0)
        if result is None or result.meets_target:
            return total
        if result.time_to_train_days is not None or result.tokens_per_s:
            missed = shortfall(result, workload)
        elif workload.mode == Mode.INFER and gpu.peak_tflops(workload.precision) > 0:
            missed = 2.0  # no replica of this count holds the model and a sequence: grow
        else:
            return None  # no datasheet figures: the work cannot be timed
        if missed < least_missed:
            least_missed = missed
            # At most double: more GPUs per replica also free memory for more sequences, so
            # throughput can grow faster than the GPUs.
            grown = max(total + 1, min(2 * total, math.ceil(total * missed)))
        else:
            # A count that does worse than a smaller one (31 nodes split no better than
            # pipeline 8 × data 31 under ZeRO-3, where 30 take tensor 2 × pipeline 8): its
            # shortfall says nothing of the next good count, so the next board is tried.
            grown = total + 1
        total = deployable_count(gpu, grown, per_node_max)
    return None
