"""Spreadsheets in and out: no formula travels either way; CSV in UTF-8 or GBK; XLSX on a budget.

A cell that begins with `=`, `+`, `-`, `@`, a tab or a carriage return is read as a formula by
Excel, LibreOffice and Google Sheets (OWASP, "CSV Injection"). Imports refuse such text cells
with their row and column; exports prefix them with `'`, which every one of those programs
shows as text. A plain number (`-5`, `+2.5`, `1e3`) is a number, not a formula, and passes.
Text XML cannot hold (control characters such as `\x01`) is written to XLSX as U+FFFD.

An XLSX is a zip of XML parts, and openpyxl trusts it: it inflates every part, keeps the whole
shared strings table in memory, yields every row up to the last row number a sheet names,
pads every row to the widest column, and parses XML that may declare entities. So a 350 KB
file can hold a worker for minutes. `xlsx_checked` inspects the zip against `XlsxLimits`
before openpyxl opens it, and `bounded_rows` reads a sheet within the same limits; the fleet
sheet reader and the catalog import both go through them (docs/reliability.md, "Hostile
sheets and bodies").
"""

import io
import re
import zipfile
import zlib
from collections.abc import Iterator
from dataclasses import dataclass
from typing import BinaryIO

import openpyxl
import tablib
from django.conf import settings
from django.utils.translation import gettext as _
from import_export.formats.base_formats import CSV, XLSX
from openpyxl.cell.cell import ILLEGAL_CHARACTERS_RE
from openpyxl.utils import column_index_from_string

XLSX_CONTENT_TYPE = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")
PLAIN_NUMBER = re.compile(r"[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?")
# Excel saves CSV in the system's code page: GB18030 (a superset of GBK) on Chinese Windows.
CSV_ENCODINGS = ("utf-8-sig", "gb18030")


def looks_like_formula(value: object) -> bool:
    """Return True for text that a spreadsheet program would evaluate as a formula."""
    return (
        isinstance(value, str)
        and value.startswith(FORMULA_STARTS)
        and not PLAIN_NUMBER.fullmatch(value.strip())
    )


def escaped(value: object) -> object:
    """Return a cell safe to open in a spreadsheet: formula-looking text gets a leading '."""
    return f"'{value}" if looks_like_formula(value) else value


def xlsx_safe(value: object) -> object:
    """Return a cell safe to write to XLSX: formula text escaped, control characters replaced.

    openpyxl refuses text holding characters XML 1.0 cannot carry (IllegalCharacterError);
    they become U+FFFD, as django-import-export's own escaping does.
    """
    value = escaped(value)
    return ILLEGAL_CHARACTERS_RE.sub("\ufffd", value) if isinstance(value, str) else value


def decoded(data: bytes) -> str:
    """Return CSV bytes as text, trying UTF-8 (with or without BOM), then GB18030/GBK."""
    for encoding in CSV_ENCODINGS:
        try:
            return data.decode(encoding)
        except UnicodeDecodeError:
            continue
    raise SheetRefused(_("The CSV file is neither UTF-8 nor GBK text."))


# -- XLSX: a budget checked before openpyxl reads a byte ---------------------------------------

MiB = 2**20
EXCEL_ROWS, EXCEL_COLUMNS = 1_048_576, 16_384
CHUNK_BYTES = MiB  # how much of a part is inflated at a time
RATIO_FLOOR = MiB  # parts smaller than this may pack as well as they like


@dataclass(frozen=True)
class XlsxLimits:
    """What an XLSX may hold; each figure bounds one way a small file can cost a worker much.

    The defaults (`XLSX_LIMITS`) serve every web upload, the fleet sheet and the catalog
    import alike; the `audit_fleet` command reads an operator's own file with wider ones.
    """

    members: int = 100  # parts in the zip (a workbook of 30 sheets has about 70)
    unpacked_bytes: int = 256 * MiB  # every part, as inflated (200,000 fleet rows: ~120 MB)
    ratio: int = 100  # inflated ÷ packed, for a part over RATIO_FLOOR (real sheets: 2 to 20)
    shared_strings: int = 300_000  # entries of the shared strings table, all kept in memory
    shared_strings_bytes: int = 16 * MiB  # its size (200,000 distinct node ids: ~6 MB)
    rows: int = 200_000  # rows below the header a sheet holds or names (fleet: MAX_UPLOAD_ROWS)
    columns: int = 256  # the header's width (Excel 2003's whole sheet)
    cells: int = 2_000_000  # rows × columns a reader keeping the whole sheet holds (catalog)


