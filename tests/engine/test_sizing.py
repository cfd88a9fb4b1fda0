"""Sizing promises: published figures hold, and llm-analysis agrees term by term."""

import importlib
import time
from dataclasses import asdict, replace
from types import ModuleType
from typing import Any

import pytest

from configurator.engine.build import FinetuneMethod, Mode, Workload
from configurator.engine.model_shapes import Attention
from configurator.engine.sizing import (
    PRECISION_BYTES,
    PREFILL_CHUNK_TOKENS,
    Shape,
    gpus_needed,
    model_shape,
    size_workload,
)

LLAMA2_7B = {
    "layers": 32,
    "hidden_size": 4096,
    "attention_heads": 32,
    "kv_heads": 32,
    "vocab_size": 32000,
}
BREAKDOWN_KEYS = ["weights", "gradients", "optimizer", "activations", "kv_cache", "overhead"]


def infer(params_b: float, **fields: object) -> Workload:
    return Workload(params_b, Mode.INFER, **fields)


def train(params_b: float, **fields: object) -> Workload:
    return Workload(params_b, Mode.TRAIN, **fields)


def finetune(params_b: float, method: FinetuneMethod, **fields: object) -> Workload:
    return Workload(params_b, Mode.FINETUNE, finetune_method=method, **fields)


# --- Published figures -------------------------------------------------------------------


def test_70b_weights_in_fp16_are_140_gb() -> None:
    assert size_workload(infer(70, precision="fp16")).breakdown["weights"] == pytest.approx(140)


@pytest.mark.parametrize(
    ("precision", "weights_gb"),
    [("fp32", 28), ("fp16", 14), ("bf16", 14), ("fp8", 7), ("int8", 7), ("int4", 3.5)],
)
def test_weights_follow_precision(precision: str, weights_gb: float) -> None:
    assert size_workload(infer(7, precision=precision)).breakdown["weights"] == pytest.approx(
        weights_gb
    )


def test_int4_weights_are_a_quarter_of_fp16() -> None:
    fp16 = size_workload(infer(70, precision="fp16")).breakdown["weights"]
    int4 = size_workload(infer(70, precision="int4")).breakdown["weights"]
    assert int4 == pytest.approx(fp16 / 4)


def test_kv_cache_of_llama2_7b_at_4096_tokens_is_exact() -> None:
    # 2 (K and V) · 32 layers · 32 KV heads · 128 head size · 4096 tokens · 2 bytes: Llama-2-7B
    # is multi-head attention, which a bare "7B" no longer assumes, so its heads are given.
    llama2 = infer(7, context_length=4096, precision="fp16", **LLAMA2_7B)
    kv = size_workload(llama2).breakdown["kv_cache"]
    assert kv == pytest.approx(2 * 32 * 32 * 128 * 4096 * 2 / 1e9, rel=1e-12)
    assert kv == pytest.approx(2.147483648, rel=1e-12)


def test_kv_cache_counts_grouped_query_heads() -> None:
    # Llama-2-70B: 80 layers, 8 KV heads of 128.
    kv = size_workload(infer(70, context_length=4096)).breakdown["kv_cache"]
    assert kv == pytest.approx(2 * 80 * 8 * 128 * 4096 * 2 / 1e9, rel=1e-12)


def test_kv_cache_grows_linearly_with_batch_and_context() -> None:
    one = size_workload(infer(13)).breakdown["kv_cache"]
    assert size_workload(infer(13, batch_size=8)).breakdown["kv_cache"] == pytest.approx(8 * one)
    assert size_workload(infer(13, context_length=8192)).breakdown["kv_cache"] == pytest.approx(
        4 * one
    )


def test_fp8_halves_the_kv_cache_and_integer_weights_keep_it_16_bit() -> None:
    bf16 = size_workload(infer(13)).breakdown["kv_cache"]
    assert size_workload(infer(13, precision="fp8")).breakdown["kv_cache"] == pytest.approx(
        bf16 / 2
    )
    assert size_workload(infer(13, precision="int4")).breakdown["kv_cache"] == pytest.approx(bf16)


