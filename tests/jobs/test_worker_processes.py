"""Real `db_worker` processes: killed mid-job, cut off from their database, and the job still ends.

PostgreSQL only: the workers are separate processes on the test database, which SQLite keeps
in the test process's memory. Marked `worker` (`-m "not worker"` leaves them out). Each test
prints what it measured (`-s` shows it; docs/reliability.md quotes it).
"""

import time

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.db import connection
from django.urls import reverse
from django_tasks_db.models import DBTaskResult

from bench.proxy import BreakableProxy
from catalog.models import Gpu, ImportJob
from configurator.fleet.models import AuditedNode, FleetAudit
from configurator.jobs.models import TaskWorker
from tests.catalog.test_admin import GPU_COLUMNS
from tests.catalog.test_background_import import gpu_rows
from tests.fleet.sheets import GOOD, P3, csv_bytes
from tests.jobs.conftest import LEASE_S
from tests.jobs.processes import (
    TableLock,
    WorkerProcess,
    blocked_writing,
    database_url,
    end_orphaned_writes,
    wait_until,
)

pytestmark = [
    pytest.mark.worker,
    pytest.mark.django_db(transaction=True, serialized_rollback=True),
    pytest.mark.skipif(
        connection.vendor != "postgresql",
        reason="needs PostgreSQL: a db_worker process cannot open the in-memory SQLite test "
        "database; run with DATABASE_URL=postgres://… (.ci/run does)",
    ),
    pytest.mark.usefixtures("database_backend"),
]

NODES = 10_000  # one chunk, then the nodes written in one transaction: seconds of work
GPUS = 100  # over the test's CATALOG_IMPORT_INLINE_ROWS: a background import
POLLING = "hx-trigger"
REFRESHING = 'http-equiv="refresh"'
STOPPED = "The worker running this job stopped"
NO_WORKER = "No background worker is running"
CLOSED_S = 8  # django-tasks-db's worker exited within about 6 s of a closed database
HUNG_S = 10  # … and within about 10 s of a hung one (its statement timeouts, then retries)
SILENT_S = 4  # a network that goes silent: nothing answers, nothing errs


@pytest.fixture
def workers(tmp_path):
    """Start `db_worker` processes; stop whatever is left of them after the test."""
    started: list[WorkerProcess] = []

    def start(database: str | None = None, **env: str) -> WorkerProcess:
        log = tmp_path / f"worker-{len(started) + 1}.log"
        started.append(WorkerProcess(log, database=database or database_url(), **env))
        return started[-1]

    yield start
    for worker in started:
        worker.stop()


@pytest.fixture
def proxy():
    """A proxy to the test database that a test can close or hang."""
    db = connection.settings_dict
    breakable = BreakableProxy(db["HOST"], int(db["PORT"]))
    yield breakable
    breakable.set("pass")
    breakable.close()


def audit_uploaded(client) -> FleetAudit:
    rows = [(f"node-{i}", *(GOOD if i % 2 else P3)[1:]) for i in range(NODES)]
    sheet = SimpleUploadedFile("fleet.csv", csv_bytes(rows))
    assert client.post(reverse("fleet:upload"), {"sheet": sheet}).status_code == 302
    return FleetAudit.objects.get()


def sheet_uploaded(client) -> ImportJob:
    content = ("\n".join([GPU_COLUMNS, *gpu_rows(GPUS)]) + "\n").encode()
    sheet = SimpleUploadedFile("gpus.csv", content, content_type="text/csv")
    url = reverse("admin:catalog_gpu_import")
    response = client.post(url, {"import_file": sheet, "format": "0", "resource": "0"})
    assert response.status_code == 302
    return ImportJob.objects.get()


def audit_page(client, audit: FleetAudit) -> str:
    url = reverse("fleet:audit", args=[audit.pk])
    return client.get(url, HTTP_HX_REQUEST="true").content.decode()


