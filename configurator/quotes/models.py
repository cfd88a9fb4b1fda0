"""Leads and quotes: a customer's request, and the priced build answering it, frozen once issued.

A lead is a customer's quote request, with the build and workload it was made for; presales
save the builds they adjust to it, and a quote written from such a build links both.

A quote keeps everything it shows: the bill of materials with each part's specs and unit price
at quote time, the evaluation with the rule version and its parameters, the totals. Nothing in
it reads the live catalog or rules again, so later price, spec or rule changes leave it as the
customer received it. Status changes go through `configurator.quotes.services` only and each
is recorded as a `QuoteEvent`.
"""

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import models
from django.db.models import Q
from django.urls import reverse
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from configurator.quotes.workload import (
    build_summary,
    workload_details,
    workload_mode,
    workload_summary,
)


class Status(models.TextChoices):
    DRAFT = "draft", _("draft")
    SUBMITTED = "submitted", _("submitted")
    APPROVED = "approved", _("approved")
    RETURNED = "returned", _("returned")
    ISSUED = "issued", _("issued")
    # Accepted by the customer: not the rules' verdict "accepted" (通过).
    ACCEPTED = "accepted", pgettext_lazy("quote status", "accepted")
    EXPIRED = "expired", _("expired")
    CANCELLED = "cancelled", _("cancelled")
    # Issued, then re-quoted: the customer's link shows it, replaced, and it is not accepted.
    SUPERSEDED = "superseded", _("superseded")


# The content of a quote may change only while its owner is still working on it.
EDITABLE = frozenset({Status.DRAFT, Status.RETURNED})
# A quote that can no longer be edited is revised by re-quoting it (once: a superseded quote
# has its newer revision already).
REQUOTABLE = frozenset(
    {Status.ISSUED, Status.ACCEPTED, Status.EXPIRED, Status.CANCELLED, Status.SUPERSEDED}
)
# Fields a status change writes; everything else is the quote's content.
STATUS_FIELDS = frozenset({"status", "issued_at", "updated_at"})


class QuoteLocked(ValidationError):
    """An attempt to change the content of a quote that is no longer a draft."""


class Lead(models.Model):
    """A customer's quote request, with the build and workload it was made for."""

    class Status(models.TextChoices):
        NEW = "new", _("new")
        IN_PROGRESS = "in_progress", _("in progress")
        # A quote written from it is being drafted or reviewed; quoted once one is issued
        # (`services.lead_follow_quotes`).
        DRAFTING = "drafting", _("drafting a quote")
        QUOTED = "quoted", _("quoted")

    name = models.CharField(_("name"), max_length=120)
    company = models.CharField(_("company"), max_length=200)
    email = models.EmailField(_("e-mail"))
    phone = models.CharField(_("phone"), max_length=30)
    build = models.JSONField(_("build"), help_text=_("As /api/v1/evaluate takes it."))
    workload = models.JSONField(_("workload"), null=True, blank=True)
    permalink = models.CharField(_("permalink"), max_length=2000)
    monthly_price = models.DecimalField(_("monthly price (CNY)"), max_digits=12, decimal_places=2)
    verdict = models.CharField(_("verdict"), max_length=10)
    language = models.CharField(_("language"), max_length=10)
    status = models.CharField(
        _("status"), max_length=20, choices=Status.choices, default=Status.NEW
    )
    created_at = models.DateTimeField(_("received at"), auto_now_add=True)
    updated_at = models.DateTimeField(_("updated at"), auto_now=True)

    class Meta:
        # The table the pages app created before leads moved here (quotes/0005_leads): the
        # rows stayed where they were.
        db_table = "web_lead"
        verbose_name = _("lead")
        verbose_name_plural = _("leads")
        ordering = ["-created_at"]
        indexes = [
            models.Index(fields=["status", "-created_at"], name="web_lead_status_f3debe_idx")
        ]

    def __str__(self) -> str:
        return f"#{self.pk} {self.company} · {self.name}"

    def get_absolute_url(self) -> str:
        return reverse("web:presales_lead", args=[self.pk])

    @property
    def workload_mode(self) -> str:
        """The requested workload's mode in words, in the active language."""
        return workload_mode(self.workload) if self.workload else ""


class LeadBuild(models.Model):
    """A build presales saved to a lead, with its price and verdict when saved."""

    lead = models.ForeignKey(
        Lead, on_delete=models.CASCADE, related_name="builds", verbose_name=_("lead")
    )
    build = models.JSONField(_("build"))
    workload = models.JSONField(_("workload"), null=True, blank=True)
    permalink = models.CharField(_("permalink"), max_length=2000)
    monthly_price = models.DecimalField(_("monthly price (CNY)"), max_digits=12, decimal_places=2)
    verdict = models.CharField(_("verdict"), max_length=10)
    note = models.TextField(_("note"), blank=True)
    # what a node delivered for this build should measure (fleet/manifest.py), written when
    # saved; empty for a build saved before manifests were (fleet.services.build_manifest)
    manifest = models.JSONField(_("expected manifest"), default=dict, blank=True)
    created_at = models.DateTimeField(_("saved at"), auto_now_add=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        related_name="+",
        verbose_name=_("saved by"),
    )

    class Meta:
        db_table = "web_leadbuild"  # as Lead's
        verbose_name = _("saved build")
        verbose_name_plural = _("saved builds")
        ordering = ["-created_at"]

    def __str__(self) -> str:
        return f"{self.lead} · {self.created_at:%Y-%m-%d %H:%M}"


class QuoteCounter(models.Model):
    """The last quote number given out in a year; locked while the next one is taken."""

    year = models.PositiveSmallIntegerField(_("year"), primary_key=True)
    last = models.PositiveIntegerField(_("last number"), default=0)

    class Meta:
        verbose_name = _("quote counter")
        verbose_name_plural = _("quote counters")

    def __str__(self) -> str:
        return f"{self.year}: {self.last}"


