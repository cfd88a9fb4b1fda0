"""An XLSX is checked on its zip before openpyxl reads it, and read within the same limits.

The fleet sheet and the catalog import share the guard (`catalog.spreadsheets`); these tests
hold the guard itself, with no database. The hostile sheets are tests/fleet/sheets.py's.
"""

import dataclasses
import io
import random
import string
import struct
import time
import zipfile

import openpyxl
import pytest

from catalog.spreadsheets import (
    XLSX_LIMITS,
    SafeXLSX,
    XlsxRefused,
    bounded_rows,
    xlsx_checked,
)
from tests.fleet.sheets import (
    GOOD,
    HEADER,
    P3,
    entity_bomb,
    excel_members,
    excel_xlsx_bytes,
    extent_bomb,
    shared_strings_bomb,
    xlsx_bytes,
    zipped,
)


def refusal(data: bytes, **limits) -> str:
    with pytest.raises(XlsxRefused) as refused:
        xlsx_checked(data, limits=dataclasses.replace(XLSX_LIMITS, **limits))
    return str(refused.value)


def test_sheets_from_excel_and_openpyxl_pass():
    for data in (excel_xlsx_bytes([GOOD, P3]), xlsx_bytes([GOOD, P3])):
        assert xlsx_checked(data).rows == 3


def test_100_mb_of_shared_strings_is_refused_within_a_second():
    data = shared_strings_bomb(100)
    assert len(data) < 400_000

    started = time.perf_counter()
    message = refusal(data)

    assert time.perf_counter() - started < 5  # under a second on an idle machine
    assert "shared strings table is over 16 MB" in message


def test_the_shared_strings_entries_are_counted():
    members = excel_members([GOOD])
    padding = "".join(f"<si><t>p{n}</t></si>" for n in range(1000))
    members["xl/sharedStrings.xml"] = members["xl/sharedStrings.xml"].replace(
        "</sst>", padding + "</sst>"
    )
    message = refusal(zipped(members), shared_strings=500)

    assert "more than 500 entries" in message


def test_an_entity_declaration_is_refused_in_any_part():
    assert "xl/sharedStrings.xml declares a DOCTYPE or an entity" in refusal(entity_bomb())
    members = excel_members([GOOD])
    members["docProps/custom.xml"] = '<?xml version="1.0"?><!DOCTYPE x [<!ENTITY a "b">]><x/>'

    assert "docProps/custom.xml declares a DOCTYPE" in refusal(zipped(members))


def test_a_declaration_split_across_two_chunks_is_found():
    members = excel_members([GOOD])
    sheet = members["xl/worksheets/sheet1.xml"]
    start = sheet.index("<worksheet")
    # Parts are inflated in 1 MiB chunks: "<!DOC" ends the first, "TYPE" begins the second.
    noise = random.Random(0).choices(string.ascii_letters, k=2**20 - 4 - start - 7)
    filler = "<!--" + "".join(noise) + "-->"  # random: it packs as badly as real text
    sheet = sheet[:start] + filler + "<!DOCTYPE w>" + sheet[start:]
    assert sheet.index("<!DOCTYPE") == 2**20 - 4
    members["xl/worksheets/sheet1.xml"] = sheet

    assert "declares a DOCTYPE" in refusal(zipped(members))


def test_xml_that_is_not_utf8_is_refused():
    members = excel_members([GOOD])
    members["xl/workbook.xml"] = members["xl/workbook.xml"].encode("utf-16")
    assert "xl/workbook.xml is not UTF-8 XML" in refusal(zipped(members))

    members = excel_members([GOOD])
    members["xl/workbook.xml"] = members["xl/workbook.xml"].replace("UTF-8", "cp037")
    assert "xl/workbook.xml is not UTF-8 XML" in refusal(zipped(members))


def test_a_sheet_claiming_excels_whole_grid_is_refused():
    assert "spans A1:XFD1048576" in refusal(extent_bomb())


def test_too_many_rows_are_refused_from_the_zip():
    rows = [(f"n{n}", *GOOD[1:]) for n in range(30)]

    assert "more than 20 rows below its header" in refusal(excel_xlsx_bytes(rows), rows=20)


def test_every_part_is_counted_and_inflated_against_the_limits():
    members = excel_members([GOOD])
    members.update({f"xl/media/image{n}.png": b"\x89PNG" for n in range(120)})
    assert "has 126 parts; at most 100 are read" in refusal(zipped(members))

    assert "unpacks to more than 1 MB" in refusal(
        excel_xlsx_bytes([(f"n{n}", *GOOD[1:]) for n in range(5000)]), unpacked_bytes=2**20
    )


def test_a_part_that_packs_too_well_is_refused():
    members = excel_members([GOOD])
    members["xl/worksheets/sheet1.xml"] = members["xl/worksheets/sheet1.xml"].replace(
        "<sheetData>", "<sheetData>" + "<!-- -->" * 2**19
    )
    assert "xl/worksheets/sheet1.xml unpacks to more than 100 times" in refusal(zipped(members))


