"""The one list of the kinds of catalog part, with everything each surface needs of a kind.

Every surface is made from `KINDS`, never from a list of its own: the admin lists and their
import/export (`catalog/admin.py`), the revision signals that renew the catalog snapshot
(`configurator/revisions.py`), the engine's catalog (`configurator/selectors.py`, through each
kind's `engine_part`), the home page and `GET /api/v1/catalog` (`catalog/views.py`,
`configurator/selectors.py`), the quote's frozen BOM (`configurator/quotes/selectors.py`) and
the configurator's bill (`configurator/web/presenters.py`). The engine's own side of a kind
is plain Python: its dataclass in `configurator/engine/build.py` and a field of
`configurator/engine/catalog.Catalog` named by the kind's `key`.
"""

from collections.abc import Callable, Mapping
from dataclasses import dataclass, fields
from decimal import Decimal
from types import MappingProxyType

from django.db import models
from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

from catalog.models import CatalogItem, Cpu, Gpu, GpuClass, MemoryModule, Nic, Platform, Psu
from catalog.resources import CatalogResource, PlatformResource, catalog_resource
from configurator.engine import build as engine


def engine_spec(row: models.Model, part: type, **derived: object) -> object:
    """Return the engine's view of a catalog row: fields of the same name, plus `derived`.

    Decimals (clocks, prices) become floats; fields the model names differently, or that the
    engine derives, come in `derived`.
    """
    values = {}
    for f in fields(part):
        if f.name in derived or not hasattr(row, f.name):
            continue
        value = getattr(row, f.name)
        values[f.name] = float(value) if isinstance(value, Decimal) else value
    return part(**values, **derived)


def _same_names(row: models.Model) -> dict[str, object]:
    return {}


@dataclass(frozen=True)
class Kind:
    """One kind of catalog part: its model, its names on every surface, and its engine view."""

    key: str  # the API's plural key and the engine Catalog's field: cpus, gpus, memory, …
    line: str  # a bill-of-materials line's kind (engine Line, the quote's frozen BOM): cpu, …
    model: type[CatalogItem]
    label: Promise  # the catalog page's tab
    line_label: Promise  # a bill line's kind on the configurator's bill
    specs: tuple[str, ...]  # fields shown beside slug, name, vendor and price (page, API, quote)
    admin_columns: tuple[str, ...]  # the admin list's columns between name, slug and the price
    admin_filters: tuple[str, ...]  # the admin list's filters before offered, placeholder, vendor
    engine: type  # its dataclass in configurator.engine.build
    # The engine's fields the model names differently or that the engine derives (the rest are
    # read by name); a row's many-to-many relations come prefetched.
    engine_fields: Callable[[models.Model], dict[str, object]] = _same_names
    resource: type[CatalogResource] | None = None  # import/export; None: the plain one

    def __post_init__(self) -> None:
        if self.resource is None:
            object.__setattr__(self, "resource", catalog_resource(self.model))

    @property
    def relations(self) -> tuple[str, ...]:
        """Return its many-to-many fields: listed as slugs, prefetched, watched for revisions."""
        return tuple(field.name for field in self.model._meta.many_to_many)

    def engine_part(self, row: models.Model) -> object:
        """Return the engine's view of one of its rows (relations prefetched)."""
        return engine_spec(row, self.engine, **self.engine_fields(row))


def _gpu_fields(gpu: Gpu) -> dict[str, object]:
    return {
        "form_factor": engine.FormFactor(gpu.form_factor),
        "architecture": engine.Architecture(gpu.architecture),
        "datacenter": gpu.gpu_class == GpuClass.DATACENTER,
    }


def _platform_fields(platform: Platform) -> dict[str, object]:
    return {
        "gpu_form_factor": engine.FormFactor(platform.gpu_form_factor),
        "gpu_slots": (platform.gpu_slots_socket0, platform.gpu_slots_socket1)[: platform.sockets],
        "gpu_slugs": frozenset(gpu.slug for gpu in platform.gpus.all()),
        "psu_slugs": frozenset(psu.slug for psu in platform.psus.all()),
    }


