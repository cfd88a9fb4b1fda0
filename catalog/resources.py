"""Import/export resources: the CSV and XLSX columns of every catalog model.

Each kind of part names its resource (`catalog.kinds`, `RESOURCE_OF` there): a plain
`catalog_resource` of its model, or a resource of its own for columns the model's fields alone
do not give (a platform's GPUs and PSUs, by slug).

Rows are matched by slug, so re-importing an exported sheet updates items in place. Every
row is validated with the model's full_clean (field validators and database constraints)
before anything is written, and an import runs in one transaction: a sheet with one bad row
writes nothing. Beyond the model's own rules a row is refused, by row and column, when a cell
looks like a formula (`catalog.spreadsheets`), when its slug is already in an earlier row of
the sheet, when a platform names a GPU or PSU slug the catalog does not have, or when a number
column holds something that is not a number.
"""

from decimal import InvalidOperation

from django.core.exceptions import ValidationError
from django.db import models
from django.utils.translation import gettext as _
from import_export import fields, resources, widgets

from catalog.models import Gpu, Platform, Psu
from catalog.spreadsheets import looks_like_formula
from configurator.revisions import revision_bumps_deferred

NUMBER_WIDGETS = (widgets.DecimalWidget, widgets.IntegerWidget, widgets.FloatWidget)


class CatalogResource(resources.ModelResource):
    # An empty spreadsheet cell arrives as None; notes are optional text.
    notes = fields.Field(
        attribute="notes", column_name="notes", widget=widgets.CharWidget(allow_blank=True)
    )

    def __init__(self, **kwargs) -> None:
        super().__init__(**kwargs)
        self.first_row_of_slug: dict[str, int] = {}
        self.row_offset = 0  # rows of the sheet before the dataset being imported
        self.full_clean_rows = True  # off only to write rows that were all just checked

    def validate_instance(self, instance, import_validation_errors=None, validate_unique=True):
        if self.full_clean_rows:
            super().validate_instance(instance, import_validation_errors, validate_unique)
        elif import_validation_errors:
            raise ValidationError(import_validation_errors)

    def import_data(self, dataset, *args, **kwargs):
        # One revision bump for the whole sheet instead of one per row.
        with revision_bumps_deferred():
            return super().import_data(dataset, *args, **kwargs)

    def import_instance(self, instance, row, **kwargs) -> None:
        """Fill the instance from the row, adding the sheet's own checks to the field errors."""
        errors: dict[str, list] = {}
        try:
            super().import_instance(instance, row, **kwargs)
        except ValidationError as error:
            errors = error.update_error_dict(errors)
        for name, message in self.sheet_errors(row, kwargs.get("row_number")).items():
            errors.setdefault(name, []).append(message)
        if errors:
            raise ValidationError(errors)

    def sheet_errors(self, row, row_number: int | None) -> dict[str, str]:
        """Return the errors of one row that only the sheet can tell, by field name."""
        errors = {}
        for field in self.get_import_fields():
            value = row.get(field.column_name)
            if looks_like_formula(value):
                errors[field.attribute] = _(
                    "%(value)r looks like a spreadsheet formula (it starts with %(start)r); "
                    "formulas are not accepted."
                ) % {"value": value[:40], "start": value[:1]}
        slug = row.get("slug")
        if slug and row_number is not None:
            number = row_number + self.row_offset
            first = self.first_row_of_slug.setdefault(str(slug), number)
            if first != number:
                errors["slug"] = _(
                    "Slug %(slug)r is already in row %(row)s of this sheet; give each item once."
                ) % {"slug": slug, "row": first}
        return errors

    def import_field(self, field, instance, row, is_m2m=False, **kwargs) -> None:
        try:
            super().import_field(field, instance, row, is_m2m, **kwargs)
        except (InvalidOperation, TypeError, ValueError) as error:
            value = row.get(field.column_name)
            if isinstance(field.widget, NUMBER_WIDGETS):
                raise ValueError(_("Enter a number, not %(value)r.") % {"value": value}) from error
            if isinstance(field.widget, widgets.BooleanWidget):
                raise ValueError(
                    _("Enter 1 or 0 (or TRUE/FALSE), not %(value)r.") % {"value": value}
                ) from error
            raise ValueError(str(error)) from error

    class Meta:
        import_id_fields = ("slug",)
        exclude = ("id",)
        clean_model_instances = True
        skip_unchanged = True
        report_skipped = True
        use_transactions = True
        rollback_on_validation_errors = True


def catalog_resource(model: type[models.Model]) -> type[CatalogResource]:
    """Return the import/export resource of a catalog model with no columns of its own."""
    meta = type("Meta", (CatalogResource.Meta,), {"model": model})
    name = f"{model.__name__}Resource"
    return type(name, (CatalogResource,), {"Meta": meta, "__module__": __name__})


class PlatformResource(CatalogResource):
    gpus = fields.Field(
        attribute="gpus",
        column_name="gpus",
        widget=widgets.ManyToManyWidget(Gpu, field="slug", separator="|"),
    )

    psus = fields.Field(
        attribute="psus",
        column_name="psus",
        widget=widgets.ManyToManyWidget(Psu, field="slug", separator="|"),
    )

    class Meta(CatalogResource.Meta):
        model = Platform

    def sheet_errors(self, row, row_number: int | None) -> dict[str, str]:
        errors = super().sheet_errors(row, row_number)
        for column, model, message in (
            ("gpus", Gpu, _("Unknown GPU slug(s): %(slugs)s.")),
            ("psus", Psu, _("Unknown PSU slug(s): %(slugs)s.")),
        ):
            named = [s.strip() for s in str(row.get(column) or "").split("|") if s.strip()]
            known = set(model.objects.filter(slug__in=named).values_list("slug", flat=True))
            unknown = [slug for slug in named if slug not in known]
            if unknown and column not in errors:
                errors[column] = message % {"slugs": ", ".join(unknown)}
        return errors
