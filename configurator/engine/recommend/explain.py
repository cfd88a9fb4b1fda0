"""Why a build serves the workload, and why no build does, in plain words with numbers.

Every sentence is a `Message` (`engine.messages`): its English text is its `str` value, and the
API and the pages render it again in the request's language.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import replace
from enum import StrEnum
from types import MappingProxyType
from typing import TYPE_CHECKING

from configurator.engine.build import Build, Gpu, Mode, Workload
from configurator.engine.checks import MODE_WORDS
from configurator.engine.findings import num
from configurator.engine.memory import memory_requirement
from configurator.engine.messages import (
    Message,
    _,
    counted_days,
    counted_gpus,
    counted_replicas,
    counted_sequences,
    join,
    ngettext,
    sentences,
)
from configurator.engine.performance import (
    Cluster,
    Performance,
    held_workload,
    performance,
    served_note,
)
from configurator.engine.power import power_budget
from configurator.engine.recommend.results import Recommendation
from configurator.engine.registry import REGISTRY, CheckKind
from configurator.engine.rules import RuleParams
from configurator.engine.shapes import HGX_BOARD_SIZES, data_parallel, replica_gb
from configurator.engine.sizing import size_workload, usable_gb

if TYPE_CHECKING:
    from configurator.engine.catalog import Catalog
    from configurator.engine.recommend.closest import Closest
    from configurator.engine.recommend.search import Search


class Rejection(StrEnum):
    """Why the search dropped a candidate before the rules judged it (a key: never shown)."""

    SHAPE = "layout"
    MEMORY_SLOTS = "memory_slots"
    PSU_BAYS = "psu_bays"
    BALANCE = "balance"
    WORK = "work"
    BUDGET = "budget"


# Each rejection in the user's words.
REJECTION_WORDS: Mapping[Rejection, Message] = MappingProxyType(
    {
        Rejection.SHAPE: _("no deployable layout of the GPUs on the platforms that take them"),
        Rejection.MEMORY_SLOTS: _(
            "the RAM the rules ask for does not fit the platform's DIMM slots"
        ),
        Rejection.PSU_BAYS: _(
            "no redundant PSU set that the platform's bays take covers the power need"
        ),
        Rejection.BALANCE: _("balance score below the threshold"),
        Rejection.WORK: _("misses the deadline or throughput target"),
        Rejection.BUDGET: _("rents for more than the monthly budget"),
    }
)


def _usable(gpu: Gpu, rules: RuleParams) -> Message:
    fraction = rules.gpu_memory_usable_fraction
    return _(
        "%(usable)s GB usable (%(fraction)s of the card's %(gib)s GiB)",
        usable=num(usable_gb(gpu.memory_gb, fraction)), fraction=f"{fraction:.0%}",
        gib=gpu.memory_gb,
    )  # fmt: skip


def _job(workload: Workload) -> Message:
    return _(
        "%(size)sB %(mode)s", size=num(workload.model_params_b), mode=MODE_WORDS[workload.mode]
    )


def _build_gpus(build: Build) -> str:
    """Return the build's GPUs as counted: `8 × H100`, or `4 × 8 H100` over nodes."""
    if build.nodes > 1:
        return f"{build.nodes} × {build.gpu_count} {build.gpu.name}"
    return f"{build.gpu_count} × {build.gpu.name}"


def _accumulation(workload: Workload, micro_batch: int) -> Message:
    return ngettext(
        "Gradient accumulation: batch %(batch)s per GPU runs as %(n)s micro-batch step of "
        "%(micro)s.",
        "Gradient accumulation: batch %(batch)s per GPU runs as %(n)s micro-batch steps of "
        "%(micro)s.",
        math.ceil(workload.batch_size / micro_batch),
        batch=workload.batch_size, micro=micro_batch,
    )  # fmt: skip


