"""A probed node's balance report: its facts matched to the catalog and run through the engine.

The CPU and GPU models a probe reports are matched to catalog items by their model number
("Intel(R) Xeon(R) Gold 6530" -> xeon-gold-6530, "NVIDIA H100 80GB HBM3" -> the H100 SXM5:
HBM3 and NVSwitch links are the SXM module's); a model the catalog lacks leaves the node with
its hardware findings but no rules verdict. What a probe cannot see is asked for: the usable
PSU output after redundancy, and whether the delivery image binds ranks to NUMA nodes.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from configurator import selectors
from configurator.engine import build as engine
from configurator.engine.evaluate import Evaluation, evaluate
from configurator.fleet.probe import partial
from configurator.fleet.probe.facts import NodeFacts, node_facts
from configurator.fleet.probe.files import FILES, STANDS_IN
from configurator.fleet.probe.matching import match_cpu, match_gpu
from configurator.fleet.probe.parsers import ProbeParseError
from configurator.fleet.rows import build_fields

# The text of each hardware finding; params fill it in (facts.ProbeFinding).
FINDING_TEXT = {
    "pcie_width": gettext_lazy(
        "%(subject)s links at x%(width)s of x%(max)s: half the host bandwidth or less. "
        "Re-seat the card or move it to a full x16 slot."
    ),
    "pcie_gen": gettext_lazy(
        "%(subject)s: the slot allows PCIe Gen%(gen)s, the GPU Gen%(device_gen)s. "
        "Check the slot, riser and BIOS link settings."
    ),
    "cross_socket": gettext_lazy(
        "%(subject)s: its CPU affinity spans %(sockets)s sockets (or none): its traffic crosses "
        "the socket interconnect. Move it to a slot wired to one socket."
    ),
    "non_ecc": gettext_lazy(
        "DIMM %(subject)s has no ECC bits (%(total)s of %(data)s bits): consumer memory. "
        "Replace it with server ECC RDIMMs."
    ),
    "gpu_ecc_off": gettext_lazy("%(subject)s runs with GPU memory ECC off. Turn ECC on."),
    "nvlink_missing": gettext_lazy(
        "No NVLink between the GPUs (%(subject)s): GPU-to-GPU traffic goes over PCIe."
    ),
    "not_collected": gettext_lazy(
        "%(subject)s is missing (%(command)s): its checks could not be made."
    ),
    "gpu_count_mismatch": gettext_lazy(
        "The files count different numbers of GPUs (%(counts)s): a GPU may have fallen off "
        "the bus or a capture is incomplete. Check nvidia-smi -L and dmesg."
    ),
    "topo_cut_short": gettext_lazy(
        "%(subject)s is cut short (%(rows)s rows for %(columns)s columns): the GPUs' "
        "placement on the sockets cannot be read from it. Capture nvidia-smi topo -m again."
    ),
    "unknown_part": gettext_lazy(
        "%(subject)s is not a part the catalog knows: the checks that depend on it are not "
        "judged (never on the nearest part). Add it to the catalog to judge this node."
    ),
}
# The short name of each finding, shown where the code would be (the API keeps the code).
FINDING_TITLE = {
    "pcie_width": gettext_lazy("Narrow PCIe link"),
    "pcie_gen": gettext_lazy("Slow PCIe slot"),
    "cross_socket": gettext_lazy("GPU across sockets"),
    "non_ecc": gettext_lazy("Memory without ECC"),
    "gpu_ecc_off": gettext_lazy("GPU ECC off"),
    "nvlink_missing": gettext_lazy("No NVLink"),
    "not_collected": gettext_lazy("Output not collected"),
    "gpu_count_mismatch": gettext_lazy("GPU counts disagree"),
    "topo_cut_short": gettext_lazy("Topology cut short"),
    "unknown_part": gettext_lazy("Unknown part"),
}
SEVERE = frozenset({"pcie_width", "pcie_gen", "cross_socket", "non_ecc", "gpu_ecc_off",
                    "gpu_count_mismatch"})  # fmt: skip
# Findings after which the GPUs' placement is not known: no verdict is made on a guess.
UNPLACED = frozenset({"gpu_count_mismatch", "topo_cut_short"})


def finding_text(finding: dict[str, object]) -> str:
    """Return a stored finding as a sentence in the active language."""
    params = {"subject": finding["subject"], **finding.get("params", {})}
    return str(FINDING_TEXT[finding["code"]]) % params


def probe_error_text(error: ProbeParseError) -> str:
    """Return why a probe file cannot be read, in the active language, by file and line."""
    text = _(error.message) % error.params
    if error.file and error.line is not None:
        return _("%(file)s line %(line)s: %(error)s") % {
            "file": error.file, "line": error.line, "error": text}  # fmt: skip
    if error.file:
        return _("%(file)s: %(error)s") % {"file": error.file, "error": text}
    return text


def stored_facts(files: dict[str, str]) -> tuple[NodeFacts | None, str]:
    """Return a stored probe's facts, or None and why its files cannot be read (now).

    A probe stored before a parser's budget existed can hold a file that parser now refuses:
    its report still opens, says why, and nothing past the budget is read into memory.
    """
    try:
        return node_facts(files), ""
    except ProbeParseError as error:
        return None, probe_error_text(error)


def finding_title(finding: dict[str, object]) -> str:
    """Return a stored finding's short name in the active language."""
    return str(FINDING_TITLE[finding["code"]])


