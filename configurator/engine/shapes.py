"""Deployable shapes: how many GPUs a node and a model replica may have (domain.md §6).

What datacenters rack and serving engines run, as pure functions the recommender and the
`shape` check share:

- One model replica spans 1, 2, 4 or 8 GPUs (`REPLICA_SIZES`): tensor parallelism splits
  every layer over a power of two that divides the model's attention heads. KV heads are
  divided too, or replicated when there are fewer of them than GPUs in the group, as vLLM
  and TensorRT-LLM do (Llama-2-70B's 8 KV heads serve a group of 8; Falcon-7B's 71
  attention heads split over no group larger than one). The heads are checked when the
  shape is known: given in the workload, or the published model the size names
  (`sizing.KNOWN_SHAPES`); a shape derived from the parameter count alone is a guess and is
  not held against a group.
- A node carries 1, 2, 4 or 8 GPUs; 10 only on a PCIe-switch board running data parallel
  (training with sharded data parallelism, or inference replicas of 1 or 2 GPUs), the 5 + 5
  boxes vendors sell. SXM modules come on whole HGX boards of 4 or 8 (`HGX_BOARD_SIZES`).
- Inference scales out by whole replicas, each serving its share of the concurrent
  sequences. One replica spans several nodes (pipeline stages of a node each) only when the
  model's weights alone exceed one node's usable memory.
- Training runs sharded data parallel (ZeRO-3/FSDP, as `sizing` reckons it) over every GPU
  of every node: any allowed node size serves it, and no tensor-parallel group is formed.

"Fits" means the per-GPU need of `sizing` within the usable share of the card's memory
(`gpu_memory_usable_fraction`, default 0.90: serving engines never plan a card full).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, replace
from functools import partial

from configurator.engine.build import STAGED, FormFactor, Gpu, Mode, Workload
from configurator.engine.sizing import (
    KNOWN_SHAPE_TOLERANCE,
    KNOWN_SHAPES,
    model_shape,
    size_workload,
)

REPLICA_SIZES: tuple[int, ...] = (1, 2, 4, 8)
HGX_BOARD_SIZES: tuple[int, ...] = (4, 8)
SWITCH_NODE_GPUS = 10  # a dual-root PCIe-switch box, 5 + 5, running data parallel


@dataclass(frozen=True, slots=True)
class Deployment:
    """Identical nodes of `per_node` GPUs; for inference, the replicas they hold."""

    nodes: int
    per_node: int
    replicas: Replicas | None = None

    @property
    def total(self) -> int:
        return self.nodes * self.per_node

    @property
    def spans_nodes(self) -> bool:
        """Return whether one inference replica spans several nodes."""
        return self.replicas is not None and self.replicas.nodes_per_replica > 1


@dataclass(frozen=True, slots=True)
class Replicas:
    """How a build serves inference: `count` replicas of `size` GPUs each.

    `nodes_per_replica` > 1 when one replica's weights exceed a node (pipeline over nodes).
    `batch` is the concurrent sequences each replica serves.
    """

    size: int
    count: int
    batch: int
    nodes_per_replica: int = 1

    @property
    def gpus(self) -> int:
        return self.size * self.count


def served_replicas(served, per_node: int) -> Replicas:
    """Return the replicas the performance model timed (`performance.Replica`: gpus, count,
    sequences) as a deployment's: a replica larger than a node spans whole nodes."""
    return Replicas(
        served.gpus, served.count, served.sequences, max(1, math.ceil(served.gpus / per_node))
    )


def data_parallel(workload: Workload | None) -> bool:
    """Return whether the workload runs sharded data parallel (training and fine-tuning)."""
    return workload is not None and workload.mode in (Mode.TRAIN, Mode.FINETUNE)


def known_heads(workload: Workload) -> tuple[int, int] | None:
    """Return (attention heads, KV heads) when the model's shape is known, else None."""
    given = (
        workload.layers,
        workload.hidden_size,
        workload.attention_heads,
        workload.kv_heads,
        workload.vocab_size,
    )
    if any(given) and not workload.attention_heads:
        return None
    nominal = min(KNOWN_SHAPES, key=lambda row: abs(row[0] - workload.model_params_b) / row[0])
    published = abs(nominal[0] - workload.model_params_b) <= KNOWN_SHAPE_TOLERANCE * nominal[0]
    if workload.attention_heads or published:
        # As sizing reckons it: the attention kind given (mha: a KV head per head) applies.
        shape = model_shape(workload)
        return shape.attention_heads, shape.kv_heads
    return None


