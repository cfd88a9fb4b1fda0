"""django-tasks-db's worker, with a heartbeat, and a database outage ridden out.

`LeasedWorker` runs django-tasks-db's own loop (it claims, runs and records tasks as before)
and adds three things around it:

- a heartbeat thread that renews the worker's `TaskWorker` row every quarter lease, whatever
  the task in hand is doing (a sheet's all-or-nothing write is one transaction of minutes, so
  the task's own progress writes cannot be the heartbeat), and takes up the tasks of workers
  that stopped beating (`leases.tasks_recover`);
- when the loop meets a database fault (refused, dropped or timed out), it waits and tries
  again, 1, 2, 4 … s apart up to `TASK_WORKER_RETRY_MAX_SECONDS`, logging once per wait,
  where django-tasks-db's loop would exit; the task it was running is taken up again once
  the database answers;
- a task that meets a database fault is not recorded as failed: the loop waits for the
  database, then queues it again (at most `TASK_MAX_ATTEMPTS` starts in all).
"""

import logging
import threading
import time
from contextlib import suppress

from django.conf import settings
from django.db import DatabaseError, close_old_connections, connections
from django_tasks_db.management.commands.db_worker import Worker
from django_tasks_db.models import DBTaskResult

from configurator.jobs import leases
from configurator.middleware import DATABASE_FAULTS

logger = logging.getLogger(__name__)


def close_connections() -> None:
    """Drop this thread's database connections, broken ones included."""
    for connection in connections.all(initialized_only=True):
        with suppress(DatabaseError):
            connection.close()


class Outage:
    """The waits of a worker whose database does not answer: doubling, capped, logged once.

    The waits start short again only once the loop has run for as long as the longest wait,
    so a database that answers one query and fails the next is not hammered every second.
    """

    def __init__(self, *, first: float, cap: float) -> None:
        self.first, self.cap = first, cap
        self.delay = first
        self.since: float | None = None

    def wait(self, error: BaseException, *, ran_for: float = 0.0) -> None:
        """Log the fault and sleep the current step; the next step is twice as long."""
        if ran_for >= self.cap:
            self.delay = self.first
        now = time.monotonic()
        self.since = self.since if self.since is not None else now
        reason = str(error).strip().splitlines()[0] if str(error).strip() else ""
        logger.warning(
            "The database does not answer (%s: %s); trying again in %.1f s (down %.1f s).",
            type(error).__name__, reason, self.delay, now - self.since,
        )  # fmt: skip
        time.sleep(self.delay)
        self.delay = min(self.delay * 2, self.cap)

    def end(self) -> None:
        """Say that the database answers again."""
        if self.since is not None:
            logger.warning(
                "The database answers again after %.1f s.", time.monotonic() - self.since
            )
        self.since = None


class Heartbeat:
    """A thread that renews a worker's heartbeat and takes up dead workers' tasks."""

    def __init__(self, worker_id: str) -> None:
        self.worker_id = worker_id
        self.stopped = threading.Event()
        self.thread = threading.Thread(target=self.run, name="db_worker heartbeat", daemon=True)

    def start(self) -> None:
        """Start beating, once: the loop calls this again after each outage."""
        if not self.thread.ident:
            self.thread.start()

    def stop(self) -> None:
        self.stopped.set()

    def run(self) -> None:
        while not self.stopped.wait(leases.beat_period()):
            try:
                close_old_connections()
                leases.worker_beat(worker_id=self.worker_id)
                leases.tasks_recover()
            except DATABASE_FAULTS as error:
                # The worker's loop reports an outage, once per wait; this only says it missed.
                logger.debug("Heartbeat of worker %s missed: %s", self.worker_id, error)
                close_connections()
        close_connections()


class LeasedWorker(Worker):
    """django-tasks-db's worker loop, with a heartbeat, and retries instead of an exit."""

    def run(self) -> None:
        heartbeat = Heartbeat(self.worker_id)
        outage = Outage(
            first=settings.TASK_WORKER_RETRY_SECONDS, cap=settings.TASK_WORKER_RETRY_MAX_SECONDS
        )
        resumed = time.monotonic()
        try:
            while self.running:
                try:
                    # Alive before claiming anything; then whatever this loop left RUNNING
                    # when it lost the database, and any dead worker's task, is queued again.
                    leases.worker_beat(worker_id=self.worker_id)
                    leases.tasks_recover(interrupted=self.worker_id)
                    outage.end()
                    heartbeat.start()
                    resumed = time.monotonic()
                    super().run()
                    return
                except DATABASE_FAULTS as error:
                    close_connections()
                    self.startup_delay = False
                    outage.wait(error, ran_for=time.monotonic() - resumed)
        finally:
            heartbeat.stop()
            with suppress(*DATABASE_FAULTS):
                leases.worker_leave(worker_id=self.worker_id)

    def run_task(self, db_task_result: DBTaskResult) -> None:
        """Run a task as django-tasks-db does; one that meets a database fault runs again.

        django-tasks-db records every exception as the task's failure. A database fault is
        not the task's: it leaves the task RUNNING and goes on to the loop, which waits for
        the database and then queues the task again (`tasks_recover(interrupted=…)`).
        """
        record_failure = db_task_result.set_failed

        def set_failed(error: BaseException) -> None:
            if isinstance(error, DATABASE_FAULTS):
                raise error
            record_failure(error)

        db_task_result.set_failed = set_failed
        super().run_task(db_task_result)