def _capacity_line(item: Recommendation, workload: Workload, rules: RuleParams) -> str:
    build = item.build
    total = build.gpu_count * build.nodes
    where = f"{build.gpu_count} × {build.gpu.name}"
    if build.nodes > 1:
        where = _(
            "%(nodes)s nodes × %(per_node)s %(gpu)s (%(total)s GPUs)",
            nodes=build.nodes, per_node=build.gpu_count, gpu=build.gpu.name, total=total,
        )  # fmt: skip
    usable = usable_gb(build.gpu.memory_gb, rules.gpu_memory_usable_fraction)
    replicas = item.replicas
    if replicas is not None:
        # Inference whose work was timed is described on the replicas the figures assume.
        served = item.performance.served if item.performance else None
        size, count, sequences = (
            (served.gpus, served.count, served.sequences)
            if served
            else (replicas.size, replicas.count, replicas.batch)
        )
        # A timed layout is sized as the model timed it: each sequence at its mean context.
        sized = held_workload(workload) if served else workload
        per_gpu = replica_gb(sized, size, sequences, usable)
        copies = _(
            "%(replicas)s of %(gpus)s",
            replicas=counted_replicas(count), gpus=counted_gpus(size),
        )  # fmt: skip
        if not served and replicas.nodes_per_replica > 1:
            copies = _(
                "%(copies)s spanning %(nodes)s nodes (the weights exceed one)",
                copies=copies, nodes=replicas.nodes_per_replica,
            )  # fmt: skip
        elif size > build.gpu_count:  # the timed layout: weights and KV cache together
            copies = _(
                "%(copies)s spanning %(nodes)s nodes (one node does not hold a replica)",
                copies=copies, nodes=math.ceil(size / build.gpu_count),
            )  # fmt: skip
        batch = counted_sequences(sequences)
        if count > 1:
            batch = _("%(sequences)s each", sequences=batch)
        return _(
            "%(where)s serve the %(job)s job as %(copies)s, %(sequences)s: %(per_gpu)s GB per "
            "GPU of %(usable)s.",
            where=where, job=_job(workload), copies=copies, sequences=batch,
            per_gpu=num(per_gpu), usable=_usable(build.gpu, rules),
        )  # fmt: skip
    sizing = size_workload(workload, total, usable)
    if workload.gpu_count:
        line = _(
            "%(where)s hold the %(job)s job: %(per_gpu)s GB per GPU of %(usable)s.",
            where=where, job=_job(workload), per_gpu=num(sizing.per_gpu_gb),
            usable=_usable(build.gpu, rules),
        )  # fmt: skip
    else:
        line = _(
            "%(where)s hold the %(job)s job: %(per_gpu)s GB per GPU of %(usable)s, the fewest "
            "%(gpu)s in whole nodes.",
            where=where, job=_job(workload), per_gpu=num(sizing.per_gpu_gb),
            usable=_usable(build.gpu, rules), gpu=build.gpu.name,
        )  # fmt: skip
    if sizing.micro_batch is not None:
        return sentences([line, _accumulation(workload, sizing.micro_batch)])
    return line


def _cpu_line(build: Build, workload: Workload, rules: RuleParams) -> Message:
    cpus = f"{build.cpu_count} × {build.cpu.name}"
    threads = num(build.threads / build.gpu_count)
    if workload.mode == Mode.INFER and workload.batch_size <= rules.small_batch_max:
        return _(
            "%(cpus)s give %(threads)s threads per GPU at a %(ghz)s GHz base clock for "
            "small-batch scheduling.",
            cpus=cpus, threads=threads, ghz=num(build.cpu.base_ghz),
        )  # fmt: skip
    return _("%(cpus)s give %(threads)s threads per GPU.", cpus=cpus, threads=threads)


def _fabric_line(item: Recommendation, workload: Workload) -> Message:
    build = item.build
    per_nic = max(1, round(build.gpu_count / build.nics))
    share = _("one per GPU") if per_nic == 1 else _("one per %(gpus)s GPUs", gpus=per_nic)
    nics = f"{build.nics} × {item.nic.name} ({item.nic.speed_gbps} Gb/s)"
    if data_parallel(workload):
        return _(
            "%(nics)s per node, %(share)s, carry the gradients between nodes.",
            nics=nics, share=share,
        )  # fmt: skip
    return _(
        "%(nics)s per node, %(share)s, carry the pipeline stages between nodes.",
        nics=nics, share=share,
    )  # fmt: skip


