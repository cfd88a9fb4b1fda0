"""Settings of the `db_worker` processes the tests start: production's, with short waits.

The lease and the waits are the only differences, so that a killed worker's job is taken up
within seconds; the test process reads the same values (tests/jobs/conftest.py).
"""

from configurator.settings.base import *  # noqa: F403

TASK_LEASE_SECONDS = 2
TASK_WORKER_RETRY_SECONDS = 0.25
TASK_WORKER_RETRY_MAX_SECONDS = 1