# What each fact of a partial probe is, as the report names it (partial.FACT_FILES).
FACT_TITLE = {
    "cpu": gettext_lazy("CPU model"),
    "cpu_model": gettext_lazy("CPU model name"),
    "sockets": gettext_lazy("sockets"),
    "threads": gettext_lazy("CPU threads"),
    "numa_nodes": gettext_lazy("NUMA nodes"),
    "gpu": gettext_lazy("GPU model"),
    "gpu_model": gettext_lazy("GPU model name"),
    "gpu_count": gettext_lazy("GPU count"),
    "gpus_per_socket": gettext_lazy("GPUs per socket"),
    "gpu_numa": gettext_lazy("each GPU's NUMA node"),
    "links": gettext_lazy("each GPU's PCIe generation and width"),
    "nvlink": gettext_lazy("NVLink between the GPUs"),
    "memory_gb": gettext_lazy("memory size"),
    "numa_memory_gb": gettext_lazy("memory per NUMA node"),
    "memory_ecc": gettext_lazy("memory ECC"),
    "allreduce_busbw_gbs": gettext_lazy("all-reduce bus bandwidth"),
    "gpu_nics": gettext_lazy("each GPU's nearest NIC"),
}


def unknown_lines(unknown: list[dict[str, object]]) -> list[dict[str, str]]:
    """Return each fact a partial probe could not judge, and the commands that would tell."""
    return [
        {
            "fact": str(FACT_TITLE[item["fact"]]),
            "commands": _(" or ").join(
                FILES[other]
                for name in item["files"]
                for other in (name, *(o for o, what in STANDS_IN.items() if what == name))
            ),
            "files": ", ".join(item["files"]),
        }
        for item in unknown
    ]


def _too_few(facts: list[str], lines: list[dict[str, str]]) -> str:
    """Return why a probe has no verdict: the facts it lacks, and the commands that would tell."""
    text = _("Too few facts for a verdict: %(facts)s not known.") % {"facts": ", ".join(facts)}
    if lines:
        text += " " + _("Run %(commands)s on the node and probe it again.") % {
            "commands": "; ".join(dict.fromkeys(line["commands"] for line in lines))}  # fmt: skip
    return text


@dataclass
class ProbeReport:
    facts: NodeFacts
    findings: list[dict[str, object]]
    problems: list[str] = field(default_factory=list)  # why no verdict could be given
    build: engine.Build | None = None
    fields: dict[str, object] | None = None
    evaluation: Evaluation | None = None
    version: object = None
    out: dict[str, object] = field(default_factory=dict)  # api.md's `facts`
    unknown: list[dict[str, object]] = field(default_factory=list)  # facts no file showed
    codes: list[str] = field(default_factory=list)  # the checks failing whatever is unknown
    balance: dict[str, object] = field(default_factory=dict)  # {} when the unknown decides it

    @property
    def verdict(self) -> str:
        """Return the rules verdict, or "" when the facts are too few to make one."""
        return str(self.evaluation.verdict) if self.evaluation else ""


def _slow_slots_by_datasheet(facts: NodeFacts, datasheet_gen: int) -> list[dict[str, object]]:
    """Return the slow slots a driver that prints no GPU maximum (`max_device_link_gen`, absent
    before the 500 series) hides: a slot below the matched GPU's datasheet generation."""
    return [
        {"code": "pcie_gen", "subject": gpu.bus_id,
         "params": {"gen": gpu.link_gen_max, "device_gen": datasheet_gen}}
        for gpu in facts.gpus
        if gpu.link_gen_max and gpu.link_gen_device_max is None
        and gpu.link_gen_max < datasheet_gen
    ]  # fmt: skip


