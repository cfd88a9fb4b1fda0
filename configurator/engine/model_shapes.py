"""Published model shapes: today's models as their makers built them (domain.md §6).

`MODEL_SHAPES` holds one `ModelShape` per known model id (api.md, "Today's models"): the
dimensions from the model's `config.json` on Hugging Face and the total and active parameter
counts its model card states, each entry with the URLs it was read from. Plain data for the
sizing and the time model; nothing here reads a workload.

Attention comes in three kinds (`Attention`):

- **MHA**: every attention head has its own keys and values (`kv_heads == attention_heads`).
- **GQA**: groups of query heads share `kv_heads` < `attention_heads` key/value heads
  (Llama 3, Qwen2.5, Qwen3, Mixtral).
- **MLA** (DeepSeek-V2/V3, "multi-head latent attention"): keys and values are rebuilt from a
  compressed latent of `kv_lora_rank` values plus a decoupled RoPE key of `qk_rope_head_dim`
  values, shared by all heads; only those are cached (DeepSeek-V2 paper, arXiv:2405.04434,
  §2.1, Table 1: (d_c + d_h^R)·l elements per token).

KV-cache bytes per token (`kv_cache_bytes_per_token`), with b bytes per cached value:

- MHA/GQA: 2 (K and V) × layers × kv_heads × head_dim × b.
- MLA: layers × (kv_lora_rank + qk_rope_head_dim) × b. DeepSeek-V3: 61 × 576 values.

`head_dim` is the width of one query/key head: hidden_size / attention_heads for Llama,
Qwen2.5 and Mixtral; the config's own `head_dim` where it says otherwise (Qwen3-235B-A22B:
64 heads × 128 = 8192 on a 4096-wide model); for MLA, qk_nope_head_dim + qk_rope_head_dim
(192), values being `v_head_dim` (128) wide.

Parameters from the shape (`parameter_count`), counted per weight matrix of the configs'
reference implementations (transformers' `LlamaForCausalLM`, `Qwen2ForCausalLM`,
`Qwen3MoeForCausalLM`, `MixtralForCausalLM`, `DeepseekV3ForCausalLM`):

- attention, MHA/GQA: q and o of hidden × heads·head_dim each, k and v of
  hidden × kv_heads·head_dim each, plus the q/k/v biases where the model has them (Qwen2.5);
- attention, MLA: q down (hidden × q_lora_rank) and up (q_lora_rank × heads·(nope + rope)),
  kv down (hidden × (kv_lora_rank + rope)) and up (kv_lora_rank × heads·(nope + v)), o
  (heads·v × hidden), and the two latent norms;
- MLP: gated (SwiGLU), 3 × hidden × intermediate; a mixture-of-experts layer holds `experts`
  routed and `shared_experts` always-on experts of 3 × hidden × moe_intermediate_size each,
  and a router of hidden × experts; `dense_layers` first layers keep a dense MLP (DeepSeek-V3:
  3). Active parameters count `experts_per_token` routed experts plus the shared ones;
- two RMSNorms per layer and a final one; the input embedding and the output head,
  vocab_size × hidden each (one matrix when the model ties them).

Small terms are left out (Qwen3's per-head q/k norms, DeepSeek's router bias: under 0.01 %).
The count lands within 0.8 % of every published total and within 1.5 % of every active
count; the active count includes the input embedding, which DeepSeek's 37B (36.6B in its
README_WEIGHTS.md) leaves out (tests/engine/test_model_shapes.py; docs/sizing.md, "Published
model shapes").
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum
from types import MappingProxyType


class Attention(StrEnum):
    """How a model's attention stores keys and values."""

    MHA = "mha"  # multi-head: one K/V head per query head
    GQA = "gqa"  # grouped-query: fewer K/V heads, each shared by a group of query heads
    MLA = "mla"  # multi-head latent (DeepSeek): one compressed latent per token and layer


# Bytes per cached value for each KV-cache precision api.md allows (`kv_cache_precision`, as
# vLLM's `kv_cache_dtype`). Kept here, not taken from sizing, so that sizing may import this
# module.
KV_CACHE_BYTES: Mapping[str, int] = MappingProxyType({"bf16": 2, "fp16": 2, "fp8": 1, "int8": 1})


