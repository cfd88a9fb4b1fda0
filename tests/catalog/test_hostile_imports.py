"""The catalog import refuses a hostile sheet with its reason, and touches only its own files.

A hostile XLSX is a form error before openpyxl opens it (and a refused job if one reaches
the background). The confirmation step names the previewed sheet: only a name the admin
signed for this user, not long ago, opens a file, and only in the import folder.
"""

import io
import os
import re
import tempfile
import time
from pathlib import Path

import openpyxl
import pytest
from django.core import signing
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse
from openpyxl import load_workbook

from catalog import imports
from catalog.import_files import (
    ImportFileStorage,
    import_folder,
    signed_name,
    stored_path,
    unsigned_name,
)
from catalog.models import Gpu, ImportJob
from catalog.spreadsheets import XLSX_LIMITS
from tests.catalog.test_admin import (
    GPU_COLUMNS,
    L40S_ROW,
    confirm,
    csv_upload,
    export,
    preview,
    preview_text,
)
from tests.factories import UserFactory
from tests.fleet.sheets import (
    entity_bomb,
    excel_members,
    excel_xlsx_bytes,
    extent_bomb,
    shared_strings_bomb,
    zipped,
)

pytestmark = pytest.mark.django_db

HOSTILE = {
    "100 MB of shared strings": (shared_strings_bomb, "shared strings table is over 16 MB"),
    "entity expansion": (entity_bomb, "declares a DOCTYPE or an entity"),
    "Excel's whole grid": (extent_bomb, "spans A1:XFD1048576"),
}


@pytest.fixture(autouse=True)
def own_import_folder(settings, tmp_path):
    settings.CATALOG_IMPORT_TMP_DIR = str(tmp_path / "imports")


@pytest.mark.parametrize("name", HOSTILE)
def test_a_hostile_xlsx_is_a_form_error_at_once(architect_client, name):
    build, message = HOSTILE[name]
    upload = SimpleUploadedFile("gpus.xlsx", build())
    started = time.perf_counter()

    response = preview(architect_client, "gpu", upload, fmt="1")

    assert time.perf_counter() - started < 10  # about a second on an idle machine
    assert response.status_code == 200
    assert message in preview_text(response)
    assert not ImportJob.objects.exists()
    assert not list(import_folder().iterdir()), "nothing kept for a confirmation"


def test_a_hostile_xlsx_that_reaches_the_background_is_refused(
    architect, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):  # the task runs at once (test.py)
        job = imports.import_job_start(
            model=Gpu, file_name="gpus.xlsx", file_format="xlsx", data=entity_bomb(),
            rows=5000, user=architect,
        )  # fmt: skip

    job.refresh_from_db()
    assert job.status == ImportJob.Status.REFUSED
    assert "declares a DOCTYPE or an entity" in job.errors[0]["message"]


def confirm_with(client, model: str, name: str):
    return client.post(
        reverse(f"admin:catalog_{model}_process_import"),
        {"import_file_name": name, "original_file_name": "gpus.csv", "format": "0",
         "resource": "0"},
        follow=True,
    )  # fmt: skip


def previewed_name(response) -> str:
    return re.search(r'name="import_file_name" value="([^"]*)"', response.content.decode())[1]


GONE = "The sheet to import is no longer here"


def test_a_file_in_the_temporary_directory_cannot_be_named(architect_client):
    # django-import-export's default storage would import this file and then delete it.
    content = "\n".join([GPU_COLUMNS, L40S_ROW]) + "\n"
    with tempfile.NamedTemporaryFile("w", suffix=".csv", delete=False) as victim:
        victim.write(content)
    path = Path(victim.name)
    try:
        for name in (path.name, str(path), f"../{path.parent.name}/{path.name}", "0" * 32):
            response = confirm_with(architect_client, "gpu", name)

            assert response.status_code == 200
            assert GONE in preview_text(response)
        assert path.read_text() == content, "neither read nor deleted"
        assert not Gpu.objects.filter(slug="l40s-test").exists()
    finally:
        path.unlink(missing_ok=True)


def test_a_name_signed_for_another_user_is_refused(architect_client, architect):
    other = UserFactory(username="other-architect")
    storage = ImportFileStorage()
    storage.save(b"slug\n")
    path = stored_path(storage.name)

    response = confirm_with(architect_client, "gpu", signed_name(storage.name, user=other))

    assert GONE in preview_text(response)
    assert path.exists(), "another user's sheet is left alone"


