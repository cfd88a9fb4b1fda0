"""The quote form of the pages: customer and terms as fields, the build as /evaluate's JSON."""

import json

from django import forms
from django.utils.translation import gettext_lazy as _
from pydantic import ValidationError as SchemaError

from configurator.fields import AmountField, WholeNumberField, json_from_text
from configurator.quotes.models import LeadBuild
from configurator.schemas import BuildIn, WorkloadIn

MAX_ID = 2**31 - 1  # the largest primary key the databases' integer columns hold


class SavedBuildField(WholeNumberField):
    """A build saved to a lead, by its id: the lead's build and customer start the quote."""

    widget = forms.HiddenInput

    def __init__(self, **kwargs) -> None:
        super().__init__(min_value=1, max_value=MAX_ID, required=False, **kwargs)

    def clean(self, value) -> LeadBuild | None:
        pk = super().clean(value)
        if pk is None:
            return None
        saved = LeadBuild.objects.select_related("lead").filter(pk=pk).first()
        if saved is None:
            raise forms.ValidationError(
                _("This saved build no longer exists."), code="does_not_exist"
            )
        return saved


class QuoteTermsForm(forms.Form):
    """A quote's customer and terms: the fields every quote form has, whatever edits the build."""

    customer_name = forms.CharField(label=_("Customer name"), max_length=120)
    customer_company = forms.CharField(label=_("Company"), max_length=200, required=False)
    customer_email = forms.EmailField(label=_("E-mail"), required=False)
    customer_phone = forms.CharField(label=_("Phone"), max_length=40, required=False)
    term_months = WholeNumberField(label=_("Term (months)"), min_value=1, max_value=60, initial=12)
    discount_pct = AmountField(
        label=_("Discount (%)"), min_value=0, max_value=99.99, decimal_places=2, initial=0
    )

    @staticmethod
    def initial_of(quote) -> dict[str, object]:
        """Return a quote's customer and terms as the form's starting values."""
        return {
            "customer_name": quote.customer_name,
            "customer_company": quote.customer_company,
            "customer_email": quote.customer_email,
            "customer_phone": quote.customer_phone,
            "term_months": quote.term_months,
            "discount_pct": quote.discount_pct,
        }


class QuoteForm(QuoteTermsForm):
    """A new quote: customer, terms, and the build as /evaluate's JSON (or a saved build's)."""

    build = forms.CharField(
        label=_("Build (JSON)"),
        widget=forms.Textarea(attrs={"rows": 8, "spellcheck": "false"}),
        help_text=_("The build as JSON, as /api/v1/evaluate takes it or /recommend returns it."),
    )
    workload = forms.CharField(
        label=_("Workload (JSON)"),
        required=False,
        widget=forms.Textarea(attrs={"rows": 3, "spellcheck": "false"}),
        help_text=_("Optional, as JSON: the workload the build is for."),
    )

    saved_build = SavedBuildField(label=_("saved build"))

    def carry_build(self) -> None:
        """Carry the build and workload unseen: they come from a build saved to a lead, which
        the page names in words (the draft's parts are edited in the parts form)."""
        for name in ("build", "workload"):
            self.fields[name].widget = forms.HiddenInput()

    def _schema_field(self, name: str, schema):
        text = self.cleaned_data.get(name, "").strip()
        if not text:
            return None
        try:
            return schema.model_validate(json_from_text(text))
        except SchemaError as error:
            raise forms.ValidationError(
                [
                    f"{'.'.join(str(part) for part in item['loc'])}: {item['msg']}"
                    for item in error.errors()
                ]
            ) from error

    def clean_build(self) -> BuildIn:
        return self._schema_field("build", BuildIn)

    def clean_workload(self) -> WorkloadIn | None:
        return self._schema_field("workload", WorkloadIn)

    @classmethod
    def initial_from(cls, saved: LeadBuild) -> dict[str, object]:
        """Return the form's starting values for a build saved to a lead: its customer too."""
        lead = saved.lead
        return {
            "customer_name": lead.name,
            "customer_company": lead.company,
            "customer_email": lead.email,
            "customer_phone": lead.phone,
            "build": json.dumps(saved.build),
            "workload": json.dumps(saved.workload) if saved.workload else "",
            "saved_build": saved.pk,
        }


class QuoteStartForm(forms.Form):
    """Where `/quotes/new/` starts, from its query string: a build saved to a lead, or JSON."""

    saved_build = SavedBuildField(label=_("saved build"))
    build = forms.CharField(required=False)


class TransitionForm(forms.Form):
    action = forms.ChoiceField(
        choices=[
            (name, name)
            for name in ("submit", "approve", "return", "issue", "accept", "cancel", "requote")
        ]
    )
    comment = forms.CharField(
        label=_("Comment"),
        required=False,
        max_length=2000,
        widget=forms.Textarea(attrs={"rows": 2}),
    )
    # A cancel is taken only with its confirmation: the first press asks (views.quote_transition).
    confirmed = forms.BooleanField(required=False)
