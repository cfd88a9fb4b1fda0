"""Fleet sheets for tests, written as a user's spreadsheet program would."""

import csv
import io
import zipfile

import openpyxl

HEADER = (
    "node_id", "cpu", "cpu_count", "gpu", "gpu_count", "gpus_per_socket", "memory_gb",
    "memory_ecc", "psu_watts", "nvlink", "numa_binding",
)  # fmt: skip
GOOD = ("n1", "xeon-gold-6530", "2", "a800-80g-sxm", "8", "4+4", "1024", "true", "6000", "true",
        "true")  # fmt: skip
P3 = ("n2", "Intel Xeon Gold 6530", "2", "NVIDIA A800 80GB SXM4", "8", "4+4", "512", "yes",
      "6000", "yes", "是")  # fmt: skip
LEGACY = ("n3", "xeon-e5-2680-v4", "2", "rtx-4090", "8", "8+0", "256", "no", "2000", "no", "否")


def csv_bytes(rows, header=HEADER, encoding="utf-8") -> bytes:
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(header)
    writer.writerows(rows)
    return out.getvalue().encode(encoding)


def xlsx_bytes(rows, header=HEADER) -> bytes:
    book = openpyxl.Workbook()
    sheet = book.active
    sheet.append(list(header))
    for row in rows:
        sheet.append(list(row))
    out = io.BytesIO()
    book.save(out)
    return out.getvalue()


# -- Workbooks as Excel writes them (a shared strings table), and hostile ones ----------------
# Built member by member, so a test or a bench can make a sheet no spreadsheet program would:
# 100 MB of shared strings in a few hundred KB, an entity expansion, a sheet that claims
# Excel's whole grid. Large members are written in chunks, never held whole.

MAIN_NS = "http://schemas.openxmlformats.org/spreadsheetml/2006/main"
REL_NS = "http://schemas.openxmlformats.org/officeDocument/2006/relationships"
_PROLOG = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>'
_PACKAGE = "http://schemas.openxmlformats.org/package/2006"
_SPREADSHEET = "application/vnd.openxmlformats-officedocument.spreadsheetml"
_CONTENT_TYPES = (
    f'{_PROLOG}<Types xmlns="{_PACKAGE}/content-types">'
    '<Default Extension="rels" '
    'ContentType="application/vnd.openxmlformats-package.relationships+xml"/>'
    '<Default Extension="xml" ContentType="application/xml"/>'
    f'<Override PartName="/xl/workbook.xml" ContentType="{_SPREADSHEET}.sheet.main+xml"/>'
    '<Override PartName="/xl/worksheets/sheet1.xml" '
    f'ContentType="{_SPREADSHEET}.worksheet+xml"/>'
    '<Override PartName="/xl/sharedStrings.xml" '
    f'ContentType="{_SPREADSHEET}.sharedStrings+xml"/>'
    "</Types>"
)
_ROOT_RELS = (
    f'{_PROLOG}<Relationships xmlns="{_PACKAGE}/relationships">'
    f'<Relationship Id="rId1" Type="{REL_NS}/officeDocument" Target="xl/workbook.xml"/>'
    "</Relationships>"
)
_WORKBOOK = (
    f'{_PROLOG}<workbook xmlns="{MAIN_NS}" xmlns:r="{REL_NS}">'
    '<sheets><sheet name="fleet" sheetId="1" r:id="rId1"/></sheets></workbook>'
)
_WORKBOOK_RELS = (
    f'{_PROLOG}<Relationships xmlns="{_PACKAGE}/relationships">'
    f'<Relationship Id="rId1" Type="{REL_NS}/worksheet" Target="worksheets/sheet1.xml"/>'
    f'<Relationship Id="rId2" Type="{REL_NS}/sharedStrings" Target="sharedStrings.xml"/>'
    "</Relationships>"
)


def _column(index: int) -> str:
    letters = ""
    while index:
        index, rest = divmod(index - 1, 26)
        letters = chr(65 + rest) + letters
    return letters


