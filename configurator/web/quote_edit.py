"""A draft or returned quote edited in the configurator: the parts form, not JSON.

The quote's build and workload open in the configurator's own form (the build's and the
workload's declared fields, `web/forms.py`), every check, fix, price and the work's figures
shown as they change; the customer and terms sit below it. Saving prices and evaluates the
build again (`quotes.services.quote_update`) and may submit it at once; a refusal (400, 403,
409) is said on this page, with what was typed kept.
"""

from __future__ import annotations

from decimal import Decimal
from urllib.parse import urlencode

from django.contrib import messages
from django.contrib.auth.decorators import login_required, permission_required
from django.http import Http404, HttpRequest, HttpResponse, QueryDict
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods
from django.views.decorators.vary import vary_on_headers
from django_htmx.http import push_url

from configurator.engine.build import Workload
from configurator.engine.fields import declarations
from configurator.inputs import InputErrors
from configurator.quotes import selectors as quote_selectors
from configurator.quotes import services as quote_services
from configurator.quotes.forms import QuoteTermsForm
from configurator.quotes.models import Quote
from configurator.schemas import BuildIn, WorkloadIn
from configurator.translation import localized_errors
from configurator.web.configuration import (
    PART_FIELDS,
    WORKLOAD_FIELDS,
    Configuration,
    WorkloadChoice,
)
from configurator.web.forms import PREFER, BuildQueryField
from configurator.web.reading import read_query
from configurator.web.services import configuration_assess, permalink_query
from configurator.web.views import COMPARE_SESSION_KEY, _configurator

# The workload fields that say which model the work is for. The quote's fields the page does
# not carry (a shape given through the API) are kept while these stay; one that describes the
# work of a mode (`modes`) is kept while the mode stays.
SAME_MODEL = ("model", "model_params_b", "mode")
OFF_PAGE = {field.name: field for field in declarations(Workload) if not field.spec.page}


class QuotePartsForm(QuoteTermsForm):
    """The customer and terms, and the build on screen as its permalink (`BuildQueryField`:
    every bad field named as the configurator names it)."""

    build = BuildQueryField(label=_("Build"))


def quote_permalink(quote: Quote) -> str:
    """Return the configurator's query string of a quote's build and workload."""
    build = quote.build
    values = {name: build.get(name) for name in Configuration.field_names()}
    values |= {name: build.get(name) or "" for name in PART_FIELDS}
    values["gpus_per_socket"] = tuple(build.get("gpus_per_socket") or ())
    config = Configuration(**{name: value for name, value in values.items() if value is not None})
    workload = quote.workload or {}
    typed = {name: workload[name] for name in WORKLOAD_FIELDS if workload.get(name) is not None}
    query = permalink_query(config, WorkloadChoice(**typed) if typed else None)
    if workload.get("gpu"):
        query += "&" + urlencode({PREFER: workload["gpu"]})
    return query


def _workload_saved(quote: Quote, typed: dict | None, prefer_gpu: str) -> WorkloadIn | None:
    """Return the workload to save: the page's fields as typed, and the quote's fields the
    page does not carry while the model stays the one they were given for (`SAME_MODEL`)."""
    if typed is None:
        return None
    given = dict(typed) | ({"gpu": prefer_gpu} if prefer_gpu else {})
    before = quote.workload or {}
    same_model = all(before.get(name) == given.get(name) for name in SAME_MODEL)
    kept = {
        name: value
        for name, value in before.items()
        if name in OFF_PAGE
        and value is not None
        and (same_model or given.get("mode") in OFF_PAGE[name].spec.modes)
    }
    return WorkloadIn(**(kept | given))


def _visible(request: HttpRequest, number: str) -> Quote:
    quote = quote_selectors.quote_for(request.user, number)
    if quote is None:
        raise Http404(number)
    return quote


