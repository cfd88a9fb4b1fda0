"""Print docs/recommender.md's table of workloads and their top builds on the seed catalog.

`python -m bench.recommend_table` — the table in the docs is this script's output, so it
stays true when the catalog, the rules or the recommender change. Each row names the top
build and the next ones: nodes × GPUs per node, the GPU, inference replicas, the NICs of a
multi-node fabric, and the monthly price in CNY.
"""

from bench.harness import django_setup

# The workloads presales quote most, and the ones that showed what a datacenter racks.
WORKLOADS: dict[str, dict[str, object]] = {
    "7B inference, batch 1": {"model_params_b": 7, "mode": "infer", "batch_size": 1},
    "7B LoRA fine-tune, batch 4": {
        "model_params_b": 7,
        "mode": "finetune",
        "finetune_method": "lora",
        "batch_size": 4,
    },
    "13B LoRA fine-tune, batch 1": {
        "model_params_b": 13,
        "mode": "finetune",
        "finetune_method": "lora",
    },
    "13B full fine-tune, batch 4": {"model_params_b": 13, "mode": "finetune", "batch_size": 4},
    "70B inference, batch 32": {"model_params_b": 70, "mode": "infer", "batch_size": 32},
    "70B inference, batch 32, 4k context": {
        "model_params_b": 70,
        "mode": "infer",
        "batch_size": 32,
        "context_length": 4096,
    },
    "70B training, batch 64": {"model_params_b": 70, "mode": "train", "batch_size": 64},
    "175B training, batch 8": {"model_params_b": 175, "mode": "train", "batch_size": 8},
    "405B inference, batch 8": {"model_params_b": 405, "mode": "infer", "batch_size": 8},
}


def describe(item) -> str:
    """Return one build as the table shows it."""
    build = item.build
    where = f"{build.nodes} × {build.gpu_count}" if build.nodes > 1 else f"{build.gpu_count}"
    text = f"{where} × {build.gpu.name}"
    if item.replicas is not None and item.replicas.count > 1:
        text += f" ({item.replicas.count} replicas of {item.replicas.size})"
    if item.nic:
        text += f", {build.nics} × {item.nic.speed_gbps}G NIC per node"
    if item.scenario:
        text += f" [{item.scenario}]"
    return f"{text}: {item.monthly_price:,.0f}"


def run() -> list[tuple[str, str, str]]:
    django_setup()
    from configurator import selectors
    from configurator.engine.recommend import recommend
    from configurator.inputs import workload_from_input
    from configurator.schemas import WorkloadIn

    catalog, rules = selectors.snapshots()
    params = rules.current[rules.default].params
    rows = []
    print("| workload | top build (CNY per month) | next builds |")
    print("|---|---|---|")
    for label, raw in WORKLOADS.items():
        workload = workload_from_input(WorkloadIn.model_validate(raw))
        found = recommend(workload, catalog.offered, params, rules.scenarios)
        if not found.builds:
            rows.append((label, f"none: {found.reason}", ""))
        else:
            top, *rest = found.builds
            rows.append((label, describe(top), "; ".join(describe(item) for item in rest)))
        print(f"| {' | '.join(rows[-1])} |")
    return rows


if __name__ == "__main__":
    run()
