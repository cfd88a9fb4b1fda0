"""Actions: evaluate a build, size a workload, recommend builds, publish a rule version.

Each takes the domain's objects by keyword (an engine `Build`, a `Workload`, a profile's
name) and returns the engine's answer with what the surfaces show beside it (`Evaluated`,
`Sized`, `Recommended`): the API writes them as JSON in `api_shapes`, the pages read their
attributes. Input is turned into the domain first, by `inputs`.
"""

from dataclasses import dataclass

from django.contrib.auth.models import AbstractBaseUser
from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils.translation import gettext

from configurator import selectors
from configurator.engine.build import Build, Gpu, Workload
from configurator.engine.evaluate import Evaluation, evaluate, verdict_under
from configurator.engine.performance import Cluster, Performance, gpu_rent_note, performance
from configurator.engine.pricing import build_bill
from configurator.engine.recommend import Recommendations, recommend
from configurator.engine.rule_validation import parameter_errors
from configurator.engine.rules import RuleParams
from configurator.engine.sizing import Sizing, gpus_needed, size_workload, usable_gb
from configurator.inputs import InputErrors
from configurator.models import RuleProfile, RuleSetVersion


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


@dataclass(frozen=True)
class Reference:
    """Another rule profile's verdict on a build: "NVIDIA AI Enterprise RA 2-8-5: accept"."""

    ruleset: selectors.RuleVersionRef
    verdict: str

    def as_dict(self) -> dict[str, object]:
        return {
            "profile": self.ruleset.profile,
            "name": self.ruleset.name,
            "version": self.ruleset.version,
            "verdict": self.verdict,
        }


@dataclass(frozen=True)
class Evaluated:
    """One build judged by the current rules: what `/evaluate`, the page and a quote show."""

    build: Build
    workload: Workload | None
    evaluation: Evaluation
    ruleset: selectors.RuleVersionRef
    monthly_price: float | None  # the build's one bill (`engine.pricing.build_bill`)
    performance: Performance | None  # the work's figures, when the workload states work
    # The verdict of every other published rule profile on the same build and workload
    # (domain.md §8: say which reference a build meets), in the profiles' order.
    references: tuple[Reference, ...] = ()

    @property
    def verdict(self) -> str:
        return str(self.evaluation.verdict)


def build_evaluate(
    *,
    build: Build,
    workload: Workload | None = None,
    profile: str | None = None,
    snapshot: selectors.Snapshots | None = None,
) -> Evaluated:
    """Evaluate one build against the current rules of `profile` (or those of `snapshot`, the
    catalog and rules a request already read), price its parts and time its work."""
    catalog, rules = snapshot or selectors.snapshots()
    version = version_in(rules, profile)
    changes = rules.differences[version.profile]  # by the other profiles, in their order
    watch = frozenset().union(*changes.values())
    evaluation = evaluate(build, version.params, workload, watch=watch)
    price = build_bill(build, catalog.offered).monthly_price
    work = None
    if workload is not None:
        work = performance(
            build,
            workload,
            version.params,
            price,
            evaluation.failed_codes,
            evaluation.balance.balanced,
        )
    references = []
    for slug, changed in changes.items():
        other = rules.current[slug]
        verdict = verdict_under(evaluation, build, workload, other.params, changed)
        references.append(Reference(other, str(verdict)))
    return Evaluated(build, workload, evaluation, version, price, work, tuple(references))


def version_in(rules: selectors.RulesSnapshot, profile: str | None) -> selectors.RuleVersionRef:
    """Return the current version of a named (or the default) profile, or raise InputErrors."""
    version = rules.current.get(profile or rules.default)
    if version is None:
        raise InputErrors({"profile": [_unknown_profile(profile)]})
    return version


@dataclass(frozen=True)
class Sized:
    """A workload's GPU memory need; with a GPU, how many of it hold it and what they do."""

    workload: Workload
    sizing: Sizing
    gpu: Gpu | None = None
    usable_fraction: float | None = None  # the profile's usable share of the card's memory
    usable_gb: float | None = None
    gpus_needed: int | None = None
    performance: Performance | None = None  # on `gpus_needed` (or the workload's) GPUs
    rent_note: str | None = None  # a Message: the GPUs' rent stands for the build's


def workload_size(
    *, workload: Workload, profile: str | None = None, snapshot: selectors.Snapshots | None = None
) -> Sized:
    """Size a workload's GPU memory need; with a GPU preferred (`workload.gpu`, a slug), say
    how many of it hold it and, for stated work, what they do with it."""
    catalog, rules = snapshot or selectors.snapshots()
    version = version_in(rules, profile)
    gpu = catalog.everything.find("gpus", workload.gpu) if workload.gpu else None
    fraction = version.params.gpu_memory_usable_fraction
    usable = usable_gb(gpu.memory_gb, fraction) if gpu else None
    try:
        sizing = size_workload(workload, gpu_memory_gb=usable)
    except ValueError as error:  # a shape that cannot describe any model
        raise InputErrors({"workload": [str(error)]}) from error
    if gpu is None:
        return Sized(workload, sizing)
    needed = gpus_needed(workload, usable, max_gpus=1024)
    total = workload.gpu_count or needed
    work = note = None
    if workload.has_work and total:
        cluster = Cluster.of_gpus(gpu, total, version.params)
        work = performance(cluster, workload, version.params, gpu.monthly_price * total)
        note = gpu_rent_note(total, gpu)
    return Sized(workload, sizing, gpu, fraction, usable, needed, work, note)


@dataclass(frozen=True)
class Recommended:
    """The recommender's builds for a workload under one rule version, or why there are none."""

    found: Recommendations
    ruleset: selectors.RuleVersionRef


def build_recommend(
    *,
    workload: Workload,
    profile: str | None = None,
    limit: int = 5,
    snapshot: selectors.Snapshots | None = None,
) -> Recommended:
    """Recommend priced builds that the rules accept for a workload, cheapest first."""
    catalog, rules = snapshot or selectors.snapshots()
    version = version_in(rules, profile)
    found = recommend(workload, catalog.offered, version.params, rules.scenarios, limit=limit)
    return Recommended(found, version)


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
