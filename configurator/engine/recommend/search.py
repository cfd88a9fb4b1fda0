"""Branch and bound over GPUs, platforms and CPUs for the cheapest accepted build of each GPU.

The search is not the cartesian product: GPUs are visited cheapest first, platforms and CPUs
in price order, and a branch stops as soon as a lower bound of its price exceeds the best build
already found for that GPU or the `limit`-th best overall. The guide's recipes (scenarios) are
completed first, so they seed the bounds and are named in the answer.

When the cost of the work ranks, the same bounds hold in that cost: a build's work costs its
price times its figures at a price of 1, so the cost to beat divided by those figures is the
price a build must stay under. Every bound is a lower bound of what a branch can cost, so the
pruned search returns what completing every branch would.
"""

from __future__ import annotations

import heapq
import math
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from functools import partial
from typing import NamedTuple

from configurator.engine.build import Build, Cpu, Gpu, Nic, Platform, Workload
from configurator.engine.catalog import Catalog
from configurator.engine.evaluate import Verdict, evaluate
from configurator.engine.fabric import NicRequirement, nic_requirement
from configurator.engine.findings import Status
from configurator.engine.memory import memory_requirement
from configurator.engine.performance import (
    HOURS_PER_MONTH,
    Cluster,
    Performance,
    gpu_seconds_floor,
    gpus_for_work,
    has_target,
    performance,
)
from configurator.engine.power import power_budget
from configurator.engine.pricing import build_bill
from configurator.engine.recommend.closest import (
    Closest,
    closest_builds,
    has_limits,
    shortfalls,
    without_limits,
)
from configurator.engine.recommend.explain import (
    Rejection,
    explain,
    no_build_reason,
    work_gpus,
)
from configurator.engine.recommend.layouts import (
    Layout,
    arrange,
    deploy,
    fabric_sizes,
    platform_node_sizes,
    served,
)
from configurator.engine.recommend.parts import (
    MemoryChoice,
    PsuChoice,
    cheapest_memory,
    cheapest_nic,
    cheapest_psus,
)
from configurator.engine.recommend.recipes import recipe_gpus, recipe_node
from configurator.engine.recommend.results import (
    Recommendation,
    Recommendations,
    Scenario,
    rank_key,
)
from configurator.engine.registry import REGISTRY
from configurator.engine.rules import RuleParams
from configurator.engine.shapes import (
    Deployment,
    data_parallel,
    fewest_replicas,
    served_replicas,
    weights_gb,
)
from configurator.engine.sizing import gpus_needed, size_workload, usable_gb

# Failed checks whose outcome another CPU of the same platform may change (registered as
# `cpu_sensitive`, engine/checks.py), and the balance score (threads and lanes per GPU)
# likewise; after any other rejection no other CPU is tried on that platform.
CPU_SENSITIVE: frozenset[str] = REGISTRY.cpu_sensitive_codes()


class NodeSizes(NamedTuple):
    """The GPU counts a node of a platform carries, those whose fabric NICs it takes, the
    NICs the GPU asks for and the cheapest NIC that meets them (None: the catalog has none)."""

    sizes: tuple[int, ...]
    networked: tuple[int, ...]
    requirement: NicRequirement
    nic: Nic | None


