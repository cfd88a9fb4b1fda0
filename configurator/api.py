"""The public JSON API, version 1 (api.md). Thin: validate and turn the input into the
domain (`inputs`), call one service, shape its answer (`api_shapes`).

Every client mistake is a 400 of the form {"errors": {"<field path>": ["message", ...]}},
bounded in size (`api_errors`); every other answer is JSON too: a database fault is a 503, an
unexpected error a 500 with the request id (`middleware`).
"""

from django.core.exceptions import RequestDataTooBig, TooManyFieldsSent, TooManyFilesSent
from django.core.exceptions import ValidationError as DjangoValidationError
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.http.multipartparser import MultiPartParserError
from django.utils.translation import gettext
from ninja import NinjaAPI, Status
from ninja.errors import AuthenticationError, HttpError
from ninja.errors import ValidationError as NinjaValidationError
from ninja.security import django_auth

from configurator import api_shapes, selectors, services
from configurator.api_errors import capped, parse_document, validation_errors
from configurator.api_json import json_answer
from configurator.fleet.api import router as fleet_router
from configurator.fleet.services import ruleset_change_preview
from configurator.inputs import (
    InputErrors,
    evaluate_request,
    preferred_gpu_errors,
    resolved_workload,
)
from configurator.middleware import exception_response, json_error
from configurator.quotes.api import router as quotes_router
from configurator.quotes.services import TransitionRefused
from configurator.schemas import (
    ErrorsOut,
    EvaluateIn,
    EvaluationOut,
    RecommendIn,
    RecommendOut,
    RulesOut,
    RulesPatchIn,
    SizingOut,
    StaleOut,
    Text,
    WorkloadRequestIn,
)
from configurator.translation import localized_errors

api = NinjaAPI(
    title="Balanced GPU node configurator API",
    version="1",
    description=(
        "Catalog, build evaluation, workload sizing, recommendations, baseline rules and quotes."
    ),
    urls_namespace="api-v1",
    docs_url="docs",
)


def errors_response(
    request: HttpRequest, errors: dict[str, list[str]], status: int = 400, **extra
) -> HttpResponse:
    return api.create_response(
        request, {**capped(localized_errors(errors)), **extra}, status=status
    )


@api.exception_handler(NinjaValidationError)
def on_validation_error(request: HttpRequest, exc: NinjaValidationError) -> HttpResponse:
    document = parse_document(request.body) if request.body else dict(request.GET.items())
    return errors_response(request, validation_errors(exc.errors, document))


@api.exception_handler(InputErrors)
def on_input_errors(request: HttpRequest, exc: InputErrors) -> HttpResponse:
    return errors_response(request, exc.errors)


@api.exception_handler(TransitionRefused)
def on_transition_refused(request: HttpRequest, exc: TransitionRefused) -> HttpResponse:
    return errors_response(request, exc.errors, status=exc.status)


@api.exception_handler(AuthenticationError)
def on_unauthenticated(request: HttpRequest, exc: AuthenticationError) -> HttpResponse:
    return json_error(request, 401, "Authentication required.")


@api.exception_handler(HttpError)
def on_http_error(request: HttpRequest, exc: HttpError) -> HttpResponse:
    if exc.status_code == 400:  # unparsable body
        return errors_response(request, {"body": [f"{exc.message}: send a JSON object."]})
    # django-ninja's own refusals (a failed CSRF check is a 403) in the API's error shape.
    return json_error(request, exc.status_code, exc.message)


@api.exception_handler(MultiPartParserError)
@api.exception_handler(TooManyFieldsSent)
@api.exception_handler(TooManyFilesSent)
def on_unreadable_form(request: HttpRequest, exc: Exception) -> HttpResponse:
    # A multipart body without its boundary, or with more fields or files than the settings'
    # DATA_UPLOAD_MAX_NUMBER_*: the client's mistake, read when the CSRF check reads the form.
    return errors_response(request, {"body": [f"The form cannot be read: {exc}"]})


@api.exception_handler(RequestDataTooBig)
def on_form_too_big(request: HttpRequest, exc: RequestDataTooBig) -> HttpResponse:
    return errors_response(request, {"body": [str(exc)]}, status=413)


@api.exception_handler(Exception)
def on_unexpected_error(request: HttpRequest, exc: Exception) -> HttpResponse:
    return exception_response(request, exc)


