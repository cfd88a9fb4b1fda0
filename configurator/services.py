"""Actions: evaluate a build, publish a rule version."""

from django.contrib.auth.models import AbstractBaseUser
from django.core.exceptions import ValidationError
from django.db import transaction

from configurator import selectors
from configurator.engine.evaluate import evaluate
from configurator.engine.rule_validation import parameter_errors
from configurator.engine.rules import RuleParams
from configurator.inputs import InputErrors, build_from_input, workload_from_input
from configurator.models import RuleProfile, RuleSetVersion
from configurator.schemas import EvaluateIn


def rule_version_for(profile: str | None, *, path: str = "profile") -> RuleSetVersion:
    """Return the current version of a named (or the default) profile, or raise InputErrors."""
    try:
        return selectors.rule_version_current(profile)
    except (RuleProfile.DoesNotExist, RuleSetVersion.DoesNotExist) as error:
        raise InputErrors({path: [f"Unknown rule profile {profile!r}."]}) from error


def build_evaluate(payload: EvaluateIn) -> dict[str, object]:
    """Evaluate one build against the current rules; the answer names the rule version."""
    catalog, rules = selectors.snapshots()
    errors = InputErrors()
    version = rules.current.get(payload.profile or rules.default)
    if version is None:
        errors.add("profile", f"Unknown rule profile {payload.profile!r}.")
    try:
        build = build_from_input(payload.build, catalog.everything)
    except InputErrors as error:
        errors.merge(error)
    errors.raise_if_any()
    workload = workload_from_input(payload.workload) if payload.workload else None
    result = evaluate(build, version.params, workload).as_dict()
    result["ruleset"] = version.as_dict()
    return result


@transaction.atomic
def ruleset_publish(
    *,
    profile: RuleProfile,
    changes: dict[str, float],
    user: AbstractBaseUser | None,
    note: str = "",
) -> RuleSetVersion:
    """Publish the next version of a profile with `changes` applied; raise on a bad value."""
    # Lock the profile so two architects publishing at once get consecutive numbers.
    profile = RuleProfile.objects.select_for_update().get(pk=profile.pk)
    current = profile.versions.order_by("-version").first()
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
    return RuleSetVersion.objects.create(
        profile=profile,
        version=(current.version + 1) if current else 1,
        parameters=parameters,
        changes=diff,
        note=note,
        created_by=user if user and user.is_authenticated else None,
    )