@dataclass
class Search:
    """The state of one recommendation search."""

    workload: Workload
    catalog: Catalog
    rules: RuleParams
    limit: int
    max_nodes: int
    needed: dict[str, int] = field(default_factory=dict)  # fewest GPUs, by GPU slug
    found: dict[str, Recommendation] = field(default_factory=dict)  # best per GPU slug
    pairings: dict[str, Recommendation] = field(default_factory=dict)  # by scenario code
    explored: int = 0
    rejections: Counter = field(default_factory=Counter)
    # The cheapest DIMMs and PSU sets for a need: facts of the catalog, kept with it.
    memory_choices: dict[tuple, MemoryChoice | None] = field(init=False)
    psu_choices: dict[tuple, PsuChoice | None] = field(init=False)
    nics: dict[int, Nic | None] = field(default_factory=dict)  # cheapest by minimum speed
    deployments: dict[tuple, Deployment | None] = field(default_factory=dict)
    replicas: dict[tuple[float, int], int | None] = field(default_factory=dict)
    missed: set[str] = field(default_factory=set)  # GPU slugs whose builds missed the target
    # GPU slugs some of whose builds the `limit` pruned before they were evaluated.
    priced_out: set[str] = field(default_factory=set)
    # Per GPU slug, the accepted build that came closest to the targets it missed (within the
    # budget: a build over it is priced out before it is judged).
    near: dict[str, Recommendation] = field(default_factory=dict)
    work: dict[tuple, Performance] = field(default_factory=dict)  # at a price of 1
    seconds: dict[tuple, float] = field(default_factory=dict)  # `gpu_seconds_floor` by figures
    # Per platform: the least a node of it adds to its GPUs (its cheapest CPUs, two PSUs), and
    # its GPU slots.
    node_costs: tuple[tuple[Platform, float, int], ...] = ()
    ram_per_gb: float = 0.0  # the cheapest ECC RDIMM's monthly price per GB
    psu_floor: float = 0.0  # two of the cheapest PSU: every node keeps a spare
    node_psus: dict[tuple[int, str], float] = field(default_factory=dict)  # by GPU watts
    node_ram: dict[tuple[int, float], float] = field(default_factory=dict)  # GB the rules ask
    work_costs: dict[tuple[str, int | None], float] = field(default_factory=dict)
    limit_cost: float | None = None  # `work_limit`, kept until a build is found
    sizes_known: dict[tuple[int, int], NodeSizes] | None = None  # `node_sizes`, per catalog
    cpu_fits: dict[tuple, tuple] = field(default_factory=dict)  # `fitting_cpus`
    layouts: dict[tuple, Layout] = field(default_factory=dict)  # `plan`, by deployment
    gpu_floors: dict[str, tuple[float, float]] = field(default_factory=dict)  # `_gpu_floor`
    node_shares: dict[str, float] | None = None  # a node's share per GPU slot, by platform
    layout_floors: dict[tuple[str, str, int], float] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self.memory_choices = self.catalog.derived(("memory choices",), dict)
        self.psu_choices = self.catalog.derived(("psu choices",), dict)

    def cheapest_first(self) -> tuple[list[Platform], dict[str, list[Cpu]]]:
        """Return the platforms and, by socket, the CPUs cheapest first, and keep what the
        price floors read: two of the cheapest PSU, the cheapest ECC RDIMM's price per GB and
        the least each platform's node adds to its GPUs."""
        catalog = self.catalog
        platforms = sorted(catalog.platforms, key=lambda p: p.monthly_price)
        cpus_by_socket: dict[str, list[Cpu]] = {}
        for cpu in sorted(catalog.cpus, key=lambda c: c.monthly_price):
            cpus_by_socket.setdefault(cpu.socket, []).append(cpu)
        self.psu_floor = 2 * min((psu.monthly_price for psu in catalog.psus), default=0.0)
        self.node_costs = tuple(
            (p, p.monthly_price + p.sockets * cpus[0].monthly_price + self.psu_floor, slots)
            for p in platforms
            if (cpus := cpus_by_socket.get(p.cpu_socket)) and (slots := sum(p.gpu_slots))
        )
        self.ram_per_gb = min(
            (m.monthly_price / m.capacity_gb for m in catalog.memory if m.ecc and m.registered),
            default=0.0,
        )
        return platforms, cpus_by_socket

    def unit(self, gpu: Gpu, platform: Platform, plan: Layout, pcie_gen: int) -> Performance:
        """Return the work's figures on this layout at a monthly price of 1 (memoised).

        They read what a `Cluster` holds: the GPU, its count per node, the nodes, NVLink, the
        NICs and the PCIe generation the GPUs link at (the lower of the CPU's and the board's),
        the last only without NVLink and up to the GPU's own generation.
        """
        nvlink = gpu.has_nvlink and platform.nvlink != "none"
        speed = plan.nic.speed_gbps if plan.nic else 0
        link = 0 if nvlink else min(pcie_gen, gpu.pcie_gen)
        key = (gpu.slug, plan.per_node, plan.nodes, nvlink, plan.nics, speed, link)
        if key not in self.work:
            cluster = Cluster(gpu, plan.per_node, plan.nodes, nvlink, plan.nics, speed, pcie_gen)
            self.work[key] = performance(cluster, self.workload, self.rules, 1.0)
        return self.work[key]

    def work_floor(self, gpu: Gpu) -> float:
        """Return a lower bound of what the work costs on any build of this GPU, of any size.

        Each of a build's N GPUs rents at least the GPU, the RAM the rules ask for beside it at
        the cheapest ECC RDIMM per GB, and its share of a node: the platform with its cheapest
        CPUs and two PSUs, over the platform's GPU slots. The work takes at least
        `gpu_seconds_floor` ÷ N seconds of the build, so N cancels: the bound holds for every
        count, the counts a deadline grows to included.
        """
        return self._work_cost(gpu)

    def work_guess(self, gpu: Gpu) -> float:
        """Return what the work may cost on this GPU, to visit the likely best GPUs first.

        As `work_floor`, but its fewest GPUs rent whole nodes. Not a bound: it orders only.
        """
        return self._work_cost(gpu, self.needed[gpu.slug])

    def _work_cost(self, gpu: Gpu, gpus: int | None = None) -> float:
        """Return the GPU-seconds floor's cost with each GPU's share of a node: a GPU slot's,
        or with `gpus` its share of the whole nodes they fill (memoised)."""
        if (gpu.slug, gpus) not in self.work_costs:
            self.work_costs[gpu.slug, gpus] = self._work_cost_of(gpu, gpus)
        return self.work_costs[gpu.slug, gpus]

    def _work_cost_of(self, gpu: Gpu, gpus: int | None) -> float:
        # A node's share per GPU is a fact of the catalog alone: once per catalog.
        shares = self.catalog.derived(("node share per GPU",), dict)
        if (id(gpu), gpus) not in shares:
            shares[id(gpu), gpus] = min(
                (
                    cost / slots if gpus is None else cost * math.ceil(gpus / slots) / gpus
                    for platform, cost, slots in self.node_costs
                    if platform.takes_gpu(gpu)
                ),
                default=math.inf,
            )
        return self._per_gpu_cost(gpu, shares[id(gpu), gpus])

    def _per_gpu_cost(self, gpu: Gpu, node: float) -> float:
        """Return the GPU-seconds floor's cost when each GPU rents `node` of a node besides
        itself and the RAM the rules ask for beside it."""
        rented, seconds = self._gpu_floor(gpu)
        if math.isinf(seconds) or math.isinf(node):
            return math.inf
        return (rented + node) * seconds / 3600 / HOURS_PER_MONTH

    def _gpu_floor(self, gpu: Gpu) -> tuple[float, float]:
        """Return what a GPU rents with the RAM the rules ask for beside it, and the work's
        GPU-seconds floor on it (memoised)."""
        if gpu.slug not in self.gpu_floors:
            key = (gpu.bf16_tflops, gpu.fp8_tflops, gpu.int8_tops, gpu.memory_bandwidth_gbs,
                   gpu.memory_gb, gpu.nvlink_gbps, gpu.pcie_gen, gpu.form_factor)  # fmt: skip
            if key not in self.seconds:
                self.seconds[key] = gpu_seconds_floor(gpu, self.workload, self.rules)
            ram = memory_requirement(1, gpu.memory_gb, self.rules).required_gb * self.ram_per_gb
            self.gpu_floors[gpu.slug] = (gpu.monthly_price + ram, self.seconds[key])
        return self.gpu_floors[gpu.slug]

    def platform_work_floor(self, gpu: Gpu, platform: Platform) -> float:
        """Return a lower bound of what the work costs on any build of this GPU on this
        platform: `work_floor` with the node's share of this platform alone."""
        if self.node_shares is None:
            self.node_shares = {p.slug: cost / slots for p, cost, slots in self.node_costs}
        return self._per_gpu_cost(gpu, self.node_shares.get(platform.slug, math.inf))

    def layout_work_floor(
        self, gpu: Gpu, platform: Platform, cpus_by_socket: dict[str, list[Cpu]]
    ) -> float:
        """Return a lower bound of what the work costs on any build of this GPU on this
        platform at its present count (memoised per count; infinite: no build laid out).

        Its layout's price floor (`price_floor`) with the cheapest CPUs the platform takes
        that are not already known to fail the CPU-side checks on it, times the least of its
        figures at a price of 1 over the PCIe generations its CPUs link at: the bound the first
        CPU's branch in `_search_gpu` that can make a build reaches. Zero where a figure misses
        the target or costs nothing (such a build bounds nothing).
        """
        key = (gpu.slug, platform.slug, self.needed[gpu.slug])
        if key not in self.layout_floors:
            self.layout_floors[key] = self._layout_work_floor(gpu, platform, cpus_by_socket)
        return self.layout_floors[key]

    def _layout_work_floor(
        self, gpu: Gpu, platform: Platform, cpus_by_socket: dict[str, list[Cpu]]
    ) -> float:
        plan = self.layout(gpu, platform) if platform.takes_gpu(gpu) else None
        if plan is None:
            return math.inf
        cpus, gens = self.fitting_cpus(platform, cpus_by_socket)
        if not cpus:
            return math.inf
        least = math.inf
        for gen in gens:
            unit = self.unit(gpu, platform, plan, gen)
            if not unit.meets_target or unit.work_cost <= 0:
                return 0.0
            least = min(least, unit.work_cost)
        if math.isinf(least):
            return math.inf  # the work is not timed on this layout: every build costs that
        # The cheapest CPU not already known to fail the CPU-side checks on this layout
        # (`complete` keeps their verdicts): none, and no build is laid out here.
        cpu, sockets = cpus[0][0], platform.sockets
        if id(cpu) in self.cpus_failed:
            board = (platform.pcie_gen, platform.pcie_switch_uplinks, sockets, plan)
            known = self.cpu_side_failures
            cpu = next((c for c, _ in cpus if not known.get((c, *board))), None)
            if cpu is None:
                return math.inf
        base = _base_price(gpu, platform, plan, cpu)
        return self.price_floor(gpu, platform, plan, base) * least

    def gpu_work_floor(
        self,
        gpu: Gpu,
        platforms: Iterable[Platform],
        cpus_by_socket: dict[str, list[Cpu]],
        under: float = -math.inf,
    ) -> float:
        """Return a lower bound of what the work costs on any build of this GPU at its present
        count: the least `layout_work_floor` over the platforms, and at least `work_floor`;
        or, as soon as a platform's is below `under`, that one (the rest are not derived)."""
        least = math.inf
        for platform in platforms:
            least = min(least, self.layout_work_floor(gpu, platform, cpus_by_socket))
            if least < under:
                return least
        return max(least, self.work_floor(gpu))

    @property
    def budget_bound(self) -> float:
        """Return the monthly price a build must stay under to be within the budget (the
        budget itself is within it), or infinity without a budget."""
        budget = self.workload.budget_monthly
        return math.inf if budget is None else math.nextafter(budget, math.inf)

    def over_budget(self, price: float, bound: float) -> bool:
        """Return whether a build of at least this price is out: past its `bound`, or past the
        budget, counted as the budget's rejection. Over the budget is a price bound like the
        others, never a rejection of the GPU or platform: a cheaper CPU, platform or memory
        may still fit it."""
        if price >= bound:
            return True
        if price >= self.budget_bound:
            self.rejections[Rejection.BUDGET] += 1
            return True
        return False

    def work_limit(self) -> float:
        """Return the cost of the work a build must beat to enter the top `limit`."""
        if len(self.found) < self.limit:
            return math.inf
        if self.limit_cost is None:  # `consider` clears it when the builds found change
            kept = heapq.nsmallest(self.limit, self.found.values(), rank_key)
            self.limit_cost = kept[-1].performance.work_cost
        return self.limit_cost

    def cannot_enter(self, gpu: Gpu) -> bool:
        """Return whether no build of this GPU, of any size, can enter the top `limit`."""
        limit = self.work_limit()
        return limit < math.inf and self.work_floor(gpu) >= limit

    def price_floor(self, gpu: Gpu, platform: Platform, plan: Layout, base: float) -> float:
        """Return the least a build of this layout rents: `base` (platform, GPUs, CPUs and
        NICs), plus per node the RAM the rules ask for at the cheapest ECC RDIMM per GB and
        the PSUs that carry its GPUs alone (`node_psu_floor`)."""
        key = (plan.per_node, gpu.memory_gb)
        if key not in self.node_ram:
            self.node_ram[key] = memory_requirement(*key, self.rules).required_gb
        psus = self.node_psu_floor(gpu, platform, plan.per_node)
        return base + plan.nodes * (self.node_ram[key] * self.ram_per_gb + psus)

    def node_psu_floor(self, gpu: Gpu, platform: Platform, per_node: int) -> float:
        """Return the least a node's PSUs cost: the cheapest redundant set the platform takes
        that carries its GPUs' TDP alone. The power budget asks at least that, and the
        cheapest set for more watts costs no less; two of the cheapest PSU when none does."""
        key = (gpu.tdp_w * per_node, platform.slug)
        if key not in self.node_psus:
            psus = self.psus_for(key[0], platform)
            self.node_psus[key] = max(psus.price, self.psu_floor) if psus else self.psu_floor
        return self.node_psus[key]

    def fitting_cpus(
        self, platform: Platform, cpus_by_socket: dict[str, list[Cpu]]
    ) -> tuple[tuple[tuple[Cpu, int], ...], frozenset[int]]:
        """Return the CPUs the platform takes, cheapest first, each with the PCIe generation
        its GPUs link at (the lower of the CPU's and the board's), and those generations
        (memoised per socket, socket count and board generation)."""
        key = (platform.cpu_socket, platform.sockets, platform.pcie_gen)
        if key not in self.cpu_fits:
            fit = tuple(
                (cpu, min(cpu.pcie_gen, platform.pcie_gen))
                for cpu in cpus_by_socket.get(platform.cpu_socket, ())
                if cpu.max_sockets >= platform.sockets
            )
            self.cpu_fits[key] = fit, frozenset(gen for _, gen in fit)
        return self.cpu_fits[key]

    def work_beat(self, gpu: Gpu, limited: bool) -> float:
        """Return the cost of the work a build of this GPU must beat: its best build's, and
        the `limit`-th best's when `limited` or it has a build (so it grows no more)."""
        own = self.found.get(gpu.slug)
        beat = own.performance.work_cost if own else math.inf
        return min(beat, self.work_limit()) if own or limited else beat

    def work_prices(
        self, gpu: Gpu, platform: Platform, plan: Layout, gens: Iterable[int], beat: float
    ) -> tuple[float, dict[int, float]]:
        """Return the monthly prices builds of this layout must stay under to beat `beat`.

        The CPU changes a build's figures only through its PCIe generation, so per generation
        the price to stay under is `beat` divided by the figures at a price of 1; and past the
        highest of them no CPU matters (the first value). A build that misses the target is
        never an answer: skipped once this GPU has one, else completed without a bound, since
        such a build makes the GPU grow (`_more_nodes_for_work`).
        """
        own = gpu.slug in self.found
        prices, stop = {}, 0.0
        for gen in gens:
            unit = self.unit(gpu, platform, plan, gen)
            if unit.meets_target:
                prices[gen] = beat / unit.work_cost if unit.work_cost > 0 else math.inf
            else:
                prices[gen] = 0.0 if own else math.inf
            stop = max(stop, prices[gen])
        return stop, prices

    @property
    def by_work(self) -> bool:
        """Return whether builds rank by the cost of the workload's work (docs/performance.md)."""
        return self.workload.has_work

    cpu_may_help: bool = False  # the last rejection might not recur with another CPU
    rejected: set[tuple] = field(default_factory=set)  # GPU-decided rejections, by layout
    cpu_side_failures: dict[tuple, list[str]] = field(default_factory=dict)
    cpus_failed: set[int] = field(default_factory=set)  # CPUs (by id) failing one of them

    def usable(self, gpu: Gpu) -> float:
        return usable_gb(gpu.memory_gb, self.rules.gpu_memory_usable_fraction)

    def fewest_replicas(self, usable: float, size: int) -> int | None:
        """Return the fewest inference replicas of `size` GPUs of this usable memory (memoised)."""
        key = (usable, size)
        if key not in self.replicas:
            workload = self.workload
            self.replicas[key] = fewest_replicas(workload, size, usable, workload.batch_size)
        return self.replicas[key]

    def nic_for(self, speed_min: int) -> Nic | None:
        if speed_min not in self.nics:
            self.nics[speed_min] = cheapest_nic(self.catalog.nics, speed_min)
        return self.nics[speed_min]

    def node_sizes(self, gpu: Gpu, platform: Platform) -> NodeSizes:
        """Return the GPU counts a node of the platform carries and those whose NICs it takes.

        A fact of the two parts and the rules alone, derived once per catalog and rules (the
        parts are the catalog's own objects, so they are known by identity).
        """
        known = self.sizes_known
        if known is None:
            known = self.sizes_known = self.catalog.derived(("node sizes", self.rules), dict)
        key = (id(gpu), id(platform))
        if key not in known:
            requirement = nic_requirement(gpu, self.rules)
            nic = self.nic_for(requirement.speed_gbps_min)
            sizes = platform_node_sizes(gpu, platform, self.rules)
            networked = fabric_sizes(sizes, platform, requirement) if nic else ()
            known[key] = NodeSizes(sizes, networked, requirement, nic)
        return known[key]

    def plan(self, gpu: Gpu, platform: Platform) -> Layout | None:
        """Lay the workload out on nodes of the platform: deployable shapes, NICs that fit
        (`layout`); a platform that lays out none counts as the layout's rejection."""
        layout = self.layout(gpu, platform)
        if layout is None:
            self.rejections[Rejection.SHAPE] += 1
        return layout

    def layout(self, gpu: Gpu, platform: Platform) -> Layout | None:
        """Return the layout of the workload on nodes of the platform, or None (memoised)."""
        sizes, networked, requirement, nic = self.node_sizes(gpu, platform)
        # Inference replicas do not depend on the NICs: one deployment serves every platform
        # with these node sizes, and the NICs are checked after.
        needed = self.needed.get(gpu.slug, 1)
        # A deployment reads the GPU only through its usable memory: GPUs alike in it (a
        # catalog's variants of one card) share it.
        usable = self.usable(gpu)
        key = (usable, sizes, networked if data_parallel(self.workload) else None, needed)
        if key not in self.deployments:
            self.deployments[key] = self._deploy(gpu, sizes, networked, needed) if sizes else None
        plan = self.deployments[key]
        if plan is None or not served(plan, self.workload, networked):
            return None
        # The layout reads the board only through its GPU slots (the sockets' caps).
        layout_key = (id(plan), platform.gpu_slots, requirement, id(nic))
        if layout_key not in self.layouts:
            self.layouts[layout_key] = arrange(
                plan, self.workload, platform, self.rules, requirement, nic
            )
        return self.layouts[layout_key]

    def _deploy(self, gpu: Gpu, sizes: tuple[int, ...], networked: tuple[int, ...], needed: int):
        """Return the deployment of `needed` GPUs (at least) in the platform's node sizes.

        Inference with a throughput, first-token or per-token target takes `needed` GPUs as the
        count, rounded up to whole nodes of the largest size that serves it: more replicas serve
        more tokens, larger ones give the first token sooner.
        """
        workload = self.workload
        arguments = {
            "needed": needed,
            "usable_gb": self.usable(gpu),
            "max_nodes": self.max_nodes,
            "fewest": partial(self.fewest_replicas, self.usable(gpu)),
        }
        untargeted = not has_target(workload)
        if data_parallel(workload) or workload.gpu_count or untargeted:
            return deploy(workload, sizes, networked, **arguments)
        for per_node in sorted(sizes, reverse=True):
            total = math.ceil(needed / per_node) * per_node
            counted = replace(workload, gpu_count=total)
            plan = deploy(counted, (per_node,), networked, **arguments)
            if plan is not None:
                return plan
        return None

    def memory_for(self, required_gb: float, cpu: Cpu, platform: Platform) -> MemoryChoice | None:
        key = (required_gb, cpu.ddr_gen, cpu.memory_channels, platform.sockets,
               platform.dimm_slots_per_socket)  # fmt: skip
        if key not in self.memory_choices:
            self.memory_choices[key] = cheapest_memory(
                required_gb, cpu, platform, self.catalog.memory
            )
        return self.memory_choices[key]

    def psus_for(self, required_w: int, platform: Platform) -> PsuChoice | None:
        key = (required_w, platform.psu_bays, platform.psu_max_w, platform.vendor,
               platform.psu_slugs)  # fmt: skip
        if key not in self.psu_choices:
            fitting = tuple(psu for psu in self.catalog.psus if platform.takes_psu(psu))
            self.psu_choices[key] = cheapest_psus(
                required_w, platform.psu_bays, fitting, platform.psu_max_w
            )
        return self.psu_choices[key]

    def bound(self, gpu: Gpu, tier: int = 0) -> float:
        """Return the price a build of this GPU, in this tier, must beat to matter.

        A build ranks after every build of a lower tier (`rank_key`): against one of those
        it can never win (bound −∞), against a higher tier it always does (+∞). Ranked by the
        cost of the work, `work_prices` bounds instead.
        """
        own = self.found.get(gpu.slug)
        return min(_beat(own, tier) if own else math.inf, self.limit_bound(tier))

    def limit_bound(self, tier: int = 0) -> float:
        """Return the price a build in this tier must beat to enter the top `limit`."""
        if len(self.found) < self.limit:
            return math.inf
        return _beat(heapq.nsmallest(self.limit, self.found.values(), rank_key)[-1], tier)

    def keep_near(self, candidate: Recommendation) -> None:
        """Keep an accepted build that missed a target if it is its GPU's
        closest miss yet (the closer, then the cheaper): `closest.closest_builds` offers it."""
        gpu = candidate.build.gpu.slug
        current = self.near.get(gpu)
        if current is None or _near_key(self.workload, candidate) < _near_key(
            self.workload, current
        ):
            self.near[gpu] = candidate

    def consider(self, candidate: Recommendation) -> None:
        gpu = candidate.build.gpu.slug
        current = self.found.get(gpu)
        if current is None or rank_key(candidate) < rank_key(current):
            self.found[gpu] = candidate
            self.limit_cost = None