# fmt: off
KINDS: tuple[Kind, ...] = (
    Kind(
        key="cpus", line="cpu", model=Cpu, label=_("CPUs"), line_label=_("CPU"),
        specs=(
            "socket", "cores", "threads", "base_ghz", "boost_ghz", "tdp_w", "pcie_gen",
            "pcie_lanes", "pcie_lanes_2s", "memory_channels", "ddr_gen", "memory_speed_mts",
            "max_sockets",
        ),
        admin_columns=(
            "cores", "threads", "base_ghz", "boost_ghz", "tdp_w", "pcie_gen", "pcie_lanes_2s",
            "memory_channels", "ddr_gen",
        ),
        admin_filters=("socket", "pcie_gen", "ddr_gen"),
        engine=engine.Cpu,
    ),
    Kind(
        key="gpus", line="gpu", model=Gpu, label=_("GPUs"), line_label=_("GPU"),
        specs=(
            "memory_gb", "memory_type", "tdp_w", "pcie_gen", "form_factor", "nvlink_gbps", "ecc",
            "gpu_class", "architecture", "bf16_tflops", "fp8_tflops", "int8_tops",
            "memory_bandwidth_gbs",
        ),
        admin_columns=(
            "memory_gb", "memory_type", "tdp_w", "form_factor", "nvlink_gbps", "bf16_tflops",
            "memory_bandwidth_gbs", "ecc", "gpu_class", "architecture",
        ),
        admin_filters=("form_factor", "gpu_class", "architecture", "pcie_gen"),
        engine=engine.Gpu, engine_fields=_gpu_fields,
    ),
    Kind(
        key="memory", line="memory", model=MemoryModule, label=_("Memory"),
        line_label=_("Memory"),
        specs=("ddr_gen", "capacity_gb", "registered", "ecc", "speed_mts"),
        admin_columns=("ddr_gen", "capacity_gb", "registered", "ecc", "speed_mts"),
        admin_filters=("ddr_gen", "ecc", "registered"),
        engine=engine.MemoryModule,
    ),
    Kind(
        key="psus", line="psu", model=Psu, label=_("Power supplies"),
        line_label=_("Power supplies"),
        specs=("rated_w", "efficiency"),
        admin_columns=("rated_w", "efficiency"),
        admin_filters=("efficiency",),
        engine=engine.Psu,
    ),
    Kind(
        key="nics", line="nic", model=Nic, label=_("Network cards"),
        line_label=_("Network cards"),
        specs=("speed_gbps", "ports", "fabric", "pcie_gen", "pcie_lanes", "tdp_w"),
        admin_columns=("speed_gbps", "ports", "fabric", "pcie_gen", "pcie_lanes", "tdp_w"),
        admin_filters=("fabric", "pcie_gen"),
        engine=engine.Nic,
    ),
    Kind(
        key="platforms", line="platform", model=Platform, label=_("Platforms"),
        line_label=_("Platform"),
        specs=(
            "sockets", "cpu_socket", "pcie_gen", "gpu_form_factor", "gpu_slots_socket0",
            "gpu_slots_socket1", "gpu_attach", "pcie_switch_uplinks", "nvlink",
            "dimm_slots_per_socket", "psu_bays", "psu_max_w", "max_power_w", "rated_power_w",
            "rated_gpu_w", "nic_slots", "nvme_bays", "rack_units",
        ),
        admin_columns=(
            "sockets", "cpu_socket", "pcie_gen", "gpu_form_factor", "gpu_slots_socket0",
            "gpu_slots_socket1", "gpu_attach", "nvlink", "psu_bays", "max_power_w",
        ),
        admin_filters=("cpu_socket", "gpu_form_factor", "gpu_attach", "nvlink", "pcie_gen"),
        engine=engine.Platform, engine_fields=_platform_fields, resource=PlatformResource,
    ),
)
# fmt: on
KINDS_BY_KEY: Mapping[str, Kind] = MappingProxyType({kind.key: kind for kind in KINDS})
KINDS_BY_LINE: Mapping[str, Kind] = MappingProxyType({kind.line: kind for kind in KINDS})
KIND_OF_MODEL: Mapping[type[models.Model], Kind] = MappingProxyType(
    {kind.model: kind for kind in KINDS}
)
# Each kind's import/export resource, by model (the admin and the background import).
RESOURCE_OF: Mapping[type[models.Model], type[CatalogResource]] = MappingProxyType(
    {kind.model: kind.resource for kind in KINDS}
)