@api.get("/catalog", tags=["catalog"])
def catalog(request: HttpRequest) -> HttpResponse:
    """List every catalog item by kind, with its specs, monthly price (CNY) and `offered`."""
    # Encoded once per catalog revision and process, as evaluate's snapshots are.
    return HttpResponse(
        selectors.catalog_listing_json(), content_type="application/json; charset=utf-8"
    )


@api.post("/evaluate", response={200: EvaluationOut, 400: ErrorsOut}, tags=["rules"])
def evaluate(request: HttpRequest, payload: EvaluateIn):
    """Check one build against the baseline: every check, the balance score and the verdict."""
    snapshot = selectors.snapshots()
    catalog, rules = snapshot
    asked = evaluate_request(payload, catalog.everything, rules.current)
    evaluated = services.build_evaluate(
        build=asked.build, workload=asked.workload, profile=asked.profile, snapshot=snapshot
    )
    # The shaped answer already has the documented shape (tests/api hold it to the schema);
    # answering it directly skips a second validation of our own output.
    return json_answer(api_shapes.evaluated_json(evaluated))


@api.post("/sizing", response={200: SizingOut, 400: ErrorsOut}, tags=["workloads"])
def sizing(request: HttpRequest, payload: WorkloadRequestIn):
    """Size a workload's GPU memory need, with the breakdown and the assumptions made."""
    snapshot = selectors.snapshots()
    catalog, rules = snapshot
    services.version_in(rules, payload.profile)
    preferred_gpu_errors(payload.workload, catalog.everything).raise_if_any()
    workload = resolved_workload(payload.workload, catalog.everything)
    sized = services.workload_size(workload=workload, profile=payload.profile, snapshot=snapshot)
    return api_shapes.sized_json(sized)


@api.post("/recommend", response={200: RecommendOut, 400: ErrorsOut}, tags=["workloads"])
def recommend(request: HttpRequest, payload: RecommendIn):
    """Recommend the cheapest builds the rules accept for a workload, with BOM and reasons."""
    snapshot = selectors.snapshots()
    catalog, rules = snapshot
    services.version_in(rules, payload.profile)
    workload = resolved_workload(payload.workload, catalog.everything)
    recommended = services.build_recommend(
        workload=workload, profile=payload.profile, limit=payload.limit, snapshot=snapshot
    )
    return json_answer(api_shapes.recommended_json(recommended))


@api.get("/rules", response={200: RulesOut, 400: ErrorsOut}, tags=["rules"])
def rules(request: HttpRequest, profile: Text | None = None):
    """Return the current version of the default (or the named) rule profile."""
    return api_shapes.rules_json(services.rule_version_for(profile))


@api.patch(
    "/rules",
    auth=django_auth,
    response={200: RulesOut, 400: ErrorsOut, 401: dict, 403: dict, 409: StaleOut},
    tags=["rules"],
)
def rules_patch(request: HttpRequest, payload: RulesPatchIn):
    """Publish a new rule version with the given parameters changed (architects only).

    With `base_version`, a PATCH made from a version that is no longer current is refused
    with 409 and the current version, and nothing is published. With `"dry_run": true`
    nothing is published either: the answer is the impact of the change on the audited
    fleet, the probed nodes, the scenario recipes and the open quotes.
    """
    if not request.user.has_perm("configurator.change_ruleprofile"):
        return Status(403, {"detail": "Only architects may change the rules."})
    version = services.rule_version_for(payload.profile)
    try:
        if payload.dry_run:
            preview = ruleset_change_preview(
                version=version, changes=payload.parameters, base_version=payload.base_version
            )
            return JsonResponse(preview)
        published = services.ruleset_publish(
            profile=version.profile,
            changes=payload.parameters,
            user=request.user,
            note=payload.note,
            base_version=payload.base_version,
        )
    except services.StaleVersion as stale:
        message = gettext(
            "Version %(base)s is not the current version any more: version %(current)s is. "
            "Review it and send your changes again."
        ) % {"base": stale.base_version, "current": stale.current.version}
        return errors_response(
            request,
            {"base_version": [message]},
            status=409,
            current=api_shapes.rules_json(stale.current),
            since=[api_shapes.version_changes_json(version) for version in stale.since()],
        )
    except DjangoValidationError as error:
        raise InputErrors(
            {f"parameters.{name}": messages for name, messages in error.message_dict.items()}
        ) from error
    return api_shapes.rules_json(published)


# Capabilities living in their own apps add their routers here.
api.add_router("/fleet", fleet_router)
api.add_router("/quotes", quotes_router)
