"""Apply a fix: the cheapest change of one component that clears a failed check.

A finding's fix is advice in words; where that advice is a component change, the page offers
to make it. The candidates are every value one field may take on the platform (`options`) —
another platform (its parts conformed), CPU, GPU or GPU count, placement, memory, PSU set,
network cards, NVLink, NUMA binding or ECC — each judged by the same engine. The chosen one
clears the check, adds no failure the build did not have, never takes GPU memory away, keeps
the GPUs when any such change does, and is the cheapest such change (then the one with the
fewest failures left, then the best balanced). Plain Python, no Django:
the caller passes `judge`, which evaluates a configuration.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass

from configurator.engine.catalog import Catalog
from configurator.engine.evaluate import Evaluation
from configurator.web.configuration import Configuration
from configurator.web.options import choices, conform
from configurator.web.pricing import bill_of_materials

# The GPU side is what the customer rents; a fix changes it only when nothing else clears.
GPU_SIDE = ("gpu", "gpu_count", "nodes")

Judge = Callable[[Configuration], Evaluation | None]  # None: the input itself is invalid


@dataclass(frozen=True)
class Fix:
    """A configuration that clears `code`, and the fields it changed."""

    code: str
    config: Configuration
    changed: tuple[str, ...]
    monthly_price: float


def candidates(config: Configuration, catalog: Catalog) -> Iterator[Configuration]:
    """Yield every configuration one component change away, conformed to its platform."""
    offered = choices(config, catalog)
    alternatives: dict[str, tuple] = {
        "platform": tuple(p.slug for p in offered.platforms),
        "cpu": tuple(cpu.slug for cpu in offered.cpus),
        "cpu_count": offered.cpu_counts,
        "gpu": tuple(gpu.slug for gpu in offered.gpus),
        "gpu_count": offered.gpu_counts,
        "gpus_per_socket": offered.splits,
        "memory_gb": tuple(option.total_gb for option in offered.memory),
        "psu_watts": tuple(option.usable_w for option in offered.psus),
        "nvlink": offered.nvlink,
        "numa_binding": (True, False),
        "memory_ecc": (True, False),
        "nics": offered.nics,
        "nodes": offered.nodes,
    }
    seen = {config}
    for name, values in alternatives.items():
        for value in values:
            if value == getattr(config, name):
                continue
            candidate, _ = conform(config.changed(**{name: value}), catalog)
            if candidate not in seen:
                seen.add(candidate)
                yield candidate


def fix_for(code: str, config: Configuration, catalog: Catalog, judge: Judge) -> Fix | None:
    """Return the cheapest one-component change that clears `code`, or None."""
    current = judge(config)
    if current is None:
        return None
    failing_before = set(current.failed_codes)
    if code not in failing_before:
        return None  # nothing to fix
    best: tuple | None = None
    for candidate in candidates(config, catalog):
        evaluation = judge(candidate)
        if evaluation is None:
            continue
        failing = set(evaluation.failed_codes)
        if code in failing or not failing <= failing_before:
            continue
        gpu_memory = _gpu_memory(candidate, catalog)
        if gpu_memory < _gpu_memory(config, catalog):
            continue  # a fix never takes GPU memory away: that is not the customer's build
        price = bill_of_materials(candidate, catalog).monthly_price
        gpus_changed = any(getattr(candidate, name) != getattr(config, name) for name in GPU_SIDE)
        key = (gpus_changed, price, len(failing), -evaluation.balance.overall)
        if best is None or key < best[0]:
            best = (key, candidate)
    if best is None:
        return None
    chosen = best[1]
    changed = tuple(
        name
        for name in Configuration.field_names()
        if getattr(chosen, name) != getattr(config, name)
    )
    return Fix(code, chosen, changed, best[0][1])


def _gpu_memory(config: Configuration, catalog: Catalog) -> int:
    gpu = catalog.find("gpus", config.gpu)
    return (gpu.memory_gb if gpu else 0) * config.gpu_count * config.nodes
