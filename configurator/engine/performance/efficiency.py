"""The share of a GPU's datasheet peak that the work sustains, by generation, precision and
phase (docs/performance.md, "Efficiencies", has every figure beside its source).

A compute efficiency is the share of the dense tensor peak that the work's FLOPs run at, all
its kernels together (GEMMs, attention, norms, the gaps between them): for training the model
FLOPs 6·(N_a + L·s·h)·T (8· with full recomputation) over the run's time without bubbles or
exposed communication, which the layouts time themselves; for serving the FLOPs of prefill and
of decode steps that are bound by compute. The figures are those the published runs reached;
the rule profile's `mfu_nvswitch` scales them all (a profile at the default 0.50 takes them as
they are), so an operator who measures a fleet calibrates one number.

Memory efficiency is the share of the datasheet bandwidth a decode step reads at: the rule
profile's `memory_bandwidth_efficiency` for weights and the KV cache, and a lower share for a
mixture of experts' expert weights, which serving engines split over the tensor-parallel GPUs
into slices too small for a GEMM to reach full bandwidth.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum
from types import MappingProxyType

from configurator.engine.build import Architecture, Gpu
from configurator.engine.rules import RuleParams

# The default of the rule profile's `mfu_nvswitch`: a profile at it takes the table as is.
DEFAULT_MFU = 0.50
# The default of `memory_bandwidth_efficiency`, against which the expert share is stated.
DEFAULT_BANDWIDTH_EFFICIENCY = 0.70


class Phase(StrEnum):
    TRAINING = "training"
    SERVING = "serving"  # prefill, and decode steps bound by compute


@dataclass(frozen=True, slots=True)
class Efficiency:
    """A sustained share of the dense peak and the published runs it is read from."""

    share: float
    source: str


# Compute efficiency by phase, generation and the precision the tensor cores run. A
# generation is the architecture's family as published runs measured it: "ampere" (Volta,
# Turing, Ampere), "hopper" (Ada data-centre cards, Hopper, Blackwell) and "geforce" (consumer
# cards of any architecture, serving only); a precision is "fp8" or "16-bit" (bf16, fp16,
# fp32 on TF32, and weight-only int8/int4 formats that compute in 16 bits).
COMPUTE: Mapping[tuple[Phase, str, str], Efficiency] = MappingProxyType(
    {
        (Phase.TRAINING, "ampere", "16-bit"): Efficiency(
            0.48,
            "Narayanan et al. 2021 (Megatron-LM), Table 1: GPT models of 175B–1T on 1,536–3,072 "
            "A100 sustain 44–52 % of the 312 TFLOPS peak, counted with their recomputation",
        ),
        (Phase.TRAINING, "hopper", "16-bit"): Efficiency(
            0.42,
            "Llama 3 (Dubey et al. 2024), Table 4: BF16 MFU of 38–43 % on 8,192–16,384 H100",
        ),
        (Phase.TRAINING, "hopper", "fp8"): Efficiency(
            0.38,
            "NeMo 25.11 performance summary, DGX-H100 FP8: Llama 3 8B, 70B and 3.1 405B at "
            "744, 719 and 737 model TFLOP/s per GPU, 36–38 % of the 1,979 TFLOPS FP8 peak",
        ),
        (Phase.SERVING, "ampere", "16-bit"): Efficiency(
            0.65,
            "TensorRT-LLM v0.5 first-token latency on A100 FP16, 2,048-token prompts: LLaMA-7B "
            "133 ms and LLaMA-70B TP4 377 ms, 61–69 % of 312 TFLOPS",
        ),
        (Phase.SERVING, "hopper", "fp8"): Efficiency(
            0.50,
            "NIM 1.8 Llama-3.3-70B FP8 TP2 on H100: a 5,000-token first token in 407 ms, 46 % "
            "of 1,979 TFLOPS; MLPerf Inference v5.0 Llama-2-70B Offline on 8 × H100 keeps over "
            "half of the FP8 peak busy",
        ),
        (Phase.SERVING, "geforce", "16-bit"): Efficiency(
            0.45,
            "llama.cpp on an RTX 4090 (XiongjieDai/GPU-Benchmarks-on-LLM-Inference): Llama-3-8B "
            "F16 prompt processing of 512 tokens at 9,382 tok/s, 45 % of the 330 TFLOPS FP16 "
            "rate with FP16 accumulation",
        ),
    }
)

# Expert weights of a mixture of experts are read at this share of what whole weight matrices
# reach in a decode step: 0.44 of 4.8 TB/s where the dense share is 0.70. InferenceX
# (SemiAnalysisAI/InferenceX#870) measured DeepSeek-R1 FP8 on 8 × H200 with SGLang, TP 8: per
# GPU and step, 20 GB of touched expert weights at 8 users and 73 GB at 64 users take 10.4 and
# 32 ms beyond the step's fixed costs, 41–47 % of the bandwidth. DeepGEMM's FP8 table (H800,
# decode-sized GEMMs) shows why: whole matrices reach 50–80 % of the bandwidth, and tensor
# parallelism cuts each expert into eighths of that size.
EXPERT_READ_SHARE = Efficiency(
    0.44 / DEFAULT_BANDWIDTH_EFFICIENCY,
    "InferenceX DeepSeek-R1 FP8 on 8 × H200 (SGLang TP8): expert weights read at 41–47 % of "
    "the bandwidth; DeepGEMM README (H800): decode-sized FP8 GEMMs at 50–80 %",
)

# A mixture of experts' routed GEMMs run grouped: each expert over the m tokens routed to it
# takes as long as m + m½ tokens would in one large GEMM. DeepGEMM's FP8 table (deepseek-ai/
# DeepGEMM README, H800, masked layout, N 4096, K 7168) measures 932, 1,040 and 1,233 TFLOPS at
# 256, 512 and 1,024 tokens an expert against 1,304 for a dense GEMM of 4,096 tokens, that is
# m / (m + m½) of it with m½ = 102, 130 and 58 tokens; their median is taken. A decode step of
# few tokens an expert stays bound by reading the expert weights (EXPERT_READ_SHARE).
GROUPED_GEMM_HALF_TOKENS = 100

# Consumer cards run FP16 tensor maths at twice their FP32-accumulate rate when the engine
# accumulates in FP16 (NVIDIA Ada Lovelace whitepaper, appendix: RTX 4090 330.3 TFLOPS with
# FP16 accumulate, 165.2 with FP32), as llama.cpp's CUDA backend does for fp16 and for the
# quantised formats it dequantises to fp16 (ggml-cuda.cu, ggml_cuda_mul_mat_cublas). The
# catalog holds the FP32-accumulate figure; bf16 always accumulates in FP32.
FP16_ACCUMULATE_FORMATS = frozenset({"fp16", "int4"})

OLDER = {Architecture.VOLTA, Architecture.TURING, Architecture.AMPERE}

# The efficiencies above were measured on each architecture's SXM part, at its power budget.
# A card with fewer watts per peak FLOP cannot hold its boost clock under sustained tensor
# work: its clocks fall until it draws its TDP, so it sustains at most TDP × the SXM part's
# FLOP per joule (the ratio of the two datasheets' watts per peak TFLOPS). The MLPerf Inference
# v4.1 ASUS run of Llama-2-70B on 4 × H100 NVL (400 W) served 1,669 tokens/s a GPU, 0.55 of
# what 8 × H100 SXM (700 W) serve a GPU in v5.0, where the datasheet peaks differ by 0.84 and
# the power budgets by 0.57. Memory-bound steps draw less power and are not capped.
# (dense 16-bit TFLOPS, TDP in W) of the SXM part: V100 SXM2, A100 SXM4, H100 SXM5 and HGX
# B200 datasheets.
POWER_REFERENCE: Mapping[Architecture, tuple[float, float]] = MappingProxyType(
    {
        Architecture.VOLTA: (125.0, 300.0),
        Architecture.AMPERE: (312.0, 400.0),
        Architecture.HOPPER: (989.4, 700.0),
        Architecture.BLACKWELL: (2250.0, 1000.0),
    }
)


def power_share(gpu: Gpu) -> float:
    """Return the share of its peak a card's power budget lets it sustain, against the SXM
    part of its architecture (1 for that part, for cards with more watts per TFLOPS, and for
    architectures without an SXM part)."""
    reference = POWER_REFERENCE.get(gpu.architecture)
    peak = gpu.peak_tflops("fp16")
    if reference is None or peak <= 0 or gpu.tdp_w <= 0:
        return 1.0
    reference_peak, reference_tdp = reference
    return min(1.0, (gpu.tdp_w / peak) / (reference_tdp / reference_peak))


def generation(gpu: Gpu, phase: Phase) -> str:
    """Return the row of the efficiency tables a GPU takes."""
    if phase is Phase.SERVING and not gpu.datacenter:
        return "geforce"
    return "ampere" if gpu.architecture in OLDER else "hopper"


def precision_class(precision: str) -> str:
    return "fp8" if str(precision).lower() == "fp8" else "16-bit"


def compute_efficiency(gpu: Gpu, precision: str, phase: Phase, rules: RuleParams) -> float:
    """Return the share of the dense peak the phase sustains on this GPU at this precision.

    A cell the published runs do not cover takes another generation's cell of the same
    precision (the same kernels on a similar tensor core), then the generation's other cell.
    """
    gen, prec = generation(gpu, phase), precision_class(precision)
    others = ("hopper", "ampere") if gen != "hopper" else ("ampere",)
    candidates = [(phase, gen, prec), *((phase, other, prec) for other in others)]
    candidates += [(phase, gen, "16-bit"), *((phase, other, "16-bit") for other in others)]
    for key in candidates:
        if key in COMPUTE:
            return COMPUTE[key].share * rules.mfu_nvswitch / DEFAULT_MFU * power_share(gpu)
    raise KeyError(f"no efficiency for {phase} on {gpu.slug}")


def compute_peak(gpu: Gpu, precision: str, phase: Phase) -> float:
    """Return the dense tensor peak, FLOP/s, the phase's maths runs at.

    Training computes fp8 and fp32 (on TF32) as named and every other format in bf16. Serving
    computes weight-only integer formats in 16 bits and, on a consumer card, fp16 at the FP16-
    accumulate rate (`FP16_ACCUMULATE_FORMATS`).
    """
    precision = str(precision).lower()
    if phase is Phase.TRAINING:
        return gpu.peak_tflops(precision if precision in ("fp8", "fp32") else "bf16") * 1e12
    peak = gpu.peak_tflops("fp16") if precision == "int4" else gpu.peak_tflops(precision)
    if not gpu.datacenter and precision in FP16_ACCUMULATE_FORMATS:
        peak *= 2
    return peak * 1e12


def bandwidth(gpu: Gpu, rules: RuleParams) -> float:
    """Return the bytes per second a decode step reads weights and KV cache at."""
    return gpu.memory_bandwidth_gbs * 1e9 * rules.memory_bandwidth_efficiency
