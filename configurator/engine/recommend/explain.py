"""Why a build serves the workload, and why no build does, in plain words with numbers."""

from __future__ import annotations

from dataclasses import replace
from enum import StrEnum
from typing import TYPE_CHECKING

from configurator.engine.build import Gpu, Mode, Workload
from configurator.engine.findings import num
from configurator.engine.memory import memory_requirement
from configurator.engine.performance import Cluster, performance
from configurator.engine.power import power_budget
from configurator.engine.recommend.results import Recommendation
from configurator.engine.registry import REGISTRY, CheckKind
from configurator.engine.rules import RuleParams
from configurator.engine.shapes import data_parallel, replica_gb
from configurator.engine.sizing import size_workload, usable_gb

if TYPE_CHECKING:
    from configurator.engine.catalog import Catalog
    from configurator.engine.recommend.search import Search


class Rejection(StrEnum):
    """Why the search dropped a candidate before the rules judged it, in the user's words."""

    SHAPE = "no deployable layout of the GPUs on the platforms that take them"
    MEMORY_SLOTS = "the RAM the rules ask for does not fit the platform's DIMM slots"
    PSU_BAYS = "no redundant PSU set that the platform's bays take covers the power need"
    BALANCE = "balance score below the threshold"
    WORK = "misses the deadline or throughput target"


def _count(n: int, noun: str) -> str:
    return f"{n} {noun}" if n == 1 else f"{n} {noun}s"


def _usable(gpu: Gpu, rules: RuleParams) -> str:
    fraction = rules.gpu_memory_usable_fraction
    usable = usable_gb(gpu.memory_gb, fraction)
    return f"{num(usable)} GB usable ({fraction:.0%} of the card's {gpu.memory_gb} GiB)"


def _capacity_line(item: Recommendation, workload: Workload, rules: RuleParams) -> str:
    build = item.build
    total = build.gpu_count * build.nodes
    where = (
        f"{build.nodes} nodes × {build.gpu_count} {build.gpu.name} ({total} GPUs)"
        if build.nodes > 1
        else f"{build.gpu_count} × {build.gpu.name}"
    )
    job = f"{num(workload.model_params_b)}B {workload.mode}"
    usable = usable_gb(build.gpu.memory_gb, rules.gpu_memory_usable_fraction)
    replicas = item.replicas
    if replicas is not None:
        per_gpu = replica_gb(workload, replicas.size, replicas.batch, usable)
        copies = f"{_count(replicas.count, 'replica')} of {_count(replicas.size, 'GPU')}"
        if replicas.nodes_per_replica > 1:
            copies += f" spanning {replicas.nodes_per_replica} nodes (the weights exceed one)"
        each = " each" if replicas.count > 1 else ""
        return (
            f"{where} serve the {job} job as {copies}, "
            f"{_count(replicas.batch, 'sequence')}{each}: {num(per_gpu)} GB per GPU of "
            f"{_usable(build.gpu, rules)}."
        )
    sizing = size_workload(workload, total, usable)
    fewest = "" if workload.gpu_count else f", the fewest {build.gpu.name} in whole nodes"
    line = (
        f"{where} hold the {job} job: {num(sizing.per_gpu_gb)} GB per GPU of "
        f"{_usable(build.gpu, rules)}{fewest}."
    )
    accumulation = [note for note in sizing.assumptions if note.startswith("gradient accumulation")]
    if accumulation:
        line += " " + accumulation[0][0].upper() + accumulation[0][1:] + "."
    return line