def test_training_needs_16_bytes_of_state_per_parameter() -> None:
    # ZeRO (Rajbhandari et al. 2020): 2 weights + 2 gradients + 12 optimizer; EleutherAI's
    # "Transformer Math 101" gives 16–18 depending on the gradient precision.
    parts = size_workload(train(7)).breakdown
    assert parts["weights"] == pytest.approx(14)
    assert parts["gradients"] == pytest.approx(14)
    assert parts["optimizer"] == pytest.approx(84)
    states = parts["weights"] + parts["gradients"] + parts["optimizer"]
    assert 16 <= states / 7 <= 18


def test_fp32_training_also_needs_16_bytes_per_parameter() -> None:
    parts = size_workload(train(7, precision="fp32")).breakdown
    assert (parts["weights"], parts["gradients"], parts["optimizer"]) == pytest.approx((28, 28, 56))


def test_full_fine_tuning_is_sized_as_training() -> None:
    full = size_workload(finetune(13, FinetuneMethod.FULL, gpu_count=4))
    assert full.breakdown == size_workload(train(13, gpu_count=4)).breakdown


def test_training_has_no_kv_cache_and_inference_no_optimizer() -> None:
    assert size_workload(train(7)).breakdown["kv_cache"] == 0
    parts = size_workload(infer(7)).breakdown
    assert parts["gradients"] == parts["optimizer"] == 0


def test_full_recomputation_keeps_each_layer_input_and_the_logits() -> None:
    # Korthikanti et al. 2022 §4.1: 2·s·b·h bytes per layer; plus 2·s·b·V for the logits.
    s, b, h, layers, vocab = 2048, 4, 4096, 32, 32000
    sized = size_workload(train(7, batch_size=b, context_length=s, gpu_count=8))
    per_gpu = sized.breakdown["activations"] / 8
    assert per_gpu == pytest.approx((2 * s * b * h * layers + 2 * s * b * vocab) / 1e9)


def test_zero3_per_gpu_need_shrinks_as_gpus_are_added() -> None:
    per_gpu = [size_workload(train(70), gpu_count=n).per_gpu_gb for n in (1, 2, 4, 8, 16, 64)]
    assert per_gpu == sorted(per_gpu, reverse=True)
    assert len(set(per_gpu)) == len(per_gpu)


def test_zero3_shards_the_states_evenly() -> None:
    eight = size_workload(train(70, gpu_count=8))
    states = sum(eight.breakdown[key] for key in ("weights", "gradients", "optimizer"))
    assert states / 8 == pytest.approx(16 * 70 / 8)


def test_total_is_per_gpu_times_gpu_count() -> None:
    for workload in (train(34, gpu_count=8), infer(70, gpu_count=4, batch_size=16)):
        sized = size_workload(workload)
        assert sized.total_gb == pytest.approx(sized.per_gpu_gb * sized.gpu_count)


def test_breakdown_names_every_term_and_sums_to_the_total() -> None:
    sized = size_workload(train(7, gpu_count=8))
    assert list(sized.breakdown) == BREAKDOWN_KEYS
    assert sum(sized.breakdown.values()) == pytest.approx(sized.total_gb)


def test_gpu_count_argument_overrides_the_workload() -> None:
    sized = size_workload(train(7, gpu_count=8), gpu_count=2)
    assert sized.gpu_count == 2
    assert sized.total_gb == pytest.approx(sized.per_gpu_gb * 2)


def test_without_a_gpu_count_it_is_sized_for_one_gpu() -> None:
    sized = size_workload(infer(13))
    assert sized.gpu_count is None
    assert sized.per_gpu_gb is None
    assert sized.total_gb == pytest.approx(size_workload(infer(13), gpu_count=1).total_gb)
    assert "GPU count not given: sized for one GPU" in sized.assumptions


