"""Lead and quote actions: a customer's request, builds saved to it; create, edit, the status
workflow, and re-quoting of quotes. Each is one transaction.

The workflow (docs/quotes.md):

    draft ─submit→ submitted ─approve→ approved ─issue→ issued ─accept→ accepted
      ↑                └─return→ returned ─submit→ …        ├─(validity ends)→ expired
    any status before accepted ─cancel→ cancelled            └─re-quote→ superseded

A transition locks the quote's row and checks the status it finds, so of two architects who
approve and return at once, one succeeds and the other is refused with nothing written.
"""

from dataclasses import dataclass, field
from datetime import date, timedelta
from decimal import ROUND_HALF_UP, Decimal

from django.conf import settings
from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.utils import timezone, translation
from django.utils.translation import gettext as _
from django.utils.translation import pgettext

from configurator import selectors as configurator_selectors
from configurator import services as configurator_services
from configurator.api_shapes import evaluated_json
from configurator.fleet.manifest import expected_manifest
from configurator.inputs import InputErrors, build_from_input, resolved_workload, workload_frozen
from configurator.models import RuleSetVersion
from configurator.quotes.models import (
    EDITABLE,
    REQUOTABLE,
    Lead,
    LeadBuild,
    Quote,
    QuoteCounter,
    QuoteEvent,
    Status,
)
from configurator.quotes.selectors import quote_bom
from configurator.schemas import BuildIn, WorkloadIn
from configurator.translation import SOURCE_LANGUAGE

CENT = Decimal("0.01")


@dataclass(frozen=True)
class Customer:
    name: str
    company: str = ""
    email: str = ""
    phone: str = ""


@dataclass(frozen=True)
class AssessedBuild:
    """A build as the configurator assessed it: what a lead keeps of it when it is saved."""

    build: dict[str, object]  # as /api/v1/evaluate takes it
    workload: dict[str, object] | None  # as the API's workload, None when none was given
    permalink: str  # the configurator's query string
    monthly_price: Decimal
    verdict: str  # accept, reject, or error when the build could not be evaluated
    # what a node delivered for it should measure (fleet/manifest.py); empty on an error
    manifest: dict[str, object] = field(default_factory=dict)


@transaction.atomic
def lead_submit(*, customer: Customer, assessed: AssessedBuild, language: str) -> Lead:
    """Record a customer's quote request for presales, with the build as it was assessed."""
    return Lead.objects.create(
        name=customer.name,
        company=customer.company,
        email=customer.email,
        phone=customer.phone,
        build=assessed.build,
        workload=assessed.workload,
        permalink=assessed.permalink,
        monthly_price=assessed.monthly_price,
        verdict=assessed.verdict,
        language=language,
    )


@transaction.atomic
def lead_build_save(
    *, lead: Lead, assessed: AssessedBuild, note: str, user: AbstractBaseUser
) -> LeadBuild:
    """Save a build to a lead with a note; a new lead is then in progress."""
    lead = Lead.objects.select_for_update().get(pk=lead.pk)
    saved = LeadBuild.objects.create(
        lead=lead,
        build=assessed.build,
        workload=assessed.workload,
        permalink=assessed.permalink,
        monthly_price=assessed.monthly_price,
        verdict=assessed.verdict,
        manifest=assessed.manifest,
        note=note,
        created_by=user,
    )
    if lead.status == Lead.Status.NEW:
        lead.status = Lead.Status.IN_PROGRESS
        lead.save(update_fields=["status", "updated_at"])
    return saved


@transaction.atomic
def lead_status_set(*, lead: Lead, status: str) -> Lead:
    """Move a lead to another status (new, in progress, quoted)."""
    lead.status = Lead.Status(status)
    lead.save(update_fields=["status", "updated_at"])
    return lead


# A lead's quotes, by how far they got (cancelled and superseded ones say nothing: a superseded
# quote has its newer revision).
HELD_BY_CUSTOMER = frozenset({Status.ISSUED, Status.ACCEPTED})
BEING_WRITTEN = frozenset({Status.DRAFT, Status.SUBMITTED, Status.RETURNED, Status.APPROVED})