def _escaped(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def zipped(members: dict[str, object]) -> bytes:
    """Return a zip of `members` (name -> bytes, str, or an iterable of byte chunks)."""
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED, compresslevel=9) as archive:
        for name, content in members.items():
            if isinstance(content, str):
                content = content.encode()
            if isinstance(content, bytes):
                archive.writestr(name, content)
                continue
            with archive.open(name, "w", force_zip64=True) as member:
                for chunk in content:
                    member.write(chunk)
    return out.getvalue()


def excel_members(rows, header=HEADER, *, dimension: str | None = None) -> dict[str, object]:
    """Return the members of a workbook as Excel saves it: every text in one shared table."""
    table: dict[str, int] = {}
    lines = []
    for number, values in enumerate([header, *rows], start=1):
        cells = []
        for position, value in enumerate(values, start=1):
            ref = f"{_column(position)}{number}"
            index = table.setdefault(str(value), len(table))
            cells.append(f'<c r="{ref}" t="s"><v>{index}</v></c>')
        lines.append(f'<row r="{number}">{"".join(cells)}</row>')
    extent = dimension or f"A1:{_column(len(header))}{len(rows) + 1}"
    sheet = (
        f'{_PROLOG}<worksheet xmlns="{MAIN_NS}"><dimension ref="{extent}"/>'
        f"<sheetData>{''.join(lines)}</sheetData></worksheet>"
    )
    strings = "".join(f"<si><t>{_escaped(text)}</t></si>" for text in table)
    shared = f'{_PROLOG}<sst xmlns="{MAIN_NS}" count="{len(table)}" uniqueCount="{len(table)}">'
    return {
        "[Content_Types].xml": _CONTENT_TYPES,
        "_rels/.rels": _ROOT_RELS,
        "xl/workbook.xml": _WORKBOOK,
        "xl/_rels/workbook.xml.rels": _WORKBOOK_RELS,
        "xl/worksheets/sheet1.xml": sheet,
        "xl/sharedStrings.xml": f"{shared}{strings}</sst>",
    }


def excel_xlsx_bytes(rows, header=HEADER) -> bytes:
    """Return a legitimate workbook as Excel saves it (a shared strings table)."""
    return zipped(excel_members(rows, header))


def shared_strings_bomb(megabytes: int = 100) -> bytes:
    """Return a one-node workbook whose shared strings table holds `megabytes` MB of text.

    The padding is millions of tiny strings (openpyxl keeps every one of them in a list), with
    a varying number every few hundred so that it packs to about 300 KB rather than 100 KB.
    """
    members = excel_members([GOOD])
    shared = members["xl/sharedStrings.xml"]
    head, tail = shared[: -len("</sst>")], "</sst>"

    def chunks():
        yield head.encode()
        block = b"".join(
            b"<si><t>x</t></si>" * 299 + f"<si><t>{n * 7919 % 100003}</t></si>".encode()
            for n in range(300)
        )
        for _ in range(megabytes * 2**20 // len(block)):
            yield block
        yield tail.encode()

    members["xl/sharedStrings.xml"] = chunks()
    return zipped(members)


def entity_bomb(depth: int = 9) -> bytes:
    """Return a workbook whose shared strings expand an entity ten times `depth` deep."""
    members = excel_members([GOOD])
    entities = '<!ENTITY e0 "entity-expansion">' + "".join(
        f'<!ENTITY e{level} "{f"&e{level - 1};" * 10}">' for level in range(1, depth + 1)
    )
    shared = members["xl/sharedStrings.xml"].replace(_PROLOG, "", 1)
    members["xl/sharedStrings.xml"] = f"{_PROLOG}<!DOCTYPE sst [{entities}]>" + shared.replace(
        "<t>n1</t>", f"<t>&e{depth};</t>", 1
    )
    return zipped(members)


def extent_bomb() -> bytes:
    """Return a workbook that claims Excel's whole grid: one cell at XFD1048576."""
    members = excel_members([GOOD], dimension="A1:XFD1048576")
    members["xl/worksheets/sheet1.xml"] = members["xl/worksheets/sheet1.xml"].replace(
        "</sheetData>", '<row r="1048576"><c r="XFD1048576"><v>1</v></c></row></sheetData>'
    )
    return zipped(members)
