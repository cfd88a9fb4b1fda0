"""The bill: the one price of a build, on every surface (docs/architecture.md "One bill").

`bill` prices one node's parts and multiplies by the nodes: the platform (the one named, else
the cheapest that takes the CPU's socket and count, the GPU and the GPU count: assumed), the
CPUs and GPUs, the cheapest balanced DIMM population of the build's memory and the cheapest
redundant PSU set of its usable output that the chassis' bays hold (or the next size up when
no part set gives exactly the value: substituted), and the NICs (the one named, else the
cheapest: assumed), and each part the build names by slug (`build.NAMED_PARTS`: as many as
it counts, priced when named). What no catalog part provides is listed as unpriced, never
left out in silence. The configurator page, `/api/v1/evaluate`, `/recommend` and the quote's
BOM all call it, so they agree to the cent.

Parts are picked from the catalog given (the offered one); named parts come as they are.
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Mapping
from dataclasses import dataclass
from typing import NamedTuple

from configurator.engine.build import NAMED_PARTS, Build, Cpu, Gpu, Nic, Platform
from configurator.engine.catalog import Catalog
from configurator.engine.parts import (
    MemoryOption,
    PsuOption,
    cheapest_platform,
    memory_populations,
    psu_options,
)


class Line(NamedTuple):
    """One line of the bill of materials of one node (a named tuple: the recommender makes
    one bill per candidate it prices)."""

    kind: str
    slug: str
    name: str
    qty: int
    monthly_price: float  # per unit


@dataclass(frozen=True)
class Bill:
    """One node's lines, and the monthly price of all nodes."""

    lines: tuple[Line, ...]
    node_price: float
    monthly_price: float
    nodes: int = 1
    platform: Platform | None = None  # the platform priced, named or assumed
    memory: MemoryOption | None = None  # the DIMM population priced
    psus: PsuOption | None = None  # the PSU set priced
    nic: Nic | None = None  # the NIC priced
    assumed: tuple[str, ...] = ()  # kinds the build does not name, priced as the cheapest fit
    unpriced: tuple[str, ...] = ()  # kinds no catalog part provides (none large enough)
    # (field, priced value): no part gives exactly the value; the next size up is priced
    substituted: tuple[tuple[str, int], ...] = ()

    @property
    def platform_assumed(self) -> bool:
        return "platform" in self.assumed

    def line(self, kind: str) -> Line | None:
        return next((line for line in self.lines if line.kind == kind), None)


def bill(
    *,
    cpu: Cpu | None,
    cpu_count: int,
    gpu: Gpu | None,
    gpu_count: int,
    memory_gb: int,
    memory_ecc: bool,
    psu_watts: int,
    catalog: Catalog,
    nodes: int = 1,
    nics: int = 0,
    platform: Platform | None = None,
    nic: Nic | None = None,
    dimm_count: int | None = None,
    memory: MemoryOption | None = None,
    psus: PsuOption | None = None,
    parts: Mapping[str, tuple[object | None, int]] | None = None,
) -> Bill:
    """Return the bill of one node of these parts and the monthly price of `nodes` of them.

    `parts` holds each named part (`build.NAMED_PARTS`) by field: the part, None when not
    named, and how many of it a node has. `memory` and `psus`, when given, are the population
    and PSU set chosen (a recommendation's BOM); otherwise the cheapest that give `memory_gb`
    (in `dimm_count` DIMMs when given) and `psu_watts` are priced.
    """
    assumed: list[str] = []
    unpriced: list[str] = []
    substituted: list[tuple[str, int]] = []
    if platform is None:
        platform = cheapest_platform(cpu, cpu_count, gpu, gpu_count, catalog)
        assumed.append("platform")
    lines: list[Line] = []
    if platform is not None:
        lines.append(Line("platform", platform.slug, platform.name, 1, platform.monthly_price))
    else:
        unpriced.append("platform")
    if cpu is not None:
        lines.append(Line("cpu", cpu.slug, cpu.name, cpu_count, cpu.monthly_price))
    else:
        unpriced.append("cpu")
    if gpu is not None:
        lines.append(Line("gpu", gpu.slug, gpu.name, gpu_count, gpu.monthly_price))
    else:
        unpriced.append("gpu")
    if memory is None and cpu is not None:
        memory = _population(cpu, cpu_count, platform, memory_ecc, memory_gb, dimm_count, catalog)
        if memory is not None and memory.total_gb != memory_gb:
            substituted.append(("memory_gb", memory.total_gb))
    if memory is not None:
        module = memory.module
        lines.append(Line("memory", module.slug, module.name, memory.count, module.monthly_price))
    else:
        unpriced.append("memory")
    if psus is None:
        # One set per usable output, smallest first (`psu_options`): the first that gives
        # `psu_watts` is the cheapest of the smallest output ≥ it.
        options = psu_options(platform, catalog)
        at = bisect_left(options, psu_watts, key=lambda option: option.usable_w)
        psus = options[at] if at < len(options) else None
        if psus is not None and psus.usable_w != psu_watts:
            substituted.append(("psu_watts", psus.usable_w))
    if psus is not None:
        lines.append(Line("psu", psus.psu.slug, psus.psu.name, psus.count, psus.psu.monthly_price))
    else:
        unpriced.append("psu")
    if nics:
        if nic is None:
            nic = min(catalog.nics, key=lambda n: n.monthly_price, default=None)
            assumed.append("nic")
        if nic is not None:
            lines.append(Line("nic", nic.slug, nic.name, nics, nic.monthly_price))
        else:
            unpriced.append("nic")
    else:
        nic = None
    for named in NAMED_PARTS:
        part, qty = (parts or {}).get(named.name, (None, 0))
        if part is not None and qty:
            lines.append(Line(named.line, part.slug, part.name, qty, part.monthly_price))
    node_price = round(sum(line.qty * line.monthly_price for line in lines), 2)
    return Bill(
        lines=tuple(lines),
        node_price=node_price,
        monthly_price=round(node_price * nodes, 2),
        nodes=nodes,
        platform=platform,
        memory=memory,
        psus=psus,
        nic=nic,
        assumed=tuple(kind for kind in assumed if kind not in unpriced),
        unpriced=tuple(unpriced),
        substituted=tuple(substituted),
    )


