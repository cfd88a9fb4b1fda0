"""The GPU memory a workload needs: weights, gradients, optimizer state, activations, KV cache.

Symbols: P parameters (`model_params_b` × 10⁹), L layers, h hidden size, a attention heads,
k KV heads, d = h / a the head size, V vocabulary, s context length, b `batch_size`, n GPUs.
Bytes are counted exactly and reported in GB (10⁹ bytes), totals over all GPUs.

Inference (`Mode.INFER`), tensor parallel over n GPUs, every term split evenly:

    weights     = P · bytes(precision)          fp32 4, fp16/bf16 2, fp8 1, int8 1, int4 0.5
    kv_cache    = kv_values · s · b · kv        kv_values = 2·L·k·d (MHA, GQA), L·(r + d_R) (MLA:
                                                DeepSeek's latent, 61 × (512 + 64)), 0 for an
                                                encoder; kv = bytes of `kv_cache_precision`
                                                (default the weights'): 2, 1 for fp8/int8, 4
    activations = max(T · 4h · act, b · V · 4)  T = min(s · b, C), act = 2, 4 for fp32

The KV term is the K and V tensor of every layer for every token of every concurrent sequence
(Pope et al. 2022, "Efficiently Scaling Transformer Inference"; vLLM sizes its KV blocks the
same way). Weight-only integer formats (int8, int4) keep a 16-bit cache unless
`kv_cache_precision` says otherwise. Weights count all P parameters, a mixture of experts
too: memory holds every expert, only compute (performance.py) uses the active ones. Inference
activations are freed layer by layer, so only the largest transient buffer counts, as serving
engines run it: prefill in chunks of at most C = 8192 tokens per step (`PREFILL_CHUNK_TOKENS`;
vLLM's `max_num_batched_tokens` and SGLang's `chunked_prefill_size` default to 8192), whose
4h MLP intermediate is the largest buffer, and logits for the last token of each sequence
only, in fp32 for sampling. So the KV cache, not the activations, dominates at long context.

Full training (`Mode.TRAIN`) and full fine-tuning: mixed-precision Adam, sharded ZeRO-3/FSDP
style over n GPUs (Rajbhandari et al. 2020, "ZeRO", §3: 2 + 2 + 12 = 16 bytes per parameter):

    weights 2P, gradients 2P, optimizer 12P     (fp32 master copy, first and second moment)
    activations per GPU = 2·s·b·h·L + 2·s·b·V

With full activation recomputation only the 16-bit input of each layer is kept, 2·s·b·h bytes
per layer (Korthikanti et al. 2022, "Reducing Activation Recomputation in Large Transformer
Models", §4.1); the logits (2·s·b·V) are added as llm-analysis adds them. Training batch is per
GPU, so every GPU holds its own activations. fp32 training keeps 4P weights, 4P gradients and
8P moments (still 16 bytes per parameter) with 4-byte activations.

LoRA (`FinetuneMethod.LORA`): the frozen base at P · bytes(precision) plus adapters of rank
r = 16 on every linear layer of every block. An adapter on a d_in × d_out matrix has
r · (d_in + d_out) parameters; the four attention projections give 6h + 2·k·d, a gated MLP of
width 8h/3 gives 11h, so N_A = r · L · (17h + 2·k·d) (39.9 M for Llama-2-7B; PEFT reports
39,976,960). Adapters are trained in fp32 with Adam: 4 + 4 + 8 = 16 bytes per adapter
parameter (Hu et al. 2021, "LoRA"; PEFT keeps adapter weights in fp32). Activations as in full
training: gradients still flow through the frozen base, and recomputation is on.

QLoRA (`FinetuneMethod.QLORA`): as LoRA with the base in 4-bit NormalFloat with double
quantisation, 4 + 0.127 bits per parameter (Dettmers et al. 2023, "QLoRA", §3).

Runtime overhead per GPU = 0.5 GB (CUDA context with lazy module loading, cuBLAS workspaces,
NCCL buffers) + 5 % of that GPU's tensors but the KV cache (caching-allocator fragmentation,
the working set of the layer being recomputed, ZeRO-3's gathered layer); serving engines
allocate the KV cache once, as one pool of fixed-size blocks (vLLM's PagedAttention,
TensorRT-LLM's paged KV cache), so it does not fragment. Total = n × per GPU; when the GPU count
is not known the workload is sized for one GPU.

Model shape, when the workload does not give it: a `model` fills its published shape
(model_shapes.py, when the Workload is made); a nominal size within 5 % of a published
grouped-query model takes that model's shape (`KNOWN_SHAPES`); any other size solves
P ≈ 12·L·h² + V·h (4h² attention + 8h² MLP per layer, plus the embedding; Kaplan et al.
2020 §2.1) with the width-to-depth ratio h ≈ 128·L that GPT-3 175B, Llama-2-7B/13B and
Llama-3.1-405B share, rounds L to a whole layer and h to a multiple of the 128-wide head.
Derived models have h / 128 heads and 8 KV heads: a shape not given is grouped-query
attention (domain.md §6), never 2023's multi-head attention, which `attention: mha` asks for.

Figures agree with llm-analysis 0.2.2 for weights, KV cache, optimizer state and activations;
it keeps gradients in fp32 (4 bytes, so 18 bytes per parameter). docs/sizing.md has the
measured comparison.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from functools import lru_cache
from types import MappingProxyType
from typing import NamedTuple

from configurator.engine.build import STAGED, FinetuneMethod, Mode, Workload
from configurator.engine.messages import Message, _, counted_gpus, counted_sequences, ngettext
from configurator.engine.model_shapes import KV_CACHE_BYTES, Attention, published_shape

GB = 1e9  # sizing reports GB = 10⁹ bytes
GIB = 2**30  # GPU makers' "80 GB" of HBM or GDDR is 80 GiB: memory chips come in powers of two
# Serving engines prefill in chunks of at most this many tokens per step (vLLM's
# max_num_batched_tokens, SGLang's chunked_prefill_size: 8192 by default).
PREFILL_CHUNK_TOKENS = 8192
# Sampling reads the logits in fp32.
LOGIT_BYTES = 4.0

# Bytes per stored parameter for each precision a workload may name.
PRECISION_BYTES: Mapping[str, float] = MappingProxyType(
    {"fp32": 4.0, "fp16": 2.0, "bf16": 2.0, "fp8": 1.0, "int8": 1.0, "int4": 0.5}
)
# Mixed-precision Adam per parameter (ZeRO §3): 16-bit weights and gradients, then an fp32
# master copy, momentum and variance. Pure fp32 drops the master copy: 4 + 4 + 8.
MIXED_ADAM_BYTES = (2.0, 2.0, 12.0)
FP32_ADAM_BYTES = (4.0, 4.0, 8.0)
# LoRA adapters are fp32 weights and gradients with two fp32 Adam moments.
ADAPTER_ADAM_BYTES = (4.0, 4.0, 8.0)
LORA_RANK = 16
# QLoRA: 4-bit NormalFloat plus double-quantised constants (0.127 bits per parameter).
QLORA_BASE_BYTES = (4 + 0.127) / 8
# Held by every GPU whatever the model: a PyTorch CUDA 12 context with lazy module loading
# takes 0.3–0.6 GB, and cuBLAS workspaces and NCCL buffers come on top.
CUDA_CONTEXT_GB = 0.5
# Share of each GPU's tensors lost to caching-allocator fragmentation and short-lived buffers
# (the layer being recomputed, ZeRO-3's gathered layer, attention workspaces).
ALLOCATOR_OVERHEAD = 0.05
DEFAULT_VOCAB = 32_000  # Llama-2's tokenizer
HEAD_DIM = 128  # every Llama, GPT-3 175B and most open models since
WIDTH_PER_LAYER = 128  # h ≈ 128·L: GPT-3 175B 12288/96, Llama-2-7B 4096/32, 13B 5120/40
GQA_KV_HEADS = 8  # a shape not given: grouped-query attention with 8 KV heads (domain.md §6)
KNOWN_SHAPE_TOLERANCE = 0.05  # "6.7B" is Mistral-7B's shape, "30B" is not CodeLlama-34B's
DEFAULT_MAX_GPUS = 64  # eight 8-GPU nodes
# What a sizing answer's GB are (docs/sizing.md, "Units").
SIZING_UNIT = _(
    "GB = 10^9 bytes; a GPU maker's memory figure (80 GB) is GiB (2^30 bytes), so an 80 GB "
    "card holds 85.9 GB"
)


@dataclass(frozen=True, slots=True)
class Shape:
    """The transformer dimensions that memory depends on.

    `attention` is MHA when every head keeps its own K and V, GQA when fewer KV heads are
    shared, MLA for DeepSeek's latent KV (`kv_lora_rank` + `rope_dim` values per token and
    layer); left out, it follows the heads. `head_size` is the query/key head width when it
    is not hidden ÷ heads.
    """

    layers: int
    hidden_size: int
    attention_heads: int
    kv_heads: int
    vocab_size: int
    attention: Attention | None = None
    head_size: int | None = None
    kv_lora_rank: int = 0  # MLA only
    rope_dim: int = 0  # MLA only: the decoupled RoPE key cached beside the latent

    def __post_init__(self) -> None:
        if self.attention is None:
            kind = Attention.MHA if self.kv_heads == self.attention_heads else Attention.GQA
            object.__setattr__(self, "attention", kind)

    @property
    def head_dim(self) -> float:
        return self.head_size or self.hidden_size / self.attention_heads

    @property
    def kv_values_per_token(self) -> float:
        """Return the values the KV cache keeps per token, all layers together."""
        if self.attention is Attention.MLA:
            return self.layers * (self.kv_lora_rank + self.rope_dim)
        return 2 * self.layers * self.kv_heads * self.head_dim

    def attention_width(self, absorbed: bool = False) -> float:
        """Return the multiply-adds per layer a token spends on each position it attends to,
        halved: h for Llama (q·k over `head_dim` and the weighted sum of values, per head).

        MLA (DeepSeek-V2 §2.1): q·k over nope + rope = `head_dim` (192) and values of
        nope = 128 when the keys are rebuilt (prefill); decoding with the up-projections
        absorbed attends over the latent itself, rank + rope for q·k and rank for values.
        """
        heads = self.attention_heads
        if self.attention is Attention.MLA:
            if absorbed:
                return heads * (2 * self.kv_lora_rank + self.rope_dim) / 2
            return heads * (2 * self.head_dim - self.rope_dim) / 2
        return heads * self.head_dim

    def kv_formula(self) -> str:
        """Return how `kv_values_per_token` is counted, in symbols and figures."""
        if self.attention is Attention.MLA:
            return f"L·(r + d_R) = {self.layers} × ({self.kv_lora_rank} + {self.rope_dim})"
        return f"2·L·k·d = 2 × {self.layers} × {self.kv_heads} × {self.head_dim:g}"


# Published shapes by the nominal size a customer says, for a workload that gives neither a
# shape nor a `model` (each model's config.json). All use grouped-query attention: a shape
# not given is GQA with 8 KV heads (domain.md §6), never 2023's multi-head attention; MHA
# models (Llama-2-7B/13B, GPT-3) are sized as such only when their heads are given.
MISTRAL_7B = Shape(32, 4096, 32, 8, 32_000)  # mistralai/Mistral-7B-v0.1 config.json
KNOWN_SHAPES: tuple[tuple[float, str, Shape], ...] = (
    (7, "Mistral-7B", MISTRAL_7B),
    (8, "Llama-3.1-8B", Shape(32, 4096, 32, 8, 128_256)),
    (34, "CodeLlama-34B", Shape(48, 8192, 64, 8, 32_000)),
    (70, "Llama-2-70B", Shape(80, 8192, 64, 8, 32_000)),
    (405, "Llama-3.1-405B", Shape(126, 16384, 128, 8, 128_256)),
)
# What `attention` may name, and DeepSeek-V3's latent for an MLA model whose latent is not
# published here (domain.md §6: about 576 values per token and layer).
ATTENTION_KINDS = frozenset(str(kind) for kind in Attention)
MLA_KV_LORA_RANK = 512
MLA_ROPE_DIM = 64
# KV-cache formats a workload may name (vLLM's kv_cache_dtype), and fp32 for fp32 models.
KV_PRECISIONS = frozenset({*KV_CACHE_BYTES, "fp32"})


# A note on how the need was reckoned, written only when it is read: the recommender sizes
# thousands of candidates and reads none of their notes.
Note = Callable[[], Message]


@dataclass(frozen=True, slots=True)
class Sizing:
    """The GPU memory a workload needs, in GB (10⁹ bytes), with how it was reckoned."""

    total_gb: float  # all GPUs together
    per_gpu_gb: float | None  # when gpu_count is known
    gpu_count: int | None
    breakdown: Mapping[str, float]  # weights, gradients, optimizer, activations, kv_cache, overhead
    notes: tuple[Note, ...] = field(compare=False, repr=False)  # read as `assumptions`
    micro_batch: int | None = None  # training that accumulates gradients: sequences per step
    # Inference: the KV cache's format and the attention it was counted for (api.md: /sizing
    # names them), and its bytes per token; None for training.
    kv_cache_precision: str | None = None
    attention: str | None = None
    kv_bytes_per_token: float | None = None

    @property
    def assumptions(self) -> tuple[Message, ...]:
        """Return how the need was reckoned, one message per assumption."""
        return tuple(note() for note in self.notes)


@dataclass(frozen=True, slots=True)
class _Need:
    """Bytes by term: `split` is divided over the GPUs, `each` is held by every GPU."""

    split: dict[str, float]
    each: dict[str, float]
    notes: tuple[Note, ...]

    def per_gpu_gb(self, n: int) -> float:
        """Return what one of n GPUs holds, overhead included (the KV cache is one pool)."""
        tensors = (sum(self.split.values()) / n + sum(self.each.values())) / GB
        pool = (self.split.get("kv_cache", 0.0) / n + self.each.get("kv_cache", 0.0)) / GB
        return tensors + (tensors - pool) * ALLOCATOR_OVERHEAD + CUDA_CONTEXT_GB


def _positive(name: str, value: float | None) -> None:
    if value is not None and not value > 0:
        raise ValueError(f"{name} must be positive, got {value!r}")


def _precision(workload: Workload) -> str:
    precision = str(workload.precision).lower()
    if precision not in PRECISION_BYTES:
        known = ", ".join(PRECISION_BYTES)
        raise ValueError(f"unknown precision {workload.precision!r}; expected one of {known}")
    return precision


def _validate(workload: Workload) -> None:
    if workload.model_params_b is None:
        raise ValueError("model_params_b must be given, or a model that fills it")
    _positive("model_params_b", workload.model_params_b)
    _positive("batch_size", workload.batch_size)
    _positive("context_length", workload.context_length)
    for name in ("gpu_count", "layers", "hidden_size", "attention_heads", "kv_heads", "vocab_size",
                 "active_params_b", "experts", "experts_per_token", "head_dim"):  # fmt: skip
        _positive(name, getattr(workload, name))
    if workload.active_params_b is not None and workload.active_params_b > workload.model_params_b:
        raise ValueError("active_params_b cannot exceed model_params_b")
    if (
        workload.experts
        and workload.experts_per_token
        and (workload.experts_per_token > workload.experts)
    ):
        raise ValueError("experts_per_token cannot exceed experts")
    if workload.attention is not None and str(workload.attention).lower() not in ATTENTION_KINDS:
        known = ", ".join(sorted(ATTENTION_KINDS))
        raise ValueError(f"unknown attention {workload.attention!r}; expected one of {known}")
    kv = workload.kv_cache_precision
    if kv is not None and str(kv).lower() not in KV_PRECISIONS:
        known = ", ".join(sorted(KV_PRECISIONS))
        raise ValueError(f"unknown kv_cache_precision {kv!r}; expected one of {known}")


def kv_precision(workload: Workload) -> str:
    """Return the KV cache's number format: as given, else the weights' precision.

    Weight-only integer formats (int8, int4) dequantise to 16 bits, so their cache is fp16
    unless `kv_cache_precision` says otherwise.
    """
    if workload.kv_cache_precision is not None:
        return str(workload.kv_cache_precision).lower()
    precision = _precision(workload)
    return "fp16" if precision in ("int8", "int4") else precision


def kv_bytes_per_token(workload: Workload) -> float:
    """Return the KV-cache bytes one token takes in all layers; 0 for an encoder model."""
    if workload.encoder:
        return 0.0
    return model_shape(workload).kv_values_per_token * PRECISION_BYTES[kv_precision(workload)]


def attention_kind(workload: Workload) -> Attention:
    """Return the attention the workload is sized with (domain.md §6)."""
    return model_shape(workload).attention  # type: ignore[return-value]


def _layers_for(params: float, vocab: int) -> float:
    """Solve 12·L·h² + V·h = P with h = 128·L for L (Cardano: one real root)."""
    c = 12 * WIDTH_PER_LAYER**2
    p = WIDTH_PER_LAYER * vocab / c
    q = params / c
    u = (q / 2 + math.sqrt(q * q / 4 + p**3 / 27)) ** (1 / 3)
    return u - p / (3 * u)


def _hidden_for(params: float, layers: int, vocab: int) -> int:
    """Solve 12·L·h² + V·h = P for h, rounded to a multiple of the 128-wide head."""
    h = (-vocab + math.sqrt(vocab * vocab + 48 * layers * params)) / (24 * layers)
    return max(HEAD_DIM, round(h / HEAD_DIM) * HEAD_DIM)


def _known_shape(params_b: float) -> tuple[str, Shape] | None:
    nominal, name, shape = min(KNOWN_SHAPES, key=lambda row: abs(row[0] - params_b) / row[0])
    if abs(nominal - params_b) <= KNOWN_SHAPE_TOLERANCE * nominal:
        return name, shape
    return None


def _describe(shape: Shape) -> Message:
    return _(
        "%(layers)s layers, hidden %(hidden)s, %(heads)s attention heads, %(kv_heads)s KV heads, "
        "vocabulary %(vocab)s",
        layers=shape.layers, hidden=shape.hidden_size, heads=shape.attention_heads,
        kv_heads=shape.kv_heads, vocab=shape.vocab_size,
    )  # fmt: skip


class ShapeFields(NamedTuple):
    """The fields of a workload its shape is derived from (`model_shape`): the shape of every
    workload with the same ones is the same, so it is derived once (`_shape_and_note`)."""

    model: str | None
    model_params_b: float
    layers: int | None
    hidden_size: int | None
    attention_heads: int | None
    kv_heads: int | None
    vocab_size: int | None
    attention: str | None
    head_dim: int | None

    @classmethod
    def of(cls, workload: Workload) -> ShapeFields:
        return cls(
            workload.model, workload.model_params_b, workload.layers, workload.hidden_size,
            workload.attention_heads, workload.kv_heads, workload.vocab_size,
            workload.attention, workload.head_dim,
        )  # fmt: skip


def _attention(workload: ShapeFields, shape: Shape) -> Shape:
    """Return the shape with the workload's attention kind, head width and MLA latent."""
    kind = Attention(str(workload.attention).lower()) if workload.attention else None
    kv_heads = shape.kv_heads
    if workload.kv_heads is None and kind is Attention.MHA:
        kv_heads = shape.attention_heads
    elif workload.kv_heads is None and kind is Attention.MLA:
        kv_heads = shape.attention_heads  # the latent is expanded into every head
    rank = rope = 0
    if kind is Attention.MLA:
        published = published_shape(workload.model) if workload.model else None
        if published is not None and published.attention is Attention.MLA:
            rank, rope = published.kv_lora_rank or 0, published.qk_rope_head_dim or 0
        else:
            rank, rope = MLA_KV_LORA_RANK, MLA_ROPE_DIM
    return replace(
        shape,
        kv_heads=kv_heads,
        attention=kind or (Attention.MHA if kv_heads == shape.attention_heads else Attention.GQA),
        head_size=workload.head_dim or shape.head_size,
        kv_lora_rank=rank,
        rope_dim=rope,
    )


