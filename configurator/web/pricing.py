"""The configurator page's bill: a configuration's parts found in the catalog, priced by the
engine's one bill (`engine/pricing.py`), which `/api/v1/evaluate`, `/recommend` and the quote's
BOM call too (plain Python, no Django)."""

from __future__ import annotations

from configurator.engine.catalog import Catalog
from configurator.engine.pricing import Bill, bill, counted_parts
from configurator.web.configuration import Configuration
from configurator.web.options import platform_of

__all__ = ["Bill", "bill_of_materials"]


def bill_of_materials(
    config: Configuration, catalog: Catalog, offered: Catalog | None = None
) -> Bill:
    """Return the bill of one node and the monthly price of the build: the parts it names
    from `catalog`, those it leaves to the bill (platform, memory, PSUs, NIC) from `offered`."""
    return bill(
        cpu=catalog.find("cpus", config.cpu),
        cpu_count=config.cpu_count,
        gpu=catalog.find("gpus", config.gpu),
        gpu_count=config.gpu_count,
        memory_gb=config.memory_gb,
        memory_ecc=config.memory_ecc,
        psu_watts=config.psu_watts,
        catalog=offered or catalog,
        nodes=config.nodes,
        nics=config.nics,
        platform=platform_of(config, catalog),
        nic=catalog.find("nics", config.nic) if config.nic else None,
        parts=counted_parts(config, catalog.find_named(config)),
    )
