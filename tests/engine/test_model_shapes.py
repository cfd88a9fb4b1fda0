"""Published model shapes: the table api.md names, self-consistent, and their published figures.

Sources: each entry's config.json on Hugging Face (`ModelShape.source`) and model card
(`ModelShape.card`). The KV-cache figures are hand-computed from those configs and checked
against the figures DeepSeek publishes in "Insights into DeepSeek-V3: Scaling Challenges and
Reflections on Hardware for AI Architectures" (Zhao et al., ISCA 2025, arXiv:2505.09343,
Table 1, KV cache per token in BF16: DeepSeek-V3 70.272 KB, Qwen-2.5 72B 327.680 KB,
LLaMA-3.1 405B 516.096 KB).
"""

import dataclasses
from pathlib import Path

import pytest

from configurator.engine.model_shapes import (
    KV_CACHE_BYTES,
    MODEL_SHAPES,
    Attention,
    UnknownModelError,
    kv_cache_bytes_per_token,
    parameter_count,
    published_shape,
)
from configurator.engine.sizing import KNOWN_SHAPES

# api.md, "Today's models, serving under load, node probes": `model` takes at least these.
API_IDS = (
    "llama-3.1-8b",
    "llama-3.1-70b",
    "llama-3.1-405b",
    "qwen2.5-7b",
    "qwen2.5-72b",
    "qwen3-235b-a22b",
    "deepseek-v3",
    "deepseek-r1",
    "mixtral-8x7b",
)
SHAPES = list(MODEL_SHAPES.values())


def ids(shape):
    return shape.id


def test_every_api_id_is_in_the_table():
    assert set(API_IDS) <= set(MODEL_SHAPES)


@pytest.mark.parametrize("shape", SHAPES, ids=ids)
def test_the_table_is_keyed_by_each_shapes_id_in_lower_case(shape):
    assert MODEL_SHAPES[shape.id] is shape
    assert shape.id == shape.id.lower()


@pytest.mark.parametrize("shape", SHAPES, ids=ids)
def test_each_entry_cites_its_config_and_card(shape):
    assert shape.source == f"https://huggingface.co/{shape.repo}/blob/main/config.json"
    assert shape.card.startswith("https://")


@pytest.mark.parametrize("shape", SHAPES, ids=ids)
def test_the_shape_is_self_consistent(shape):
    assert 0 < shape.active_params_b <= shape.params_b
    assert shape.attention_heads % shape.kv_heads == 0
    assert shape.max_context > 0
    if shape.attention is Attention.MHA:
        assert shape.kv_heads == shape.attention_heads
    if shape.attention is Attention.GQA:
        assert shape.kv_heads < shape.attention_heads
    if shape.attention is Attention.MLA:
        assert shape.kv_lora_rank and shape.qk_rope_head_dim and shape.v_head_dim
        assert shape.head_dim == shape.qk_nope_head_dim + shape.qk_rope_head_dim
    else:
        mla_fields = (shape.q_lora_rank, shape.kv_lora_rank, shape.qk_rope_head_dim)
        assert mla_fields == (None, None, None)


# Models whose config sets head_dim = hidden_size / num_attention_heads (no head_dim key, or
# the same value); Qwen3-235B-A22B's config says head_dim 128 on a 4096-wide, 64-head model,
# and DeepSeek's MLA heads are 192 (128 + 64) wide on 7168 / 128 = 56.
HEAD_DIM_FROM_HIDDEN = (
    "llama-3.1-8b",
    "llama-3.1-70b",
    "llama-3.1-405b",
    "qwen2.5-7b",
    "qwen2.5-72b",
    "mixtral-8x7b",
)


@pytest.mark.parametrize("model_id", HEAD_DIM_FROM_HIDDEN)
def test_head_dim_times_heads_is_the_hidden_size(model_id):
    shape = MODEL_SHAPES[model_id]
    assert shape.head_dim * shape.attention_heads == shape.hidden_size


def test_qwen3_and_deepseek_heads_are_wider_than_hidden_over_heads():
    qwen3 = MODEL_SHAPES["qwen3-235b-a22b"]
    assert (qwen3.head_dim, qwen3.attention_heads, qwen3.hidden_size) == (128, 64, 4096)
    deepseek = MODEL_SHAPES["deepseek-v3"]
    assert deepseek.head_dim == 192 and deepseek.hidden_size // deepseek.attention_heads == 56


