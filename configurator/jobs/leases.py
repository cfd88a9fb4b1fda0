"""Leases on running tasks: a worker's heartbeat, and what becomes of a task whose worker died.

A worker beats every quarter of `TASK_LEASE_SECONDS` (`worker_beat`). A RUNNING task whose
last claiming worker has not beaten for a whole lease has lost its worker: `tasks_recover`
puts it back in the queue (READY, so that django-tasks-db's own loop claims it again and
appends the new worker to `worker_ids`, whose length is the attempt number) until
`TASK_MAX_ATTEMPTS` workers have started it, then fails it with `WorkerLost`. The job row the
task works on (a `LeasedJob`) follows in the same transaction: back to its queued status, or
to its stopped one. Taking a task up again is safe because the project's tasks write their
results all or nothing, in one transaction, and check that they still hold the job.
"""

import logging
import os
import socket
from datetime import timedelta

from django.apps import apps
from django.conf import settings
from django.core.exceptions import SuspiciousOperation
from django.db import transaction
from django.tasks import TaskResultStatus
from django.tasks.signals import task_finished
from django.utils import timezone
from django_tasks_db.models import DBTaskResult
from django_tasks_db.utils import exclusive_transaction

from configurator.jobs.models import LeasedJob, TaskWorker

logger = logging.getLogger(__name__)


class WorkerLost(Exception):
    """The worker stopped while running the task, on its last attempt."""


def lease() -> timedelta:
    """Return how long a worker may stay silent before its running task counts as orphaned."""
    return timedelta(seconds=settings.TASK_LEASE_SECONDS)


def beat_period() -> float:
    """Return the seconds between a worker's heartbeats: four of them fit in one lease."""
    return settings.TASK_LEASE_SECONDS / 4


def worker_beat(*, worker_id: str) -> None:
    """Record that a worker is alive now."""
    now = timezone.now()
    if not TaskWorker.objects.filter(worker_id=worker_id).update(beat_at=now):
        TaskWorker.objects.create(worker_id=worker_id, beat_at=now, started_at=now,
                                  host=socket.gethostname()[:255], pid=os.getpid())  # fmt: skip


def worker_leave(*, worker_id: str) -> None:
    """Forget a worker that stops cleanly, so that pages know at once that it is gone."""
    TaskWorker.objects.filter(worker_id=worker_id).delete()


def alive_worker_ids() -> set[str]:
    """Return the ids of the workers that have beaten within the lease."""
    since = timezone.now() - lease()
    return set(TaskWorker.objects.filter(beat_at__gte=since).values_list("worker_id", flat=True))


def job_models() -> list[type[LeasedJob]]:
    """Return every installed model whose rows background tasks work on."""
    return [model for model in apps.get_models() if issubclass(model, LeasedJob)]


def tasks_recover(*, interrupted: str | None = None) -> list[DBTaskResult]:
    """Take up again, or fail, every RUNNING task whose worker is gone; return those tasks.

    `interrupted` names a worker that is alive but no longer runs the task it claimed (its
    loop lost the database mid-task): its RUNNING tasks are orphans too.
    """
    alive = alive_worker_ids() - {interrupted}
    running = DBTaskResult.objects.running()

    def orphaned(results) -> list[DBTaskResult]:
        return [result for result in results
                if not result.worker_ids or result.worker_ids[-1] not in alive]  # fmt: skip

    # Only the orphans are locked, so that the live workers' tasks are never waited on.
    orphans = []
    if candidates := [result.pk for result in orphaned(running.only("pk", "worker_ids"))]:
        with exclusive_transaction(running.db):
            locked = running.filter(pk__in=candidates).select_for_update(skip_locked=True)
            for result in (orphans := orphaned(locked)):
                task_release(result)
    TaskWorker.objects.filter(beat_at__lt=timezone.now() - lease()).delete()
    return orphans


def task_release(result: DBTaskResult) -> None:
    """Queue a task whose worker stopped running it again, or fail it after the last attempt."""
    attempts = len(result.worker_ids)
    worker = result.worker_ids[-1] if result.worker_ids else "?"
    jobs = [model.objects.filter(task_id=str(result.pk), status__in=model.ACTIVE)
            for model in job_models()]  # fmt: skip
    with transaction.atomic(using=result._state.db):
        if attempts < settings.TASK_MAX_ATTEMPTS:
            result.status = TaskResultStatus.READY
            result.save(update_fields=["status"])
            for queryset in jobs:
                queryset.update(status=queryset.model.QUEUED, worker_id="")
            logger.warning(
                "Task id=%s path=%s: worker %s stopped running it; queued again "
                "(attempt %s of %s)",
                result.pk, result.task_path, worker, attempts + 1, settings.TASK_MAX_ATTEMPTS,
            )  # fmt: skip
            return
        result.set_failed(
            WorkerLost(
                f"The worker stopped while running this task; it was retried {attempts - 1} times."
            )
        )
        for queryset in jobs:
            queryset.update(status=queryset.model.STOPPED, finished_at=timezone.now())
        transaction.on_commit(lambda: _announce_finished(result), using=result._state.db)


def _announce_finished(result: DBTaskResult) -> None:
    # As django-tasks-db's worker does for a task that ends; its receiver logs the failure.
    try:
        sender = type(result.task.get_backend())
        task_result = result.task_result
    except (ImportError, SuspiciousOperation):
        logger.error("Task id=%s path=%s failed: its worker stopped", result.pk, result.task_path)
        return
    task_finished.send(sender=sender, task_result=task_result)
