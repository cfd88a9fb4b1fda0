"""The one registry of checks: each check is registered once, with everything said about it.

A registration names the check's stable code (api.md), its function, its catalogue entry
(its title, the measured loss, the source of the rule), its kind (pitfall,
baseline dimension, or a check of the workload) and whether it reads only the CPU side of a
build. The list of codes, the catalogue, the order checks run in and the recommender's
CPU-side prefilter are all derived from here, so a new check cannot be half-added; a second
registration of a code is refused, as django-rules' `add_rule` refuses one.

Checks run in registration order. The module that registers checks must be imported before
the registry is read; `configurator.engine.evaluate` imports every such module.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from enum import StrEnum
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from configurator.engine.build import Build, Workload
    from configurator.engine.findings import Finding
    from configurator.engine.rules import RuleParams

    Check = Callable[[Build, Workload | None, RuleParams], Finding]


class CheckKind(StrEnum):
    PITFALL = "pitfall"  # P1–P8, domain.md §4
    DIMENSION = "dimension"  # the four baseline dimensions, domain.md §2
    WORKLOAD = "workload"  # the product's own checks of a build for a workload (§6, §7)


@dataclass(frozen=True, slots=True)
class CatalogueEntry:
    """The fixed text of one check: what it is called and what breaking it costs (message
    ids, rendered in each language from its catalogue)."""

    title: str
    impact: str
    source: str  # where the rule and its measured loss come from


@dataclass(frozen=True, slots=True)
class RegisteredCheck:
    code: str
    check: Check
    entry: CatalogueEntry
    kind: CheckKind
    cpu_side: bool  # its verdict depends on the CPU, board and PCIe side alone


class DuplicateCheck(ValueError):
    """A code registered twice."""


class CheckRegistry:
    """Checks by code, in the order they were registered."""

    def __init__(self) -> None:
        self._checks: dict[str, RegisteredCheck] = {}

    def add(
        self,
        code: str,
        check: Check,
        entry: CatalogueEntry,
        *,
        kind: CheckKind,
        cpu_side: bool = False,
    ) -> Check:
        """Register `check` under `code`; refuse a code already registered."""
        if code in self._checks:
            raise DuplicateCheck(f"check code {code!r} is already registered")
        self._checks[code] = RegisteredCheck(code, check, entry, CheckKind(kind), cpu_side)
        return check

    def register(
        self, code: str, entry: CatalogueEntry, *, kind: CheckKind, cpu_side: bool = False
    ) -> Callable[[Check], Check]:
        """Return a decorator that registers the decorated check function under `code`."""

        def decorate(check: Check) -> Check:
            return self.add(code, check, entry, kind=kind, cpu_side=cpu_side)

        return decorate

    def __iter__(self) -> Iterator[RegisteredCheck]:
        return iter(tuple(self._checks.values()))

    def __contains__(self, code: object) -> bool:
        return code in self._checks

    def get(self, code: str) -> RegisteredCheck:
        """Return the registration of a code (KeyError when none)."""
        return self._checks[code]

    def entry(self, code: str) -> CatalogueEntry:
        return self._checks[code].entry

    def codes(self) -> tuple[str, ...]:
        return tuple(self._checks)

    def checks(self) -> tuple[Check, ...]:
        return tuple(item.check for item in self._checks.values())

    def codes_of(self, kind: CheckKind) -> tuple[str, ...]:
        return tuple(code for code, item in self._checks.items() if item.kind is kind)

    def cpu_side_checks(self) -> tuple[Check, ...]:
        """Return the checks whose verdict the CPU side alone decides (the search's prefilter)."""
        return tuple(item.check for item in self._checks.values() if item.cpu_side)


REGISTRY = CheckRegistry()
register = REGISTRY.register
