"""The `shape` check: GPUs per node and the model replica are a shape that is deployed.

The rules are `engine/shapes.py`'s, shared with the recommender. The check warns and never
rejects (api.md): an odd shape runs, but no datacenter racks it or no serving engine splits a
model over it. Its fix is a shape the same functions accept, so offering it is safe.
"""

from __future__ import annotations

from configurator.engine import catalogue
from configurator.engine.build import STAGED, Build, FormFactor, Workload
from configurator.engine.changes import Change, field_message
from configurator.engine.findings import Finding, not_applicable, num, passed, warned
from configurator.engine.messages import (
    Message,
    _,
    counted_gpus,
    counted_replicas,
    counted_sequences,
    ngettext,
)
from configurator.engine.pcie import even_split
from configurator.engine.performance import held_workload, performance
from configurator.engine.registry import REGISTRY, CheckKind
from configurator.engine.rules import RuleParams
from configurator.engine.shapes import (
    HGX_BOARD_SIZES,
    Deployment,
    Replicas,
    data_parallel,
    inference_deployment,
    inference_replicas,
    known_heads,
    node_sizes,
    replica_gb,
    replica_sizes,
    served_replicas,
    weights_gb,
)
from configurator.engine.sizing import usable_gb


def _listed(sizes: tuple[int, ...]) -> str:
    words = [str(size) for size in sizes]
    if len(words) == 1:
        return words[0]
    return _("%(first)s or %(last)s", first=", ".join(words[:-1]), last=words[-1])


def _deployment_text(plan: Deployment, gpu_name: str) -> Message:
    where = str(plan.per_node)
    if plan.nodes > 1:
        where = _("%(nodes)s nodes × %(per_node)s", nodes=plan.nodes, per_node=plan.per_node)
    text = _("%(where)s × %(gpu)s", where=where, gpu=gpu_name)
    if plan.replicas is not None:
        replicas = plan.replicas
        text = _(
            "%(text)s as %(replicas)s of %(gpus)s, %(sequences)s each",
            text=text, replicas=counted_replicas(replicas.count), gpus=counted_gpus(replicas.size),
            sequences=counted_sequences(replicas.batch),
        )  # fmt: skip
    return text


def _node_change(build: Build, per_node: int, nodes: int | None = None) -> Change:
    """Return the change to `per_node` GPUs a node, split evenly (and to `nodes` nodes)."""
    more = {"nodes": nodes} if nodes is not None and nodes != build.nodes else {}
    split = even_split(per_node, build.cpu_count)
    return Change.of(gpu_count=per_node, gpus_per_socket=split, **more)


def _inference_fix(
    build: Build, workload: Workload, sizes: tuple[int, ...], usable: float, rules: RuleParams
) -> tuple[Message, Change | None]:
    """Propose the fewest GPUs in a deployable shape that serve the workload, or say none do."""
    reach = tuple(size for size in sizes if size <= max(build.gpu_count, max(sizes)))
    plan = inference_deployment(
        workload, reach, usable, max(build.nodes, rules.recommend_max_nodes)
    )
    if plan is None:
        fix = _(
            "use a GPU with more memory: no deployable shape of %(gpu)s serves it",
            gpu=build.gpu.name,
        )
        return fix, None
    change = _node_change(build, plan.per_node, plan.nodes)
    fix = _(
        "serve it with %(deployment)s; %(split)s",
        deployment=_deployment_text(plan, build.gpu.name),
        split=field_message("gpus_per_socket", change["gpus_per_socket"]),
    )
    return fix, change


def timed_replicas(build: Build, workload: Workload, rules: RuleParams) -> Replicas | None:
    """Return the replicas inference with an amount of work is timed on (docs/performance.md),
    so the check describes the deployment the figures, the recommender's `replicas` and its
    why describe; None for untimed work."""
    if not workload.has_work:
        return None
    work = performance(build, workload, rules, 0.0)
    if work is None or work.served is None:
        return None
    return served_replicas(work.served, build.gpu_count)


