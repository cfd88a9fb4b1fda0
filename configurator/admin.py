"""Admin for the rules: architects edit a profile's parameters; each save publishes a version."""

import hashlib
import json
from dataclasses import fields

from django import forms
from django.contrib import admin, messages
from django.db import transaction
from django.utils.html import format_html_join
from django.utils.text import format_lazy
from django.utils.translation import gettext_lazy as _

from configurator import services
from configurator.engine.rule_validation import BOUNDS, parameter_errors
from configurator.engine.rules import RuleParams
from configurator.fleet.admin import RuleImpactAdminMixin
from configurator.history_admin import HistoryAdmin
from configurator.models import RuleProfile, RuleSetVersion, Scenario
from configurator.rule_parameters import DIMENSIONS, PARAMETERS
from configurator.translation import written

PARAMETER_FIELDS = tuple(f.name for f in fields(RuleParams))


DEFAULTS = RuleParams()


def parameter_help(name: str) -> str:
    """Return a parameter's key, unit, default and source, in the request's language."""
    info = PARAMETERS.get(name)
    if info is None:  # not described yet (tests/configurator asks for every one)
        return name
    source = f"{info.source} {info.section}".strip()
    return format_lazy(
        "{key} · {unit_label}: {unit} · {default_label}: {default} · {source_label}: {source}",
        key=name,
        unit_label=_("unit"),
        unit=info.unit,
        default_label=_("default"),
        default=f"{getattr(DEFAULTS, name):g}",
        source_label=_("source"),
        source=source,
    )


def dimension_of(name: str) -> str:
    info = PARAMETERS.get(name)
    return info.dimension if info else "other"


def parameter_fieldsets() -> list[tuple]:
    """Return one admin fieldset per dimension that has parameters, in DIMENSIONS' order."""
    groups = []
    for dimension, label in DIMENSIONS.items():
        names = [name for name in PARAMETER_FIELDS if dimension_of(name) == dimension]
        if names:
            groups.append((label, {"fields": names}))
    return groups


def parameter_field(name: str, kind: str) -> forms.Field:
    """Return the form field of one rule parameter, bounded as rule_validation says."""
    low, high = BOUNDS.get(name, (0, None))
    field_class = forms.IntegerField if kind == "int" else forms.FloatField
    return field_class(
        label=PARAMETERS[name].label if name in PARAMETERS else name,
        help_text=parameter_help(name),
        min_value=low,
        max_value=high,
    )


def changes_fingerprint(changes: dict[str, float]) -> str:
    """Return a short digest of a set of changes: what the architect confirmed."""
    text = json.dumps(sorted(changes.items()))
    return hashlib.sha256(text.encode()).hexdigest()[:16]


class RuleProfileFormBase(forms.ModelForm):
    """Edit a profile and its parameters, shown as they stand in its latest version."""

    note = forms.CharField(
        label=_("Change note"), max_length=300, required=False,
        help_text=_("Why the rules change; kept with the new version."),
    )  # fmt: skip
    # The digest of the changes the architect has seen as a diff; publishing needs it.
    confirm_changes = forms.CharField(required=False, widget=forms.HiddenInput)
    # The version the form was opened on: a save after someone else published is refused.
    base_version = forms.IntegerField(widget=forms.HiddenInput, required=False, min_value=1)

    class Meta:
        model = RuleProfile
        fields = ["slug", "name", "description", "is_default"]

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        current = self.instance.versions.first() if self.instance.pk else None
        self.current_version = current.version if current else None
        self.current_params = RuleParams.from_mapping(current.parameters if current else {})
        for name in PARAMETER_FIELDS:
            self.fields[name].initial = getattr(self.current_params, name)
        self.fields["base_version"].initial = self.current_version

    def clean(self) -> dict:
        cleaned = super().clean()
        base = cleaned.get("base_version")
        if self.instance.pk and transaction.get_connection().in_atomic_block:
            # The admin saves inside one transaction: holding the profile's row from here on
            # means nobody can publish between this check and this save (PostgreSQL).
            RuleProfile.objects.select_for_update().filter(pk=self.instance.pk).first()
            current = self.instance.versions.first()
            self.current_version = current.version if current else None
        if self.current_version is not None and base != self.current_version:
            self.add_error(None, stale_message(self.instance, base))
            # The form shown again starts from the current version: saving it again is a
            # deliberate decision made with the changes above in view.
            self.data = self.data.copy()
            self.data[self.add_prefix("base_version")] = self.current_version
            return cleaned
        if not any(name in self.errors for name in PARAMETER_FIELDS):
            for name, problems in parameter_errors(
                self.parameter_changes(), self.current_params
            ).items():
                self.add_error(name, problems)
        if not self.errors:
            self._ask_for_confirmation()
        return cleaned

    def _ask_for_confirmation(self) -> None:
        """Show the diff against the current version; publish only what was shown."""
        if self.instance.pk is None or not self.instance.versions.exists():
            return  # a new profile's first version has nothing to differ from
        changes = self.parameter_changes()
        fingerprint = changes_fingerprint(changes)
        if not changes or self.data.get("confirm_changes") == fingerprint:
            return
        current = self.current_params.as_dict()
        self.pending_diff = [
            (name, self.fields[name].label, current[name], value,
             PARAMETERS[name].unit if name in PARAMETERS else "")
            for name, value in changes.items()
        ]  # fmt: skip
        self.data = self.data.copy()
        self.data["confirm_changes"] = fingerprint
        raise forms.ValidationError(
            _("Review the changes against version %(v)s below, then save again to publish."),
            code="confirm",
            params={"v": self.instance.versions.first().version},
        )

    def parameter_changes(self) -> dict[str, float]:
        return {
            name: self.cleaned_data[name]
            for name in PARAMETER_FIELDS
            if name in self.changed_data
            or self.instance.pk is None
            or not self.instance.versions.exists()
        }