def _page(
    request: HttpRequest,
    quote: Quote,
    query: QueryDict,
    form: QuotePartsForm,
    *,
    errors: list[str] = (),
    status: int = 200,
) -> HttpResponse:
    """Render the edit page: the configurator for `query`, the terms form, what was refused.
    A quote this user may not edit (403) or no longer editable (409) says only why."""
    refused = quote_services.quote_edit_refusal(quote=quote, user=request.user)
    if refused is not None:
        context = {"quote": quote, "errors": _messages(refused.errors), "refused": True}
        return render(request, "web/quote_edit.html", context, status=refused.status)
    context, assessment = _configurator(request, query)
    context.update(
        quote=quote,
        terms_form=form,
        errors=list(errors),
        returned=quote_selectors.quote_returned_with(quote),
        quote_edit=True,
        compare_count=len(request.session.get(COMPARE_SESSION_KEY, [])),
    )
    if request.htmx and request.method == "GET":
        response = render(request, "web/quote_edit.html#configurator", context, status=status)
        return push_url(response, f"{request.path}?{assessment.permalink_query}")
    return render(request, "web/quote_edit.html", context, status=status)


def _messages(errors: dict[str, list[str]]) -> list[str]:
    return [message for messages in errors.values() for message in messages]


@login_required
@permission_required("quotes.change_quote", raise_exception=True)
@require_http_methods(["GET", "POST"])
@vary_on_headers("HX-Request")
def quote_edit(request: HttpRequest, number: str) -> HttpResponse:
    """Edit a quote's parts, workload, customer and terms; POST saves (and may submit) it."""
    quote = _visible(request, number)
    if request.method == "GET":
        query = request.GET if request.GET else QueryDict(quote_permalink(quote))
        if "fix" in query and not request.htmx:
            context, assessment = _configurator(request, query)
            if context["fixed"]:  # the address shows the fixed build, as the configurator's
                return redirect(f"{request.path}?{assessment.permalink_query}")
        form = QuotePartsForm(initial=QuoteTermsForm.initial_of(quote))
        return _page(request, quote, query, form)
    form = QuotePartsForm(request.POST)
    posted = QueryDict(request.POST.get("build", "")[: BuildQueryField.MAX_LENGTH])
    if not form.is_valid():
        return _page(request, quote, posted, form, status=400)
    read = read_query(QueryDict(form.cleaned_data["build"]))
    assessed = configuration_assess(config=read.config, workload=read.workload)
    if assessed.errors:
        problems = [f"{name}: {m}" for name, ms in assessed.errors.items() for m in ms]
        return _page(request, quote, posted, form, errors=problems, status=400)
    kept = assessed.assessed_build()
    data = form.cleaned_data
    try:
        quote = quote_services.quote_update(
            quote=quote,
            user=request.user,
            customer=quote_services.Customer(
                data["customer_name"],
                data["customer_company"],
                data["customer_email"],
                data["customer_phone"],
            ),
            build=BuildIn.model_validate(kept.build),
            workload=_workload_saved(quote, kept.workload, read.prefer_gpu),
            term_months=data["term_months"],
            discount_pct=Decimal(data["discount_pct"]),
        )
    except InputErrors as error:
        problems = [
            f"{path}: {m}" for path, ms in localized_errors(error.errors).items() for m in ms
        ]
        return _page(request, quote, posted, form, errors=problems, status=400)
    except quote_services.TransitionRefused as refused:
        return _page(request, quote, posted, form, errors=_messages(refused.errors),
                     status=refused.status)  # fmt: skip
    if request.POST.get("then") == "submit":
        try:
            quote_services.quote_submit(quote=quote, user=request.user)
        except quote_services.TransitionRefused as refused:
            # Saved: the page opens again on what was saved, saying what the review needs.
            for message in _messages(refused.errors):
                messages.error(request, _("Saved, but not submitted: %(why)s") % {"why": message})
            return redirect("web:quote_edit", number=quote.number)
    return redirect("quotes:detail", number=quote.number)
