"""The quote pages: presales' list and drafts, the architects' review queue, the customer link.

Views check a permission, validate a form, call one service and render; the workflow's rules
live in `services`, what a user may read in `selectors`.
"""

from decimal import Decimal

from django.contrib import messages
from django.contrib.auth.decorators import login_required, permission_required
from django.core.signing import BadSignature, SignatureExpired
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET, require_http_methods, require_POST
from django.views.decorators.vary import vary_on_headers

from configurator.inputs import InputErrors
from configurator.quotes import links, selectors, services
from configurator.quotes.api import pdf_response, xlsx_response
from configurator.quotes.forms import QuoteForm, QuoteStartForm, TransitionForm
from configurator.quotes.models import REQUOTABLE, Quote, Status
from configurator.quotes.workload import build_summary, workload_summary
from configurator.translation import localized_errors

staff_quotes = permission_required("quotes.view_quote", raise_exception=True)
STATUS_POLL_S = 10  # how often a submitted quote's page asks whether an architect answered


def _visible(request: HttpRequest, number: str) -> Quote:
    quote = selectors.quote_for(request.user, number)
    if quote is None:
        raise Http404(number)
    return quote


@login_required
@staff_quotes
@vary_on_headers("HX-Request")
def quote_list(request: HttpRequest) -> HttpResponse:
    """List the quotes the user may read, newest first, filtered by status (?status=)."""
    quotes = selectors.quotes_visible_to(request.user)
    status = request.GET.get("status", "")
    if status in Status.values:
        quotes = quotes.filter(status=status)
    template = "quotes/list.html"
    if request.htmx:
        template += "#quote-table"
    return render(
        request,
        template,
        {"quotes": quotes[:200], "statuses": Status.choices, "status": status},
    )


def _apply_errors(form: QuoteForm, errors: dict[str, list[str]]) -> None:
    for path, texts in localized_errors(errors).items():
        field = path.split(".", 1)[0]
        for message in texts:
            form.add_error(field if field in form.fields else None, f"{path}: {message}")


@login_required
@permission_required("quotes.add_quote", raise_exception=True)
@require_http_methods(["GET", "POST"])
def quote_new(request: HttpRequest) -> HttpResponse:
    """Create a draft quote from a build: one saved to a lead (?saved_build=), or ?build= JSON."""
    query = request.GET.copy()
    if not request.user.has_perm("quotes.view_lead"):
        query.pop("saved_build", None)  # leads are not theirs to read
    start = QuoteStartForm(query)
    if not start.is_valid():
        if start.has_error("saved_build", code="does_not_exist"):
            raise Http404("No such saved build")
        context = {"form": QuoteForm(), "start_form": start}
        return render(request, "quotes/new.html", context, status=400)
    saved = start.cleaned_data["saved_build"]
    initial = QuoteForm.initial_from(saved) if saved else {"build": start.cleaned_data["build"]}
    form = QuoteForm(request.POST or None, initial=initial)
    if saved:
        form.carry_build()  # the saved build, shown in words; its parts are edited on the draft
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            quote = services.quote_create(
                owner=request.user,
                customer=_customer(data),
                build=data["build"],
                workload=data["workload"],
                term_months=data["term_months"],
                discount_pct=Decimal(data["discount_pct"]),
                saved_build=data["saved_build"],
            )
        except InputErrors as error:
            _apply_errors(form, error.errors)
        else:
            if request.POST.get("then") == "submit":
                _submit_created(request, quote)
            return redirect("quotes:detail", number=quote.number)
    status = 400 if form.errors else 200  # a bad field is the client's mistake
    context = {"form": form, "saved": saved}
    if saved:
        context.update(
            saved_build=build_summary(saved.build), saved_workload=workload_summary(saved.workload)
        )
    return render(request, "quotes/new.html", context, status=status)


def _submit_created(request: HttpRequest, quote: Quote) -> None:
    """Submit a draft just created ("Create and submit"); a refusal is said on its page, where
    the draft waits to be fixed."""
    try:
        services.quote_submit(quote=quote, user=request.user)
    except services.TransitionRefused as refused:
        for message in _messages(refused.errors):
            messages.error(request, _("Saved, but not submitted: %(why)s") % {"why": message})


def _customer(data: dict) -> services.Customer:
    return services.Customer(
        data["customer_name"],
        data["customer_company"],
        data["customer_email"],
        data["customer_phone"],
    )


def _actions(quote: Quote, user) -> list[str]:
    """Return the workflow steps this user may take on the quote now (the buttons)."""
    possible = [
        name
        for name, step in services.TRANSITIONS.items()
        if quote.status in step.sources
        and user.has_perm(step.permission)
        and (quote.owner_id == user.pk or not step.owner_only)
        and (quote.owner_id == user.pk or user.has_perm("quotes.review_quote"))
    ]
    can_write = user.has_perm("quotes.add_quote")
    if quote.status in REQUOTABLE and can_write and not hasattr(quote, "next_revision"):
        possible.append("requote")
    return possible


def _detail_context(request: HttpRequest, quote: Quote, **extra) -> dict[str, object]:
    reviewer = request.user.has_perm("quotes.review_quote")
    actions = _actions(quote, request.user)
    context = {
        "quote": quote,
        "events": quote.events.select_related("by"),
        "actions": actions,
        "baseline": selectors.recipe_baseline_diff(quote) if reviewer else None,
        "customer_url": (
            request.build_absolute_uri(reverse_customer(links.customer_token(quote)))
            if quote.status in links.OPEN_TO_CUSTOMER
            else None
        ),
        "transition_form": TransitionForm(),
        "editable": quote.editable
        and quote.owner_id == request.user.pk
        and request.user.has_perm("quotes.change_quote"),
        "returned": selectors.quote_returned_with(quote),
        # The owner waits for an architect: the panel asks now and then whether one answered.
        "poll_s": STATUS_POLL_S
        if quote.status == Status.SUBMITTED and "approve" not in actions
        else None,
    }
    context.update(extra)
    return context