def _near_key(workload: Workload, item: Recommendation) -> tuple[float, float]:
    missed = shortfalls(workload, item.performance, item.monthly_price)
    return (-min((s.ratio for s in missed), default=1.0), item.monthly_price)


def _beat(item: Recommendation, tier: int) -> float:
    if item.tier < tier:
        return -math.inf
    return item.monthly_price if item.tier == tier else math.inf


def tier(workload: Workload, platform: Platform, plan: Layout) -> int:
    """Return 1 for multi-node training off an NVSwitch board (ranked after), else 0."""
    multi_node_training = plan.nodes > 1 and data_parallel(workload)
    return int(multi_node_training and platform.nvlink != "nvswitch")


def cpu_prefilter(build: Build, workload: Workload, rules: RuleParams) -> list[str]:
    """Return the codes of the registered CPU-side checks that fail on a draft build.

    The registry says which checks the CPU side alone decides (`cpu_side`), so a check
    registered as such is run here without the search naming it.
    """
    return [
        finding.code
        for check in REGISTRY.cpu_side_checks()
        if (finding := check(build, workload, rules)).status is Status.FAIL
    ]


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
    nic = plan.nic
    # The CPU-side checks read the CPU, the board's PCIe side and the layout only.
    cpu_side = (cpu, platform.pcie_gen, platform.pcie_switch_uplinks, sockets, plan)
    if failing := search.cpu_side_failures.get(cpu_side):
        search.rejections.update(failing)
        return None
    need = memory_requirement(plan.per_node, gpu.memory_gb, rules)
    memory = search.memory_for(max(need.required_gb, memory_min_gb), cpu, platform)
    if memory is None:
        search.rejections[Rejection.MEMORY_SLOTS] += 1
        return None
    # What the bill will sum but the PSUs, which cost at least those that carry the GPUs: a build
    # its bound excludes is neither checked nor billed (less a cent for the bill's rounding,
    # so this never drops a build the bill would keep). A bound is finite only once a build
    # was found, so no "no build" reason loses a rejection to it.
    parts = cpu.monthly_price * sockets + gpu.monthly_price * plan.per_node + memory.price
    parts += platform.monthly_price + (nic.monthly_price * plan.nics if nic else 0)
    floor = (parts + search.node_psu_floor(gpu, platform, plan.per_node)) * plan.nodes - 0.01
    if search.over_budget(floor, bound):
        return None
    draft = Build.assemble(
        cpu=cpu,
        cpu_count=sockets,
        gpu=gpu,
        gpu_count=plan.per_node,
        gpus_per_socket=plan.split,
        memory_gb=memory.total_gb,
        memory_ecc=True,
        psu_watts=0,
        nvlink=gpu.has_nvlink and platform.nvlink != "none",
        nodes=plan.nodes,
        platform=platform,
        dimm_count=memory.count,
        nics=plan.nics,
        nic=nic,
    )
    failing = search.cpu_side_failures[cpu_side] = cpu_prefilter(draft, workload, rules)
    if failing:
        search.cpus_failed.add(id(cpu))
        search.rejections.update(failing)
        return None
    psus = search.psus_for(power_budget(draft, rules).required_w, platform)
    if psus is None:
        search.rejections[Rejection.PSU_BAYS] += 1
        return None
    if search.over_budget((parts + psus.price) * plan.nodes - 0.01, bound):
        return None
    build = replace(draft, psu_watts=psus.usable_w)
    priced = build_bill(build, search.catalog, platform=platform, nic=nic, memory=memory, psus=psus)
    price = priced.monthly_price
    if search.over_budget(price, bound):
        return None
    evaluation = evaluate(build, rules, workload)
    search.explored += 1
    if evaluation.verdict != Verdict.ACCEPT:
        failed = evaluation.failed_codes or (Rejection.BALANCE,)
        search.rejections.update(failed)
        search.cpu_may_help = not evaluation.balance.balanced or bool(set(failed) & CPU_SENSITIVE)
        return None
    work = None
    if search.by_work:
        work = search.unit(gpu, platform, plan, build.pcie_gen).priced(price)
    replicas = plan.replicas
    if work is not None and work.served is not None and replicas is not None:
        # One deployment per answer: the replicas the figures were timed on (the shape
        # check of a timed build describes the same, engine/shape_check.py).
        replicas = served_replicas(work.served, plan.per_node)
    found = Recommendation(
        build=build,
        platform=platform,
        bom=priced.lines,
        evaluation=evaluation,
        monthly_price=price,
        why="",
        nic=nic,
        psu_scheme=psus.label,
        replicas=replicas,
        tier=tier(workload, platform, plan),
        performance=work,
    )
    if work is not None and not work.meets_target:
        search.rejections[Rejection.WORK] += 1
        search.missed.add(gpu.slug)  # more GPUs may meet the target
        search.keep_near(found)
        return None
    return found