XLSX_LIMITS = XlsxLimits()


class SheetRefused(ValueError):
    """The sheet cannot be imported as it is; the text says why, for the user to read."""


class XlsxRefused(SheetRefused):
    """The XLSX is over a limit, or is not one openpyxl may be given; the text says which."""


@dataclass(frozen=True)
class XlsxExtent:
    """What the zip holds, as counted while checking it."""

    rows: int  # row elements of the longest sheet, the header included
    shared_strings: int
    unpacked_bytes: int


# What openpyxl raises on a zip or XML it cannot make sense of (ParseError is a SyntaxError).
XLSX_READ_ERRORS = (
    zipfile.BadZipFile, zlib.error, EOFError, OSError, KeyError, IndexError, ValueError,
    TypeError, AttributeError, SyntaxError, OverflowError, NotImplementedError, RuntimeError,
)  # fmt: skip
DECLARATIONS = (b"<!DOCTYPE", b"<!ENTITY")
# Counted on the bytes, so a little more than exact: `<rowBreaks` counts as a row, which only
# makes a limit stricter. A prefixed element (`<x:row>`) counts as well.
_AFTER_NAME = (b" ", b">", b"/", b"\t", b"\n", b"\r")
ROW_TAGS = (b"<row", *(b":row" + after for after in _AFTER_NAME))
STRING_TAGS = (b"<si", *(b":si" + after for after in _AFTER_NAME))
CARRIED = 256  # bytes of a chunk kept for the next: every token above and a dimension fit
UTF16_STARTS = (b"\xff\xfe", b"\xfe\xff", b"<\x00", b"\x00<")
XML_ENCODING = re.compile(rb"""^<\?xml[^>]*?\sencoding\s*=\s*["']([^"']*)["']""")
UTF8_NAMES = {b"utf-8", b"utf8", b"us-ascii", b"ascii"}
DIMENSION = re.compile(rb"""dimension\s+ref\s*=\s*["']([^"']{0,64})["']""")
CELL_REF = re.compile(rb"\$?([A-Za-z]*)\$?(\d*)")


def xlsx_checked(source: bytes | BinaryIO, *, limits: XlsxLimits = XLSX_LIMITS) -> XlsxExtent:
    """Inspect an XLSX's zip against `limits` before anything parses it; raise XlsxRefused.

    Every part is inflated once, in chunks, counting what it really holds (the sizes the zip
    declares are checked first and not trusted); its XML must be UTF-8 and declare no DOCTYPE
    or entity. A stream is rewound to where it was.
    """
    stream = io.BytesIO(source) if isinstance(source, bytes | bytearray) else source
    start = stream.tell()
    try:
        with zipfile.ZipFile(stream) as archive:
            return _inspected(archive, limits)
    except XlsxRefused:
        raise
    except (zipfile.BadZipFile, zlib.error, EOFError, OSError, ValueError, RuntimeError,
            NotImplementedError, OverflowError) as error:  # fmt: skip
        raise XlsxRefused(_("This is not a readable XLSX file.")) from error
    finally:
        stream.seek(start)


def _inspected(archive: zipfile.ZipFile, limits: XlsxLimits) -> XlsxExtent:
    parts = [info for info in archive.infolist() if not info.is_dir()]
    if len(parts) > limits.members:
        raise XlsxRefused(
            _("The workbook has %(count)s parts; at most %(limit)s are read.")
            % {"count": f"{len(parts):,}", "limit": f"{limits.members:,}"}
        )
    if sum(info.file_size for info in parts) > limits.unpacked_bytes:
        raise XlsxRefused(_too_big(limits))
    total = rows = strings = 0
    for info in parts:
        scan = _PartScan(info.filename, limits)
        size = 0
        with archive.open(info) as part:
            while chunk := part.read(CHUNK_BYTES):
                size += len(chunk)
                total += len(chunk)
                if total > limits.unpacked_bytes:
                    raise XlsxRefused(_too_big(limits))
                if size > RATIO_FLOOR and size > limits.ratio * max(info.compress_size, 1):
                    raise XlsxRefused(
                        _("%(part)s unpacks to more than %(ratio)s times its packed size; "
                          "a spreadsheet program's files never do.")
                        % {"part": info.filename, "ratio": limits.ratio}
                    )  # fmt: skip
                scan.feed(chunk, size)
        rows = max(rows, scan.rows)
        strings += scan.strings
        if strings > limits.shared_strings:
            raise XlsxRefused(
                _("The shared strings table has more than %(limit)s entries.")
                % {"limit": f"{limits.shared_strings:,}"}
            )
    return XlsxExtent(rows=rows, shared_strings=strings, unpacked_bytes=total)


