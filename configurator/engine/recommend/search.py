"""Branch and bound over GPUs, platforms and CPUs for the cheapest accepted build of each GPU.

The search is not the cartesian product: GPUs are visited cheapest first, platforms and CPUs
in price order, and a branch stops as soon as a lower bound of its price exceeds the best build
already found for that GPU or the `limit`-th best overall. The guide's recipes (scenarios) are
completed first, so they seed the bounds and are named in the answer.
"""

from __future__ import annotations

import heapq
import math
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field, replace

from configurator.engine import checks
from configurator.engine.build import Build, Cpu, Gpu, Platform, Workload
from configurator.engine.catalog import Catalog
from configurator.engine.evaluate import Verdict, evaluate
from configurator.engine.findings import Status
from configurator.engine.memory import memory_requirement
from configurator.engine.power import power_budget
from configurator.engine.recommend.explain import explain, no_build_reason
from configurator.engine.recommend.layouts import Layout, layout
from configurator.engine.recommend.parts import (
    MemoryChoice,
    PsuChoice,
    cheapest_memory,
    cheapest_nic,
    cheapest_psus,
)
from configurator.engine.recommend.results import (
    Line,
    Recommendation,
    Recommendations,
    Scenario,
    rank_key,
)
from configurator.engine.rules import RuleParams
from configurator.engine.sizing import gpus_needed, size_workload


@dataclass
class Search:
    """The state of one recommendation search."""

    workload: Workload
    catalog: Catalog
    rules: RuleParams
    limit: int
    max_nodes: int
    found: dict[str, Recommendation] = field(default_factory=dict)  # best per GPU slug
    pairings: dict[str, Recommendation] = field(default_factory=dict)  # by scenario code
    explored: int = 0
    rejections: Counter = field(default_factory=Counter)
    memory_choices: dict[tuple, MemoryChoice | None] = field(default_factory=dict)
    psu_choices: dict[tuple[int, int, int], PsuChoice | None] = field(default_factory=dict)

    def plan(self, total: int, platform: Platform) -> Layout | None:
        """Lay the GPUs out on the platform, within its NIC slots when nodes must talk."""
        exact = self.workload.gpu_count is not None
        plan = layout(total, platform, self.rules, exact=exact)
        if plan and plan.nodes > 1:
            # Every node needs a NIC per `gpus_per_nic` GPUs: fewer GPUs per node may fit.
            cap = platform.nic_slots * self.rules.gpus_per_nic
            if plan.per_node > cap:
                plan = layout(total, platform, self.rules, exact=exact, per_node_cap=cap)
        if plan is None or plan.nodes > self.max_nodes:
            return None
        return plan

    def memory_for(self, required_gb: float, cpu: Cpu, platform: Platform) -> MemoryChoice | None:
        key = (required_gb, cpu.ddr_gen, cpu.memory_channels, platform.sockets,
               platform.dimm_slots_per_socket)  # fmt: skip
        if key not in self.memory_choices:
            self.memory_choices[key] = cheapest_memory(
                required_gb, cpu, platform, self.catalog.memory
            )
        return self.memory_choices[key]

    def psus_for(self, required_w: int, platform: Platform) -> PsuChoice | None:
        key = (required_w, platform.psu_bays, platform.psu_max_w)
        if key not in self.psu_choices:
            self.psu_choices[key] = cheapest_psus(
                required_w, platform.psu_bays, self.catalog.psus, platform.psu_max_w
            )
        return self.psu_choices[key]

    def __post_init__(self) -> None:
        self.nic = cheapest_nic(self.catalog.nics, self.rules.nic_speed_gbps_min)

    def bound(self, gpu: Gpu) -> float:
        """Return the price a build of this GPU must beat to matter."""
        own = self.found.get(gpu.slug)
        bounds = [own.monthly_price] if own else []
        if len(self.found) >= self.limit:
            bounds.append(
                heapq.nsmallest(self.limit, (r.monthly_price for r in self.found.values()))[-1]
            )
        return min(bounds, default=math.inf)

    def consider(self, candidate: Recommendation) -> None:
        gpu = candidate.build.gpu.slug
        current = self.found.get(gpu)
        if current is None or rank_key(candidate) < rank_key(current):
            self.found[gpu] = candidate


def _cpu_prefilter(build: Build, workload: Workload, rules: RuleParams) -> list[str]:
    """Return the codes of the engine checks that fail on the CPU side alone."""
    cpu_checks = (
        checks.legacy_pcie_platform,
        checks.low_base_clock,
        checks.pcie_lane_budget,
        checks.cpu_threads_per_gpu,
    )
    failing = []
    for check in cpu_checks:
        finding = check(build, workload, rules)
        if finding.status == Status.FAIL:
            failing.append(finding.code)
    return failing


