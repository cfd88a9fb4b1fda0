"""Why a build serves the workload, and why no build does, in plain words with numbers."""

from __future__ import annotations

from collections import Counter

from configurator.engine.build import Gpu, Mode, Workload
from configurator.engine.findings import num
from configurator.engine.memory import memory_requirement
from configurator.engine.power import power_budget
from configurator.engine.recommend.results import Recommendation
from configurator.engine.rules import RuleParams
from configurator.engine.sizing import gpus_needed, size_workload


def explain(item: Recommendation, workload: Workload, rules: RuleParams, scenarios) -> str:
    """Say in plain words why this build serves the workload."""
    build = item.build
    total = build.gpu_count * build.nodes
    sizing = size_workload(workload, total, build.gpu.memory_gb)
    where = f"{build.nodes} nodes × {build.gpu_count}" if build.nodes > 1 else f"{build.gpu_count}"
    parts = [
        f"{where} × {build.gpu.name} hold the {num(workload.model_params_b)}B {workload.mode} "
        f"job: {num(sizing.per_gpu_gb)} of {build.gpu.memory_gb} GB per GPU"
        + ("" if workload.gpu_count else f", the fewest {build.gpu.name} that fit")
        + "."
    ]
    accumulation = [note for note in sizing.assumptions if note.startswith("gradient accumulation")]
    if accumulation:
        parts.append(accumulation[0][0].upper() + accumulation[0][1:] + ".")
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
        share = _count(rules.gpus_per_nic, "GPU")
        parts.append(
            f"{build.nics} × {item.nic.name} per node (one per {share}) carry the traffic "
            "between nodes."
        )
    if item.scenario:
        scenario = next((s for s in scenarios if s.code == item.scenario), None)
        if scenario:
            pairing = f"{scenario.code} ({scenario.name})"
            parts.append(f"The guide's standard pairing {pairing}: {scenario.result}.")
    parts.append(f"Balance {num(item.evaluation.balance.overall)}.")
    return " ".join(parts)


def _count(n: int, noun: str) -> str:
    return f"{n} {noun}" if n == 1 else f"{n} {noun}s"


def no_build_reason(
    workload: Workload,
    gpus: list[Gpu],
    totals: dict[str, int],
    max_gpus: int,
    max_nodes: int,
    rejections: Counter,
) -> str:
    """Say, with numbers, why no build serves the workload."""
    if not gpus:
        return (
            f"The catalog offers no GPU {workload.gpu!r}."
            if workload.gpu
            else "The catalog offers no GPU."
        )
    if not totals:
        largest = max(gpus, key=lambda g: g.memory_gb)
        count = workload.gpu_count or max_gpus
        if not count:
            return "The catalog offers no platform for these GPUs."
        sizing = size_workload(workload, count, largest.memory_gb)
        said = (
            f"{num(workload.model_params_b)}B {workload.mode} needs {num(sizing.per_gpu_gb)} GB "
            f"per GPU over {count} GPUs ({num(sizing.total_gb)} GB in all); the largest GPU "
            f"offered, the {largest.name}, has {largest.memory_gb} GB"
        )
        if not workload.gpu_count:
            return f"{said}, and {max_nodes} nodes ({count} GPUs) is the most a build spans."
        fewest = gpus_needed(workload, largest.memory_gb, max_gpus=max_gpus or count)
        if fewest is None:
            return f"{said}."
        return f"{said}: it takes at least {fewest} × {largest.name}."
    if not rejections:
        names = ", ".join(sorted(g.name for g in gpus if g.slug in totals))
        return f"No offered platform and CPU take the GPUs that fit ({names})."
    common = ", ".join(f"{code} ({count}×)" for code, count in rejections.most_common(3))
    return f"Every candidate build was rejected by the rules; most often: {common}."
