"""Evaluate one build: in-process engine time, and the full Django stack against a trivial view.

Targets (issue: rules engine): the engine ≤ 1 ms per build; POST /api/v1/evaluate ≤ 3× the
cost of a trivial JSON view (/healthz) measured in the same run on the same machine.
"""

import json

from bench.harness import django_setup, fmt_us, per_call_seconds

BODY = {
    "build": {
        "cpu": "xeon-gold-6530", "cpu_count": 2, "gpu": "a800-80g-sxm", "gpu_count": 8,
        "gpus_per_socket": [4, 4], "memory_gb": 1024, "memory_ecc": True, "psu_watts": 6000,
        "nvlink": True, "numa_binding": True,
    },
    "workload": {"model_params_b": 34, "mode": "train", "batch_size": 8},
}  # fmt: skip


def run() -> dict[str, float]:
    django_setup()
    from django.test import Client

    from configurator import selectors
    from configurator.engine.evaluate import evaluate
    from configurator.inputs import build_from_input, workload_from_input
    from configurator.schemas import EvaluateIn

    catalog, snapshot = selectors.snapshots()
    rules = snapshot.current[snapshot.default].params
    payload = EvaluateIn.model_validate(BODY)
    build = build_from_input(payload.build, catalog.everything)
    workload = workload_from_input(payload.workload)

    engine = per_call_seconds(lambda: evaluate(build, rules, workload), calls=2000)
    client = Client()
    body = json.dumps(BODY)
    trivial = per_call_seconds(lambda: client.get("/healthz"), calls=300)
    api = per_call_seconds(
        lambda: client.post("/api/v1/evaluate", body, content_type="application/json"), calls=300
    )
    print(f"engine evaluate, one build        {fmt_us(engine):>10}   (target ≤ 1,000 µs)")
    print(f"GET /healthz (trivial JSON view)  {fmt_us(trivial):>10}")
    ratio = api / trivial
    print(f"POST /api/v1/evaluate             {fmt_us(api):>10}   {ratio:.2f}× trivial (≤ 3×)")
    return {"engine_s": engine, "trivial_s": trivial, "api_s": api, "ratio": api / trivial}


if __name__ == "__main__":
    run()
