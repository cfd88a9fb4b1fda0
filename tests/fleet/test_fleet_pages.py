"""Architects upload a fleet sheet, follow its audit and download the results."""

import io

import openpyxl
import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.tasks import TaskContext
from django.urls import reverse

from configurator.fleet import services
from configurator.fleet.models import AuditedNode, FleetAudit
from tests.fleet.sheets import GOOD, HEADER, LEGACY, P3, csv_bytes

pytestmark = pytest.mark.django_db


def upload(client, content: bytes, name="fleet.csv"):
    return client.post(reverse("fleet:upload"), {"sheet": SimpleUploadedFile(name, content)})


def test_anonymous_is_sent_to_sign_in(client):
    response = client.get(reverse("fleet:upload"))
    assert response.status_code == 302
    assert "/admin/login/" in response["Location"]


def test_presales_may_not_audit(presales_client):
    assert presales_client.get(reverse("fleet:upload")).status_code == 403
    response = upload(presales_client, csv_bytes([GOOD]))
    assert response.status_code == 403
    assert not FleetAudit.objects.exists()


def test_upload_runs_the_audit_and_shows_results(architect_client):
    response = upload(architect_client, csv_bytes([GOOD, P3, LEGACY]))
    audit = FleetAudit.objects.get()
    assert response.status_code == 302
    assert audit.status == FleetAudit.Status.DONE
    assert audit.summary["rejected"] == 2
    assert audit.summary["codes"]["P3"] == 2
    assert audit.builds.count() == 3 and AuditedNode.objects.count() == 3
    page = architect_client.get(response["Location"])
    html = page.content.decode()
    assert page["Vary"].count("HX-Request") == 1
    assert "n2" in html and "<svg" in html and "88.6" in html


def test_identical_builds_are_stored_once(architect_client):
    rows = [(f"n{i}", *GOOD[1:]) for i in range(30)]
    upload(architect_client, csv_bytes(rows))
    audit = FleetAudit.objects.get()
    assert audit.builds.get().node_count == 30


def test_progress_is_polled_while_the_audit_runs(architect_client, architect):
    audit = FleetAudit.objects.create(
        file_name="f.csv", created_by=architect, status="running", progress=0.4, rows_read=20000
    )
    response = architect_client.get(reverse("fleet:audit", args=[audit.pk]), HTTP_HX_REQUEST="true")
    html = response.content.decode()
    assert 'hx-trigger="every 1s"' in html
    assert "20000" in html
    assert "<html" not in html  # the fragment only


def test_sheet_with_a_bad_row_is_refused_whole(architect_client):
    bad = ("n9", "xeon-gold-6530", "2", "no-such-gpu", "8", "4+4", "1024", "true", "6000", "", "")
    upload(architect_client, csv_bytes([GOOD, bad]))
    audit = FleetAudit.objects.get()
    assert audit.status == FleetAudit.Status.INVALID
    [problem] = audit.problems
    assert (problem["row"], problem["column"]) == (3, "gpu")
    assert "Unknown GPU 'no-such-gpu'" in problem["message"]
    assert not audit.builds.exists() and not audit.nodes.exists()
    assert audit.source == b""
    html = architect_client.get(reverse("fleet:audit", args=[audit.pk])).content.decode()
    assert "no-such-gpu" in html and "nothing of it was saved" in html


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (b"", "empty"),
        (csv_bytes([GOOD[:-2]], header=HEADER[:-2]), "missing: nvlink, numa_binding"),
        (csv_bytes([GOOD], header=HEADER[:-2]), "Line 2 has more cells than the header"),
        (b"\x00\x01\x02", "not a CSV or XLSX"),
    ],
)
def test_unreadable_file_is_refused_at_upload(architect_client, content, message):
    response = upload(architect_client, content)
    assert response.status_code == 200
    assert message in response.content.decode()
    assert not FleetAudit.objects.exists()