def deployable_shape(build: Build, workload: Workload | None, rules: RuleParams) -> Finding:
    """Shape: warn when a node's GPUs or a model replica are a shape no datacenter deploys."""
    per_node, nodes = build.gpu_count, build.nodes
    total = per_node * nodes
    switch = build.pcie_switch_uplinks > 0 and build.gpu.form_factor is FormFactor.PCIE
    sizes = node_sizes(build.gpu, pcie_switch=switch)
    numbers: dict[str, float | int] = {"gpus_per_node": per_node, "nodes": nodes}
    if per_node < 1:
        return not_applicable("shape", _("no GPUs in the node"), numbers)
    gpus = f"{per_node} × {build.gpu.name}"
    if build.gpu.form_factor is FormFactor.SXM and per_node not in HGX_BOARD_SIZES:
        board = min((size for size in HGX_BOARD_SIZES if size >= per_node), default=8)
        detail = _(
            "%(gpus)s SXM modules in a node; an HGX board holds %(sizes)s",
            gpus=gpus, sizes=_listed(HGX_BOARD_SIZES),
        )  # fmt: skip
        change = _node_change(build, board)
        fix = _("fill a whole board: %(change)s", change=change.message())
        return warned("shape", detail, fix, numbers, change)
    if per_node not in sizes:
        if switch:
            detail = _(
                "%(per_node)s GPUs per node; a node carries %(sizes)s GPUs on a PCIe-switch board",
                per_node=per_node, sizes=_listed(sizes),
            )  # fmt: skip
        else:
            detail = _(
                "%(per_node)s GPUs per node; a node carries %(sizes)s GPUs "
                "(10 only on a PCIe-switch board)",
                per_node=per_node, sizes=_listed(sizes),
            )  # fmt: skip
        if workload is not None and not data_parallel(workload):
            usable = usable_gb(build.gpu.memory_gb, rules.gpu_memory_usable_fraction)
            fix, change = _inference_fix(build, workload, sizes, usable, rules)
        else:
            # The larger shape first: a fix adds GPUs rather than take the customer's away.
            lower = max(size for size in sizes if size < per_node)
            upper = [size for size in sizes if size > per_node]
            change = _node_change(build, upper[0] if upper else lower)
            fix = change.message()
            if upper:
                fix = _("%(change)s (or %(lower)s GPUs per node)", change=fix, lower=lower)
        return warned("shape", detail, fix, numbers, change)
    if workload is None:
        return passed("shape", _("%(gpus)s per node: a deployed node size", gpus=gpus), numbers)
    if data_parallel(workload):
        detail = _(
            "%(gpus)s per node, sharded data parallel over %(total)s: "
            "no tensor-parallel group to split",
            gpus=gpus, total=counted_gpus(total),
        )  # fmt: skip
        return passed("shape", detail, numbers)
    usable = usable_gb(build.gpu.memory_gb, rules.gpu_memory_usable_fraction)
    plan, sized = timed_replicas(build, workload, rules), held_workload(workload)
    if plan is None:
        plan, sized = inference_replicas(workload, total, per_node, usable), workload
    heads = known_heads(workload)
    if plan is not None:
        per_gpu = replica_gb(sized, plan.size, plan.batch, usable)
        numbers.update(replica_gpus=plan.size, replicas=plan.count, per_gpu_gb=round(per_gpu, 2))
        layers_split = workload.parallelism in STAGED and plan.size > 1
        values = {
            "replicas": counted_replicas(plan.count), "gpus": counted_gpus(plan.size),
            "sequences": counted_sequences(plan.batch), "per_gpu": num(per_gpu),
            "usable": num(usable),
        }  # fmt: skip
        if layers_split:
            detail = _(
                "%(replicas)s of %(gpus)s (layers split), %(sequences)s each: "
                "%(per_gpu)s GB per GPU of %(usable)s GB usable",
                **values,
            )
        else:
            detail = _(
                "%(replicas)s of %(gpus)s (tensor parallel), %(sequences)s each: "
                "%(per_gpu)s GB per GPU of %(usable)s GB usable",
                **values,
            )
        if plan.nodes_per_replica > 1:
            detail = _(
                "%(detail)s; each replica spans %(nodes)s nodes (the weights exceed one)",
                detail=detail, nodes=plan.nodes_per_replica,
            )  # fmt: skip
        if heads and not layers_split:
            detail = _(
                "%(detail)s; %(heads)s attention heads, %(kv)s KV heads split evenly",
                detail=detail, heads=heads[0], kv=heads[1],
            )  # fmt: skip
        if workload.replica_gpus is not None and workload.replica_gpus != plan.size:
            detail = ngettext(
                "%(detail)s; replicas of %(n)s GPU, as the engine was to be started, cannot "
                "serve on this build",
                "%(detail)s; replicas of %(n)s GPUs, as the engine was to be started, cannot "
                "serve on this build",
                workload.replica_gpus, detail=detail,
            )  # fmt: skip
        return passed("shape", detail, numbers)
    groups = _listed(replica_sizes(workload))
    if heads:
        detail = _(
            "no replica of %(groups)s GPUs that splits the %(heads)s attention heads "
            "(%(kv)s KV heads) fits %(gpus)s per node within %(usable)s GB usable per GPU",
            groups=groups, heads=heads[0], kv=heads[1], gpus=gpus, usable=num(usable),
        )  # fmt: skip
    else:
        detail = _(
            "no replica of %(groups)s GPUs fits %(gpus)s per node within %(usable)s GB usable "
            "per GPU",
            groups=groups, gpus=gpus, usable=num(usable),
        )  # fmt: skip
    if nodes > 1 and weights_gb(workload) <= per_node * usable:
        detail = _(
            "%(detail)s; one model split over %(nodes)s nodes although its weights "
            "(%(weights)s GB) fit one node",
            detail=detail, nodes=nodes, weights=num(weights_gb(workload)),
        )  # fmt: skip
    fix, change = _inference_fix(build, workload, sizes, usable, rules)
    return warned("shape", detail, fix, numbers, change)


REGISTRY.add("shape", deployable_shape, catalogue.SHAPE, kind=CheckKind.WORKLOAD)