def explain(item: Recommendation, workload: Workload, rules: RuleParams, scenarios) -> str:
    """Say in plain words why this build serves the workload."""
    build = item.build
    parts = [_capacity_line(item, workload, rules)]
    threads = build.threads / build.gpu_count
    cpu_line = f"{build.cpu_count} × {build.cpu.name} give {num(threads)} threads per GPU"
    if workload.mode == Mode.INFER and workload.batch_size <= rules.small_batch_max:
        cpu_line += f" at a {num(build.cpu.base_ghz)} GHz base clock for small-batch scheduling"
    parts.append(cpu_line + ".")
    need = memory_requirement(build.gpu_count, build.gpu.memory_gb, rules)
    memory = next(line for line in item.bom if line.kind == "memory")
    parts.append(
        f"{build.memory_gb} GB ECC RAM ({memory.qty} × {memory.name}) covers the "
        f"{num(need.required_gb)} GB the rules ask for {_count(build.gpu_count, 'GPU')}."
    )
    power = power_budget(build, rules)
    psu = next(line for line in item.bom if line.kind == "psu")
    parts.append(
        f"{psu.qty} × {psu.name} ({item.psu_scheme}) give {build.psu_watts} W usable for a "
        f"{power.required_w} W need."
    )
    if item.nic:
        per_nic = max(1, round(build.gpu_count / build.nics))
        share = "GPU" if per_nic == 1 else f"{per_nic} GPUs"
        traffic = "gradients" if data_parallel(workload) else "pipeline stages"
        parts.append(
            f"{build.nics} × {item.nic.name} ({item.nic.speed_gbps} Gb/s) per node, one per "
            f"{share}, carry the {traffic} between nodes."
        )
    elif build.nodes > 1:
        parts.append("Each replica sits inside one node: the nodes exchange no model traffic.")
    if item.tier:
        parts.append("No NVSwitch board serves this GPU: ranked after NVSwitch nodes.")
    if item.scenario:
        scenario = next((s for s in scenarios if s.code == item.scenario), None)
        if scenario:
            pairing = f"{scenario.code} ({scenario.name})"
            parts.append(f"The guide's standard pairing {pairing}: {scenario.result}.")
    parts.append(f"Balance {num(item.evaluation.balance.overall)}.")
    if item.performance is not None:
        parts.insert(0, work_line(item))
    return " ".join(parts)


def work_line(item: Recommendation) -> str:
    """Say what the work takes and costs on this build: "23 days on 4 × 8 H100; ¥… per run"."""
    build, work = item.build, item.performance
    where = (
        f"{build.nodes} × {build.gpu_count} {build.gpu.name}"
        if build.nodes > 1
        else f"{build.gpu_count} × {build.gpu.name}"
    )
    if work.time_to_train_days is not None:
        line = f"{num(work.time_to_train_days)} days on {where}; ¥{work.cost_per_run:,.0f} per run"
    elif work.tokens_per_s is not None:
        terms = work.terms
        served = (
            f"{_count(int(terms['replicas']), 'replica')} of {int(terms['replica_gpus'])} GPUs, "
            f"{int(terms['sequences'])} sequences in flight each"
        )
        line = (
            f"{work.tokens_per_s:,.0f} output tokens/s on {where} ({served}), first token in "
            f"{work.time_to_first_token_s:.2f} s; ¥{work.cost_per_million_tokens:,.2f} per "
            "million output tokens"
        )
    else:
        return "No datasheet throughput for this GPU: the work is not timed."
    return line + "."


def _rejection_words(code: str) -> str:
    """Return a rejection in the user's words: the check's title, a pitfall's code beside it."""
    if code in REGISTRY:
        registered = REGISTRY.get(code)
        title = registered.entry.title
        return f"{title} ({code})" if registered.kind is CheckKind.PITFALL else title
    return str(code)


def _deployable_fewest(
    workload: Workload, gpu: Gpu, search: Search, catalog: Catalog
) -> str | None:
    """Return the fewest GPUs of this type in deployable nodes, e.g. `24 × H100 (3 nodes of 8)`.

    The count asked for is dropped and the search's own layout finds the answer, so what
    the reason proposes is a build the recommender would return.
    """
    from configurator.engine.recommend.search import Search, fewest_gpus

    free = replace(workload, gpu_count=None)
    probe = Search(free, catalog, search.rules, search.limit, search.max_nodes)
    fewest = fewest_gpus(free, gpu, probe.usable(gpu), 1024)
    if fewest is None:
        return None
    probe.needed[gpu.slug] = fewest
    plans = [probe.plan(gpu, p) for p in catalog.platforms if p.takes_gpu(gpu)]
    plans = [plan for plan in plans if plan is not None]
    if not plans:
        return f"{fewest} × {gpu.name}"
    plan = min(plans, key=lambda plan: (plan.total, plan.nodes))
    if plan.nodes == 1:
        return f"{plan.total} × {gpu.name}"
    return f"{plan.total} × {gpu.name} ({plan.nodes} nodes of {plan.per_node})"