class _PartScan:
    """What one part holds, counted chunk by chunk (a token may straddle two chunks)."""

    def __init__(self, name: str, limits: XlsxLimits) -> None:
        self.name, self.limits = name, limits
        self.rows = self.strings = 0
        self.tail = b""
        self.first = True

    def feed(self, chunk: bytes, size: int) -> None:
        if self.first:
            self.first = False
            self._check_encoding(chunk)
        joined = self.tail + chunk
        if any(declaration in joined for declaration in DECLARATIONS):
            raise XlsxRefused(
                _("%(part)s declares a DOCTYPE or an entity; spreadsheet files never do, and "
                  "entities can expand a small file without bound.") % {"part": self.name}
            )  # fmt: skip
        # A token straddling two chunks is found in `joined`; one wholly in the carried tail
        # was counted with the chunk before, so it is taken off again.
        self.rows += _count(joined, ROW_TAGS) - _count(self.tail, ROW_TAGS)
        self.strings += _count(joined, STRING_TAGS) - _count(self.tail, STRING_TAGS)
        if self.rows > self.limits.rows + 1:  # the header is a row too
            raise XlsxRefused(_too_many_rows(self.limits))
        if self.strings and size > self.limits.shared_strings_bytes:
            raise XlsxRefused(
                _("The shared strings table is over %(limit)s MB.")
                % {"limit": self.limits.shared_strings_bytes // MiB}
            )
        for match in DIMENSION.finditer(joined):
            self._check_dimension(match[1])
        self.tail = joined[-CARRIED:]

    def _check_encoding(self, start: bytes) -> None:
        """Refuse XML that is not UTF-8: the checks above read UTF-8 bytes."""
        start = start.removeprefix(b"\xef\xbb\xbf")
        declared = XML_ENCODING.match(start[:512])
        if start.startswith(UTF16_STARTS) or (declared and declared[1].lower() not in UTF8_NAMES):
            raise XlsxRefused(
                _("%(part)s is not UTF-8 XML; save the sheet again from a spreadsheet program.")
                % {"part": self.name}
            )

    def _check_dimension(self, ref: bytes) -> None:
        rows = columns = 0
        for letters, digits in CELL_REF.findall(ref):
            if len(letters) > 3 or len(digits) > 7:
                rows = columns = EXCEL_COLUMNS + EXCEL_ROWS
                break
            rows = max(rows, int(digits or 0))
            if letters:
                columns = max(columns, column_index_from_string(letters.decode().upper()))
        if rows > self.limits.rows + 1 or columns > self.limits.columns:
            raise XlsxRefused(
                _("The sheet says it spans %(ref)s: more than %(rows)s rows or %(columns)s "
                  "columns.") % {"ref": ref.decode(errors="replace"),
                                 "rows": f"{self.limits.rows:,}",
                                 "columns": self.limits.columns}
            )  # fmt: skip


def _count(data: bytes, tokens: tuple[bytes, ...]) -> int:
    return sum(data.count(token) for token in tokens)


def bounded_rows(sheet, *, limits: XlsxLimits = XLSX_LIMITS) -> tuple[tuple, Iterator[tuple]]:
    """Return a read-only sheet's header and an iterator of its values, row by row.

    The sheet's own dimension is ignored (it may claim Excel's whole grid); the header is cut
    to its last filled cell, and no wider than `limits.columns`; every row is padded or cut to
    the header's width; a sheet that names a row past `limits.rows` raises XlsxRefused when
    the reader gets there (empty rows openpyxl fills in count too).
    """
    sheet.reset_dimensions()
    header = next(sheet.iter_rows(max_row=1, values_only=True), ())
    width = max((i + 1 for i, value in enumerate(header) if value is not None), default=0)
    if width > limits.columns:
        raise XlsxRefused(
            _("The header has %(count)s columns; at most %(limit)s are read.")
            % {"count": f"{width:,}", "limit": limits.columns}
        )

    def rows() -> Iterator[tuple]:
        numbered = enumerate(
            sheet.iter_rows(min_row=2, max_col=max(width, 1), values_only=True), start=2
        )
        for number, values in numbered:
            if number > limits.rows + 1:
                raise XlsxRefused(_too_many_rows(limits))
            yield values

    return tuple(header[:width]), rows()


def _too_big(limits: XlsxLimits) -> str:
    return _("The workbook unpacks to more than %(limit)s MB.") % {
        "limit": limits.unpacked_bytes // MiB
    }


def _too_many_rows(limits: XlsxLimits) -> str:
    return _("The sheet has more than %(limit)s rows below its header.") % {
        "limit": f"{limits.rows:,}"
    }


def _too_many_cells(limits: XlsxLimits) -> str:
    return _("The sheet has more than %(limit)s cells.") % {"limit": f"{limits.cells:,}"}


# -- The import/export formats of the admin and the background import ---------------------


class FormulaEscaping:
    """Escape formula-looking text cells on export (IMPORT_EXPORT_ESCAPE_FORMULAE_ON_EXPORT).

    django-import-export's own escaping only strips a leading `=` and turns every cell,
    numbers included, into text; this one keeps numbers as numbers.
    """

    def _escape_formulae(self, dataset) -> None:
        for index in range(len(dataset)):
            dataset[index] = tuple(escaped(cell) for cell in dataset[index])


class SafeCSV(FormulaEscaping, CSV):
    """CSV, read as bytes so that GBK sheets from Excel are accepted as well as UTF-8."""

    def is_binary(self) -> bool:
        return True

    def get_read_mode(self) -> str:
        return "rb"

    def create_dataset(self, in_stream, **kwargs):
        if isinstance(in_stream, bytes):
            in_stream = decoded(in_stream)
        dataset = super().create_dataset(in_stream, **kwargs)
        if dataset.height and not dataset.headers:
            raise SheetRefused(_("The first line of the sheet is empty: it must name the columns."))
        return dataset

    def row_count(self, data: bytes) -> int:
        """Return how many rows below the header the sheet holds."""
        return len(self.create_dataset(data))


class SafeXLSX(FormulaEscaping, XLSX):
    """XLSX, the active sheet, read within `XLSX_LIMITS`; written with every cell `xlsx_safe`."""

    limits: XlsxLimits = XLSX_LIMITS

    def _escape_formulae(self, dataset) -> None:
        for index in range(len(dataset)):
            dataset[index] = tuple(xlsx_safe(cell) for cell in dataset[index])

    def row_count(self, data: bytes) -> int:
        """Return how many rows below the header the sheet holds, from its zip (no parsing)."""
        return max(xlsx_checked(data, limits=self.limits).rows - 1, 0)

    def create_dataset(self, in_stream) -> tablib.Dataset:
        """Read the active sheet into a Dataset; raise XlsxRefused if it is over the limits.

        Rows keep their sheet numbers (an empty row inside the data stays, so errors name the
        right row); empty rows after the last filled one are dropped.
        """
        limits = self.limits
        data = bytes(in_stream)
        xlsx_checked(data, limits=limits)
        ignore_blanks = getattr(settings, "IMPORT_EXPORT_IMPORT_IGNORE_BLANK_LINES", False)
        try:
            # data_only: a formula cell gives its value, as django-import-export reads it.
            book = openpyxl.load_workbook(io.BytesIO(data), read_only=True, data_only=True)
            try:
                header, rows = bounded_rows(book.active, limits=limits)
                if not header:
                    return tablib.Dataset()
                dataset = tablib.Dataset(headers=list(header))
                empty = (None,) * len(header)
                blanks = 0  # empty rows not yet kept: only a filled row after them keeps them
                for values in rows:
                    if all(value is None for value in values):
                        blanks += 0 if ignore_blanks else 1
                        continue
                    if (len(dataset) + blanks + 1) * len(empty) > limits.cells:
                        raise XlsxRefused(_too_many_cells(limits))
                    for _blank in range(blanks):
                        dataset.append(empty)
                    blanks = 0
                    dataset.append(values)
            finally:
                book.close()
        except XlsxRefused:
            raise
        except XLSX_READ_ERRORS as error:
            raise XlsxRefused(_("This is not a readable XLSX file.")) from error
        return dataset


FORMATS = {"csv": SafeCSV, "xlsx": SafeXLSX}