@pytest.mark.parametrize("shape", SHAPES, ids=ids)
def test_moe_ids_have_experts_and_dense_ids_have_none(shape):
    moe = shape.active_params_b < shape.params_b
    assert shape.is_moe is moe
    if moe:
        assert shape.experts and shape.experts_per_token and shape.moe_intermediate_size
        assert shape.experts_per_token < shape.experts
        assert 0 <= shape.dense_layers < shape.layers
    else:
        assert (shape.experts, shape.experts_per_token, shape.shared_experts) == (None, None, 0)


@pytest.mark.parametrize(
    ("model_id", "experts", "per_token", "shared"),
    [
        ("qwen3-235b-a22b", 128, 8, 0),  # card: "Number of Experts: 128, Activated: 8"
        ("deepseek-v3", 256, 8, 1),  # config: n_routed_experts 256, num_experts_per_tok 8
        ("deepseek-r1", 256, 8, 1),
        ("mixtral-8x7b", 8, 2, 0),  # config: num_local_experts 8, num_experts_per_tok 2
    ],
)
def test_published_expert_layouts(model_id, experts, per_token, shared):
    shape = MODEL_SHAPES[model_id]
    assert (shape.experts, shape.experts_per_token, shape.shared_experts) == (
        experts,
        per_token,
        shared,
    )


def test_deepseek_r1_has_deepseek_v3s_architecture():
    v3, r1 = MODEL_SHAPES["deepseek-v3"], MODEL_SHAPES["deepseek-r1"]
    differ = {"id", "name", "repo", "source", "card"}
    for field in dataclasses.fields(v3):
        if field.name not in differ:
            assert getattr(v3, field.name) == getattr(r1, field.name), field.name


# --- KV cache -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("model_id", "precision", "expected"),
    [
        # Llama-3.1-70B, BF16: 2 × 80 layers × 8 KV heads × 128 × 2 bytes = 327,680 B (320 KiB).
        ("llama-3.1-70b", "bf16", 2 * 80 * 8 * 128 * 2),
        ("llama-3.1-70b", "fp8", 163_840),
        # Llama-3.1-8B: 2 × 32 × 8 × 128 × 2 = 131,072 B, the "128 KiB per token" of Llama 3.
        ("llama-3.1-8b", "bf16", 131_072),
        # arXiv:2505.09343 Table 1, BF16: LLaMA-3.1 405B 516.096 KB, Qwen-2.5 72B 327.680 KB.
        ("llama-3.1-405b", "bf16", 516_096),
        ("qwen2.5-72b", "bf16", 327_680),
        # Qwen2.5-7B, 4 KV heads: 2 × 28 × 4 × 128 × 2 = 57,344 B (the issue's 30 GB for
        # 16 users at 32k: 57,344 × 32,768 × 16 = 30.1 GB).
        ("qwen2.5-7b", "bf16", 57_344),
        # Qwen3-235B-A22B: 2 × 94 × 4 × 128 × 2 = 192,512 B.
        ("qwen3-235b-a22b", "bf16", 192_512),
        # Mixtral-8x7B: attention as Mistral-7B's, 2 × 32 × 8 × 128 × 2.
        ("mixtral-8x7b", "fp16", 131_072),
        # DeepSeek-V3 MLA: 61 layers × (512 latent + 64 RoPE) values. BF16 70,272 B
        # (arXiv:2505.09343 Table 1: 70.272 KB); FP8 35,136 B (about 34 KiB).
        ("deepseek-v3", "bf16", 61 * 576 * 2),
        ("deepseek-v3", "fp8", 61 * 576),
        ("deepseek-r1", "int8", 35_136),
    ],
)
def test_kv_cache_bytes_per_token_match_the_published_figures(model_id, precision, expected):
    assert kv_cache_bytes_per_token(MODEL_SHAPES[model_id], precision) == expected


