"""Apply a fix: the build change a check's fix describes, made buildable on the platform.

A finding whose fix is a build change carries it (`engine.changes.Change`): `fix_for` applies
that change as it is, conformed to the platform (`options.conform`). Where the platform cannot
take it (a board without NVLink, no ECC module of that size, PSU sets of other outputs) or it
leaves another check failing, the cheapest second change of one more component that makes it
work (another platform with its parts, the CPU, memory, PSUs, the NIC model; for NICs the
change adds, a platform and a NIC model together; never the GPUs) becomes the change's
`needs`. A finding whose fix is a part only the catalog can pick (a Gen4 platform, a
high-clock CPU, a GPU that runs FP8) names the fields it picks (`picks`): each offered value
of those fields is judged by the same engine, and the change is the cheapest that clears the
check, adds no failure the build did not have, never takes GPU memory away and keeps the GPUs
when any such change does. Ties go to the fewest fields changed, then the fewest failures and
warnings left, then the best balanced. A finding with neither offers no fix.

Either way a `Fix` names every field it changes, with the value it takes, so its text
(`Change.message`) is exactly what "Apply fix" does. Plain Python, no Django: the caller passes
a `Judge` (the engine, every check or one) and the catalog of offered parts a fix may put in.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field

from configurator.engine.catalog import Catalog
from configurator.engine.changes import FIELDS, PART_FIELDS, Change, Part, Value
from configurator.engine.evaluate import Evaluation
from configurator.engine.findings import Finding, Status
from configurator.web.configuration import Configuration
from configurator.web.options import choices, conform
from configurator.web.pricing import bill_of_materials

# The GPU side is what the customer rents; a picked part changes it only when nothing else
# clears the check, and a second change never does.
GPU_SIDE = ("gpu", "gpu_count", "nodes")
# What a second change may be: the parts and steps that make a change fit the platform.
COMPANIONS = ("platform", "cpu", "memory_gb", "psu_watts", "nic")
# Fields a catalog offers in steps: conformed, a change gets the next step up, not less.
STEPPED = frozenset({"memory_gb", "psu_watts"})
CATALOG_KINDS = {"platform": "platforms", "cpu": "cpus", "gpu": "gpus", "nic": "nics"}
CLEARED = frozenset({Status.PASS, Status.NA})


@dataclass(frozen=True)
class Judge:
    """How a fix judges a configuration: all its checks, or one (a candidate that does not
    clear the check it is tried for needs no more). None: the input itself is invalid."""

    evaluate: Callable[[Configuration], Evaluation | None]
    check: Callable[[Configuration, str], Finding | None]


@dataclass(frozen=True)
class Fix:
    """The change that clears check `code`, and the configuration it makes."""

    code: str
    config: Configuration
    change: Change
    monthly_price: float

    @property
    def changed(self) -> tuple[str, ...]:
        """Return the fields the fix changes."""
        return tuple(self.change.fields())


def alternatives(
    config: Configuration, catalog: Catalog, offered: Catalog | None = None
) -> dict[str, tuple]:
    """Return, for each field, the values the configuration's platform takes for it; a part
    only if `offered` lists it (a fix never puts in a legacy part)."""
    takes = choices(config, catalog)
    offered = offered or catalog

    def listed(kind: str, parts: tuple) -> tuple[str, ...]:
        slugs = {part.slug for part in getattr(offered, kind)}
        return tuple(part.slug for part in parts if part.slug in slugs)

    return {
        "platform": listed("platforms", takes.platforms),
        "cpu": listed("cpus", takes.cpus),
        "cpu_count": takes.cpu_counts,
        "gpu": listed("gpus", takes.gpus),
        "gpu_count": takes.gpu_counts,
        "gpus_per_socket": takes.splits,
        "memory_gb": tuple(option.total_gb for option in takes.memory),
        "psu_watts": tuple(option.usable_w for option in takes.psus),
        "nvlink": takes.nvlink,
        "numa_binding": (True, False),
        "memory_ecc": (True, False),
        "nics": takes.nics,
        "nic": listed("nics", takes.nic_models),
        "nodes": takes.nodes,
    }


def candidates(
    config: Configuration,
    catalog: Catalog,
    fields: Iterable[str] | None = None,
    offered: Catalog | None = None,
) -> Iterator[tuple[str, Configuration]]:
    """Yield (field, configuration) for every configuration one change of one of `fields`
    (all when None) away, conformed to its platform."""
    seen = {config}
    wanted = None if fields is None else set(fields)
    for name, values in alternatives(config, catalog, offered).items():
        if wanted is not None and name not in wanted:
            continue
        for value in values:
            if value == getattr(config, name):
                continue
            candidate, _ = conform(config.changed(**{name: value}), catalog)
            if candidate not in seen:
                seen.add(candidate)
                yield name, candidate


@dataclass(frozen=True)
class _Search:
    """What every fix of one configuration is judged with."""

    config: Configuration
    failing_before: frozenset[str]
    catalog: Catalog
    offered: Catalog
    judge: Judge  # remembered: a candidate is judged once however many fixes try it
    # Checks that candidates newly failed: tried first, alone, on the next candidate.
    suspects: list[str] = field(default_factory=list)


def fix_for(
    code: str,
    config: Configuration,
    catalog: Catalog,
    judge: Judge,
    offered: Catalog | None = None,
) -> Fix | None:
    """Return the change that clears check `code` (failing or warning), or None."""
    judge = _remembered(judge)
    current = judge.evaluate(config)
    if current is None:
        return None
    finding = next((f for f in current.checks if f.code == code), None)
    if finding is None or not (finding.failed or finding.warned):
        return None  # nothing to fix
    failing = frozenset(current.failed_codes)
    return _fix(finding, _Search(config, failing, catalog, offered or catalog, judge))


def fixes_for(
    config: Configuration,
    catalog: Catalog,
    judge: Judge,
    offered: Catalog | None = None,
    current: Evaluation | None = None,
) -> dict[str, Fix]:
    """Return the fix of every failing or warning check that has one, by code; `current` is
    the configuration's evaluation when the caller has it already."""
    # The searches of several checks judge the same candidates: each once.
    judge = _remembered(judge, {config: current} if current is not None else {})
    current = judge.evaluate(config)
    if current is None:
        return {}
    failing = frozenset(current.failed_codes)
    search = _Search(config, failing, catalog, offered or catalog, judge)
    found = {}
    for finding in current.checks:
        if finding.failed or finding.warned:
            fix = _fix(finding, search)
            if fix is not None:
                found[finding.code] = fix
    return found


