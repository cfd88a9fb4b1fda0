"""Background work of the fleet audit (Django's tasks API; `manage.py db_worker` runs it)."""

from django.tasks import TaskContext, task
from django.utils import translation

from configurator.fleet import services
from configurator.fleet.models import FleetAudit
from configurator.jobs.services import job_attempt_start
from configurator.middleware import DATABASE_FAULTS


@task(takes_context=True)
def fleet_audit_task(context: TaskContext, audit_id: int) -> str:
    """Run one uploaded audit, its messages in the uploader's language."""
    audit = FleetAudit.objects.get(pk=audit_id)
    if audit.finished:  # an earlier attempt finished it; its worker stopped before saying so
        return audit.status
    attempt = job_attempt_start(job=audit, context=context)
    try:
        with translation.override(audit.language):
            return services.fleet_audit_run(audit=audit, attempt=attempt).status
    except DATABASE_FAULTS:
        raise  # not the audit's fault: the worker takes it up again (configurator.jobs)
    except Exception:
        FleetAudit.objects.filter(pk=audit_id, attempts=attempt).update(
            status=FleetAudit.Status.FAILED
        )
        raise