def test_api_example_lands_near_the_published_figures() -> None:
    # api.md shows 139.9 GB in total and 17.5 GB per GPU. That example is llm-analysis'
    # figure for 6.57 B parameters with fp32 gradients and no runtime overhead; here 7 B
    # parameters at 16 bytes plus 0.5 GB + 5 % overhead per GPU give 144.0 and 18.0.
    workload = train(7, batch_size=4, context_length=2048, precision="bf16", gpu_count=8)
    sized = size_workload(replace(workload, **LLAMA2_7B))
    assert sized.total_gb == pytest.approx(139.9, rel=0.05)
    assert sized.per_gpu_gb == pytest.approx(17.5, rel=0.05)
    assert sized.gpu_count == 8
    assert any(line.startswith("ZeRO-3 sharding over 8 GPUs") for line in sized.assumptions)
    assert any(line.startswith("full activation recomputation") for line in sized.assumptions)


def test_lora_and_qlora_need_far_less_than_full_fine_tuning() -> None:
    full = size_workload(finetune(7, FinetuneMethod.FULL)).total_gb
    lora = size_workload(finetune(7, FinetuneMethod.LORA)).total_gb
    qlora = size_workload(finetune(7, FinetuneMethod.QLORA)).total_gb
    assert lora < full / 5
    assert qlora < lora / 2


def test_lora_adapters_match_peft_count_for_llama2_7b() -> None:
    # PEFT, r=16 on every linear layer of Llama-2-7B: "trainable params: 39,976,960". The
    # gated MLP is modelled 8h/3 wide (real: 11008 = 2.69h), hence the small gap.
    llama2 = finetune(7, FinetuneMethod.LORA, **LLAMA2_7B)
    gradients = size_workload(llama2).breakdown["gradients"]
    adapters = gradients * 1e9 / 4  # fp32 adapter gradients
    assert adapters == pytest.approx(39_976_960, rel=0.01)


def test_qlora_base_is_4_bit_normal_float_with_double_quantisation() -> None:
    lora = size_workload(finetune(7, FinetuneMethod.LORA)).breakdown["weights"]
    qlora = size_workload(finetune(7, FinetuneMethod.QLORA)).breakdown["weights"]
    # Same adapters on both; the base drops from 2 bytes to (4 + 0.127) / 8 per parameter.
    assert lora - qlora == pytest.approx(7 * (2 - 4.127 / 8))


def test_qlora_fine_tunes_65b_on_one_48_gb_gpu() -> None:
    # Dettmers et al. 2023: QLoRA takes a 65B fine-tune from >780 GB to <48 GB of GPU memory.
    qlora = finetune(65, FinetuneMethod.QLORA, context_length=512)
    assert gpus_needed(qlora, 48) == 1
    assert size_workload(finetune(65, FinetuneMethod.FULL, context_length=512)).total_gb > 780


def test_training_precisions_without_adam_are_sized_as_bf16() -> None:
    int4 = size_workload(train(7, precision="int4"))
    assert int4.breakdown == size_workload(train(7, precision="bf16")).breakdown
    assert any("int4 training is sized as bf16" in line for line in int4.assumptions)


# --- Model shape -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("params_b", "expected"),
    [
        # A bare size takes a published grouped-query shape (domain.md §6: never MHA):
        # "7B" is Mistral-7B (Llama-2-7B's layers and width with 8 KV heads).
        (7, Shape(32, 4096, 32, 8, 32000)),  # Mistral-7B-v0.1
        (6.74, Shape(32, 4096, 32, 8, 32000)),
        (8, Shape(32, 4096, 32, 8, 128256)),  # Llama-3.1-8B
        (70, Shape(80, 8192, 64, 8, 32000)),  # Llama-2-70B
        (405, Shape(126, 16384, 128, 8, 128256)),  # Llama-3.1-405B
    ],
)
def test_published_sizes_take_the_published_shape(params_b: float, expected: Shape) -> None:
    assert model_shape(infer(params_b)) == expected