def splits_heads(size: int, heads: int, kv_heads: int) -> bool:
    """Return whether a tensor-parallel group of `size` GPUs splits the heads evenly."""
    return heads % size == 0 and (kv_heads % size == 0 or size % kv_heads == 0)


def tensor_parallel_sizes(workload: Workload) -> tuple[int, ...]:
    """Return the replica sizes (1, 2, 4, 8) whose tensor-parallel group splits the heads."""
    heads = known_heads(workload)
    if heads is None:
        return REPLICA_SIZES
    return tuple(size for size in REPLICA_SIZES if splits_heads(size, *heads))


def replica_sizes(workload: Workload) -> tuple[int, ...]:
    """Return the GPUs a serving replica may span (1, 2, 4, 8): those whose tensor-parallel
    group splits the heads, or any of them when the engine splits whole layers over its GPUs
    (`STAGED`: pipeline stages, llama.cpp's layer split)."""
    if workload.parallelism in STAGED:
        return REPLICA_SIZES
    return tensor_parallel_sizes(workload)


def pinned_first(workload: Workload, sizes: tuple[int, ...]) -> tuple[int, ...]:
    """Return the replica sizes with the one the engine is started with (`replica_gpus`)
    first, when it is one of them."""
    pin = workload.replica_gpus
    return (pin, *(size for size in sizes if size != pin)) if pin in sizes else sizes


def node_sizes(gpu: Gpu, *, pcie_switch: bool) -> tuple[int, ...]:
    """Return the GPU counts a node of this GPU may carry, smallest first.

    A 10-GPU node runs data parallel only: training, or inference replicas of 1 or 2 GPUs
    (`inference_replicas` asks every replica size to divide the node).
    """
    if gpu.form_factor is FormFactor.SXM:
        return HGX_BOARD_SIZES
    return (*REPLICA_SIZES, SWITCH_NODE_GPUS) if pcie_switch else REPLICA_SIZES


def deployable_count(gpu: Gpu, count: int, per_node_max: int = 8) -> int:
    """Return the fewest GPUs, at least `count`, that fill deployable nodes of this GPU.

    A node carries 1, 2, 4 or 8 GPUs, an SXM part a whole HGX board of 4 or 8; past one node,
    whole nodes of `per_node_max`. Six H100 SXM are no build: eight are (one board); the
    search then lays the count out on the boards its platforms carry (`recommend/layouts.py`).
    """
    count = max(1, count)
    sizes = HGX_BOARD_SIZES if gpu.form_factor is FormFactor.SXM else REPLICA_SIZES
    single = [size for size in sizes if count <= size <= per_node_max]
    if single:
        return single[0]
    return math.ceil(count / per_node_max) * per_node_max


def replica_gb(workload: Workload, size: int, batch: int, usable: float) -> float:
    """Return the per-GPU need of one replica of `size` GPUs serving `batch` sequences."""
    one = replace(workload, batch_size=batch, gpu_count=None)
    return size_workload(one, gpu_count=size, gpu_memory_gb=usable).per_gpu_gb


def weights_gb(workload: Workload) -> float:
    """Return the model's weights in GB, the part a replica cannot split over sequences."""
    return size_workload(replace(workload, gpu_count=None), gpu_count=1).breakdown["weights"]


def fewest_replicas(workload: Workload, size: int, usable: float, most: int) -> int | None:
    """Return the fewest replicas of `size` GPUs that serve the workload, at most `most`.

    Each replica serves ⌈batch / replicas⌉ sequences; the need falls as replicas grow, so a
    binary search finds the fewest.
    """
    batch = workload.batch_size
    most = max(1, min(most, batch))
    if replica_gb(workload, size, math.ceil(batch / most), usable) > usable:
        return None
    low, high = 1, most
    while low < high:
        middle = (low + high) // 2
        if replica_gb(workload, size, math.ceil(batch / middle), usable) <= usable:
            high = middle
        else:
            low = middle + 1
    return low


def _fewest_of_size(workload: Workload, usable: float, most: int, size: int) -> int | None:
    return fewest_replicas(workload, size, usable, most)


