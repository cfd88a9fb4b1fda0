"""A quote's workload and build in one line each, in the active language, as pages show them."""

from __future__ import annotations

from django.utils.translation import gettext as _


def _mode(workload: dict[str, object]) -> str:
    mode = workload.get("mode")
    if mode == "train":
        return _("training")
    if mode == "infer":
        return _("inference")
    method = workload.get("finetune_method") or "full"
    return {
        "full": _("full fine-tune"),
        "lora": _("LoRA fine-tune"),
        "qlora": _("QLoRA fine-tune"),
    }.get(method, _("full fine-tune"))


def workload_summary(workload: dict[str, object] | None) -> str:
    """Return e.g. "13B full fine-tune, batch 4, bf16, context 2048 tokens"."""
    if not workload:
        return _("No workload: the build was not sized for one.")
    return _("%(size)sB %(mode)s, batch %(batch)s, %(precision)s, context %(context)s tokens") % {
        "size": f"{float(workload['model_params_b']):g}",
        "mode": _mode(workload),
        "batch": workload.get("batch_size", 1),
        "precision": workload.get("precision", "bf16"),
        "context": workload.get("context_length", 2048),
    }


def build_summary(build: dict[str, object]) -> str:
    """Return e.g. "8 × h200-sxm per node, 2 nodes": each node's GPUs, and how many nodes."""
    nodes = int(build.get("nodes") or 1)
    return _("%(count)s × %(gpu)s per node, %(nodes)s node(s)") % {
        "count": build["gpu_count"],
        "gpu": build["gpu"],
        "nodes": nodes,
    }