def _fix(finding: Finding, search: _Search) -> Fix | None:
    if finding.change is not None:
        fix = _applied(finding, search)
        if fix is not None:
            return fix
    if finding.picks:
        return _picked(finding.code, finding.picks, search)
    return None


def _applied(finding: Finding, search: _Search) -> Fix | None:
    """Apply the finding's own change; add the cheapest second change where it needs one."""
    change, config, catalog = finding.change, search.config, search.catalog
    wanted = config.changed(**change.build_values())
    if wanted == config:
        return None  # the build already has what the change sets: that is not what clears it
    conformed, _ = conform(wanted, catalog)
    fits = _holds(change, conformed, wanted)
    if fits and _clears(finding.code, conformed, search):
        return _made(finding.code, config, conformed, change, catalog, search.offered)
    # The platform cannot take the change: another platform (with the parts it takes) may.
    # It takes it but something else fails: one more part or step may clear that too; and
    # failing that, another platform with the NIC model (a board with lanes for the NICs the
    # change adds, and NICs of the speed they need).
    companions = COMPANIONS if fits else ("platform",)
    best = _cheapest(finding.code, _keeping(change, wanted, companions, search), search, config)
    if best is None and fits and "nics" in change.fields():
        platforms = [c for _, c in _keeping(change, wanted, ("platform",), search)]
        pairs = (pair for p in platforms for pair in _keeping(change, p, ("nic",), search))
        best = _cheapest(finding.code, pairs, search, config)
    if best is None:
        return None
    return _made(finding.code, config, best[1], change, catalog, search.offered)


def _keeping(
    change: Change, wanted: Configuration, fields: Iterable[str], search: _Search
) -> Iterator[tuple[str, Configuration]]:
    """Yield the candidates one change of `fields` from `wanted` that keep the change and
    the GPUs as they are."""
    for name, candidate in candidates(wanted, search.catalog, fields, search.offered):
        if _holds(change, candidate, wanted) and not _moves_gpus(candidate, wanted):
            yield name, candidate


def _picked(code: str, fields: tuple[str, ...], search: _Search) -> Fix | None:
    """Return the cheapest change of one of `fields` that clears `code`, or None."""
    config, catalog = search.config, search.catalog
    gpu_memory = _gpu_memory(config, catalog)
    # A fix never takes GPU memory away: that is not the customer's build.
    tried = (
        (name, candidate)
        for name, candidate in candidates(config, catalog, fields, search.offered)
        if _gpu_memory(candidate, catalog) >= gpu_memory
    )
    best = _cheapest(code, tried, search, config)
    if best is None:
        return None
    name, fixed = best
    return _made(
        code, config, fixed, Change.of(**{name: getattr(fixed, name)}), catalog, search.offered
    )


def _cheapest(
    code: str,
    tried: Iterable[tuple[str, Configuration]],
    search: _Search,
    config: Configuration,
) -> tuple[str, Configuration] | None:
    """Return the (field, candidate) that clears `code` and ranks first: the GPUs kept, then
    the cheapest, then the fewest fields changed, then the fewest failures and warnings left,
    then the best balanced.

    Candidates are priced and judged in that order and only until one clears (and those
    alike to it up to the fields changed), since nothing after can rank before it; those
    that change the GPUs only when none that keeps them clears. A page shows every check's
    fix, so this is most of what a fix costs."""
    tried = list(tried)
    for moves in (False, True):
        group = [(name, c) for name, c in tried if _moves_gpus(c, config) is moves]
        found = _cheapest_of(code, group, search, config)
        if found is not None:
            return found
    return None


