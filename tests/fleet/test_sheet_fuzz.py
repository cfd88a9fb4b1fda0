"""Whatever a file holds, the sheet reader answers a Sheet or a SheetError, and nothing else.

Hypothesis writes arbitrary CSV text and mutates real XLSX files (bytes flipped, cut or
spliced, or one XML part of the workbook rewritten and zipped again); the fleet reader reads
each to its end, and the catalog's import form previews each, answering a page: a form error,
a preview, or the hand-over to a background import, never a 500.
"""

import io
import string

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from configurator.fleet.sheet import SheetError, open_sheet
from tests.fleet.sheets import (
    GOOD,
    HEADER,
    LEGACY,
    P3,
    excel_members,
    excel_xlsx_bytes,
    xlsx_bytes,
    zipped,
)

REAL_XLSX = (xlsx_bytes([GOOD, P3]), excel_xlsx_bytes([GOOD, P3, LEGACY]))
MEMBERS = excel_members([GOOD, P3])
# What XML is made of, so that a rewritten part is often almost XML.
MARKUP = string.ascii_letters + string.digits + "<>/=\"'&;#!?:[]- \t\n" + "é中"


@st.composite
def mutated_xlsx(draw) -> bytes:
    """Return a real XLSX with one mutation: bytes flipped, cut or spliced, or a part rewritten."""
    how = draw(st.sampled_from(["flip", "cut", "splice", "part"]))
    if how == "part":
        members = dict(MEMBERS)
        name = draw(st.sampled_from(sorted(members)))
        text = members[name]
        start = draw(st.integers(0, len(text)))
        end = draw(st.integers(start, min(len(text), start + 200)))
        members[name] = text[:start] + draw(st.text(MARKUP, max_size=200)) + text[end:]
        return zipped(members)
    data = bytearray(draw(st.sampled_from(REAL_XLSX)))
    position = draw(st.integers(0, len(data) - 1))
    if how == "flip":
        for offset, value in enumerate(draw(st.binary(min_size=1, max_size=16))):
            data[min(position + offset, len(data) - 1)] = value
    elif how == "cut":
        del data[position:]
    else:
        data[position:position] = draw(st.binary(min_size=1, max_size=64))
    return bytes(data)


def csv_text() -> st.SearchStrategy[bytes]:
    """Return CSV-ish text: the real header and rows, or arbitrary text, or both mixed."""
    line = st.lists(st.text(max_size=12), max_size=14).map(",".join)
    rows = st.lists(st.one_of(line, st.sampled_from([",".join(GOOD), ",".join(P3)])), max_size=6)
    header = st.sampled_from([",".join(HEADER), ";".join(HEADER), "\t".join(HEADER), ""])
    sheet = st.tuples(header, rows).map(lambda parts: "\n".join([parts[0], *parts[1]]))
    encoding = st.sampled_from(["utf-8", "utf-8-sig", "gb18030"])
    return st.tuples(st.one_of(sheet, st.text()), encoding).map(
        lambda text: text[0].encode(text[1], errors="replace")
    )


def read_to_the_end(data: bytes) -> None:
    """Open and read a whole sheet; a SheetError is an answer, anything else a failure."""
    try:
        for _chunk in open_sheet(io.BytesIO(data)).chunks():
            pass
    except SheetError as error:
        assert str(error), "a refusal says why"


@settings(max_examples=300, deadline=None)
@given(csv_text())
def test_any_csv_text_is_a_sheet_or_a_sheet_error(data):
    read_to_the_end(data)


@settings(max_examples=300, deadline=None)
@given(mutated_xlsx())
def test_any_mutated_xlsx_is_a_sheet_or_a_sheet_error(data):
    read_to_the_end(data)


@pytest.mark.django_db
@settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(data=st.one_of(mutated_xlsx(), csv_text()))
def test_the_catalog_import_form_answers_any_file_with_a_page(architect_client, data):
    fmt = "1" if data.startswith(b"PK") else "0"
    sheet = SimpleUploadedFile("gpus.xlsx" if fmt == "1" else "gpus.csv", data)

    response = architect_client.post(
        reverse("admin:catalog_gpu_import"), {"import_file": sheet, "format": fmt, "resource": "0"}
    )

    assert response.status_code in (200, 302)
