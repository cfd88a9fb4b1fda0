"""Recommend builds on the seed catalog and on synthetic catalogs 10× and 100× its size.

Target (issue: recommender): ≤ 100 ms per recommendation in-process at 10×, and time growing
no faster than linearly with catalog size. The seed catalog, measured in the same run, is
the baseline of the ratios. The workloads are docs/recommender.md's table.

The seed catalog grew with today's parts (migrations 0013 and 0014: 39 → 52 items), so the
same searches are also timed on the catalog without them at 1× and 10× ("39" columns): the
code before that growth ran on exactly that catalog, which separates the code's speed from
the catalog's. `BENCH_FACTORS=1,10` leaves out the slow 100× column.
"""

import json
import os

from bench.harness import django_setup, per_call_seconds
from bench.recommend_table import WORKLOADS
from bench.synthetic import scaled, size, without_todays_parts

FACTORS = tuple(int(k) for k in os.environ.get("BENCH_FACTORS", "1,10,100").split(","))
EARLIER = (1, 10)  # the factors timed on the catalog without today's parts too


def run() -> dict[str, dict[str, float]]:
    django_setup()
    from configurator import selectors
    from configurator.engine.recommend import recommend
    from configurator.inputs import workload_from_input
    from configurator.schemas import WorkloadIn

    catalog, rules = selectors.snapshots()
    params = rules.current[rules.default].params
    earlier = without_todays_parts(catalog.offered)
    catalogs = {f"{k}×": scaled(catalog.offered, k) for k in FACTORS}
    catalogs |= {f"{k}× of 39": scaled(earlier, k) for k in EARLIER}
    results: dict[str, dict[str, float]] = {}
    header = "".join(f"{f'{k} ({size(c)} items)':>22}" for k, c in catalogs.items())
    print(f"{'workload':38}{header}   {'last ÷ 1×':>10}")
    for label, raw in WORKLOADS.items():
        workload = workload_from_input(WorkloadIn.model_validate(raw))
        times = {}
        for k, scaled_catalog in catalogs.items():
            calls = 5 if k == "100×" else 20
            times[k] = per_call_seconds(
                lambda c=scaled_catalog, w=workload: recommend(w, c, params, rules.scenarios),
                calls=calls,
                rounds=5,
            )
        results[label] = times
        cells = "".join(f"{seconds * 1e3:>19.1f} ms" for seconds in times.values())
        growth = times[f"{FACTORS[-1]}×"] / times["1×"]
        print(f"{label:38}{cells}   {growth:>9.1f}×")

    from django.test import Client

    client = Client()
    body = json.dumps({"workload": WORKLOADS["70B training, batch 64"]})
    api = per_call_seconds(
        lambda: client.post("/api/v1/recommend", body, content_type="application/json"), calls=20
    )
    print(f"POST /api/v1/recommend, 70B train, seed catalog, full stack: {api * 1e3:.1f} ms")
    return results


if __name__ == "__main__":
    run()