@dataclass(frozen=True, slots=True)
class ModelShape:
    """One published model: its config.json dimensions and its card's parameter counts."""

    id: str  # the api.md `model` id
    name: str  # as its maker writes it
    repo: str  # the Hugging Face repository the shape is read from
    params_b: float  # total parameters, billions, as the model card states them
    active_params_b: float  # parameters used per token (= params_b for a dense model)
    layers: int  # num_hidden_layers
    hidden_size: int
    attention_heads: int  # num_attention_heads
    kv_heads: int  # num_key_value_heads (MLA: the heads the latent is expanded into)
    head_dim: int  # width of one query/key head (module docstring)
    vocab_size: int
    intermediate_size: int  # the dense MLP's width
    attention: Attention
    max_context: int  # max_position_embeddings: the longest sequence the config allows
    source: str  # config.json URL
    card: str  # model card (or maker's) URL stating the parameter counts
    tie_embeddings: bool = False  # tie_word_embeddings
    qkv_bias: bool = False  # biases on q, k and v (Qwen2.5)
    # Mixture of experts (None for a dense model)
    experts: int | None = None  # routed experts per MoE layer
    experts_per_token: int | None = None  # routed experts each token uses
    shared_experts: int = 0  # experts every token uses (DeepSeek: 1)
    moe_intermediate_size: int | None = None  # one expert's MLP width
    dense_layers: int = 0  # first layers with a dense MLP (DeepSeek: first_k_dense_replace)
    # Multi-head latent attention (None unless attention is MLA)
    q_lora_rank: int | None = None
    kv_lora_rank: int | None = None
    qk_nope_head_dim: int | None = None
    qk_rope_head_dim: int | None = None
    v_head_dim: int | None = None

    @property
    def is_moe(self) -> bool:
        return self.experts is not None

    @property
    def kv_values_per_token(self) -> int:
        """Return how many values the KV cache holds per token, all layers together."""
        if self.attention is Attention.MLA:
            assert self.kv_lora_rank is not None and self.qk_rope_head_dim is not None
            return self.layers * (self.kv_lora_rank + self.qk_rope_head_dim)
        return 2 * self.layers * self.kv_heads * self.head_dim


@dataclass(frozen=True, slots=True)
class ParameterCount:
    """Parameters counted from a shape's dimensions (module docstring)."""

    total: int
    active: int

    @property
    def total_b(self) -> float:
        return self.total / 1e9

    @property
    def active_b(self) -> float:
        return self.active / 1e9


def _hf(repo: str) -> str:
    return f"https://huggingface.co/{repo}/blob/main/config.json"


def _card(repo: str) -> str:
    return f"https://huggingface.co/{repo}"


def _llama(id_: str, name: str, repo: str, params_b: float, layers: int, hidden: int,
           heads: int, intermediate: int) -> ModelShape:  # fmt: skip
    # Llama 3.1: GQA with 8 KV heads, 128-wide heads, 128,256-token vocabulary, 128k context.
    return ModelShape(
        id=id_, name=name, repo=repo, params_b=params_b, active_params_b=params_b,
        layers=layers, hidden_size=hidden, attention_heads=heads, kv_heads=8, head_dim=128,
        vocab_size=128_256, intermediate_size=intermediate, attention=Attention.GQA,
        max_context=131_072, source=_hf(repo), card=_card(repo),
    )  # fmt: skip


def _deepseek_v3(id_: str, name: str, repo: str) -> ModelShape:
    # DeepSeek-V3 and R1 share one architecture (R1 is post-trained from V3-Base). The
    # parameter counts exclude the 14B multi-token-prediction module (README_WEIGHTS.md).
    return ModelShape(
        id=id_, name=name, repo=repo, params_b=671, active_params_b=37,
        layers=61, hidden_size=7168, attention_heads=128, kv_heads=128, head_dim=128 + 64,
        vocab_size=129_280, intermediate_size=18_432, attention=Attention.MLA,
        max_context=163_840, source=_hf(repo), card=_card(repo),
        experts=256, experts_per_token=8, shared_experts=1, moe_intermediate_size=2048,
        dense_layers=3, q_lora_rank=1536, kv_lora_rank=512, qk_nope_head_dim=128,
        qk_rope_head_dim=64, v_head_dim=128,
    )  # fmt: skip