def test_published_kv_figures_in_kb():
    """arXiv:2505.09343 Table 1 gives the three figures in KB (10³ bytes) to three decimals."""
    table = {"deepseek-v3": 70.272, "qwen2.5-72b": 327.680, "llama-3.1-405b": 516.096}
    for model_id, kb in table.items():
        got = kv_cache_bytes_per_token(MODEL_SHAPES[model_id], "bf16") / 1e3
        assert got == pytest.approx(kb, abs=5e-4)


def test_mla_is_a_ninth_of_the_dense_derivation_the_issue_reports():
    """Issue 18: DeepSeek-V3/R1 was derived as a dense 151-layer model with 8 KV heads of 128,
    "309 KB/token in FP8 where MLA stores 61 × 576 values", about 8.8× too high."""
    dense_guess = 2 * 151 * 8 * 128 * 1
    assert dense_guess == 309_248
    mla = kv_cache_bytes_per_token(MODEL_SHAPES["deepseek-v3"], "fp8")
    assert dense_guess / mla == pytest.approx(8.8, abs=0.05)


@pytest.mark.parametrize("shape", SHAPES, ids=ids)
def test_fp8_kv_is_half_of_bf16(shape):
    assert kv_cache_bytes_per_token(shape, "FP8") * 2 == kv_cache_bytes_per_token(shape, "bf16")


def test_kv_cache_precisions_are_those_api_md_allows():
    assert tuple(KV_CACHE_BYTES) == ("bf16", "fp16", "fp8", "int8")


@pytest.mark.parametrize("precision", ["int4", "fp32", "", "e4m3"])
def test_unknown_kv_precision_is_refused_naming_the_allowed_ones(precision):
    with pytest.raises(ValueError, match="bf16, fp16, fp8, int8"):
        kv_cache_bytes_per_token(MODEL_SHAPES["llama-3.1-8b"], precision)


# --- parameters from the shape --------------------------------------------------------------

# Within 1 % of every published total (measured: +0.01 % to +0.79 %, docs/sizing.md).
TOTAL_TOLERANCE = 0.01
# Active counts differ by what each maker counts: the count here includes the input
# embedding, which DeepSeek leaves out (below). Measured: -0.16 % to +1.49 %.
ACTIVE_TOLERANCE = 0.02


@pytest.mark.parametrize("shape", SHAPES, ids=ids)
def test_parameters_from_the_shape_match_the_published_total(shape):
    count = parameter_count(shape)
    assert count.total_b == pytest.approx(shape.params_b, rel=TOTAL_TOLERANCE)
    assert count.active_b == pytest.approx(shape.active_params_b, rel=ACTIVE_TOLERANCE)
    assert count.active <= count.total


@pytest.mark.parametrize(
    ("model_id", "published_b"),
    [
        # The Hugging Face model pages' safetensors counts (Meta's card rounds to 8B and 70B).
        ("llama-3.1-8b", 8.03),
        ("llama-3.1-70b", 70.6),
        ("qwen2.5-7b", 7.61),  # card: "Number of Parameters: 7.61B"
        ("qwen2.5-72b", 72.7),  # card: "Number of Parameters: 72.7B"
        ("mixtral-8x7b", 46.7),  # Mistral: "46.7B total parameters"
    ],
)
def test_dense_counts_to_the_published_decimals(model_id, published_b):
    """Where the maker publishes more digits, the count matches them to 0.1 %."""
    assert parameter_count(MODEL_SHAPES[model_id]).total_b == pytest.approx(published_b, rel=1e-3)


def test_deepseek_v3_active_parameters_as_deepseek_counts_them():
    """DeepSeek-V3's README_WEIGHTS.md: main model 671B total, "Activation parameters: 36.6B
    (including 0.9B for the output Head)", i.e. without the input embedding
    (https://github.com/deepseek-ai/DeepSeek-V3/blob/main/README_WEIGHTS.md)."""
    shape = MODEL_SHAPES["deepseek-v3"]
    count = parameter_count(shape)
    embedding = shape.vocab_size * shape.hidden_size
    assert embedding / 1e9 == pytest.approx(0.9, abs=0.05)
    assert (count.active - embedding) / 1e9 == pytest.approx(36.6, abs=0.05)
    assert count.total_b == pytest.approx(671, abs=0.5)


