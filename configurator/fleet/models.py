"""Fleet audits: an uploaded inventory sheet, its distinct builds and its nodes.

An audit's results are written in one transaction when the whole sheet has been read: a sheet
with any unreadable row is refused with every problem listed by row and column, and nothing of
it is kept but the problems.
"""

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from configurator.jobs.models import LeasedJob


class FleetAudit(LeasedJob):
    class Status(models.TextChoices):
        QUEUED = "queued", _("queued")
        RUNNING = "running", _("running")
        DONE = "done", _("done")
        INVALID = "invalid", _("refused")
        FAILED = "failed", _("failed")
        STOPPED = "stopped", _("failed: the worker stopped")

    QUEUED = Status.QUEUED
    ACTIVE = (Status.QUEUED, Status.RUNNING)
    STOPPED = Status.STOPPED

    file_name = models.CharField(_("file"), max_length=255)
    source = models.BinaryField(_("uploaded sheet"), editable=False, default=b"")
    status = models.CharField(
        _("status"), max_length=16, choices=Status.choices, default=Status.QUEUED
    )
    progress = models.FloatField(_("progress"), default=0)
    rows_read = models.PositiveIntegerField(_("rows read"), default=0)
    language = models.CharField(_("language"), max_length=16, default=settings.LANGUAGE_CODE)
    profile = models.CharField(_("rule profile"), max_length=64, blank=True)
    rule_version = models.PositiveIntegerField(_("rule version"), null=True, blank=True)
    summary = models.JSONField(_("summary"), default=dict, blank=True)
    problems = models.JSONField(
        _("problems"), default=list, blank=True, help_text=_("[{row, column, message}]")
    )
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        related_name="+",
        verbose_name=_("uploaded by"),
    )
    created_at = models.DateTimeField(_("uploaded at"), auto_now_add=True)
    finished_at = models.DateTimeField(_("finished at"), null=True, blank=True)

    class Meta:
        verbose_name = _("fleet audit")
        verbose_name_plural = _("fleet audits")
        ordering = ["-created_at"]

    def __str__(self) -> str:
        return f"{self.file_name} ({self.created_at:%Y-%m-%d})"

    @property
    def finished(self) -> bool:
        return self.status not in self.ACTIVE


class AuditedBuild(models.Model):
    """One distinct build of an audit, evaluated once, with how many nodes share it."""

    audit = models.ForeignKey(FleetAudit, on_delete=models.CASCADE, related_name="builds")
    build = models.JSONField(_("build"))
    verdict = models.CharField(_("verdict"), max_length=8)
    codes = models.JSONField(_("failing checks"), default=list)
    balance = models.JSONField(_("balance"), default=dict)
    overall = models.FloatField(_("balance score"))
    node_count = models.PositiveIntegerField(_("nodes"))

    class Meta:
        verbose_name = _("audited build")
        verbose_name_plural = _("audited builds")
        ordering = ["overall"]

    def __str__(self) -> str:
        return f"{self.build.get('gpu_count')} × {self.build.get('gpu')} ({self.verdict})"


class AuditedNode(models.Model):
    audit = models.ForeignKey(FleetAudit, on_delete=models.CASCADE, related_name="nodes")
    build = models.ForeignKey(AuditedBuild, on_delete=models.CASCADE, related_name="nodes")
    row = models.PositiveIntegerField(_("sheet row"))
    node_id = models.CharField(_("node"), max_length=200)

    class Meta:
        verbose_name = _("audited node")
        verbose_name_plural = _("audited nodes")
        ordering = ["row"]
        constraints = [
            models.UniqueConstraint(fields=["audit", "node_id"], name="fleet_unique_node_per_audit")
        ]

    def __str__(self) -> str:
        return self.node_id


class NodeProbe(models.Model):
    """One node's probe archive, read into its facts, its build and its balance report."""

    hostname = models.CharField(_("host"), max_length=200, blank=True)
    file_name = models.CharField(_("file"), max_length=255)
    files = models.JSONField(_("probe files"), default=dict)  # name -> the command's output
    psu_watts = models.PositiveIntegerField(_("usable PSU output W"))
    numa_binding = models.BooleanField(_("NUMA binding applied"), default=True)
    build = models.JSONField(_("build"), null=True, blank=True)
    verdict = models.CharField(_("verdict"), max_length=8, blank=True)
    codes = models.JSONField(_("failing checks"), default=list, blank=True)
    balance = models.JSONField(_("balance"), default=dict, blank=True)
    findings = models.JSONField(_("hardware findings"), default=list, blank=True)
    # api.md's node-probe `facts`, `missing` and the facts no file showed (probe/partial.py)
    facts = models.JSONField(_("facts"), default=dict, blank=True)
    quote = models.ForeignKey(
        "quotes.Quote",
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="probes",
        verbose_name=_("quote"),
    )
    # or against a build saved to a lead, or a fleet audit's node (one target at most)
    saved_build = models.ForeignKey(
        "quotes.LeadBuild",
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="probes",
        verbose_name=_("saved build"),
    )
    audited_node = models.ForeignKey(
        AuditedNode,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="probes",
        verbose_name=_("fleet row"),
    )
    # the delivered node against its target, line by line (fleet/manifest.py)
    comparison = models.JSONField(_("comparison with the quote"), default=list, blank=True)
    profile = models.CharField(_("rule profile"), max_length=64, blank=True)
    rule_version = models.PositiveIntegerField(_("rule version"), null=True, blank=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        related_name="+",
        verbose_name=_("uploaded by"),
    )
    created_at = models.DateTimeField(_("uploaded at"), auto_now_add=True)

    class Meta:
        verbose_name = _("node probe")
        verbose_name_plural = _("node probes")
        ordering = ["-created_at"]

    def __str__(self) -> str:
        return self.hostname or self.file_name
