"""Reads for the fleet pages: audits, probes, recipe builds and the figures drawn from them."""

from __future__ import annotations

from collections import Counter
from decimal import Decimal
from urllib.parse import urlencode

from django.db.models import QuerySet
from django.utils import timezone
from django.utils.translation import gettext as _

from configurator.engine.build import Build
from configurator.fleet.audit import UTILISATION_BALANCED, UTILISATION_MISMATCHED
from configurator.fleet.charts import bars, nccl_curve
from configurator.fleet.comparison import comparison_lines, comparison_summary, target_heading
from configurator.fleet.models import AuditedBuild, AuditedNode, FleetAudit, NodeProbe
from configurator.fleet.probe.parsers import NCCL_PLATEAU_SIZES
from configurator.fleet.probe_report import (
    finding_text,
    finding_title,
    probe_report,
    stored_facts,
    unknown_lines,
)
from configurator.fleet.recipes import recipe_builds
from configurator.fleet.rows import row_build
from configurator.quotes.models import Lead, Quote, QuoteEvent
from configurator.selectors import snapshots
from configurator.translation import check_code, check_label, check_title

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
        [
            (check_label(code), count, f"{count} ({count / nodes:.0%})", "bad")
            for code, count in codes.items()
        ]
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
    """Return (code, title in the request's language) for each pitfall code given: the
    codes a page shows as P1–P8; any other check is shown by its title (`check_label`)."""
    return [(code, check_title(code, code)) for code in codes if check_code(code)]


def utilisation_figures() -> dict[str, float]:
    """Return the guide's mean GPU utilisation of mismatched and balanced nodes, in %."""
    return {"mismatched": UTILISATION_MISMATCHED * 100, "balanced": UTILISATION_BALANCED * 100}


def build_from_fields(fields: dict[str, object]) -> Build:
    """Return the engine build of stored build fields; RowErrors if a part left the catalog."""
    catalog, _ = snapshots()
    cells = {name: _cell(value) for name, value in fields.items()}
    return row_build(cells, catalog.everything)[0]


def _cell(value: object) -> str:
    if isinstance(value, list):
        return "+".join(str(v) for v in value)
    if isinstance(value, bool):
        return "true" if value else "false"
    return "" if value is None else str(value)


def build_from_query(query) -> Build:
    """Return the build named by query parameters (the configurator's permalink fields).

    Only what the binding needs is required (cpu, gpu, gpu_count); the rest defaults.
    """
    catalog, _ = snapshots()
    cells = {
        "cpu": query.get("cpu", ""),
        "cpu_count": query.get("cpu_count", "2"),
        "gpu": query.get("gpu", ""),
        "gpu_count": query.get("gpu_count", ""),
        "gpus_per_socket": query.get("gpus_per_socket", "").replace(" ", "+"),
        "memory_gb": query.get("memory_gb", "1"),
        "memory_ecc": query.get("memory_ecc", "true"),
        "psu_watts": query.get("psu_watts", "1"),
        "nvlink": query.get("nvlink", ""),
        "numa_binding": "true",
        "nics": query.get("nics", "0"),
        "platform": query.get("platform", ""),
    }
    return row_build(cells, catalog.everything)[0]


def recipe_list() -> list[dict[str, object]]:
    """Return each scenario recipe's build with its binding-script link parameters."""
    listed = []
    for recipe in recipe_builds():
        # The recipe's whole build, as the configurator's permalink names it: the script's
        # build is the recipe's (platform, memory and PSUs included), not a partial one.
        cells = {name: _cell(value) for name, value in recipe.fields.model_dump().items()}
        query = urlencode({name: value for name, value in cells.items() if value})
        listed.append({"recipe": recipe, "query": query})
    return listed


