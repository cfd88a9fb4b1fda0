"""Print docs/recommender.md's table of workloads and their top builds on the seed catalog.

`python -m bench.recommend_table --write` puts the table between the markers of
docs/recommender.md; a test compares the two, so the docs stay true when the catalog, the
rules or the recommender change. Each row names the top
build and the next ones: nodes × GPUs per node, the GPU, inference replicas, the NICs of a
multi-node fabric, and the monthly price in CNY.
"""

import sys
from pathlib import Path

from bench.harness import django_setup

DOCS = Path(__file__).resolve().parent.parent / "docs" / "recommender.md"
BEGIN, END = (
    "<!-- recommend-table: python -m bench.recommend_table --write -->",
    "<!-- /recommend-table -->",
)

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
    # Serving under load with targets (issue 19): first token and time per output token.
    "DeepSeek-R1 FP8, 64 users, first token 2 s, 50 ms a token": {
        "model": "deepseek-r1",
        "mode": "infer",
        "precision": "fp8",
        "concurrent_users": 64,
        "target_ttft_s": 2,
        "target_tpot_s": 0.05,
    },
    "Qwen2.5-72B, 32k context, 64 users, first token 1 s": {
        "model": "qwen2.5-72b",
        "mode": "infer",
        "context_length": 32768,
        "concurrent_users": 64,
        "target_ttft_s": 1,
    },
}


def with_work(raw: dict) -> dict:
    """Return the workload with an amount of work: its own, or a run or users, so builds rank
    by the cost of the work (docs/performance.md)."""
    if raw["mode"] == "infer":
        work = {"concurrent_users": raw.get("batch_size", 1)}
        return raw if "concurrent_users" in raw else {**raw, **work}
    return {"train_tokens": 1e9, **raw}


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


def table(catalog, params, scenarios) -> list[str]:
    """Return the markdown table's lines for a catalog, a rule version and the recipes."""
    from configurator.engine.recommend import recommend
    from configurator.inputs import workload_from_input
    from configurator.schemas import WorkloadIn

    lines = ["| workload | top build (CNY per month) | next builds |", "|---|---|---|"]
    for label, raw in WORKLOADS.items():
        workload = workload_from_input(WorkloadIn.model_validate(raw))
        found = recommend(workload, catalog, params, scenarios)
        if not found.builds:
            cells = (label, f"none: {found.reason}", "")
        else:
            top, *rest = found.builds
            cells = (label, describe(top), "; ".join(describe(item) for item in rest))
        lines.append(f"| {' | '.join(cells)} |")
    return lines


def current_table() -> list[str]:
    """Return the table for the installed catalog and the default rule profile."""
    from configurator import selectors

    catalog, rules = selectors.snapshots()
    return table(catalog.offered, rules.current[rules.default].params, rules.scenarios)


def docs_table(text: str) -> list[str]:
    """Return the table lines between the markers of docs/recommender.md."""
    start = text.index(BEGIN) + len(BEGIN)
    return text[start : text.index(END)].strip().splitlines()


def run(write: bool = False) -> list[str]:
    django_setup()
    lines = current_table()
    print("\n".join(lines))
    if write:
        text = DOCS.read_text(encoding="utf-8")
        start, end = text.index(BEGIN) + len(BEGIN), text.index(END)
        DOCS.write_text(text[:start] + "\n" + "\n".join(lines) + "\n" + text[end:], "utf-8")
        print(f"written to {DOCS}")
    return lines


if __name__ == "__main__":
    run(write="--write" in sys.argv)