def lead_follow_quotes(*, lead: Lead) -> Lead:
    """Set a lead's status from its quotes: quoted while the customer holds an issued (or
    accepted) one; drafting while one is written or reviewed; quoted when the last one
    expired; in progress when every one was cancelled.

    A re-quote supersedes the issued quote, so the lead is drafting until the new revision
    is issued. A lead without quotes keeps the status presales gave it."""
    statuses = set(lead.quotes.values_list("status", flat=True))
    if not statuses:
        return lead
    if statuses & HELD_BY_CUSTOMER:
        status = Lead.Status.QUOTED
    elif statuses & BEING_WRITTEN:
        status = Lead.Status.DRAFTING
    elif Status.EXPIRED in statuses:
        status = Lead.Status.QUOTED
    else:
        status = Lead.Status.IN_PROGRESS
    if lead.status != status:
        lead_status_set(lead=lead, status=status)
    return lead


class TransitionRefused(Exception):
    """A workflow step that may not happen: 403 (wrong role) or 409 (wrong state or build)."""

    def __init__(self, status: int, errors: dict[str, list[str]]) -> None:
        super().__init__(errors)
        self.status = status
        self.errors = errors


@dataclass(frozen=True)
class Transition:
    sources: frozenset[Status]
    target: Status
    permission: str
    owner_only: bool = False  # only the quote's owner may take the step


TRANSITIONS: dict[str, Transition] = {
    "submit": Transition(frozenset(EDITABLE), Status.SUBMITTED, "quotes.submit_quote", True),
    "approve": Transition(frozenset({Status.SUBMITTED}), Status.APPROVED, "quotes.review_quote"),
    "return": Transition(frozenset({Status.SUBMITTED}), Status.RETURNED, "quotes.review_quote"),
    "issue": Transition(frozenset({Status.APPROVED}), Status.ISSUED, "quotes.issue_quote"),
    "accept": Transition(frozenset({Status.ISSUED}), Status.ACCEPTED, "quotes.issue_quote"),
    "cancel": Transition(
        frozenset(
            {Status.DRAFT, Status.SUBMITTED, Status.RETURNED, Status.APPROVED, Status.ISSUED}
        ),
        Status.CANCELLED,
        "quotes.change_quote",
    ),
}


def _money(value: Decimal) -> Decimal:
    return value.quantize(CENT, rounding=ROUND_HALF_UP)


def quote_content(
    *,
    build: BuildIn,
    workload: WorkloadIn | None,
    term_months: int,
    discount_pct: Decimal,
) -> dict[str, object]:
    """Price and evaluate a build now: the BOM, totals and evaluation a quote freezes.

    Raises InputErrors naming every bad field.
    """
    bom, explicit = quote_bom(build=build)
    snapshot = configurator_selectors.snapshots()
    everything = snapshot[0].everything
    errors = InputErrors()
    built = errors.collect(lambda: build_from_input(explicit, everything))
    frozen_workload = None
    if workload is not None:
        frozen_workload = errors.collect(lambda: resolved_workload(workload, everything))
    errors.raise_if_any()
    evaluated = configurator_services.build_evaluate(
        build=built, workload=frozen_workload, snapshot=snapshot
    )
    # Frozen in English with each text's message id (detail_message, fix_message), whatever
    # language the author works in: a quote reads the same to everyone who opens it.
    with translation.override(SOURCE_LANGUAGE):
        evaluation = evaluated_json(evaluated)
    ruleset = evaluation["ruleset"]
    evaluation["ruleset"] = {**ruleset, "parameters": evaluated.ruleset.params.as_dict()}
    list_monthly = _money(sum((Decimal(line["monthly_price"]) for line in bom), Decimal(0)))
    monthly = _money(list_monthly * (Decimal(100) - discount_pct) / Decimal(100))
    return {
        "build": explicit.model_dump(mode="json", exclude={"bom"}),
        "workload": workload_frozen(workload) if workload else None,
        "bom": bom,
        "evaluation": evaluation,
        # frozen with the rest: a delivered node is checked against the quote as written
        "manifest": expected_manifest(built, evaluated.ruleset.params),
        "ruleset_version": RuleSetVersion.objects.get(
            profile__slug=ruleset["profile"], version=ruleset["version"]
        ),
        "term_months": term_months,
        "discount_pct": _money(discount_pct),
        "list_monthly_price": list_monthly,
        "monthly_price": monthly,
        "term_price": _money(monthly * term_months),
    }