def complete(
    search: Search,
    gpu: Gpu,
    platform: Platform,
    cpu: Cpu,
    plan: Layout,
    bound: float,
    memory_min_gb: int = 0,
) -> Recommendation | None:
    """Complete one (GPU, platform, CPU) choice into a priced, evaluated build, or None."""
    workload, rules = search.workload, search.rules
    sockets = platform.sockets
    nics, nic = 0, None
    if plan.nodes > 1:
        nics = math.ceil(plan.per_node / rules.gpus_per_nic)
        nic = search.nic
        if nic is None or nics > platform.nic_slots:
            search.rejections["nic"] += 1
            return None
    need = memory_requirement(plan.per_node, gpu.memory_gb, rules)
    memory = search.memory_for(max(need.required_gb, memory_min_gb), cpu, platform)
    if memory is None:
        search.rejections["memory_population"] += 1
        return None
    draft = Build(
        cpu=cpu,
        cpu_count=sockets,
        gpu=gpu,
        gpu_count=plan.per_node,
        gpus_per_socket=plan.split,
        memory_gb=memory.total_gb,
        memory_ecc=True,
        psu_watts=0,
        nvlink=gpu.has_nvlink and platform.nvlink != "none",
        numa_binding=True,
        nodes=plan.nodes,
        platform_pcie_gen=platform.pcie_gen,
        dimm_count=memory.count,
        nics=nics,
        nic_lanes=nic.pcie_lanes if nic else 16,
        nic_tdp_w=nic.tdp_w if nic else 25,
        pcie_switch_uplinks=platform.pcie_switch_uplinks,
    )
    failing = _cpu_prefilter(draft, workload, rules)
    if failing:
        search.rejections.update(failing)
        return None
    psus = search.psus_for(power_budget(draft, rules).required_w, platform)
    if psus is None:
        search.rejections["psu_bays"] += 1
        return None
    node_price = (
        platform.monthly_price
        + sockets * cpu.monthly_price
        + plan.per_node * gpu.monthly_price
        + memory.price
        + psus.price
        + (nics * nic.monthly_price if nic else 0.0)
    )
    price = plan.nodes * node_price
    if price >= bound:
        return None
    build = replace(draft, psu_watts=psus.usable_w)
    evaluation = evaluate(build, rules, workload)
    search.explored += 1
    if evaluation.verdict != Verdict.ACCEPT:
        search.rejections.update(evaluation.failed_codes or ("balance",))
        return None
    bom = [
        Line("platform", platform.slug, platform.name, 1, platform.monthly_price),
        Line("cpu", cpu.slug, cpu.name, sockets, cpu.monthly_price),
        Line("gpu", gpu.slug, gpu.name, plan.per_node, gpu.monthly_price),
        Line(
            "memory",
            memory.module.slug,
            memory.module.name,
            memory.count,
            memory.module.monthly_price,
        ),
        Line("psu", psus.psu.slug, psus.psu.name, psus.count, psus.psu.monthly_price),
    ]
    if nic:
        bom.append(Line("nic", nic.slug, nic.name, nics, nic.monthly_price))
    return Recommendation(
        build=build,
        platform=platform,
        bom=tuple(bom),
        evaluation=evaluation,
        monthly_price=round(price, 2),
        why="",
        nic=nic,
        psu_scheme=psus.scheme,
    )


def _gpu_total(workload: Workload, gpu: Gpu, max_gpus: int) -> int | None:
    """Return the GPUs (all nodes) a build of this GPU uses, or None when it cannot hold it."""
    if workload.gpu_count:
        sizing = size_workload(workload, workload.gpu_count, gpu.memory_gb)
        return workload.gpu_count if sizing.per_gpu_gb <= gpu.memory_gb else None
    return gpus_needed(workload, gpu.memory_gb, max_gpus=max_gpus)