def _most_gpus(search: Search, gpu: Gpu, platform: Platform) -> int:
    """Return the most GPUs a build of this GPU on this platform spans (0: none)."""
    if not platform.takes_gpu(gpu):
        return 0
    sizes, networked, _, _ = search.node_sizes(gpu, platform)
    if not sizes:
        return 0
    spread = networked if data_parallel(search.workload) else sizes
    return max(max(sizes), search.max_nodes * max(spread, default=0))


PRECISION = "precision"  # the registered check of the GPU's number formats


def runs_precision(gpu: Gpu, workload: Workload) -> bool:
    """Return whether the GPU's tensor cores run the workload's weights and KV cache, as the
    `precision` check (engine/checks.py) reads them: no build of it passes otherwise."""
    precision = str(workload.precision).lower()
    return gpu.runs(precision) and gpu.runs(str(workload.kv_cache_precision or precision).lower())


def fewest_gpus(workload: Workload, gpu: Gpu, usable: float, max_gpus: int) -> int | None:
    """Return a lower bound of the GPUs (all nodes) a build of this GPU uses, or None.

    Training: the fewest that hold it (sizing, within the usable memory), or the count asked
    for when that holds it. Inference: enough usable memory for the weights; the replicas
    each platform takes are found by its layout.
    """
    if data_parallel(workload):
        if workload.gpu_count:
            sizing = size_workload(workload, workload.gpu_count, usable)
            return workload.gpu_count if sizing.per_gpu_gb <= usable else None
        return gpus_needed(workload, usable, max_gpus=max_gpus)
    fewest = max(1, math.ceil(weights_gb(workload) / usable))
    if workload.gpu_count:
        return workload.gpu_count if workload.gpu_count >= fewest else None
    return fewest if fewest <= max_gpus else None