def inference_replicas(
    workload: Workload, total: int, per_node: int, usable: float
) -> Replicas | None:
    """Return how `total` GPUs, `per_node` in each node, serve inference as whole replicas.

    The smallest replica that splits the heads and fits its share of the sequences wins. A
    replica spans nodes (whole nodes, `per_node` a group size) only when the weights alone
    exceed one node's usable memory; otherwise one that does not fit a node is no plan.
    """
    batch = workload.batch_size
    sizes = replica_sizes(workload)
    for size in pinned_first(workload, sizes):
        if size > per_node or per_node % size or total % size:
            continue
        count = total // size
        share = math.ceil(batch / count)
        if replica_gb(workload, size, share, usable) <= usable:
            return Replicas(size, count, share)
    nodes = total // per_node
    if per_node not in sizes or weights_gb(workload) <= per_node * usable:
        return None
    for span in range(2, nodes + 1):
        if nodes % span:
            continue
        size, count = per_node * span, nodes // span
        share = math.ceil(batch / count)
        if replica_gb(workload, size, share, usable) <= usable:
            return Replicas(size, count, share, span)
    return None


def inference_deployment(
    workload: Workload,
    sizes: tuple[int, ...],
    usable: float,
    max_nodes: int,
    *,
    total: int | None = None,
    fewest: Callable[[int], int | None] | None = None,
) -> Deployment | None:
    """Return the fewest nodes and GPUs in allowed node sizes that serve inference as replicas.

    `sizes` are the node sizes a platform takes; `total` (GPUs asked for) fixes the count.
    The fewest nodes win (a replica per node where one node's cards cannot hold more),
    then the fewest GPUs, then the smaller replica. A replica spans nodes only
    when the weights alone exceed the largest node's usable memory. `fewest(size)` gives the
    fewest replicas of that size (default `fewest_replicas`; a search passes a memoised one).
    """
    if total is not None:
        for per_node in sorted(sizes, reverse=True):
            nodes = total // per_node
            if total % per_node or nodes > max_nodes:
                continue
            replicas = inference_replicas(workload, total, per_node, usable)
            if replicas is not None:
                return Deployment(nodes, per_node, replicas)
        return None
    batch = workload.batch_size
    if fewest is None:
        fewest = partial(_fewest_of_size, workload, usable, batch)

    def best_of(groups: tuple[int, ...]) -> Deployment | None:
        best: tuple[tuple[int, int, int], Deployment] | None = None
        for size in groups:
            fitting = [n for n in sizes if n >= size and n % size == 0]
            count = fewest(size) if fitting else None
            if count is None:
                continue
            for per_node in fitting:
                nodes = math.ceil(count * size / per_node)
                if nodes > max_nodes:
                    continue
                replicas = (nodes * per_node) // size
                plan = Deployment(
                    nodes, per_node, Replicas(size, replicas, math.ceil(batch / replicas))
                )
                key = (nodes, plan.total, size)
                if best is None or key < best[0]:
                    best = (key, plan)
        return best[1] if best is not None else None

    # The size the engine is started with, when it serves; otherwise the best of them all.
    groups = replica_sizes(workload)
    pinned = best_of((workload.replica_gpus,)) if workload.replica_gpus in groups else None
    plan = pinned or best_of(groups)
    if plan is not None:
        return plan
    return _spanning_deployment(workload, sizes, usable, max_nodes)


def _spanning_deployment(
    workload: Workload, sizes: tuple[int, ...], usable: float, max_nodes: int
) -> Deployment | None:
    """Return replicas of several whole nodes, when the weights alone exceed one node."""
    groups = [size for size in sizes if size in replica_sizes(workload)]
    if not groups or weights_gb(workload) <= max(sizes) * usable:
        return None
    per_node = max(groups)
    for span in range(2, max_nodes + 1):
        size = per_node * span
        count = fewest_replicas(workload, size, usable, max_nodes // span)
        if count is not None:
            share = math.ceil(workload.batch_size / count)
            return Deployment(span * count, per_node, Replicas(size, count, share, span))
    return None


def training_deployment(
    needed: int,
    sizes: tuple[int, ...],
    fabric_sizes: tuple[int, ...],
    max_nodes: int,
    *,
    total: int | None = None,
) -> Deployment | None:
    """Return nodes for sharded data-parallel training on at least `needed` GPUs.

    One node when an allowed size holds them (the smallest that does); else the fewest nodes
    of the largest size whose NICs the platform takes (`fabric_sizes`). `total` (GPUs asked
    for) must be one allowed node, or nodes of a size in `fabric_sizes`.
    """
    if total is not None:
        if total in sizes:
            return Deployment(1, total)
        for per_node in sorted(fabric_sizes, reverse=True):
            if total % per_node == 0 and total // per_node <= max_nodes:
                return Deployment(total // per_node, per_node)
        return None
    single = [size for size in sizes if size >= needed]
    if single:
        return Deployment(1, min(single))
    if not fabric_sizes:
        return None
    per_node = max(fabric_sizes)
    nodes = math.ceil(needed / per_node)
    return Deployment(nodes, per_node) if nodes <= max_nodes else None
