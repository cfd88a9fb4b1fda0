"""Read a fleet inventory sheet (api.md "Fleet sheet") as chunks of text cells.

A sheet is CSV (UTF-8 or GBK, as Excel saves it in China; comma, semicolon or tab separated)
or XLSX (its first sheet). Headers are the build field names of api.md, or their Chinese
names, matched after Unicode NFKC folding, so `内存容量（GB）` and `Memory GB` both work.
Cells stay text here; `rows.py` interprets them. Chunks keep the memory of a million-row sheet
bounded: only one chunk of cells is held at a time.
"""

from __future__ import annotations

import codecs
import io
import re
import unicodedata
import warnings
from collections.abc import Iterator
from dataclasses import dataclass, field, replace
from datetime import date, datetime
from typing import BinaryIO

import openpyxl
import pandas as pd
from django.utils.translation import gettext as _

from catalog.spreadsheets import (
    EXCEL_ROWS,
    XLSX_LIMITS,
    XLSX_READ_ERRORS,
    XlsxLimits,
    XlsxRefused,
    bounded_rows,
    xlsx_checked,
)
from configurator.engine.build import NAMED_PARTS

CHUNK_ROWS = 50_000
SAMPLE_BYTES = 1 << 20
# Web uploads are read within XLSX_LIMITS (catalog.spreadsheets, as the catalog import);
# `audit_fleet` reads an operator's own file, which may fill Excel's whole height.
COMMAND_LIMITS = replace(
    XLSX_LIMITS,
    unpacked_bytes=4 * 2**30,
    shared_strings=4_000_000,
    shared_strings_bytes=512 * 2**20,
    rows=EXCEL_ROWS - 1,
    cells=EXCEL_ROWS * 64,
)

REQUIRED = (
    "node_id",
    "cpu",
    "cpu_count",
    "gpu",
    "gpu_count",
    "gpus_per_socket",
    "memory_gb",
    "memory_ecc",
    "psu_watts",
    "nvlink",
    "numa_binding",
)
# and a column of each part a build names by slug (engine.build.NAMED_PARTS)
OPTIONAL = (
    "platform", "nics", "nic", "nvme", "dimm_count", *(part.name for part in NAMED_PARTS)
)  # fmt: skip

# Each field's accepted headers besides its own name; compared after `header_key`.
ALIASES: dict[str, tuple[str, ...]] = {
    "node_id": ("node", "hostname", "节点编号", "节点ID", "节点", "主机名"),
    "cpu": ("CPU型号", "处理器", "处理器型号"),
    "cpu_count": ("CPU数量", "CPU颗数", "处理器数量", "路数"),
    "gpu": ("GPU型号", "显卡", "显卡型号"),
    "gpu_count": ("GPU数量", "显卡数量", "GPU卡数"),
    "gpus_per_socket": ("每路GPU数", "GPU分布", "每颗CPU的GPU数"),
    "memory_gb": ("memory", "内存容量（GB）", "内存容量", "内存GB", "内存"),
    "memory_ecc": ("ECC", "ECC内存", "内存ECC"),
    "psu_watts": ("电源功率（W）", "电源功率", "电源瓦数"),
    "nvlink": ("NVLink",),
    "numa_binding": ("NUMA绑定", "NUMA 绑定"),
    "platform": ("平台", "机型"),
    "nics": ("网卡数量",),
    "nic": ("网卡型号", "网卡"),
    "nvme": ("NVMe数量",),
    "dimm_count": ("内存条数", "内存条数量"),
}


def required_headers() -> tuple[tuple[str, str], ...]:
    """Return each required column's name and the first header it accepts in another script
    (节点编号, CPU型号, …; "" where it has none): both head a sheet, in any page language."""
    return tuple(
        (name, next((a for a in ALIASES.get(name, ()) if not a.isascii()), "")) for name in REQUIRED
    )


def header_key(text: object) -> str:
    """Fold a header for matching: NFKC, lower case, no spaces, brackets or separators."""
    folded = unicodedata.normalize("NFKC", str(text)).strip().lower()
    return re.sub(r"[\s_\-()\[\]/]+", "", folded)


HEADERS: dict[str, str] = {
    header_key(alias): name
    for name in (*REQUIRED, *OPTIONAL)
    for alias in (name, *ALIASES.get(name, ()))
}


class SheetError(Exception):
    """The file itself cannot be read as a fleet sheet (api.md: exit code 2)."""