def probe_report(facts: NodeFacts, *, psu_watts: int, numa_binding: bool) -> ProbeReport:
    """Match a node's facts to the catalog, evaluate the build, and list every finding.

    A partial probe gets every fact its files show; the verdict only when the facts the build
    is made of are all known. Memory ECC that no file shows is judged both ways: a verdict
    both agree on stands (with the checks failing both ways), otherwise there is none.
    """
    catalog, rules = selectors.snapshots()
    version = rules.current[rules.default]
    findings = [
        {"code": f.code, "subject": f.subject, "params": f.params} for f in facts.findings()
    ]
    report = ProbeReport(facts, findings, version=version)
    cpu = match_cpu(facts.cpu.model, catalog.everything) if facts.cpu else None
    gpu_names = {gpu.name for gpu in facts.gpus}
    fully_linked = bool(
        facts.topology
        and len(facts.topology.gpus) > 1
        and facts.topology.nvlink_pairs()
        == len(facts.topology.gpus) * (len(facts.topology.gpus) - 1) // 2
    )
    gpu = (
        match_gpu(next(iter(gpu_names)), catalog.everything, sxm_hint=fully_linked)
        if gpu_names
        else None
    )
    if gpu is not None:
        findings += _slow_slots_by_datasheet(facts, gpu.pcie_gen)
    report.out = partial.facts_out(
        facts, cpu_slug=cpu.slug if cpu else None, gpu_slug=gpu.slug if gpu else None
    )
    report.unknown = partial.unknown_facts(report.out, facts.missing)
    if facts.cpu and cpu is None:
        report.problems.append(
            _("The CPU %(model)s is not in the catalog.") % {"model": facts.cpu.model}
        )
        findings.append({"code": "unknown_part", "subject": facts.cpu.model, "params": {}})
    if gpu_names and gpu is None:
        report.problems.append(
            _("The GPU %(model)s is not in the catalog.") % {"model": ", ".join(gpu_names)}
        )
        findings.append({"code": "unknown_part", "subject": ", ".join(sorted(gpu_names)),
                         "params": {}})  # fmt: skip
    if any(finding["code"] in UNPLACED for finding in findings):
        report.problems.append(
            _("The probe files disagree on the GPUs, so their placement on the sockets is "
              "not known.")
        )  # fmt: skip
    if len(gpu_names) > 1:
        report.problems.append(_("The node mixes GPU models: %(models)s.") % {
            "models": ", ".join(sorted(gpu_names))})  # fmt: skip
    gaps = partial.verdict_gaps(report.out)
    if gaps and not report.problems:
        report.problems.append(_too_few(
            [str(FACT_TITLE[fact]) for fact in gaps],
            unknown_lines([item for item in report.unknown if item["fact"] in gaps]),
        ))  # fmt: skip
    if gpu is not None and gpu.has_nvlink:
        for finding in findings:
            if finding["code"] == "nvlink_missing":
                finding["severe"] = True
    for finding in findings:
        finding.setdefault("severe", finding["code"] in SEVERE)
    if report.problems or partial.verdict_gaps(report.out):
        return report
    cross = sum(1 for sockets in facts.gpu_sockets() if len(sockets) != 1)
    out = report.out

    def assembled(memory_ecc: bool) -> engine.Build:
        return engine.Build.assemble(
            cpu=cpu,
            cpu_count=out["sockets"],
            gpu=gpu,
            gpu_count=out["gpu_count"],
            gpus_per_socket=tuple(out["gpus_per_socket"]),
            memory_gb=out["memory_gb"],
            memory_ecc=memory_ecc,
            psu_watts=psu_watts,
            nvlink=out["nvlink"],
            numa_binding=numa_binding,
            gpus_cross_numa=cross if out["sockets"] > 1 else 0,
            platform_pcie_gen=facts.pcie_gen,
            dimm_count=len(facts.memory.dimms) if facts.memory and facts.memory.dimms else None,
            nics=len(facts.topology.nics) if facts.topology else 0,
        )

    eccs = (out["memory_ecc"],) if out["memory_ecc"] is not None else (False, True)
    judged = [(assembled(ecc), ecc) for ecc in eccs]
    evaluations = [evaluate(built, version.params) for built, _ecc in judged]
    if len({str(evaluation.verdict) for evaluation in evaluations}) > 1:
        report.problems.append(_too_few(
            [str(FACT_TITLE["memory_ecc"])],
            unknown_lines([{"fact": "memory_ecc", "files": ["dmidecode-memory.txt"]}]),
        ))  # fmt: skip
        return report
    report.build, report.evaluation = judged[-1][0], evaluations[-1]
    report.fields = build_fields(report.build, ())
    if len(judged) > 1:
        report.fields["memory_ecc"] = None  # judged both ways: not a fact
    report.codes = [
        code for code in evaluations[-1].failed_codes
        if all(code in evaluation.failed_codes for evaluation in evaluations)
    ]  # fmt: skip
    balances = [evaluation.balance.as_dict() for evaluation in evaluations]
    report.balance = balances[-1] if all(b == balances[-1] for b in balances) else {}
    return report
