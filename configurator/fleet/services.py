"""Fleet actions: run an uploaded sheet's audit and keep its results; read a node's probe."""

from __future__ import annotations

import io
from dataclasses import dataclass

from django.contrib.auth.models import AbstractBaseUser
from django.core.exceptions import ValidationError
from django.core.files.uploadedfile import UploadedFile
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from pydantic import ValidationError as PydanticValidationError

from configurator.engine.rule_validation import parameter_errors
from configurator.engine.rules import RuleParams
from configurator.fleet.audit import ERROR
from configurator.fleet.impact import rule_change_impact
from configurator.fleet.manifest import compare, expected_manifest, priced
from configurator.fleet.models import AuditedBuild, AuditedNode, FleetAudit, NodeProbe
from configurator.fleet.probe.archive import ArchiveError, read_archive
from configurator.fleet.probe.facts import node_facts
from configurator.fleet.probe.files import HOSTNAME
from configurator.fleet.probe.parsers import ProbeParseError
from configurator.fleet.probe_report import ProbeReport, probe_error_text, probe_report
from configurator.fleet.report import audit_stream
from configurator.fleet.sheet import SheetError, open_sheet
from configurator.inputs import InputErrors, build_from_input, resolved_workload
from configurator.jobs.services import job_attempt_holds
from configurator.models import RuleSetVersion
from configurator.quotes.models import LeadBuild, Quote
from configurator.quotes.selectors import quote_for
from configurator.schemas import BuildIn, WorkloadIn
from configurator.selectors import snapshots
from configurator.services import Evaluated, StaleVersion, build_evaluate

# Uploads through the web page (docs/fleet.md "Limits"); the command line has none.
MAX_UPLOAD_BYTES = 20 * 1024 * 1024
MAX_UPLOAD_ROWS = 200_000
PROBLEMS_KEPT = 500  # problems listed on the page; the count says how many there were


