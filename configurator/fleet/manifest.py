"""Delivered as quoted: what a quoted build should look like on the node, and the probe against it.

`expected_manifest(build)` is the one place that says what a probe of a build should measure:
the CPU and its threads, the GPUs and their split over the sockets (each GPU's NUMA node),
memory per NUMA node, the PCIe generation and width each GPU links at, NVLink, the
all-reduce bus bandwidth the time model expects, and with NICs how near each GPU's nearest
NIC must be. `compare` sets a probe's facts (`probe/partial.facts_out`) beside it, line by
line, under the rule set's shares: PASS, WARN (not measured, or short of a figure that does
not reject) or FAIL, with the step to take and, where the engine already prices the
deviation, its monthly cost — the loss of each pitfall the delivered node fails and the
quoted build did not, at the quote's monthly price (`Evaluation.monthly_losses`), each
pitfall counted once. Plain Python: no Django.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from configurator.engine.build import Build
from configurator.engine.pcie import split_label
from configurator.engine.performance import Interconnect, interconnect
from configurator.engine.performance.common import allreduce_busbw_gbs
from configurator.engine.rules import RuleParams
from configurator.fleet.probe.parsers import PATH_CLASSES

PCIE_WIDTH = 16  # every GPU wants an x16 link to its CPU (engine/pcie.py)
# A build with NICs wants each GPU's nearest NIC on its own socket: no farther than NODE
# (between host bridges of one NUMA node); SYS crosses to the other socket
# (probe/parsers.PATH_CLASSES, nearest first).
NIC_PATH_WORST = "NODE"
PASS, WARN, FAIL = "PASS", "WARN", "FAIL"


def expected_manifest(build: Build, rules: RuleParams) -> dict[str, object]:
    """Return what a probe of `build` should measure (api.md's probe `facts`, as expected)."""
    gpu_numa = [socket for socket, count in enumerate(build.gpus_per_socket) for _ in range(count)]
    gen = min(build.pcie_gen, build.gpu.pcie_gen)
    busbw = None
    if build.gpu_count > 1:  # the ring the time model times every all-reduce at
        busbw = round(allreduce_busbw_gbs(build, rules), 1)
    return {
        "cpu": build.cpu.slug,
        "cpu_name": build.cpu.name,
        "sockets": build.cpu_count,
        "threads": build.threads,
        "gpu": build.gpu.slug,
        "gpu_name": build.gpu.name,
        "gpu_count": build.gpu_count,
        "gpus_per_socket": list(build.gpus_per_socket),
        "gpu_numa": gpu_numa,  # one NUMA node a socket, as the BIOS sets it by default
        "memory_gb": build.memory_gb,
        "memory_per_socket_gb": round(build.memory_gb / build.cpu_count),
        "memory_ecc": build.memory_ecc,
        "links": [{"gen": gen, "width": PCIE_WIDTH} for _ in range(build.gpu_count)],
        "nvlink": build.nvlink,
        "nvswitch": interconnect(build) is Interconnect.NVSWITCH,
        "allreduce_busbw_gbs": busbw,
        # the farthest path class each GPU's nearest NIC may be at (None: a build without NICs)
        "nic_path_max": NIC_PATH_WORST if build.nics else None,
    }


@dataclass(frozen=True)
class Line:
    item: str  # cpu, sockets, threads, gpu, gpu_count, gpus_per_socket, memory_gb,
    #            numa_memory, memory_ecc, link, nvlink, allreduce_busbw_gbs, nic_affinity
    expected: object  # a figure as shown ("Gen4 x16", "4 + 4", "1024 GB"), or a yes/no
    measured: object
    status: str
    step: str  # a step code (fleet/comparison text); "" when nothing is to be done
    subject: str = ""  # which GPU or NUMA node
    codes: tuple[str, ...] = ()  # the pitfalls this line's deviation triggers

    def as_dict(self) -> dict[str, object]:
        return {
            "item": self.item,
            "subject": self.subject,
            "expected": self.expected,
            "measured": self.measured,
            "status": self.status,
            "step": self.step,
            "codes": list(self.codes),
        }


def _same(item: str, expected: object, measured: object, step: str, codes=(),
          shown: tuple[object, object] | None = None) -> Line:  # fmt: skip
    """Return a line that passes when measured equals expected (WARN when not measured);
    `shown` is how both are written when not as compared (a part's name for its slug)."""
    want, got = shown or (expected, measured)
    if measured is None:
        return Line(item, want, None, WARN, "not_measured")
    status = PASS if measured == expected else FAIL
    return Line(item, want, got, status, "" if status == PASS else step,
                codes=tuple(codes) if status == FAIL else ())  # fmt: skip


def _part(expected: Mapping[str, object], facts: Mapping[str, object], kind: str) -> Line:
    """Return the CPU or GPU line: compared by catalog slug, shown by name (the probe's own
    model name when it is another part or none the catalog knows)."""
    slug, name = expected[kind], expected[f"{kind}_name"]
    model = facts.get(f"{kind}_model")
    measured = facts.get(kind) or model
    return _same(kind, slug, measured, f"fit_{kind}",
                 shown=(name, name if measured == slug else model))  # fmt: skip


def _at_least(item: str, expected: int, measured: int | None, step: str, codes=()) -> Line:
    if measured is None:
        return Line(item, expected, None, WARN, "not_measured")
    if measured < expected:
        return Line(item, expected, measured, FAIL, step, codes=tuple(codes))
    return Line(item, expected, measured, PASS if measured == expected else WARN,
                "" if measured == expected else "more_than_quoted")  # fmt: skip


def _memory_lines(expected: Mapping[str, object], facts: Mapping[str, object],
                  rules: RuleParams) -> list[Line]:  # fmt: skip
    total = int(expected["memory_gb"])
    share = rules.probe_memory_share_min
    lines = []
    measured = facts.get("memory_gb")
    if measured is None:
        lines.append(Line("memory_gb", f"{total} GB", None, WARN, "not_measured"))
    else:
        ok = measured >= total * share
        lines.append(Line("memory_gb", f"{total} GB", f"{measured} GB", PASS if ok else FAIL,
                          "" if ok else "fit_memory", codes=() if ok else ("P3",)))  # fmt: skip
    nodes = facts.get("numa_memory_gb")
    if nodes:
        part = total / len(nodes)  # SNC/NPS split a socket's memory evenly over its nodes
        for node, size in enumerate(nodes):
            ok = size >= part * rules.probe_node_memory_share_min * share
            lines.append(Line("numa_memory", f"{round(part)} GB", f"{size} GB",
                              PASS if ok else FAIL, "" if ok else "balance_channels",
                              subject=f"NUMA {node}"))  # fmt: skip
    ecc = facts.get("memory_ecc")
    if expected["memory_ecc"]:
        lines.append(_same("memory_ecc", True, ecc, "fit_ecc", ("P6",)))
    return lines


def _link_lines(expected: Mapping[str, object], facts: Mapping[str, object]) -> list[Line]:
    want = expected["links"][0] if expected["links"] else None
    links = facts.get("links")
    if want is None:
        return []
    shown = f"Gen{want['gen']} x{want['width']}"
    if not links:
        return [Line("link", shown, None, WARN, "not_measured")]
    lines = []
    for link in links:
        gen, width = link.get("gen"), link.get("width")
        measured = f"Gen{gen or '?'} x{width or '?'}"
        if width is not None and width < want["width"]:
            lines.append(Line("link", shown, measured, FAIL, "reseat", subject=link["gpu"]))
        elif gen is not None and gen < want["gen"]:
            lines.append(Line("link", shown, measured, FAIL, "slot_gen", subject=link["gpu"],
                              codes=("P1",)))  # fmt: skip
        elif gen is None or width is None:
            lines.append(Line("link", shown, measured, WARN, "not_measured", subject=link["gpu"]))
        else:
            lines.append(Line("link", shown, measured, PASS, "", subject=link["gpu"]))
    return lines


def _busbw_line(expected: Mapping[str, object], facts: Mapping[str, object],
                rules: RuleParams) -> list[Line]:  # fmt: skip
    want = expected["allreduce_busbw_gbs"]
    if want is None:
        return []
    shown = f"{want:g} GB/s"
    measured = facts.get("allreduce_busbw_gbs")
    if measured is None:
        return [Line("allreduce_busbw_gbs", shown, None, WARN, "run_nccl_tests")]
    ok = measured >= want * rules.probe_busbw_share_min
    return [Line("allreduce_busbw_gbs", shown, f"{measured:g} GB/s", PASS if ok else WARN,
                 "" if ok else "check_fabric")]  # fmt: skip


def _nic_lines(expected: Mapping[str, object], facts: Mapping[str, object]) -> list[Line]:
    """Return a line per GPU: its nearest NIC no farther than the manifest's path class."""
    worst = expected.get("nic_path_max")  # a manifest frozen before it has none
    if worst is None:
        return []
    shown = str(worst)
    gpus = facts.get("gpu_nics")
    if not gpus:
        return [Line("nic_affinity", shown, None, WARN, "not_measured")]
    lines = []
    for gpu in gpus:
        nic, path = gpu.get("nic"), gpu.get("path")
        if nic is None or path not in PATH_CLASSES:
            lines.append(Line("nic_affinity", shown, None, WARN, "not_measured",
                              subject=gpu["gpu"]))  # fmt: skip
            continue
        ok = PATH_CLASSES.index(path) <= PATH_CLASSES.index(worst)
        lines.append(Line("nic_affinity", shown, f"{nic} {path}", PASS if ok else FAIL,
                          "" if ok else "nic_affinity", subject=gpu["gpu"]))  # fmt: skip
    return lines


def compare(expected: Mapping[str, object], facts: Mapping[str, object],
            rules: RuleParams) -> list[Line]:  # fmt: skip
    """Return a probe's facts against a quoted build's manifest, line by line, each share a
    measured figure must reach read from `rules` (`probe_memory_share_min`,
    `probe_node_memory_share_min`, `probe_busbw_share_min`)."""
    lines = [
        _part(expected, facts, "cpu"),
        _same("sockets", expected["sockets"], facts.get("sockets"), "fit_cpu"),
        _at_least("threads", int(expected["threads"]), facts.get("threads"), "enable_threads"),
        _part(expected, facts, "gpu"),
        _at_least("gpu_count", int(expected["gpu_count"]), facts.get("gpu_count"), "gpu_missing"),
    ]
    per_socket = facts.get("gpus_per_socket")
    lines.append(
        _same(
            "gpus_per_socket",
            split_label(tuple(expected["gpus_per_socket"])),
            split_label(tuple(per_socket)) if per_socket is not None else None,
            "move_gpus",
            ("P2", "P4"),
        )
    )
    lines += _memory_lines(expected, facts, rules)
    lines += _link_lines(expected, facts)
    nvlink = facts.get("nvlink")
    if expected["nvlink"]:
        lines.append(_same("nvlink", True, nvlink, "fit_nvlink", ("P5",)))
    lines += _busbw_line(expected, facts, rules)
    lines += _nic_lines(expected, facts)
    return lines


def priced(
    lines: list[Line],
    losses: Mapping[str, float] | None,
    quoted_codes: frozenset[str] | set[str],
) -> list[dict[str, object]]:
    """Return the lines as stored, each FAIL with what its deviation costs a month.

    `losses` are the delivered node's pitfall losses at the quote's monthly price (None when
    the node has no verdict); a pitfall the quoted build failed too is not the delivery's,
    and each pitfall is counted on the first line that triggers it.
    """
    counted: set[str] = set()
    out = []
    for line in lines:
        cost = None
        if line.status == FAIL and losses is not None:
            codes = [c for c in line.codes if c in losses and c not in quoted_codes]
            fresh = [c for c in codes if c not in counted]
            counted.update(fresh)
            cost = round(sum(losses[c] for c in fresh), 2) if fresh else None
        out.append({**line.as_dict(), "monthly_cost": cost})
    return out