def build_bill(
    build: Build,
    catalog: Catalog,
    *,
    platform: Platform | None = None,
    nic: Nic | None = None,
    memory: MemoryOption | None = None,
    psus: PsuOption | None = None,
) -> Bill:
    """Return the bill of an engine build: its platform and NIC model are the build's own
    (`Build.platform`, `Build.nic`) unless given."""
    return bill(
        cpu=build.cpu,
        cpu_count=build.cpu_count,
        gpu=build.gpu,
        gpu_count=build.gpu_count,
        memory_gb=build.memory_gb,
        memory_ecc=build.memory_ecc,
        psu_watts=build.psu_watts,
        catalog=catalog,
        nodes=build.nodes,
        nics=build.nics,
        platform=platform or build.platform,
        nic=nic or build.nic,
        dimm_count=build.dimm_count,
        memory=memory,
        psus=psus,
        parts=counted_parts(build, {part.name: getattr(build, part.name) for part in NAMED_PARTS}),
    )


def counted_parts(
    build: object, found: Mapping[str, object | None]
) -> dict[str, tuple[object | None, int]]:
    """Return each named part found (by field) with the count of it the build (an engine
    Build, the API's build, the page's configuration) gives: what `bill` takes as `parts`."""
    return {part.name: (found.get(part.name), getattr(build, part.count)) for part in NAMED_PARTS}


def _population(
    cpu: Cpu,
    cpu_count: int,
    platform: Platform | None,
    ecc: bool,
    memory_gb: int,
    dimm_count: int | None,
    catalog: Catalog,
) -> MemoryOption | None:
    """Return the DIMMs that make `memory_gb`: the cheapest balanced population of exactly it
    (in `dimm_count` DIMMs when that is one), else — when the build counts its DIMMs — the
    cheapest population of that many of exactly it, the same on each socket (12 × 32 GB: the
    memory check names what it costs), else the cheapest balanced population of the smallest
    total above it (substituted), else None. A build that does not count its DIMMs is
    evaluated with one per channel, so it is priced balanced too."""
    balanced = catalog.derived(
        ("memory_populations", cpu, cpu_count, platform, ecc),
        lambda: tuple(memory_populations(cpu, cpu_count, platform, ecc, catalog.memory)),
    )
    exact = [option for option in balanced if option.total_gb == memory_gb]
    counted = [option for option in exact if option.count == dimm_count]
    if counted or exact:
        return min(counted or exact, key=lambda o: (o.price, o.count))
    channels = cpu.memory_channels * cpu_count
    slots = platform.dimm_slots_per_socket * cpu_count if platform else channels * 2
    uneven = []
    for module in catalog.memory if dimm_count else ():
        if module.ddr_gen != cpu.ddr_gen or module.ecc != ecc or (ecc and not module.registered):
            continue
        option = MemoryOption(module, dimm_count)
        if option.total_gb == memory_gb and dimm_count <= slots and dimm_count % cpu_count == 0:
            uneven.append(option)
    if uneven:
        return min(uneven, key=lambda o: (o.price, o.count))
    return _exact_or_above(balanced, memory_gb, lambda option: option.total_gb)


def _exact_or_above(options, wanted: int, size):
    """Return the cheapest option of the smallest size ≥ `wanted`, else None."""
    above = [option for option in options if size(option) >= wanted]
    if not above:
        return None
    smallest = min(size(option) for option in above)
    return min(
        (option for option in above if size(option) == smallest),
        key=lambda o: (o.price, -o.count if isinstance(o, PsuOption) else o.count),
    )
