"""A hostile XLSX costs the fleet upload a second and a clear refusal, never a worker.

The web upload and the background audit read within the catalog's XLSX limits
(`catalog.spreadsheets`); the `audit_fleet` command reads an operator's own, larger files.
"""

import io
import time

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import call_command
from django.core.management.base import CommandError
from django.urls import reverse

from configurator.fleet.models import FleetAudit
from configurator.fleet.sheet import SheetError, open_sheet
from tests.fleet.sheets import (
    GOOD,
    P3,
    csv_bytes,
    entity_bomb,
    excel_members,
    excel_xlsx_bytes,
    extent_bomb,
    shared_strings_bomb,
    zipped,
)

HOSTILE = {
    "100 MB of shared strings": (shared_strings_bomb, "shared strings table is over 16 MB"),
    "entity expansion": (entity_bomb, "declares a DOCTYPE or an entity"),
    "Excel's whole grid": (extent_bomb, "spans A1:XFD1048576"),
}


def read_all(data: bytes, **kwargs) -> int:
    return sum(len(chunk) for chunk in open_sheet(io.BytesIO(data), **kwargs).chunks())


@pytest.mark.parametrize("name", HOSTILE)
def test_a_hostile_sheet_is_refused_by_the_reader_at_once(name):
    build, message = HOSTILE[name]
    data = build()
    started = time.perf_counter()

    with pytest.raises(SheetError, match=message):
        read_all(data)

    assert time.perf_counter() - started < 5  # under a second on an idle machine


def test_a_legitimate_excel_sheet_is_read_as_before():
    assert read_all(excel_xlsx_bytes([GOOD, P3])) == 2


def test_a_far_row_without_a_dimension_is_refused_while_reading():
    members = excel_members([GOOD])
    sheet = members["xl/worksheets/sheet1.xml"].replace('<dimension ref="A1:K2"/>', "")
    members["xl/worksheets/sheet1.xml"] = sheet.replace(
        "</sheetData>", '<row r="1048576"><c r="XFD1048576"><v>1</v></c></row></sheetData>'
    )
    with pytest.raises(SheetError, match="more than 200,000 rows below its header"):
        read_all(zipped(members))


@pytest.mark.django_db
@pytest.mark.parametrize("name", HOSTILE)
def test_the_upload_page_refuses_a_hostile_sheet_with_its_reason(architect_client, name):
    build, message = HOSTILE[name]
    sheet = SimpleUploadedFile("fleet.xlsx", build())

    response = architect_client.post(reverse("fleet:upload"), {"sheet": sheet})

    assert response.status_code == 200
    assert message in response.content.decode()
    assert not FleetAudit.objects.exists()


def many_strings(count: int) -> bytes:
    """Return a two-node sheet whose shared strings table holds `count` more entries."""
    members = excel_members([GOOD, P3])
    members["xl/sharedStrings.xml"] = members["xl/sharedStrings.xml"].replace(
        "</sst>", "".join(f"<si><t>s{n}</t></si>" for n in range(count)) + "</sst>"
    )
    return zipped(members)


@pytest.mark.django_db
def test_the_command_reads_a_sheet_larger_than_a_web_upload_may_be(tmp_path):
    data = many_strings(310_000)  # over the web's 300,000 entries
    with pytest.raises(SheetError, match="more than 300,000 entries"):
        read_all(data)
    path = tmp_path / "fleet.xlsx"
    path.write_bytes(data)
    out = io.StringIO()

    with pytest.raises(SystemExit) as exit_:  # 1: a node is rejected (P3), none unreadable
        call_command("audit_fleet", str(path), "--no-progress", stdout=out, stderr=io.StringIO())

    assert exit_.value.code == 1
    assert "2 nodes" in out.getvalue()


@pytest.mark.django_db
def test_the_command_still_refuses_entity_expansion(tmp_path):
    path = tmp_path / "fleet.xlsx"
    path.write_bytes(entity_bomb())

    with pytest.raises(CommandError, match="declares a DOCTYPE or an entity") as raised:
        call_command("audit_fleet", str(path), "--no-progress", stdout=io.StringIO())

    assert raised.value.returncode == 2


@pytest.mark.django_db
def test_a_node_id_with_a_control_character_exports_to_xlsx(architect_client):
    import openpyxl

    odd = ("n\x01", *GOOD[1:])
    architect_client.post(
        reverse("fleet:upload"), {"sheet": SimpleUploadedFile("f.csv", csv_bytes([odd]))}
    )
    audit = FleetAudit.objects.get()

    response = architect_client.get(reverse("fleet:export-xlsx", args=[audit.pk]))

    assert response.status_code == 200
    sheet = openpyxl.load_workbook(io.BytesIO(response.content)).active
    assert sheet["A2"].value == "n\ufffd"
