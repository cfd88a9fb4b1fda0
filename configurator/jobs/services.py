"""What a task does with the job row it works on: say which attempt runs it, and keep it."""

from django.tasks import TaskContext

from configurator.jobs.models import LeasedJob


def job_attempt_start(*, job: LeasedJob, context: TaskContext) -> int:
    """Record which task, worker and attempt run a job now; return the attempt number."""
    result = context.task_result
    values = {
        "task_id": str(result.id),
        "worker_id": result.worker_ids[-1] if result.worker_ids else "",
        "attempts": context.attempt,
    }
    type(job).objects.filter(pk=job.pk).update(**values)
    for name, value in values.items():
        setattr(job, name, value)
    return context.attempt


def job_attempt_holds(*, job: LeasedJob, attempt: int) -> bool:
    """Lock a job's row and say whether `attempt` still owns it; call it inside a transaction.

    A worker that was only silent, not dead, may finish after its job was taken up again: the
    later attempt owns the job, and the earlier one must write nothing.
    """
    return type(job).objects.select_for_update().filter(pk=job.pk, attempts=attempt).exists()
