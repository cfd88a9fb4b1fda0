from django.contrib import admin

from configurator.fleet.models import FleetAudit


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
