"""Fleet pages: sheet audits and node probes for architects; binding scripts for builds."""

import re
from collections.abc import Iterable
from pathlib import Path

from django.contrib.auth.decorators import login_required, permission_required
from django.core.exceptions import ValidationError
from django.core.paginator import Paginator
from django.http import HttpRequest, HttpResponse, StreamingHttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods
from django.views.decorators.vary import vary_on_headers

from catalog.spreadsheets import XLSX_CONTENT_TYPE
from configurator.fleet import delivery, export, monthly, pdf, selectors, services, sheet
from configurator.fleet.binding import refusal_script
from configurator.fleet.comparison import target_name
from configurator.fleet.forms import ProbeUploadForm, SheetUploadForm
from configurator.fleet.models import AuditedNode, FleetAudit, NodeProbe
from configurator.fleet.probe.archive import MAX_ARCHIVE_BYTES
from configurator.fleet.probe_report import stored_facts
from configurator.fleet.rows import RowErrors
from configurator.jobs.selectors import job_state

PROBE_SCRIPT = Path(__file__).resolve().parent / "probe" / "probe.sh"
FILE_NAME_UNSAFE = re.compile(r"[^A-Za-z0-9_.:-]")  # a download's name, never shell code
PAGE_SIZE = 100


def architects_only(permission: str):
    """Send anonymous users to sign in; refuse (403) signed-in users without the permission."""

    def decorate(view):
        return login_required(permission_required(permission, raise_exception=True)(view))

    return decorate


@require_http_methods(["GET", "POST"])
@architects_only("fleet.add_fleetaudit")
def audit_upload(request: HttpRequest) -> HttpResponse:
    """Upload a fleet sheet; its audit runs in the background."""
    form = SheetUploadForm(request.POST or None, request.FILES or None)
    if request.method == "POST" and form.is_valid():
        try:
            audit = services.fleet_audit_create(
                upload=form.cleaned_data["sheet"], user=request.user, language=get_language()
            )
        except ValidationError as error:
            form.add_error("sheet", error)
        else:
            return redirect("fleet:audit", pk=audit.pk)
    audits = selectors.audit_list()[:20]
    return render(request, "fleet/upload.html", {
        "form": form, "audits": audits, "deliveries": selectors.delivery_rollup(),
        "columns": sheet.required_headers()})  # fmt: skip


@vary_on_headers("HX-Request")
@architects_only("fleet.view_fleetaudit")
def audit_detail(request: HttpRequest, pk: int) -> HttpResponse:
    """Show an audit: progress while it runs (htmx polls), then its summary, charts and nodes."""
    audit = get_object_or_404(selectors.audit_list(), pk=pk)
    context = {"audit": audit, "job": job_state(audit)}
    if audit.status == FleetAudit.Status.DONE:
        verdict = request.GET.get("verdict")
        page = Paginator(selectors.audit_nodes(audit, verdict), PAGE_SIZE).get_page(
            request.GET.get("page")
        )
        context |= {
            "page": page,
            "verdict": verdict if verdict in ("accept", "reject") else "",
            "charts": selectors.audit_charts(audit),
            "legend": selectors.code_legend(audit.summary.get("codes", {})),
            "figures": selectors.utilisation_figures(),
        }
    template = "fleet/audit.html"
    if request.htmx:
        template += "#audit-body"
    return render(request, template, context)


@architects_only("fleet.view_fleetaudit")
def audit_export(request: HttpRequest, pk: int, fmt: str) -> HttpResponse:
    """Download an audit's nodes as CSV or XLSX (formula-safe cells)."""
    audit = get_object_or_404(selectors.audit_list(), pk=pk, status=FleetAudit.Status.DONE)
    nodes = selectors.audit_nodes(audit).iterator(chunk_size=2000)
    name = f"fleet-audit-{audit.pk}"
    if fmt == "xlsx":
        response = HttpResponse(
            export.xlsx_bytes(nodes),
            content_type=XLSX_CONTENT_TYPE,
        )
    else:
        response = StreamingHttpResponse(
            export.csv_lines(nodes), content_type="text/csv; charset=utf-8"
        )
    response["Content-Disposition"] = f'attachment; filename="{name}.{fmt}"'
    return response


# Node probe --------------------------------------------------------------------------------


def probe_script(request: HttpRequest) -> HttpResponse:
    """Serve the node probe script (no secrets in it: anyone may read it)."""
    response = HttpResponse(PROBE_SCRIPT.read_text(), content_type="text/x-shellscript")
    response["Content-Disposition"] = 'attachment; filename="probe.sh"'
    return response


def _error_field(error: ValidationError) -> str | None:
    """The form field a probe's error is about: a target's, or the archive."""
    if hasattr(error, "error_dict"):
        return None  # add_error takes a dict of fields itself
    return error.code if error.code in services.TARGET_FIELDS else "archive"


