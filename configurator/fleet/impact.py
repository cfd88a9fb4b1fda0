"""What a rule change would do, before it is published.

For proposed parameters, every build the product knows is evaluated twice, under the current
version and under the proposal: the audited fleet (the distinct builds of the latest finished
audit, weighted by their nodes), the probed nodes (each host's latest probe), the scenario
recipes, and the open quotes (draft, submitted, approved or returned: not yet issued, so an
architect's next approval or issue evaluates them again; each with its workload). A build
changes when its verdict or its balance band changes; the band is the side of the balance
threshold it falls on ("balanced" or "unbalanced"), which a changed threshold or a changed
sub-score can move. Issued quotes are frozen and never change.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from pydantic import ValidationError

from configurator import selectors
from configurator.engine.evaluate import Evaluation, evaluate
from configurator.engine.rules import RuleParams
from configurator.fleet.models import AuditedBuild, FleetAudit, NodeProbe
from configurator.fleet.probe_report import probe_report, stored_facts
from configurator.fleet.recipes import recipe_builds
from configurator.fleet.rows import RowErrors
from configurator.fleet.selectors import build_from_fields
from configurator.inputs import InputErrors, build_from_input, workload_from_input
from configurator.quotes.models import Quote, Status
from configurator.schemas import BuildIn, WorkloadIn

KINDS = ("node", "probe", "recipe", "quote")
# Quotes not yet issued: the rules still decide what happens to them.
OPEN_QUOTES = (Status.DRAFT, Status.SUBMITTED, Status.APPROVED, Status.RETURNED)

CHANGES_LISTED = 50


def band(evaluation: Evaluation) -> str:
    return "balanced" if evaluation.balance.balanced else "unbalanced"


@dataclass(frozen=True)
class Change:
    kind: str  # node, probe, recipe or quote
    label: str
    count: int  # nodes sharing the build (1 for a probe or a recipe)
    verdict_before: str
    verdict_after: str
    band_before: str
    band_after: str
    score_before: float
    score_after: float
    codes_after: tuple[str, ...]

    def as_dict(self) -> dict[str, object]:
        return {
            "kind": self.kind,
            "label": self.label,
            "count": self.count,
            "verdict": [self.verdict_before, self.verdict_after],
            "band": [self.band_before, self.band_after],
            "balance": [self.score_before, self.score_after],
            "codes_after": list(self.codes_after),
        }


@dataclass
class Impact:
    """Counts by kind of what was checked and what would change, and the changes themselves."""

    checked: dict[str, int] = field(default_factory=lambda: dict.fromkeys(KINDS, 0))
    changed: dict[str, int] = field(default_factory=lambda: dict.fromkeys(KINDS, 0))
    newly_rejected: dict[str, int] = field(default_factory=lambda: dict.fromkeys(KINDS, 0))
    newly_accepted: dict[str, int] = field(default_factory=lambda: dict.fromkeys(KINDS, 0))
    changes: list[Change] = field(default_factory=list)
    audit_id: int | None = None

    def add(self, kind: str, label: str, count: int, before: Evaluation, after: Evaluation):
        self.checked[kind] += count
        if before.verdict == after.verdict and band(before) == band(after):
            return
        self.changed[kind] += count
        if after.verdict == "reject" and before.verdict == "accept":
            self.newly_rejected[kind] += count
        if after.verdict == "accept" and before.verdict == "reject":
            self.newly_accepted[kind] += count
        self.changes.append(
            Change(
                kind, label, count, str(before.verdict), str(after.verdict), band(before),
                band(after), before.balance.overall, after.balance.overall, after.failed_codes,
            )
        )  # fmt: skip

    def as_dict(self) -> dict[str, object]:
        ordered = sorted(self.changes, key=lambda c: (-c.count, c.kind, c.label))
        return {
            "checked": self.checked,
            "changed": self.changed,
            "newly_rejected": self.newly_rejected,
            "newly_accepted": self.newly_accepted,
            "audit": self.audit_id,
            "changes": [change.as_dict() for change in ordered[:CHANGES_LISTED]],
        }


def rule_change_impact(*, current: RuleParams, proposed: RuleParams) -> Impact:
    """Return which audited nodes, probed nodes and recipes the proposal would change."""
    impact = Impact()
    catalog, _ = selectors.snapshots()
    audit = FleetAudit.objects.filter(status=FleetAudit.Status.DONE).order_by("-created_at")
    audit = audit.defer("source").first()
    if audit is not None:
        impact.audit_id = audit.pk
        for row in AuditedBuild.objects.filter(audit=audit):
            try:
                built = build_from_fields(row.build)
            except RowErrors:
                continue  # a part left the catalog since the audit
            label = (f"{built.cpu_count} × {built.cpu.slug}, {built.gpu_count} × {built.gpu.slug}, "
                     f"{built.memory_gb} GB, {built.psu_watts} W")  # fmt: skip
            impact.add("node", label, row.node_count, evaluate(built, current),
                       evaluate(built, proposed))  # fmt: skip
    latest: dict[str, NodeProbe] = {}
    for probe in NodeProbe.objects.filter(build__isnull=False).order_by("created_at"):
        latest[probe.hostname or f"#{probe.pk}"] = probe
    for name, probe in sorted(latest.items()):
        # From the probe's own files: the build keeps what only a probe sees (GPUs across
        # sockets, the slots' PCIe generation).
        facts, _unreadable = stored_facts(probe.files)
        if facts is None:
            continue  # stored before a parser's budget refused one of its files
        report = probe_report(facts, psu_watts=probe.psu_watts, numa_binding=probe.numa_binding)
        if report.build is not None:
            impact.add("probe", name, 1, evaluate(report.build, current),
                       evaluate(report.build, proposed))  # fmt: skip
    for quote in Quote.objects.filter(status__in=OPEN_QUOTES).order_by("number"):
        try:
            build_data = {k: v for k, v in quote.build.items() if k != "bom"}
            built = build_from_input(BuildIn(**build_data), catalog.everything)
            workload = workload_from_input(WorkloadIn(**quote.workload)) if quote.workload else None
        except (ValidationError, InputErrors):
            continue  # a part left the catalog since the quote was written
        label = f"{quote.number} · {quote.customer_company or quote.customer_name}"
        impact.add("quote", label, 1, evaluate(built, current, workload),
                   evaluate(built, proposed, workload))  # fmt: skip
    for recipe in recipe_builds(rules=current):
        impact.add("recipe", recipe.label, 1, evaluate(recipe.build, current),
                   evaluate(recipe.build, proposed))  # fmt: skip
    return impact