def _next_number(year: int) -> tuple[int, str]:
    """Take the next number of the year: the year's counter row is locked until commit."""
    QuoteCounter.objects.get_or_create(year=year)
    counter = QuoteCounter.objects.select_for_update().get(year=year)
    counter.last += 1
    counter.save(update_fields=["last"])
    return counter.last, f"Q-{year}-{counter.last:06d}"


def _record(quote: Quote, *, action: str, before: str, user, comment: str = "") -> None:
    QuoteEvent.objects.create(
        quote=quote,
        action=action,
        from_status=before,
        to_status=quote.status,
        by=user if user is not None and user.is_authenticated else None,
        comment=comment,
    )


def _valid_until(valid_days: int | None) -> date:
    days = valid_days or settings.QUOTE_VALID_DAYS
    return timezone.localdate() + timedelta(days=days)


@transaction.atomic
def quote_create(
    *,
    owner: AbstractBaseUser,
    customer: Customer,
    build: BuildIn,
    workload: WorkloadIn | None = None,
    term_months: int = 12,
    discount_pct: Decimal = Decimal(0),
    valid_days: int | None = None,
    previous: Quote | None = None,
    saved_build: LeadBuild | None = None,
) -> Quote:
    """Create a draft quote with the next number of the year, priced and evaluated now.

    Written from a build saved to a lead, the quote links both, and the lead becomes quoted.
    """
    if not owner.has_perm("quotes.add_quote"):
        raise TransitionRefused(403, {"quote": [_("Only presales and architects write quotes.")]})
    content = quote_content(
        build=build, workload=workload, term_months=term_months, discount_pct=discount_pct
    )
    year = timezone.localdate().year
    sequence, number = _next_number(year)
    quote = Quote.objects.create(
        number=number,
        year=year,
        sequence=sequence,
        owner=owner,
        previous=previous,
        revision=previous.revision + 1 if previous else 1,
        lead=saved_build.lead if saved_build else previous.lead if previous else None,
        saved_build=saved_build or (previous.saved_build if previous else None),
        customer_name=customer.name,
        customer_company=customer.company,
        customer_email=customer.email,
        customer_phone=customer.phone,
        valid_until=_valid_until(valid_days),
        **content,
    )
    comment = _("Revision of %(number)s") % {"number": previous.number} if previous else ""
    _record(quote, action="create", before="", user=owner, comment=comment)
    if quote.lead is not None:
        lead_follow_quotes(lead=quote.lead)
    return quote


def _locked(quote: Quote) -> Quote:
    return Quote.objects.select_for_update().get(pk=quote.pk)


def quote_edit_refusal(*, quote: Quote, user: AbstractBaseUser) -> TransitionRefused | None:
    """Return why this user may not edit the quote now (403 not its owner, 409 no longer a
    draft or returned), or None: the edit page says it before anything is typed."""
    if quote.owner_id != user.pk or not user.has_perm("quotes.change_quote"):
        return TransitionRefused(403, {"quote": [_("Only its owner edits a quote.")]})
    if not quote.editable:
        return TransitionRefused(
            409,
            {
                "status": [
                    _("Quote %(number)s is %(status)s: it can no longer be edited.")
                    % {"number": quote.number, "status": quote.get_status_display()}
                ]
            },
        )
    return None


