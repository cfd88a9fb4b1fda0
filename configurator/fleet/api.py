"""Fleet endpoints of the JSON API: read a node's probe archive into its balance report."""

import re

from django.core.exceptions import ValidationError
from django.http import HttpRequest
from django.urls import reverse
from ninja import Router, Status
from ninja.security import django_auth

from configurator.fleet import services
from configurator.fleet.comparison import step_text
from configurator.fleet.models import NodeProbe
from configurator.fleet.probe.archive import MAX_ARCHIVE_BYTES
from configurator.fleet.probe_report import finding_text
from configurator.fleet.selectors import probe_problems
from configurator.inputs import InputErrors

router = Router(tags=["fleet"])
MAX_PSU_WATTS = 100_000  # as evaluate's psu_watts
WATTS = re.compile(r"[0-9]{1,6}")


def probe_out(probe: NodeProbe) -> dict[str, object]:
    return {
        "id": probe.pk,
        "hostname": probe.hostname,
        "build": probe.build,
        # api.md's node-probe answer: every fact the files show, null for the rest, and the
        # files that would show them; no verdict when the facts are too few
        "facts": (probe.facts or {}).get("facts"),
        "missing": (probe.facts or {}).get("missing", []),
        "unknown": (probe.facts or {}).get("unknown", []),
        "verdict": probe.verdict or None,
        "codes": probe.codes,
        "checks": probe.codes,
        "balance": probe.balance or None,
        "findings": [{**f, "text": finding_text(f)} for f in probe.findings],
        "problems": probe_problems(probe),  # why there is no verdict, when there is none
        "ruleset": {"profile": probe.profile, "version": probe.rule_version},
        # the delivered node against its quote (docs/fleet.md "Delivered as quoted")
        "quote": probe.quote.number if probe.quote else None,
        "saved_build": probe.saved_build_id,
        "audit": probe.audited_node.audit_id if probe.audited_node else None,
        "node": probe.audited_node.node_id if probe.audited_node else None,
        "comparison": [
            {**line, "step": step_text(line), "step_code": line["step"]}
            for line in probe.comparison
        ],
        "report_url": reverse("fleet:probe", args=[probe.pk]),
        "binding_url": reverse("fleet:probe-binding", args=[probe.pk]),
    }


@router.post("/probes", auth=django_auth, response={201: dict, 400: dict, 403: dict})
def probe_create(request: HttpRequest):
    """Read a probe.sh archive into the node's build, findings and verdict (architects only).

    A multipart form: `archive` (the tar.gz probe.sh wrote), `psu_watts` (the usable PSU
    output after redundancy, which a probe cannot read: 1–100000), `numa_binding` (whether
    the delivery image binds ranks; default true) and optionally one target the node is
    compared with: `quote` (a quote number), `saved_build` (a saved build's id) or `audit`
    with `node` (a fleet audit's id and a node_id in it). Bad fields are named, as
    everywhere; nothing is saved.
    """
    if not request.user.has_perm("fleet.add_nodeprobe"):
        return Status(403, {"detail": "Only architects may upload node probes."})
    errors = InputErrors()
    archive = request.FILES.get("archive")
    if archive is None:
        errors.add("archive", "Attach the probe archive (multipart field 'archive').")
    elif archive.size > MAX_ARCHIVE_BYTES:
        errors.add("archive", f"The archive is over {MAX_ARCHIVE_BYTES // 2**20} MB.")
    psu_text = request.POST.get("psu_watts", "").strip()
    # ASCII digits, and few of them: str.isdigit() takes "²", which int() refuses, and int()
    # refuses 5,000 digits too.
    psu_watts = int(psu_text) if WATTS.fullmatch(psu_text) else 0
    if not 1 <= psu_watts <= MAX_PSU_WATTS:
        errors.add("psu_watts", f"Give the usable PSU output in W, 1 to {MAX_PSU_WATTS}.")
    binding = request.POST.get("numa_binding", "true").strip().lower()
    if binding not in ("true", "false", "1", "0", "yes", "no", "on", "off"):
        errors.add("numa_binding", "Give true or false.")
    target = None
    try:
        target = services.probe_target(
            request.user, {name: request.POST.get(name, "") for name in services.TARGET_FIELDS}
        )
    except ValidationError as error:
        for field, messages in error.message_dict.items():
            errors.add(field, messages[0])
    errors.raise_if_any()
    try:
        probe = services.node_probe_create(
            content=archive.read(),
            file_name=archive.name or "probe.tar.gz",
            psu_watts=psu_watts,
            numa_binding=binding in ("true", "1", "yes", "on"),
            user=request.user,
            target=target,
        )
    except ValidationError as error:
        field = error.code if error.code in services.TARGET_FIELDS else "archive"
        raise InputErrors({field: error.messages}) from error
    return Status(201, probe_out(probe))