def test_qwen2_5_7b_non_embedding_parameters():
    """Qwen2.5-7B's card: "Number of Paramaters (Non-Embedding): 6.53B"."""
    shape = MODEL_SHAPES["qwen2.5-7b"]
    embeddings = 2 * shape.vocab_size * shape.hidden_size
    assert (parameter_count(shape).total - embeddings) / 1e9 == pytest.approx(6.53, abs=0.01)


def test_the_12_l_h_squared_rule_misses_grouped_attention_and_wide_mlps():
    """Why the count goes matrix by matrix: 12·L·h² + V·h assumes MHA and a 4h MLP. Qwen2.5-7B
    (4 KV heads, a 5.3h gated MLP, a 152k vocabulary) comes out 36 % light."""
    shape = MODEL_SHAPES["qwen2.5-7b"]
    rule = 12 * shape.layers * shape.hidden_size**2 + shape.vocab_size * shape.hidden_size
    assert rule / parameter_count(shape).total == pytest.approx(0.64, abs=0.01)


# --- look-up --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "given",
    ["deepseek-v3", "DeepSeek-V3", " DEEPSEEK-V3 ", "deepseek-ai/DeepSeek-V3"],
)
def test_model_shape_is_found_by_id_name_or_repo_in_any_case(given):
    assert published_shape(given) is MODEL_SHAPES["deepseek-v3"]


@pytest.mark.parametrize("model_id", API_IDS)
def test_every_api_id_is_found(model_id):
    assert published_shape(model_id.upper()).id == model_id


def test_an_unknown_model_is_refused_with_the_known_ids():
    with pytest.raises(UnknownModelError) as raised:
        published_shape("llama-4-maverick")
    error = raised.value
    assert isinstance(error, ValueError)
    assert error.model_id == "llama-4-maverick"
    assert set(API_IDS) <= set(error.known)
    assert "llama-4-maverick" in str(error)
    for model_id in API_IDS:
        assert model_id in str(error)


# --- docs/sizing.md shows the table as the code has it ---------------------------------------

DOCS = Path(__file__).resolve().parents[2] / "docs" / "sizing.md"


def doc_rows() -> dict[str, list[str]]:
    text = DOCS.read_text().split("## Published model shapes", 1)[1].split("\n## ", 1)[0]
    rows = {}
    for line in text.splitlines():
        if line.startswith("| `"):
            cells = [cell.strip() for cell in line.strip("|").split("|")]
            rows[cells[0].strip("`")] = cells
    return rows


def test_docs_list_every_shape():
    assert set(doc_rows()) == set(MODEL_SHAPES)


@pytest.mark.parametrize("shape", SHAPES, ids=ids)
def test_docs_row_matches_the_shape(shape):
    cells = doc_rows()[shape.id]
    count = parameter_count(shape)
    assert cells[1] == f"{shape.params_b:g} / {shape.active_params_b:g}"
    assert cells[2] == f"{count.total_b:.2f} / {count.active_b:.2f}"
    assert cells[3] == f"{shape.layers} × {shape.hidden_size}"
    assert cells[6] == f"{kv_cache_bytes_per_token(shape, 'bf16'):,}"
    assert cells[7] == f"{kv_cache_bytes_per_token(shape, 'fp8'):,}"
    assert shape.source in cells[8] and shape.card in cells[8]


@pytest.mark.parametrize(
    ("model_id", "known_name"),
    [("llama-3.1-8b", "Llama-3.1-8B"), ("llama-3.1-405b", "Llama-3.1-405B")],
)
def test_the_models_sizing_already_knows_have_the_same_shape(model_id, known_name):
    """sizing.KNOWN_SHAPES names two of these models; both tables read the same config.json."""
    (known,) = [shape for _, name, shape in KNOWN_SHAPES if name == known_name]
    shape = MODEL_SHAPES[model_id]
    assert (known.layers, known.hidden_size, known.attention_heads, known.kv_heads) == (
        shape.layers,
        shape.hidden_size,
        shape.attention_heads,
        shape.kv_heads,
    )
    assert known.vocab_size == shape.vocab_size and known.head_dim == shape.head_dim