@transaction.atomic
def quote_update(
    *,
    quote: Quote,
    user: AbstractBaseUser,
    customer: Customer,
    build: BuildIn,
    workload: WorkloadIn | None,
    term_months: int,
    discount_pct: Decimal,
    valid_days: int | None = None,
) -> Quote:
    """Change a draft (or returned) quote: its owner re-prices and re-evaluates it now."""
    quote = _locked(quote)
    if refused := quote_edit_refusal(quote=quote, user=user):
        raise refused
    content = quote_content(
        build=build, workload=workload, term_months=term_months, discount_pct=discount_pct
    )
    for name, value in content.items():
        setattr(quote, name, value)
    quote.customer_name = customer.name
    quote.customer_company = customer.company
    quote.customer_email = customer.email
    quote.customer_phone = customer.phone
    quote.valid_until = _valid_until(valid_days)
    quote.save()
    return quote


def _transition(quote: Quote, *, action: str, user, comment: str = "") -> Quote:
    """Take one workflow step on a locked quote, or raise TransitionRefused / InputErrors."""
    step = TRANSITIONS[action]
    if not user.has_perm(step.permission):
        raise TransitionRefused(
            403,
            {"action": [_("Your role may not do this: %(action)s.") % {"action": _verb(action)}]},
        )
    quote = _locked(quote)
    if quote.status == Status.SUPERSEDED:
        raise TransitionRefused(409, {"action": [_superseded_message(quote, action)]})
    if quote.status not in step.sources:
        raise TransitionRefused(
            409,
            {
                "action": [
                    _("Quote %(number)s is %(status)s: it cannot be %(action)s now.")
                    % {
                        "number": quote.number,
                        "status": quote.get_status_display(),
                        "action": _verb(action),
                    }
                ]
            },
        )
    is_owner = quote.owner_id == user.pk
    if step.owner_only and not is_owner:
        raise TransitionRefused(409, {"action": [_("Only the quote's owner submits it.")]})
    if not (is_owner or user.has_perm("quotes.review_quote")):
        raise TransitionRefused(
            409, {"action": [_("Only the quote's owner or an architect may do this.")]}
        )
    if action == "submit":
        failed = [c["code"] for c in quote.evaluation["checks"] if c["status"] == "fail"]
        if failed or quote.evaluation["verdict"] != "accept":
            raise TransitionRefused(
                409,
                {
                    "build": [
                        _("The build fails %(codes)s: fix it before submitting.")
                        % {"codes": ", ".join(failed) or _("the balance score")}
                    ]
                },
            )
    if action == "return" and not comment.strip():
        raise InputErrors({"comment": [_("Say what to change: a returned quote needs a comment.")]})
    if action in ("issue", "accept") and quote.valid_until < timezone.localdate():
        raise TransitionRefused(
            409,
            {
                "valid_until": [
                    _("The quote's validity ended on %(date)s: re-quote it.")
                    % {"date": quote.valid_until.isoformat()}
                ]
            },
        )
    before = quote.status
    quote.status = step.target
    fields = ["status", "updated_at"]
    if action == "issue":
        quote.issued_at = timezone.now()
        fields.append("issued_at")
    quote.save(update_fields=fields)
    _record(quote, action=action, before=before, user=user, comment=comment.strip())
    if quote.lead is not None:
        lead_follow_quotes(lead=quote.lead)
    return quote


def _superseded_message(quote: Quote, action: str) -> str:
    revision = quote.newer_revision
    return _(
        "Quote %(number)s was replaced by %(revision)s: it cannot be %(action)s any more; "
        "work on %(revision)s instead."
    ) % {
        "number": quote.number,
        "revision": revision.number if revision else "—",
        "action": _verb(action),
    }


def _verb(action: str) -> str:
    return {
        "submit": _("submitted"),
        "approve": _("approved"),
        "return": _("returned"),
        "issue": _("issued"),
        "accept": pgettext("quote status", "accepted"),
        "cancel": _("cancelled"),
    }[action]


@transaction.atomic
def quote_submit(*, quote: Quote, user: AbstractBaseUser, comment: str = "") -> Quote:
    """Send a draft (or returned) quote to the architects; refused while a check fails."""
    return _transition(quote, action="submit", user=user, comment=comment)