def no_build_reason(
    workload: Workload, gpus: list[Gpu], search: Search, max_gpus: int, catalog: Catalog
) -> str:
    """Say, with numbers, why no build serves the workload."""
    rules = search.rules
    if not gpus:
        return (
            f"The catalog offers no GPU {workload.gpu!r}."
            if workload.gpu
            else "The catalog offers no GPU."
        )
    if search.by_work and not search.needed and search.rejections.get(Rejection.WORK):
        return work_reason(workload, gpus, rules, max_gpus)
    if not search.needed:
        largest = max(gpus, key=lambda g: g.memory_gb)
        count = workload.gpu_count or max_gpus
        if not count:
            return "The catalog offers no platform for these GPUs."
        usable = usable_gb(largest.memory_gb, rules.gpu_memory_usable_fraction)
        sizing = size_workload(workload, count, usable)
        said = (
            f"{num(workload.model_params_b)}B {workload.mode} needs {num(sizing.per_gpu_gb)} GB "
            f"per GPU over {count} GPUs ({num(sizing.total_gb)} GB in all); the largest GPU "
            f"offered, the {largest.name}, has {_usable(largest, rules)}"
        )
        if not workload.gpu_count:
            nodes = search.max_nodes if max_gpus % search.max_nodes == 0 else 1
            spans = (
                f"{nodes} nodes of {max_gpus // nodes} GPUs ({max_gpus} GPUs)"
                if nodes > 1
                else f"one node of {max_gpus} GPUs"
            )
            return f"{said}, and {spans} is the most a build spans."
        fewest = _deployable_fewest(workload, largest, search, catalog)
        if fewest is None:
            return f"{said}."
        return f"{said}: it takes at least {fewest}."
    if not search.rejections:
        names = ", ".join(sorted(g.name for g in gpus if g.slug in search.needed))
        return f"No offered platform and CPU take the GPUs that fit ({names})."
    common = "; ".join(
        f"{_rejection_words(code)}: {_count(count, 'candidate')}"
        for code, count in search.rejections.most_common(3)
    )
    return f"Every candidate build was rejected; most often: {common}."


def work_reason(workload: Workload, gpus: list[Gpu], rules: RuleParams, max_gpus: int) -> str:
    """Say that no build within the node limit meets the deadline or target, and the best."""
    best = None
    for gpu in gpus:
        work = performance(Cluster.of_gpus(gpu, max_gpus, rules), workload, rules, 0.0)
        if work is None or (work.time_to_train_days is None and work.tokens_per_s is None):
            continue
        score = (
            work.time_to_train_days if work.time_to_train_days is not None else -(work.tokens_per_s)
        )
        if best is None or score < best[0]:
            best = (score, gpu, work)
    limit = f"{max_gpus} GPUs"
    if workload.deadline_days is not None:
        deadline = num(workload.deadline_days)
        said = f"No build of up to {limit} meets the deadline of {deadline} days"
        if best:
            days = num(best[2].time_to_train_days)
            said += f": the fastest, {max_gpus} × {best[1].name}, takes {days} days"
    else:
        targets = []
        if workload.target_tokens_per_s is not None:
            targets.append(f"{num(workload.target_tokens_per_s)} output tokens/s")
        if workload.target_ttft_s is not None:
            targets.append(f"a first token within {workload.target_ttft_s:g} s")
        said = f"No build of up to {limit} serves the target of " + " and ".join(targets)
        if best:
            said += (
                f": the fastest, {max_gpus} × {best[1].name}, serves {best[2].tokens_per_s:,.0f}"
                f" with a first token in {best[2].time_to_first_token_s:.2f} s"
            )
    return said + "."
