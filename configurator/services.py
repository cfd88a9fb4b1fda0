"""Actions: evaluate a build, publish a rule version."""

from collections.abc import Callable
from dataclasses import replace
from functools import cache

from django.contrib.auth.models import AbstractBaseUser
from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import translation
from django.utils.translation import gettext

from configurator import selectors
from configurator.engine.build import Workload
from configurator.engine.evaluate import Evaluation, evaluate
from configurator.engine.performance import Cluster, gpu_rent_note, performance
from configurator.engine.pricing import build_bill
from configurator.engine.recommend import Recommendation, recommend
from configurator.engine.registry import REGISTRY
from configurator.engine.rule_validation import parameter_errors
from configurator.engine.rules import RuleParams
from configurator.engine.sizing import (
    SIZING_UNIT,
    card_gb,
    gpus_needed,
    size_workload,
    usable_gb,
)
from configurator.inputs import (
    InputErrors,
    build_from_input,
    preferred_gpu_errors,
    workload_from_input,
)
from configurator.models import RuleProfile, RuleSetVersion
from configurator.schemas import EvaluateIn, RecommendIn, WorkloadIn
from configurator.translation import check_title, localize, speaks_english


class StaleVersion(Exception):
    """A rule edit started from a version that is no longer the current one."""

    def __init__(self, current: RuleSetVersion, base_version: int) -> None:
        super().__init__(f"Version {base_version} is stale: version {current.version} is current.")
        self.current = current
        self.base_version = base_version

    def since(self) -> list[RuleSetVersion]:
        """Return the versions published after the base, oldest first."""
        return list(
            self.current.profile.versions.filter(version__gt=self.base_version)
            .select_related("created_by")
            .order_by("version")
        )


def rule_version_for(profile: str | None, *, path: str = "profile") -> RuleSetVersion:
    """Return the current version of a named (or the default) profile, or raise InputErrors."""
    try:
        return selectors.rule_version_current(profile)
    except (RuleProfile.DoesNotExist, RuleSetVersion.DoesNotExist) as error:
        raise InputErrors({path: [_unknown_profile(profile)]}) from error


def _unknown_profile(profile: str | None) -> str:
    return gettext("Unknown rule profile %(profile)s.") % {"profile": repr(profile)}


def build_evaluate(
    payload: EvaluateIn, *, snapshot: selectors.Snapshots | None = None
) -> dict[str, object]:
    """Evaluate one build against the current rules (or those of `snapshot`, the catalog and
    rules a request already read); the answer names the rule version."""
    catalog, rules = snapshot or selectors.snapshots()
    errors = InputErrors()
    version = build = workload = None
    try:
        version = _version_in(rules, payload.profile)
    except InputErrors as error:
        errors.merge(error)
    try:
        build = build_from_input(payload.build, catalog.everything)
    except InputErrors as error:
        errors.merge(error)
    if payload.workload:
        try:
            workload = _workload(payload.workload, catalog.everything)
        except InputErrors as error:
            errors.merge(error)
    errors.raise_if_any()
    evaluation = evaluate(build, version.params, workload)
    price = build_bill(
        build,
        catalog.offered,
        platform=catalog.everything.find("platforms", payload.build.platform or ""),
        nic=catalog.everything.find("nics", payload.build.nic or ""),
    ).monthly_price
    translate = _translate()
    result = evaluation_dict(evaluation, translate, price)
    result["ruleset"] = version.as_dict()
    if workload is not None:
        work = performance(
            build,
            workload,
            version.params,
            price,
            evaluation.failed_codes,
            evaluation.balance.balanced,
        )
        if work is not None:
            result["performance"] = work.as_dict(translate)
    return result


def _translate():
    """Return how the engine's texts are written: as the engine writes them, or translated.

    Findings, the recommender's why and reason, and the assumptions of sizing and of the
    performance model are messages (`engine.messages`), rendered in the request's language.
    """
    return str if speaks_english() else localize