@transaction.atomic
def quote_approve(*, quote: Quote, user: AbstractBaseUser, comment: str = "") -> Quote:
    """Approve a submitted quote (architects)."""
    return _transition(quote, action="approve", user=user, comment=comment)


@transaction.atomic
def quote_return(*, quote: Quote, user: AbstractBaseUser, comment: str) -> Quote:
    """Return a submitted quote to its owner with what to change (architects)."""
    return _transition(quote, action="return", user=user, comment=comment)


@transaction.atomic
def quote_issue(*, quote: Quote, user: AbstractBaseUser, comment: str = "") -> Quote:
    """Issue an approved quote to the customer: from now on it never changes."""
    return _transition(quote, action="issue", user=user, comment=comment)


@transaction.atomic
def quote_accept(*, quote: Quote, user: AbstractBaseUser, comment: str = "") -> Quote:
    """Record the customer's acceptance of an issued quote within its validity."""
    return _transition(quote, action="accept", user=user, comment=comment)


@transaction.atomic
def quote_cancel(*, quote: Quote, user: AbstractBaseUser, comment: str = "") -> Quote:
    """Cancel a quote that has not been accepted."""
    return _transition(quote, action="cancel", user=user, comment=comment)


ACTIONS = {
    "submit": quote_submit,
    "approve": quote_approve,
    "return": quote_return,
    "issue": quote_issue,
    "accept": quote_accept,
    "cancel": quote_cancel,
}


@transaction.atomic
def quotes_expire(*, today: date | None = None) -> int:
    """Mark issued quotes whose validity has ended as expired; return how many."""
    today = today or timezone.localdate()
    count = 0
    due = Quote.objects.select_for_update().filter(status=Status.ISSUED, valid_until__lt=today)
    for quote in due:
        quote.status = Status.EXPIRED
        quote.save(update_fields=["status", "updated_at"])
        _record(quote, action="expire", before=Status.ISSUED, user=None)
        if quote.lead is not None:
            lead_follow_quotes(lead=quote.lead)
        count += 1
    return count


@transaction.atomic
def quote_requote(*, quote: Quote, user: AbstractBaseUser, valid_days: int | None = None) -> Quote:
    """Create the next revision of a quote, priced and evaluated now, linked to the old one.

    Only a quote that can no longer change (issued, accepted, expired or cancelled) and has no
    newer revision yet is re-quoted; a draft or returned quote is edited, a submitted or
    approved one cancelled first. An issued original is superseded: its customer link shows it
    replaced and it can no longer be accepted (nor cancelled or expired). Accepted, expired and
    cancelled originals keep their status: none of them can be accepted any more.
    """
    quote = _locked(quote)
    if quote.status not in REQUOTABLE:
        raise TransitionRefused(
            409,
            {
                "status": [
                    _("A %(status)s quote is edited or cancelled, not re-quoted.")
                    % {"status": quote.get_status_display()}
                ]
            },
        )
    if Quote.objects.filter(previous=quote).exists():
        raise TransitionRefused(409, {"quote": [_("This quote already has a newer revision.")]})
    revision = quote_create(
        owner=user,
        customer=Customer(
            quote.customer_name,
            quote.customer_company,
            quote.customer_email,
            quote.customer_phone,
        ),
        build=BuildIn.model_validate(quote.build),
        workload=WorkloadIn.model_validate(quote.workload) if quote.workload else None,
        term_months=quote.term_months,
        discount_pct=quote.discount_pct,
        valid_days=valid_days,
        previous=quote,
    )
    if quote.status == Status.ISSUED:
        quote.status = Status.SUPERSEDED
        quote.save(update_fields=["status", "updated_at"])
        comment = _("Replaced by %(number)s") % {"number": revision.number}
        _record(quote, action="supersede", before=Status.ISSUED, user=user, comment=comment)
        if quote.lead is not None:
            lead_follow_quotes(lead=quote.lead)
    return revision
