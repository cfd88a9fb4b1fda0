"""The configurator's pages: thin views that read a form, call a service and render.

One template per screen; with `HX-Request` a view renders only the partial it swaps, so every
such view says `Vary: HX-Request`.
"""

from __future__ import annotations

from django.conf import settings
from django.contrib.auth.decorators import login_required, permission_required
from django.http import HttpRequest, HttpResponse, QueryDict
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import get_language, gettext, ngettext
from django.views.decorators.http import require_GET, require_http_methods, require_POST
from django.views.decorators.vary import vary_on_headers
from django_htmx.http import push_url, reswap, retarget

from configurator.quotes import selectors as quote_selectors
from configurator.quotes import services as quote_services
from configurator.quotes.models import Lead
from configurator.revisions import revision_tokens
from configurator.selectors import snapshots as selectors_snapshots
from configurator.throttle import throttle
from configurator.translation import localize
from configurator.web import fragments, presenters, services
from configurator.web.forms import (
    BuildQueryField,
    LeadBuildForm,
    LeadForm,
    LeadStatusForm,
    ShareForm,
)
from configurator.web.models import SharedConfiguration
from configurator.web.reading import read_query

COMPARE_SESSION_KEY = "compare"
COMPARE_MAX = 3
QUOTE_LIMIT = 5  # quote requests per client address and hour
QUOTE_WINDOW_S = 3600
QUOTE_REQUESTED_SESSION_KEY = "quote_requested"  # the lead a page without JavaScript just sent
SHARE_LIMIT = 60  # short links made per client address and hour
SHARE_WINDOW_S = 3600


def _configurator(
    request: HttpRequest,
    query: QueryDict,
    tokens: dict[str, str] | None = None,
    *,
    defer_fixes: bool = False,
) -> tuple[dict, services.Assessment]:
    """Read the build from a query, apply a requested fix, assess it; return the context.
    `tokens`: the revision tokens the request has read already. `defer_fixes`: leave each
    check's fix to `configure_fixes`, which the results load (htmx); else search them here."""
    snapshot = selectors_snapshots(tokens)
    read = read_query(query, snapshot=snapshot)
    notices = []
    config = read.config
    code = query.get("fix", "")
    fixed = False
    if code:
        fix = services.configuration_fix(
            config=config, workload=read.workload, code=code, snapshot=snapshot
        )
        if fix is None:
            notices.append(
                gettext("No single component change clears %(code)s; follow its advice.")
                % {"code": code}
            )
        else:
            config, fixed = fix.config, True
            notices.append(
                gettext("Applied the fix for %(code)s: %(change)s.")
                % {"code": code, "change": localize(fix.change.message())}
            )
    recommendations, reason, closest = [], None, False
    if read.start == "recommend" and read.workload:
        found, reason, nearest = services.workload_recommend(
            workload=read.workload, prefer_gpu=read.prefer_gpu
        )
        # Without a build that meets the workload, the closest ones, the first on screen.
        shown, closest = found or nearest, not found and bool(nearest)
        chosen = read.pick if read.pick < len(shown) else 0
        recommendations = presenters.recommendation_cards(
            shown, read.workload, snapshot[0], query=query, chosen=chosen,
            prefer_gpu=read.prefer_gpu,
        )  # fmt: skip
        if shown:
            config = shown[chosen].config
    assessment = services.configuration_assess(
        config=config, workload=read.workload, snapshot=snapshot
    )
    # Each check's fix as the change it makes: shown with its text, made by `fix=` above.
    fixes = (
        services.configuration_fixes(
            config=config,
            workload=read.workload,
            snapshot=snapshot,
            evaluation=assessment.evaluation.evaluation,
        )
        if assessment.evaluation and not defer_fixes
        else {}
    )
    context = presenters.configurator_context(read, assessment, snapshot[0], fixes=fixes)
    context.update(
        # Only a failing or warning check has a fix to load.
        fixes_deferred=defer_fixes
        and any(row["status"] in ("fail", "warn") for row in context["checks"]),
        fixes_tag=presenters.fixes_tag(assessment.permalink_query),
        fix_path=request.path,
        notices=notices,
        fixed=fixed,
        recommendations=recommendations,
        no_recommendation=reason,
        closest=closest,
        recommend_asked=read.start == "recommend",
        recipes=services.recipes(snapshot=snapshot),
    )
    context["form_state"] = presenters.form_state(context)
    return context, assessment