def _search_gpu(search: Search, gpu: Gpu, total: int, platforms, cpus_by_socket) -> None:
    fewest_nodes = 1
    for platform in platforms:
        if not platform.takes_gpu(gpu):
            continue
        bound = search.bound(gpu)
        # Platforms come cheapest first: once even the GPUs and this platform cost more than
        # the bound, every later platform does too.
        if total * gpu.monthly_price + fewest_nodes * platform.monthly_price >= bound:
            break
        plan = search.plan(total, platform)
        if plan is None:
            continue
        for cpu in cpus_by_socket.get(platform.cpu_socket, ()):
            if cpu.max_sockets < platform.sockets:
                continue
            bound = search.bound(gpu)
            base = plan.nodes * (
                platform.monthly_price
                + plan.per_node * gpu.monthly_price
                + platform.sockets * cpu.monthly_price
            )
            if base >= bound:
                break  # CPUs come cheapest first
            explored = search.explored
            candidate = complete(search, gpu, platform, cpu, plan, bound)
            if candidate is not None:
                search.consider(candidate)
            elif search.explored > explored:
                # Evaluated and rejected. The CPU-side checks passed before evaluation and the
                # memory and PSUs were sized to the rules, so what failed is this GPU on this
                # platform (NVLink, capacity, placement): no other CPU changes that.
                break


def _scenario_candidates(
    search: Search, catalog: Catalog, scenarios: Iterable[Scenario], max_gpus: int
) -> None:
    for scenario in scenarios:
        if not scenario.matches(search.workload):
            continue
        cpu = catalog.find("cpus", scenario.cpu_slug)
        for gpu_slug in scenario.gpu_slugs:
            gpu = catalog.find("gpus", gpu_slug)
            if search.workload.gpu and gpu is not None and gpu.slug != search.workload.gpu:
                continue
            total = _gpu_total(search.workload, gpu, max_gpus) if cpu and gpu else None
            if total is None:
                continue
            platforms = (
                [catalog.find("platforms", scenario.platform_slug)]
                if scenario.platform_slug
                else catalog.platforms
            )
            for platform in platforms:
                if (
                    platform is None
                    or not platform.takes_gpu(gpu)
                    or platform.cpu_socket != cpu.socket
                ):
                    continue
                plan = search.plan(total, platform)
                if plan is None:
                    continue
                candidate = complete(search, gpu, platform, cpu, plan, math.inf, scenario.memory_gb)
                if candidate is not None:
                    pairing = replace(candidate, scenario=scenario.code)
                    kept = search.pairings.get(scenario.code)
                    if kept is None or rank_key(pairing) < rank_key(kept):
                        search.pairings[scenario.code] = pairing
                    search.consider(pairing)
                    break


def recommend(
    workload: Workload,
    catalog: Catalog,
    rules: RuleParams,
    scenarios: Iterable[Scenario] = (),
    *,
    limit: int = 5,
) -> Recommendations:
    """Return up to `limit` accepted builds, one per GPU type, cheapest first; or why none."""
    named = catalog  # scenarios name their parts by slug
    catalog = catalog.cheapest_distinct()
    max_nodes = rules.recommend_max_nodes
    search = Search(workload, catalog, rules, limit, max_nodes)
    gpus = [g for g in catalog.gpus if not workload.gpu or g.slug == workload.gpu]
    if workload.gpu and not gpus:
        gpus = [g for g in named.gpus if g.slug == workload.gpu]
    max_gpus = max_nodes * max((sum(p.gpu_slots) for p in catalog.platforms), default=0)
    totals = {}
    for gpu in gpus:
        total = _gpu_total(workload, gpu, max_gpus) if max_gpus else None
        if total is not None:
            totals[gpu.slug] = total
    if max_gpus:
        _scenario_candidates(search, named, scenarios, max_gpus)

    platforms = sorted(catalog.platforms, key=lambda p: p.monthly_price)
    cpus_by_socket: dict[str, list[Cpu]] = {}
    for cpu in sorted(catalog.cpus, key=lambda c: c.monthly_price):
        cpus_by_socket.setdefault(cpu.socket, []).append(cpu)
    for gpu in sorted(
        (g for g in gpus if g.slug in totals), key=lambda g: totals[g.slug] * g.monthly_price
    ):
        if totals[gpu.slug] * gpu.monthly_price >= search.bound(gpu):
            if len(search.found) >= limit:
                break  # GPUs come cheapest first: no later one can enter the top `limit`
            continue
        _search_gpu(search, gpu, totals[gpu.slug], platforms, cpus_by_socket)

    # The guide's matching pairings are always shown; the cheapest other builds fill the list.
    pairings = sorted(search.pairings.values(), key=rank_key)[:limit]
    others = [r for r in sorted(search.found.values(), key=rank_key) if r.scenario is None]
    ranked = sorted(pairings + others[: max(limit - len(pairings), 0)], key=rank_key)
    builds = tuple(replace(item, why=explain(item, workload, rules, scenarios)) for item in ranked)
    reason = (
        None
        if builds
        else no_build_reason(workload, gpus, totals, max_gpus, search.max_nodes, search.rejections)
    )
    return Recommendations(builds, reason, search.explored)
