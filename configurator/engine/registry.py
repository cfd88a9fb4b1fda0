"""The one registry of checks: each check is registered once, with everything said about it.

A registration names the check's stable code (api.md), its function, its catalogue entry
(its title and the measured impact, message ids rendered in each language from its
catalogue, and, where the guide measured it as a factor on the time a job takes, its `loss`;
the source of the rule), its kind (pitfall, baseline
dimension, a check of the workload, or of what the platform holds), whether it reads only
the CPU side of a build (`cpu_side`: the recommender's prefilter) and whether another CPU on
the same platform may change its outcome (`cpu_sensitive`: the recommender then tries the
other CPUs). The list of codes, the catalogue, the losses, the order checks run in and the
recommender's CPU-side prefilter are all derived from here, so a new check cannot be
half-added; a second registration of a code is refused, as django-rules' `add_rule` refuses
one.

The registry is complete whatever was imported first: the modules that register checks are
the engine's `checks` and every `*_check` module, found by name (`CHECK_MODULES`); the first
read imports them all, and checks run in the order of that list, then of registration within
a module. A check from any other module is refused, so a new check cannot be left unread.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from enum import StrEnum
from pathlib import Path
from types import MappingProxyType
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from configurator.engine.build import Build, Workload
    from configurator.engine.findings import Finding
    from configurator.engine.performance import Loss
    from configurator.engine.rules import RuleParams

    Check = Callable[[Build, Workload | None, RuleParams], Finding]
    Decision = Callable[[Build, Workload | None, RuleParams], bool]

# The modules that register checks are the engine's `checks` and every `*_check` module
# (`check_modules`): a new check module is found by its name, listed nowhere. Checks run and
# are shown in the order of these, then of any other check module by name.
CHECK_MODULES_FIRST: tuple[str, ...] = (
    "configurator.engine.checks",
    "configurator.engine.shape_check",
    "configurator.engine.drive_check",
)


def check_modules() -> tuple[str, ...]:
    """Return every engine module that registers checks, in the order their checks run."""
    package = Path(__file__).parent
    found = sorted(f"configurator.engine.{path.stem}" for path in package.glob("*_check.py"))
    return CHECK_MODULES_FIRST + tuple(name for name in found if name not in CHECK_MODULES_FIRST)


CHECK_MODULES: tuple[str, ...] = check_modules()


class CheckKind(StrEnum):
    PITFALL = "pitfall"  # P1–P8, domain.md §4
    DIMENSION = "dimension"  # the four baseline dimensions, domain.md §2
    WORKLOAD = "workload"  # the product's own checks of a build for a workload (§6, §7)
    PLATFORM = "platform"  # what the named platform physically holds (its datasheet)


@dataclass(frozen=True, slots=True)
class CatalogueEntry:
    """The fixed text of one check: what it is called and what breaking it costs (message
    ids, rendered in each language from its catalogue)."""

    title: str  # the rule's name; a pitfall's names the pitfall ("Non-ECC consumer memory")
    impact: str
    source: str  # where the rule and its measured loss come from
    loss: Loss | None = None  # the measured loss as a factor on a job's time, where known
    # What a build that passes has, where the rule's name names the pitfall ("ECC server
    # memory"): a pass is never titled with the problem it does not have.
    passed: str = ""

    def title_for(self, status: str) -> str:
        """Return the title a finding of `status` carries: what passed, for a pass."""
        return self.passed if status == "pass" and self.passed else self.title


@dataclass(frozen=True, slots=True)
class RegisteredCheck:
    code: str
    check: Check
    entry: CatalogueEntry
    kind: CheckKind
    cpu_side: bool  # its verdict depends on the CPU, board and PCIe side alone
    cpu_sensitive: bool = False  # another CPU of the same platform may change its outcome
    # Whether it fails, decided without writing the finding's texts, where the check has such
    # a decision: what another profile's verdict re-runs (`evaluate.verdict_under`).
    fails: Decision | None = None

    def failed(self, build: Build, workload: Workload | None, rules: RuleParams) -> bool:
        """Return whether the check fails the build: by its decision alone where it has one."""
        if self.fails is not None:
            return self.fails(build, workload, rules)
        return self.check(build, workload, rules).failed


class DuplicateCheck(ValueError):
    """A code registered twice."""


class UnlistedCheckModule(ValueError):
    """A check registered from a module the registry does not import itself."""


class RegistryReadTooEarly(RuntimeError):
    """The registry was read while its check modules were still being imported."""


class CheckRegistry:
    """Checks by code: in the order of `modules`, then of registration within a module.

    With `modules`, the first read imports every one of them, so what the registry holds does
    not depend on what the caller imported before; without, it holds what was added.
    """

    def __init__(self, modules: tuple[str, ...] = ()) -> None:
        self._modules = modules
        self._added: dict[str, RegisteredCheck] = {}
        self._checks: dict[str, RegisteredCheck] | None = None  # in run order; None: not read
        self._losses: Mapping[str, Loss] | None = None  # derived from _checks, kept with it
        self._loading = False

    def add(
        self,
        code: str,
        check: Check,
        entry: CatalogueEntry,
        *,
        kind: CheckKind,
        cpu_side: bool = False,
        cpu_sensitive: bool = False,
        fails: Decision | None = None,
    ) -> Check:
        """Register `check` under `code`; refuse a code already registered. `fails`, where
        given, decides what `check(...).failed` says without writing texts (a test holds the
        two to each other)."""
        if code in self._added:
            raise DuplicateCheck(f"check code {code!r} is already registered")
        module = getattr(check, "__module__", None)
        if self._modules and module not in self._modules:
            raise UnlistedCheckModule(
                f"check {code!r} comes from {module!r}: check modules are the engine's "
                "`checks` and its `*_check` modules (configurator.engine.registry.CHECK_MODULES)"
            )
        self._added[code] = RegisteredCheck(
            code, check, entry, CheckKind(kind), cpu_side, cpu_sensitive, fails
        )
        self._checks = self._losses = None
        return check

    def register(
        self,
        code: str,
        entry: CatalogueEntry,
        *,
        kind: CheckKind,
        cpu_side: bool = False,
        cpu_sensitive: bool = False,
        fails: Decision | None = None,
    ) -> Callable[[Check], Check]:
        """Return a decorator that registers the decorated check function under `code`."""

        def decorate(check: Check) -> Check:
            return self.add(
                code,
                check,
                entry,
                kind=kind,
                cpu_side=cpu_side,
                cpu_sensitive=cpu_sensitive,
                fails=fails,
            )

        return decorate

    def _read(self) -> dict[str, RegisteredCheck]:
        """Return every check in run order, importing the check modules on the first read."""
        checks = self._checks
        if checks is None:
            checks = self._checks = self._complete()
        return checks

    def _complete(self) -> dict[str, RegisteredCheck]:
        if self._loading:
            raise RegistryReadTooEarly(
                "the check registry was read while its check modules were being imported"
            )
        self._loading = True
        try:
            for module in self._modules:
                importlib.import_module(module)
        finally:
            self._loading = False
        rank = {module: index for index, module in enumerate(self._modules)}
        order = sorted(
            enumerate(self._added.values()),
            key=lambda pair: (rank.get(pair[1].check.__module__, 0), pair[0]),
        )
        return {item.code: item for _, item in order}

    def __iter__(self) -> Iterator[RegisteredCheck]:
        return iter(tuple(self._read().values()))

    def __contains__(self, code: object) -> bool:
        return code in self._read()

    def get(self, code: str) -> RegisteredCheck:
        """Return the registration of a code (KeyError when none)."""
        return self._read()[code]

    def entry(self, code: str) -> CatalogueEntry:
        return self._read()[code].entry

    def codes(self) -> tuple[str, ...]:
        return tuple(self._read())

    def checks(self) -> tuple[Check, ...]:
        return tuple(item.check for item in self._read().values())

    def codes_of(self, kind: CheckKind) -> tuple[str, ...]:
        return tuple(code for code, item in self._read().items() if item.kind is kind)

    def cpu_side_checks(self) -> tuple[Check, ...]:
        """Return the checks whose verdict the CPU side alone decides (the search's prefilter)."""
        return tuple(item.check for item in self._read().values() if item.cpu_side)

    def cpu_sensitive_codes(self) -> frozenset[str]:
        """Return the codes of the checks whose outcome another CPU of the platform may change."""
        return frozenset(code for code, item in self._read().items() if item.cpu_sensitive)

    def losses(self) -> Mapping[str, Loss]:
        """Return each check's measured loss, by code, for the checks that have one."""
        losses = self._losses
        if losses is None:
            checks = self._read()
            measured = {code: item.entry.loss for code, item in checks.items() if item.entry.loss}
            losses = self._losses = MappingProxyType(measured)
        return losses


REGISTRY = CheckRegistry(CHECK_MODULES)
register = REGISTRY.register