@dataclass
class Sheet:
    """An opened sheet: which column holds each field, and its cells chunk by chunk."""

    columns: dict[str, str]  # field -> the header as written in the file
    fields: tuple[str, ...]  # the fields present, required first
    _chunks: Iterator[pd.DataFrame] = field(repr=False)
    _progress: object = field(repr=False)

    def chunks(self) -> Iterator[pd.DataFrame]:
        """Yield DataFrames of text cells named by field, with `row`: the sheet's row number."""
        try:
            yield from self._chunks
        except UnicodeDecodeError as error:
            raise SheetError(_("The file is neither UTF-8 nor GBK text.")) from error
        except pd.errors.ParserError as error:
            raise _csv_error(error) from error

    def progress(self) -> float:
        """Return the share of the file read so far, 0 to 1."""
        return min(max(self._progress(), 0.0), 1.0)


def open_sheet(stream: BinaryIO, *, limits: XlsxLimits = XLSX_LIMITS) -> Sheet:
    """Open a CSV or XLSX fleet sheet from a binary stream; raise SheetError if unreadable.

    An XLSX is checked against `limits` before it is opened, and read within them.
    """
    head = stream.read(8)
    stream.seek(0)
    if not head:
        raise SheetError(_("The file is empty."))
    if head.startswith(b"PK\x03\x04"):
        return _open_xlsx(stream, limits)
    if head.startswith(b"\xd0\xcf\x11\xe0"):
        raise SheetError(_("Old Excel .xls files are not read: save the sheet as XLSX or CSV."))
    return _open_csv(stream)


def _map_headers(headers: list[object]) -> tuple[dict[str, str], dict[str, str]]:
    """Return field -> header and header -> field; raise on duplicates or missing fields."""
    columns: dict[str, str] = {}
    for header in headers:
        name = HEADERS.get(header_key(header)) if header is not None else None
        if name is None:
            continue  # extra columns (rack, location, ...) are kept out of the audit
        if name in columns:
            raise SheetError(
                _("Columns %(a)r and %(b)r both give %(field)s.")
                % {"a": columns[name], "b": str(header), "field": name}
            )
        columns[name] = str(header)
    missing = [name for name in REQUIRED if name not in columns]
    if missing:
        raise SheetError(
            _("Required column(s) missing: %(missing)s.") % {"missing": ", ".join(missing)}
        )
    return columns, {header: name for name, header in columns.items()}


def _fields(columns: dict[str, str]) -> tuple[str, ...]:
    return (*REQUIRED, *(name for name in OPTIONAL if name in columns))


def _decodes(stream: BinaryIO, codec: str) -> bool:
    """Return whether the whole stream decodes with `codec` (read in blocks, then rewound)."""
    decoder = codecs.getincrementaldecoder(codec)()
    stream.seek(0)
    try:
        while block := stream.read(SAMPLE_BYTES):
            decoder.decode(block)
        decoder.decode(b"", final=True)
    except UnicodeDecodeError:
        return False
    finally:
        stream.seek(0)
    return True


def _detect_encoding(stream: BinaryIO, sample: bytes) -> str:
    """Return the codec of a CSV: UTF-8 (with or without BOM), else GBK (as GB18030).

    The whole file is checked, not a sample: a GBK name in row 90,000 must not surface as
    a decoding error after half of the results were written.
    """
    if b"\x00" in sample:
        raise SheetError(_("This is not a CSV or XLSX file."))
    if _decodes(stream, "utf-8"):
        return "utf-8-sig" if sample.startswith(codecs.BOM_UTF8) else "utf-8"
    if _decodes(stream, "gb18030"):
        return "gb18030"
    raise SheetError(_("The file is neither UTF-8 nor GBK text."))


FIELDS = re.compile(r"Expected (\d+) fields in line (\d+), saw (\d+)")


def _csv_error(error: Exception) -> SheetError:
    """Return a one-line reason for a CSV the tokenizer refused."""
    if match := FIELDS.search(str(error)):
        return SheetError(
            _("Line %(line)s has %(cells)s cells; the header has %(header)s.")
            % {"line": match[2], "cells": match[3], "header": match[1]}
        )
    return SheetError(
        _("The CSV cannot be read: %(error)s") % {"error": " ".join(str(error).split())}
    )


def _next_chunk(reader) -> pd.DataFrame | None:
    """Return the reader's next chunk; a first row longer than the header is an error.

    pandas would take the extra cells of the first row as an index (or drop them, warning):
    either would shift every cell, so the row is refused like any other long row.
    """
    with warnings.catch_warnings():
        warnings.simplefilter("error", pd.errors.ParserWarning)
        try:
            return next(reader, None)
        except pd.errors.ParserWarning as warning:
            raise SheetError(_("Line 2 has more cells than the header.")) from warning


