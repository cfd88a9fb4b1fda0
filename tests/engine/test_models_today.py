"""Today's models as they are built (domain.md §6; issue 18): reference cases with sources.

Compute counts the active parameters, memory all of them; the KV cache follows the attention
kind (MHA, GQA, MLA) and its own precision; a shape not given is GQA with 8 KV heads. Each
case names the published figure it is held to.
"""

from dataclasses import replace

import pytest

from configurator.engine.build import FinetuneMethod, Mode, Workload
from configurator.engine.model_shapes import (
    MODEL_SHAPES,
    Attention,
    UnknownModelError,
    kv_cache_bytes_per_token,
)
from configurator.engine.performance import gpus_for_work, performance, weights_read
from configurator.engine.rules import RuleParams
from configurator.engine.sizing import (
    ALLOCATOR_OVERHEAD,
    attention_kind,
    gpus_needed,
    kv_bytes_per_token,
    kv_precision,
    model_shape,
    size_workload,
    usable_gb,
)
from tests.engine.builders import h20, h200, l20, s3

RULES = RuleParams()


def board(gpu, gpus: int = 8, **changes):
    """An HGX board of `gpus` GPUs on S3's host (NVSwitch)."""
    split = (gpus - gpus // 2, gpus // 2)
    return replace(s3(), gpu=gpu, gpu_count=gpus, gpus_per_socket=split, **changes)


def serve(model: str, **fields) -> Workload:
    return Workload(None, Mode.INFER, model=model, **fields)


# --- A model by name ----------------------------------------------------------------------


def test_a_model_fills_its_published_shape_and_fields_given_beside_it_win():
    deepseek = serve("deepseek-r1")
    assert (deepseek.model_params_b, deepseek.active_params_b) == (671, 37)
    assert (deepseek.experts, deepseek.experts_per_token, deepseek.attention) == (256, 8, "mla")
    assert model_shape(deepseek).layers == 61
    # By name or repository, in any case (model_shapes.published_shape).
    assert serve("DeepSeek-R1") == deepseek == serve("deepseek-ai/DeepSeek-R1")
    assert serve("qwen2.5-7b", kv_heads=28).kv_heads == 28
    assert Workload(47, Mode.INFER, model="mixtral-8x7b").model_params_b == 47
    with pytest.raises(UnknownModelError):
        serve("gpt-5")


def test_the_assumptions_name_the_published_shape_attention_and_kv_precision():
    lines = [str(line) for line in size_workload(serve("deepseek-r1", precision="fp8")).assumptions]
    assert lines[0].startswith("shape of DeepSeek-R1 as published: 61 layers")
    assert any("MLA attention: L·(r + d_R) = 61 × (512 + 64) = 35,136 values" in x for x in lines)
    assert any(line.startswith("KV cache in fp8") for line in lines)
    sized = size_workload(serve("deepseek-r1", precision="fp8"))
    assert (sized.kv_cache_precision, sized.attention, sized.kv_bytes_per_token) == (
        "fp8",
        "mla",
        35_136,
    )
    trained = size_workload(Workload(7, Mode.TRAIN))
    assert trained.kv_cache_precision is trained.attention is trained.kv_bytes_per_token is None
    assert any("8 of 256 experts per token" in line and "37B" in line for line in lines)


# --- DeepSeek-V3/R1: MLA and mixture of experts --------------------------------------------


@pytest.mark.parametrize("model", ["deepseek-v3", "deepseek-r1"])
def test_deepseek_kv_cache_is_mla_latent_61_layers_of_576_values(model):
    """MLA caches a 512-value latent and a 64-value RoPE key per layer (DeepSeek-V2,
    arXiv:2405.04434, §2.1, Table 1; DeepSeek-V3 config.json: kv_lora_rank 512,
    qk_rope_head_dim 64, 61 layers). In FP8, 61 × 576 = 35,136 bytes per token; in BF16
    70,272, DeepSeek's own figure ("Insights into DeepSeek-V3", arXiv:2505.09343, Table 1:
    70.272 KB)."""
    fp8 = serve(model, precision="fp8")
    assert attention_kind(fp8) is Attention.MLA
    assert kv_bytes_per_token(fp8) == 61 * 576 == 35_136
    assert kv_bytes_per_token(replace(fp8, kv_cache_precision="bf16")) == 70_272
    assert kv_bytes_per_token(fp8) == kv_cache_bytes_per_token(MODEL_SHAPES[model], "fp8")
    sized = size_workload(replace(fp8, context_length=32_768, batch_size=8))
    assert sized.breakdown["kv_cache"] == pytest.approx(35_136 * 32_768 * 8 / 1e9)
    # The dense reading (151 layers, 8 KV heads of 128) stored 309,248 B/token: 8.8 ×.
    dense = Workload(671, Mode.INFER, precision="fp8")
    assert kv_bytes_per_token(dense) / kv_bytes_per_token(fp8) > 8


def test_deepseek_memory_holds_all_671b_while_compute_uses_37b():
    fp8 = serve("deepseek-r1", precision="fp8", concurrent_users=1, prompt_tokens=8192,
                output_tokens=1)  # fmt: skip
    assert size_workload(fp8).breakdown["weights"] == pytest.approx(671)
    dense = replace(fp8, model=None, active_params_b=None, experts=None, experts_per_token=None)
    ours = performance(board(h200()), fp8, RULES, 1.0)
    theirs = performance(board(h200()), dense, RULES, 1.0)
    # An 8k prefill is compute bound: 2·(37B + MLA's attention over the prompt) FLOPs per
    # token instead of 2·(671B + …), 12 × fewer; with the tensor-parallel and all-to-all
    # traffic both pay, the first token comes about 8 × sooner.
    assert theirs.time_to_first_token_s / ours.time_to_first_token_s > 7


def test_a_decode_step_reads_the_experts_its_tokens_touch():
    """One token reads its 8 routed experts and the shared path: the active 37B; a batch of
    hundreds touches every expert: all 671B (1 − (1 − k/E)^B of the experts)."""
    fp8 = serve("deepseek-r1", precision="fp8")
    assert weights_read(fp8, 1) == pytest.approx(37e9)
    assert weights_read(fp8, 512) == pytest.approx(671e9, rel=1e-3)
    assert weights_read(fp8, 8) < weights_read(fp8, 64) < weights_read(fp8, 512)
    dense = Workload(70, Mode.INFER, precision="fp8")
    assert weights_read(dense, 1) == weights_read(dense, 256) == 70e9


def test_expert_parallel_all_to_all_is_timed_on_the_nodes_link():
    """Over 8 GPUs the experts are spread: a dispatch and a combine all-to-all per MoE layer
    over the board's NVLink, slower over PCIe."""
    fp8 = serve("deepseek-r1", precision="fp8", concurrent_users=64, prompt_tokens=1024,
                output_tokens=1024)  # fmt: skip
    nvlink = performance(board(h200()), fp8, RULES, 1.0)
    pcie = performance(board(h200(), nvlink=False), fp8, RULES, 1.0)
    assert 0 < nvlink.terms["decode_comm_s"] < pcie.terms["decode_comm_s"]
    assert any("all-to-all" in str(line) for line in nvlink.assumptions)


def test_deepseek_r1_fp8_fits_8_h200_or_2_x_8_h20_as_sglang_lists():
    """SGLang's DeepSeek V3/R1 page lists FP8 weights on 8 × H200 or 2 × 8 × H100/H800/H20
    (sgl-project/sglang docs/basic_usage/deepseek_v3.md, "Launch DeepSeek V3.1/V3/R1").

    Memory alone: 671 GB of FP8 weights fit 6 H200 and, at 90 % usable, just 8 H20 (with a
    few GB for KV cache, which is why SGLang lists two H20 nodes). A 3,000 tok/s target on
    H20 needs the 2 × 8 that SGLang lists (issue 18: the dense reading gave 16 × 8).
    """
    fp8 = serve("deepseek-r1", precision="fp8", context_length=2048)
    assert gpus_needed(fp8, usable_gb(141, RULES.gpu_memory_usable_fraction)) <= 8
    fewest = gpus_needed(fp8, usable_gb(96, RULES.gpu_memory_usable_fraction))
    assert fewest == 8
    target = replace(fp8, target_tokens_per_s=3000)
    assert gpus_for_work(target, h20(), fewest, RULES, 512) == 16
    assert gpus_for_work(target, h200(), 8, RULES, 512) == 8


# --- Qwen2.5-7B at 32k for 16 users: GQA with 4 KV heads -----------------------------------


def test_qwen25_7b_at_32k_for_16_users_needs_a_30_gb_kv_cache_and_2_l20():
    """Qwen2.5-7B: 28 layers, 4 KV heads of 128 (Qwen/Qwen2.5-7B config.json), so
    2 × 28 × 4 × 128 × 2 = 57,344 bytes per token in BF16; 32,768 tokens × 16 users is
    30.06 GB, which fits 2 × L20 (48 GB) beside 15.2 GB of weights. The dense MHA reading
    of a bare 7B gave 301 GB and 8 × L20 (issue 18)."""
    qwen = serve("qwen2.5-7b", context_length=32_768, batch_size=16)
    assert kv_bytes_per_token(qwen) == 57_344
    sized = size_workload(qwen)
    assert sized.breakdown["kv_cache"] == pytest.approx(57_344 * 32_768 * 16 / 1e9)
    assert sized.breakdown["kv_cache"] == pytest.approx(30.06, abs=0.01)
    assert gpus_needed(qwen, usable_gb(l20().memory_gb, RULES.gpu_memory_usable_fraction)) == 2


def test_a_bare_7b_is_gqa_with_8_kv_heads_not_2023s_mha():
    """domain.md §6: a shape not given is GQA with 8 KV heads. A bare 7B takes Mistral-7B's
    shape (32 layers × 4096, 8 KV heads; mistralai/Mistral-7B-v0.1 config.json): 131,072
    bytes per token, a quarter of Llama-2-7B's MHA, and 2 × L20 at 32k for 16 users where
    MHA needs 7 (the issue's 8 × L20 counted the prompt and output beside the context)."""
    bare = Workload(7, Mode.INFER, context_length=32_768, batch_size=16)
    assert attention_kind(bare) is Attention.GQA
    assert kv_bytes_per_token(bare) == 2 * 32 * 8 * 128 * 2
    assert gpus_needed(bare, usable_gb(48, RULES.gpu_memory_usable_fraction)) == 2
    mha = replace(bare, attention="mha")
    assert kv_bytes_per_token(mha) == 4 * kv_bytes_per_token(bare)
    assert gpus_needed(mha, usable_gb(48, RULES.gpu_memory_usable_fraction)) == 7


# --- KV-cache precision and encoders -------------------------------------------------------


def test_kv_cache_precision_is_its_own_setting_defaulting_to_the_weights():
    """vLLM's kv_cache_dtype "auto" keeps the model's dtype; fp8 halves the cache."""
    bf16 = serve("llama-3.1-70b", context_length=8192, batch_size=8)
    assert kv_precision(bf16) == "bf16"
    fp8_kv = replace(bf16, kv_cache_precision="fp8")
    assert kv_precision(fp8_kv) == "fp8"
    assert size_workload(fp8_kv).breakdown["kv_cache"] == pytest.approx(
        size_workload(bf16).breakdown["kv_cache"] / 2
    )
    assert size_workload(fp8_kv).breakdown["weights"] == size_workload(bf16).breakdown["weights"]
    # Weight-only int4 dequantises to 16 bits: a 16-bit cache unless told otherwise.
    assert kv_precision(replace(bf16, precision="int4")) == "fp16"
    with pytest.raises(ValueError, match="kv_cache_precision"):
        size_workload(replace(bf16, kv_cache_precision="fp4"))


def test_an_encoder_or_embedding_model_has_no_kv_cache():
    encoder = Workload(0.6, Mode.INFER, context_length=8192, batch_size=64, model_kind="encoder")
    sized = size_workload(encoder)
    assert sized.breakdown["kv_cache"] == 0
    assert kv_bytes_per_token(encoder) == 0
    assert any("no KV cache" in str(line) for line in sized.assumptions)


# --- Mixtral 8x7B LoRA: timed on 12.9B active ---------------------------------------------


def test_mixtral_lora_is_timed_on_its_12_9b_active_parameters():
    """Mistral: "46.7B total parameters but only uses 12.9B parameters per token"
    (https://mistral.ai/news/mixtral-of-experts). LoRA FLOPs f·(N + L·s·h)·T on
    N = 12.9B, not 46.7B: about 3.5 × shorter at 2048 tokens (46.7 / 12.9 = 3.6 before
    the causal attention term both share)."""
    lora = Workload(None, Mode.FINETUNE, model="mixtral-8x7b", finetune_method=FinetuneMethod.LORA,
                    batch_size=1, context_length=2048, train_tokens=1e9)  # fmt: skip
    dense = replace(lora, model=None, active_params_b=None, experts=None, experts_per_token=None)
    moe, flat = (performance(s3(), w, RULES, 1.0) for w in (lora, dense))
    attention = 32 * 2048 * 4096
    expected = (46.7e9 + attention) / (12.9e9 + attention)
    assert flat.terms["flops"] / moe.terms["flops"] == pytest.approx(expected)
    assert flat.time_to_train_days / moe.time_to_train_days == pytest.approx(expected, rel=0.01)
    assert expected > 3.4
    # Memory still holds the whole 46.7B base.
    assert size_workload(lora).breakdown["weights"] > 46.7 * 2


# --- Llama-3.1-70B: dense GQA, unchanged ---------------------------------------------------


def test_a_dense_gqa_70b_is_sized_as_before_but_for_its_kv_pool():
    """Llama-2/3.1-70B was already GQA with 8 KV heads; its sizing is the pre-issue-18
    engine's to the last digit (main at ab2aa26) but for the KV cache, which no longer takes
    the allocator's 5 % share: serving engines allocate it once as one pool (issue 19)."""
    sized = size_workload(Workload(70, Mode.INFER, context_length=4096, batch_size=16), 4)
    assert sized.breakdown["kv_cache"] == pytest.approx(21.47483648, rel=1e-12)
    pool_share = ALLOCATOR_OVERHEAD * sized.breakdown["kv_cache"]
    assert sized.total_gb == pytest.approx(172.1122927616 - pool_share, rel=1e-12)
    # The published Llama-3.1-70B: the same KV cache and weights (its larger vocabulary only
    # moves the activations' logits).
    named = serve("llama-3.1-70b", context_length=4096, batch_size=16)
    assert size_workload(named, 4).breakdown["kv_cache"] == sized.breakdown["kv_cache"]
    assert size_workload(named, 4).breakdown["weights"] == sized.breakdown["weights"]


# TensorRT-LLM's H200 figures and InferenceX's DeepSeek-R1 on 8 × H200 are rows of the one
# table of published measurements (tests/engine/published_measurements.py), held within
# ±30 % by test_performance_published.py.


def test_an_fp8_kv_cache_needs_ada_or_hopper():
    """domain.md §6: FP8 KV only on Ada or Hopper and later; Ampere (A800) has no FP8."""
    from configurator.engine.checks import precision_supported
    from tests.engine.builders import s2

    fp8_kv = Workload(70, Mode.INFER, kv_cache_precision="fp8")
    ampere = precision_supported(s2(), fp8_kv, RULES)
    assert ampere.failed and "KV cache" in str(ampere.detail)
    assert not precision_supported(s3(), fp8_kv, RULES).failed
    assert not precision_supported(s2(), Workload(70, Mode.INFER), RULES).failed