def _cheapest_of(
    code: str,
    group: list[tuple[str, Configuration]],
    search: _Search,
    config: Configuration,
) -> tuple[str, Configuration] | None:
    ranked = sorted(
        (
            (
                _price(candidate, search),
                sum(getattr(candidate, f) != getattr(config, f) for f in FIELDS),
                index,
                name,
                candidate,
            )
            for index, (name, candidate) in enumerate(group)
        ),
        key=lambda item: item[:3],
    )
    best: tuple | None = None
    for price, changed, _index, name, candidate in ranked:
        if best is not None and (price, changed) != best[0][:2]:
            break
        if not _clears(code, candidate, search):
            continue
        evaluation = search.judge.evaluate(candidate)
        key = (price, changed, len(evaluation.failures), len(evaluation.warnings))
        key += (-evaluation.balance.overall,)
        if best is None or key < best[0]:
            best = (key, name, candidate)
    return None if best is None else (best[1], best[2])


def _price(candidate: Configuration, search: _Search) -> float:
    return bill_of_materials(candidate, search.catalog, search.offered).monthly_price


def _clears(code: str, candidate: Configuration, search: _Search) -> bool:
    """Return whether the check passes on the candidate (or no longer applies) and nothing
    fails that did not fail before."""
    finding = search.judge.check(candidate, code)
    if finding is None or finding.status not in CLEARED:
        return False
    for suspect in search.suspects:  # one check is cheaper than all of them
        if search.judge.check(candidate, suspect).failed:
            return False
    evaluation = search.judge.evaluate(candidate)
    new = set(evaluation.failed_codes) - search.failing_before
    search.suspects.extend(sorted(new - set(search.suspects)))
    return not new


def _holds(change: Change, candidate: Configuration, wanted: Configuration) -> bool:
    """Return whether the candidate keeps every value the change sets (a stepped value may be
    the catalog's next step up)."""
    for name in change.fields():
        got, asked = getattr(candidate, name), getattr(wanted, name)
        if got != asked and not (name in STEPPED and got > asked):
            return False
    return True


def _moves_gpus(candidate: Configuration, config: Configuration) -> bool:
    return any(getattr(candidate, name) != getattr(config, name) for name in GPU_SIDE)


def _made(
    code: str,
    config: Configuration,
    fixed: Configuration,
    change: Change,
    catalog: Catalog,
    offered: Catalog,
) -> Fix:
    """Return the fix from `config` to `fixed`: the change's fields with the values they took,
    and every other field that differs as what the change needs."""
    differing = [name for name in FIELDS if getattr(fixed, name) != getattr(config, name)]
    asked = [name for name in change.fields() if name in differing]
    needs = [name for name in differing if name not in asked]
    if not asked:  # conforming undid what was asked: what it made is the change
        asked, needs = needs, []
    made = Change(
        values=tuple((name, _value(name, getattr(fixed, name), catalog)) for name in asked),
        needs=tuple((name, _value(name, getattr(fixed, name), catalog)) for name in needs),
    )
    return Fix(code, fixed, made, bill_of_materials(fixed, catalog, offered).monthly_price)


def _value(name: str, value: object, catalog: Catalog) -> Value:
    """Return a field's value as a change holds it: a part with its name."""
    if name not in PART_FIELDS:
        return value  # type: ignore[return-value]
    part = catalog.find(CATALOG_KINDS[name], value) if value else None
    return Part(value, part.name if part else value)  # type: ignore[arg-type]


def _gpu_memory(config: Configuration, catalog: Catalog) -> int:
    gpu = catalog.find("gpus", config.gpu)
    return (gpu.memory_gb if gpu else 0) * config.gpu_count * config.nodes


def _remembered(judge: Judge, known: dict[Configuration, Evaluation | None] | None = None) -> Judge:
    """Return `judge`, judging each configuration (and each of its checks) once; `known`:
    configurations judged already."""
    evaluated: dict[Configuration, Evaluation | None] = dict(known or {})
    checked: dict[tuple[Configuration, str], Finding | None] = {}

    def evaluate(config: Configuration) -> Evaluation | None:
        if config not in evaluated:
            evaluated[config] = judge.evaluate(config)
        return evaluated[config]

    def check(config: Configuration, code: str) -> Finding | None:
        if config in evaluated:
            evaluation = evaluated[config]
            return evaluation and next(f for f in evaluation.checks if f.code == code)
        if (config, code) not in checked:
            checked[(config, code)] = judge.check(config, code)
        return checked[(config, code)]

    return Judge(evaluate, check)