def _separator(first_line: str) -> str:
    counts = {sep: first_line.count(sep) for sep in (",", ";", "\t")}
    return max(counts, key=counts.get)


def _open_csv(stream: BinaryIO) -> Sheet:
    sample = stream.read(SAMPLE_BYTES)
    stream.seek(0)
    encoding = _detect_encoding(stream, sample)
    text = sample.decode(encoding, errors="ignore").lstrip("\ufeff")
    first_line = text.splitlines()[0] if text.strip() else ""
    if not first_line.strip():
        raise SheetError(_("The file is empty."))
    sep = _separator(first_line)
    try:
        reader = pd.read_csv(
            stream,
            sep=sep,
            dtype=str,
            keep_default_na=False,
            na_filter=False,
            encoding=encoding,
            chunksize=CHUNK_ROWS,
            skip_blank_lines=True,
            index_col=False,
        )
        first = _next_chunk(reader)
    except UnicodeDecodeError as error:
        raise SheetError(_("The file is neither UTF-8 nor GBK text.")) from error
    except pd.errors.EmptyDataError as error:
        raise SheetError(_("The file is empty.")) from error
    except pd.errors.ParserError as error:
        raise _csv_error(error) from error
    if first is None:
        raise SheetError(_("The sheet has a header but no node rows."))
    columns, by_header = _map_headers(list(first.columns))
    fields = _fields(columns)
    size = max(_stream_size(stream), 1)

    def chunks() -> Iterator[pd.DataFrame]:
        start = 2  # row 1 is the header
        chunk = first
        while chunk is not None:
            frame = chunk.rename(columns=by_header)[list(fields)]
            frame.insert(0, "row", range(start, start + len(frame)))
            frame.index = frame["row"]
            start += len(frame)
            yield frame
            chunk = _next_chunk(reader)
        if start == 2:
            raise SheetError(_("The sheet has a header but no node rows."))

    return Sheet(columns, fields, chunks(), lambda: stream.tell() / size)


def _stream_size(stream: BinaryIO) -> int:
    position = stream.tell()
    stream.seek(0, io.SEEK_END)
    size = stream.tell()
    stream.seek(position)
    return size


def cell_text(value: object) -> str:
    """Return an XLSX cell as the text a CSV would hold (1024.0 -> "1024", True -> "true")."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    if isinstance(value, datetime | date):
        return value.isoformat()
    return str(value).strip()


def _open_xlsx(stream: BinaryIO, limits: XlsxLimits) -> Sheet:
    try:
        extent = xlsx_checked(stream, limits=limits)
        # data_only=False keeps formulas as their text ("=A1*2"), so they can be refused.
        book = openpyxl.load_workbook(stream, read_only=True, data_only=False)
        if not book.worksheets:
            raise SheetError(_("The workbook has no sheet."))
        header, rows = bounded_rows(book.worksheets[0], limits=limits)
    except XlsxRefused as error:
        raise SheetError(str(error)) from error
    except XLSX_READ_ERRORS as error:
        raise SheetError(_("This is not a readable XLSX file.")) from error
    if not header:
        raise SheetError(_("The file is empty."))
    columns = _map_headers(list(header))[0]
    fields = _fields(columns)
    names = [None if h is None else str(h) for h in header]
    positions = [names.index(columns[name]) for name in fields]
    total = max(extent.rows - 1, 1)
    done = [0]

    def chunks() -> Iterator[pd.DataFrame]:
        batch: list[list[str]] = []
        numbers: list[int] = []
        read = 0
        try:
            for number, values in enumerate(rows, start=2):
                done[0] = number - 1
                if all(value is None for value in values):
                    continue
                batch.append([cell_text(values[i]) for i in positions])
                numbers.append(number)
                read += 1
                if len(batch) >= CHUNK_ROWS:
                    yield _frame(batch, numbers, fields)
                    batch, numbers = [], []
        except XlsxRefused as error:
            raise SheetError(str(error)) from error
        except XLSX_READ_ERRORS as error:
            raise SheetError(
                _("Row %(row)s of the XLSX file cannot be read.") % {"row": done[0] + 1}
            ) from error
        finally:
            book.close()
        if batch:
            yield _frame(batch, numbers, fields)
        if not read:
            raise SheetError(_("The sheet has a header but no node rows."))

    return Sheet(columns, fields, chunks(), lambda: done[0] / total)


def _frame(batch: list[list[str]], numbers: list[int], fields: tuple[str, ...]) -> pd.DataFrame:
    frame = pd.DataFrame(batch, columns=list(fields), dtype=str)
    frame.insert(0, "row", numbers)
    frame.index = frame["row"]
    return frame
