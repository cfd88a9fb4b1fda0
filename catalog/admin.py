"""Admin for the catalog: search, filters, history, and CSV/XLSX import with a preview."""

from django import forms
from django.conf import settings
from django.contrib import admin, messages
from django.contrib.admin.utils import unquote
from django.core.exceptions import PermissionDenied
from django.shortcuts import redirect
from django.template.loader import render_to_string
from django.utils.html import format_html, format_html_join
from django.utils.safestring import mark_safe
from django.utils.translation import gettext_lazy as _
from import_export.admin import ImportExportModelAdmin
from import_export.formats.base_formats import XLSX
from import_export.forms import ConfirmImportForm, ImportForm

from catalog.import_files import ImportFileGone, signed_name, unsigned_name
from catalog.imports import import_job_start
from catalog.kinds import KINDS, RESOURCE_OF, Kind
from catalog.models import ImportJob
from catalog.spreadsheets import (
    FORMATS,
    SafeCSV,
    SafeXLSX,
    SheetRefused,
    XlsxRefused,
    xlsx_checked,
)
from configurator.history_admin import HistoryAdmin
from configurator.jobs.selectors import job_state

ZIP_START = b"PK\x03\x04"


class CatalogImportForm(ImportForm):
    def clean_import_file(self):
        upload = self.cleaned_data["import_file"]
        limit = settings.CATALOG_IMPORT_MAX_BYTES
        if upload.size > limit:
            raise forms.ValidationError(
                _("The file is %(size)s bytes; sheets up to %(limit)s bytes are accepted."),
                params={"size": upload.size, "limit": limit},
            )
        # An XLSX (any zip) is checked before openpyxl opens it (catalog.spreadsheets).
        start = upload.read(len(ZIP_START))
        upload.seek(0)
        if start == ZIP_START:
            try:
                xlsx_checked(upload.file)
            except XlsxRefused as error:
                raise forms.ValidationError(str(error)) from error
        return upload