FLOOR_MARGIN = 1 + 1e-9  # relative: far above a float's rounding, far below a price's cent


def _search_gpu(
    search: Search, gpu: Gpu, fewest: int, platforms, cpus_by_socket, *, limited: bool = True
) -> None:
    """Find the GPU's best build at this count; `limited`: pruned by the `limit`-th best too."""
    by_work = search.by_work
    untargeted = by_work and not has_target(search.workload)
    if by_work:
        beat = search.work_beat(gpu, limited)
        if beat < math.inf and gpu.slug not in search.found:
            search.priced_out.add(gpu.slug)  # builds of it may go unevaluated
    for platform in platforms:
        if not platform.takes_gpu(gpu):
            continue
        # Platforms come cheapest first: once even the GPUs and this platform cost more than
        # the loosest bound (a build of the first tier), every later platform does too. Ranked
        # by the work, a dearer platform may do it sooner: its CPUs' bounds below decide.
        if not by_work and fewest * gpu.monthly_price + platform.monthly_price >= search.bound(gpu):
            break
        # Ranked by the work, once the GPU has a build (so a build missing a target is never
        # completed unbounded) a platform none of whose builds can beat it is not laid out.
        # The floor is a lower bound of each build's cost of the work; the margin keeps the
        # floats' rounding on the side of laying out.
        own = by_work and gpu.slug in search.found
        if own and search.platform_work_floor(gpu, platform) > beat * FLOOR_MARGIN:
            continue
        # Without a target no build misses one, so the `limit` bounds a GPU without a build
        # too: a platform whose layout's floor cannot beat the bound is passed over before its
        # PSUs, CPUs and prices are looked at.
        if (
            untargeted
            and beat < math.inf
            and search.layout_work_floor(gpu, platform, cpus_by_socket) > beat * FLOOR_MARGIN
        ):
            continue
        plan = search.plan(gpu, platform)
        if plan is None:
            continue
        # A platform alike in what the GPU-decided checks read (NVLink, sockets, the layout)
        # fails them as the last one did: a variant differing in power or price is skipped.
        alike = (gpu.slug, platform.nvlink, platform.sockets, plan)
        if alike in search.rejected:
            continue
        if search.psus_for(gpu.tdp_w * plan.per_node, platform) is None:
            # No PSU set the bays take carries even the GPUs: no CPU makes the node powerable.
            search.rejections[Rejection.PSU_BAYS] += 1
            continue
        rank = 0 if by_work else tier(search.workload, platform, plan)
        cpus, gens = search.fitting_cpus(platform, cpus_by_socket)
        if by_work:
            stop, prices = search.work_prices(gpu, platform, plan, gens, beat)
            extra = search.price_floor(gpu, platform, plan, 0.0)
        for cpu, gen in cpus:
            base = _base_price(gpu, platform, plan, cpu)
            if by_work:
                floor = base + extra
                bound = prices[gen]
                if floor >= stop or search.over_budget(floor, math.inf):
                    break  # CPUs come cheapest first
                if floor >= bound:
                    continue  # a CPU of another PCIe generation may still do
            else:
                bound = search.bound(gpu, rank)
                if search.over_budget(base, bound):
                    break  # CPUs come cheapest first
            explored = search.explored
            candidate = complete(search, gpu, platform, cpu, plan, bound)
            if candidate is not None:
                search.consider(candidate)
                if by_work:
                    beat = search.work_beat(gpu, limited)
                    stop, prices = search.work_prices(gpu, platform, plan, gens, beat)
            elif search.explored > explored and not search.cpu_may_help:
                # Evaluated and rejected. The CPU-side checks passed before evaluation and the
                # memory and PSUs were sized to the rules, so what failed is this GPU on this
                # platform (NVLink, capacity, fabric, placement): no other CPU changes that.
                search.rejected.add(alike)
                break