@require_http_methods(["GET", "POST"])
@vary_on_headers("HX-Request", "Cookie")  # the language may come from its cookie
def configure(request: HttpRequest) -> HttpResponse:
    """The configurator; the query string is the build (api.md "Web pages").

    POST is the quote request of a page without JavaScript (`quote`): its answer is this page.
    """
    if request.method == "POST":
        return quote(request)
    tokens = revision_tokens()  # once: the kept fragment's key and the snapshots
    key = fragments.results_key(request, tokens) if request.htmx else ""
    if key and (kept := fragments.cached_results(key)):
        return kept
    context, assessment = _configurator(request, request.GET, tokens, defer_fixes=request.htmx)
    permalink = f"{request.path}?{assessment.permalink_query}"
    if "fix" in request.GET and not request.htmx and context["fixed"]:
        return redirect(permalink)  # the address bar shows the fixed build's permalink
    if request.htmx and presenters.form_unchanged(context, request.GET):
        # The form already shows these options and values: redraw only the results.
        response = render(request, "web/includes/configurator.html#results-swap", context)
        response = push_url(reswap(retarget(response, "#results"), "outerHTML"), permalink)
        fragments.keep_results(key, response)
        return response
    # The actions below the results: the comparison tray and the quote form.
    context.update(
        compare_count=len(request.session.get(COMPARE_SESSION_KEY, [])),
        lead_form=LeadForm(initial={"build": assessment.permalink_query}),
    )
    if requested := request.session.pop(QUOTE_REQUESTED_SESSION_KEY, None):
        # The request just sent from this page without JavaScript (`quote`): its thanks.
        context.update(lead=Lead.objects.filter(pk=requested).first(), quote_open=True)
    if not request.htmx:
        return render(request, "web/configure.html", context)
    return push_url(render(request, "web/configure.html#configurator", context), permalink)


@require_GET
@vary_on_headers("HX-Request", "Cookie")
def configure_fixes(request: HttpRequest) -> HttpResponse:
    """Each failing or warning check's fix of the build in the query, as the change "Apply
    fix" makes (`web/fixes.py`): the slots the htmx results leave, swapped out of band.
    Without htmx the page itself shows them."""
    if not request.htmx:
        return redirect(f"{reverse('web:configure')}?{request.GET.urlencode()}")
    tokens = revision_tokens()
    key = fragments.results_key(request, tokens)
    if kept := fragments.cached_results(key):
        return kept
    snapshot = selectors_snapshots(tokens)
    read = read_query(request.GET, snapshot=snapshot)
    assessment = services.configuration_assess(
        config=read.config, workload=read.workload, snapshot=snapshot
    )
    evaluated = assessment.evaluation
    fixes = (
        services.configuration_fixes(
            config=read.config,
            workload=read.workload,
            snapshot=snapshot,
            evaluation=evaluated.evaluation,
        )
        if evaluated
        else {}
    )
    context = {
        "checks": presenters.check_rows(evaluated, assessment.bill.monthly_price, fixes),
        "permalink": assessment.permalink_query,
        "fixes_tag": presenters.fixes_tag(assessment.permalink_query),
        "fix_path": reverse("web:configure"),
    }
    response = render(request, "web/includes/configurator.html#fixes-oob", context)
    fragments.keep_results(key, response)
    return response


def _compare_list(request: HttpRequest) -> list[str]:
    return list(request.session.get(COMPARE_SESSION_KEY, []))


@require_http_methods(["GET", "POST"])
@vary_on_headers("HX-Request")
def compare(request: HttpRequest) -> HttpResponse:
    """Compare up to three builds side by side; POST adds (`build`) or removes (`remove`)."""
    builds = _compare_list(request)
    if request.method == "POST":
        if "remove" in request.POST:
            builds = [b for b in builds if b != request.POST["remove"]]
        elif request.POST.get("build"):
            query = request.POST["build"][:2000]
            builds = [b for b in builds if b != query] + [query]
            builds = builds[-COMPARE_MAX:]
        request.session[COMPARE_SESSION_KEY] = builds
        if request.htmx and "build" in request.POST:
            return render(request, "web/includes/configurator.html#compare-tray",
                          {"compare_count": len(builds), "added": True})  # fmt: skip
        return redirect("web:compare")
    columns = []
    for query in builds:
        read = read_query(QueryDict(query))
        assessment = services.configuration_assess(config=read.config, workload=read.workload)
        column = presenters.assessment_context(assessment)
        column["query"] = query
        column["title"] = presenters.recommendation_cards(
            [services.Recommended(read.config, assessment.bill.monthly_price, "", None, "")],
            read.workload,
        )[0]
        columns.append(column)
    rows = presenters.comparison_rows(columns)
    work = presenters.work_rows(columns)
    return render(request, "web/compare.html", {"columns": columns, "rows": rows, "work": work})