def explain(item: Recommendation, workload: Workload, rules: RuleParams, scenarios) -> str:
    """Say in plain words why this build serves the workload."""
    build = item.build
    parts = [work_line(item)] if item.performance is not None else []
    parts += [_capacity_line(item, workload, rules), _cpu_line(build, workload, rules)]
    need = memory_requirement(build.gpu_count, build.gpu.memory_gb, rules)
    memory = next(line for line in item.bom if line.kind == "memory")
    parts.append(
        _(
            "%(memory)s GB ECC RAM (%(modules)s) covers the %(required)s GB the rules ask for "
            "%(gpus)s.",
            memory=build.memory_gb, modules=f"{memory.qty} × {memory.name}",
            required=num(need.required_gb), gpus=counted_gpus(build.gpu_count),
        )
    )  # fmt: skip
    power = power_budget(build, rules)
    psu = next(line for line in item.bom if line.kind == "psu")
    parts.append(
        _(
            "%(psus)s (%(scheme)s) give %(usable)s W usable for a %(need)s W need.",
            psus=f"{psu.qty} × {psu.name}", scheme=item.psu_scheme, usable=build.psu_watts,
            need=power.required_w,
        )
    )  # fmt: skip
    if item.nic:
        parts.append(_fabric_line(item, workload))
    elif build.nodes > 1:
        parts.append(_("Each replica sits inside one node: the nodes exchange no model traffic."))
    if item.tier:
        parts.append(_("No NVSwitch board serves this GPU: ranked after NVSwitch nodes."))
    if item.scenario:
        scenario = next((s for s in scenarios if s.code == item.scenario), None)
        if scenario:
            # The recipe's name and measured result are data, written by architects.
            parts.append(
                _(
                    "The guide's standard pairing %(code)s (%(name)s): %(result)s.",
                    code=scenario.code, name=scenario.name, result=scenario.result,
                )
            )  # fmt: skip
    parts.append(_("Balance %(score)s.", score=num(item.evaluation.balance.overall)))
    return sentences(parts)


def work_line(item: Recommendation) -> Message:
    """Say what the work takes and costs on this build: "23 days on 4 × 8 H100; CNY … per run"."""
    work = item.performance
    where = _build_gpus(item.build)
    if work.time_to_train_days is not None:
        return _(
            "%(days)s on %(where)s; CNY %(cost)s per run.",
            days=counted_days(num(work.time_to_train_days)), where=where,
            cost=f"{work.cost_per_run:,.0f}",
        )  # fmt: skip
    if work.tokens_per_s is not None:
        plan = work.served
        served = served_note(plan.count, counted_gpus(plan.gpus), plan.sequences, plan.stages > 1)
        return _(
            "%(tokens)s output tokens/s on %(where)s (%(served)s), first token in %(ttft)s s "
            "and then one every %(tpot)s ms for each user; CNY %(cost)s per million output tokens.",
            tokens=f"{work.tokens_per_s:,.0f}", where=where, served=served,
            ttft=f"{work.time_to_first_token_s:.2f}", tpot=_milliseconds(work),
            cost=f"{work.cost_per_million_tokens:,.2f}",
        )  # fmt: skip
    return _("No datasheet throughput for this GPU: the work is not timed.")


def _milliseconds(work: Performance) -> str:
    """Return the time per output token in ms, to three figures: `21.4`, `139`."""
    return f"{work.time_per_output_token_s * 1000:.3g}"