def lying_about(data: bytes, name: str, size: int) -> bytes:
    """Return the zip with `name`'s uncompressed size written as `size` in both its headers."""
    raw = bytearray(data)
    encoded = name.encode()
    # (signature, offset of the uncompressed size, offset of the name) of the local header
    # and of the central directory entry.
    for signature, size_at, name_at in ((b"PK\x03\x04", 22, 30), (b"PK\x01\x02", 24, 46)):
        start = raw.find(signature)
        while start != -1:
            if raw[start + name_at : start + name_at + len(encoded)] == encoded:
                struct.pack_into("<I", raw, start + size_at, size)
            start = raw.find(signature, start + 4)
    return bytes(raw)


def test_the_sizes_a_zip_declares_are_not_trusted():
    members = excel_members([GOOD])
    members["xl/sharedStrings.xml"] = members["xl/sharedStrings.xml"].replace(
        "</sst>", "<si><t>x</t></si>" * 2_500_000 + "</sst>"
    )
    data = lying_about(zipped(members), "xl/sharedStrings.xml", 1000)
    assert zipfile.ZipFile(io.BytesIO(data)).getinfo("xl/sharedStrings.xml").file_size == 1000

    # Read as it really is, the part does not match what it declares: never given to openpyxl.
    assert "not a readable XLSX" in refusal(data)


def test_a_file_that_is_no_zip_is_unreadable():
    assert "not a readable XLSX" in refusal(b"PK\x03\x04 not really a zip")


def rows_of(data: bytes, **limits):
    book = openpyxl.load_workbook(io.BytesIO(data), read_only=True)
    header, rows = bounded_rows(
        book.worksheets[0], limits=dataclasses.replace(XLSX_LIMITS, **limits)
    )
    return header, list(rows)


def test_rows_are_read_at_the_headers_width_whatever_the_sheet_claims():
    members = excel_members([GOOD], dimension="A1:XFD9")  # a claim the reader ignores
    members["xl/worksheets/sheet1.xml"] = members["xl/worksheets/sheet1.xml"].replace(
        "</row></sheetData>", '<c r="XFD2"><v>1</v></c></row></sheetData>'
    )
    header, rows = rows_of(zipped(members))

    assert header == HEADER
    assert rows == [GOOD]


def test_a_row_number_past_the_limit_is_refused_while_reading():
    # No dimension to give it away: the reader counts the empty rows openpyxl fills in.
    members = excel_members([GOOD])
    sheet = members["xl/worksheets/sheet1.xml"].replace('<dimension ref="A1:K2"/>', "")
    members["xl/worksheets/sheet1.xml"] = sheet.replace(
        "</sheetData>", '<row r="900000"><c r="A900000"><v>1</v></c></row></sheetData>'
    )
    data = zipped(members)
    xlsx_checked(data)  # three row elements: the zip alone cannot tell

    started = time.perf_counter()
    with pytest.raises(XlsxRefused, match="more than 200,000 rows below its header"):
        rows_of(data)
    assert time.perf_counter() - started < 10


def test_a_header_wider_than_the_limit_is_refused():
    header = [f"c{n}" for n in range(300)]

    with pytest.raises(XlsxRefused, match="header has 300 columns; at most 256"):
        rows_of(excel_xlsx_bytes([], header=header))


def test_the_catalog_dataset_keeps_row_numbers_and_drops_trailing_empty_rows():
    members = excel_members([GOOD])
    members["xl/worksheets/sheet1.xml"] = members["xl/worksheets/sheet1.xml"].replace(
        "</sheetData>",
        '<row r="4"><c r="A4" t="s"><v>0</v></c></row><row r="9"/><row r="5000"/></sheetData>',
    )
    dataset = SafeXLSX().create_dataset(zipped(members))

    assert len(dataset) == 3  # rows 2, 3 (empty, kept) and 4; the empty rows after are not
    assert dataset[1] == (None,) * len(HEADER)
    assert dataset[2][0] == "node_id"


def test_the_catalog_dataset_is_refused_past_its_cells():
    rows = [(f"n{n}", *GOOD[1:]) for n in range(50)]
    format_ = SafeXLSX()
    format_.limits = dataclasses.replace(XLSX_LIMITS, cells=len(HEADER) * 20)

    with pytest.raises(XlsxRefused, match="more than 220 cells"):
        format_.create_dataset(excel_xlsx_bytes(rows))


def test_openpyxl_never_expands_an_entity():
    # Behind the guard, openpyxl itself parses through defusedxml (requirements.txt).
    from defusedxml import EntitiesForbidden

    assert openpyxl.DEFUSEDXML
    with pytest.raises(ValueError) as refused:
        openpyxl.load_workbook(io.BytesIO(entity_bomb()), read_only=True)
    assert isinstance(refused.value.__context__, EntitiesForbidden)