def _shape_and_note(workload: Workload) -> tuple[Shape, Note]:
    # The recommender sizes one workload thousands of times (every replica size and batch
    # it tries), always with the same shape: derive it once per distinct set of fields.
    return _derived_shape(ShapeFields.of(workload))


@lru_cache(maxsize=1024)
def _derived_shape(fields: ShapeFields) -> tuple[Shape, Note]:
    shape, note = _dimensions_and_note(fields)
    return _attention(fields, shape), note


def _dimensions_and_note(workload: ShapeFields) -> tuple[Shape, Note]:
    given = (
        workload.layers,
        workload.hidden_size,
        workload.attention_heads,
        workload.kv_heads,
        workload.vocab_size,
    )
    size = f"{workload.model_params_b:g}"
    if workload.model and all(given):
        shape = Shape(*given)
        published = published_shape(workload.model)
        return shape, lambda: _(
            "shape of %(model)s as published: %(shape)s",
            model=published.name, shape=_describe(shape),
        )  # fmt: skip
    if all(given):
        shape = Shape(*given)
        return shape, lambda: _("shape as given: %(shape)s", shape=_describe(shape))
    if not any(given) and (known := _known_shape(workload.model_params_b)):
        name, shape = known
        return shape, lambda: _(
            "shape derived from %(size)sB parameters: %(model)s, %(shape)s",
            size=size, model=name, shape=_describe(shape),
        )  # fmt: skip

    params = workload.model_params_b * 1e9
    vocab = workload.vocab_size or DEFAULT_VOCAB
    layers, hidden = workload.layers, workload.hidden_size
    if layers is None and hidden is None:
        layers = max(1, round(_layers_for(params, vocab)))
    if hidden is None:
        hidden = _hidden_for(params, layers, vocab)
    elif layers is None:
        layers = max(1, round((params - vocab * hidden) / (12 * hidden * hidden)))
    heads = workload.attention_heads or max(1, round(hidden / HEAD_DIM))
    # A shape not given is grouped-query attention with 8 KV heads (Llama 3, Qwen2.5,
    # Mistral; domain.md §6), one per head only for models with fewer than 8 heads.
    kv_heads = workload.kv_heads or min(heads, GQA_KV_HEADS)
    shape = Shape(layers, hidden, heads, kv_heads, vocab)
    if any(given):
        return shape, lambda: _(
            "shape partly given, the rest derived from %(size)sB parameters by "
            "P ≈ 12·L·h² + V·h with h ≈ 128·L: %(shape)s",
            size=size, shape=_describe(shape),
        )  # fmt: skip
    return shape, lambda: _(
        "shape derived from %(size)sB parameters by P ≈ 12·L·h² + V·h with h ≈ 128·L: "
        "%(shape)s",
        size=size, shape=_describe(shape),
    )  # fmt: skip


