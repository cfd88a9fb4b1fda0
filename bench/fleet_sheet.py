"""Write a realistic fleet inventory sheet: `python -m bench.fleet_sheet ROWS OUT.csv [--gbk]`.

Nodes are drawn from a fixed random seed over the kinds of machine an operator owns: the
guide's recipes (S1–S3), their memory-starved and single-socket-heavy variants, legacy E5
boxes, consumer-memory boxes, undersized PSUs. Models are named by slug or by catalog name,
headers in English or Chinese (`--zh`), and one row in a thousand carries a typo, so the
audit meets every path a real sheet takes. `.xlsx` as OUT writes the first sheet of a
workbook (slow for big sheets: openpyxl writes cell by cell).
"""

from __future__ import annotations

import csv
import random
import sys

# (cpu, gpu, gpu_count, gpus_per_socket, memory_gb, ecc, psu_w, nvlink, weight)
KINDS = (
    ("xeon-gold-5318y", "l20", 4, "2+2", 256, "true", 2600, "false", 20),
    ("Intel Xeon Gold 5318Y", "rtx-4090", 4, "2+2", 256, "yes", 3400, "no", 10),
    ("Intel Xeon Gold 5318Y", "rtx-4090", 4, "2+2", 256, "yes", 2600, "no", 4),
    ("xeon-gold-6530", "a800-80g-pcie", 8, "4+4", 1024, "true", 4400, "true", 15),
    ("xeon-gold-6530", "NVIDIA A800 80GB SXM4", 8, "4+4", 512, "是", 6000, "是", 10),
    ("epyc-9754", "h100-80g-sxm", 8, "4+4", 1024, "true", 10200, "true", 15),
    ("AMD EPYC 9754", "h100-80g-sxm", 8, "4+4", 2048, "true", 10200, "true", 5),
    ("xeon-e5-2680-v4", "rtx-4090", 8, "4+4", 256, "false", 3000, "false", 8),
    ("xeon-gold-6530", "l20", 8, "6+2", 768, "true", 3600, "false", 5),
    ("xeon-gold-6542y", "l40s", 4, "2+2", 256, "true", 1600, "false", 5),
    ("epyc-9374f", "h100-80g-pcie", 4, "2+2", 512, "true", 3000, "true", 5),
    ("xeon-gold-6548y-plus", "a800-80g-pcie", 8, "4+4", 768, "true", 4400, "true", 2),
)
HEADERS_EN = (
    "node_id", "cpu", "cpu_count", "gpu", "gpu_count", "gpus_per_socket", "memory_gb",
    "memory_ecc", "psu_watts", "nvlink", "numa_binding", "rack",
)  # fmt: skip
HEADERS_ZH = (
    "节点编号", "CPU型号", "CPU数量", "GPU型号", "GPU数量", "每路GPU数", "内存容量（GB）",
    "ECC内存", "电源功率（W）", "NVLink", "NUMA绑定", "机柜",
)  # fmt: skip


def rows(count: int, seed: int = 12) -> list[list[object]]:
    """Return `count` node rows drawn from KINDS by weight."""
    rng = random.Random(seed)
    weights = [kind[-1] for kind in KINDS]
    out = []
    for n, kind in enumerate(rng.choices(KINDS, weights=weights, k=count), start=1):
        cpu, gpu, gpus, split, memory, ecc, psu, nvlink, _ = kind
        binding = "true" if rng.random() < 0.8 else "false"
        if rng.random() < 0.001:
            gpu = gpu + "-typo"
        out.append(
            [f"gpu-{n:07d}", cpu, 2, gpu, gpus, split, memory, ecc, psu, nvlink, binding,
             f"R{n // 40:05d}"]
        )  # fmt: skip
    return out


def write(count: int, path: str, *, zh: bool = False, encoding: str = "utf-8") -> None:
    headers = HEADERS_ZH if zh else HEADERS_EN
    if path.endswith(".xlsx"):
        import openpyxl

        book = openpyxl.Workbook(write_only=True)
        sheet = book.create_sheet()
        sheet.append(headers)
        for row in rows(count):
            sheet.append(row)
        book.save(path)
        return
    with open(path, "w", newline="", encoding=encoding) as out:
        writer = csv.writer(out)
        writer.writerow(headers)
        writer.writerows(rows(count))


if __name__ == "__main__":
    args = [arg for arg in sys.argv[1:] if not arg.startswith("--")]
    write(
        int(args[0]),
        args[1],
        zh="--zh" in sys.argv,
        encoding="gb18030" if "--gbk" in sys.argv else "utf-8",
    )
