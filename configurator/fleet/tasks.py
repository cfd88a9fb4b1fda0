"""Background work of the fleet audit (Django's tasks API; `manage.py db_worker` runs it)."""

from django.tasks import task
from django.utils import translation

from configurator.fleet import services
from configurator.fleet.models import FleetAudit


@task
def fleet_audit_task(audit_id: int) -> str:
    """Run one uploaded audit, its messages in the uploader's language."""
    audit = FleetAudit.objects.get(pk=audit_id)
    try:
        with translation.override(audit.language):
            return services.fleet_audit_run(audit=audit).status
    except Exception:
        FleetAudit.objects.filter(pk=audit_id).update(status=FleetAudit.Status.FAILED)
        raise
