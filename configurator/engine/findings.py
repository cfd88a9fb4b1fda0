"""What a check reports: a `Finding`, and the catalogue of titles and measured losses.

The catalogue is data: every check's English and Chinese title and the loss the operator's
field guide measured when the rule is broken (domain.md §2 and §4; `capacity` is the
product's own, §7). Checks fill in only the numbers and the fix.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from types import MappingProxyType


class Status(StrEnum):
    PASS = "pass"
    FAIL = "fail"
    NA = "na"


@dataclass(frozen=True, slots=True)
class CatalogueEntry:
    """The fixed text of one check: what it is called and what breaking it costs."""

    title: str
    title_zh: str
    impact: str
    source: str  # where the rule and its measured loss come from


PITFALL_CODES: tuple[str, ...] = ("P1", "P2", "P3", "P4", "P5", "P6", "P7", "P8")
DIMENSION_CODES: tuple[str, ...] = ("pcie_lanes", "cpu_threads", "memory", "numa")
CAPACITY_CODE = "capacity"
CHECK_CODES: tuple[str, ...] = (*PITFALL_CODES, *DIMENSION_CODES, CAPACITY_CODE)

CATALOGUE: Mapping[str, CatalogueEntry] = MappingProxyType(
    {
        "P1": CatalogueEntry(
            title="Legacy PCIe 3.0 platform carrying several GPUs",
            title_zh="老旧 PCIe 3.0 平台（双路至强 E5）搭配多张 GPU",
            impact="8-GPU utilisation only 61%, iteration speed −30%; "
            "GPU-to-GPU latency 3.2× on 80 PCIe 3.0 lanes",
            source="domain.md §4 P1, §2 [guide]",
        ),
        "P2": CatalogueEntry(
            title="No NUMA affinity binding between GPUs and CPUs",
            title_zh="GPU 与 CPU 未做 NUMA 亲和绑定",
            impact="cross-NUMA memory access latency 186 µs, NCCL error probability +17%",
            source="domain.md §4 P2 [guide]",
        ),
        "P3": CatalogueEntry(
            title="System memory below the VRAM threshold",
            title_zh="系统内存低于显存阈值",
            impact="swapping, I/O wait 22%, job interruptions +40%",
            source="domain.md §4 P3 [guide]",
        ),
        "P4": CatalogueEntry(
            title="One CPU carrying too many GPUs",
            title_zh="单颗 CPU 承载过多 GPU",
            impact="PCIe lanes of that NUMA node exhausted, GPU-to-GPU throughput −48%",
            source="domain.md §4 P4 [guide]",
        ),
        "P5": CatalogueEntry(
            title="Multi-GPU training without NVLink",
            title_zh="多卡训练未配 NVLink",
            impact="inter-GPU traffic over PCIe: 70B training time +116%",
            source="domain.md §4 P5 [guide], §6 [decision]",
        ),
        "P6": CatalogueEntry(
            title="Non-ECC consumer memory",
            title_zh="使用非 ECC 消费级内存",
            impact="memory error probability 9.3% in 72 h of full load",
            source="domain.md §4 P6 [guide]",
        ),
        "P7": CatalogueEntry(
            title="PSU rated power too low",
            title_zh="电源额定功率不足",
            impact="power throttling, compute fluctuates ±25%",
            source="domain.md §4 P7 [guide], §6 [decision]",
        ),
        "P8": CatalogueEntry(
            title="CPU base clock too low for small-batch inference",
            title_zh="CPU 基础频率过低（小批量推理）",
            impact="small-batch inference scheduling latency +54%",
            source="domain.md §4 P8 [guide], §6 [decision]",
        ),
        "pcie_lanes": CatalogueEntry(
            title="PCIe lanes",
            title_zh="PCIe 总通道",
            impact="GPUs drop to x8 links, −50% host bandwidth",
            source="domain.md §2 [guide]",
        ),
        "cpu_threads": CatalogueEntry(
            title="CPU threads per GPU",
            title_zh="线程/GPU 配比",
            impact="CPU saturated, GPUs wait for data, utilisation < 70%",
            source="domain.md §2 [guide], §6 [decision]",
        ),
        "memory": CatalogueEntry(
            title="ECC memory capacity",
            title_zh="ECC 内存总容量",
            impact="pre-processing out of memory, frequent interruptions",
            source="domain.md §2 [guide]",
        ),
        "numa": CatalogueEntry(
            title="NUMA affinity",
            title_zh="NUMA 绑定",
            impact="memory latency +270%, NCCL time-outs",
            source="domain.md §2 [guide]",
        ),
        "capacity": CatalogueEntry(
            title="GPU memory capacity for the workload",
            title_zh="显存容量（工作负载）",
            impact="the job runs out of GPU memory and cannot start",
            source="domain.md §7, api.md sizing [decision]",
        ),
    }
)


@dataclass(frozen=True, slots=True)
class Finding:
    """One check's outcome, with the numbers behind it and, when it fails, the loss and fix."""

    code: str
    status: Status
    title: str
    title_zh: str
    detail: str
    impact: str = ""
    fix: str = ""
    numbers: dict[str, float | int] = field(default_factory=dict)

    @property
    def failed(self) -> bool:
        return self.status is Status.FAIL

    @property
    def is_pitfall(self) -> bool:
        return self.code in PITFALL_CODES

    def as_dict(self) -> dict[str, object]:
        """Return the API's shape of a check."""
        return {
            "code": self.code,
            "status": str(self.status),
            "title": self.title,
            "title_zh": self.title_zh,
            "detail": self.detail,
            "impact": self.impact,
            "fix": self.fix,
            "numbers": dict(self.numbers),
        }

    def as_pitfall_dict(self) -> dict[str, str]:
        """Return the API's shape of a triggered pitfall."""
        return {
            "code": self.code,
            "title": self.title,
            "detail": self.detail,
            "impact": self.impact,
            "fix": self.fix,
        }


def passed(code: str, detail: str, numbers: dict[str, float | int] | None = None) -> Finding:
    """Report a check that the build meets."""
    entry = CATALOGUE[code]
    return Finding(code, Status.PASS, entry.title, entry.title_zh, detail, numbers=numbers or {})


def failed(
    code: str, detail: str, fix: str, numbers: dict[str, float | int] | None = None
) -> Finding:
    """Report a broken rule with the guide's measured loss and a concrete fix."""
    entry = CATALOGUE[code]
    return Finding(
        code, Status.FAIL, entry.title, entry.title_zh, detail, entry.impact, fix, numbers or {}
    )


def not_applicable(
    code: str, detail: str, numbers: dict[str, float | int] | None = None
) -> Finding:
    """Report a check that does not apply to this build or workload."""
    entry = CATALOGUE[code]
    return Finding(code, Status.NA, entry.title, entry.title_zh, detail, numbers=numbers or {})


def num(value: float) -> str:
    """Format a number for a detail line: no trailing `.0`, at most two decimals."""
    rounded = round(float(value), 2)
    if rounded.is_integer():
        return str(int(rounded))
    return f"{rounded:.2f}".rstrip("0")
