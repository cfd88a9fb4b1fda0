"""Reads for the pages that follow a job: is a worker alive, and is this job's worker alive."""

from dataclasses import dataclass

from django.conf import settings

from configurator.jobs.leases import alive_worker_ids
from configurator.jobs.models import LeasedJob


@dataclass(frozen=True)
class JobState:
    """Where a job stands with the workers, for its page."""

    active: bool  # queued or being worked on
    stale: bool  # being worked on by a worker that has not beaten within the lease
    stopped: bool  # failed: its worker stopped while running it, on the last attempt
    workers_alive: bool  # some worker has beaten within the lease
    attempts: int
    max_attempts: int

    @property
    def polling(self) -> bool:
        """Whether the page should ask again: only while something can still change it."""
        return self.active and not self.stale

    @property
    def retries(self) -> int:
        return max(self.attempts - 1, 0)


def job_state(job: LeasedJob) -> JobState:
    """Return where a job stands with the workers."""
    active = job.status in job.ACTIVE
    alive = alive_worker_ids() if active else set()
    started = active and job.status != job.QUEUED and bool(job.worker_id)
    return JobState(
        active=active,
        stale=started and job.worker_id not in alive,
        stopped=job.status == job.STOPPED,
        workers_alive=bool(alive),
        attempts=job.attempts,
        max_attempts=settings.TASK_MAX_ATTEMPTS,
    )
