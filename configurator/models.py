"""Rule profiles and their immutable, numbered versions.

Architects keep one or more named rule profiles (the operator baseline by default, others such
as NVIDIA's reference architecture). A profile's parameters are never edited in place: each
change publishes a new `RuleSetVersion` with the next number, who published it, when, and
what changed. Evaluations name the version they used.
"""

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _
from simple_history.models import HistoricalRecords


class RuleProfile(models.Model):
    slug = models.SlugField(_("slug"), max_length=64, unique=True)
    name = models.CharField(_("name"), max_length=120)
    description = models.TextField(_("description"), blank=True)
    is_default = models.BooleanField(
        _("default profile"),
        default=False,
        help_text=_("Evaluations use it unless told otherwise."),
    )
    history = HistoricalRecords()

    class Meta:
        verbose_name = _("rule profile")
        verbose_name_plural = _("rule profiles")
        ordering = ["-is_default", "name"]
        constraints = [
            models.UniqueConstraint(
                fields=["is_default"],
                condition=Q(is_default=True),
                name="configurator_one_default_rule_profile",
            )
        ]

    def __str__(self) -> str:
        return self.name


class RuleSetVersion(models.Model):
    profile = models.ForeignKey(
        RuleProfile, on_delete=models.PROTECT, related_name="versions", verbose_name=_("profile")
    )
    version = models.PositiveIntegerField(_("version"))
    parameters = models.JSONField(_("parameters"))
    changes = models.JSONField(
        _("changes"), default=dict, help_text=_("Each changed key: [previous, new].")
    )
    note = models.CharField(_("note"), max_length=300, blank=True)
    created_at = models.DateTimeField(_("published at"), auto_now_add=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("published by"),
    )

    class Meta:
        verbose_name = _("rule set version")
        verbose_name_plural = _("rule set versions")
        ordering = ["profile", "-version"]
        get_latest_by = "version"
        constraints = [
            models.UniqueConstraint(
                fields=["profile", "version"], name="configurator_unique_profile_version"
            ),
            models.CheckConstraint(
                condition=Q(version__gte=1), name="configurator_version_from_one"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.profile} v{self.version}"

    def save(self, *args, **kwargs) -> None:
        if self.pk is not None:
            raise ValidationError(_("A published rule set version is immutable."))
        super().save(*args, **kwargs)

    def delete(self, *args, **kwargs):
        raise ValidationError(_("A published rule set version cannot be deleted."))


class Scenario(models.Model):
    """One of the guide's standard pairings (domain.md §3): the recommender's starting points."""

    code = models.CharField(_("code"), max_length=8, unique=True)
    # One text in one language, shown through `translation.written`: the guide's recipes
    # (S1–S3) as seeded are message ids and read in every page language from its catalogue;
    # a name or result written here is shown as written, in every language.
    name = models.CharField(
        _("name"),
        max_length=250,
        help_text=_(
            "Shown as written in every language, unless the translation catalogue has it (as "
            "it has the field guide's recipes)."
        ),
    )
    for_train = models.BooleanField(_("training"), default=False)
    for_finetune = models.BooleanField(_("fine-tuning"), default=False)
    for_infer = models.BooleanField(_("inference"), default=False)
    params_min_b = models.FloatField(_("model size from (B parameters)"), default=0)
    params_max_b = models.FloatField(_("model size up to (B parameters)"))
    gpus = models.ManyToManyField("catalog.Gpu", verbose_name=_("GPUs"))
    gpu_count = models.CharField(_("GPU count in the recipe"), max_length=20, blank=True)
    cpu = models.ForeignKey("catalog.Cpu", on_delete=models.PROTECT, verbose_name=_("CPU"))
    platform = models.ForeignKey(
        "catalog.Platform",
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        verbose_name=_("platform"),
        help_text=_("Empty: any offered platform that takes the CPU and GPU."),
    )
    memory_gb = models.PositiveIntegerField(
        _("recipe RAM GB"), help_text=_("A minimum; the rules may ask for more.")
    )
    result = models.CharField(
        _("measured result"),
        max_length=610,
        blank=True,
        help_text=_(
            "Shown as written in every language, unless the translation catalogue has it (as "
            "it has the field guide's recipes)."
        ),
    )
    active = models.BooleanField(_("active"), default=True)
    history = HistoricalRecords(m2m_fields=[gpus])

    class Meta:
        verbose_name = _("scenario recipe")
        verbose_name_plural = _("scenario recipes")
        ordering = ["code"]
        constraints = [
            models.CheckConstraint(
                condition=Q(params_max_b__gte=models.F("params_min_b")),
                name="configurator_scenario_size_range",
            ),
            models.CheckConstraint(
                condition=Q(for_train=True) | Q(for_finetune=True) | Q(for_infer=True),
                name="configurator_scenario_has_a_mode",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.code} {self.name}"


class Revision(models.Model):
    """A token that changes with every write to the catalog or the rules.

    Requests read the two tokens (one small query) and reuse the process's cached catalog and
    rule snapshots while the tokens stay the same; see `configurator.snapshots`.
    """

    name = models.CharField(primary_key=True, max_length=20)
    token = models.CharField(max_length=32)

    class Meta:
        verbose_name = _("revision")

    def __str__(self) -> str:
        return f"{self.name}@{self.token}"