def import_page(client, job: ImportJob) -> str:
    return client.get(reverse("admin:catalog_importjob_change", args=[job.pk])).content.decode()


def fresh(row):
    return type(row).objects.get(pk=row.pk)


def killed_writing_nodes(audit: FleetAudit, worker: WorkerProcess) -> None:
    """Kill the worker inside its all-or-nothing write, waiting on the test's lock on nodes."""
    wait_until(lambda: blocked_writing(AuditedNode._meta.db_table) or not worker.alive,
               timeout=120, what="the worker writes the nodes")  # fmt: skip
    assert worker.alive, worker.log()
    worker.kill()
    end_orphaned_writes(AuditedNode._meta.db_table)


def finished(row, *workers: WorkerProcess, timeout: float = 120):
    done = wait_until(lambda: (now := fresh(row)).status not in now.ACTIVE and now, timeout=timeout,
                      what=f"{row} finishes")  # fmt: skip
    return done, "\n".join(worker.log() for worker in workers)


def test_a_killed_workers_audit_is_taken_up_by_a_fresh_worker_and_completed(
    workers, architect_client
):
    audit = audit_uploaded(architect_client)
    nodes = TableLock(AuditedNode._meta.db_table)
    nodes.take()  # the worker's write waits on it: killed mid-transaction, on any machine
    first = workers(DB_STATEMENT_TIMEOUT_MS="10000")
    killed_writing_nodes(audit, first)
    killed = time.monotonic()
    nodes.release()

    html = wait_until(lambda: POLLING not in (html := audit_page(architect_client, audit)) and html,
                      timeout=LEASE_S + 10, what="the page stops polling")  # fmt: skip
    stale_after = time.monotonic() - killed
    assert f"{STOPPED} (attempt 1 of 3)" in html and NO_WORKER in html

    second = workers()
    wait_until(lambda: fresh(audit).attempts == 2, timeout=60, what="a worker takes it up")
    retaken_after = time.monotonic() - killed
    done, logs = finished(audit, first, second)

    assert done.status == FleetAudit.Status.DONE, logs
    assert done.nodes.count() == NODES and done.builds.count() == 2
    html = audit_page(architect_client, done)
    assert POLLING not in html and f"{NODES} nodes" in html
    print(f"\naudit: killed worker's page stale after {stale_after:.1f} s; "
          f"taken up {retaken_after:.1f} s after the kill (a fresh worker started)")  # fmt: skip


def killed_writing_rows(job: ImportJob, worker: WorkerProcess) -> TableLock:
    """Kill the worker inside the transaction that writes the sheet's rows."""
    wait_until(lambda: fresh(job).status == ImportJob.Status.WRITING or not worker.alive,
               timeout=120, what="the worker starts writing the rows", every=0.01)  # fmt: skip
    gpus = TableLock(Gpu._meta.db_table)
    if gpus.take(wait=False):  # not writing yet: its first row waits on the lock
        wait_until(lambda: blocked_writing(Gpu._meta.db_table) or not worker.alive,
                   timeout=60, what="the worker writes a row")  # fmt: skip
    # else its transaction holds the table: it is writing now
    assert worker.alive and fresh(job).status == ImportJob.Status.WRITING, worker.log()
    worker.kill()
    end_orphaned_writes(Gpu._meta.db_table)
    return gpus


def test_a_killed_workers_sheet_import_is_taken_up_and_imported_once(
    workers, architect_client, settings
):
    settings.CATALOG_IMPORT_INLINE_ROWS = 20
    job = sheet_uploaded(architect_client)
    first = workers(DB_STATEMENT_TIMEOUT_MS="10000")
    killed_writing_rows(job, first).release()
    killed = time.monotonic()
    assert not Gpu.objects.filter(slug__startswith="bulk-").exists()

    html = wait_until(lambda: REFRESHING not in (html := import_page(architect_client, job))
                      and html, timeout=LEASE_S + 10, what="the page stops refreshing")  # fmt: skip
    assert f"{STOPPED} (attempt 1 of 3)" in html

    second = workers()
    done, logs = finished(job, first, second)
    retaken_after = time.monotonic() - killed

    assert (done.status, done.attempts, done.totals) == ("done", 2, {"new": GPUS}), logs
    assert Gpu.objects.filter(slug__startswith="bulk-").count() == GPUS
    html = import_page(architect_client, done)
    assert REFRESHING not in html and f"{GPUS} of {GPUS} rows checked" in html
    print(f"\nimport: done {retaken_after:.1f} s after the kill, on its second attempt")


