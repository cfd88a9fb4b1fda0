from django import forms
from django.core.validators import FileExtensionValidator
from django.utils.translation import gettext_lazy as _


class SheetUploadForm(forms.Form):
    sheet = forms.FileField(
        label=_("Fleet sheet (CSV or XLSX)"),
        validators=[FileExtensionValidator(["csv", "xlsx", "txt"])],
        help_text=_("One row per node; columns as in the fleet sheet format. At most 20 MB."),
    )


class ProbeUploadForm(forms.Form):
    archive = forms.FileField(
        label=_("Probe archive (probe-….tar.gz)"),
        validators=[FileExtensionValidator(["gz", "tgz"])],
        help_text=_("The archive probe.sh wrote on the node. At most 10 MB."),
    )
    psu_watts = forms.IntegerField(
        label=_("Usable PSU output (W)"),
        min_value=1,
        max_value=100000,
        help_text=_("After redundancy (N+1, N+N): a probe cannot read it."),
    )
    numa_binding = forms.BooleanField(
        label=_("The delivery image binds ranks to NUMA nodes"), required=False, initial=True
    )
    quote = forms.CharField(
        label=_("Quote number (optional)"),
        required=False,
        max_length=40,
        help_text=_("Check the node against this quote's build, line by line (Q-2026-000123)."),
    )
    saved_build = forms.CharField(
        label=_("Or a saved build (optional)"),
        required=False,
        max_length=12,
        help_text=_("The number of a build saved to a presales lead."),
    )
    audit = forms.CharField(
        label=_("Or a fleet row: fleet audit (optional)"),
        required=False,
        max_length=12,
        help_text=_("The fleet audit's number, with the node below."),
    )
    node = forms.CharField(
        label=_("Fleet row: node (optional)"),
        required=False,
        max_length=200,
        help_text=_("The node as that audit's sheet names it (its first column)."),
    )