def _quote_answer(request: HttpRequest, context: dict, *, status: int = 200) -> HttpResponse:
    """Answer a quote request where it was made: over htmx the form's region; from the
    configurator without JavaScript (a POST to /configure/) that page again, for the build
    the form carried, with the form open and what was typed in it."""
    form = context.get("form")
    if request.htmx:
        return render(request, "web/quote.html#quote", context, status=status)
    if request.path != reverse("web:configure"):
        return render(request, "web/quote.html", context, status=status)
    build = form.data.get("build", "")[: BuildQueryField.MAX_LENGTH] if form is not None else ""
    page, _ = _configurator(request, QueryDict(build))
    page.update(
        context,
        compare_count=len(request.session.get(COMPARE_SESSION_KEY, [])),
        lead_form=form,
        quote_open=True,
    )
    return render(request, "web/configure.html", page, status=status)


def _quote_too_many(request: HttpRequest, minutes: int) -> HttpResponse:
    """The 429 of a quote request: the form as it was sent, and when to send it again."""
    form = LeadForm(request.POST)
    form.is_valid()  # bound, so every field shows what was typed
    throttled = ngettext(
        "Too many requests from your address: at most %(limit)s an hour. Send it again in "
        "%(minutes)s minute; what you typed stays here.",
        "Too many requests from your address: at most %(limit)s an hour. Send it again in "
        "%(minutes)s minutes; what you typed stays here.",
        minutes,
    ) % {"limit": QUOTE_LIMIT, "minutes": minutes}
    return _quote_answer(request, {"form": form, "throttled": throttled}, status=429)


@require_POST
@throttle("quote-request", limit=QUOTE_LIMIT, period=QUOTE_WINDOW_S, refused=_quote_too_many)
@vary_on_headers("HX-Request")
def quote(request: HttpRequest) -> HttpResponse:
    """Turn a quote request into a lead for presales; limited per client address.

    Every answer keeps the customer in the configurator with what they typed: a mistake or the
    limit answers the form again (400, 429), a lead its thanks."""
    form = LeadForm(request.POST)
    if not form.is_valid():
        return _quote_answer(request, {"form": form}, status=400)
    read = read_query(QueryDict(form.cleaned_data["build"]))
    assessment = services.configuration_assess(config=read.config, workload=read.workload)
    customer = quote_services.Customer(
        name=form.cleaned_data["name"],
        company=form.cleaned_data["company"],
        email=form.cleaned_data["email"],
        phone=form.cleaned_data["phone"],
    )
    lead = quote_services.lead_submit(
        customer=customer,
        assessed=assessment.assessed_build(),
        language=get_language() or settings.LANGUAGE_CODE,
    )
    if not request.htmx and request.path == reverse("web:configure"):
        # Posted, then shown: a reload of the page does not send the request twice.
        request.session[QUOTE_REQUESTED_SESSION_KEY] = lead.pk
        url = f"{reverse('web:configure')}?{assessment.permalink_query}#quote"
        return redirect(url)
    return _quote_answer(request, {"lead": lead, "permalink": assessment.permalink_query})


def _share_answer(request: HttpRequest, context: dict, *, status: int = 200) -> HttpResponse:
    """Answer a short link asked for: over htmx the link's place beside the permalink, else a
    page of its own."""
    template = "web/share.html" + ("#share-link" if request.htmx else "")
    return render(request, template, context, status=status)


def _share_too_many(request: HttpRequest, minutes: int) -> HttpResponse:
    message = ngettext(
        "Too many short links from your address: at most %(limit)s an hour. Ask again in "
        "%(minutes)s minute; the permalink above works meanwhile.",
        "Too many short links from your address: at most %(limit)s an hour. Ask again in "
        "%(minutes)s minutes; the permalink above works meanwhile.",
        minutes,
    ) % {"limit": SHARE_LIMIT, "minutes": minutes}
    return _share_answer(request, {"share_errors": [message]}, status=429)