def _base_price(gpu: Gpu, platform: Platform, plan: Layout, cpu: Cpu) -> float:
    """Return what the layout's nodes cost before their memory and PSUs: the platform, its
    GPUs, its CPUs and its NICs (summed in this order everywhere, so bounds compare the same
    floats)."""
    nics = plan.nics * plan.nic.monthly_price if plan.nic else 0.0
    node = platform.monthly_price + plan.per_node * gpu.monthly_price
    return plan.nodes * (node + platform.sockets * cpu.monthly_price + nics)


def _scenario_candidates(search: Search, catalog: Catalog, scenarios: Iterable[Scenario]) -> None:
    """Offer each recipe that matches the workload: its parts and its memory rule
    (`recipes.py`: the cheapest population of at least the recipe's RAM and what the rules
    ask), with the GPUs the workload needs within the recipe's range — the recipe's own build
    when the workload needs its GPU count; a recipe without a platform, on each that takes it."""
    for scenario in scenarios:
        if not scenario.matches(search.workload):
            continue
        cpu = catalog.find("cpus", scenario.cpu_slug)
        for gpu in recipe_gpus(scenario, catalog):
            if cpu is None or gpu.slug not in search.needed:
                continue
            if search.workload.gpu and gpu.slug != search.workload.gpu:
                continue
            node = recipe_node(scenario, catalog, search.rules, gpu)
            if scenario.platform_slug and node is None:
                continue
            platforms = [node.platform] if node else catalog.platforms
            for platform in platforms:
                if not platform.takes_gpu(gpu) or platform.cpu_socket != cpu.socket:
                    continue
                plan = search.plan(gpu, platform)
                # The recipe's name goes only on a build of the recipe's GPUs per node.
                if plan is None or not scenario.takes(plan.per_node, plan.nodes):
                    continue
                candidate = complete(search, gpu, platform, cpu, plan, math.inf, scenario.memory_gb)
                if candidate is not None:
                    pairing = replace(candidate, scenario=scenario.code)
                    kept = search.pairings.get(scenario.code)
                    if kept is None or rank_key(pairing) < rank_key(kept):
                        search.pairings[scenario.code] = pairing
                    search.consider(pairing)
                    break


