"""Background work that survives its worker: each worker's heartbeat, and the jobs' lease.

django-tasks-db marks a task it claims RUNNING and appends the claiming worker's id to its
`worker_ids`; nothing notices when that worker dies. A worker run by this project's
`db_worker` renews its `TaskWorker` row every quarter of `TASK_LEASE_SECONDS`; a RUNNING task
whose last worker has not done so for a whole lease is taken up again or failed
(`configurator.jobs.leases`). A `LeasedJob` is the row a task works on (a fleet audit, a
sheet import): it records which task, worker and attempt run it, so its page can tell a job
in progress from one whose worker stopped.
"""

from typing import ClassVar

from django.db import models
from django.utils.translation import gettext_lazy as _


class TaskWorker(models.Model):
    """A running `db_worker` process and when it last said it was alive."""

    worker_id = models.CharField(_("worker"), max_length=64, primary_key=True)
    host = models.CharField(_("host"), max_length=255)
    pid = models.PositiveIntegerField(_("process id"))
    started_at = models.DateTimeField(_("started at"))
    beat_at = models.DateTimeField(_("last heartbeat"), db_index=True)

    class Meta:
        verbose_name = _("background worker")
        verbose_name_plural = _("background workers")
        ordering = ["-beat_at"]

    def __str__(self) -> str:
        return f"{self.host}:{self.pid}"


class LeasedJob(models.Model):
    """A row a background task works on: its task, the worker running it, how often it began.

    A subclass has a `status` and a `finished_at` field and names its statuses: `QUEUED`
    (waiting for a worker), `ACTIVE` (queued or being worked on) and `STOPPED` (failed: the
    worker stopped while running it, on the last attempt).
    """

    task_id = models.CharField(_("task"), max_length=64, blank=True, db_index=True, editable=False)
    worker_id = models.CharField(_("worker"), max_length=64, blank=True, editable=False)
    attempts = models.PositiveSmallIntegerField(_("attempts"), default=0, editable=False)

    QUEUED: ClassVar[str]
    ACTIVE: ClassVar[tuple[str, ...]]
    STOPPED: ClassVar[str]

    class Meta:
        abstract = True