def _rejection_words(code: str) -> str:
    """Return a rejection in the user's words: the check's title, a pitfall's code beside it."""
    if code in REJECTION_WORDS:
        return REJECTION_WORDS[code]
    if code in REGISTRY:
        registered = REGISTRY.get(code)
        title = registered.entry.title
        if registered.kind is CheckKind.PITFALL:
            return _("%(title)s (%(code)s)", title=title, code=code)
        return title
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
    # Within the search's limits: a figure beyond them is no build the recommender returns.
    most = search.max_nodes * max(HGX_BOARD_SIZES)
    fewest = fewest_gpus(free, gpu, probe.usable(gpu), most)
    if fewest is None:
        return None
    probe.needed[gpu.slug] = fewest
    plans = [probe.plan(gpu, p) for p in catalog.platforms if p.takes_gpu(gpu)]
    plans = [plan for plan in plans if plan is not None]
    if not plans:
        return f"{fewest} × {gpu.name}"
    plan = min(plans, key=lambda plan: (plan.total, plan.nodes))
    if plan.total > most:
        return None
    if plan.nodes == 1:
        return f"{plan.total} × {gpu.name}"
    return _(
        "%(gpus)s (%(nodes)s nodes of %(per_node)s)",
        gpus=f"{plan.total} × {gpu.name}", nodes=plan.nodes, per_node=plan.per_node,
    )  # fmt: skip


def no_build_reason(
    workload: Workload,
    gpus: list[Gpu],
    search: Search,
    max_gpus: int,
    catalog: Catalog,
    closest: tuple[Closest, ...] = (),
) -> str:
    """Say, with numbers, why no build serves the workload (`closest`: the builds that come
    closest to it, `closest.closest_builds`)."""
    rules = search.rules
    if not gpus:
        if workload.gpu:
            return _("The catalog offers no GPU %(gpu)s.", gpu=repr(workload.gpu))
        return _("The catalog offers no GPU.")
    if search.rejections.get(Rejection.BUDGET) and (said := budget_reason(workload, closest)):
        return said
    if search.by_work and not search.needed and search.rejections.get(Rejection.WORK):
        return work_reason(workload, gpus, rules, work_gpus(search, max_gpus))
    # Every GPU offered fails the precision check: that check is the reason, counted below.
    unable = search.rejections.get("precision", 0) >= len(gpus)
    if not search.needed and not unable:
        largest = max(gpus, key=lambda g: g.memory_gb)
        count = workload.gpu_count or max_gpus
        if not count:
            return _("The catalog offers no platform for these GPUs.")
        usable = usable_gb(largest.memory_gb, rules.gpu_memory_usable_fraction)
        sizing = size_workload(workload, count, usable)
        said = _(
            "%(job)s needs %(per_gpu)s GB per GPU over %(gpus)s (%(total)s GB in all); the "
            "largest GPU offered, the %(gpu)s, has %(usable)s",
            job=_job(workload), per_gpu=num(sizing.per_gpu_gb), gpus=counted_gpus(count),
            total=num(sizing.total_gb), gpu=largest.name, usable=_usable(largest, rules),
        )  # fmt: skip
        if not workload.gpu_count:
            nodes = search.max_nodes if max_gpus % search.max_nodes == 0 else 1
            spans = _("one node of %(gpus)s", gpus=counted_gpus(max_gpus))
            if nodes > 1:
                spans = _(
                    "%(nodes)s nodes of %(per_node)s GPUs (%(gpus)s GPUs)",
                    nodes=nodes, per_node=max_gpus // nodes, gpus=max_gpus,
                )  # fmt: skip
            return _("%(said)s, and %(spans)s is the most a build spans.", said=said, spans=spans)
        fewest = _deployable_fewest(workload, largest, search, catalog)
        if fewest is None:
            return _("%(said)s.", said=said)
        return _("%(said)s: it takes at least %(fewest)s.", said=said, fewest=fewest)
    if not search.rejections:
        names = ", ".join(sorted(g.name for g in gpus if g.slug in search.needed))
        return _("No offered platform and CPU take the GPUs that fit (%(names)s).", names=names)
    common = join(
        _(
            "%(rejection)s: %(candidates)s",
            rejection=_rejection_words(code),
            candidates=ngettext("%(n)s candidate", "%(n)s candidates", count),
        )
        for code, count in search.rejections.most_common()
    )
    return _("Every candidate build was rejected; most often: %(common)s.", common=common)


