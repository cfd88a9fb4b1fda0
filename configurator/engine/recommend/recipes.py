"""A recipe (the guide's scenarios S1–S3) as one node's parts: the one recipe → build rule.

A recipe names a CPU, its GPU models, a GPU count range ("4–8"), a platform and its RAM. Its
node is: the platform's sockets (as many as the CPU takes), the most GPUs of the recipe's
range that the platform's slots take within the rules' GPUs per socket, split over the sockets
as evenly as their caps allow, NVLink where the GPU and platform have it, and the cheapest
balanced ECC RDIMM population holding both the recipe's RAM (a minimum) and what the rules ask
for these GPUs — the recommender's picker, so a recipe has the same memory wherever it is
built. The PSUs follow from the node's power budget (`recipe_psus`). The configurator page,
the fleet's delivery scripts and rule-impact preview (through `configurator/recipes.py`), the
recommender's scenario candidates and the quote's recipe diff all read this.
"""

from __future__ import annotations

from dataclasses import dataclass

from configurator.engine.build import Cpu, Gpu, Platform
from configurator.engine.catalog import Catalog
from configurator.engine.memory import memory_requirement
from configurator.engine.parts import MemoryOption, PsuOption, cheapest_population, cheapest_psu_set
from configurator.engine.recommend.layouts import socket_caps, socket_split
from configurator.engine.recommend.results import Scenario
from configurator.engine.rules import RuleParams


@dataclass(frozen=True)
class RecipeNode:
    """One node of a recipe: its parts and counts, and the DIMM population that fills it."""

    code: str
    platform: Platform
    cpu: Cpu
    cpu_count: int
    gpu: Gpu
    gpu_count: int
    gpus_per_socket: tuple[int, ...]
    memory: MemoryOption
    nvlink: bool


def recipe_gpus(scenario: Scenario, catalog: Catalog) -> tuple[Gpu, ...]:
    """Return the recipe's GPU models the catalog has, the most GPU memory first (the page
    opens on the first)."""
    gpus = (catalog.find("gpus", slug) for slug in scenario.gpu_slugs)
    return tuple(sorted((gpu for gpu in gpus if gpu), key=lambda gpu: (-gpu.memory_gb, gpu.slug)))


def recipe_gpu_count(scenario: Scenario, platform: Platform, rules: RuleParams) -> int:
    """Return the most GPUs the recipe names (S2: 4–8) that its platform's slots take within
    the rules' GPUs per socket."""
    slots = sum(socket_caps(platform, rules))
    return min(slots, scenario.gpus_max) if scenario.gpus_max else slots


def recipe_node(
    scenario: Scenario,
    catalog: Catalog,
    rules: RuleParams,
    gpu: Gpu | None = None,
    offered: Catalog | None = None,
) -> RecipeNode | None:
    """Return the recipe's node with `gpu` (by default its first GPU model), or None when the
    recipe names no platform or the catalog lacks its parts or a population that fits.

    The recipe's parts are found in `catalog`; its DIMMs are picked from `offered` (default:
    the same catalog), as the recommender picks them."""
    if not scenario.platform_slug:
        return None
    platform = catalog.find("platforms", scenario.platform_slug)
    cpu = catalog.find("cpus", scenario.cpu_slug)
    gpus = recipe_gpus(scenario, catalog)
    gpu = gpu or (gpus[0] if gpus else None)
    if platform is None or cpu is None or gpu is None or gpu not in gpus:
        return None
    sockets = min(platform.sockets, cpu.max_sockets)
    count = max(1, recipe_gpu_count(scenario, platform, rules))
    split = socket_split(count, socket_caps(platform, rules)[:sockets])
    need = memory_requirement(count, gpu.memory_gb, rules).required_gb
    memory = cheapest_population(
        max(need, scenario.memory_gb), cpu, sockets, platform, (offered or catalog).memory
    )
    if memory is None:
        return None
    return RecipeNode(
        code=scenario.code,
        platform=platform,
        cpu=cpu,
        cpu_count=sockets,
        gpu=gpu,
        gpu_count=count,
        gpus_per_socket=split,
        memory=memory,
        nvlink=gpu.has_nvlink and platform.nvlink != "none",
    )


def recipe_psus(node: RecipeNode, required_w: int, catalog: Catalog) -> PsuOption | None:
    """Return the cheapest redundant PSU set of the recipe's chassis covering `required_w`
    (PSUs the platform takes, as the recommender picks them)."""
    platform = node.platform
    fitting = tuple(psu for psu in catalog.psus if platform.takes_psu(psu))
    return cheapest_psu_set(required_w, platform.psu_bays, fitting, platform.psu_max_w)