NODE_STEPS = 4  # how many times a GPU's builds grow by a node to meet a deadline or target


def _least_floor_first(
    search: Search, gpus: list[Gpu], platforms: list[Platform], cpus_by_socket
) -> Iterable[Gpu]:
    """Yield the GPUs to search in the order of `gpus` (the likely best first), deferring
    those whose layouts cost more than that order supposed.

    While fewer than `limit` GPUs have a build nothing bounds a GPU's search, so each of its
    layouts is bounded first (`layout_work_floor`) and the GPU goes back in line by the least
    of those bounds (`gpu_work_floor`): a GPU whose layouts cost more than its guess (two
    PCIe cards exchanging gradients) waits until cheaper builds are found, and the `limit`-th
    best found then skips it unevaluated. Once `limit` GPUs have builds the search bounds
    itself, and the GPUs come as they were. Only without a target: a GPU's count then never
    grows, so a bound of its layouts holds for all its builds.
    """
    # (the order's key, the GPU's place in `gpus`, the bound of its layouts once derived):
    # by the guess and then the place, as `sorted` would order them.
    line: list[tuple[float, int, float | None]] = [
        (search.work_guess(gpu), index, None) for index, gpu in enumerate(gpus)
    ]
    heapq.heapify(line)
    while line:
        _, index, bound = heapq.heappop(line)
        gpu, limit = gpus[index], search.work_limit()
        if bound is not None:
            if bound <= limit * FLOOR_MARGIN:
                yield gpu
            continue
        if search.cannot_enter(gpu):
            continue
        if limit < math.inf:
            yield gpu
            continue
        # A layout under the next GPU's key puts this GPU next whatever the others bound.
        after = line[0][0] if line else math.inf
        bound = search.gpu_work_floor(gpu, platforms, cpus_by_socket, under=after)
        if bound < after:
            yield gpu
        else:
            heapq.heappush(line, (bound, index, bound))


