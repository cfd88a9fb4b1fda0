from dataclasses import fields

from django.contrib import admin
from django.contrib.admin.utils import unquote
from django.core.exceptions import PermissionDenied, ValidationError
from django.http import HttpRequest, HttpResponse, HttpResponseNotAllowed
from django.shortcuts import render
from django.urls import path
from django.utils.translation import gettext as _

from configurator.engine.rules import RuleParams
from configurator.fleet import services
from configurator.fleet.models import FleetAudit, NodeProbe


@admin.register(FleetAudit)
class FleetAuditAdmin(admin.ModelAdmin):
    list_display = ["file_name", "status", "created_by", "created_at", "rows_read"]
    list_filter = ["status"]
    exclude = ["source"]
    readonly_fields = [
        "file_name", "status", "progress", "rows_read", "language", "profile", "rule_version",
        "summary", "problems", "created_by", "finished_at",
    ]  # fmt: skip

    def has_add_permission(self, request) -> bool:
        return False  # audits start from the fleet page's upload


@admin.register(NodeProbe)
class NodeProbeAdmin(admin.ModelAdmin):
    list_display = ["__str__", "verdict", "created_by", "created_at"]
    list_filter = ["verdict"]
    exclude = ["files"]
    readonly_fields = [
        "hostname", "file_name", "psu_watts", "numa_binding", "build", "verdict", "codes",
        "balance", "findings", "profile", "rule_version", "created_by",
        # what the comparison was made against; a fleet has too many nodes for a select
        "saved_build", "audited_node",
    ]  # fmt: skip

    def has_add_permission(self, request) -> bool:
        return False  # probes start from the probe page's upload


class RuleImpactAdminMixin:
    """Adds "Preview the impact" to a rule profile's admin form: nothing is published.

    The button posts the form's parameter values (htmx) to an admin view that answers, as a
    fragment under the form, which audited nodes, probed nodes and recipes would change.
    """

    change_form_template = "admin/configurator/ruleprofile/change_form.html"

    def get_urls(self):
        info = self.opts.app_label, self.opts.model_name
        return [
            path(
                "<path:object_id>/impact/",
                self.admin_site.admin_view(self.impact_view),
                name="{}_{}_impact".format(*info),
            ),
            *super().get_urls(),
        ]

    def impact_view(self, request: HttpRequest, object_id: str) -> HttpResponse:
        if request.method != "POST":
            return HttpResponseNotAllowed(["POST"])
        profile = self.get_object(request, unquote(object_id))
        if profile is None or not self.has_change_permission(request, profile):
            raise PermissionDenied
        version = profile.versions.first()
        current = RuleParams.from_mapping(version.parameters if version else {})
        changes, errors = {}, {}
        for f in fields(RuleParams):
            raw = request.POST.get(f.name, "").strip()
            if not raw:
                continue
            try:
                value = int(raw) if f.type == "int" else float(raw)
            except ValueError:
                errors[f.name] = [_("Enter a number.")]
                continue
            if value != getattr(current, f.name):
                changes[f.name] = value
        context = {"changes": changes, "errors": errors, "current": current.as_dict()}
        if changes and not errors and version:
            try:
                context["preview"] = services.ruleset_change_preview(
                    version=version, changes=changes
                )
            except ValidationError as error:
                context["errors"] = error.message_dict
        return render(request, "admin/configurator/ruleprofile/impact.html", context)