@pytest.mark.parametrize(
    ("params_b", "layers", "hidden"),
    [(6.74, 32, 4096), (13.0, 40, 5120), (69.0, 80, 8192), (175, 96, 12288)],
)
def test_the_formula_alone_lands_near_real_shapes(
    params_b: float, layers: int, hidden: int
) -> None:
    # Giving only the vocabulary forces the formula path (no table lookup).
    shape = model_shape(infer(params_b, vocab_size=32000))
    assert shape.layers == pytest.approx(layers, rel=0.15)
    assert shape.hidden_size == pytest.approx(hidden, rel=0.15)


@pytest.mark.parametrize("params_b", [0.1, 1, 3, 20, 30, 100, 300, 1000])
def test_derived_shapes_hold_the_parameter_count(params_b: float) -> None:
    shape = model_shape(infer(params_b))
    params = 12 * shape.layers * shape.hidden_size**2 + shape.vocab_size * shape.hidden_size
    assert params == pytest.approx(params_b * 1e9, rel=0.12)
    assert shape.hidden_size % 128 == 0
    assert shape.head_dim == pytest.approx(128, rel=0.1)


@pytest.mark.parametrize("params_b", [1, 13, 30, 100, 175])
def test_a_shape_not_given_is_grouped_query_attention_with_8_kv_heads(params_b) -> None:
    # domain.md §6: a shape not given is GQA with 8 KV heads, never 2023's MHA. 13B and 175B
    # keep Llama-2-13B's and GPT-3's layers and width (the formula lands on them) with 8 KV heads.
    shape = model_shape(infer(params_b))
    assert shape.kv_heads == 8 < shape.attention_heads
    assert shape.attention is Attention.GQA
    assert "GQA (the default for a shape not given)" in "".join(
        size_workload(infer(params_b)).assumptions
    )


def test_a_model_with_fewer_than_8_heads_keeps_one_kv_head_per_head() -> None:
    shape = model_shape(infer(0.05))
    assert shape.attention_heads < 8 and shape.kv_heads == shape.attention_heads


def test_multi_head_attention_is_sized_when_asked_for() -> None:
    mha = model_shape(infer(7, attention="mha"))
    assert mha == Shape(32, 4096, 32, 32, 32000)
    assert mha.attention is Attention.MHA
    assert mha == model_shape(infer(7, **LLAMA2_7B))


def test_a_given_shape_is_used_as_is() -> None:
    shape = Shape(layers=48, hidden_size=6144, attention_heads=48, kv_heads=8, vocab_size=100000)
    workload = infer(20, **{key: value for key, value in asdict(shape).items() if key in LLAMA2_7B})
    assert model_shape(workload) == shape
    assert size_workload(workload).assumptions[0].startswith("shape as given")


def test_a_partial_shape_is_completed_from_the_parameter_count() -> None:
    # Llama-2-7B (6.74 B) with one dimension given; 12·L·h² + V·h leaves out its untied
    # output head (V·h = 0.13 B), so the derived depth may be one layer more.
    shape = model_shape(infer(6.74, layers=32))
    assert (shape.layers, shape.hidden_size, shape.attention_heads) == (32, 4096, 32)
    shape = model_shape(infer(6.74, hidden_size=4096))
    assert shape.layers == pytest.approx(32, abs=1)
    assert shape.hidden_size == 4096


def test_the_shape_is_stated_in_the_assumptions() -> None:
    first = size_workload(infer(7)).assumptions[0]
    assert first.startswith("shape derived from 7B parameters: Mistral-7B, 32 layers")


# --- Fewest GPUs -------------------------------------------------------------------------