@transaction.atomic
def fleet_audit_create(
    *, upload: UploadedFile, user: AbstractBaseUser, language: str
) -> FleetAudit:
    """Check an uploaded sheet's format, store it and queue its audit; raise ValidationError."""
    if upload.size > MAX_UPLOAD_BYTES:
        raise ValidationError(
            _("The file is %(size)s MB; the limit is %(limit)s MB.")
            % {"size": round(upload.size / 2**20, 1), "limit": MAX_UPLOAD_BYTES // 2**20}
        )
    content = upload.read()
    try:
        open_sheet(io.BytesIO(content))  # headers, encoding and format, at once
    except SheetError as error:
        raise ValidationError(str(error)) from error
    audit = FleetAudit.objects.create(
        file_name=upload.name[:255], source=content, created_by=user, language=language
    )
    from configurator.fleet.tasks import fleet_audit_task  # tasks.py imports this module

    fleet_audit_task.enqueue(audit.pk)  # the audit and its task row commit together
    return audit


def _problems(auditor, chunk) -> list[dict[str, object]]:
    found = []
    for row, index in zip(chunk.rows, chunk.result_index, strict=True):
        result = auditor.results[index]
        if result.verdict == ERROR:
            for column, messages in result.errors.items():
                found.extend({"row": int(row), "column": column, "message": m} for m in messages)
    return found


def fleet_audit_run(*, audit: FleetAudit, attempt: int | None = None) -> FleetAudit:
    """Audit a stored sheet; save every node, or none and the problems by row and column.

    `attempt` is the task's attempt (configurator.jobs): results are written only while it
    still holds the audit, so a worker taken for dead that finishes after all writes nothing.
    """
    FleetAudit.objects.filter(pk=audit.pk).update(status=FleetAudit.Status.RUNNING)
    problems: list[dict[str, object]] = []
    node_ids, rows, indexes = [], [], []
    rows_read = 0

    def progress(share: float, done: int) -> None:
        FleetAudit.objects.filter(pk=audit.pk).update(progress=share, rows_read=done)

    try:
        auditor, chunks = audit_stream(io.BytesIO(bytes(audit.source)), on_progress=progress)
        for chunk in chunks:
            rows_read += len(chunk.rows)
            if rows_read > MAX_UPLOAD_ROWS:
                raise SheetError(
                    _("The sheet has more than %(limit)s rows: split it, or use audit_fleet.")
                    % {"limit": f"{MAX_UPLOAD_ROWS:,}"}
                )
            problems.extend(_problems(auditor, chunk))
            node_ids.extend(chunk.node_ids)
            rows.extend(int(row) for row in chunk.rows)
            indexes.extend(int(index) for index in chunk.result_index)
    except SheetError as error:
        problems = [{"row": None, "column": None, "message": str(error)}]
    if problems:
        with transaction.atomic():
            if not _holds(audit, attempt):
                return FleetAudit.objects.get(pk=audit.pk)
            return _finish(audit, FleetAudit.Status.INVALID, problems=problems, rows_read=rows_read)
    with transaction.atomic():
        if not _holds(audit, attempt):
            return FleetAudit.objects.get(pk=audit.pk)
        # Several spellings of one build share one result, stored as one AuditedBuild.
        counts: dict[int, int] = {}
        for index in indexes:
            key = id(auditor.results[index])
            counts[key] = counts.get(key, 0) + 1
        by_result: dict[int, AuditedBuild] = {}
        for index in dict.fromkeys(indexes):
            result = auditor.results[index]
            if id(result) not in by_result:
                by_result[id(result)] = AuditedBuild.objects.create(
                    audit=audit,
                    build=result.build,
                    verdict=result.verdict,
                    codes=list(result.codes),
                    balance=result.balance,
                    overall=result.balance["overall"],
                    node_count=counts[id(result)],
                )
        saved = {index: by_result[id(auditor.results[index])] for index in set(indexes)}
        AuditedNode.objects.bulk_create(
            (
                AuditedNode(audit=audit, build=saved[index], row=row, node_id=node_id)
                for node_id, row, index in zip(node_ids, rows, indexes, strict=True)
            ),
            batch_size=5000,
        )
        return _finish(
            audit,
            FleetAudit.Status.DONE,
            summary=auditor.summary.as_dict(),
            rows_read=rows_read,
            profile=auditor.version.profile,
            rule_version=auditor.version.version,
        )


def _holds(audit: FleetAudit, attempt: int | None) -> bool:
    return attempt is None or job_attempt_holds(job=audit, attempt=attempt)


def _finish(audit: FleetAudit, status: str, *, problems=None, **values) -> FleetAudit:
    total = len(problems or [])
    audit.status = status
    audit.problems = (problems or [])[:PROBLEMS_KEPT]
    if total > PROBLEMS_KEPT:
        audit.summary = {"problems": total}
    audit.progress = 1.0
    audit.source = b""  # the sheet's cells live on in the results, or nowhere
    audit.finished_at = timezone.now()
    for name, value in values.items():
        setattr(audit, name, value)
    audit.save()
    return audit


@dataclass(frozen=True)
class ProbeTarget:
    """What a probed node is checked against: a quote, a build saved to a lead, or a fleet
    audit's node (a "fleet row"). Exactly one is set."""

    quote: Quote | None = None
    saved_build: LeadBuild | None = None
    audited_node: AuditedNode | None = None

    @property
    def fields(self) -> dict[str, object]:
        """The NodeProbe fields that keep this target."""
        return {
            "quote": self.quote,
            "saved_build": self.saved_build,
            "audited_node": self.audited_node,
        }


# The form's and the API's fields that name a target; a fleet row is an audit and a node id.
TARGET_FIELDS = ("quote", "saved_build", "audit", "node")


def _target_error(field: str, message: str) -> ValidationError:
    return ValidationError({field: [ValidationError(message, code=field)]})


def _an_id(text: str) -> bool:
    """Whether `text` is a row's id: ASCII digits, few of them (int() takes "²" and 5,000
    digits badly)."""
    return text.isascii() and text.isdigit() and len(text) < 12


def probe_target(user: AbstractBaseUser, named: dict[str, str]) -> ProbeTarget | None:
    """Return what a probe is checked against, from the fields that name it (`TARGET_FIELDS`,
    each a string, empty when not given): None when none is named. A target that does not
    exist, that `user` may not read, or more than one named is a ValidationError by field."""
    given = {name: str(named.get(name) or "").strip()[:200] for name in TARGET_FIELDS}
    kinds = [k for k in ("quote", "saved_build") if given[k]]
    if given["audit"] or given["node"]:
        kinds.append("audit")
    if len(kinds) > 1:
        raise _target_error(
            kinds[1],
            _("Check the node against one thing: a quote, a saved build or a fleet row."),
        )
    if not kinds:
        return None
    if kinds == ["quote"]:
        quote = quote_for(user, given["quote"])
        if quote is None:
            raise _target_error(
                "quote", _("There is no quote %(number)s.") % {"number": given["quote"][:40]}
            )
        return ProbeTarget(quote=quote)
    if kinds == ["saved_build"]:
        saved = None
        if _an_id(given["saved_build"]) and user.has_perm("quotes.view_lead"):
            saved = LeadBuild.objects.select_related("lead").filter(
                pk=int(given["saved_build"])).first()  # fmt: skip
        if saved is None:
            raise _target_error(
                "saved_build",
                _("There is no saved build %(id)s.") % {"id": given["saved_build"][:40]},
            )
        return ProbeTarget(saved_build=saved)
    if not given["audit"]:
        raise _target_error("audit", _("Name the fleet audit the node is in."))
    if not given["node"]:
        raise _target_error(
            "node", _("Name the node as the fleet sheet names it (its first column).")
        )
    audit = None
    if _an_id(given["audit"]) and user.has_perm("fleet.view_fleetaudit"):
        audit = FleetAudit.objects.filter(pk=int(given["audit"])).first()
    if audit is None:
        raise _target_error(
            "audit", _("There is no fleet audit %(id)s.") % {"id": given["audit"][:40]}
        )
    node = None
    if "\x00" not in given["node"]:  # PostgreSQL refuses a NUL in a query: no node has one
        node = audit.nodes.select_related("build").filter(node_id=given["node"]).first()
    if node is None:
        raise _target_error(
            "node",
            _("Fleet audit %(id)s has no node %(node)s.")
            % {"id": audit.pk, "node": given["node"][:60]},
        )
    return ProbeTarget(audited_node=node)


def _built(build: dict[str, object], name: str):
    """Return a stored build (evaluate's shape) as the engine's build under today's catalog;
    ValidationError with code `name` when a part of it has left the catalog."""
    catalog, _rules = snapshots()
    values = {k: v for k, v in build.items() if k != "bom"}
    if "gpus_per_socket" in values and not values["gpus_per_socket"]:
        values["gpus_per_socket"] = None  # the page's "even split", as _build_in reads it
    try:
        return build_from_input(BuildIn(**values), catalog.everything)
    except (PydanticValidationError, InputErrors) as error:
        raise ValidationError(
            _("This build names a part the catalog no longer has."), code=name
        ) from error


def build_manifest(build: dict[str, object], rules: RuleParams | None, name: str) -> dict:
    """Return what a node delivered for a stored build should measure, under `rules` (today's
    when None)."""
    if rules is None:
        published = snapshots()[1]
        rules = published.current[published.default].params
    return expected_manifest(_built(build, name), rules)


def quote_manifest(quote: Quote) -> dict[str, object]:
    """Return what a node delivered for `quote` should measure: the manifest frozen with it,
    or for a quote written before manifests were, its frozen build under its frozen rules
    (ValidationError when a part of it has left the catalog)."""
    if quote.manifest:
        return quote.manifest
    return build_manifest(
        quote.build, RuleParams.from_mapping(quote.ruleset_version.parameters), "quote"
    )


def saved_build_manifest(saved: LeadBuild) -> dict[str, object]:
    """Return what a node delivered for a saved build should measure: the manifest written
    when it was saved, or for one saved before, its build under today's rules."""
    return saved.manifest or build_manifest(saved.build, None, "saved_build")


@dataclass(frozen=True)
class Expected:
    """A target's side of a comparison: its manifest, its monthly price, the checks its
    build already failed (a deviation costs only what the target did not already lose) and
    the rules the node is held to (`compare`'s shares: a quote's frozen rule set version,
    today's rules for a saved build or a fleet row)."""

    manifest: dict[str, object]
    monthly_price: float | None
    failed: frozenset[str]
    rules: RuleParams


def _evaluated(build: dict[str, object], name: str, workload: dict | None = None) -> Evaluated:
    """Return a stored build (and the workload saved with it) judged by today's rules."""
    resolved = None
    if workload:
        try:
            resolved = resolved_workload(WorkloadIn(**workload), snapshots()[0].everything)
        except (PydanticValidationError, InputErrors) as error:
            raise ValidationError(
                _("This build's workload can no longer be read."), code=name
            ) from error
    return build_evaluate(build=_built(build, name), workload=resolved)


def target_expected(target: ProbeTarget) -> Expected:
    """Return what `target` expects of a node: the one place each target kind is read."""
    if target.quote is not None:
        quote = target.quote
        evaluation = quote.evaluation or {}
        failed = {p["code"] for p in evaluation.get("pitfalls", [])} | {
            c["code"] for c in evaluation.get("checks", []) if c.get("status") == "fail"
        }
        frozen = RuleParams.from_mapping(quote.ruleset_version.parameters)
        return Expected(
            quote_manifest(quote), float(quote.monthly_price), frozenset(failed), frozen
        )
    if target.saved_build is not None:
        saved = target.saved_build
        evaluated = _evaluated(saved.build, "saved_build", saved.workload)
        return Expected(
            saved_build_manifest(saved),
            float(saved.monthly_price),
            frozenset(evaluated.evaluation.failed_codes),
            evaluated.ruleset.params,
        )
    build = target.audited_node.build.build
    evaluated = _evaluated(build, "audit")
    return Expected(
        expected_manifest(evaluated.build, evaluated.ruleset.params),
        evaluated.monthly_price,  # the configurator's one bill (engine.pricing.build_bill)
        frozenset(evaluated.evaluation.failed_codes),
        evaluated.ruleset.params,
    )


def target_comparison(report: ProbeReport, target: ProbeTarget) -> list[dict[str, object]]:
    """Return a probed node against its target, line by line, each deviation priced where the
    engine prices it (the node's pitfall losses at the target's monthly price)."""
    expected = target_expected(target)
    lines = compare(expected.manifest, report.out, expected.rules)
    losses = None
    if report.evaluation is not None and expected.monthly_price is not None:
        losses = {
            code: loss
            for code, loss in report.evaluation.monthly_losses(expected.monthly_price).items()
            if code in report.codes
        }
    return priced(lines, losses, set(expected.failed))


def node_probe_create(
    *,
    content: bytes,
    file_name: str,
    psu_watts: int,
    numa_binding: bool,
    user: AbstractBaseUser,
    target: ProbeTarget | None = None,
) -> NodeProbe:
    """Read a probe archive into a node's report and keep it; raise ValidationError.

    With a target (`probe_target`), the node is compared with its build (`comparison`)."""
    try:
        files = read_archive(content)
        facts = node_facts(files)
    except ArchiveError as error:
        raise ValidationError(str(error)) from error
    except ProbeParseError as error:  # the only error a parser raises, by file and line
        raise ValidationError(
            _("A command's output in the archive cannot be read: %(error)s")
            % {"error": probe_error_text(error)}
        ) from error
    report = probe_report(facts, psu_watts=psu_watts, numa_binding=numa_binding)
    comparison = target_comparison(report, target) if target is not None else []
    return NodeProbe.objects.create(
        hostname=" ".join(files.get(HOSTNAME, "").split())[:200],
        file_name=file_name[:255],
        files={name: text for name, text in files.items() if name != HOSTNAME},
        psu_watts=psu_watts,
        numa_binding=numa_binding,
        build=report.fields,
        verdict=report.verdict,
        codes=report.codes,
        balance=report.balance,
        findings=report.findings,
        facts={"facts": report.out, "missing": list(facts.missing), "unknown": report.unknown},
        **(target or ProbeTarget()).fields,
        comparison=comparison,
        profile=report.version.profile,
        rule_version=report.version.version,
        created_by=user,
    )


def ruleset_change_preview(
    *, version: RuleSetVersion, changes: dict[str, float], base_version: int | None = None
) -> dict:
    """Return what publishing `changes` on top of `version` would change; publish nothing.

    `version` is the profile's current version; a `base_version` other than it is stale, as
    for a real edit (configurator.services.StaleVersion).
    """
    if base_version is not None and base_version != version.version:
        raise StaleVersion(version, base_version)
    current = RuleParams.from_mapping(version.parameters)
    errors = parameter_errors(changes, current)
    if errors:
        raise ValidationError(errors)
    proposed = RuleParams.from_mapping({**current.as_dict(), **changes})
    return {
        "dry_run": True,
        "version": version.version,
        "profile": version.profile.slug,
        "parameters": proposed.as_dict(),
        "impact": rule_change_impact(current=current, proposed=proposed).as_dict(),
    }
