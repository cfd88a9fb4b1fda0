"""Spreadsheets in and out of the catalog: no formula travels either way; CSV in UTF-8 or GBK.

A cell that begins with `=`, `+`, `-`, `@`, a tab or a carriage return is read as a formula by
Excel, LibreOffice and Google Sheets (OWASP, "CSV Injection"). Imports refuse such text cells
with their row and column; exports prefix them with `'`, which every one of those programs
shows as text. A plain number (`-5`, `+2.5`, `1e3`) is a number, not a formula, and passes.
"""

import re

from django.utils.translation import gettext as _
from import_export.formats.base_formats import CSV, XLSX

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


def decoded(data: bytes) -> str:
    """Return CSV bytes as text, trying UTF-8 (with or without BOM), then GB18030/GBK."""
    for encoding in CSV_ENCODINGS:
        try:
            return data.decode(encoding)
        except UnicodeDecodeError:
            continue
    raise ValueError(_("The CSV file is neither UTF-8 nor GBK text."))


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
        return super().create_dataset(in_stream, **kwargs)


class SafeXLSX(FormulaEscaping, XLSX):
    """XLSX, first sheet; a text cell beginning with `=` is never written as a live formula."""


FORMATS = {"csv": SafeCSV, "xlsx": SafeXLSX}
