"""A quote's workload and build in one line each, in the active language, as pages show them."""

from __future__ import annotations

from django.utils.translation import gettext, ngettext
from django.utils.translation import gettext as _

from configurator.engine.build import Mode, Workload
from configurator.engine.model_shapes import UnknownModelError, published_shape
from configurator.schemas import WORKLOAD_FIELDS

# The fields the headline names; every other declared field given is a detail line.
HEADLINE = (
    "model_params_b", "mode", "batch_size", "precision", "context_length", "finetune_method",
)  # fmt: skip
FIELDS = {field.name: field for field in WORKLOAD_FIELDS}


def workload_mode(workload: dict[str, object]) -> str:
    """Return the workload's mode in words ("training", "LoRA fine-tune"), never its key."""
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


def _value(workload: dict[str, object], name: str) -> object:
    """Return a field of a frozen workload, or the default it states when not kept."""
    value = workload.get(name)
    return FIELDS[name].shown_default if value is None else value


def workload_summary(workload: dict[str, object] | None) -> str:
    """Return e.g. "13B full fine-tune, batch 4, bf16, context 2048 tokens"."""
    if not workload:
        return _("No workload: the build was not sized for one.")
    return _("%(size)sB %(mode)s, batch %(batch)s, %(precision)s, context %(context)s tokens") % {
        "size": f"{float(workload['model_params_b']):g}",
        "mode": workload_mode(workload),
        "batch": _value(workload, "batch_size"),
        "precision": _value(workload, "precision"),
        "context": _value(workload, "context_length"),
    }


def _shown(name: str, value: object) -> str:
    if name == "model":  # a named model as its maker writes it
        try:
            return published_shape(str(value)).name
        except UnknownModelError:
            return str(value)
    if isinstance(value, float):
        return f"{value:g}"
    return str(value)


def workload_details(workload: dict[str, object] | None) -> list[tuple[str, str]]:
    """Return the frozen workload's other fields given, as (label, value) in declared order:
    its work and targets (concurrent users, first-token time, tokens/s, …), the model by name
    and the shape it filled (frozen with the quote: `inputs.workload_frozen`) and the
    recommender's preferences. A key the declaration no longer has is left out."""
    if not workload:
        return []
    implied = _implied(workload)
    return [
        (gettext(str(field.spec.label)), _shown(field.name, workload[field.name]))
        for field in WORKLOAD_FIELDS
        if field.name not in HEADLINE
        and workload.get(field.name) is not None
        and workload[field.name] != implied.get(field.name)
    ]


def _implied(workload: dict[str, object]) -> dict[str, object]:
    """Return what a detail line would only repeat: each field's default, and the shape the
    named model fills (the engine's own filling, `Workload(model=…)`), which its name says."""
    implied = {field.name: field.stated_default for field in WORKLOAD_FIELDS}
    model = workload.get("model")
    if model:
        try:
            shape = Workload(None, Mode(workload["mode"]), model=str(model))
        except (UnknownModelError, ValueError):
            return implied
        implied |= {
            field.name: getattr(shape, field.name)
            for field in WORKLOAD_FIELDS
            if field.name != "model" and getattr(shape, field.name) is not None
        }
    return implied


def workload_text(workload: dict[str, object] | None) -> str:
    """Return the summary and the details in one line: what a PDF or a card prints."""
    details = "; ".join(f"{label}: {value}" for label, value in workload_details(workload))
    summary = workload_summary(workload)
    return f"{summary}; {details}" if details else summary


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
