"""What timing and pricing the work adds to a recommendation (docs/performance.md).

Target (issue: time, throughput and cost of the work): the performance model adds no more
than 20 % to `recommend`'s time on the 10× synthetic catalog. Each workload runs twice in the
same process, on the same catalog: as is (ranked by monthly price, the baseline) and with an
amount of work but no deadline or target (every accepted build is timed and priced, and the
cost of the work ranks them). A deadline or target changes the search itself — more GPUs,
no cross-GPU price bound — so those rows are reported on their own.

The engine memoises the work's figures per layout (`performance.work`), so a workload asked
again — a page redrawn, a quote re-opened — is timed from memory. The "cold" column clears
those memos before every call: the first time a workload is asked.
"""

import statistics

from bench.harness import django_setup, per_call_seconds
from bench.recommend_table import WORKLOADS
from bench.synthetic import scaled, size

PAIRS = {
    "70B train, batch 16": (
        {"model_params_b": 70, "mode": "train", "batch_size": 16, "context_length": 4096},
        {"train_tokens": 3e11},
    ),
    "13B LoRA fine-tune": (
        {"model_params_b": 13, "mode": "finetune", "finetune_method": "lora"},
        {"train_tokens": 1e9},
    ),
    "7B infer, 8 users": (
        {"model_params_b": 7, "mode": "infer", "batch_size": 8},
        {"concurrent_users": 8, "prompt_tokens": 1024, "output_tokens": 256},
    ),
    "70B infer, 32 users": (
        {"model_params_b": 70, "mode": "infer", "batch_size": 32},
        {"concurrent_users": 32},
    ),
}
TARGETS = {
    "train 70B on 300B tokens in 30 days": {
        "model_params_b": 70, "mode": "train", "batch_size": 16, "context_length": 4096,
        "train_tokens": 3e11, "deadline_days": 30,
    },
    "serve 70B at 2,000 output tokens/s": {
        "model_params_b": 70, "mode": "infer", "target_tokens_per_s": 2000,
    },
}  # fmt: skip
FACTOR = 10
ROUNDS = 15


def run() -> dict[str, tuple[float, float]]:
    django_setup()
    from configurator import selectors
    from configurator.engine.performance import clear_memos
    from configurator.engine.recommend import recommend
    from configurator.inputs import workload_from_input
    from configurator.schemas import WorkloadIn

    catalog, rules = selectors.snapshots()
    params = rules.current[rules.default].params
    scaled_catalog = scaled(catalog.offered, FACTOR)

    def call(raw: dict):
        workload = workload_from_input(WorkloadIn.model_validate(raw))
        return lambda: recommend(workload, scaled_catalog, params, rules.scenarios)

    def timed(raw: dict) -> float:
        return per_call_seconds(call(raw), calls=10, rounds=5)

    print(f"{FACTOR}× catalog ({size(scaled_catalog)} items); rounds alternate the two")
    print(f"{'workload':26}{'by month':>12}{'with work':>12}{'ratio':>9}{'cold':>12}{'ratio':>9}")
    results = {}
    for label, (base, work) in PAIRS.items():
        plain_call, priced_call = call(base), call({**base, **work})

        def cold_call(priced=priced_call):
            clear_memos()
            priced()

        # The machine is shared: alternate short rounds of each and take medians, so a burst
        # of load hits both sides.
        plain, priced, cold = [], [], []
        for _ in range(ROUNDS):
            plain.append(per_call_seconds(plain_call, calls=5, rounds=1))
            priced.append(per_call_seconds(priced_call, calls=5, rounds=1))
            cold.append(per_call_seconds(cold_call, calls=5, rounds=1))
        ratio = statistics.median(p / q for p, q in zip(priced, plain, strict=True))
        cold_ratio = statistics.median(c / q for c, q in zip(cold, plain, strict=True))
        plain_s, priced_s, cold_s = map(statistics.median, (plain, priced, cold))
        results[label] = (plain_s, priced_s)
        print(f"{label:26}{plain_s * 1e3:>9.1f} ms{priced_s * 1e3:>9.1f} ms{ratio:>8.2f}×"
              f"{cold_s * 1e3:>9.1f} ms{cold_ratio:>8.2f}×")  # fmt: skip
    for label, raw in TARGETS.items():
        print(f"{label:38}{timed(raw) * 1e3:>9.1f} ms")
    for label in ("DeepSeek-R1 FP8, 64 users, first token 2 s, 50 ms a token",
                  "Qwen2.5-72B, 32k context, 64 users, first token 1 s"):  # fmt: skip
        print(f"{label:60}{timed(WORKLOADS[label]) * 1e3:>9.1f} ms")
    return results


if __name__ == "__main__":
    run()