def model_shape(workload: Workload) -> Shape:
    """Return the workload's shape, deriving what it does not give from its parameter count.

    A `model` fills every field it describes (fields given beside it win). All five fields
    given: used as they are. None given and the size within 5 % of a published GQA model
    (`KNOWN_SHAPES`): that model's shape. Otherwise the missing fields come from
    P ≈ 12·L·h² + V·h with h ≈ 128·L, h a multiple of 128, h / 128 heads, V = 32000, and
    8 KV heads (grouped-query attention, the default shape). `attention` mha gives every
    head its K and V, mla DeepSeek's latent (the published one, else 512 + 64 values).
    """
    _validate(workload)
    return _shape_and_note(workload)[0]


def _kv_note(
    workload: Workload, shape: Shape, kv_format: str, per_token: float, b: int, s: int
) -> Message:
    """Say what the KV cache holds: the attention kind, its format and bytes per token."""
    if workload.encoder:
        return _("an encoder or embedding model: no KV cache")
    cache = ngettext(
        "KV cache in %(precision)s for %(n)s concurrent sequence of %(tokens)s tokens",
        "KV cache in %(precision)s for %(n)s concurrent sequences of %(tokens)s tokens",
        b, precision=kv_format, tokens=s,
    )  # fmt: skip
    kind = str(shape.attention).upper()
    if _default_attention(workload):
        kind = _("%(kind)s (the default for a shape not given)", kind=kind)
    return _(
        "%(cache)s; %(attention)s attention: %(formula)s = %(values)s values, %(bytes)s bytes "
        "per token",
        cache=cache, attention=kind, formula=shape.kv_formula(),
        values=f"{shape.kv_values_per_token:,.0f}", bytes=f"{per_token:,.0f}",
    )  # fmt: skip


