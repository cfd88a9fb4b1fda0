"""Fleet sheets for tests, written as a user's spreadsheet program would."""

import csv
import io

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
