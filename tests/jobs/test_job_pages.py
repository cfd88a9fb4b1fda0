"""A job's page says what happened to its worker, and stops asking once nothing will change."""

import pytest
from django.urls import reverse

from catalog.models import ImportJob
from configurator.jobs import leases
from tests.jobs.conftest import LEASE_S, audit_started, worker_seen

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("database_backend")]

POLLING = 'hx-trigger="every 1s"'
REFRESHING = 'http-equiv="refresh"'
NO_WORKER = "No background worker is running"


def audit_page(client, audit, **headers) -> str:
    return client.get(reverse("fleet:audit", args=[audit.pk]), **headers).content.decode()


def import_page(client, job) -> str:
    return client.get(reverse("admin:catalog_importjob_change", args=[job.pk])).content.decode()


def test_a_queued_audit_with_no_worker_says_none_runs_and_keeps_asking(architect_client, architect):
    audit, _ = audit_started(architect)
    html = audit_page(architect_client, audit, HTTP_HX_REQUEST="true")
    assert NO_WORKER in html and "manage.py db_worker" in html
    assert POLLING in html  # a worker that starts now takes it, and the page shows it


def test_a_queued_audit_with_a_live_worker_only_shows_progress(architect_client, architect):
    worker_seen("alive", seconds_ago=0)
    audit, _ = audit_started(architect)
    html = audit_page(architect_client, audit)
    assert POLLING in html and NO_WORKER not in html


def test_a_running_audit_whose_worker_stopped_says_so_and_stops_polling(
    architect_client, architect
):
    worker_seen("dead", seconds_ago=LEASE_S + 1)
    audit, _ = audit_started(architect, "dead")
    html = audit_page(architect_client, audit, HTTP_HX_REQUEST="true")
    assert "The worker running this job stopped (attempt 1 of 3)" in html
    assert NO_WORKER in html
    assert POLLING not in html and "hx-trigger" not in html


def test_an_audit_whose_worker_stopped_on_each_attempt_says_it_failed(architect_client, architect):
    audit, _ = audit_started(architect, "first", "second", "third")
    leases.tasks_recover()
    html = audit_page(architect_client, audit, HTTP_HX_REQUEST="true")
    assert "Failed: the worker stopped while running this job; it was retried 2 times." in html
    assert "hx-trigger" not in html


def test_the_failed_audit_says_so_in_chinese(architect_client, architect):
    audit, _ = audit_started(architect, "first", "second", "third")
    leases.tasks_recover()
    architect_client.cookies["django_language"] = "zh-hans"
    html = audit_page(architect_client, audit)
    assert "失败：运行此任务时后台进程停止了；已重试 2 次。" in html


def sheet_import(user, status=ImportJob.Status.QUEUED, **values) -> ImportJob:
    return ImportJob.objects.create(model="catalog.gpu", file_name="gpus.csv", file_format="csv",
                                    data=b"", created_by=user, status=status, **values)  # fmt: skip


def test_the_import_page_refreshes_while_a_live_worker_checks_the_sheet(admin_client, architect):
    worker_seen("alive", seconds_ago=0)
    job = sheet_import(architect, ImportJob.Status.CHECKING, worker_id="alive", attempts=1)
    html = import_page(admin_client, job)
    assert REFRESHING in html and NO_WORKER not in html


def test_the_import_page_of_a_queued_sheet_says_no_worker_runs(admin_client, architect):
    html = import_page(admin_client, sheet_import(architect))
    assert NO_WORKER in html and REFRESHING in html


def test_the_import_page_of_a_sheet_whose_worker_stopped_no_longer_refreshes(
    admin_client, architect
):
    worker_seen("dead", seconds_ago=LEASE_S + 1)
    job = sheet_import(architect, ImportJob.Status.WRITING, worker_id="dead", attempts=2)
    html = import_page(admin_client, job)
    assert "The worker running this job stopped (attempt 2 of 3)" in html
    assert REFRESHING not in html


def test_the_import_page_of_a_stopped_sheet_says_it_failed_and_why(admin_client, architect):
    job = sheet_import(architect, ImportJob.Status.STOPPED, attempts=3)
    html = import_page(admin_client, job)
    assert "failed: the worker stopped, nothing imported" in html
    assert "Failed: the worker stopped while running this job; it was retried 2 times." in html
    assert REFRESHING not in html