def _default_attention(workload: Workload) -> bool:
    """Return whether the attention is the default GQA of a shape derived from the size."""
    if workload.attention is not None or workload.kv_heads is not None or workload.model:
        return False
    given = (workload.layers, workload.hidden_size, workload.attention_heads, workload.vocab_size)
    return any(given) or _known_shape(workload.model_params_b) is None


def _moe_note(workload: Workload) -> Message:
    if workload.is_moe:
        return _(
            "mixture of experts, %(k)s of %(experts)s experts per token: memory holds all "
            "%(total)sB parameters, compute uses %(active)sB",
            k=workload.experts_per_token, experts=workload.experts,
            total=f"{workload.model_params_b:g}", active=f"{workload.active_b:g}",
        )  # fmt: skip
    return _(
        "memory holds all %(total)sB parameters, compute uses %(active)sB",
        total=f"{workload.model_params_b:g}", active=f"{workload.active_b:g}",
    )  # fmt: skip


def _training_bytes(precision: str) -> tuple[tuple[float, float, float], float, Note]:
    """Return (weight, gradient, optimizer) bytes per parameter, activation bytes, and why."""
    if precision == "fp32":
        return FP32_ADAM_BYTES, 4.0, lambda: _("fp32 Adam: 4 + 4 + 8 = 16 bytes per parameter")
    return MIXED_ADAM_BYTES, 2.0, lambda: _mixed_precision_note(precision)


