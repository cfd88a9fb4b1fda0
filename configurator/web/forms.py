"""The configurator's forms: a permalink's query string in, plain data out; a quote request."""

from __future__ import annotations

import re

from django import forms
from django.core.validators import RegexValidator
from django.http import QueryDict
from django.utils.translation import gettext_lazy
from django.utils.translation import gettext_lazy as _

from configurator.engine.build import NAMED_PARTS
from configurator.engine.catalog import Catalog
from configurator.engine.fields import Declared
from configurator.engine.sentence import MAX_SENTENCE
from configurator.fields import GreaterThanValidator, NumberField, WholeNumberField
from configurator.inputs import workload_errors
from configurator.quotes.models import Lead
from configurator.schemas import MAX_GPUS_PER_NODE, MAX_NODES, MAX_NVME_PER_NODE, WorkloadIn
from configurator.translation import localize
from configurator.web.configuration import (
    PAGE_FIELDS,
    PREFERENCE,
    WORKLOAD_FIELDS,
    Configuration,
    WorkloadChoice,
)
from configurator.web.services import RECOMMENDATIONS

BOOLEAN_CHOICES = [("true", _("yes")), ("false", _("no"))]
# The API's defaults for the optional build fields (api.md "Evaluate a build").
API_DEFAULTS = {
    "platform": "", "nodes": 1, "nics": 0, "nic": "", "nvme": 0, "numa_binding": True,
    **{part.name: "" for part in NAMED_PARTS},
}  # fmt: skip
# `4+4` as api.md writes it; a `+` left unescaped in a URL arrives as a space (`4 4`).
SPLIT = re.compile(r"^[0-9]{1,2}([+ ][0-9]{1,2})?\Z")


def _boolean(value: str) -> bool:
    return value == "true"


class BooleanChoiceField(forms.TypedChoiceField):
    """`true`/`false` in the query string, as the permalink writes them."""

    def __init__(self, **kwargs) -> None:
        super().__init__(choices=BOOLEAN_CHOICES, coerce=_boolean, empty_value=None, **kwargs)


class ConfigurationForm(forms.Form):
    """Read a build from the query string; a field left out takes the starting build's value."""

    platform = forms.CharField(label=_("Platform"), max_length=120, required=False)
    cpu = forms.CharField(label=_("CPU"), max_length=120, required=False)
    cpu_count = WholeNumberField(label=_("CPU sockets"), min_value=1, max_value=2, required=False)
    gpu = forms.CharField(label=_("GPU"), max_length=120, required=False)
    gpu_count = WholeNumberField(
        label=_("GPUs per node"), min_value=1, max_value=MAX_GPUS_PER_NODE, required=False
    )
    gpus_per_socket = forms.CharField(
        label=_("GPUs per socket"),
        max_length=5,
        required=False,
        validators=[RegexValidator(SPLIT, _("Write the GPUs of each socket as 4+4."))],
    )
    memory_gb = WholeNumberField(
        label=_("System memory (GB)"), min_value=1, max_value=65536, required=False
    )
    memory_ecc = BooleanChoiceField(label=_("ECC memory"), required=False)
    psu_watts = WholeNumberField(
        label=_("Usable PSU output (W)"), min_value=1, max_value=100000, required=False
    )
    nvlink = BooleanChoiceField(label=_("NVLink"), required=False)
    numa_binding = BooleanChoiceField(label=_("NUMA binding"), required=False)
    nodes = WholeNumberField(label=_("Nodes"), min_value=1, max_value=MAX_NODES, required=False)
    nics = WholeNumberField(label=_("Network cards"), min_value=0, max_value=16, required=False)
    nic = forms.CharField(label=_("Network card model"), max_length=120, required=False)
    nvme = WholeNumberField(
        label=_("NVMe drives"), min_value=0, max_value=MAX_NVME_PER_NODE, required=False
    )

    def has_build(self) -> bool:
        """Return whether the query names any build field at all."""
        return any(self.data.get(name) not in (None, "") for name in self.fields)

    def configuration(self, start: Configuration, *, gpu_has_nvlink) -> Configuration:
        """Return the build: the fields given, the starting build's values for the rest.

        `gpu_has_nvlink(slug)` answers the API's default for a missing `nvlink`.
        """
        data = self.cleaned_data
        values = {name: getattr(start, name) for name in Configuration.field_names()}
        if self.has_build():
            # A permalink is the whole build: what it leaves out takes the API's default.
            values.update(API_DEFAULTS)
        for name in self.fields:
            if name not in self.errors and data.get(name) not in (None, ""):
                values[name] = data[name]
        if isinstance(values["gpus_per_socket"], str):
            counts = re.split(r"[+ ]", values["gpus_per_socket"])
            values["gpus_per_socket"] = tuple(int(n) for n in counts)
        elif "gpus_per_socket" not in self.data and self.has_build():
            values["gpus_per_socket"] = ()  # not given: split evenly, as the API does
        if data.get("nvlink") is None and self.has_build():
            values["nvlink"] = gpu_has_nvlink(values["gpu"])
        return Configuration(**values)


