"""The quote pages: presales' list and drafts, the architects' review queue, the customer link.

Views check a permission, validate a form, call one service and render; the workflow's rules
live in `services`, what a user may read in `selectors`.
"""

import json
from decimal import Decimal

from django.contrib.auth.decorators import login_required, permission_required
from django.core.exceptions import PermissionDenied
from django.core.signing import BadSignature, SignatureExpired
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_http_methods, require_POST
from django.views.decorators.vary import vary_on_headers

from configurator.inputs import InputErrors
from configurator.quotes import links, selectors, services
from configurator.quotes.api import pdf_response
from configurator.quotes.forms import QuoteForm, QuoteStartForm, TransitionForm
from configurator.quotes.models import REQUOTABLE, Quote, Status
from configurator.translation import localized_errors

staff_quotes = permission_required("quotes.view_quote", raise_exception=True)


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
    for path, messages in localized_errors(errors).items():
        field = path.split(".", 1)[0]
        for message in messages:
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
            return redirect("quotes:detail", number=quote.number)
    status = 400 if form.errors else 200  # a bad field is the client's mistake
    return render(request, "quotes/new.html", {"form": form}, status=status)


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
    editable = quote.editable and quote.owner_id == request.user.pk
    context = {
        "quote": quote,
        "events": quote.events.select_related("by"),
        "actions": _actions(quote, request.user),
        "baseline": selectors.recipe_baseline_diff(quote) if reviewer else None,
        "customer_url": (
            request.build_absolute_uri(reverse_customer(links.customer_token(quote)))
            if quote.status in links.OPEN_TO_CUSTOMER
            else None
        ),
        "transition_form": TransitionForm(),
        "edit_form": (
            QuoteForm(
                initial={
                    "customer_name": quote.customer_name,
                    "customer_company": quote.customer_company,
                    "customer_email": quote.customer_email,
                    "customer_phone": quote.customer_phone,
                    "term_months": quote.term_months,
                    "discount_pct": quote.discount_pct,
                    "build": _json(quote.build),
                    "workload": _json(quote.workload) if quote.workload else "",
                }
            )
            if editable
            else None
        ),
    }
    context.update(extra)
    return context


def reverse_customer(token: str) -> str:
    return reverse("quotes:customer", args=[token])


def _json(value) -> str:
    return json.dumps(value, ensure_ascii=False, indent=1)


@login_required
@staff_quotes
@require_http_methods(["GET", "POST"])
def quote_detail(request: HttpRequest, number: str) -> HttpResponse:
    """Show one quote: BOM, checks, scores, history, and the steps the user may take.

    POST edits a draft (its owner): the build is priced and evaluated again.
    """
    quote = _visible(request, number)
    if request.method == "POST":
        form = QuoteForm(request.POST)
        if form.is_valid():
            data = form.cleaned_data
            try:
                quote = services.quote_update(
                    quote=quote,
                    user=request.user,
                    customer=_customer(data),
                    build=data["build"],
                    workload=data["workload"],
                    term_months=data["term_months"],
                    discount_pct=Decimal(data["discount_pct"]),
                )
            except InputErrors as error:
                _apply_errors(form, error.errors)
            except services.TransitionRefused as refused:
                return _refused(request, quote, refused)
            else:
                return redirect("quotes:detail", number=quote.number)
        return render(
            request,
            "quotes/detail.html",
            _detail_context(request, quote, edit_form=form),
            status=400,
        )
    return render(request, "quotes/detail.html", _detail_context(request, quote))


def _refused(request, quote, refused: services.TransitionRefused) -> HttpResponse:
    if refused.status == 403:
        raise PermissionDenied(" ".join(m for ms in refused.errors.values() for m in ms))
    quote.refresh_from_db()
    errors = [message for messages in refused.errors.values() for message in messages]
    template = "quotes/detail.html" + ("#quote-panel" if request.htmx else "")
    return render(request, template, _detail_context(request, quote, errors=errors), status=409)


@login_required
@staff_quotes
@require_POST
@vary_on_headers("HX-Request")
def quote_transition(request: HttpRequest, number: str) -> HttpResponse:
    """Take one workflow step (a button of the detail or review page)."""
    quote = _visible(request, number)
    form = TransitionForm(request.POST)
    if not form.is_valid():
        errors = [m for messages in form.errors.values() for m in messages]
        return render(
            request,
            "quotes/detail.html",
            _detail_context(request, quote, errors=errors),
            status=400,
        )
    action, comment = form.cleaned_data["action"], form.cleaned_data["comment"]
    try:
        if action == "requote":
            revision = services.quote_requote(quote=quote, user=request.user)
            return redirect("quotes:detail", number=revision.number)
        quote = services.ACTIONS[action](quote=quote, user=request.user, comment=comment)
    except services.TransitionRefused as refused:
        return _refused(request, quote, refused)
    except InputErrors as error:
        quote.refresh_from_db()
        errors = [m for messages in localized_errors(error.errors).values() for m in messages]
        template = "quotes/detail.html" + ("#quote-panel" if request.htmx else "")
        return render(request, template, _detail_context(request, quote, errors=errors), status=400)
    if request.POST.get("next") == "review":
        return redirect("quotes:review")
    if request.htmx:
        return render(request, "quotes/detail.html#quote-panel", _detail_context(request, quote))
    return redirect("quotes:detail", number=quote.number)


@login_required
@permission_required("quotes.review_quote", raise_exception=True)
def review_queue(request: HttpRequest) -> HttpResponse:
    """The architects' queue: submitted quotes with checks, scores and recipe differences."""
    entries = [
        {"quote": quote, "baseline": selectors.recipe_baseline_diff(quote)}
        for quote in selectors.review_queue()
    ]
    return render(request, "quotes/review.html", {"entries": entries})


@login_required
@staff_quotes
def quote_pdf(request: HttpRequest, number: str) -> HttpResponse:
    """The quote's PDF for presales and architects."""
    return pdf_response(_visible(request, number))


@never_cache
def customer_quote(request: HttpRequest, token: str) -> HttpResponse:
    """The customer's page of an issued quote, opened through its signed link; ?pdf downloads."""
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
    context = {"quote": quote, "token": token}
    if replacement := links.customer_replacement(quote):
        number, revision_token = replacement
        context["replaced_by"] = number
        context["replaced_by_url"] = reverse_customer(revision_token) if revision_token else None
    return render(request, "quotes/customer.html", context)