def _mixed_precision_note(precision: str) -> Message:
    note = _(
        "mixed-precision Adam: 2 bytes weights + 2 bytes gradients + 12 bytes optimizer "
        "(fp32 master copy and two moments) = 16 bytes per parameter"
    )
    if precision in ("bf16", "fp16"):
        return note
    return _(
        "%(note)s; %(precision)s training is sized as bf16 mixed precision",
        note=note, precision=precision,
    )  # fmt: skip


def _adapter_note(qlora: bool, precision: str, base: float, adapters: float) -> Message:
    if qlora:
        label, base_note = "QLoRA", _("frozen 4-bit NF4 base with double quantisation")
    else:
        label, base_note = "LoRA", _("frozen %(precision)s base", precision=precision)
    return _(
        "%(method)s: %(base)s (%(bytes)s bytes per parameter) + rank %(rank)s adapters on "
        "every linear layer, %(adapters)s M parameters trained with fp32 Adam (16 bytes each)",
        method=label, base=base_note, bytes=f"{base:.3g}", rank=LORA_RANK,
        adapters=f"{adapters / 1e6:.1f}",
    )  # fmt: skip


def _split_note(layers: bool, gpus: int) -> Message:
    """Say how a replica's GPUs share the model: whole layers each, or a slice of each."""
    if layers:
        return _(
            "layers split over %(gpus)s: weights and KV cache split evenly, each GPU holding "
            "its own activations",
            gpus=counted_gpus(gpus),
        )
    return _(
        "tensor parallelism over %(gpus)s: weights, KV cache and activations split evenly",
        gpus=counted_gpus(gpus),
    )