# A field per part a build names by slug (`engine.build.NAMED_PARTS`), as the API takes it.
for _part in NAMED_PARTS:
    ConfigurationForm.base_fields[_part.name] = forms.CharField(
        label=gettext_lazy(str(_part.label)), max_length=120, required=False
    )


class SearchableChoiceField(forms.CharField):
    """A choice typed or picked from a list (the page's datalist): a choice's value, or its
    label as the list shows it, case-insensitively; cleaned to the value the API takes."""

    def __init__(self, field: Declared, **kwargs) -> None:
        super().__init__(max_length=120, **kwargs)
        self.choices = field.spec.choices

    def clean(self, value):
        text = (super().clean(value) or "").strip()
        if not text:
            return ""
        for choice, label in self.choices:
            if text.lower() in (choice.lower(), str(label).lower()):
                return choice
        raise forms.ValidationError(
            _("Pick one of the listed models, or leave it empty and give the size."),
            code="invalid_choice",
        )


def workload_form_field(field: Declared) -> forms.Field:
    """Return the page's form field for one declared workload field: its label, its bounds
    (those of the API), optional, with no value filled in for a field not typed."""
    spec = field.spec
    label = gettext_lazy(str(spec.label))
    if spec.searchable:
        return SearchableChoiceField(field, label=label, required=False)
    if spec.kind == "choice":
        choices = [(value, gettext_lazy(str(text))) for value, text in spec.choices]
        return forms.ChoiceField(label=label, choices=choices, required=False)
    if spec.kind == "str":
        return forms.CharField(label=label, max_length=spec.max_length, required=False)
    number = WholeNumberField if spec.kind == "int" else NumberField
    validators = [GreaterThanValidator(spec.gt)] if spec.gt is not None else []
    return number(
        label=label,
        min_value=spec.ge,
        max_value=spec.le,
        validators=validators,
        required=False,
    )


