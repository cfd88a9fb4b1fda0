"""Fleet pages for architects: upload a sheet, follow its audit, read and download results."""

from django.contrib.auth.decorators import login_required, permission_required
from django.core.exceptions import ValidationError
from django.core.paginator import Paginator
from django.http import HttpRequest, HttpResponse, StreamingHttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import get_language
from django.views.decorators.http import require_http_methods
from django.views.decorators.vary import vary_on_headers

from configurator.fleet import export, selectors, services
from configurator.fleet.forms import SheetUploadForm
from configurator.fleet.models import FleetAudit

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
    return render(request, "fleet/upload.html", {"form": form, "audits": audits})


@vary_on_headers("HX-Request")
@architects_only("fleet.view_fleetaudit")
def audit_detail(request: HttpRequest, pk: int) -> HttpResponse:
    """Show an audit: progress while it runs (htmx polls), then its summary, charts and nodes."""
    audit = get_object_or_404(selectors.audit_list(), pk=pk)
    context = {"audit": audit}
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
            content_type="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
        )
    else:
        response = StreamingHttpResponse(
            export.csv_lines(nodes), content_type="text/csv; charset=utf-8"
        )
    response["Content-Disposition"] = f'attachment; filename="{name}.{fmt}"'
    return response