@require_POST
@throttle("share-link", limit=SHARE_LIMIT, period=SHARE_WINDOW_S, refused=_share_too_many)
@vary_on_headers("HX-Request")
def share(request: HttpRequest) -> HttpResponse:
    """Make the short link of the build on screen (`build`: its permalink's query string)."""
    form = ShareForm(request.POST)
    if not form.is_valid():
        errors = [message for messages in form.errors.values() for message in messages]
        return _share_answer(request, {"share_errors": errors}, status=400)
    read = read_query(QueryDict(form.cleaned_data["build"]))
    query = services.permalink_query(read.config, read.workload)  # as the page writes it
    shared = services.configuration_share(query=query)
    url = request.build_absolute_uri(reverse("web:shared", args=[shared.pk]))
    return _share_answer(request, {"short_url": url, "permalink": query})


@require_GET
def shared(request: HttpRequest, shared_id: str) -> HttpResponse:
    """Open a short link: the configurator on the build and workload it was made for."""
    configuration = get_object_or_404(SharedConfiguration, pk=shared_id)
    return redirect(f"{reverse('web:configure')}?{configuration.query}")


# Presales -----------------------------------------------------------------------------------

presales_only = [login_required, permission_required("quotes.change_lead", raise_exception=True)]


def _presales(view):
    for decorator in reversed(presales_only):
        view = decorator(view)
    return view


@_presales
@require_GET
@vary_on_headers("HX-Request")
def presales_inbox(request: HttpRequest) -> HttpResponse:
    """The leads inbox, filtered by status; htmx swaps the list with its tabs."""
    status = request.GET.get("status", "")
    if status not in Lead.Status.values:
        status = ""
    counts = quote_selectors.lead_counts()
    context = {
        "leads": quote_selectors.leads_inbox(status=status or None)[:200],
        "status": status,
        "statuses": [(value, label, counts[value]) for value, label in Lead.Status.choices],
    }
    template = "web/presales_inbox.html"
    if request.htmx:
        template += "#leads"
    return render(request, template, context)


def _lead_query(lead: Lead) -> QueryDict:
    return QueryDict(lead.permalink)


@_presales
@require_GET
@vary_on_headers("HX-Request")
def presales_lead(request: HttpRequest, pk: int) -> HttpResponse:
    """One lead: its request, a workload's recommendations, the build being adjusted."""
    lead = get_object_or_404(Lead, pk=pk)
    query = request.GET if request.GET else _lead_query(lead)
    context, assessment = _configurator(request, query)
    context.update(
        lead=lead,
        saved=lead.builds.select_related("created_by")[:20],
        save_form=LeadBuildForm(initial={"build": assessment.permalink_query}),
        status_form=LeadStatusForm(initial={"status": lead.status}),
        presales=True,
        compare_count=len(request.session.get(COMPARE_SESSION_KEY, [])),
    )
    template = "web/presales_lead.html"
    if request.htmx:
        response = render(request, template + "#configurator", context)
        return push_url(response, f"{request.path}?{assessment.permalink_query}")
    return render(request, template, context)


@_presales
@require_POST
@vary_on_headers("HX-Request")
def presales_lead_save(request: HttpRequest, pk: int) -> HttpResponse:
    """Save the build on screen to the lead, with a note."""
    lead = get_object_or_404(Lead, pk=pk)
    form = LeadBuildForm(request.POST)
    if not form.is_valid():
        context = {"lead": lead, "saved": lead.builds.all()[:20], "save_refused": form}
        return render(request, "web/presales_lead.html#saved", context, status=400)
    read = read_query(QueryDict(form.cleaned_data["build"]))
    assessment = services.configuration_assess(config=read.config, workload=read.workload)
    quote_services.lead_build_save(
        lead=lead,
        assessed=assessment.assessed_build(),
        note=form.cleaned_data["note"],
        user=request.user,
    )
    lead.refresh_from_db()
    if request.htmx:
        return render(request, "web/presales_lead.html#saved",
                      {"lead": lead, "saved": lead.builds.select_related("created_by")[:20],
                       "just_saved": True})  # fmt: skip
    return redirect(f"{lead.get_absolute_url()}?{form.cleaned_data['build']}")


@_presales
@require_POST
@vary_on_headers("HX-Request")
def presales_lead_status(request: HttpRequest, pk: int) -> HttpResponse:
    """Move a lead to another status."""
    lead = get_object_or_404(Lead, pk=pk)
    form = LeadStatusForm(request.POST)
    if form.is_valid():
        lead = quote_services.lead_status_set(lead=lead, status=form.cleaned_data["status"])
    if request.htmx:
        context = {"lead": lead, "status_form": form, "status_saved": form.is_valid()}
        return render(request, "web/presales_lead.html#lead-status", context)
    return redirect(lead.get_absolute_url())