def test_70b_bf16_inference_needs_two_80_gb_gpus() -> None:
    workload = infer(70, precision="bf16")
    assert size_workload(workload, gpu_count=1).per_gpu_gb > 80
    assert size_workload(workload, gpu_count=2).per_gpu_gb <= 80
    assert gpus_needed(workload, 80) == 2


def test_a_small_model_fits_one_gpu() -> None:
    assert gpus_needed(infer(7), 24) == 1


def test_none_when_no_gpu_count_within_the_limit_fits() -> None:
    assert gpus_needed(infer(70), 80, max_gpus=1) is None
    assert gpus_needed(train(405), 80, max_gpus=8) is None


def test_none_when_one_gpus_own_activations_do_not_fit() -> None:
    # ZeRO-3 shards the states, not a GPU's own activations: even one sequence of 1M tokens
    # per step (2 · 2^20 · (4096 · 32 + 32000) bytes ≈ 342 GB) never fits in 24 GB.
    assert gpus_needed(train(7, batch_size=1, context_length=1_048_576), 24) is None


def test_large_training_batch_runs_as_gradient_accumulation_on_the_given_gpus() -> None:
    # 34B training at 64 sequences per GPU: 64 × 2048 tokens of activations (~110 GB) do not
    # fit an 80 GB GPU next to its 68 GB share of the states, but a smaller micro-batch does.
    workload = train(34, batch_size=64)
    at_once = size_workload(workload, gpu_count=8)
    accumulated = size_workload(workload, gpu_count=8, gpu_memory_gb=80)
    assert at_once.per_gpu_gb > 80
    assert accumulated.per_gpu_gb <= 80
    assert any("gradient accumulation" in note for note in accumulated.assumptions)
    # The states do not change, only the activations held at once.
    assert accumulated.breakdown["optimizer"] == at_once.breakdown["optimizer"]
    assert accumulated.breakdown["activations"] < at_once.breakdown["activations"]


def test_micro_batch_is_the_largest_that_fits() -> None:
    fitted = size_workload(train(34, batch_size=64), gpu_count=8, gpu_memory_gb=80)
    one = size_workload(train(34, batch_size=1), gpu_count=8)
    micro = round(fitted.breakdown["activations"] / one.breakdown["activations"])
    assert 1 <= micro < 64
    assert size_workload(train(34, batch_size=micro), gpu_count=8).per_gpu_gb <= 80
    assert size_workload(train(34, batch_size=micro + 1), gpu_count=8).per_gpu_gb > 80


def test_inference_batch_is_never_accumulated() -> None:
    workload = infer(70, batch_size=256, context_length=8192)
    assert size_workload(workload, 8, gpu_memory_gb=80) == size_workload(workload, 8)


@pytest.mark.parametrize(
    "workload",
    [
        train(7, batch_size=4),
        train(70, batch_size=1, context_length=4096),
        finetune(13, FinetuneMethod.LORA, batch_size=8),
        finetune(70, FinetuneMethod.QLORA),
        infer(70, batch_size=32, context_length=4096),
        infer(175, precision="fp8"),
        infer(405, precision="int4", batch_size=8),
    ],
)
@pytest.mark.parametrize("memory_gb", [24, 48, 80, 141])
def test_gpus_needed_is_the_fewest_that_fit(workload: Workload, memory_gb: float) -> None:
    n = gpus_needed(workload, memory_gb, max_gpus=512)
    assert n is not None
    assert size_workload(workload, gpu_count=n).per_gpu_gb <= memory_gb
    if n > 1:
        assert size_workload(workload, gpu_count=n - 1).per_gpu_gb > memory_gb


# --- Bad input ---------------------------------------------------------------------------


def test_unknown_precision_is_refused() -> None:
    with pytest.raises(ValueError, match="unknown precision 'fp4'"):
        size_workload(infer(7, precision="fp4"))