def probe_context(probe: NodeProbe) -> dict[str, object]:
    """Return what a probe's report page shows: facts, findings, verdict and balance."""
    facts, unreadable = stored_facts(probe.files)
    findings = [
        {**finding, "title": finding_title(finding), "text": finding_text(finding)}
        for finding in probe.findings
    ]
    gpu_sockets = facts.gpu_sockets() if facts else []
    gpus = []
    for i, gpu in enumerate(facts.gpus if facts else ()):
        sockets = gpu_sockets[i] if i < len(gpu_sockets) else set()
        gpus.append({"gpu": gpu, "sockets": ", ".join(str(s) for s in sorted(sockets)) or "—"})
    return {
        "probe": probe,
        "facts": facts,
        "gpus": gpus,
        "findings": findings,
        "severe": [f for f in findings if f.get("severe")],
        "failing": [(check_code(code), check_title(code, code)) for code in probe.codes],
        "can_bind": bool(facts and facts.numa),
        "unreadable": unreadable,
        "problems": [] if unreadable else probe_problems(probe, facts),
        "unknown": unknown_lines((probe.facts or {}).get("unknown", [])),
        "comparison": comparison_lines(probe.comparison or []),
        "target_heading": target_heading(probe),
        "comparison_summary": comparison_summary(probe.comparison or []),
        "nccl_chart": nccl_curve(facts.nccl.curve, NCCL_PLATEAU_SIZES)
        if facts and facts.nccl and facts.nccl.curve
        else None,
    }


def probe_problems(probe: NodeProbe, facts=None) -> list[str]:
    """Say why a probed node has no rules verdict (which part the catalog lacks); [] if it has."""
    if probe.build:
        return []
    if facts is None:
        facts, unreadable = stored_facts(probe.files)
        if facts is None:
            return [unreadable]
    return probe_report(facts, psu_watts=probe.psu_watts, numa_binding=probe.numa_binding).problems


def _deliveries() -> dict[tuple[str, int, str], list[NodeProbe]]:
    """Return the probes checked against a target (a quote, a saved build or a fleet row), by
    (target, node), oldest first: a node is its host name (the archive's name when it has
    none)."""
    deliveries: dict[tuple[str, int, str], list[NodeProbe]] = {}
    probes = NodeProbe.objects.exclude(
        quote__isnull=True, saved_build__isnull=True, audited_node__isnull=True
    ).only(
        "hostname", "file_name", "quote_id", "saved_build_id", "audited_node_id", "comparison",
        "created_at",
    )  # fmt: skip
    for probe in probes.order_by("created_at", "pk"):
        target = (
            ("quote", probe.quote_id) if probe.quote_id
            else ("saved_build", probe.saved_build_id) if probe.saved_build_id
            else ("audited_node", probe.audited_node_id)
        )  # fmt: skip
        key = (*target, probe.hostname or probe.file_name)
        deliveries.setdefault(key, []).append(probe)
    return deliveries


def delivery_rollup() -> dict[str, object]:
    """Return the delivered nodes against their targets (quotes, saved builds, fleet rows),
    each by its latest probe: how many are
    as quoted, how many deviate, and what the deviations cost a month (the engine's losses)."""
    latest = [comparison_summary(probes[-1].comparison) for probes in _deliveries().values()]
    as_quoted = sum(1 for summary in latest if summary["as_quoted"])
    return {
        "nodes": len(latest),
        "as_quoted": as_quoted,
        "deviating": len(latest) - as_quoted,
        "monthly_cost": round(sum(summary["monthly_cost"] for summary in latest), 2),
    }


