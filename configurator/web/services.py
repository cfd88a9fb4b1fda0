"""The configurator's actions: assess a configured build, fix it, start it, recommend builds.

A configuration becomes an engine `Build` the one way every surface takes
(`inputs.build_from_input`), and is evaluated by the service `/api/v1/evaluate` calls
(`configurator.services.build_evaluate`), so the page and the API can never disagree; the
answers are the services' objects, read by attribute. Pricing, options and fixes are the
plain modules beside this one.
"""

from __future__ import annotations

import hashlib
import secrets
from dataclasses import dataclass
from decimal import Decimal
from functools import cached_property, lru_cache
from urllib.parse import urlencode

from django.db import IntegrityError, transaction

from configurator import selectors, services
from configurator.engine.build import Build
from configurator.engine.evaluate import Evaluation, evaluate
from configurator.engine.findings import Finding
from configurator.engine.performance import Performance
from configurator.engine.recommend import Recommendation
from configurator.engine.registry import REGISTRY
from configurator.fleet.manifest import expected_manifest
from configurator.inputs import (
    InputErrors,
    build_from_input,
    resolved_workload,
    workload_from_input,
)
from configurator.quotes.services import AssessedBuild
from configurator.recipes import recipe_for
from configurator.schemas import BuildIn, WorkloadIn
from configurator.translation import localize, localized_errors
from configurator.web.configuration import Configuration, WorkloadChoice
from configurator.web.fixes import Fix, Judge, fix_for, fixes_for
from configurator.web.models import ALPHABET, ID_LENGTH, SharedConfiguration
from configurator.web.pricing import Bill, bill_of_materials

DEFAULT_RECIPE = "S2"  # the page opens on the guide's mid-size training recipe
RECOMMENDATIONS = 3  # builds the configurator shows for a workload
# The catalog and rules a request works on; read once per request (`selectors.snapshots`).
Snapshot = selectors.Snapshots


@dataclass(frozen=True)
class Assessment:
    """A configured build with its evaluation and its bill of materials."""

    config: Configuration
    workload: WorkloadChoice | None
    evaluation: services.Evaluated | None  # None when the input has errors
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
            verdict=self.evaluation.verdict if self.evaluation else "error",
            manifest=(
                expected_manifest(self.evaluation.build, self.evaluation.ruleset.params)
                if self.evaluation
                else {}
            ),
        )


def permalink_query(config: Configuration, workload: WorkloadChoice | None) -> str:
    """Return the permalink's query string: the build fields, then the workload's."""
    params = config.query() + (workload.query() if workload else [])
    return urlencode(params, safe="+")


def _build_in(config: Configuration) -> BuildIn:
    values = config.build_input()
    values["gpus_per_socket"] = values["gpus_per_socket"] or None
    return BuildIn(**values)


def _workload_in(workload: WorkloadChoice, **extra: object) -> WorkloadIn:
    return WorkloadIn(**workload.workload_input(), **extra)


def configuration_assess(
    *, config: Configuration, workload: WorkloadChoice | None, snapshot: Snapshot | None = None
) -> Assessment:
    """Evaluate and price a configured build; input errors are named by build field."""
    snapshot = snapshot or selectors.snapshots()
    everything = snapshot[0].everything
    problems = InputErrors()
    build = problems.collect(lambda: build_from_input(_build_in(config), everything))
    engine_workload = None
    if workload:
        engine_workload = problems.collect(
            lambda: resolved_workload(_workload_in(workload), everything)
        )
    evaluated, errors = None, {}
    if problems.errors:
        errors = {
            path.split(".", 1)[-1]: messages
            for path, messages in localized_errors(problems.errors).items()
        }
    else:
        evaluated = services.build_evaluate(
            build=build, workload=engine_workload, snapshot=snapshot
        )
    bill = bill_of_materials(config, everything, snapshot[0].offered)
    return Assessment(config, workload, evaluated, bill, errors)


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
    *,
    config: Configuration,
    workload: WorkloadChoice | None,
    snapshot: Snapshot | None = None,
    evaluation: Evaluation | None = None,
) -> dict[str, Fix]:
    """Return, by code, the change that clears each failing or warning check that has one:
    the page shows each with its text, and `configuration_fix` makes the same one.
    `evaluation`: the configuration's own, when the page has judged it already."""
    snapshot = snapshot or selectors.snapshots()
    catalog = snapshot[0]
    judge = _judge(workload, snapshot)
    return fixes_for(config, catalog.everything, judge, catalog.offered, evaluation)


