"""Fleet endpoints of the JSON API: read a node's probe archive into its balance report."""

from typing import Annotated

from django.core.exceptions import ValidationError
from django.http import HttpRequest
from django.urls import reverse
from ninja import File, Form, Router, Status
from ninja.files import UploadedFile
from ninja.security import django_auth
from pydantic import Field

from configurator.fleet import services
from configurator.fleet.models import NodeProbe
from configurator.fleet.probe.archive import MAX_ARCHIVE_BYTES
from configurator.fleet.probe_report import finding_text
from configurator.inputs import InputErrors

router = Router(tags=["fleet"])


def probe_out(probe: NodeProbe) -> dict[str, object]:
    return {
        "id": probe.pk,
        "hostname": probe.hostname,
        "build": probe.build,
        "verdict": probe.verdict or None,
        "codes": probe.codes,
        "balance": probe.balance or None,
        "findings": [{**f, "text": finding_text(f)} for f in probe.findings],
        "ruleset": {"profile": probe.profile, "version": probe.rule_version},
        "report_url": reverse("fleet:probe", args=[probe.pk]),
        "binding_url": reverse("fleet:probe-binding", args=[probe.pk]),
    }


@router.post("/probes", auth=django_auth, response={201: dict, 400: dict, 403: dict})
def probe_create(
    request: HttpRequest,
    archive: File[UploadedFile],
    psu_watts: Form[Annotated[int, Field(ge=1, le=100000)]],
    numa_binding: Form[bool] = True,
):
    """Read a probe.sh archive (multipart) into the node's build, findings and verdict.

    `psu_watts` is the usable PSU output after redundancy, which a probe cannot read.
    Architects only.
    """
    if not request.user.has_perm("fleet.add_nodeprobe"):
        return Status(403, {"detail": "Only architects may upload node probes."})
    if archive.size > MAX_ARCHIVE_BYTES:
        raise InputErrors({"archive": [f"The archive is over {MAX_ARCHIVE_BYTES // 2**20} MB."]})
    try:
        probe = services.node_probe_create(
            content=archive.read(),
            file_name=archive.name or "probe.tar.gz",
            psu_watts=psu_watts,
            numa_binding=numa_binding,
            user=request.user,
        )
    except ValidationError as error:
        raise InputErrors({"archive": error.messages}) from error
    return Status(201, probe_out(probe))
