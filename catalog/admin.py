"""Admin for the catalog: search, filters, history, and CSV/XLSX import with a preview."""

from django.contrib import admin, messages
from django.shortcuts import redirect
from django.utils.translation import gettext_lazy as _
from import_export.admin import ImportExportModelAdmin
from import_export.formats.base_formats import CSV, XLSX
from simple_history.admin import SimpleHistoryAdmin

from catalog import resources
from catalog.models import Cpu, Gpu, MemoryModule, Nic, Platform, Psu


class CatalogAdmin(ImportExportModelAdmin, SimpleHistoryAdmin):
    formats = [CSV, XLSX]
    search_fields = ["slug", "name", "vendor"]
    list_filter = ["offered", "price_is_placeholder", "vendor"]
    list_editable = ["offered"]
    prepopulated_fields = {"slug": ["name"]}
    readonly_fields: tuple[str, ...] = ()
    save_on_top = True

    def get_import_data_kwargs(self, **kwargs) -> dict:
        # Without this, a confirmed import skips invalid rows and writes the valid ones.
        kwargs = super().get_import_data_kwargs(**kwargs)
        kwargs.setdefault("rollback_on_validation_errors", True)
        return kwargs

    def process_result(self, result, request):
        if result.has_errors() or result.has_validation_errors():
            messages.error(
                request,
                _("The sheet has errors, so nothing was imported. Import it again to see them."),
            )
            return redirect(f"admin:{self.opts.app_label}_{self.opts.model_name}_import")
        return super().process_result(result, request)

    @admin.display(description=_("monthly price (CNY)"), ordering="monthly_price")
    def price(self, obj) -> str:
        marker = _(" (placeholder)") if obj.price_is_placeholder else ""
        return f"¥{obj.monthly_price:,.0f}{marker}"


@admin.register(Cpu)
class CpuAdmin(CatalogAdmin):
    resource_classes = [resources.CpuResource]
    list_display = [
        "name", "slug", "cores", "threads", "base_ghz", "boost_ghz", "tdp_w",
        "pcie_gen", "pcie_lanes_2s", "memory_channels", "ddr_gen", "price", "offered",
    ]  # fmt: skip
    list_filter = ["socket", "pcie_gen", "ddr_gen", *CatalogAdmin.list_filter]


@admin.register(Gpu)
class GpuAdmin(CatalogAdmin):
    resource_classes = [resources.GpuResource]
    list_display = [
        "name", "slug", "memory_gb", "memory_type", "tdp_w", "form_factor",
        "nvlink_gbps", "ecc", "gpu_class", "architecture", "price", "offered",
    ]  # fmt: skip
    list_filter = [
        "form_factor", "gpu_class", "architecture", "pcie_gen", *CatalogAdmin.list_filter,
    ]  # fmt: skip


@admin.register(MemoryModule)
class MemoryModuleAdmin(CatalogAdmin):
    resource_classes = [resources.MemoryModuleResource]
    list_display = [
        "name", "slug", "ddr_gen", "capacity_gb", "registered", "ecc", "speed_mts",
        "price", "offered",
    ]  # fmt: skip
    list_filter = ["ddr_gen", "ecc", "registered", *CatalogAdmin.list_filter]


@admin.register(Psu)
class PsuAdmin(CatalogAdmin):
    resource_classes = [resources.PsuResource]
    list_display = ["name", "slug", "rated_w", "efficiency", "price", "offered"]
    list_filter = ["efficiency", *CatalogAdmin.list_filter]


@admin.register(Nic)
class NicAdmin(CatalogAdmin):
    resource_classes = [resources.NicResource]
    list_display = ["name", "slug", "speed_gbps", "ports", "fabric", "pcie_gen", "pcie_lanes",
                    "tdp_w", "price", "offered"]  # fmt: skip
    list_filter = ["fabric", "pcie_gen", *CatalogAdmin.list_filter]


@admin.register(Platform)
class PlatformAdmin(CatalogAdmin):
    resource_classes = [resources.PlatformResource]
    list_display = [
        "name", "slug", "sockets", "cpu_socket", "pcie_gen", "gpu_form_factor",
        "gpu_slots_socket0", "gpu_slots_socket1", "gpu_attach", "nvlink", "psu_bays",
        "max_power_w", "price", "offered",
    ]  # fmt: skip
    list_filter = ["cpu_socket", "gpu_form_factor", "gpu_attach", "nvlink", "pcie_gen",
                   *CatalogAdmin.list_filter]  # fmt: skip
    filter_horizontal = ["gpus"]