def test_an_audit_whose_workers_keep_dying_fails_with_the_reason(
    workers, architect_client, settings
):
    settings.TASK_MAX_ATTEMPTS = 2
    audit = audit_uploaded(architect_client)
    nodes = TableLock(AuditedNode._meta.db_table)
    nodes.take()
    for attempt in (1, 2):
        worker = workers(TASK_MAX_ATTEMPTS="2", DB_STATEMENT_TIMEOUT_MS="10000")
        killed_writing_nodes(audit, worker)
        assert fresh(audit).attempts == attempt
    nodes.release()
    last = workers(TASK_MAX_ATTEMPTS="2")
    done, logs = finished(audit, last)

    assert done.status == FleetAudit.Status.STOPPED, logs
    assert not done.nodes.exists()
    result = DBTaskResult.objects.get()
    assert result.exception_class_path == "configurator.jobs.leases.WorkerLost"
    html = audit_page(architect_client, done)
    assert "Failed: the worker stopped while running this job; it was retried 1 time." in html
    assert POLLING not in html


def test_the_worker_rides_out_a_closed_database_and_finishes_the_audit(
    workers, proxy, architect_client
):
    audit = audit_uploaded(architect_client)
    worker = workers(database_url(host=proxy.host, port=proxy.port))
    wait_until(lambda: fresh(audit).rows_read == NODES, timeout=120, what="the sheet is read")

    proxy.set("closed")  # every connection dropped, new ones refused
    time.sleep(CLOSED_S)
    assert worker.alive, worker.log()
    proxy.set("pass")
    done, logs = finished(audit, worker)

    assert done.status == FleetAudit.Status.DONE and done.nodes.count() == NODES, logs
    assert worker.alive
    assert max(worker.outages()) >= CLOSED_S - 1, logs
    print(f"\nclosed for {CLOSED_S} s: the worker waited {max(worker.outages()):.1f} s, "
          f"then finished the audit (attempt {done.attempts})")  # fmt: skip


def test_the_worker_rides_out_a_hung_database_and_finishes_the_audit(
    workers, proxy, architect_client
):
    audit = audit_uploaded(architect_client)
    worker = workers(database_url(host=proxy.host, port=proxy.port))
    wait_until(lambda: fresh(audit).status == FleetAudit.Status.RUNNING, timeout=120,
               what="the worker starts the audit")  # fmt: skip

    # Every table the worker writes, locked: each statement waits out its timeout.
    hung = TableLock(FleetAudit._meta.db_table, DBTaskResult._meta.db_table,
                     TaskWorker._meta.db_table, mode="ACCESS EXCLUSIVE")  # fmt: skip
    hung.take()
    time.sleep(HUNG_S)
    hung.release()
    assert worker.alive, worker.log()
    proxy.set("hang")  # and then the network: nothing answers, nothing errs
    time.sleep(SILENT_S)
    assert worker.alive, worker.log()
    proxy.set("pass")
    done, logs = finished(audit, worker)

    assert done.status == FleetAudit.Status.DONE and done.nodes.count() == NODES, logs
    assert worker.alive
    print(f"\nhung for {HUNG_S} s, then silent for {SILENT_S} s: the worker waited "
          f"{', '.join(f'{s:.1f}' for s in worker.outages())} s, then finished the audit "
          f"(attempt {done.attempts})")  # fmt: skip
