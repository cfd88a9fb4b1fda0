"""A task whose worker died is taken up again, or failed with the reason; an outage is waited out.

In-process, on SQLite and PostgreSQL alike; `test_worker_processes.py` does the same with
real `db_worker` processes that are killed and cut off from their database.
"""

import logging

import pytest
from django.db import OperationalError
from django.tasks import TaskResultStatus
from django_tasks_db.management.commands.db_worker import Worker

from configurator.fleet import services
from configurator.fleet.models import FleetAudit
from configurator.jobs import leases, worker
from configurator.jobs.worker import LeasedWorker, Outage
from tests.jobs.conftest import LEASE_S, audit_started, worker_seen

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("database_backend")]


def leased_worker() -> LeasedWorker:
    return LeasedWorker(
        queue_names=["default"], interval=0, batch=True, backend_name="default",
        startup_delay=False, max_tasks=None, worker_id="this-worker", excluded_queue_names=[],
    )  # fmt: skip


def test_a_task_whose_worker_went_silent_is_queued_again_with_its_job(architect):
    worker_seen("dead", seconds_ago=LEASE_S + 1)
    audit, result = audit_started(architect, "dead")

    assert leases.tasks_recover() == [result]

    result.refresh_from_db()
    audit.refresh_from_db()
    assert result.status == TaskResultStatus.READY
    assert (audit.status, audit.worker_id) == (FleetAudit.Status.QUEUED, "")


def test_a_task_whose_worker_beats_is_left_running(architect):
    worker_seen("alive", seconds_ago=LEASE_S / 4)
    _, result = audit_started(architect, "alive")

    assert leases.tasks_recover() == []

    result.refresh_from_db()
    assert result.status == TaskResultStatus.RUNNING


def test_a_worker_gone_without_a_trace_counts_as_dead(architect):
    _, result = audit_started(architect, "never-beat")
    assert leases.tasks_recover() == [result]


def test_after_the_last_attempt_the_task_and_its_job_fail_with_the_reason(architect):
    audit, result = audit_started(architect, "first", "second", "third")

    leases.tasks_recover()

    result.refresh_from_db()
    audit.refresh_from_db()
    assert result.status == TaskResultStatus.FAILED
    assert result.exception_class_path == "configurator.jobs.leases.WorkerLost"
    assert "it was retried 2 times" in result.traceback
    assert audit.status == FleetAudit.Status.STOPPED and audit.finished_at


def test_stale_worker_rows_are_forgotten_once_their_tasks_are_taken_up(architect):
    worker_seen("dead", seconds_ago=LEASE_S + 1)
    worker_seen("alive", seconds_ago=0)
    audit_started(architect, "dead")

    leases.tasks_recover()

    assert leases.alive_worker_ids() == {"alive"}
    assert not leases.TaskWorker.objects.filter(worker_id="dead").exists()


def test_a_task_that_met_a_database_fault_runs_again_instead_of_failing(architect, monkeypatch):
    audit, result = audit_started(architect, "this-worker")

    def database_gone(**kwargs):
        raise OperationalError("server closed the connection unexpectedly")

    monkeypatch.setattr(services, "fleet_audit_run", database_gone)
    with pytest.raises(OperationalError):  # on to the loop, which waits for the database
        leased_worker().run_task(result)

    result.refresh_from_db()
    assert result.status == TaskResultStatus.RUNNING  # django-tasks-db would say FAILED
    leases.tasks_recover(interrupted="this-worker")  # what the loop does once it answers
    result.refresh_from_db()
    audit.refresh_from_db()
    assert result.status == TaskResultStatus.READY
    assert audit.status == FleetAudit.Status.QUEUED


def test_an_attempt_taken_for_dead_writes_nothing_once_a_later_one_holds_the_audit(architect):
    audit, _ = audit_started(architect, "slow", "fresh")  # "fresh" runs attempt 2

    services.fleet_audit_run(audit=audit, attempt=1)

    audit.refresh_from_db()
    assert not audit.nodes.exists() and audit.status != FleetAudit.Status.DONE


def test_a_retaken_audit_that_an_earlier_attempt_finished_is_not_run_twice(architect):
    audit, result = audit_started(architect, "first")
    services.fleet_audit_run(audit=audit, attempt=1)  # committed; then the worker died
    leases.tasks_recover()
    result.refresh_from_db()
    result.claim("second")

    leased_worker().run_task(result)

    result.refresh_from_db()
    assert (result.status, result.return_value) == (TaskResultStatus.SUCCESSFUL, "done")
    assert audit.nodes.count() == 2


def test_the_worker_waits_out_a_database_outage_instead_of_exiting(monkeypatch, caplog):
    loops = [OperationalError("connection refused"), None]  # django-tasks-db's loop: fails once
    beats = [None, OperationalError("connection refused"), None]  # down at the first retry

    def outcome(outcomes: list):
        if error := outcomes.pop(0):
            raise error

    waits: list[float] = []
    monkeypatch.setattr(Worker, "run", lambda self: outcome(loops))
    monkeypatch.setattr(leases, "worker_beat", lambda **kwargs: outcome(beats))
    monkeypatch.setattr(worker.time, "sleep", waits.append)
    monkeypatch.setattr(worker.Heartbeat, "start", lambda self: None)
    monkeypatch.setattr(worker, "close_connections", lambda: None)  # the test's transaction
    caplog.set_level(logging.WARNING, logger="configurator.jobs.worker")

    leased_worker().run()  # returns: django-tasks-db's loop would have exited at the fault

    assert waits == [1, 2]
    messages = [record.getMessage() for record in caplog.records]
    assert [message.split(" (")[0].split(" after")[0] for message in messages] == [
        "The database does not answer",
        "The database does not answer",
        "The database answers again",
    ]


def test_the_waits_double_up_to_their_cap_and_start_short_after_a_quiet_stretch(monkeypatch):
    waits: list[float] = []
    monkeypatch.setattr(worker.time, "sleep", waits.append)
    outage = Outage(first=1, cap=8)
    for _ in range(6):
        outage.wait(OperationalError("down"))
    outage.end()
    outage.wait(OperationalError("down again"), ran_for=0.5)  # it answered one query only
    outage.end()
    outage.wait(OperationalError("a new outage"), ran_for=8)
    assert waits == [1, 2, 4, 8, 8, 8, 8, 1]
