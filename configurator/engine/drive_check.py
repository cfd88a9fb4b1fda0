"""The `drive_bays` check: a node's NVMe drives fit the bays of the platform it names.

A platform's datasheet states its NVMe bays (`Platform.nvme_bays`, in the catalog). More drives
than bays cannot be fitted, so such a build fails and is rejected; without a platform the
bays are not known and the check does not apply. The limit is the datasheet's count, not a
threshold of the rule profile.
"""

from __future__ import annotations

from configurator.engine import catalogue
from configurator.engine.build import Build, Workload
from configurator.engine.findings import Finding, failed, not_applicable, passed
from configurator.engine.messages import Message, _, ngettext
from configurator.engine.registry import REGISTRY, CheckKind
from configurator.engine.rules import RuleParams


def counted_drives(count: int) -> Message:
    """Return `1 NVMe drive`, `30 NVMe drives`."""
    return ngettext("%(n)s NVMe drive", "%(n)s NVMe drives", count)


def counted_bays(count: int) -> Message:
    """Return `1 NVMe bay`, `4 NVMe bays`."""
    return ngettext("%(n)s NVMe bay", "%(n)s NVMe bays", count)


def drive_bays(build: Build, workload: Workload | None, rules: RuleParams) -> Finding:
    """Drive bays: reject more NVMe drives in a node than its platform has bays for."""
    if build.nvme_bays is None:
        detail = _("no platform named: its NVMe bays are not known")
        return not_applicable("drive_bays", detail, {"nvme": build.nvme})
    bays, drives = build.nvme_bays, build.nvme
    numbers = {"nvme": drives, "nvme_bays": bays}
    if drives <= bays:
        detail = _(
            "%(drives)s per node in the platform's %(bays)s",
            drives=counted_drives(drives), bays=counted_bays(bays),
        )  # fmt: skip
        return passed("drive_bays", detail, numbers)
    detail = _(
        "%(drives)s per node; the platform has %(bays)s",
        drives=counted_drives(drives), bays=counted_bays(bays),
    )  # fmt: skip
    fix = _(
        "fit at most %(bays)s per node (%(fewer)s fewer), or name a platform with at least "
        "%(drives)s",
        bays=counted_drives(bays), fewer=drives - bays, drives=counted_bays(drives),
    )  # fmt: skip
    return failed("drive_bays", detail, fix, numbers)


REGISTRY.add("drive_bays", drive_bays, catalogue.DRIVE_BAYS, kind=CheckKind.PLATFORM)
