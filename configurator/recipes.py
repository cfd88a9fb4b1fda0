"""The guide's recipes (S1–S3) as builds: the one recipe → build of every surface.

`engine/recommend/recipes.py` decides a recipe's node (parts, GPU count and split, memory); here it
becomes the API's build fields (`BuildIn`) and, through `inputs.build_from_input`, the engine
`Build` — its PSU output the cheapest redundant set that covers the node's power budget under
the given rules. The configurator page opens a recipe from these fields, the fleet's delivery
scripts and rule-impact preview evaluate these builds, and the quote's recipe diff compares a
quote with them, so a recipe is the same build, with the same verdict, on each of them.
"""

from __future__ import annotations

from dataclasses import dataclass

from configurator import selectors
from configurator.engine.build import Build, Gpu
from configurator.engine.power import power_budget
from configurator.engine.recommend.recipes import recipe_gpus, recipe_node, recipe_psus
from configurator.engine.recommend.results import Scenario
from configurator.engine.rules import RuleParams
from configurator.inputs import build_from_input
from configurator.schemas import BuildIn


@dataclass(frozen=True)
class RecipeBuild:
    code: str
    name: str  # as written in the recipe's row; shown through `translation.written`
    fields: BuildIn  # the build as /api/v1/evaluate takes it (the page's permalink fields)
    build: Build
    scenario: Scenario

    @property
    def label(self) -> str:
        return f"{self.code} · {self.build.gpu_count} × {self.build.gpu.name}"


def recipe_build(
    scenario: Scenario,
    *,
    snapshot: selectors.Snapshots | None = None,
    rules: RuleParams | None = None,
    gpu: Gpu | None = None,
) -> RecipeBuild | None:
    """Return the recipe's build with `gpu` (its first GPU model by default) under `rules`
    (the default profile's current ones by default), or None when it cannot be built."""
    catalog, rules_snapshot = snapshot or selectors.snapshots()
    rules = rules or rules_snapshot.current[rules_snapshot.default].params
    node = recipe_node(scenario, catalog.everything, rules, gpu, catalog.offered)
    if node is None:
        return None
    fields = BuildIn(
        cpu=node.cpu.slug,
        cpu_count=node.cpu_count,
        gpu=node.gpu.slug,
        gpu_count=node.gpu_count,
        gpus_per_socket=list(node.gpus_per_socket),
        memory_gb=node.memory.total_gb,
        memory_ecc=True,
        psu_watts=1,
        nvlink=node.nvlink,
        numa_binding=True,
        platform=node.platform.slug,
    )
    need_w = power_budget(build_from_input(fields, catalog.everything), rules).required_w
    psus = recipe_psus(node, need_w, catalog.offered)
    fields = fields.model_copy(update={"psu_watts": psus.usable_w if psus else need_w})
    build = build_from_input(fields, catalog.everything)
    return RecipeBuild(scenario.code, scenario.name, fields, build, scenario)


def recipe_builds(
    *, snapshot: selectors.Snapshots | None = None, rules: RuleParams | None = None
) -> list[RecipeBuild]:
    """Return a build for each active recipe and each of its GPU models, by code."""
    snapshot = snapshot or selectors.snapshots()
    catalog, rules_snapshot = snapshot
    found = []
    for scenario in sorted(rules_snapshot.scenarios, key=lambda s: s.code):
        for gpu in sorted(recipe_gpus(scenario, catalog.everything), key=lambda g: g.slug):
            built = recipe_build(scenario, snapshot=snapshot, rules=rules, gpu=gpu)
            if built is not None:
                found.append(built)
    return found


def recipe_for(code: str, *, snapshot: selectors.Snapshots | None = None) -> RecipeBuild | None:
    """Return the build of recipe `code` (S1–S3) with its first GPU model, or None."""
    snapshot = snapshot or selectors.snapshots()
    scenario = next((s for s in snapshot[1].scenarios if s.code == code), None)
    return recipe_build(scenario, snapshot=snapshot) if scenario else None
