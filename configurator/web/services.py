"""The configurator's actions: assess a configured build, fix it, start it, recommend builds.

Evaluation goes through `configurator.services.build_evaluate` — the API's service — so the
page and `/api/v1/evaluate` can never disagree; pricing, options and fixes are the plain
modules beside this one.
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal
from functools import cached_property, lru_cache
from urllib.parse import urlencode

from configurator import selectors, services
from configurator.engine.build import Build
from configurator.engine.evaluate import Evaluation, evaluate
from configurator.engine.findings import Finding
from configurator.engine.registry import REGISTRY
from configurator.inputs import InputErrors, build_from_input, workload_from_input
from configurator.quotes.services import AssessedBuild
from configurator.recipes import recipe_for
from configurator.schemas import BuildIn, EvaluateIn, RecommendIn, WorkloadIn
from configurator.translation import localize, localized_errors
from configurator.web.configuration import Configuration, WorkloadChoice
from configurator.web.fixes import Fix, Judge, fix_for, fixes_for
from configurator.web.pricing import Bill, bill_of_materials

DEFAULT_RECIPE = "S2"  # the page opens on the guide's mid-size training recipe
RECOMMENDATIONS = 3  # builds the configurator shows for a workload
# The catalog and rules a request works on; read once per request (`selectors.snapshots`).
Snapshot = selectors.Snapshots


@dataclass(frozen=True)
class Assessment:
    """A configured build with its evaluation (api.md's shape) and its bill of materials."""

    config: Configuration
    workload: WorkloadChoice | None
    evaluation: dict | None  # None when the input has errors
    bill: Bill
    errors: dict[str, list[str]]

    @cached_property
    def permalink_query(self) -> str:
        return permalink_query(self.config, self.workload)

    def assessed_build(self) -> AssessedBuild:
        """Return what a lead keeps of this build: its fields, workload, price and verdict."""
        return AssessedBuild(
            build=self.config.build_input(),
            workload=self.workload.workload_input() if self.workload else None,
            permalink=self.permalink_query,
            monthly_price=Decimal(str(self.bill.monthly_price)),
            verdict=self.evaluation["verdict"] if self.evaluation else "error",
        )


def permalink_query(config: Configuration, workload: WorkloadChoice | None) -> str:
    """Return the permalink's query string: the build fields, then the workload's."""
    params = config.query() + (workload.query() if workload else [])
    return urlencode(params, safe="+")


def _build_in(config: Configuration) -> BuildIn:
    values = config.build_input()
    values["gpus_per_socket"] = values["gpus_per_socket"] or None
    return BuildIn(**values)


def configuration_assess(
    *, config: Configuration, workload: WorkloadChoice | None, snapshot: Snapshot | None = None
) -> Assessment:
    """Evaluate and price a configured build; input errors are named by build field."""
    snapshot = snapshot or selectors.snapshots()
    catalog, _ = snapshot
    payload = EvaluateIn(
        build=_build_in(config),
        workload=WorkloadIn(**workload.workload_input()) if workload else None,
    )
    evaluation, errors = None, {}
    try:
        evaluation = services.build_evaluate(payload, snapshot=snapshot)
    except InputErrors as error:
        errors = {
            path.split(".", 1)[-1]: messages
            for path, messages in localized_errors(error.errors).items()
        }
    bill = bill_of_materials(config, catalog.everything, catalog.offered)
    return Assessment(config, workload, evaluation, bill, errors)


def configuration_fix(
    *,
    config: Configuration,
    workload: WorkloadChoice | None,
    code: str,
    snapshot: Snapshot | None = None,
) -> Fix | None:
    """Return the build change that clears check `code` (`web/fixes.py`), or None."""
    snapshot = snapshot or selectors.snapshots()
    catalog = snapshot[0]
    return fix_for(code, config, catalog.everything, _judge(workload, snapshot), catalog.offered)


def configuration_fixes(
    *, config: Configuration, workload: WorkloadChoice | None, snapshot: Snapshot | None = None
) -> dict[str, Fix]:
    """Return, by code, the change that clears each failing or warning check that has one:
    the page shows each with its text, and `configuration_fix` makes the same one."""
    snapshot = snapshot or selectors.snapshots()
    catalog = snapshot[0]
    return fixes_for(config, catalog.everything, _judge(workload, snapshot), catalog.offered)


def _judge(workload: WorkloadChoice | None, snapshot: Snapshot) -> Judge:
    """Return how a fix judges a configuration: the engine, with the page's rules."""
    catalog, rules = snapshot
    params = rules.current[rules.default].params
    engine_workload = (
        workload_from_input(WorkloadIn(**workload.workload_input())) if workload else None
    )

    @lru_cache(maxsize=256)  # the fix's candidates: a check, then every check, of one build
    def build_of(candidate: Configuration) -> Build | None:
        try:
            return build_from_input(_build_in(candidate), catalog.everything)
        except InputErrors:
            return None

    def judged(candidate: Configuration) -> Evaluation | None:
        build = build_of(candidate)
        return None if build is None else evaluate(build, params, engine_workload)

    def checked(candidate: Configuration, code: str) -> Finding | None:
        build = build_of(candidate)
        return None if build is None else REGISTRY.get(code).check(build, engine_workload, params)

    return Judge(judged, checked)


# Recipe builds by (code, catalog snapshot, rules snapshot); each entry keeps its snapshots, so
# the ids in its key stay theirs. The selectors renew a snapshot on every catalog or rules write.
_RECIPE_BUILDS: dict[tuple[str, int, int], tuple[Snapshot, Configuration | None]] = {}


def configuration_from_recipe(
    code: str, *, snapshot: Snapshot | None = None
) -> Configuration | None:
    """Return a recipe's build (S1–S3): its parts, memory and PSUs sized by the rules
    (`configurator/recipes.py`); sized once per catalog and rules snapshot, since every
    configurator request starts from one."""
    snapshot = snapshot or selectors.snapshots()
    key = (code, id(snapshot[0]), id(snapshot[1]))
    cached = _RECIPE_BUILDS.get(key)
    if cached is None:
        if len(_RECIPE_BUILDS) >= 32:
            _RECIPE_BUILDS.clear()
        cached = _RECIPE_BUILDS[key] = (snapshot, _recipe_build(code, snapshot))
    return cached[1]


def _recipe_build(code: str, snapshot: Snapshot) -> Configuration | None:
    """Return the recipe's build (`configurator/recipes.py`, as the fleet and the recommender
    build it) as the page's fields."""
    recipe = recipe_for(code, snapshot=snapshot)
    if recipe is None:
        return None
    fields = recipe.fields
    return Configuration(
        cpu=fields.cpu,
        cpu_count=fields.cpu_count,
        gpu=fields.gpu,
        gpu_count=fields.gpu_count,
        gpus_per_socket=tuple(fields.gpus_per_socket),
        memory_gb=fields.memory_gb,
        memory_ecc=fields.memory_ecc,
        psu_watts=fields.psu_watts,
        nvlink=bool(fields.nvlink),
        numa_binding=fields.numa_binding,
        platform=fields.platform or "",
    )


def recipes(*, snapshot: Snapshot | None = None) -> list[tuple[str, str]]:
    """Return the active recipes as (code, name)."""
    _, rules = snapshot or selectors.snapshots()
    return [
        (scenario.code, localize(scenario.name))
        for scenario in rules.scenarios
        if scenario.platform_slug
    ]


@dataclass(frozen=True)
class Recommended:
    config: Configuration
    monthly_price: float
    why: str
    scenario: str | None
    verdict: str
    performance: dict | None = None  # the work's figures (api.md), when the workload has work


def workload_recommend(
    *, workload: WorkloadChoice, prefer_gpu: str | None = None, limit: int = RECOMMENDATIONS
) -> tuple[list[Recommended], str | None]:
    """Return the recommender's builds for a workload as configurations, and its reason."""
    payload = RecommendIn(
        workload=WorkloadIn(**workload.workload_input(), gpu=prefer_gpu or None), limit=limit
    )
    answer = services.build_recommend(payload)
    found = []
    for item in answer["builds"]:
        build = item["build"]
        config = Configuration(
            cpu=build["cpu"],
            cpu_count=build["cpu_count"],
            gpu=build["gpu"],
            gpu_count=build["gpu_count"],
            gpus_per_socket=tuple(build["gpus_per_socket"]),
            memory_gb=build["memory_gb"],
            memory_ecc=build["memory_ecc"],
            psu_watts=build["psu_watts"],
            nvlink=build["nvlink"],
            numa_binding=build["numa_binding"],
            platform=build["platform"],
            nodes=build["nodes"],
            nics=build["nics"],
            nic=build["nic"] or "",
        )
        found.append(
            Recommended(
                config,
                item["monthly_price"],
                item["why"],
                item["scenario"],
                item["evaluation"]["verdict"],
                item.get("performance"),
            )
        )
    return found, answer["reason"]
