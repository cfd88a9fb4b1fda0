"""Audit results as CSV or XLSX, every cell safe to open in a spreadsheet.

A cell starting with `=`, `+`, `-`, `@`, a tab or a carriage return would be run as a formula
by Excel or LibreOffice (OWASP "CSV injection"); such text cells get a leading apostrophe.
Numbers stay numbers. In XLSX, control characters XML cannot hold (a node id with `\x01`)
become U+FFFD. Both rules are the catalog's (`catalog.spreadsheets`), so the two exports agree.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Iterable, Iterator

import openpyxl

from catalog.spreadsheets import escaped, xlsx_safe

COLUMNS = (
    "node_id", "row", "verdict", "codes", "balance_overall", "balance_cpu_threads",
    "balance_pcie_lanes", "balance_memory", "cpu", "cpu_count", "gpu", "gpu_count",
    "gpus_per_socket", "memory_gb", "memory_ecc", "psu_watts", "nvlink", "numa_binding",
)  # fmt: skip


def node_cells(node) -> list[object]:
    """Return one audited node (with its build) as export cells."""
    build, balance = node.build.build, node.build.balance
    return [
        node.node_id,
        node.row,
        node.build.verdict,
        " ".join(node.build.codes),
        balance["overall"],
        balance["cpu_threads"],
        balance["pcie_lanes"],
        balance["memory"],
        build["cpu"],
        build["cpu_count"],
        build["gpu"],
        build["gpu_count"],
        "+".join(str(n) for n in build["gpus_per_socket"]),
        build["memory_gb"],
        build["memory_ecc"],
        build["psu_watts"],
        build["nvlink"],
        build["numa_binding"],
    ]


class _Echo:
    def write(self, value: str) -> str:
        return value


def csv_lines(nodes: Iterable) -> Iterator[str]:
    """Yield the CSV export line by line (UTF-8 with BOM so Excel reads the Chinese)."""
    writer = csv.writer(_Echo())
    yield "\ufeff" + writer.writerow(COLUMNS)
    for node in nodes:
        yield writer.writerow([escaped(cell) for cell in node_cells(node)])


def xlsx_bytes(nodes: Iterable) -> bytes:
    """Return the XLSX export (one sheet, written in openpyxl's streaming mode)."""
    book = openpyxl.Workbook(write_only=True)
    sheet = book.create_sheet("audit")
    sheet.append(COLUMNS)
    for node in nodes:
        sheet.append([xlsx_safe(cell) for cell in node_cells(node)])
    out = io.BytesIO()
    book.save(out)
    return out.getvalue()
