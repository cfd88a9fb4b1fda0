from django import forms
from django.core.validators import FileExtensionValidator
from django.utils.translation import gettext_lazy as _


class SheetUploadForm(forms.Form):
    sheet = forms.FileField(
        label=_("Fleet sheet (CSV or XLSX)"),
        validators=[FileExtensionValidator(["csv", "xlsx", "txt"])],
        help_text=_("One row per node; columns as in the fleet sheet format. At most 20 MB."),
    )
