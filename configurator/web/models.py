"""Leads: a customer's quote request, with the build and workload it was made for."""

from django.conf import settings
from django.db import models
from django.urls import reverse
from django.utils.translation import gettext_lazy as _


class Lead(models.Model):
    class Status(models.TextChoices):
        NEW = "new", _("new")
        IN_PROGRESS = "in_progress", _("in progress")
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
        verbose_name = _("lead")
        verbose_name_plural = _("leads")
        ordering = ["-created_at"]
        indexes = [models.Index(fields=["status", "-created_at"])]

    def __str__(self) -> str:
        return f"#{self.pk} {self.company} · {self.name}"

    def get_absolute_url(self) -> str:
        return reverse("web:presales_lead", args=[self.pk])


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
    created_at = models.DateTimeField(_("saved at"), auto_now_add=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        related_name="+",
        verbose_name=_("saved by"),
    )

    class Meta:
        verbose_name = _("saved build")
        verbose_name_plural = _("saved builds")
        ordering = ["-created_at"]

    def __str__(self) -> str:
        return f"{self.lead} · {self.created_at:%Y-%m-%d %H:%M}"