# fmt: off
_SHAPES = (
    # Meta's card: 8B, 70B, 405B; config.json as _llama fills it.
    _llama("llama-3.1-8b", "Llama-3.1-8B", "meta-llama/Llama-3.1-8B", 8, 32, 4096, 32, 14_336),
    _llama("llama-3.1-70b", "Llama-3.1-70B", "meta-llama/Llama-3.1-70B", 70, 80, 8192, 64,
           28_672),
    _llama("llama-3.1-405b", "Llama-3.1-405B", "meta-llama/Llama-3.1-405B", 405, 126, 16_384,
           128, 53_248),
    # Qwen's card: "Number of Parameters: 7.61B", "Attention Heads (GQA): 28 for Q and 4 for KV".
    ModelShape(
        id="qwen2.5-7b", name="Qwen2.5-7B", repo="Qwen/Qwen2.5-7B", params_b=7.61,
        active_params_b=7.61, layers=28, hidden_size=3584, attention_heads=28, kv_heads=4,
        head_dim=128, vocab_size=152_064, intermediate_size=18_944, attention=Attention.GQA,
        max_context=131_072, source=_hf("Qwen/Qwen2.5-7B"), card=_card("Qwen/Qwen2.5-7B"),
        qkv_bias=True,
    ),
    # "Number of Parameters: 72.7B", "64 for Q and 8 for KV".
    ModelShape(
        id="qwen2.5-72b", name="Qwen2.5-72B", repo="Qwen/Qwen2.5-72B", params_b=72.7,
        active_params_b=72.7, layers=80, hidden_size=8192, attention_heads=64, kv_heads=8,
        head_dim=128, vocab_size=152_064, intermediate_size=29_568, attention=Attention.GQA,
        max_context=131_072, source=_hf("Qwen/Qwen2.5-72B"), card=_card("Qwen/Qwen2.5-72B"),
        qkv_bias=True,
    ),
    # "235B in total and 22B activated", "64 for Q and 4 for KV", "128 experts, 8 activated".
    # Every layer is MoE (decoder_sparse_step 1, mlp_only_layers []); head_dim 128 is the
    # config's own (64 × 128 = 8192 ≠ hidden 4096). max_position_embeddings 40960: 32,768 of
    # context plus room for the answer (the card: 32,768 natively, 131,072 with YaRN).
    ModelShape(
        id="qwen3-235b-a22b", name="Qwen3-235B-A22B", repo="Qwen/Qwen3-235B-A22B",
        params_b=235, active_params_b=22, layers=94, hidden_size=4096, attention_heads=64,
        kv_heads=4, head_dim=128, vocab_size=151_936, intermediate_size=12_288,
        attention=Attention.GQA, max_context=40_960, source=_hf("Qwen/Qwen3-235B-A22B"),
        card=_card("Qwen/Qwen3-235B-A22B"), experts=128, experts_per_token=8,
        moe_intermediate_size=1536,
    ),
    # DeepSeek's card: "671B total parameters with 37B activated for each token".
    _deepseek_v3("deepseek-v3", "DeepSeek-V3", "deepseek-ai/DeepSeek-V3"),
    _deepseek_v3("deepseek-r1", "DeepSeek-R1", "deepseek-ai/DeepSeek-R1"),
    # Mistral: "46.7B total parameters but only uses 12.9B parameters per token"
    # (https://mistral.ai/news/mixtral-of-experts). Its config's intermediate_size (14336) is
    # one expert's width (num_local_experts 8, num_experts_per_tok 2).
    ModelShape(
        id="mixtral-8x7b", name="Mixtral-8x7B", repo="mistralai/Mixtral-8x7B-v0.1",
        params_b=46.7, active_params_b=12.9, layers=32, hidden_size=4096, attention_heads=32,
        kv_heads=8, head_dim=128, vocab_size=32_000, intermediate_size=14_336,
        attention=Attention.GQA, max_context=32_768,
        source=_hf("mistralai/Mixtral-8x7B-v0.1"),
        card="https://mistral.ai/news/mixtral-of-experts", experts=8, experts_per_token=2,
        moe_intermediate_size=14_336,
    ),
)
# fmt: on

MODEL_SHAPES: Mapping[str, ModelShape] = MappingProxyType({shape.id: shape for shape in _SHAPES})

