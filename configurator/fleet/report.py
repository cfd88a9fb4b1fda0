"""Run a fleet audit over a sheet, streaming its results: the headless side of the audit."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import BinaryIO

from catalog.spreadsheets import XLSX_LIMITS, XlsxLimits
from configurator import selectors
from configurator.fleet.audit import AuditedChunk, FleetAuditor
from configurator.fleet.sheet import open_sheet


@dataclass
class Timings:
    """Seconds spent reading cells, evaluating builds and writing results."""

    reading: float = 0.0
    evaluating: float = 0.0
    writing: float = 0.0

    def as_dict(self) -> dict[str, float]:
        return {"reading": self.reading, "evaluating": self.evaluating, "writing": self.writing}


def auditor_for(fields: tuple[str, ...], profile: str | None = None) -> FleetAuditor:
    """Return an auditor on the current catalog and the current version of a rule profile."""
    catalog, rules = selectors.snapshots()
    version = rules.current[profile or rules.default]
    return FleetAuditor(catalog.everything, version.params, fields, version)


def audit_stream(
    stream: BinaryIO,
    *,
    profile: str | None = None,
    on_progress: Callable[[float, int], None] | None = None,
    timings: Timings | None = None,
    limits: XlsxLimits = XLSX_LIMITS,
) -> tuple[FleetAuditor, Iterator[AuditedChunk]]:
    """Open a sheet and return its auditor and an iterator of audited chunks.

    Raises SheetError at once when the file cannot be read; later chunks may raise it too.
    An XLSX is read within `limits` (the web's unless the caller says otherwise).
    """
    timings = timings or Timings()
    started = time.perf_counter()
    sheet = open_sheet(stream, limits=limits)  # reads the first chunk
    timings.reading += time.perf_counter() - started
    auditor = auditor_for(sheet.fields, profile)

    def chunks() -> Iterator[AuditedChunk]:
        source = sheet.chunks()
        done = 0
        while True:
            started = time.perf_counter()
            frame = next(source, None)
            timings.reading += time.perf_counter() - started
            if frame is None:
                return
            started = time.perf_counter()
            chunk = auditor.audit(frame)
            timings.evaluating += time.perf_counter() - started
            done += len(frame)
            if on_progress:
                on_progress(sheet.progress(), done)
            yield chunk

    return auditor, chunks()
