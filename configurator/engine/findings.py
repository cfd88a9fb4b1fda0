"""What a check reports: a `Finding`, with the numbers behind it.

A finding's title and measured loss come from the catalogue entry its code is registered
with (`configurator.engine.registry`); checks fill in only the numbers and the fix. A fix that
is a build change carries it as `change` (`configurator.engine.changes`), and its text is
written from that change's values; a fix that is a part only the catalog can pick says which
fields it picks (`picks`).
Status `warn` is reported with its detail and fix but never rejects a build on its own. A
problem two checks see is counted by the one that owns it: the other reports it `covered`
(status `na`, `covered_by` the owner's code).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from enum import StrEnum

from configurator.engine.changes import Change
from configurator.engine.messages import Message
from configurator.engine.registry import REGISTRY, CheckKind


class Status(StrEnum):
    PASS = "pass"
    FAIL = "fail"
    WARN = "warn"  # reported with detail and fix; never rejects on its own
    NA = "na"


# Not `frozen`: freezing made each finding cost four times as much to make (1.3 against
# 0.3 µs; an evaluation makes seventeen, /recommend thousands). Nothing changes a finding once
# a check has made it; the test suite holds every finding to that (`tests/conftest.py`).
@dataclass(slots=True)
class Finding:
    """One check's outcome, with the numbers behind it and, when it fails, the loss and fix."""

    code: str
    status: Status
    title: str
    detail: str
    impact: str = ""
    fix: str = ""
    numbers: dict[str, float | int] = field(default_factory=dict)
    change: Change | None = None  # the build change the fix describes, when it is one
    # The fields whose catalog parts or steps the fix asks for, when it names none itself (a
    # Gen4 platform, a high-clock CPU): the configurator tries those (`web/fixes.py`).
    picks: tuple[str, ...] = ()
    # The check that owns this finding's problem and reports it (`covered`): one problem is
    # counted once, by its owner; empty for every other finding.
    covered_by: str = ""

    @property
    def failed(self) -> bool:
        return self.status is Status.FAIL

    @property
    def warned(self) -> bool:
        return self.status is Status.WARN

    @property
    def is_pitfall(self) -> bool:
        return REGISTRY.get(self.code).kind is CheckKind.PITFALL

    def as_dict(self, translate: Callable[[str], str] = str) -> dict[str, object]:
        """Return the API's shape of a check, its texts rendered by `translate` (English)."""
        title, detail, fix = self.title, self.detail, self.fix
        return {
            "code": self.code,
            "status": str(self.status),
            "title": str(title),
            "title_translated": translate(title),
            "detail": translate(detail),
            "impact": translate(self.impact),
            "fix": translate(fix),
            "numbers": dict(self.numbers),
            "fix_change": self.change.as_dict() if self.change else None,
            "covered_by": self.covered_by or None,
            "rule_title": str(REGISTRY.entry(self.code).title),
            "title_message": _message_dict(title),
            "detail_message": _message_dict(detail),
            "fix_message": _message_dict(fix),
        }

    def as_pitfall_dict(self, translate: Callable[[str], str] = str) -> dict[str, str]:
        """Return the API's shape of a triggered pitfall."""
        return {
            "code": self.code,
            "title": str(self.title),
            "title_translated": translate(self.title),
            "detail": translate(self.detail),
            "impact": translate(self.impact),
            "fix": translate(self.fix),
        }


def _message_dict(text: str) -> dict[str, object]:
    # A text not yet written as a message is its own id, with no parameters.
    if isinstance(text, Message):
        return text.as_dict()
    return {"message_id": text, "params": {}}


def passed(code: str, detail: str, numbers: dict[str, float | int] | None = None) -> Finding:
    """Report a check that the build meets."""
    entry = REGISTRY.entry(code)
    return Finding(code, Status.PASS, entry.title_for(Status.PASS), detail, numbers=numbers or {})


def failed(
    code: str,
    detail: str,
    fix: str,
    numbers: dict[str, float | int] | None = None,
    change: Change | None = None,
    picks: tuple[str, ...] = (),
    impact: str = "",
) -> Finding:
    """Report a broken rule with the guide's measured loss and a concrete fix (`change`: the
    build change that fix describes, when it is one; `picks`: the fields whose part it asks
    for, when it names none; `impact`: the loss this build can have, where the catalogue's
    measured one cannot apply to it — one socket has no cross-NUMA traffic)."""
    entry = REGISTRY.entry(code)
    return Finding(
        code, Status.FAIL, entry.title, detail, impact or entry.impact, fix, numbers or {},
        change, picks,
    )  # fmt: skip


def warned(
    code: str,
    detail: str,
    fix: str,
    numbers: dict[str, float | int] | None = None,
    change: Change | None = None,
    picks: tuple[str, ...] = (),
) -> Finding:
    """Report a build that is accepted but not as it is deployed, with a concrete fix."""
    entry = REGISTRY.entry(code)
    return Finding(
        code, Status.WARN, entry.title, detail, entry.impact, fix, numbers or {},
        change, picks,
    )  # fmt: skip


def not_applicable(
    code: str, detail: str, numbers: dict[str, float | int] | None = None
) -> Finding:
    """Report a check that does not apply to this build or workload."""
    entry = REGISTRY.entry(code)
    return Finding(code, Status.NA, entry.title, detail, numbers=numbers or {})


def covered(
    code: str, owner: str, detail: str, numbers: dict[str, float | int] | None = None
) -> Finding:
    """Report a problem that the check `owner` reports and counts: not failed a second time
    (docs/rules.md "One problem counted once"); `detail` says what it found and who owns it."""
    entry = REGISTRY.entry(code)
    return Finding(code, Status.NA, entry.title, detail, numbers=numbers or {}, covered_by=owner)


def num(value: float) -> str:
    """Format a number for a detail line: no trailing `.0`, at most two decimals."""
    rounded = round(float(value), 2)
    if rounded.is_integer():
        return str(int(rounded))
    return f"{rounded:.2f}".rstrip("0")
