"""Synthetic catalogs k times the seed catalog, for the recommender's scaling benchmark.

Every seed item gets k − 1 variants, as a market of many suppliers would list them: the same
part class with its specs moved a little (CPU clocks and TDP, GPU TDP, PSU ratings, platform
power) and its price spread ±25 %. A fixed random seed makes every run build the same catalog.
"""

import importlib
import random
from dataclasses import replace

from configurator.engine.catalog import Catalog


def _price(rng: random.Random, price: float) -> float:
    return round(price * rng.uniform(0.75, 1.25), 2)


def _variants(items, k: int, rng: random.Random, vary) -> tuple:
    out = list(items)
    for item in items:
        for n in range(1, k):
            out.append(
                replace(
                    vary(item, rng),
                    slug=f"{item.slug}-v{n}",
                    name=f"{item.name} (variant {n})",
                    monthly_price=_price(rng, item.monthly_price),
                )
            )
    return tuple(out)


def scaled(catalog: Catalog, k: int, seed: int = 20261129) -> Catalog:
    """Return a catalog with k items for every item of `catalog`."""
    rng = random.Random(seed)
    return Catalog(
        cpus=_variants(
            catalog.cpus, k, rng,
            lambda c, r: replace(c, base_ghz=round(c.base_ghz + r.choice((-0.1, 0, 0.1, 0.2)), 2),
                                 tdp_w=c.tdp_w + r.choice((-15, 0, 15))),
        ),
        gpus=_variants(catalog.gpus, k, rng,
                       lambda g, r: replace(g, tdp_w=g.tdp_w + r.choice((-25, 0, 25)))),
        memory=_variants(catalog.memory, k, rng, lambda m, r: m),
        psus=_variants(catalog.psus, k, rng,
                       lambda p, r: replace(p, rated_w=p.rated_w + r.choice((0, 200)))),
        nics=_variants(catalog.nics, k, rng, lambda n, r: n),
        platforms=_variants(
            catalog.platforms, k, rng,
            lambda p, r: replace(p, max_power_w=p.max_power_w + r.choice((0, 500))),
        ),
    )  # fmt: skip


def size(catalog: Catalog) -> int:
    """Return how many items the catalog holds."""
    kinds = (catalog.cpus, catalog.gpus, catalog.memory, catalog.psus, catalog.nics)
    return sum(len(items) for items in kinds) + len(catalog.platforms)


def without_todays_parts(catalog: Catalog) -> Catalog:
    """Return the catalog without the parts seeded by migrations 0013 (today's GPUs, CPUs,
    HGX hosts and their PSUs) and 0014 (the Dell R760xa): the seed catalog the recommender
    was first measured on, so that the code's speed is compared apart from the catalog's
    growth (docs/benchmarks.md)."""
    todays = importlib.import_module("catalog.migrations.0013_seed_todays_parts")
    r760xa = importlib.import_module("catalog.migrations.0014_seed_dell_r760xa")
    added = {row["slug"] for rows in (todays.CPUS, todays.GPUS, todays.PSUS, todays.PLATFORMS)
             for row in rows} | {r760xa.R760XA["slug"]}  # fmt: skip
    return Catalog(
        cpus=tuple(c for c in catalog.cpus if c.slug not in added),
        gpus=tuple(g for g in catalog.gpus if g.slug not in added),
        memory=catalog.memory,
        psus=tuple(p for p in catalog.psus if p.slug not in added),
        nics=catalog.nics,
        platforms=tuple(p for p in catalog.platforms if p.slug not in added),
    )
