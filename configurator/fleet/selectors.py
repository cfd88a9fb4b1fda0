"""Reads for the fleet pages: audits, their nodes and the figures drawn from them."""

from __future__ import annotations

from django.db.models import QuerySet
from django.utils.translation import gettext as _

from configurator.engine.findings import CATALOGUE
from configurator.fleet.audit import UTILISATION_BALANCED, UTILISATION_MISMATCHED
from configurator.fleet.charts import bars
from configurator.fleet.models import AuditedBuild, AuditedNode, FleetAudit

BANDS = ((0, 50), (50, 70), (70, 85), (85, 101))


def audit_list() -> QuerySet[FleetAudit]:
    return FleetAudit.objects.select_related("created_by").defer("source")


def audit_nodes(audit: FleetAudit, verdict: str | None = None) -> QuerySet[AuditedNode]:
    """Return an audit's nodes with their builds, in sheet order."""
    nodes = audit.nodes.select_related("build").order_by("row")
    if verdict in ("accept", "reject"):
        nodes = nodes.filter(build__verdict=verdict)
    return nodes


def audit_charts(audit: FleetAudit) -> dict[str, object]:
    """Return the summary charts of a finished audit: checks failed, verdicts, score bands."""
    summary = audit.summary
    codes = summary.get("codes", {})
    nodes = summary.get("accepted", 0) + summary.get("rejected", 0)
    failing = bars(
        [(code, count, f"{count} ({count / nodes:.0%})", "bad") for code, count in codes.items()]
    )
    band_counts = dict.fromkeys(BANDS, 0)
    for build in AuditedBuild.objects.filter(audit=audit).only("overall", "node_count"):
        for band in BANDS:
            if band[0] <= build.overall < band[1]:
                band_counts[band] += build.node_count
    score_bands = bars(
        [
            (f"{low}–{min(high, 100)}", count, str(count), "good" if low >= 85 else "bad")
            for (low, high), count in band_counts.items()
        ]
    )
    utilisation = bars(
        [
            (_("now (estimate)"), summary.get("utilisation_expected") or 0,
             f"{(summary.get('utilisation_expected') or 0):.1%}", "bad"),
            (_("all balanced"), UTILISATION_BALANCED, f"{UTILISATION_BALANCED:.1%}", "good"),
        ]
    )  # fmt: skip
    return {"failing": failing, "bands": score_bands, "utilisation": utilisation}


def code_legend(codes) -> list[tuple[str, str]]:
    """Return (code, English and Chinese title) for each check code given."""
    return [(code, f"{CATALOGUE[code].title} · {CATALOGUE[code].title_zh}") for code in codes]


def utilisation_figures() -> dict[str, float]:
    return {"mismatched": UTILISATION_MISMATCHED, "balanced": UTILISATION_BALANCED}