def reverse_customer(token: str) -> str:
    return reverse("quotes:customer", args=[token])


@login_required
@staff_quotes
@require_GET
@vary_on_headers("HX-Request")
def quote_detail(request: HttpRequest, number: str) -> HttpResponse:
    """Show one quote: BOM, checks, scores, history, and the steps the user may take.

    Over htmx, `?since=<status>` asks whether the status changed: 204 while it has not, else
    the panel (its buttons, history and the customer link). The owner edits a draft or
    returned quote in the parts form (`web.quote_edit`).
    """
    quote = _visible(request, number)
    if request.htmx and "since" in request.GET:
        if request.GET["since"] == quote.status:
            return HttpResponse(status=204)
        return render(request, "quotes/detail.html#quote-panel", _detail_context(request, quote))
    return render(request, "quotes/detail.html", _detail_context(request, quote))


def _refusal(
    request: HttpRequest, quote: Quote, errors: list[str], *, status: int, **extra
) -> HttpResponse:
    """Answer a refused step with its messages where the step was asked: the review queue,
    the panel (over htmx) or the quote's page; nothing was written."""
    quote.refresh_from_db()
    if request.POST.get("next") == "review":
        return _review_page(request, errors={quote.number: errors}, status=status)
    template = "quotes/detail.html" + ("#quote-panel" if request.htmx else "")
    context = _detail_context(request, quote, errors=errors, **extra)
    return render(request, template, context, status=status)


def _messages(errors: dict[str, list[str]]) -> list[str]:
    return [message for texts in errors.values() for message in texts]


@login_required
@staff_quotes
@require_POST
@vary_on_headers("HX-Request")
def quote_transition(request: HttpRequest, number: str) -> HttpResponse:
    """Take one workflow step (a button of the detail or review page).

    Every refusal (400, 403, 409) answers its message in place. Cancelling asks first: the
    step is taken when the confirmation is sent with it (`confirmed`), with or without
    JavaScript."""
    quote = _visible(request, number)
    form = TransitionForm(request.POST)
    if not form.is_valid():
        return _refusal(request, quote, _messages(form.errors), status=400)
    action, comment = form.cleaned_data["action"], form.cleaned_data["comment"]
    if action == "cancel" and not form.cleaned_data["confirmed"]:
        template = "quotes/detail.html" + ("#quote-panel" if request.htmx else "")
        context = _detail_context(request, quote, confirm_cancel=True, comment=comment)
        return render(request, template, context)
    try:
        if action == "requote":
            revision = services.quote_requote(quote=quote, user=request.user)
            return redirect("quotes:detail", number=revision.number)
        quote = services.ACTIONS[action](quote=quote, user=request.user, comment=comment)
    except services.TransitionRefused as refused:
        return _refusal(request, quote, _messages(refused.errors), status=refused.status)
    except InputErrors as error:
        messages = _messages(localized_errors(error.errors))
        return _refusal(request, quote, messages, status=400, comment=comment)
    if request.POST.get("next") == "review":
        return redirect("quotes:review")
    if request.htmx:
        return render(request, "quotes/detail.html#quote-panel", _detail_context(request, quote))
    return redirect("quotes:detail", number=quote.number)


def _review_page(
    request: HttpRequest, *, errors: dict[str, list[str]] | None = None, status: int = 200
) -> HttpResponse:
    entries = [
        {"quote": quote, "baseline": selectors.recipe_baseline_diff(quote)}
        for quote in selectors.review_queue()
    ]
    context = {"entries": entries, "errors": errors or {}}
    return render(request, "quotes/review.html", context, status=status)


@login_required
@permission_required("quotes.review_quote", raise_exception=True)
def review_queue(request: HttpRequest) -> HttpResponse:
    """The architects' queue: submitted quotes with checks, scores and recipe differences."""
    return _review_page(request)


@login_required
@staff_quotes
def quote_pdf(request: HttpRequest, number: str) -> HttpResponse:
    """The quote's PDF for presales and architects."""
    return pdf_response(_visible(request, number))


@login_required
@staff_quotes
def quote_xlsx(request: HttpRequest, number: str) -> HttpResponse:
    """The quote's workbook (quote, bill of materials, power report) for presales and
    architects."""
    return xlsx_response(_visible(request, number))


@never_cache
def customer_quote(request: HttpRequest, token: str) -> HttpResponse:
    """The customer's page of an issued quote, opened through its signed link; ?pdf and ?xlsx
    download it."""
    try:
        quote = links.quote_for_token(token)
    except SignatureExpired:
        return render(request, "quotes/customer.html", {"expired": True}, status=403)
    except BadSignature as error:
        raise Http404("Unknown link") from error
    if quote is None:
        raise Http404("Unknown link")
    if "pdf" in request.GET:
        return pdf_response(quote, download=True)
    if "xlsx" in request.GET:
        return xlsx_response(quote)
    context = {"quote": quote, "token": token}
    if replacement := links.customer_replacement(quote):
        number, revision_token = replacement
        context["replaced_by"] = number
        context["replaced_by_url"] = reverse_customer(revision_token) if revision_token else None
    return render(request, "quotes/customer.html", context)