def stale_message(profile: RuleProfile, base: int | None) -> str:
    """Say that the rules changed since `base`, and what changed, version by version."""
    newer = profile.versions.filter(version__gt=base or 0).select_related("created_by")
    lines = [
        _("v%(v)s by %(who)s: %(changes)s")
        % {
            "v": version.version,
            "who": version.created_by.get_username() if version.created_by else _("migration"),
            "changes": "; ".join(f"{k} {old} → {new}" for k, (old, new) in version.changes.items())
            or "—",
        }
        for version in newer.order_by("version")
    ]
    return _(
        "Not saved: the rules changed since you opened this form (version %(base)s). "
        "Changes meanwhile: %(lines)s. The form now shows them; save again to apply yours."
    ) % {"base": base or "?", "lines": " | ".join(lines)}


# One declared field per rule parameter, so the admin's fieldsets can name them.
RuleProfileForm = type(
    "RuleProfileForm",
    (RuleProfileFormBase,),
    {f.name: parameter_field(f.name, f.type) for f in fields(RuleParams)},
)


class VersionInline(admin.TabularInline):
    model = RuleSetVersion
    fields = ["version", "created_at", "created_by", "changes_display", "note"]
    readonly_fields = fields
    extra = 0
    can_delete = False
    show_change_link = True
    ordering = ["-version"]

    def has_add_permission(self, request, obj=None) -> bool:
        return False

    @admin.display(description=_("changes"))
    def changes_display(self, version: RuleSetVersion) -> str:
        return changes_html(version.changes)


def changes_html(changes: dict[str, list]) -> str:
    return format_html_join(
        "", "<div><code>{}</code>: {} → <strong>{}</strong></div>",
        ((name, old, new) for name, (old, new) in sorted(changes.items())),
    ) or "—"  # fmt: skip


@admin.register(RuleProfile)
class RuleProfileAdmin(RuleImpactAdminMixin, HistoryAdmin):
    form = RuleProfileForm
    list_display = ["name", "slug", "is_default", "current_version", "published"]
    search_fields = ["name", "slug"]
    inlines = [VersionInline]
    change_form_template = "admin/configurator/ruleprofile/change_form.html"
    fieldsets = [
        (None, {"fields": ["slug", "name", "description", "is_default", "base_version"]}),
        *parameter_fieldsets(),
        (_("Publish (saving publishes a new version after you confirm the diff)"),
         {"fields": ["note", "confirm_changes"]}),
    ]  # fmt: skip

    @admin.display(description=_("current version"))
    def current_version(self, profile: RuleProfile) -> int | None:
        latest = profile.versions.first()
        return latest.version if latest else None

    @admin.display(description=_("published"))
    def published(self, profile: RuleProfile) -> str:
        latest = profile.versions.select_related("created_by").first()
        if latest is None:
            return "—"
        who = latest.created_by.get_username() if latest.created_by else _("migration")
        return f"{latest.created_at:%Y-%m-%d %H:%M} · {who}"

    def save_model(self, request, obj, form, change) -> None:
        super().save_model(request, obj, form, change)
        changes = form.parameter_changes()
        if not changes:
            return
        try:
            version = services.ruleset_publish(
                profile=obj, changes=changes, user=request.user, note=form.cleaned_data["note"],
                base_version=form.cleaned_data.get("base_version"),
            )  # fmt: skip
        except services.StaleVersion:
            # Published by someone else between the form's check and this save.
            transaction.set_rollback(True)
            self.message_user(request, stale_message(obj, form.cleaned_data.get("base_version")),
                              messages.ERROR)  # fmt: skip
            return
        self.message_user(
            request, _("Published version %(v)s of %(p)s.") % {"v": version.version, "p": obj},
            messages.SUCCESS,
        )  # fmt: skip


@admin.register(RuleSetVersion)
class RuleSetVersionAdmin(admin.ModelAdmin):
    list_display = ["profile", "version", "created_at", "created_by", "note"]
    list_filter = ["profile", "created_by"]
    readonly_fields = ["profile", "version", "parameters", "changes_display", "note",
                       "created_at", "created_by"]  # fmt: skip
    exclude = ["changes"]

    @admin.display(description=_("changes"))
    def changes_display(self, version: RuleSetVersion) -> str:
        return changes_html(version.changes)

    def has_add_permission(self, request) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False

    def has_delete_permission(self, request, obj=None) -> bool:
        return False


@admin.register(Scenario)
class ScenarioAdmin(HistoryAdmin):
    list_display = ["code", "name", "shown_as", "modes", "params_min_b", "params_max_b", "cpu",
                    "platform", "memory_gb", "active"]  # fmt: skip
    list_filter = ["active", "for_train", "for_finetune", "for_infer"]
    search_fields = ["code", "name"]
    filter_horizontal = ["gpus"]
    autocomplete_fields: list[str] = []

    @admin.display(description=_("name in your language"))
    def shown_as(self, scenario: Scenario) -> str:
        """Show the name as the pages show it in the admin's language (`translation.written`)."""
        return written(scenario.name)

    @admin.display(description=_("modes"))
    def modes(self, scenario: Scenario) -> str:
        flags = {"train": scenario.for_train, "finetune": scenario.for_finetune,
                 "infer": scenario.for_infer}  # fmt: skip
        return ", ".join(name for name, on in flags.items() if on)