class Quote(models.Model):
    number = models.CharField(_("number"), max_length=16, unique=True, editable=False)
    year = models.PositiveSmallIntegerField(_("year"), editable=False)
    sequence = models.PositiveIntegerField(_("sequence"), editable=False)
    status = models.CharField(
        _("status"), max_length=10, choices=Status, default=Status.DRAFT, db_index=True
    )
    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        related_name="quotes",
        verbose_name=_("owner"),
    )
    previous = models.OneToOneField(
        "self",
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="next_revision",
        verbose_name=_("revision of"),
    )
    revision = models.PositiveSmallIntegerField(_("revision"), default=1)
    lead = models.ForeignKey(
        Lead,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="quotes",
        verbose_name=_("lead"),
    )
    saved_build = models.ForeignKey(
        LeadBuild,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="quotes",
        verbose_name=_("saved build"),
        help_text=_("The build saved to the lead that this quote was written from."),
    )

    customer_name = models.CharField(_("customer name"), max_length=120)
    customer_company = models.CharField(_("company"), max_length=200, blank=True)
    customer_email = models.EmailField(_("email"), blank=True)
    customer_phone = models.CharField(_("phone"), max_length=40, blank=True)

    build = models.JSONField(_("build"), help_text=_("The build as /evaluate takes it."))
    workload = models.JSONField(_("workload"), null=True, blank=True)
    bom = models.JSONField(
        _("bill of materials"),
        help_text=_("Lines with kind, SKU, name, quantity, unit monthly price and specs."),
    )
    evaluation = models.JSONField(
        _("evaluation"), help_text=_("Every check and score, with the rule version used.")
    )
    manifest = models.JSONField(
        _("expected manifest"),
        default=dict,
        blank=True,
        help_text=_("What a probe of the delivered node should measure (docs/fleet.md)."),
    )
    ruleset_version = models.ForeignKey(
        "configurator.RuleSetVersion",
        on_delete=models.PROTECT,
        related_name="+",
        verbose_name=_("rule set version"),
    )
    term_months = models.PositiveSmallIntegerField(_("term, months"))
    discount_pct = models.DecimalField(_("discount %"), max_digits=5, decimal_places=2)
    list_monthly_price = models.DecimalField(
        _("list monthly price, CNY"), max_digits=14, decimal_places=2
    )
    monthly_price = models.DecimalField(_("monthly price, CNY"), max_digits=14, decimal_places=2)
    term_price = models.DecimalField(_("term price, CNY"), max_digits=16, decimal_places=2)
    valid_until = models.DateField(_("valid until"))

    created_at = models.DateTimeField(_("created at"), auto_now_add=True)
    updated_at = models.DateTimeField(_("updated at"), auto_now=True)
    issued_at = models.DateTimeField(_("issued at"), null=True, blank=True)

    class Meta:
        verbose_name = _("quote")
        verbose_name_plural = _("quotes")
        ordering = ["-year", "-sequence"]
        permissions = [
            ("submit_quote", _("Can submit a quote for review")),
            ("review_quote", _("Can review (approve or return) any quote")),
            ("issue_quote", _("Can issue an approved quote")),
        ]
        constraints = [
            models.UniqueConstraint(fields=["year", "sequence"], name="quotes_unique_number"),
            models.CheckConstraint(
                condition=Q(discount_pct__gte=0) & Q(discount_pct__lt=100),
                name="quotes_discount_range",
            ),
            models.CheckConstraint(condition=Q(term_months__gte=1), name="quotes_term_positive"),
        ]

    def __str__(self) -> str:
        return self.number

    def save(self, *args, **kwargs) -> None:
        update_fields = kwargs.get("update_fields")
        status_only = update_fields is not None and set(update_fields) <= STATUS_FIELDS
        if self.pk is not None and not status_only:
            stored = Quote.objects.filter(pk=self.pk).values_list("status", flat=True).first()
            if stored is not None and stored not in EDITABLE:
                raise QuoteLocked(
                    _("Quote %(number)s is %(status)s: its content cannot change."),
                    code="locked",
                    params={"number": self.number, "status": Status(stored).label},
                )
        super().save(*args, **kwargs)

    @property
    def workload_summary(self) -> str:
        return workload_summary(self.workload)

    @property
    def workload_details(self) -> list[tuple[str, str]]:
        """The workload's work and targets as frozen (concurrent users, first token, …)."""
        return workload_details(self.workload)

    @property
    def build_summary(self) -> str:
        return build_summary(self.build, self.bom)

    @property
    def currency(self) -> str:
        return "CNY"

    @property
    def editable(self) -> bool:
        return self.status in EDITABLE

    @property
    def newer_revision(self) -> "Quote | None":
        """Return the quote that revises this one, if it has been re-quoted."""
        return getattr(self, "next_revision", None)


class QuoteEvent(models.Model):
    """One status change of a quote: who, when, from what to what, and why."""

    quote = models.ForeignKey(
        Quote, on_delete=models.CASCADE, related_name="events", verbose_name=_("quote")
    )
    action = models.CharField(_("action"), max_length=10)
    from_status = models.CharField(_("from"), max_length=10, choices=Status, blank=True)
    to_status = models.CharField(_("to"), max_length=10, choices=Status)
    by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("by"),
    )
    at = models.DateTimeField(_("at"), auto_now_add=True)
    comment = models.TextField(_("comment"), blank=True)

    class Meta:
        verbose_name = _("quote event")
        verbose_name_plural = _("quote events")
        ordering = ["at", "pk"]

    def __str__(self) -> str:
        return f"{self.quote}: {self.action}"
