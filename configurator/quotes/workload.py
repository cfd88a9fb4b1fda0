"""A quote's workload and build in one line each, in the active language, as pages show them."""

from __future__ import annotations

from django.utils.translation import gettext as _
from django.utils.translation import ngettext


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


def build_summary(build: dict[str, object], bom: list[dict[str, object]] | None = None) -> str:
    """Return e.g. "8 × NVIDIA H100 80GB SXM5 per node, 2 nodes", the GPU named as quoted."""
    nodes = int(build.get("nodes") or 1)
    gpu = (
        next((line.get("name") for line in bom or () if line.get("kind") == "gpu"), None)
        or build["gpu"]
    )
    return ngettext(
        "%(count)s × %(gpu)s per node, %(nodes)s node",
        "%(count)s × %(gpu)s per node, %(nodes)s nodes",
        nodes,
    ) % {"count": build["gpu_count"], "gpu": gpu, "nodes": nodes}