def budget_reason(workload: Workload, closest: tuple[Closest, ...]) -> Message | None:
    """Say that the builds the rules accept rent for more than the budget, naming the cheapest
    of the closest builds that misses the budget alone (it meets every other target); None
    when each of them misses another target too (the budget is then not what stops them)."""
    budget = f"{workload.budget_monthly:,.0f}"
    over = [
        item.recommendation
        for item in closest
        if [miss.field for miss in item.shortfalls] == ["budget_monthly"]
    ]
    if not over:
        return None
    cheapest = min(over, key=lambda item: item.monthly_price)
    return _(
        "No build the rules accept rents for CNY %(budget)s a month or less: of the closest "
        "accepted builds, the cheapest that meets every other target, %(build)s, rents for "
        "CNY %(price)s.",
        budget=budget, build=_build_gpus(cheapest.build), price=f"{cheapest.monthly_price:,.0f}",
    )  # fmt: skip


def work_gpus(search: Search, max_gpus: int) -> int:
    """Return the most GPUs the work is timed on: within the search's nodes of 8 (the nodes
    `Cluster.of_gpus` times), never a figure beyond what a build spans."""
    return min(max_gpus, search.max_nodes * max(HGX_BOARD_SIZES))


def work_reason(workload: Workload, gpus: list[Gpu], rules: RuleParams, max_gpus: int) -> str:
    """Say that no build within the node limit meets the deadline or target, and the best."""
    best = None
    for gpu in gpus:
        work = performance(Cluster.of_gpus(gpu, max_gpus, rules), workload, rules, 0.0)
        if work is None or (work.time_to_train_days is None and work.tokens_per_s is None):
            continue
        if work.time_to_train_days is not None:
            score = work.time_to_train_days
        elif workload.target_tokens_per_s is None and workload.target_ttft_s is not None:
            score = work.time_to_first_token_s  # a first-token target: the soonest first
        elif workload.target_tokens_per_s is None:
            score = work.time_per_output_token_s  # a per-token target: the shortest steps
        else:
            score = -work.tokens_per_s
        if best is None or score < best[0]:
            best = (score, gpu, work)
    limit = counted_gpus(max_gpus)
    fastest = f"{max_gpus} × {best[1].name}" if best else ""
    if workload.deadline_days is not None:
        deadline = counted_days(num(workload.deadline_days))
        if best:
            return _(
                "No build of up to %(limit)s meets the deadline of %(deadline)s: the fastest, "
                "%(fastest)s, takes %(days)s.",
                limit=limit, deadline=deadline, fastest=fastest,
                days=counted_days(num(best[2].time_to_train_days)),
            )  # fmt: skip
        return _(
            "No build of up to %(limit)s meets the deadline of %(deadline)s.",
            limit=limit, deadline=deadline,
        )  # fmt: skip
    targets = _targets(workload)
    if best:
        return _(
            "No build of up to %(limit)s serves the target of %(targets)s: the fastest, "
            "%(fastest)s, serves %(tokens)s with a first token in %(ttft)s s and one every "
            "%(tpot)s ms after it.",
            limit=limit, targets=targets, fastest=fastest,
            tokens=f"{best[2].tokens_per_s:,.0f}", ttft=f"{best[2].time_to_first_token_s:.2f}",
            tpot=_milliseconds(best[2]),
        )  # fmt: skip
    return _(
        "No build of up to %(limit)s serves the target of %(targets)s.",
        limit=limit, targets=targets,
    )  # fmt: skip


def _targets(workload: Workload) -> str:
    """Return the inference targets: `2000 output tokens/s and a first token within 1 s`."""
    targets = []
    if workload.target_tokens_per_s is not None:
        targets.append(_("%(tokens)s output tokens/s", tokens=num(workload.target_tokens_per_s)))
    if workload.target_ttft_s is not None:
        targets.append(_("a first token within %(s)s s", s=f"{workload.target_ttft_s:g}"))
    if workload.target_tpot_s is not None:
        ms = f"{workload.target_tpot_s * 1000:g}"
        targets.append(_("one token every %(ms)s ms at most after it", ms=ms))
    if not targets:
        return ""
    joined = targets[-1]
    for target in reversed(targets[:-1]):
        joined = _("%(first)s and %(second)s", first=target, second=joined)
    return joined