def test_oversized_file_is_refused(architect_client, monkeypatch):
    monkeypatch.setattr(services, "MAX_UPLOAD_BYTES", 100)
    response = upload(architect_client, csv_bytes([GOOD, P3, LEGACY]))
    assert "the limit is" in response.content.decode()
    assert not FleetAudit.objects.exists()


def test_sheet_over_the_row_limit_is_refused(architect_client, monkeypatch):
    monkeypatch.setattr(services, "MAX_UPLOAD_ROWS", 2)
    upload(architect_client, csv_bytes([GOOD, P3, LEGACY]))
    audit = FleetAudit.objects.get()
    assert audit.status == FleetAudit.Status.INVALID
    assert not audit.nodes.exists()


def test_chinese_page(architect_client):
    upload(architect_client, csv_bytes([GOOD]))
    audit = FleetAudit.objects.get()
    architect_client.cookies["django_language"] = "zh-hans"
    html = architect_client.get(reverse("fleet:audit", args=[audit.pk])).content.decode()
    assert "机群审计" in html


def test_csv_export_is_formula_safe(architect_client):
    evil = ('@HYPERLINK("http://x")', *GOOD[1:])  # a node id starting with = is refused
    upload(architect_client, csv_bytes([evil, P3]))
    audit = FleetAudit.objects.get()
    response = architect_client.get(reverse("fleet:export-csv", args=[audit.pk]))
    text = b"".join(response.streaming_content).decode("utf-8-sig")
    lines = text.splitlines()
    assert lines[0].startswith("node_id,row,verdict,codes")
    assert lines[1].startswith("\"'@HYPERLINK")
    assert "n2,3,reject,P3," in lines[2]  # the memory shortfall, counted once: by P3


def test_xlsx_export_holds_no_formula(architect_client):
    evil = ("@SUM(A1)", *GOOD[1:])
    upload(architect_client, csv_bytes([evil]))
    audit = FleetAudit.objects.get()
    response = architect_client.get(reverse("fleet:export-xlsx", args=[audit.pk]))
    sheet = openpyxl.load_workbook(io.BytesIO(response.content)).active
    assert sheet["A2"].value == "'@SUM(A1)"
    assert sheet["A2"].data_type == "s"
    assert sheet["C2"].value == "accept"


def test_audited_node_has_its_binding_script(architect_client):
    upload(architect_client, csv_bytes([GOOD]))
    node = AuditedNode.objects.get()
    response = architect_client.get(reverse("fleet:node-binding", args=[node.pk]))
    script = response.content.decode()
    assert response.status_code == 200
    assert script.count("exec numactl") == 8
    assert "# NUMA binding for n1" in script


def test_one_build_spelled_two_ways_is_stored_once(architect_client):
    spelled = ("s1", "Intel Xeon Gold 6530", "2", "NVIDIA A800 80GB SXM4", "8", "4+4", "1024",
               "yes", "6000", "yes", "yes")  # fmt: skip
    upload(architect_client, csv_bytes([GOOD, spelled]))
    audit = FleetAudit.objects.get()
    assert audit.builds.get().node_count == 2
    assert audit.summary["distinct_builds"] == 1


def test_with_the_database_backend_the_audit_waits_for_the_worker(architect_client, settings):
    from django_tasks_db.models import DBTaskResult

    settings.TASKS = {"default": {"BACKEND": "django_tasks_db.DatabaseBackend"}}
    response = upload(architect_client, csv_bytes([GOOD, P3]))
    audit = FleetAudit.objects.get()
    assert audit.status == FleetAudit.Status.QUEUED
    page = architect_client.get(response["Location"], HTTP_HX_REQUEST="true")
    assert 'hx-trigger="every 1s"' in page.content.decode()
    # What db_worker does with the stored task (its loop would close the test's connection).
    stored = DBTaskResult.objects.get()
    stored.claim("a-worker")
    claimed = stored.task_result
    stored.set_successful(stored.task.call(TaskContext(task_result=claimed), *claimed.args))
    audit.refresh_from_db()
    assert audit.status == FleetAudit.Status.DONE and audit.nodes.count() == 2