def _trains(workload: Workload) -> bool:
    return workload.mode in (Mode.TRAIN, Mode.FINETUNE)


def _need(workload: Workload, n: int | None, micro_batch: int | None = None) -> _Need:
    """Return every term in bytes, split over GPUs or held by each one.

    `micro_batch` (training only) sizes the activations for fewer sequences than the batch:
    the batch then runs as gradient accumulation over ⌈batch / micro_batch⌉ steps.
    """
    _validate(workload)
    precision = _precision(workload)
    shape, shape_note = _shape_and_note(workload)
    params = workload.model_params_b * 1e9
    s, b = workload.context_length, workload.batch_size
    if micro_batch is not None and _trains(workload):
        b = max(1, min(micro_batch, b))
    h, L, V = shape.hidden_size, shape.layers, shape.vocab_size
    act_bytes = 4.0 if precision == "fp32" else 2.0
    notes: list[Note] = [shape_note]
    split = dict.fromkeys(("weights", "gradients", "optimizer", "activations", "kv_cache"), 0.0)
    each = dict.fromkeys(split, 0.0)

    if workload.is_moe or workload.active_b < workload.model_params_b:
        notes.append(lambda: _moe_note(workload))
    if workload.mode == Mode.INFER:
        kv_format = kv_precision(workload)
        kv_bytes = PRECISION_BYTES[kv_format]
        split["weights"] = params * PRECISION_BYTES[precision]
        # K and V of every layer (MLA: its latent) for every token of every sequence.
        per_token = 0.0 if workload.encoder else shape.kv_values_per_token * kv_bytes
        split["kv_cache"] = per_token * s * b
        # The largest transient buffer: a prefill chunk's MLP intermediate, or the logits of
        # each sequence's last token.
        tokens = min(s * b, PREFILL_CHUNK_TOKENS)
        split["activations"] = max(tokens * 4 * h * act_bytes, b * V * LOGIT_BYTES)
        notes += [
            lambda: _(
                "weights in %(precision)s, %(bytes)s bytes per parameter",
                precision=precision, bytes=f"{PRECISION_BYTES[precision]:g}",
            ),
            lambda: _kv_note(workload, shape, kv_format, per_token, b, s),
            lambda: _(
                "activations: the larger of a prefill chunk's MLP intermediate (%(tokens)s "
                "tokens, chunks of at most %(chunk)s) and the last-token logits of each "
                "sequence (fp32)",
                tokens=tokens, chunk=PREFILL_CHUNK_TOKENS,
            ),
        ]  # fmt: skip
        layers = workload.parallelism in STAGED
        if layers:
            # Each GPU holds whole layers: a stage's buffers are whole, not slices.
            each["activations"], split["activations"] = split["activations"], 0.0
        if n is not None and n > 1:
            notes.append(lambda: _split_note(layers, n))
    elif _trains(workload):
        method = FinetuneMethod.FULL if workload.mode == Mode.TRAIN else workload.finetune_method
        if method == FinetuneMethod.FULL:
            (w, g, o), act_bytes, state_note = _training_bytes(precision)
            split["weights"], split["gradients"], split["optimizer"] = (
                params * w,
                params * g,
                params * o,
            )
            notes.append(state_note)
        elif method in (FinetuneMethod.LORA, FinetuneMethod.QLORA):
            adapters = LORA_RANK * L * (17 * h + 2 * shape.kv_heads * shape.head_dim)
            w, g, o = ADAPTER_ADAM_BYTES
            qlora = method == FinetuneMethod.QLORA
            base = QLORA_BASE_BYTES if qlora else PRECISION_BYTES[precision]
            split["weights"] = params * base + adapters * w
            split["gradients"] = adapters * g
            split["optimizer"] = adapters * o
            notes.append(lambda: _adapter_note(qlora, precision, base, adapters))
        else:
            raise ValueError(f"unknown fine-tuning method {workload.finetune_method!r}")
        # Full recomputation keeps each layer's input (Korthikanti et al. 2022) + the logits.
        each["activations"] = s * b * (h * L + V) * act_bytes
        notes.append(
            lambda: _(
                "full activation recomputation: each layer's input and the logits kept, "
                "%(sequences)s of %(tokens)s tokens per GPU",
                sequences=counted_sequences(b), tokens=s,
            )
        )  # fmt: skip
        if b < workload.batch_size:
            notes.append(
                lambda: ngettext(
                    "gradient accumulation: batch %(batch)s per GPU runs as %(n)s micro-batch "
                    "step of %(micro)s",
                    "gradient accumulation: batch %(batch)s per GPU runs as %(n)s micro-batch "
                    "steps of %(micro)s",
                    math.ceil(workload.batch_size / b), batch=workload.batch_size, micro=b,
                )
            )  # fmt: skip
        if n is not None and n > 1:
            notes.append(
                lambda: _(
                    "ZeRO-3 sharding over %(gpus)s: weights, gradients and optimizer state split "
                    "evenly, activations per GPU",
                    gpus=counted_gpus(n),
                )
            )
    else:
        raise ValueError(f"unknown mode {workload.mode!r}")

    if n is None:
        notes.append(lambda: _("GPU count not given: sized for one GPU"))
    elif n == 1:
        notes.append(lambda: _("one GPU, nothing sharded"))
    overhead = {"context": f"{CUDA_CONTEXT_GB:g}", "share": f"{ALLOCATOR_OVERHEAD:.0%}"}
    if "kv_cache" in split:
        notes.append(
            lambda: _(
                "runtime overhead: %(context)s GB per GPU (CUDA context, communication buffers) "
                "+ %(share)s of each GPU's tensors but the KV cache, which the engine allocates "
                "once as one pool of blocks (allocator fragmentation, temporary buffers)",
                **overhead,
            )
        )
    else:
        notes.append(
            lambda: _(
                "runtime overhead: %(context)s GB per GPU (CUDA context, communication buffers) "
                "+ %(share)s of each GPU's tensors (allocator fragmentation, temporary buffers)",
                **overhead,
            )
        )
    return _Need(split, each, tuple(notes))


