"""The `shape` check: GPUs per node and the model replica are a shape that is deployed.

The rules are `engine/shapes.py`'s, shared with the recommender. The check warns and never
rejects (api.md): an odd shape runs, but no datacenter racks it or no serving engine splits a
model over it. Its fix is a shape the same functions accept, so offering it is safe.
"""

from __future__ import annotations

from configurator.engine import catalogue
from configurator.engine.build import Build, FormFactor, Workload
from configurator.engine.findings import Finding, not_applicable, num, passed, warned
from configurator.engine.registry import REGISTRY, CheckKind
from configurator.engine.rules import RuleParams
from configurator.engine.shapes import (
    HGX_BOARD_SIZES,
    Deployment,
    data_parallel,
    inference_deployment,
    inference_replicas,
    known_heads,
    node_sizes,
    replica_gb,
    tensor_parallel_sizes,
    weights_gb,
)
from configurator.engine.sizing import usable_gb


def _plural(count: int, noun: str) -> str:
    return f"{count} {noun}" if count == 1 else f"{count} {noun}s"


def _listed(sizes: tuple[int, ...]) -> str:
    words = [str(size) for size in sizes]
    return words[0] if len(words) == 1 else f"{', '.join(words[:-1])} or {words[-1]}"


def _deployment_text(plan: Deployment, gpu_name: str) -> str:
    where = f"{plan.nodes} nodes × {plan.per_node}" if plan.nodes > 1 else f"{plan.per_node}"
    text = f"{where} × {gpu_name}"
    if plan.replicas is not None:
        replicas = plan.replicas
        text += (
            f" as {_plural(replicas.count, 'replica')} of {_plural(replicas.size, 'GPU')}, "
            f"{_plural(replicas.batch, 'sequence')} each"
        )
    return text


def _inference_fix(
    build: Build, workload: Workload, sizes: tuple[int, ...], usable: float, rules: RuleParams
) -> str:
    """Propose the fewest GPUs in a deployable shape that serve the workload, or say none do."""
    reach = tuple(size for size in sizes if size <= max(build.gpu_count, max(sizes)))
    plan = inference_deployment(
        workload, reach, usable, max(build.nodes, rules.recommend_max_nodes)
    )
    if plan is None:
        return f"use a GPU with more memory: no deployable shape of {build.gpu.name} serves it"
    return f"serve it with {_deployment_text(plan, build.gpu.name)}"


def deployable_shape(build: Build, workload: Workload | None, rules: RuleParams) -> Finding:
    """Shape: warn when a node's GPUs or a model replica are a shape no datacenter deploys."""
    per_node, nodes = build.gpu_count, build.nodes
    total = per_node * nodes
    switch = build.pcie_switch_uplinks > 0 and build.gpu.form_factor is FormFactor.PCIE
    sizes = node_sizes(build.gpu, pcie_switch=switch)
    numbers: dict[str, float | int] = {"gpus_per_node": per_node, "nodes": nodes}
    if per_node < 1:
        return not_applicable("shape", "no GPUs in the node", numbers)
    gpus = f"{per_node} × {build.gpu.name}"
    if build.gpu.form_factor is FormFactor.SXM and per_node not in HGX_BOARD_SIZES:
        board = min((size for size in HGX_BOARD_SIZES if size >= per_node), default=8)
        return warned(
            "shape",
            f"{gpus} SXM modules in a node; an HGX board holds {_listed(HGX_BOARD_SIZES)}",
            f"fill a whole board: {board} GPUs per node",
            numbers,
        )
    if per_node not in sizes:
        where = "on a PCIe-switch board" if switch else "(10 only on a PCIe-switch board)"
        detail = f"{per_node} GPUs per node; a node carries {_listed(sizes)} GPUs {where}"
        if workload is not None and not data_parallel(workload):
            usable = usable_gb(build.gpu.memory_gb, rules.gpu_memory_usable_fraction)
            fix = _inference_fix(build, workload, sizes, usable, rules)
        else:
            lower = max(size for size in sizes if size < per_node)
            upper = [size for size in sizes if size > per_node]
            fix = f"{upper[0]} or {lower} GPUs per node" if upper else f"{lower} GPUs per node"
        return warned("shape", detail, fix, numbers)
    if workload is None:
        return passed("shape", f"{gpus} per node: a deployed node size", numbers)
    if data_parallel(workload):
        return passed(
            "shape",
            f"{gpus} per node, sharded data parallel over {_plural(total, 'GPU')}: "
            "no tensor-parallel group to split",
            numbers,
        )
    usable = usable_gb(build.gpu.memory_gb, rules.gpu_memory_usable_fraction)
    plan = inference_replicas(workload, total, per_node, usable)
    heads = known_heads(workload)
    if plan is not None:
        per_gpu = replica_gb(workload, plan.size, plan.batch, usable)
        numbers.update(replica_gpus=plan.size, replicas=plan.count, per_gpu_gb=round(per_gpu, 2))
        detail = (
            f"{_plural(plan.count, 'replica')} of {_plural(plan.size, 'GPU')} (tensor parallel), "
            f"{_plural(plan.batch, 'sequence')} each: {num(per_gpu)} GB per GPU of "
            f"{num(usable)} GB usable"
        )
        if plan.nodes_per_replica > 1:
            detail += (
                f"; each replica spans {plan.nodes_per_replica} nodes (the weights exceed one)"
            )
        if heads:
            detail += f"; {heads[0]} attention heads, {heads[1]} KV heads split evenly"
        return passed("shape", detail, numbers)
    groups = _listed(tensor_parallel_sizes(workload))
    split = f" that splits the {heads[0]} attention heads ({heads[1]} KV heads)" if heads else ""
    detail = (
        f"no replica of {groups} GPUs{split} fits {gpus} per node within "
        f"{num(usable)} GB usable per GPU"
    )
    if nodes > 1 and weights_gb(workload) <= per_node * usable:
        detail += (
            f"; one model split over {nodes} nodes although its weights "
            f"({num(weights_gb(workload))} GB) fit one node"
        )
    return warned("shape", detail, _inference_fix(build, workload, sizes, usable, rules), numbers)


REGISTRY.add("shape", deployable_shape, catalogue.SHAPE, kind=CheckKind.WORKLOAD)