def monthly_figures(months: int = 12) -> list[dict[str, object]]:
    """Return the last months' figures, newest first: audits, nodes, verdicts, pitfalls, probes,
    quotes and leads.

    A month counts the audits finished in it (nodes audited twice count twice), the node
    probes uploaded in it, the quotes created in it and those issued and accepted in it (with
    the monthly price of the issued ones), the nodes first probed against their quote in it
    (`deliveries`) and those of them accepted first time (no FAIL line on that first probe),
    and the leads received in it; the average balance
    is weighted by nodes, the quotes' average balance is that of their frozen evaluations.
    Conversion is the share of the month's leads (a customer's request for a recommended or
    configured build) that presales turned into a quote.
    """
    figures: dict[str, dict[str, object]] = {}

    def month_of(moment) -> dict[str, object]:
        key = timezone.localtime(moment).strftime("%Y-%m")
        return figures.setdefault(key, {
            "month": key, "audits": 0, "nodes": 0, "accepted": 0, "rejected": 0,
            "unbalanced": 0, "balance_sum": 0.0, "counter": Counter(), "probes": 0,
            "probes_rejected": 0, "quotes": 0, "quotes_issued": 0, "quotes_accepted": 0,
            "issued_monthly_cny": Decimal(0), "quote_balance_sum": 0.0, "leads": 0,
            "leads_quoted": 0, "deliveries": 0, "deliveries_first_time": 0,
        })  # fmt: skip

    done = FleetAudit.objects.filter(status=FleetAudit.Status.DONE).defer("source")
    for audit in done:
        month, summary = month_of(audit.finished_at or audit.created_at), audit.summary
        evaluated = summary.get("accepted", 0) + summary.get("rejected", 0)
        month["audits"] += 1
        month["nodes"] += evaluated
        month["accepted"] += summary.get("accepted", 0)
        month["rejected"] += summary.get("rejected", 0)
        month["unbalanced"] += summary.get("unbalanced", 0)
        month["balance_sum"] += (summary.get("average_balance") or 0) * evaluated
        month["counter"].update(summary.get("codes", {}))
    for probe in NodeProbe.objects.only("created_at", "verdict"):
        month = month_of(probe.created_at)
        month["probes"] += 1
        month["probes_rejected"] += probe.verdict == "reject"
    for probes in _deliveries().values():  # a delivery counts in the month of its first probe
        month = month_of(probes[0].created_at)
        month["deliveries"] += 1
        month["deliveries_first_time"] += comparison_summary(probes[0].comparison)["as_quoted"]
    for created_at, evaluation in Quote.objects.values_list("created_at", "evaluation"):
        month = month_of(created_at)
        month["quotes"] += 1
        month["quote_balance_sum"] += float(((evaluation or {}).get("balance") or {}).get(
            "overall") or 0)  # fmt: skip
    for created_at, status in Lead.objects.values_list("created_at", "status"):
        month = month_of(created_at)
        month["leads"] += 1
        month["leads_quoted"] += status == Lead.Status.QUOTED
    events = QuoteEvent.objects.filter(action__in=("issue", "accept")).select_related("quote")
    for event in events.only("action", "at", "quote__monthly_price"):
        month = month_of(event.at)
        if event.action == "issue":
            month["quotes_issued"] += 1
            month["issued_monthly_cny"] += event.quote.monthly_price
        else:
            month["quotes_accepted"] += 1
    listed = []
    for key in sorted(figures, reverse=True)[:months]:
        month = figures[key]
        nodes = month["nodes"]
        month["share_rejected"] = month["rejected"] / nodes if nodes else 0.0
        month["share_unbalanced"] = month["unbalanced"] / nodes if nodes else 0.0
        month["average_balance"] = round(month["balance_sum"] / nodes, 1) if nodes else None
        month["codes"] = [
            (code, count, count / nodes if nodes else 0.0)
            for code, count in month.pop("counter").most_common()
        ]
        del month["balance_sum"]
        quotes, quote_balance = month["quotes"], month.pop("quote_balance_sum")
        month["quotes_average_balance"] = round(quote_balance / quotes, 1) if quotes else None
        month["conversion"] = month["leads_quoted"] / month["leads"] if month["leads"] else None
        listed.append(month)
    return listed


def monthly_charts(months: list[dict[str, object]]) -> dict[str, object]:
    """Return the monthly report's charts: nodes audited, share rejected, average balance,
    leads and quotes, conversion."""
    oldest_first = list(reversed(months))
    return {
        "leads": bars([(m["month"], m["leads"], str(m["leads"]), "neutral") for m in oldest_first]),
        "quotes": bars(
            [(m["month"], m["quotes"], str(m["quotes"]), "neutral") for m in oldest_first]
        ),
        "conversion": bars(
            [
                (
                    m["month"],
                    m["conversion"] or 0,
                    "—" if m["conversion"] is None else f"{m['conversion']:.0%}",
                    "good",
                )
                for m in oldest_first
            ]
        ),
        "nodes": bars([(m["month"], m["nodes"], str(m["nodes"]), "neutral") for m in oldest_first]),
        "rejected": bars(
            [
                (m["month"], m["share_rejected"], f"{m['share_rejected']:.1%}", "bad")
                for m in oldest_first
            ]
        ),
        "balance": bars(
            [
                (
                    m["month"],
                    m["average_balance"] or 0,
                    str(m["average_balance"] or "—"),
                    "good" if (m["average_balance"] or 0) >= 85 else "bad",
                )
                for m in oldest_first
            ]
        ),
    }
