"""Long catalog sheets: checked and imported by a background task, with progress.

A sheet longer than `CATALOG_IMPORT_INLINE_ROWS` rows would outlast a web request (about
2–5 ms a row: every row is validated with its constraints and written with its history).
The admin hands it to `import_job_start`, which stores it as an `ImportJob` and enqueues
`import_job_run` on Django's tasks API (`manage.py db_worker` runs it). The task checks the
rows in chunks, counting `rows_checked` as it goes; only when every row passes does it write
the whole sheet and the job's outcome in one transaction. A sheet with any bad row writes
nothing and keeps the first errors by row and column. A sheet its reader refuses (over the
XLSX limits of catalog.spreadsheets, say) is refused with the reason before any row is
checked. A job whose worker stopped is taken up again from the start, or failed after the
last attempt (configurator.jobs).
"""

import logging

import tablib
from django.apps import apps
from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.tasks import TaskContext, task
from django.utils import timezone

from catalog.kinds import RESOURCE_OF
from catalog.models import ImportJob
from catalog.spreadsheets import FORMATS, SheetRefused
from configurator.jobs.services import job_attempt_holds, job_attempt_start
from configurator.middleware import DATABASE_FAULTS

CHUNK_ROWS = 500
ERRORS_KEPT = 100

logger = logging.getLogger(__name__)


def import_job_start(
    *, model: type, file_name: str, file_format: str, data: bytes, rows: int,
    user: AbstractBaseUser | None,
) -> ImportJob:  # fmt: skip
    """Store a sheet and enqueue its import once the job is committed."""
    job = ImportJob.objects.create(
        model=model._meta.label_lower,
        file_name=file_name[:255],
        file_format=file_format,
        data=data,
        rows_total=rows,
        created_by=user if user and user.is_authenticated else None,
    )
    transaction.on_commit(lambda: import_job_run.enqueue(job.pk))
    return job


@task(takes_context=True)
def import_job_run(context: TaskContext, job_id: int) -> str:
    """Check every row of a stored sheet, then import it all or nothing; return the status."""
    job = ImportJob.objects.get(pk=job_id)
    if not job.running:  # an earlier attempt finished it; its worker stopped before saying so
        return job.status
    attempt = job_attempt_start(job=job, context=context)
    try:
        _run(job, attempt)
    except DATABASE_FAULTS:
        raise  # not the sheet's fault: the worker takes it up again (configurator.jobs)
    except Exception:
        logger.exception("sheet import %s failed", job_id)
        _finish(job, attempt, status=ImportJob.Status.FAILED)
    return job.status


def _run(job: ImportJob, attempt: int) -> None:
    try:
        dataset = FORMATS[job.file_format]().create_dataset(bytes(job.data))
    except SheetRefused as error:
        _finish(job, attempt, **_refused([{"row": "", "column": "", "message": str(error)}]))
        return
    resource = RESOURCE_OF[apps.get_model(job.model)]()
    _progress(job, status=ImportJob.Status.CHECKING, rows_total=len(dataset), rows_checked=0)
    errors: list[dict[str, object]] = []
    for start in range(0, len(dataset), CHUNK_ROWS):
        chunk = tablib.Dataset(*dataset[start : start + CHUNK_ROWS], headers=dataset.headers)
        resource.row_offset = start
        result = resource.import_data(
            chunk, dry_run=True, use_transactions=True, rollback_on_validation_errors=True
        )
        errors.extend(_errors(result, offset=start))
        _progress(job, rows_checked=min(start + CHUNK_ROWS, len(dataset)))
    if errors:
        _finish(job, attempt, **_refused(errors))
        return
    _progress(job, status=ImportJob.Status.WRITING)
    writer = RESOURCE_OF[apps.get_model(job.model)]()
    # Every row passed full_clean above; the database still holds its own constraints.
    writer.full_clean_rows = False
    # The rows and the job's outcome commit together: a worker that dies in between leaves
    # neither, and the attempt that takes the job up again finds the catalog as it was.
    with transaction.atomic():
        if not job_attempt_holds(job=job, attempt=attempt):
            job.refresh_from_db()
            return
        result = writer.import_data(
            dataset, dry_run=False, use_transactions=True, rollback_on_validation_errors=True
        )
        errors = _errors(result, offset=0)
        if errors:  # the catalog changed between the check and the write; nothing was kept
            _finish(job, attempt, **_refused(errors))
            return
        totals = {key: value for key, value in result.totals.items() if value}
        _finish(job, attempt, status=ImportJob.Status.DONE, totals=totals)


def _refused(errors: list[dict[str, object]]) -> dict[str, object]:
    return {
        "status": ImportJob.Status.REFUSED,
        "error_count": len({error["row"] for error in errors}),
        "errors": errors[:ERRORS_KEPT],
    }


def _finish(job: ImportJob, attempt: int, **outcome) -> None:
    """Save a job's outcome if this attempt still holds the job (a later one may, instead)."""
    with transaction.atomic():
        if job_attempt_holds(job=job, attempt=attempt):
            _progress(job, finished_at=timezone.now(), **outcome)
        else:
            job.refresh_from_db()


def _progress(job: ImportJob, **changes) -> None:
    """Save progress at once, outside any import transaction, so the admin can show it."""
    for name, value in changes.items():
        setattr(job, name, value)
    job.save(update_fields=list(changes))


def _errors(result, *, offset: int) -> list[dict[str, object]]:
    """Return a result's errors as {"row", "column", "message"}, rows counted in the sheet."""
    found: list[dict[str, object]] = []
    for row in result.invalid_rows:
        for column, messages in row.error_dict.items():
            for message in messages:
                found.append({"row": row.number + offset, "column": column, "message": message})
    for number, row_errors in result.row_errors():
        for error in row_errors:
            found.append({"row": number + offset, "column": "", "message": str(error.error)})
    return sorted(found, key=lambda error: error["row"])
