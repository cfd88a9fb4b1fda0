"""Import/export resources: the CSV and XLSX columns of every catalog model.

Rows are matched by slug, so re-importing an exported sheet updates items in place. Every
row is validated with the model's full_clean (field validators and database constraints)
before anything is written, and an import runs in one transaction: a sheet with one bad row
writes nothing.
"""

from import_export import fields, resources, widgets

from catalog.models import Cpu, Gpu, MemoryModule, Nic, Platform, Psu


class CatalogResource(resources.ModelResource):
    # An empty spreadsheet cell arrives as None; notes are optional text.
    notes = fields.Field(
        attribute="notes", column_name="notes", widget=widgets.CharWidget(allow_blank=True)
    )

    class Meta:
        import_id_fields = ("slug",)
        exclude = ("id",)
        clean_model_instances = True
        skip_unchanged = True
        report_skipped = True
        use_transactions = True
        rollback_on_validation_errors = True


class CpuResource(CatalogResource):
    class Meta(CatalogResource.Meta):
        model = Cpu


class GpuResource(CatalogResource):
    class Meta(CatalogResource.Meta):
        model = Gpu


class MemoryModuleResource(CatalogResource):
    class Meta(CatalogResource.Meta):
        model = MemoryModule


class PsuResource(CatalogResource):
    class Meta(CatalogResource.Meta):
        model = Psu


class NicResource(CatalogResource):
    class Meta(CatalogResource.Meta):
        model = Nic


class PlatformResource(CatalogResource):
    gpus = fields.Field(
        attribute="gpus",
        column_name="gpus",
        widget=widgets.ManyToManyWidget(Gpu, field="slug", separator="|"),
    )

    class Meta(CatalogResource.Meta):
        model = Platform