# api.md v1 answered each check's title in Chinese as `title_zh`. A documented field is never
# dropped, so it stays, filled from that language's catalogue like every other text; the
# request's language has `title_translated`, and `title_message` is the language-neutral id.
TITLE_ZH_LANGUAGE = "zh-hans"


@cache
def _titles_zh() -> dict[str, str]:
    # A title is fixed per code, and a process loads its catalogues once (as Django does):
    # rendered once, not per answer (an evaluation has sixteen checks, /recommend many).
    with translation.override(TITLE_ZH_LANGUAGE):
        return {item.code: check_title(item.code) for item in REGISTRY}


def evaluation_dict(
    evaluation: Evaluation, translate: Callable[[str], str], price: float | None
) -> dict[str, object]:
    """Return an evaluation in the API's shape, its texts rendered by `translate`."""
    result = evaluation.as_dict(translate, price)
    titles = _titles_zh()
    for check in result["checks"]:
        check["title_zh"] = titles.get(check["code"], check["title"])
    return result


def _gpu_slug(workload: WorkloadIn, catalog) -> str | None:
    """Resolve the workload's preferred GPU (slug or name) or raise InputErrors."""
    if workload.gpu is None:
        return None
    preferred_gpu_errors(workload, catalog).raise_if_any()
    return catalog.find("gpus", workload.gpu).slug


def _version_in(rules: selectors.RulesSnapshot, profile: str | None) -> selectors.RuleVersionRef:
    """Return the current version of a named (or the default) profile, or raise InputErrors."""
    version = rules.current.get(profile or rules.default)
    if version is None:
        raise InputErrors({"profile": [_unknown_profile(profile)]})
    return version


def _workload(workload_in: WorkloadIn, catalog) -> Workload:
    """Return the engine's workload, its preferred GPU resolved to a slug."""
    return replace(workload_from_input(workload_in), gpu=_gpu_slug(workload_in, catalog))


def workload_size(workload_in: WorkloadIn, *, profile: str | None = None) -> dict[str, object]:
    """Size a workload's GPU memory need; with a GPU named, say how many of it hold it.

    With a GPU, the answer shows the need, what each card may fill (the profile's usable
    share of its memory) and the card's memory, in the maker's unit and in GB.
    """
    catalog, rules = selectors.snapshots()
    translate = _translate()
    version = _version_in(rules, profile)
    slug = _gpu_slug(workload_in, catalog.everything)
    workload = workload_from_input(workload_in)
    gpu = catalog.everything.find("gpus", slug) if slug else None
    fraction = version.params.gpu_memory_usable_fraction
    usable = usable_gb(gpu.memory_gb, fraction) if gpu else None
    try:
        sizing = size_workload(workload, gpu_memory_gb=usable)
    except ValueError as error:  # a shape that cannot describe any model
        raise InputErrors({"workload": [str(error)]}) from error
    result: dict[str, object] = {
        "total_gb": round(sizing.total_gb, 2),
        "per_gpu_gb": None if sizing.per_gpu_gb is None else round(sizing.per_gpu_gb, 2),
        "gpu_count": sizing.gpu_count,
        "breakdown": {key: round(value, 2) for key, value in sizing.breakdown.items()},
        "assumptions": [translate(note) for note in sizing.assumptions],
        "unit": translate(SIZING_UNIT),
    }
    if gpu:
        result["gpu"] = gpu.slug
        result["gpus_needed"] = gpus_needed(workload, usable, max_gpus=1024)
        result["gpu_memory_gib"] = gpu.memory_gb
        result["card_gb"] = round(card_gb(gpu.memory_gb), 2)
        result["usable_fraction"] = fraction
        result["usable_gb"] = round(usable, 2)
        total = workload.gpu_count or result["gpus_needed"]
        if workload.has_work and total:
            cluster = Cluster.of_gpus(gpu, total, version.params)
            work = performance(cluster, workload, version.params, gpu.monthly_price * total)
            result["performance"] = work.as_dict(translate)
            result["performance"]["assumptions"].append(translate(gpu_rent_note(total, gpu)))
    return result


