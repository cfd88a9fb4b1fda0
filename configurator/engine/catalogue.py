"""The catalogue: each check's fixed text, by the code it is registered under.

Every entry gives the title (the rule's name; for a pitfall named by its problem, `passed` too:
what a build that passes has, "ECC server memory") and the loss the operator's field guide
measured when the rule is broken (domain.md §2 and §4), or, for the product's own checks
(`capacity`, `precision`, `fabric`, `shape`, `drive_bays`), what goes wrong (domain.md §6, §7).
Where the loss was measured as a factor on the time a job takes (P1, P5, P8), the entry's
`loss` holds it: the performance model and the monthly losses read it there. Checks fill in
only the numbers and the fix; `configurator.engine.registry` pairs each entry with its check.
Every text here is a message id (`messages._`, English): each other language's version is in
that language's translation catalogue (`locale/`), so a language is added without touching this
file. The guide's recipes' names and measured results (`GUIDE_RECIPES`) are message ids too.
"""

from __future__ import annotations

from configurator.engine.messages import _
from configurator.engine.performance import BALANCED_UTILISATION, Loss
from configurator.engine.registry import CatalogueEntry

P1 = CatalogueEntry(
    title=_("Legacy PCIe 3.0 platform carrying several GPUs"),
    passed=_("PCIe generation fit for the node's GPUs"),
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
    passed=_("GPUs bound to the cores and memory of their own socket"),
    impact=_("cross-NUMA memory access latency 186 µs, NCCL error probability +17%"),
    source="domain.md §4 P2 [guide]",
)

P3 = CatalogueEntry(
    title=_("System memory below the VRAM threshold"),
    passed=_("System memory at or above the VRAM threshold"),
    impact=_("swapping, I/O wait 22%, job interruptions +40%"),
    source="domain.md §4 P3 [guide]",
)

P4 = CatalogueEntry(
    title=_("One CPU carrying 6 or more GPUs"),
    passed=_("No CPU carrying more GPUs than the per-socket maximum"),
    impact=_("PCIe lanes of that NUMA node exhausted, GPU-to-GPU throughput −48%"),
    source="domain.md §4 P4 [guide]",
)

P5 = CatalogueEntry(
    title=_("Full-parameter multi-GPU training without NVLink"),
    passed=_("GPU interconnect fit for the training"),
    impact=_("inter-GPU traffic over PCIe: 70B training time +116%"),
    source="domain.md §4 P5 [guide], §6 [decision]",
    loss=Loss(2.16, "70B training time +116 %", "domain.md §4 P5 [guide]"),
)

P6 = CatalogueEntry(
    title=_("Non-ECC consumer memory"),
    passed=_("ECC server memory"),
    # xgettext:no-python-format
    impact=_("memory error probability 9.3% in 72 h of full load"),
    source="domain.md §4 P6 [guide]",
)

P7 = CatalogueEntry(
    title=_("PSU rated power too low"),
    passed=_("PSU rated power covers the node"),
    impact=_("power throttling, compute fluctuates ±25%"),
    source="domain.md §4 P7 [guide], §6 [decision]",
)

P8 = CatalogueEntry(
    title=_("CPU base clock too low for small-batch inference"),
    passed=_("CPU base clock fit for the workload"),
    impact=_("small-batch inference scheduling latency +54%"),
    source="domain.md §4 P8 [guide], §6 [decision]",
    loss=Loss(1.54, "small-batch inference latency +54 %", "domain.md §4 P8 [guide]"),
)

PCIE_LANES = CatalogueEntry(
    title=_("PCIe lanes"),
    # xgettext:no-python-format
    impact=_("GPUs drop to x8 links, −50% host bandwidth"),
    source="domain.md §2 [guide]",
)

CPU_THREADS = CatalogueEntry(
    title=_("CPU threads per GPU"),
    impact=_("CPU saturated, GPUs wait for data, utilisation < 70%"),
    source="domain.md §2 [guide], §6 [decision]",
)

MEMORY = CatalogueEntry(
    title=_("ECC memory capacity"),
    impact=_("pre-processing out of memory, frequent interruptions"),
    source="domain.md §2 [guide]",
)

NUMA = CatalogueEntry(
    title=_("NUMA affinity"),
    impact=_("memory latency +270%, NCCL time-outs"),
    source="domain.md §2 [guide]",
)

# One socket has one NUMA node: none of its GPUs can be served across NUMA nodes, so the
# dimension's measured loss (+270 % memory latency) cannot apply. What it does cost, below the
# dual-socket baseline, is one CPU's lanes, threads and memory channels for every GPU
# (domain.md §6 "Single-socket builds").
NUMA_ONE_SOCKET_IMPACT = _(
    "one CPU's PCIe lanes, threads and memory channels serve every GPU: no cross-NUMA "
    "traffic, but no second socket's share of the load"
)

P2_ONE_SOCKET_IMPACT = _(
    "one socket has no cross-NUMA traffic, so the guide's measured loss does not apply; the "
    "operator ships the binding script on every node"
)

CAPACITY = CatalogueEntry(
    title=_("GPU memory capacity for the workload"),
    impact=_("the job runs out of GPU memory and cannot start"),
    source="domain.md §7, api.md sizing [decision]",
)

PRECISION = CatalogueEntry(
    title=_("Precision supported by the GPU"),
    impact=_(
        "the GPU has no tensor cores for the format: the job falls back to a wider format "
        "(more memory, less speed) or does not run"
    ),
    source="domain.md §6 [decision]; NVIDIA Hopper and Ada datasheets (FP8 Transformer Engine)",
)

FABRIC = CatalogueEntry(
    title=_("Multi-node training fabric"),
    impact=_(
        "too little fabric bandwidth between nodes (the check states what it found): "
        "collective communication, not the GPUs, sets the iteration time"
    ),
    source="domain.md §6 [decision], §7, §8 (NVIDIA reference: one NIC per GPU)",
)

SHAPE = CatalogueEntry(
    title=_("Deployable GPU shape"),
    impact=_(
        "a GPU count no serving or training engine splits a model over, or a partial "
        "HGX board: GPUs sit idle or the build cannot be racked"
    ),
    source="domain.md §6 [decision]",
)

DRIVE_BAYS = CatalogueEntry(
    title=_("NVMe drives within the platform's bays"),
    impact=_("the drives do not fit the chassis: the node cannot be assembled as quoted"),
    source="the platform's datasheet: its NVMe bays (catalog Platform.nvme_bays) [datasheet]",
)

# The field guide's recipes (domain.md §3; migration 0004 seeds them as S1–S3): their names
# and measured results as the seed writes them, so each is a message id and reads in the
# request's language (`messages.Written`). A recipe an architect writes or edits in the admin
# is data, shown as written in every language, like a part's name.
GUIDE_RECIPES = {
    "S1": (
        _("Light fine-tuning / inference"),
        _("12 threads per GPU, stable GPU utilisation 89%"),
    ),
    "S2": (
        _("Mid-size distributed training"),
        _("7B–34B data parallel, AllReduce time −62%"),
    ),
    "S3": (
        _("100B+ large-scale training"),
        _("large-batch pre-processing, MoE expert parallel, linear scaling efficiency 84%"),
    ),
}