@pytest.mark.parametrize(
    "field",
    [
        "model_params_b",
        "batch_size",
        "context_length",
        "gpu_count",
        "layers",
        "hidden_size",
        "attention_heads",
        "kv_heads",
        "vocab_size",
    ],
)
@pytest.mark.parametrize("value", [0, -1])
def test_non_positive_sizes_are_refused(field: str, value: int) -> None:
    workload = replace(infer(7), **{field: value})
    with pytest.raises(ValueError, match=f"{field} must be positive"):
        size_workload(workload)


def test_non_positive_arguments_are_refused() -> None:
    with pytest.raises(ValueError, match="gpu_count must be positive"):
        size_workload(infer(7), gpu_count=0)
    with pytest.raises(ValueError, match="gpu_memory_gb must be positive"):
        gpus_needed(infer(7), 0)
    with pytest.raises(ValueError, match="max_gpus must be positive"):
        gpus_needed(infer(7), 80, max_gpus=0)


# --- Speed -------------------------------------------------------------------------------


def test_sizing_is_fast_enough_for_the_recommender_loop() -> None:
    workload = train(70, gpu_count=8)
    calls = 2000
    start = time.perf_counter()
    for _ in range(calls):
        size_workload(workload)
        gpus_needed(workload, 80)
    assert (time.perf_counter() - start) / calls < 0.001  # well under a millisecond each


# --- Side by side with llm-analysis 0.2.2 ------------------------------------------------
#
# llm-analysis ships its model configs, so it runs offline. Each comparison feeds this module
# the parameter count llm-analysis computes for the same config, because llm-analysis models
# Llama's gated MLP as two 4h matrices (6.57 B for Llama-2-7B, 55.3 B for Llama-2-70B) and the
# point here is the memory formulas, not the parameter count.

LLM_ANALYSIS_MODELS = [
    "NousResearch_Llama-2-7b-hf",
    "decapoda-research_llama-13b-hf",
    "facebook_opt-13b",
    "upstage_Llama-2-70b-instruct-v2",
]


@pytest.fixture(scope="module")
def llm_analysis() -> ModuleType:
    # Installed by requirements-test-nodeps.txt; a missing install must fail, not skip.
    return importlib.import_module("llm_analysis.analysis")


def _their_model(llm_analysis: ModuleType, name: str) -> tuple[Workload, Any]:
    config = llm_analysis.get_model_config_by_name(name)
    analysis = llm_analysis.LLMAnalysis(
        config, llm_analysis.get_gpu_config_by_name("h100-sxm-80gb")
    )
    workload = Workload(
        analysis.get_num_params_total() / 1e9,
        Mode.INFER,
        layers=config.num_layers,
        hidden_size=config.hidden_dim,
        attention_heads=config.n_head,
        kv_heads=config.num_key_value_heads,
        vocab_size=config.vocab_size,
    )
    return workload, config


@pytest.mark.parametrize("name", LLM_ANALYSIS_MODELS)
@pytest.mark.parametrize(("gpus", "batch"), [(16, 1), (64, 2)])
def test_training_states_and_activations_agree_with_llm_analysis(
    llm_analysis: ModuleType, name: str, gpus: int, batch: int
) -> None:
    model, config = _their_model(llm_analysis, name)
    theirs = llm_analysis.train(
        model_name=name,
        gpu_name="h100-sxm-80gb",
        dtype_name="w16a16e16",
        log_level="ERROR",
        batch_size_per_gpu=batch,
        gradient_accumulation_steps=1,
        seq_len=config.max_seq_len,
        total_num_gpus=gpus,
        ds_zero=3,
        activation_recomputation=2,  # full
    )
    workload = replace(model, mode=Mode.TRAIN, batch_size=batch, context_length=config.max_seq_len)
    ours = {key: gb * 1e9 / gpus for key, gb in size_workload(workload, gpus).breakdown.items()}
    assert ours["weights"] == pytest.approx(theirs["weight_memory_per_gpu"], rel=1e-9)
    assert ours["optimizer"] == pytest.approx(theirs["optimizer_state_memory_per_gpu"], rel=1e-9)
    # llm-analysis keeps gradients in fp32 (4 bytes) before the update; 2 bytes here (ZeRO).
    assert ours["gradients"] == pytest.approx(theirs["gradient_memory_per_gpu"] / 2, rel=1e-9)
    # llm-analysis 0.2.2 adds the logits twice when batch_size_per_gpu is 1 (once into its
    # batch-1 figure, once more after it); the same formula without that double count.
    logits = 2 * config.max_seq_len * batch * config.vocab_size if batch == 1 else 0
    assert ours["activations"] == pytest.approx(
        theirs["activation_memory_per_gpu"] - logits, rel=1e-9
    )