def _more_nodes_for_work(search: Search, gpu: Gpu, max_gpus: int, platforms, cpus) -> None:
    """Grow a GPU's builds by a node at a time while they miss the deadline or target.

    `gpus_for_work` estimates the GPUs on nominal 8-GPU NVLink nodes; a platform with PCIe
    only, or smaller nodes, may need more. Only the GPUs' count changes between steps.
    """
    step = 8
    for _ in range(NODE_STEPS):
        if gpu.slug in search.found or gpu.slug not in search.missed or search.cannot_enter(gpu):
            return
        if gpu.slug in search.priced_out:
            # The `limit` pruned builds of this count unevaluated; one of them accepted would
            # stop the growth, so the count is searched again without it.
            search.priced_out.discard(gpu.slug)
            _search_gpu(search, gpu, search.needed[gpu.slug], platforms, cpus, limited=False)
            if gpu.slug in search.found:
                return
        search.missed.discard(gpu.slug)
        grown = search.needed[gpu.slug] + step
        if grown > max_gpus:
            return
        search.needed[gpu.slug] = grown
        _search_gpu(search, gpu, grown, platforms, cpus)


def recommend(
    workload: Workload,
    catalog: Catalog,
    rules: RuleParams,
    scenarios: Iterable[Scenario] = (),
    *,
    limit: int = 5,
) -> Recommendations:
    """Return up to `limit` accepted builds, one per GPU type, best first; or why none."""
    named = catalog  # scenarios name their parts by slug
    catalog = catalog.cheapest_distinct()
    max_nodes = rules.recommend_max_nodes
    search = Search(workload, catalog, rules, limit, max_nodes)
    gpus = [g for g in catalog.gpus if not workload.gpu or g.slug == workload.gpu]
    if workload.gpu and not gpus:
        gpus = [g for g in named.gpus if g.slug == workload.gpu]
    max_gpus = max((_most_gpus(search, g, p) for g in gpus for p in catalog.platforms), default=0)
    if max_gpus:
        for gpu in gpus:
            if not runs_precision(gpu, workload):
                # The `precision` check rejects every build of it, whatever its CPU (P8 and
                # the other CPU-side checks would otherwise be blamed first).
                search.rejections[PRECISION] += 1
                continue
            fewest = fewest_gpus(workload, gpu, search.usable(gpu), max_gpus)
            if fewest is not None and search.by_work and not workload.gpu_count:
                # Meet the deadline or throughput target with more GPUs (whole nodes).
                fewest = gpus_for_work(workload, gpu, fewest, rules, work_gpus(search, max_gpus))
                if fewest is None:
                    search.rejections[Rejection.WORK] += 1
            if fewest is not None:
                search.needed[gpu.slug] = fewest
        _scenario_candidates(search, named, scenarios)

    platforms, cpus_by_socket = search.cheapest_first()
    needed = search.needed
    # GPUs come cheapest first: by their GPUs' monthly price, or by a guess of what the work
    # costs on them when the work ranks (each then bounded by its own floor).
    first = search.work_guess if search.by_work else lambda g: needed[g.slug] * g.monthly_price
    candidates = [g for g in gpus if g.slug in needed]
    if search.by_work and not has_target(workload):
        ordered = _least_floor_first(search, candidates, platforms, cpus_by_socket)
    else:
        ordered = sorted(candidates, key=first)
    for gpu in ordered:
        if search.by_work:
            if search.cannot_enter(gpu):
                continue
        elif needed[gpu.slug] * gpu.monthly_price >= search.limit_bound():
            break  # no later GPU can enter the top `limit`
        elif needed[gpu.slug] * gpu.monthly_price >= search.bound(gpu):
            continue
        _search_gpu(search, gpu, needed[gpu.slug], platforms, cpus_by_socket)
        _more_nodes_for_work(search, gpu, max_gpus, platforms, cpus_by_socket)

    # The guide's matching pairings are always shown; the best other builds fill the list.
    pairings = sorted(search.pairings.values(), key=rank_key)[:limit]
    others = [r for r in sorted(search.found.values(), key=rank_key) if r.scenario is None]
    ranked = sorted(pairings + others[: max(limit - len(pairings), 0)], key=rank_key)
    builds = tuple(replace(item, why=explain(item, workload, rules, scenarios)) for item in ranked)
    reason, closest = None, ()
    if not builds:
        closest = _closest(workload, search, named, scenarios, limit, work_gpus(search, max_gpus))
        # A closest build that misses nothing meets the workload as given: it is a build,
        # not a near miss (the search's estimate of the GPUs a target needs can pass it by).
        passing = [item.recommendation for item in closest if not item.shortfalls]
        if passing:
            return Recommendations(tuple(sorted(passing, key=rank_key)), None, search.explored)
        reason = no_build_reason(workload, gpus, search, max_gpus, named, closest)
    return Recommendations(builds, reason, search.explored, closest)


def _closest(
    workload: Workload, search: Search, catalog: Catalog, scenarios, limit: int, most: int
) -> tuple[Closest, ...]:
    """Return the builds that come closest to a workload whose targets or budget no build
    meets (`closest.py`): the misses the search kept, the recommender's builds for the work
    without its targets and budget, and, for a deadline or a throughput that more GPUs meet
    sooner, its builds of the most GPUs a build spans (`most`)."""
    if not has_limits(workload):
        return ()
    free = without_limits(workload)
    every = max(limit, len(catalog.gpus))  # a build of each GPU: the closest may be any
    candidates = [*search.near.values()]
    candidates += recommend(free, catalog, search.rules, scenarios, limit=every).builds
    if (
        most
        and not workload.gpu_count
        and (workload.deadline_days is not None or workload.target_tokens_per_s is not None)
    ):
        largest = replace(free, gpu_count=most)
        candidates += recommend(largest, catalog, search.rules, scenarios, limit=every).builds
    found = closest_builds(workload, candidates, search.rules, limit)
    return tuple(
        replace(
            item,
            recommendation=replace(
                item.recommendation,
                why=explain(item.recommendation, workload, search.rules, scenarios),
            ),
        )
        for item in found
    )
