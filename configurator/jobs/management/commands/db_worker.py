"""`manage.py db_worker`: django-tasks-db's command, run by the project's `LeasedWorker`.

The options are django-tasks-db's. The worker beats while it runs, takes up the tasks of
workers that died, and waits out a database outage instead of exiting (configurator.jobs.worker).
"""

import os

from django.core.management.base import CommandError
from django.utils.autoreload import DJANGO_AUTORELOAD_ENV, run_with_reloader
from django_tasks_db.management.commands import db_worker

from configurator.jobs.worker import LeasedWorker


class Command(db_worker.Command):
    help = (
        "Run a database background worker that keeps a heartbeat, takes up the tasks of "
        "workers that stopped, and waits out a database outage"
    )

    def handle(
        self, *, verbosity: int, queue_name: str, interval: float, batch: bool,
        backend_name: str, startup_delay: bool, reload: bool, max_tasks: int | None,
        worker_id: str, exclude_queues: str, **options,
    ) -> None:  # fmt: skip
        # As django-tasks-db's handle, with LeasedWorker in place of its Worker.
        self.configure_logging(verbosity)
        if reload and batch:
            db_worker.logger.warning(
                "Warning: --reload and --batch cannot be specified together. Disabling autoreload."
            )
            reload = False
        queue_names = queue_name.split(",")
        excluded_queue_names = exclude_queues.split(",") if exclude_queues else []
        if excluded_queue_names and "*" not in queue_names:
            raise CommandError("--exclude-queues can only be used with --queue-name=*")
        worker = LeasedWorker(
            queue_names=queue_names, interval=interval, batch=batch,
            backend_name=backend_name, startup_delay=startup_delay, max_tasks=max_tasks,
            worker_id=worker_id, excluded_queue_names=excluded_queue_names,
        )  # fmt: skip
        if reload:
            if os.environ.get(DJANGO_AUTORELOAD_ENV) == "true":
                worker.configure_signals()  # only the reloader's child runs tasks
            run_with_reloader(worker.run)
        else:
            worker.configure_signals()
            worker.run()