@pytest.mark.parametrize("name", LLM_ANALYSIS_MODELS)
@pytest.mark.parametrize(
    ("precision", "dtype_name"),
    [("bf16", "w16a16e16"), ("int8", "w8a16e16"), ("int4", "w4a16e16")],
)
def test_inference_weights_agree_with_llm_analysis(
    llm_analysis: ModuleType, name: str, precision: str, dtype_name: str
) -> None:
    model, config = _their_model(llm_analysis, name)
    tp = 2
    theirs = llm_analysis.infer(
        model_name=name,
        gpu_name="h100-sxm-80gb",
        dtype_name=dtype_name,
        log_level="ERROR",
        tp_size=tp,
        seq_len=1024,
        num_tokens_to_generate=1,
    )
    workload = replace(model, precision=precision)
    ours = size_workload(workload, tp).breakdown["weights"] * 1e9 / tp
    # llm-analysis keeps the embedding in 16 bits whatever the weight precision (its "e16");
    # this module stores every parameter at the workload's precision.
    embedding = config.vocab_size * config.hidden_dim / tp
    gap = embedding * (2 - PRECISION_BYTES[precision])
    assert ours == pytest.approx(theirs["weight_memory_per_gpu"] - gap, rel=1e-9)


@pytest.mark.parametrize("name", LLM_ANALYSIS_MODELS)
@pytest.mark.parametrize(("batch", "context"), [(1, 1024), (8, 2048)])
def test_kv_cache_and_prefill_agree_with_llm_analysis(
    llm_analysis: ModuleType, name: str, batch: int, context: int
) -> None:
    model, _ = _their_model(llm_analysis, name)
    tp = 4
    theirs = llm_analysis.infer(
        model_name=name,
        gpu_name="h100-sxm-80gb",
        dtype_name="w16a16e16",
        log_level="ERROR",
        tp_size=tp,
        batch_size_per_gpu=batch,
        seq_len=context - 1,  # llm-analysis caches the prompt plus the generated tokens
        num_tokens_to_generate=1,
    )
    workload = replace(model, batch_size=batch, context_length=context)
    ours = {key: gb * 1e9 / tp for key, gb in size_workload(workload, tp).breakdown.items()}
    assert ours["kv_cache"] == pytest.approx(theirs["kv_cache_memory_per_gpu"], rel=1e-9)
    # Activations differ by design. llm-analysis sizes a one-shot prefill of the whole
    # prompt with full logits, s·b·max(4h, V)·2 bytes. Serving engines prefill in chunks
    # of at most 8192 tokens and compute logits for each sequence's last token only (fp32),
    # so this module takes max(min(s·b, 8192)·4h·2, b·V·4) and is never above llm-analysis.
    config = llm_analysis.get_model_config_by_name(name)
    tokens = min(context * batch, PREFILL_CHUNK_TOKENS)
    chunked = max(tokens * 4 * config.hidden_dim * 2, batch * config.vocab_size * 4) / tp
    assert ours["activations"] == pytest.approx(chunked, rel=1e-9)
    one_shot = theirs["prefill_activation_memory_per_gpu"] * context / (context - 1)
    assert ours["activations"] <= one_shot
