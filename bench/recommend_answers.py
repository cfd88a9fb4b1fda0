"""Print the recommend API's JSON answers for the benchmarked workloads, to compare two trees.

A change meant to make the recommender faster must not change what it answers: run this on
the tree before and after and compare the outputs (`diff`). The workloads are
docs/recommender.md's table (`recommend_table.WORKLOADS`), each as given and with an amount
of work (`recommend_table.with_work`), and `bench_work`'s pairs and targets; each on the seed
catalog and on the 1× and 10× synthetic catalogs (`synthetic.scaled`). The answers are the
API's (`api_shapes.recommended_json`); the number of builds the search evaluated, which a
faster search may lower, goes to stderr.

    python -m bench.recommend_answers > after.jsonl   # and the same on the tree before
"""

import json
import sys

from bench.harness import django_setup

FACTORS = (1, 10)


def workloads() -> dict[str, dict]:
    """Return the workloads to answer, by label."""
    from bench.bench_work import PAIRS, TARGETS
    from bench.recommend_table import WORKLOADS, with_work

    found = {}
    for label, raw in WORKLOADS.items():
        found[label] = raw
        found[f"{label}, with work"] = with_work(raw)
    for label, (base, work) in PAIRS.items():
        found[f"bench_work: {label}"] = base
        found[f"bench_work: {label}, with work"] = {**base, **work}
    for label, raw in TARGETS.items():
        found[f"bench_work: {label}"] = raw
    return found


def run(out=sys.stdout) -> None:
    django_setup()
    from bench.synthetic import scaled
    from configurator import api_shapes, selectors
    from configurator.engine.recommend import recommend
    from configurator.inputs import workload_from_input
    from configurator.schemas import WorkloadIn
    from configurator.services import Recommended

    catalog, rules = selectors.snapshots()
    version = rules.current[rules.default]
    catalogs = {"seed": catalog.offered}
    catalogs.update({f"{k}×": scaled(catalog.offered, k) for k in FACTORS})
    explored = 0
    for name, offered in catalogs.items():
        for label, raw in workloads().items():
            workload = workload_from_input(WorkloadIn.model_validate(raw))
            found = recommend(workload, offered, version.params, rules.scenarios)
            answer = api_shapes.recommended_json(Recommended(found, version))
            explored += found.explored
            line = {"catalog": name, "workload": label, "answer": answer}
            print(json.dumps(line, sort_keys=True, default=str), file=out)
    print(f"{explored} builds evaluated in all", file=sys.stderr)


if __name__ == "__main__":
    run()
