"""Jobs on the database backend, workers that beat or went silent, a job some worker started."""

from datetime import timedelta

import pytest
from django.utils import timezone
from django_tasks_db.models import DBTaskResult

from configurator.fleet.models import FleetAudit
from configurator.jobs.models import TaskWorker
from tests.fleet.sheets import GOOD, P3, csv_bytes
from tests.jobs import worker_settings

LEASE_S = worker_settings.TASK_LEASE_SECONDS  # the workers the tests start use the same


@pytest.fixture
def database_backend(settings):
    """Store enqueued tasks for a worker, as production does (the suite runs them inline)."""
    settings.TASKS = {"default": {"BACKEND": "django_tasks_db.DatabaseBackend"}}
    settings.TASK_LEASE_SECONDS = LEASE_S
    settings.TASK_MAX_ATTEMPTS = 3


def worker_seen(worker_id: str, *, seconds_ago: float) -> TaskWorker:
    """Record a worker whose last heartbeat was `seconds_ago`."""
    at = timezone.now() - timedelta(seconds=seconds_ago)
    return TaskWorker.objects.create(worker_id=worker_id, host="node", pid=1, started_at=at,
                                     beat_at=at)  # fmt: skip


def audit_started(user, *workers: str) -> tuple[FleetAudit, DBTaskResult]:
    """Queue an audit and let each of `workers` in turn claim it; the last one runs it."""
    audit = FleetAudit.objects.create(
        file_name="fleet.csv", source=csv_bytes([GOOD, P3]), created_by=user
    )
    from configurator.fleet.tasks import fleet_audit_task

    result = DBTaskResult.objects.get(pk=fleet_audit_task.enqueue(audit.pk).id)
    for worker in workers:
        result.claim(worker)
    if workers:
        FleetAudit.objects.filter(pk=audit.pk).update(
            status=FleetAudit.Status.RUNNING, task_id=str(result.pk), worker_id=workers[-1],
            attempts=len(workers),
        )  # fmt: skip
    audit.refresh_from_db()
    return audit, result