class WorkloadForm(forms.Form):
    """The customer's workload: optional as a whole, complete when given.

    Its fields are the page's fields of `engine.build.Workload`'s declaration (below the
    class); a field left empty stays empty: the engine's default applies, not a value filled
    in as if typed.
    """

    def __init__(self, *args, catalog: Catalog | None = None, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.catalog = catalog  # to check the preferred GPU as the API does

    def clean(self) -> dict:
        cleaned = super().clean()
        # A model by name gives its size (api.md): either counts as the model.
        size = cleaned.get("model_params_b") or cleaned.get("model") or None
        mode = cleaned.get("mode")
        if (size is None) != (not mode) and "model_params_b" not in self.errors:
            missing = "mode" if size is not None else "model_params_b"
            self.add_error(missing, _("Give both the model size and the mode, or neither."))
        if not self.errors and (workload := self.workload()) is not None:
            self._add_api_errors(workload)
        return cleaned

    def _add_api_errors(self, workload: WorkloadChoice) -> None:
        """Refuse what the API refuses in the same workload (the other mode's work fields, a
        deadline without the work, …), each error on the field that carries it, so the page
        never hands the recommender or the evaluation a workload they would refuse."""
        prefer = self.cleaned_data.get(PREFER) or None
        data = WorkloadIn(**workload.workload_input(), gpu=prefer)
        errors = workload_errors(data, catalog=self.catalog)
        for path, messages in errors.errors.items():
            name = path.removeprefix("workload.")
            name = PREFER if name == PREFERENCE else name  # the API's `gpu` is this form's
            for message in messages:
                self.add_error(name if name in self.fields else None, localize(message))

    def workload(self) -> WorkloadChoice | None:
        """Return the workload typed, only the fields typed; None without a model and mode."""
        data = self.cleaned_data
        if not (data.get("model_params_b") or data.get("model")) or not data.get("mode"):
            return None
        return WorkloadChoice(
            **{name: data[name] for name in WORKLOAD_FIELDS if data.get(name) not in (None, "")}
        )


PREFER = next(f.query_name for f in PAGE_FIELDS if f.name == PREFERENCE)
for _field in PAGE_FIELDS:
    WorkloadForm.base_fields[_field.query_name] = workload_form_field(_field)
del _field


PHONE = RegexValidator(
    r"^\+?[0-9][0-9 ()\-]{5,22}[0-9]$",
    _("Enter a phone number of digits, spaces, dashes or brackets, e.g. +86 10 1234 5678."),
)


SENTENCE = "sentence"  # the query parameter of the customer's one-line request


class SentenceForm(forms.Form):
    """The customer's request in one line ("serve Qwen2.5-72B to 50 users, first token under
    1 s"), read into the workload's fields by `engine.sentence`."""

    sentence = forms.CharField(
        label=_("Your request in one line"), max_length=MAX_SENTENCE, required=False,
        strip=True,
    )  # fmt: skip


class PickForm(forms.Form):
    """Which of the recommended builds to show (`pick`, written by each card's link)."""

    pick = WholeNumberField(
        label=_("Recommended build"), min_value=0, max_value=RECOMMENDATIONS - 1, required=False
    )


class SharedFields(dict):
    """A read-only form's fields, shared by its instances: a form deep-copies its fields for
    each instance (so one may change its own); the query's forms only read and validate
    with theirs, and copying them was about 5 % of a profiled configurator request."""

    def __deepcopy__(self, memo: dict) -> dict:
        return dict(self)


for _form in (ConfigurationForm, WorkloadForm, PickForm, SentenceForm):
    _form.base_fields = SharedFields(_form.base_fields)
del _form


class BuildQueryField(forms.CharField):
    """The build on screen as its permalink's query string; every bad field in it is named."""

    widget = forms.HiddenInput
    MAX_LENGTH = 2000

    def __init__(self, **kwargs) -> None:
        super().__init__(max_length=self.MAX_LENGTH, **kwargs)

    def validate(self, value: str) -> None:
        super().validate(value)
        query = QueryDict(value)
        problems = []
        for form in (ConfigurationForm(query), WorkloadForm(query)):
            for name, messages in form.errors.items():
                label = form.fields[name].label if name in form.fields else name
                problems += [f"{label} ({name}): {message}" for message in messages]
        if problems:
            raise forms.ValidationError(problems, code="invalid")


class LeadForm(forms.ModelForm):
    """A customer's quote request; the build and workload come from the page."""

    phone = forms.CharField(label=_("Phone"), max_length=30, validators=[PHONE])
    build = BuildQueryField(label=_("Build"))

    class Meta:
        model = Lead
        fields = ["name", "company", "email", "phone"]


class ShareForm(forms.Form):
    """Ask for the short link of the build on screen."""

    build = BuildQueryField(label=_("Build"))


class LeadBuildForm(forms.Form):
    """Save the build on screen to a lead, with a note."""

    build = BuildQueryField(label=_("Build"))
    note = forms.CharField(label=_("Note"), max_length=1000, required=False, widget=forms.Textarea)


class LeadStatusForm(forms.Form):
    status = forms.ChoiceField(label=_("Status"), choices=Lead.Status.choices)