def _micro_batch(workload: Workload, n: int, gpu_memory_gb: float) -> int:
    """Return the largest micro-batch (1..batch) whose activations fit next to the states.

    Activations grow linearly with the micro-batch: per_gpu(m) = (S/n + m·e)·(1 + f) + C,
    so m = ⌊((M − C)/(1 + f) − S/n) / e⌋, at least 1 (a workload that does not fit at one
    sequence per step does not fit at all, and is reported at that size).
    """
    one = _need(workload, n, micro_batch=1)
    per_sequence = sum(one.each.values())
    room = (gpu_memory_gb - CUDA_CONTEXT_GB) * GB / (1 + ALLOCATOR_OVERHEAD)
    room -= sum(one.split.values()) / n
    if per_sequence <= 0:
        return workload.batch_size
    return max(1, min(workload.batch_size, math.floor(room / per_sequence)))


def size_workload(
    workload: Workload, gpu_count: int | None = None, gpu_memory_gb: float | None = None
) -> Sizing:
    """Return the GPU memory a workload needs (gpu_count overrides workload.gpu_count).

    With `gpu_memory_gb`, a training batch that does not fit those GPUs at once is sized as
    gradient accumulation over the largest micro-batch that does, as trainers run it.
    """
    _positive("gpu_count", gpu_count)
    _positive("gpu_memory_gb", gpu_memory_gb)
    n = gpu_count if gpu_count is not None else workload.gpu_count
    return _sized(workload, n, gpu_memory_gb)