def test_an_expired_name_is_refused(architect_client, architect, settings, monkeypatch):
    previewed = preview(architect_client, "gpu", csv_upload(L40S_ROW))
    name = previewed_name(previewed)
    settings.CATALOG_IMPORT_KEEP_SECONDS = 60
    later = time.time() + 61
    monkeypatch.setattr(signing.time, "time", lambda: later)

    response = confirm_with(architect_client, "gpu", name)

    assert GONE in preview_text(response)
    assert not Gpu.objects.filter(slug="l40s-test").exists()


def test_a_sheet_whose_file_is_gone_is_a_form_error_not_a_500(architect_client, architect):
    previewed = preview(architect_client, "gpu", csv_upload(L40S_ROW))
    stored_path(unsigned_name(previewed_name(previewed), user=architect)).unlink()

    response = confirm(architect_client, "gpu", previewed)

    assert response.status_code == 302
    assert GONE in preview_text(architect_client.get(response["Location"]))
    assert not Gpu.objects.filter(slug="l40s-test").exists()


def test_a_confirmed_sheet_cannot_be_confirmed_twice(architect_client):
    previewed = preview(architect_client, "gpu", csv_upload(L40S_ROW))
    confirm(architect_client, "gpu", previewed)
    assert Gpu.objects.filter(slug="l40s-test").exists()

    response = confirm_with(architect_client, "gpu", previewed_name(previewed))

    assert GONE in preview_text(response)
    assert not list(import_folder().iterdir()), "the imported sheet was deleted"


def test_the_stored_sheet_is_private_and_old_ones_are_swept(settings):
    old = ImportFileStorage()
    old.save(b"old")
    stale = time.time() - settings.CATALOG_IMPORT_KEEP_SECONDS - 1
    os.utime(stored_path(old.name), (stale, stale))
    new = ImportFileStorage()
    new.save(b"new")

    assert stored_path(new.name).stat().st_mode & 0o777 == 0o600
    assert not stored_path(old.name).exists()


def test_a_long_xlsx_goes_to_the_background_without_being_parsed_in_the_request(
    architect_client, settings, django_capture_on_commit_callbacks, monkeypatch
):
    settings.CATALOG_IMPORT_INLINE_ROWS = 3
    rows = [(f"bulk-{n}", f"Bulk {n}") for n in range(5)]
    upload = SimpleUploadedFile("gpus.xlsx", excel_xlsx_bytes(rows, header=("slug", "name")))

    def no_parsing(*args, **kwargs):
        raise AssertionError("the request parsed the sheet")

    monkeypatch.setattr(openpyxl, "load_workbook", no_parsing)
    with django_capture_on_commit_callbacks():  # the job is queued, not run
        response = preview(architect_client, "gpu", upload, fmt="1")

    assert response.status_code == 302
    assert ImportJob.objects.get().rows_total == 5  # counted from the zip


def test_a_control_character_in_a_name_exports_to_xlsx(architect_client):
    Gpu.objects.filter(slug="l20").update(name="L20\x01")

    sheet = load_workbook(io.BytesIO(export(architect_client, "gpu", "1"))).active

    assert "L20\ufffd" in [cell.value for row in sheet.iter_rows() for cell in row]


def test_the_catalog_import_and_the_fleet_upload_read_within_the_same_limits():
    from catalog.spreadsheets import SafeXLSX
    from configurator.fleet import sheet

    assert SafeXLSX.limits is sheet.open_sheet.__kwdefaults__["limits"] is XLSX_LIMITS


def test_a_refusal_found_while_reading_is_told_in_words(architect_client):
    # The zip passes (three row elements); the reader refuses row 900,000 when it gets there.
    members = excel_members([("slug", "name")], header=("slug", "name"))
    sheet = members["xl/worksheets/sheet1.xml"].replace('<dimension ref="A1:B2"/>', "")
    members["xl/worksheets/sheet1.xml"] = sheet.replace(
        "</sheetData>", '<row r="900000"><c r="A900000"><v>1</v></c></row></sheetData>'
    )
    upload = SimpleUploadedFile("gpus.xlsx", zipped(members))

    response = preview(architect_client, "gpu", upload, fmt="1")

    assert response.status_code == 200
    assert "more than 200,000 rows below its header" in preview_text(response)


def test_a_csv_whose_first_line_is_empty_is_a_form_error(architect_client):
    upload = SimpleUploadedFile("gpus.csv", b"\nl40s-test,NVIDIA L40S\n")

    response = preview(architect_client, "gpu", upload)

    assert response.status_code == 200
    assert "The first line of the sheet is empty" in preview_text(response)
