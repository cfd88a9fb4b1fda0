"""The catalogue: each check's fixed text, by the code it is registered under.

Every entry gives the English and Chinese title and the loss the operator's field guide
measured when the rule is broken (domain.md §2 and §4), or, for the product's own checks
(`capacity`, `precision`, `fabric`, `shape`), what goes wrong (domain.md §6, §7). Where the
loss was measured as a factor on the time a job takes (P1, P5, P8), the entry's `loss` holds
it: the performance model and the monthly losses read it there. Checks fill in
only the numbers and the fix; `configurator.engine.registry` pairs each entry with its check.
The English title is a message too: where a text names a check (the recommender's reason why
no build serves a workload), it reads in the request's language; the API's `title_zh` stays.
"""

from __future__ import annotations

from configurator.engine.messages import _
from configurator.engine.performance import BALANCED_UTILISATION, Loss
from configurator.engine.registry import CatalogueEntry

P1 = CatalogueEntry(
    title=_("Legacy PCIe 3.0 platform carrying several GPUs"),
    title_zh="老旧 PCIe 3.0 平台（双路至强 E5）搭配多张 GPU",
    impact=_(
        "8-GPU utilisation only 61%, iteration speed −30%; "
        "GPU-to-GPU latency 3.2× on 80 PCIe 3.0 lanes"
    ),
    source="domain.md §4 P1, §2 [guide]",
    loss=Loss(
        BALANCED_UTILISATION / 0.61,
        "8-GPU utilisation 61 % instead of 88.6 %",
        "domain.md §4 P1, §1 [guide]",
    ),
)

P2 = CatalogueEntry(
    title=_("No NUMA affinity binding between GPUs and CPUs"),
    title_zh="GPU 与 CPU 未做 NUMA 亲和绑定",
    impact=_("cross-NUMA memory access latency 186 µs, NCCL error probability +17%"),
    source="domain.md §4 P2 [guide]",
)

P3 = CatalogueEntry(
    title=_("System memory below the VRAM threshold"),
    title_zh="系统内存低于显存阈值",
    impact=_("swapping, I/O wait 22%, job interruptions +40%"),
    source="domain.md §4 P3 [guide]",
)

P4 = CatalogueEntry(
    title=_("One CPU carrying 6 or more GPUs"),
    title_zh="单颗 CPU 承载 6 张及以上 GPU",
    impact=_("PCIe lanes of that NUMA node exhausted, GPU-to-GPU throughput −48%"),
    source="domain.md §4 P4 [guide]",
)

P5 = CatalogueEntry(
    title=_("Full-parameter multi-GPU training without NVLink"),
    title_zh="全参数多卡训练未配 NVLink",
    impact=_("inter-GPU traffic over PCIe: 70B training time +116%"),
    source="domain.md §4 P5 [guide], §6 [decision]",
    loss=Loss(2.16, "70B training time +116 %", "domain.md §4 P5 [guide]"),
)

P6 = CatalogueEntry(
    title=_("Non-ECC consumer memory"),
    title_zh="使用非 ECC 消费级内存",
    # xgettext:no-python-format
    impact=_("memory error probability 9.3% in 72 h of full load"),
    source="domain.md §4 P6 [guide]",
)

P7 = CatalogueEntry(
    title=_("PSU rated power too low"),
    title_zh="电源额定功率不足",
    impact=_("power throttling, compute fluctuates ±25%"),
    source="domain.md §4 P7 [guide], §6 [decision]",
)

P8 = CatalogueEntry(
    title=_("CPU base clock too low for small-batch inference"),
    title_zh="CPU 基础频率过低（小批量推理）",
    impact=_("small-batch inference scheduling latency +54%"),
    source="domain.md §4 P8 [guide], §6 [decision]",
    loss=Loss(1.54, "small-batch inference latency +54 %", "domain.md §4 P8 [guide]"),
)

PCIE_LANES = CatalogueEntry(
    title=_("PCIe lanes"),
    title_zh="PCIe 总通道",
    # xgettext:no-python-format
    impact=_("GPUs drop to x8 links, −50% host bandwidth"),
    source="domain.md §2 [guide]",
)

CPU_THREADS = CatalogueEntry(
    title=_("CPU threads per GPU"),
    title_zh="线程/GPU 配比",
    impact=_("CPU saturated, GPUs wait for data, utilisation < 70%"),
    source="domain.md §2 [guide], §6 [decision]",
)

MEMORY = CatalogueEntry(
    title=_("ECC memory capacity"),
    title_zh="ECC 内存总容量",
    impact=_("pre-processing out of memory, frequent interruptions"),
    source="domain.md §2 [guide]",
)

NUMA = CatalogueEntry(
    title=_("NUMA affinity"),
    title_zh="NUMA 绑定",
    impact=_("memory latency +270%, NCCL time-outs"),
    source="domain.md §2 [guide]",
)

CAPACITY = CatalogueEntry(
    title=_("GPU memory capacity for the workload"),
    title_zh="显存容量（工作负载）",
    impact=_("the job runs out of GPU memory and cannot start"),
    source="domain.md §7, api.md sizing [decision]",
)

PRECISION = CatalogueEntry(
    title=_("Precision supported by the GPU"),
    title_zh="GPU 支持的数值精度",
    impact=_(
        "the GPU has no tensor cores for the format: the job falls back to a wider format "
        "(more memory, less speed) or does not run"
    ),
    source="domain.md §6 [decision]; NVIDIA Hopper and Ada datasheets (FP8 Transformer Engine)",
)

FABRIC = CatalogueEntry(
    title=_("Multi-node training fabric"),
    title_zh="多节点训练网络（高速互联）",
    impact=_(
        "gradients cross nodes over the management network: collective communication, "
        "not the GPUs, sets the iteration time"
    ),
    source="domain.md §6 [decision], §7, §8 (NVIDIA reference: one NIC per GPU)",
)

SHAPE = CatalogueEntry(
    title=_("Deployable GPU shape"),
    title_zh="可部署的 GPU 规格",
    impact=_(
        "a GPU count no serving or training engine splits a model over, or a partial "
        "HGX board: GPUs sit idle or the build cannot be racked"
    ),
    source="domain.md §6 [decision]",
)

DRIVE_BAYS = CatalogueEntry(
    title=_("NVMe drives within the platform's bays"),
    title_zh="NVMe 硬盘数不超过平台盘位",
    impact=_("the drives do not fit the chassis: the node cannot be assembled as quoted"),
    source="the platform's datasheet: its NVMe bays (catalog Platform.nvme_bays) [datasheet]",
)
