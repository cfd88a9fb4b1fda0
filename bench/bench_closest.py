"""What the closest builds add to a recommendation no build meets (issue 20).

Only a workload whose targets or budget no build meets pays for them: the recommender then
searches the work without its targets and budget, and for a deadline or a throughput its
builds of the most GPUs a build spans (`engine/recommend/closest.py`). The baseline, timed
in the same run and interleaved with it, is the same search answering no closest builds.
The sentence's reading (`engine/sentence.py`) is timed beside it, on the issue's requests.
"""

from bench.harness import django_setup, per_call_seconds

WORKLOADS = {
    "first token 0.02 s (Qwen2.5-72B, 50 users)": {
        "model": "qwen2.5-72b", "mode": "infer", "concurrent_users": 50, "target_ttft_s": 0.02,
    },
    "budget CNY 3,000 (7B LoRA)": {
        "model_params_b": 7, "mode": "finetune", "finetune_method": "lora",
        "budget_monthly": 3000,
    },
    "deadline 7 days (70B on 10T tokens)": {
        "model_params_b": 70, "mode": "train", "train_tokens": 1e13, "deadline_days": 7,
    },
}  # fmt: skip
SENTENCES = (
    "serve Qwen2.5-72B to 50 users, first token under 1 s",
    "用 H20 部署 DeepSeek-R1，1000 tok/s",
    "train a 7B on 1T tokens in 14 days",
    "7B LoRA 便宜点",
)


def run() -> dict[str, tuple[float, float]]:
    django_setup()
    from configurator import selectors
    from configurator.engine.recommend import recommend, search
    from configurator.engine.sentence import read_sentence
    from configurator.inputs import workload_from_input
    from configurator.schemas import WorkloadIn

    catalog, rules = selectors.snapshots()
    params = rules.current[rules.default].params
    closest = search._closest
    results = {}
    print(f"{'workload':46}{'without':>12}{'with':>12}{'ratio':>8}")
    for label, raw in WORKLOADS.items():
        workload = workload_from_input(WorkloadIn.model_validate(raw))

        def once(w=workload):
            return recommend(w, catalog.offered, params, rules.scenarios, limit=3)

        times = {"without": [], "with": []}
        for _ in range(3):  # interleaved: the machine's load falls on both alike
            search._closest = lambda *_args, **_kwargs: ()
            times["without"].append(per_call_seconds(once, calls=5, rounds=3))
            search._closest = closest
            times["with"].append(per_call_seconds(once, calls=5, rounds=3))
        without, with_ = min(times["without"]), min(times["with"])
        results[label] = (without, with_)
        print(f"{label:46}{without * 1e3:>9.1f} ms{with_ * 1e3:>9.1f} ms{with_ / without:>7.1f}×")
    gpus = [(gpu.slug, gpu.name) for gpu in catalog.offered.gpus]
    for sentence in SENTENCES:
        seconds = per_call_seconds(lambda s=sentence: read_sentence(s, gpus), calls=200)
        print(f"read_sentence {sentence!r}: {seconds * 1e6:.0f} µs")
    return results


if __name__ == "__main__":
    run()