def _judge(workload: WorkloadChoice | None, snapshot: Snapshot) -> Judge:
    """Return how a fix judges a configuration: the engine, with the page's rules."""
    catalog, rules = snapshot
    params = rules.current[rules.default].params
    engine_workload = workload_from_input(_workload_in(workload)) if workload else None

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
    return Configuration.from_build(recipe.build)


def recipes(*, snapshot: Snapshot | None = None) -> list[tuple[str, str]]:
    """Return the active recipes as (code, name)."""
    _, rules = snapshot or selectors.snapshots()
    return [
        (scenario.code, localize(scenario.name))
        for scenario in rules.scenarios
        if scenario.platform_slug
    ]


@dataclass(frozen=True)
class Miss:
    """A target a closest build misses (engine `closest.Shortfall`), in the request's
    language, with the target it meets."""

    field: str
    passes_with: float
    text: str


@dataclass(frozen=True)
class Recommended:
    config: Configuration
    monthly_price: float
    why: str  # in the request's language
    scenario: str | None
    verdict: str
    performance: Performance | None = None  # the work's figures, when the workload has work
    misses: tuple[Miss, ...] = ()  # a closest build's (no build meets the workload)


def workload_recommend(
    *,
    workload: WorkloadChoice,
    prefer_gpu: str | None = None,
    limit: int = RECOMMENDATIONS,
    snapshot: Snapshot | None = None,
) -> tuple[list[Recommended], str | None, list[Recommended]]:
    """Return the recommender's builds for a workload as configurations, its reason when
    there are none, and then the closest builds with what each misses."""
    snapshot = snapshot or selectors.snapshots()
    preferred = _workload_in(workload, gpu=prefer_gpu or None)
    wanted = resolved_workload(preferred, snapshot[0].everything)
    found = services.build_recommend(workload=wanted, limit=limit, snapshot=snapshot).found
    recommended = [_recommended(item) for item in found.builds]
    closest = [
        _recommended(
            item.recommendation,
            tuple(Miss(s.field, s.passes_with, localize(s.message)) for s in item.shortfalls),
        )
        for item in found.closest
    ]
    reason = localize(found.reason) if found.reason is not None else None
    return recommended, reason, closest


def _recommended(item: Recommendation, misses: tuple[Miss, ...] = ()) -> Recommended:
    return Recommended(
        Configuration.from_build(item.build),
        item.monthly_price,
        localize(item.why),
        item.scenario,
        str(item.evaluation.verdict),
        item.performance,
        misses,
    )


# Short links ----------------------------------------------------------------------------------


def configuration_share(*, query: str) -> SharedConfiguration:
    """Return the shared configuration (short link) of a permalink's query string: made once,
    found again for the same query; its id drawn by `secrets` (`models.ALPHABET`)."""
    digest = hashlib.sha256(query.encode()).hexdigest()
    for _attempt in range(5):  # a drawn id already taken: five draws in a row cannot all be
        existing = SharedConfiguration.objects.filter(digest=digest).first()
        if existing is not None:
            return existing
        shared_id = "".join(secrets.choice(ALPHABET) for _ in range(ID_LENGTH))
        try:
            with transaction.atomic():
                return SharedConfiguration.objects.create(id=shared_id, query=query, digest=digest)
        except IntegrityError:
            continue  # the id was drawn before, or the same query was shared meanwhile
    raise RuntimeError("no free id for a shared configuration")
