"""A sheet longer than a request can take is checked and imported by a task, all or nothing."""

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from catalog import imports
from catalog.models import Gpu, ImportJob
from tests.catalog.test_admin import GPU_COLUMNS, L40S_ROW

pytestmark = pytest.mark.django_db


def gpu_rows(count: int, **replace) -> list[str]:
    rows = [L40S_ROW.replace("l40s-test", f"bulk-{i}") for i in range(count)]
    for index, row in replace.items():
        rows[int(index.removeprefix("row"))] = row
    return rows


def upload(client, rows: list[str], captured):
    content = ("\n".join([GPU_COLUMNS, *rows]) + "\n").encode()
    sheet = SimpleUploadedFile("gpus.csv", content, content_type="text/csv")
    with captured(execute=True):
        return client.post(
            reverse("admin:catalog_gpu_import"),
            {"import_file": sheet, "format": "0", "resource": "0"},
        )


@pytest.fixture(autouse=True)
def short_inline_limit(settings, monkeypatch):
    settings.CATALOG_IMPORT_INLINE_ROWS = 3
    monkeypatch.setattr(imports, "CHUNK_ROWS", 2)


def test_a_long_sheet_is_imported_in_the_background_with_progress(
    architect_client, django_capture_on_commit_callbacks
):
    response = upload(architect_client, gpu_rows(5), django_capture_on_commit_callbacks)

    job = ImportJob.objects.get()
    assert response.status_code == 302
    assert response["Location"] == reverse("admin:catalog_importjob_change", args=[job.pk])
    assert job.status == ImportJob.Status.DONE
    assert (job.rows_checked, job.rows_total) == (5, 5)
    assert job.totals == {"new": 5}
    assert Gpu.objects.filter(slug__startswith="bulk-").count() == 5
    page = architect_client.get(response["Location"]).content.decode()
    assert "5 of 5 rows checked" in page


def test_a_long_sheet_with_a_bad_row_writes_nothing_and_names_row_and_column(
    architect_client, django_capture_on_commit_callbacks
):
    bad = L40S_ROW.replace("l40s-test", "bulk-4").replace(",350,", ",lots,")
    upload(architect_client, gpu_rows(5, row4=bad), django_capture_on_commit_callbacks)

    job = ImportJob.objects.get()
    assert job.status == ImportJob.Status.REFUSED
    assert job.errors == [{"row": 5, "column": "tdp_w", "message": "Enter a number, not 'lots'."}]
    assert not Gpu.objects.filter(slug__startswith="bulk-").exists()


def test_a_slug_repeated_across_chunks_is_found(
    architect_client, django_capture_on_commit_callbacks
):
    rows = gpu_rows(5, row3=L40S_ROW.replace("l40s-test", "bulk-0"))
    upload(architect_client, rows, django_capture_on_commit_callbacks)

    job = ImportJob.objects.get()
    assert job.status == ImportJob.Status.REFUSED
    assert job.errors[0]["row"] == 4
    assert "already in row 1" in job.errors[0]["message"]
    assert not Gpu.objects.filter(slug__startswith="bulk-").exists()


def test_a_short_sheet_still_gets_the_inline_preview(
    architect_client, django_capture_on_commit_callbacks
):
    response = upload(architect_client, gpu_rows(3), django_capture_on_commit_callbacks)
    assert response.status_code == 200
    assert not ImportJob.objects.exists()


def test_presales_cannot_follow_imports(presales_client, architect):
    job = ImportJob.objects.create(model="catalog.gpu", file_name="x.csv", file_format="csv",
                                   data=b"", created_by=architect)  # fmt: skip
    url = reverse("admin:catalog_importjob_change", args=[job.pk])
    assert presales_client.get(url).status_code == 403