def build_recommend(payload: RecommendIn) -> dict[str, object]:
    """Recommend priced builds that the rules accept for a workload, cheapest first."""
    catalog, rules = selectors.snapshots()
    version = _version_in(rules, payload.profile)
    workload = _workload(payload.workload, catalog.everything)
    found = recommend(
        workload, catalog.offered, version.params, rules.scenarios, limit=payload.limit
    )
    ruleset = version.as_dict()
    reason = found.reason
    return {
        "builds": [recommendation_dict(item, ruleset) for item in found.builds],
        "reason": _translate()(reason) if reason is not None else None,
        "ruleset": ruleset,
    }


def recommendation_dict(item: Recommendation, ruleset: dict[str, object]) -> dict[str, object]:
    """Return a recommendation in the API's shape: its build posts back to /evaluate as is."""
    build = item.build
    translate = _translate()
    evaluation = evaluation_dict(item.evaluation, translate, item.monthly_price)
    evaluation["ruleset"] = ruleset
    return {
        "build": {
            "cpu": build.cpu.slug,
            "cpu_count": build.cpu_count,
            "gpu": build.gpu.slug,
            "gpu_count": build.gpu_count,
            "gpus_per_socket": list(build.gpus_per_socket),
            "memory_gb": build.memory_gb,
            "memory_ecc": build.memory_ecc,
            "psu_watts": build.psu_watts,
            "nvlink": build.nvlink,
            "numa_binding": build.numa_binding,
            "nodes": build.nodes,
            "nics": build.nics,
            "nic": item.nic.slug if item.nic else None,
            "platform": item.platform.slug,
            "dimm_count": build.dimms,
            "bom": [
                {
                    "kind": line.kind,
                    "slug": line.slug,
                    "name": line.name,
                    "qty": line.qty,
                    "unit_price": line.monthly_price,
                    "monthly_price": round(line.qty * line.monthly_price, 2),
                }
                for line in item.bom
            ],
        },
        "evaluation": evaluation,
        "monthly_price": item.monthly_price,
        "currency": "CNY",
        "why": translate(item.why),
        "scenario": item.scenario,
        "psu_redundancy": item.psu_scheme,
        "replicas": (
            {
                "gpus": item.replicas.size,
                "count": item.replicas.count,
                "sequences_each": item.replicas.batch,
                "nodes_each": item.replicas.nodes_per_replica,
            }
            if item.replicas
            else None
        ),
        "performance": item.performance.as_dict(translate) if item.performance else None,
    }


@transaction.atomic
def ruleset_publish(
    *,
    profile: RuleProfile,
    changes: dict[str, float],
    user: AbstractBaseUser | None,
    note: str = "",
    base_version: int | None = None,
) -> RuleSetVersion:
    """Publish the next version of a profile with `changes` applied; raise on a bad value.

    With `base_version` (the version the editor started from) an edit made while someone else
    published raises StaleVersion and publishes nothing: it is never merged or reverted.
    """
    # Lock the profile so two architects publishing at once get consecutive numbers.
    profile = RuleProfile.objects.select_for_update().get(pk=profile.pk)
    current = profile.versions.order_by("-version").first()
    if base_version is not None and current is not None and current.version != base_version:
        raise StaleVersion(current, base_version)
    current_params = RuleParams.from_mapping(current.parameters if current else {})
    errors = parameter_errors(changes, current_params)
    if errors:
        raise ValidationError(errors)
    previous = current_params.as_dict()
    parameters = RuleParams.from_mapping({**previous, **changes}).as_dict()
    diff = {
        name: [previous[name], value]
        for name, value in parameters.items()
        if value != previous[name] or current is None
    }
    if current is not None and not diff:
        return current  # nothing changes: no new version
    return RuleSetVersion.objects.create(
        profile=profile,
        version=(current.version + 1) if current else 1,
        parameters=parameters,
        changes=diff,
        note=note,
        created_by=user if user and user.is_authenticated else None,
    )