class SignedConfirmImportForm(ConfirmImportForm):
    """The confirmation step: it names only a sheet stored for this user, and not long ago."""

    GONE = _(
        "The sheet to import is no longer here (it was imported already, or it was previewed "
        "too long ago). Upload it again."
    )

    def __init__(self, *args, user, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.user = user

    def clean_import_file_name(self) -> str:
        try:
            return unsigned_name(self.cleaned_data["import_file_name"], user=self.user)
        except ImportFileGone as error:
            raise forms.ValidationError(self.GONE) from error


class CatalogAdmin(ImportExportModelAdmin, HistoryAdmin):
    formats = [SafeCSV, SafeXLSX]
    import_form_class = CatalogImportForm
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

    def import_action(self, request, **kwargs):
        """Import a short sheet here with a preview; hand a long one to a background job."""
        if request.method == "POST" and self.has_import_permission(request):
            form = self.create_import_form(request)
            if form.is_valid():
                job = self.import_in_background(request, form)
                if job is not None:
                    self.message_user(request, _(
                        "The sheet has %(rows)s rows: it is checked and imported in the "
                        "background, all or nothing. This page shows its progress."
                    ) % {"rows": job.rows_total}, messages.INFO)  # fmt: skip
                    return redirect("admin:catalog_importjob_change", job.pk)
        return super().import_action(request, **kwargs)

    def import_in_background(self, request, form) -> ImportJob | None:
        """Start a background import when the sheet is longer than a request can take."""
        file_format = self.get_import_formats()[int(form.cleaned_data["format"])]
        upload = form.cleaned_data["import_file"]
        data = b"".join(upload.chunks())
        try:
            rows = file_format().row_count(data)  # an XLSX's from its zip, without parsing it
        except Exception:  # unreadable: the inline path says why
            return None
        if rows <= settings.CATALOG_IMPORT_INLINE_ROWS:
            return None
        key = next(key for key, cls in FORMATS.items() if cls is file_format)
        return import_job_start(
            model=self.model, file_name=upload.name, file_format=key, data=data, rows=rows,
            user=request.user,
        )  # fmt: skip

    def add_data_read_fail_error_to_form(self, form, e) -> None:
        # Our readers say why in words (catalog.spreadsheets); the library names the exception.
        if isinstance(e, SheetRefused):
            form.add_error("import_file", str(e))
        else:
            super().add_data_read_fail_error_to_form(form, e)

    def get_confirm_form_class(self, request):
        return SignedConfirmImportForm

    def get_confirm_form_kwargs(self, request, import_form=None) -> dict:
        return {**super().get_confirm_form_kwargs(request, import_form), "user": request.user}

    def get_confirm_form_initial(self, request, import_form) -> dict:
        # The stored sheet's name travels signed for this user (catalog.import_files).
        initial = super().get_confirm_form_initial(request, import_form)
        if initial:
            initial["import_file_name"] = signed_name(
                initial["import_file_name"], user=request.user
            )
        return initial

    def process_import(self, request, **kwargs):
        """Import the previewed sheet; a name this admin did not sign for the user is refused."""
        if request.method == "POST" and self.has_import_permission(request):
            confirm_form = self.create_confirm_form(request)
            if not confirm_form.is_valid():
                for errors in confirm_form.errors.values():
                    for error in errors:
                        messages.error(request, error)
                return redirect(f"admin:{self.opts.app_label}_{self.opts.model_name}_import")
        try:
            return super().process_import(request, **kwargs)
        except ImportFileGone:  # deleted between the check and the read
            messages.error(request, SignedConfirmImportForm.GONE)
            return redirect(f"admin:{self.opts.app_label}_{self.opts.model_name}_import")

    def get_export_data(self, file_format, request, queryset, **kwargs):
        # As django-import-export does, with numbers kept native in XLSX (SafeXLSX included).
        if not self.has_export_permission(request):
            raise PermissionDenied
        native = isinstance(file_format, XLSX)
        data = self.get_data_for_export(request, queryset, force_native_type=native, **kwargs)
        return file_format.export_data(data)

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


def catalog_admin(kind: Kind) -> type[CatalogAdmin]:
    """Return the admin of a kind of part: its list columns and filters, its sheet columns."""
    attrs = {
        "__module__": __name__,
        "resource_classes": [kind.resource],
        "list_display": ["name", "slug", *kind.admin_columns, "price", "offered"],
        "list_filter": [*kind.admin_filters, *CatalogAdmin.list_filter],
        "filter_horizontal": list(kind.relations),
    }
    return type(f"{kind.model.__name__}Admin", (CatalogAdmin,), attrs)


for _kind in KINDS:
    admin.site.register(_kind.model, catalog_admin(_kind))


@admin.register(ImportJob)
class ImportJobAdmin(admin.ModelAdmin):
    """Background sheet imports: progress while they run, then their totals or errors."""

    list_display = ["file_name", "model", "status", "progress", "created_by", "created_at"]
    list_filter = ["status", "model"]
    fields = ["file_name", "model", "status", "worker_state", "progress", "totals",
              "errors_table", "created_by", "created_at", "finished_at"]  # fmt: skip
    readonly_fields = fields

    def change_view(self, request, object_id, form_url="", extra_context=None):
        # The page refreshes itself only while its job can still change (change_form.html).
        job = self.get_object(request, unquote(object_id))
        extra_context = {**(extra_context or {}), "job_state": job_state(job) if job else None}
        return super().change_view(request, object_id, form_url, extra_context)

    @admin.display(description=_("worker"))
    def worker_state(self, job: ImportJob) -> str:
        html = render_to_string("jobs/includes/job_state.html", {"job": job_state(job)}).strip()
        return mark_safe(html) if html else "—"  # the template's own output, escaped there

    @admin.display(description=_("progress"))
    def progress(self, job: ImportJob) -> str:
        return _("%(checked)s of %(total)s rows checked") % {
            "checked": job.rows_checked,
            "total": job.rows_total,
        }

    @admin.display(description=_("errors"))
    def errors_table(self, job: ImportJob) -> str:
        if not job.errors:
            return "—"
        rows = format_html_join(
            "", "<tr><td>{}</td><td>{}</td><td>{}</td></tr>",
            ((e["row"], e["column"], e["message"]) for e in job.errors),
        )  # fmt: skip
        more = job.error_count - len({e["row"] for e in job.errors})
        note = _("… and %(n)s more rows with errors.") % {"n": more} if more > 0 else ""
        return format_html(
            "<table><tr><th>{}</th><th>{}</th><th>{}</th></tr>{}</table>{}",
            _("row"), _("column"), _("error"), rows, note,
        )  # fmt: skip

    def has_add_permission(self, request) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False

    def has_delete_permission(self, request, obj=None) -> bool:
        return False

    def has_view_permission(self, request, obj=None) -> bool:
        # Whoever may import into the catalog may follow the imports.
        return any(
            request.user.has_perm(f"catalog.change_{model._meta.model_name}")
            for model in RESOURCE_OF
        )

    def has_module_permission(self, request) -> bool:
        return self.has_view_permission(request)