# Distilled models, by name, and the model each was fine-tuned from: a distilled model has its
# base's shape, not its teacher's. DeepSeek-R1's README, "DeepSeek-R1-Distill Models"
# (https://huggingface.co/deepseek-ai/DeepSeek-R1): Qwen-1.5B and Qwen-7B from
# Qwen2.5-Math-1.5B and -7B, Llama-8B from Llama-3.1-8B, Qwen-14B and Qwen-32B from
# Qwen2.5-14B and -32B, Llama-70B from Llama-3.3-70B-Instruct. A base the table above holds
# is its id; any other is its name, a model not known here.
DISTILLED: Mapping[str, str] = MappingProxyType(
    {
        "DeepSeek-R1-Distill-Qwen-1.5B": "Qwen2.5-Math-1.5B",
        "DeepSeek-R1-Distill-Qwen-7B": "Qwen2.5-Math-7B",
        "DeepSeek-R1-Distill-Llama-8B": "llama-3.1-8b",
        "DeepSeek-R1-Distill-Qwen-14B": "Qwen2.5-14B",
        "DeepSeek-R1-Distill-Qwen-32B": "Qwen2.5-32B",
        "DeepSeek-R1-Distill-Llama-70B": "Llama-3.3-70B-Instruct",
    }
)


class UnknownModelError(ValueError):
    """A model id that `MODEL_SHAPES` does not hold; `known` lists the ids it does."""

    def __init__(self, model_id: str) -> None:
        self.model_id = model_id
        self.known = tuple(MODEL_SHAPES)
        super().__init__(f"unknown model {model_id!r}; known models: {', '.join(self.known)}")


def published_shape(model_id: str) -> ModelShape:
    """Return the published shape of `model_id`.

    The id is matched case-insensitively, as api.md writes it (`deepseek-v3`), by the model's
    name (`DeepSeek-V3`) or by its Hugging Face repository (`deepseek-ai/DeepSeek-V3`).
    """
    key = model_id.strip().lower()
    if key in MODEL_SHAPES:
        return MODEL_SHAPES[key]
    for shape in MODEL_SHAPES.values():
        if key in (shape.name.lower(), shape.repo.lower()):
            return shape
    raise UnknownModelError(model_id)


def kv_cache_bytes_per_token(shape: ModelShape, precision: str) -> int:
    """Return the KV-cache bytes one token takes in all layers, stored in `precision`."""
    name = str(precision).lower()
    if name not in KV_CACHE_BYTES:
        known = ", ".join(KV_CACHE_BYTES)
        raise ValueError(f"unknown KV-cache precision {precision!r}; expected one of {known}")
    return shape.kv_values_per_token * KV_CACHE_BYTES[name]


def _attention_params(shape: ModelShape) -> int:
    h = shape.hidden_size
    heads = shape.attention_heads
    if shape.attention is Attention.MLA:
        q_rank, kv_rank = shape.q_lora_rank, shape.kv_lora_rank
        nope, rope, v = shape.qk_nope_head_dim, shape.qk_rope_head_dim, shape.v_head_dim
        assert q_rank and kv_rank and nope and rope and v
        query = h * q_rank + q_rank + q_rank * heads * (nope + rope)  # down, norm, up
        key_value = h * (kv_rank + rope) + kv_rank + kv_rank * heads * (nope + v)
        return query + key_value + heads * v * h
    q_width = heads * shape.head_dim
    kv_width = shape.kv_heads * shape.head_dim
    bias = q_width + 2 * kv_width if shape.qkv_bias else 0
    return 2 * h * q_width + 2 * h * kv_width + bias


def parameter_count(shape: ModelShape) -> ParameterCount:
    """Count the parameters the shape's weight matrices hold, total and used per token."""
    h = shape.hidden_size
    attention = _attention_params(shape)
    norms = 2 * h
    dense_mlp = 3 * h * shape.intermediate_size
    embeddings = shape.vocab_size * h * (1 if shape.tie_embeddings else 2) + h  # + final norm
    if not shape.is_moe:
        total = shape.layers * (attention + norms + dense_mlp) + embeddings
        return ParameterCount(total, total)
    assert shape.experts and shape.experts_per_token and shape.moe_intermediate_size
    expert = 3 * h * shape.moe_intermediate_size
    router = h * shape.experts
    moe_layers = shape.layers - shape.dense_layers
    common = shape.layers * (attention + norms) + shape.dense_layers * dense_mlp + embeddings
    total = common + moe_layers * ((shape.experts + shape.shared_experts) * expert + router)
    used = shape.experts_per_token + shape.shared_experts
    active = common + moe_layers * (used * expert + router)
    return ParameterCount(total, active)
