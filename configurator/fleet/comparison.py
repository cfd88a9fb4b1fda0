"""The words of a delivered node's comparison with its quote (fleet/manifest.py's lines)."""

from __future__ import annotations

from django.utils.translation import gettext, gettext_lazy, gettext_noop

from configurator.fleet.manifest import FAIL, PASS, WARN

YES, NO = gettext_lazy("yes"), gettext_lazy("no")
AGAINST_QUOTE = gettext_noop("Delivered as quoted? Against quote %(number)s")
AGAINST_SAVED = gettext_noop("Delivered as quoted? Against saved build %(id)s (%(lead)s)")
AGAINST_ROW = gettext_noop("Delivered as quoted? Against fleet audit %(audit)s, node %(node)s")


def target_name(probe) -> str:
    """Return what a probe was checked against, in words ("—" when none, or when its target
    was since deleted): the page's, the PDF's and the probe list's one wording."""
    if probe.quote_id:
        return gettext("quote %(number)s") % {"number": probe.quote.number}
    if probe.saved_build_id:
        return gettext("saved build %(id)s") % {"id": probe.saved_build_id}
    if probe.audited_node_id:
        node = probe.audited_node
        return gettext("fleet audit %(audit)s, node %(node)s") % {
            "audit": node.audit_id, "node": node.node_id}  # fmt: skip
    return "—"


def target_heading(probe) -> str:
    """Return the comparison's heading: "Delivered as quoted? Against …" its target."""
    if probe.saved_build_id:
        return gettext(AGAINST_SAVED) % {
            "id": probe.saved_build_id, "lead": probe.saved_build.lead}  # fmt: skip
    if probe.audited_node_id:
        node = probe.audited_node
        return gettext(AGAINST_ROW) % {"audit": node.audit_id, "node": node.node_id}
    return gettext(AGAINST_QUOTE) % {"number": probe.quote.number if probe.quote else "—"}


ITEM_TITLE = {
    "cpu": gettext_lazy("CPU model"),
    "sockets": gettext_lazy("sockets"),
    "threads": gettext_lazy("CPU threads"),
    "gpu": gettext_lazy("GPU model"),
    "gpu_count": gettext_lazy("GPU count"),
    "gpus_per_socket": gettext_lazy("GPUs per socket"),
    "memory_gb": gettext_lazy("memory size"),
    "numa_memory": gettext_lazy("memory per NUMA node"),
    "memory_ecc": gettext_lazy("memory ECC"),
    "link": gettext_lazy("GPU PCIe link"),
    "nvlink": gettext_lazy("NVLink between the GPUs"),
    "allreduce_busbw_gbs": gettext_lazy("all-reduce bus bandwidth"),
    "nic_affinity": gettext_lazy("GPU's nearest NIC (path class, this socket: NODE or nearer)"),
}
STEP_TEXT = {
    "": "",
    "not_measured": gettext_lazy(
        "Not measured: the probe lacks the file that shows it; probe the node again with "
        "every command of probe.sh."
    ),
    "more_than_quoted": gettext_lazy("More than quoted: check the bill matches the node."),
    "fit_cpu": gettext_lazy("Fit the quoted CPUs, or re-quote the node as delivered."),
    "enable_threads": gettext_lazy(
        "Turn on Hyper-Threading/SMT and every core in the BIOS, or fit the quoted CPU."
    ),
    "fit_gpu": gettext_lazy("Fit the quoted GPUs, or re-quote the node as delivered."),
    "gpu_missing": gettext_lazy(
        "A GPU is missing or off the bus: re-seat it, then check nvidia-smi -L and dmesg."
    ),
    "move_gpus": gettext_lazy(
        "Move the GPUs into slots wired so each socket carries the quoted split."
    ),
    "fit_memory": gettext_lazy("Fit the missing DIMMs to the quoted size."),
    "balance_channels": gettext_lazy(
        "This NUMA node has less than its share: populate every memory channel evenly."
    ),
    "fit_ecc": gettext_lazy("Replace the memory with ECC server RDIMMs."),
    "reseat": gettext_lazy("Re-seat the card or move it to a full x16 slot."),
    "slot_gen": gettext_lazy("Check the slot, riser and BIOS PCIe link settings."),
    "fit_nvlink": gettext_lazy(
        "Fit the NVLink bridges (or check the NVSwitch fabric manager) and probe again."
    ),
    "run_nccl_tests": gettext_lazy("Not measured: build nccl-tests on the node and probe again:"),
    "check_fabric": gettext_lazy(
        "Below what the time model expects: check NVLink and the fabric manager, PCIe ACS "
        "and NCCL's P2P settings, then run nccl-tests again."
    ),
    "nic_affinity": gettext_lazy(
        "This GPU's nearest NIC is across the sockets: move the NIC or the GPU so each GPU "
        "has a NIC on its own socket, or the fabric traffic crosses the inter-socket link."
    ),
}
# The status as a reader sees it (the API keeps PASS / WARN / FAIL).
STATUS_TEXT = {
    PASS: gettext_lazy("PASS"),
    WARN: gettext_lazy("WARN"),
    FAIL: gettext_lazy("FAIL"),
}


# The command a step's text ends with, as typed (docs/fleet.md, "The probe script").
STEP_COMMAND = {"run_nccl_tests": "NCCL_TESTS=/opt/nccl-tests/build sudo -E bash probe.sh"}


def step_text(line: dict[str, object]) -> str:
    """Return a line's step in words, with its command where it has one (the API, the PDF)."""
    command = STEP_COMMAND.get(line["step"])
    words = str(STEP_TEXT[line["step"]])
    return f"{words} {command}" if command else words


def shown(value: object) -> str:
    """Return an expected or measured value as written: yes/no in the reader's language."""
    if value is None:
        return "—"
    if isinstance(value, bool):
        return str(YES if value else NO)
    return str(value)


def comparison_lines(stored: list[dict[str, object]]) -> list[dict[str, object]]:
    """Return a probe's stored comparison as the page and the PDF show it."""
    return [
        {
            **line,
            "expected_text": shown(line["expected"]),
            "measured_text": shown(line["measured"]),
            "title": str(ITEM_TITLE[line["item"]]),
            "step_text": str(STEP_TEXT[line["step"]]),
            "step_command": STEP_COMMAND.get(line["step"], ""),
            "status_text": str(STATUS_TEXT[line["status"]]),
        }
        for line in stored
    ]


def comparison_summary(stored: list[dict[str, object]]) -> dict[str, object]:
    """Return how many lines pass, warn and fail, and the monthly cost of the deviations."""
    statuses = [line["status"] for line in stored]
    return {
        "pass": statuses.count(PASS),
        "warn": statuses.count(WARN),
        "fail": statuses.count(FAIL),
        "as_quoted": bool(stored) and FAIL not in statuses,
        "monthly_cost": round(sum(line.get("monthly_cost") or 0 for line in stored), 2),
    }