# A pure function of a few values, read with the same ones again and again: the capacity check
# of every build the configurator page, /evaluate or a recommender search judges sizes its
# workload on its GPUs (a search's builds share their GPU and count), the serving and work
# models size the same replicas. Its answer is only ever read.
@lru_cache(maxsize=4096)
def _sized(workload: Workload, n: int | None, gpu_memory_gb: float | None) -> Sizing:
    micro = None
    if gpu_memory_gb is not None and _trains(workload):
        micro = _micro_batch(workload, n or 1, gpu_memory_gb)
    need = _need(workload, n, micro)
    gpus = n or 1
    breakdown = {key: (need.split[key] + need.each[key] * gpus) / GB for key in need.split}
    tensors = sum(breakdown.values())
    pool = breakdown.get("kv_cache", 0.0)
    breakdown["overhead"] = (tensors - pool) * ALLOCATOR_OVERHEAD + CUDA_CONTEXT_GB * gpus
    total = tensors + breakdown["overhead"]
    return Sizing(
        total_gb=total,
        per_gpu_gb=need.per_gpu_gb(n) if n is not None else None,
        gpu_count=n,
        breakdown=MappingProxyType(breakdown),  # memoised: read by many, written by none
        notes=need.notes,
        micro_batch=micro if micro is not None and micro < workload.batch_size else None,
        **_kv_fields(workload),
    )


def _kv_fields(workload: Workload) -> dict[str, object]:
    if workload.mode != Mode.INFER:
        return {}
    return {
        "kv_cache_precision": kv_precision(workload),
        "attention": str(attention_kind(workload)),
        "kv_bytes_per_token": kv_bytes_per_token(workload),
    }


def card_gb(gpu_memory_gb: float) -> float:
    """Return a card's memory in GB (10⁹ bytes) from the maker's figure, which is in GiB."""
    return gpu_memory_gb * GIB / GB


def usable_gb(gpu_memory_gb: float, fraction: float) -> float:
    """Return the GPU memory sizing may fill, in GB: the card's memory × the usable fraction.

    `gpu_memory_gb` is the maker's figure (80 for an 80 GB H100, which holds 80 GiB);
    `fraction` is the rule profile's `gpu_memory_usable_fraction`.
    """
    return card_gb(gpu_memory_gb) * fraction


def gpus_needed(
    workload: Workload, gpu_memory_gb: float, max_gpus: int = DEFAULT_MAX_GPUS
) -> int | None:
    """Return the fewest GPUs that hold the workload in `gpu_memory_gb` each, or None.

    `gpu_memory_gb` is the memory each GPU may fill, in GB (10⁹ bytes): pass
    `usable_gb(card, rules.gpu_memory_usable_fraction)`, never the card's figure. It agrees
    with `size_workload(workload, n, gpu_memory_gb).per_gpu_gb <= gpu_memory_gb`.
    """
    _positive("gpu_memory_gb", gpu_memory_gb)
    _positive("max_gpus", max_gpus)
    # Training may accumulate gradients, so one sequence per step is the least it must hold.
    need = _need(workload, None, micro_batch=1)
    # per_gpu(n) = (S/n + E)·(1 + f) + C falls as n grows, so n = ⌈S / room⌉, where room is
    # what one GPU has left for its share of S; then step by one to absorb rounding, so the
    # answer agrees with size_workload(workload, n).per_gpu_gb <= gpu_memory_gb.
    room = (gpu_memory_gb - CUDA_CONTEXT_GB) * GB / (1 + ALLOCATOR_OVERHEAD) - sum(
        need.each.values()
    )
    if room <= 0:
        return None
    n = max(1, math.ceil(sum(need.split.values()) / room))
    while n > 1 and need.per_gpu_gb(n - 1) <= gpu_memory_gb:
        n -= 1
    while n <= max_gpus and need.per_gpu_gb(n) > gpu_memory_gb:
        n += 1
    return n if n <= max_gpus else None