@require_http_methods(["GET", "POST"])
@architects_only("fleet.add_nodeprobe")
def probe_upload(request: HttpRequest) -> HttpResponse:
    """Upload a probe archive; the node's balance report opens at once."""
    initial = {name: request.GET.get(name, "")[:200] for name in services.TARGET_FIELDS}
    form = ProbeUploadForm(request.POST or None, request.FILES or None, initial=initial)
    if request.method == "POST" and form.is_valid():
        upload = form.cleaned_data["archive"]
        if upload.size > MAX_ARCHIVE_BYTES:
            form.add_error("archive", _("The archive is over %(limit)s MB.") % {
                "limit": MAX_ARCHIVE_BYTES // 2**20})  # fmt: skip
        else:
            try:
                target = services.probe_target(request.user, form.cleaned_data)
                probe = services.node_probe_create(
                    content=upload.read(),
                    file_name=upload.name,
                    psu_watts=form.cleaned_data["psu_watts"],
                    numa_binding=form.cleaned_data["numa_binding"],
                    user=request.user,
                    target=target,
                )
            except ValidationError as error:
                form.add_error(_error_field(error), error)
            else:
                return redirect("fleet:probe", pk=probe.pk)
    recent = NodeProbe.objects.defer("files").select_related(
        "quote", "audited_node")[:20]  # fmt: skip
    probes = [(probe, target_name(probe)) for probe in recent]
    return render(request, "fleet/probe_upload.html", {
        "form": form, "probes": probes, "deliveries": selectors.delivery_rollup()})  # fmt: skip


@architects_only("fleet.view_nodeprobe")
def probe_detail(request: HttpRequest, pk: int) -> HttpResponse:
    """Show a probed node's hardware balance report."""
    probe = get_object_or_404(NodeProbe, pk=pk)
    return render(request, "fleet/probe.html", selectors.probe_context(probe))


@architects_only("fleet.view_nodeprobe")
def probe_binding(request: HttpRequest, pk: int) -> HttpResponse:
    """Download a probed node's binding script, from its real NUMA layout."""
    probe = NodeProbe.objects.filter(pk=pk).first()
    if probe is None:
        return script_refusal(status=404, reason=_("There is no such node probe."))
    facts, unreadable = stored_facts(probe.files)
    if facts is None:
        return script_refusal(status=404, reason=unreadable)
    if not facts.numa:
        return script_refusal(status=404, reason=_("This probe has no numactl --hardware output."))
    try:
        script = delivery.facts_script(facts, title=probe.hostname or probe.file_name)
    except ValueError:  # a NUL in a name: no shell word can hold it
        return script_refusal(
            status=404, reason=_("A name in this probe cannot be written into a script.")
        )
    name = FILE_NAME_UNSAFE.sub("_", probe.hostname) or probe.pk
    return script_response(script, f"bind-{name}.sh")


def script_response(script: str, name: str) -> HttpResponse:
    """Answer a binding script as a download."""
    response = HttpResponse(script, content_type="text/x-shellscript; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{name}"'
    return response


def script_refusal(*, status: int, reason: str, details: Iterable[str] = ()) -> HttpResponse:
    """Answer a script download that cannot be made: plain text that no shell can act on.

    `reason` is the product's own sentence; `details` (what the caller sent, field by field)
    come after the script's `exit 1`, as comments.
    """
    return HttpResponse(
        refusal_script(reason, details), status=status, content_type="text/plain; charset=utf-8"
    )


# Delivery artefacts ------------------------------------------------------------------------


def delivery_page(request: HttpRequest) -> HttpResponse:
    """List the scenario recipes with their binding scripts; any build by its query string."""
    recipes = selectors.recipe_list()
    return render(request, "fleet/delivery.html", {"recipes": recipes})


def build_binding(request: HttpRequest) -> HttpResponse:
    """Download the binding script of any build named by its fields as query parameters."""
    try:
        built = selectors.build_from_query(request.GET)
    except RowErrors as error:
        return script_refusal(
            status=400,
            reason=_(
                "No binding script: a field of the build is wrong. Open the address without "
                "| bash to read which."
            ),
            details=[f"{field}: {' '.join(messages)}" for field, messages in error.errors.items()],
        )
    title = f"{built.cpu_count} × {built.cpu.name}, {built.gpu_count} × {built.gpu.name}"
    return script_response(delivery.build_script(built, title), "bind.sh")


@architects_only("fleet.view_fleetaudit")
def node_binding(request: HttpRequest, pk: int) -> HttpResponse:
    """Download the binding script of an audited node."""
    node = AuditedNode.objects.select_related("build").filter(pk=pk).first()
    if node is None:
        return script_refusal(status=404, reason=_("There is no such audited node."))
    try:
        built = selectors.build_from_fields(node.build.build)
    except RowErrors:
        return script_refusal(
            status=404, reason=_("This node's parts are no longer in the catalog.")
        )
    return script_response(delivery.build_script(built, node.node_id), f"bind-{node.pk}.sh")


@architects_only("fleet.view_nodeprobe")
def probe_pdf(request: HttpRequest, pk: int) -> HttpResponse:
    """Download a probed node's balance report as a bilingual PDF."""
    probe = get_object_or_404(NodeProbe.objects.defer("files"), pk=pk)
    response = HttpResponse(pdf.probe_pdf(probe), content_type="application/pdf")
    response["Content-Disposition"] = f'attachment; filename="balance-report-{probe.pk}.pdf"'
    return response


# Monthly report ----------------------------------------------------------------------------


@architects_only("fleet.view_fleetaudit")
def monthly_report(request: HttpRequest) -> HttpResponse:
    """The architects' monthly node performance report: audits and probes by month."""
    months = selectors.monthly_figures()
    context = {
        "months": months,
        "columns": monthly.COLUMNS,
        "rows": monthly.monthly_rows(months),
        "charts": selectors.monthly_charts(months),
        "legends": {
            m["month"]: selectors.code_legend([c for c, _, _ in m["codes"]]) for m in months
        },
    }
    return render(request, "fleet/monthly.html", context)


@architects_only("fleet.view_fleetaudit")
def monthly_report_pdf(request: HttpRequest) -> HttpResponse:
    """Download the monthly report as a bilingual PDF: the page's table and failing checks."""
    response = HttpResponse(
        pdf.monthly_pdf(selectors.monthly_figures()), content_type="application/pdf"
    )
    response["Content-Disposition"] = 'attachment; filename="monthly-node-report.pdf"'
    return response
