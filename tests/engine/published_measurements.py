"""Published measurements the time model is held to: one table, each row with its conditions
and its source (docs/performance.md, "Against published measurements", shows it with today's
ratios; `python -m tests.engine.published_measurements` prints it, `--write` puts it in the
docs).

A row poses the measured system and work to the model with the default rule parameters and
reads the figure the source published. Its ratio is the model's figure over the published one,
in the source's own unit: for a throughput above 1 the model serves more than measured, for a
time above 1 it takes longer. `tests/engine/test_performance_published.py` holds every row
within ±30 % (a row known to lie outside is marked so, with the reason) and the median
|ln ratio| at most 0.12.

Conditions not published are posed as stated in the row and never tuned to its figure. The
hardware is the datasheet's (tests/engine/builders.py), the models their published shapes
(engine/model_shapes.py) or the paper's dimensions. Where the source states how the engine
split the model (TP2, TP8, TP1 PP2, llama.cpp's layer split), the row's workload says so
(`replica_gpus`, `parallelism`); elsewhere the model picks the replica that serves the most.
"""

from __future__ import annotations

import math
import statistics
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from configurator.engine.build import FinetuneMethod, Gpu, Mode, Workload
from configurator.engine.performance import Cluster, Performance, performance
from configurator.engine.rules import RuleParams
from tests.engine.builders import a100_sxm, h100_nvl, h100_sxm, h200, rtx_4090

RULES = RuleParams()
DOCS = Path(__file__).resolve().parents[2] / "docs" / "performance.md"
BEGIN, END = (
    "<!-- published-table: python -m tests.engine.published_measurements --write -->",
    "<!-- /published-table -->",
)

# Sources, each read where it is cited (a repository path at a commit, or a page).
MLPERF_V50 = "https://github.com/mlcommons/inference_results_v5.0/blob/main/closed/NVIDIA/results/"
MLPERF_V41_ASUS = (
    "https://github.com/mlcommons/inference_results_v4.1/blob/main/closed/ASUSTeK/results/"
    "ESC4000A_E12_4XH100_TRT/llama2-70b-99/"
)
NIM = "https://docs.nvidia.com/nim/benchmarking/llm/1.0.0/performance.html"
TRTLLM_061 = (
    "https://github.com/NVIDIA/TensorRT-LLM/blob/138f96d45f90b9667426f7c47297d8c06bafac73/"
    "docs/source/performance.md"
)
TRTLLM_H200 = (
    "https://github.com/NVIDIA/TensorRT-LLM/blob/00f37686aa854010d68bcbd0f4ab000221541ca6/"
    "docs/source/performance/perf-overview.md"
)
INFERENCEX = "https://github.com/SemiAnalysisAI/InferenceX/issues/870"
LLAMA_CPP = (
    "https://github.com/XiongjieDai/GPU-Benchmarks-on-LLM-Inference/blob/"
    "00dd2bdeb2404263f22bd6c1cd46ce397e341db5/README.md"
)
MLC = "https://blog.mlc.ai/2023/10/19/Scalable-Language-Model-Inference-on-Multiple-NVDIA-AMD-GPUs"
MLPERF_TRAINING_V30 = "https://spectrum.ieee.org/large-language-models-training-benchmark"
MLPERF_GPT3_PORTION = (
    "https://climateerinvest.blogspot.com/2023/06/chips-nvidia-leads-habana-challenges-on.html"
)
NEMO_2511 = (
    "https://github.com/NVIDIA-NeMo/Megatron-Bridge/blob/00b7660be0254ac6f95f44164ddd0c3e9cc798ed/"
    "docs/performance-summary.md"
)
NEMO_2407 = (
    "https://github.com/NVIDIA/NeMo/blob/070a0bb168d405d653b9734c0017cf5078e77c0d/"
    "docs/source/performance/performance_summary.md"
)
NEMO_2412 = (
    "https://docs.nvidia.com/nemo-framework/user-guide/24.12/nemotoolkit/performance/"
    "performance_summary.html"
)
MEGATRON = "https://arxiv.org/abs/2104.04473"
LLAMA2 = "https://arxiv.org/abs/2307.09288"
LLAMA31 = (
    "https://github.com/meta-llama/llama-models/blob/1b28708fc46501a449e03d8d618340a052d9ba07/"
    "models/llama3_1/MODEL_CARD.md"
)


# Why a row lies outside ±30 % (docs/performance.md, "Left open", says more).
MOE = (
    "TensorRT-LLM's mixture-of-experts path on Hopper runs these shapes at about a tenth "
    "of the FP8 peak (Llama 4 Maverick alike in the same table), a third of the dense "
    "models' share there; the model times the experts as grouped GEMMs at the dense share"
)
LLAMA31_SMALL = (
    "the card's GPU-hours imply 14 % (8B) and 25 % (70B) of the BF16 peak, where "
    "the 405B's imply 40 % (the paper's 38-43 %): the small models' runs are not "
    "published and were not run at the 405B's efficiency"
)
MLPERF_H100 = (
    "the measured first token is 3.7 of its steps, the model's 1.5 and a queue; the "
    "submission does not publish the scheduler settings (prefill budget a step, "
    "overlap of scheduling and compute) that make up the difference"
)


@dataclass(frozen=True)
class Row:
    """One published measurement: what ran, what was measured, where it is published."""

    family: str  # the family: MLPerf Inference, NIM, TensorRT-LLM, …
    measured: str  # the system and work, in words
    conditions: str  # the conditions the source states (and those posed here)
    source: str
    figure: float  # as published
    unit: str  # the published figure's unit (see `value`)
    pose: Callable[[], tuple[Cluster, Workload]]
    known_outside: str = ""  # why the row is known to lie outside ±30 %, if it does

    def ours(self) -> float:
        """Return the model's figure for this row, in the published unit."""
        node, workload = self.pose()
        result = performance(node, workload, RULES, 1.0)
        assert result is not None, self.measured
        return value(result, self.unit, node)

    def ratio(self) -> float:
        return self.ours() / self.figure


def value(result: Performance, unit: str, node: Cluster) -> float:
    """Return a figure of the model's answer in a published unit."""
    gpus = node.gpu_count * node.nodes
    seconds = result.terms.get("seconds", 0.0)
    tokens = result.terms.get("tokens", 0.0)
    figures: dict[str, Callable[[], float]] = {
        "output tok/s": lambda: result.tokens_per_s,
        "output tok/s/GPU": lambda: result.tokens_per_s / gpus,
        "TTFT ms": lambda: result.time_to_first_token_s * 1000,
        "TPOT ms": lambda: result.time_per_output_token_s * 1000,
        "train tok/s/GPU": lambda: tokens / seconds / gpus,
        "minutes": lambda: seconds / 60,
        "days": lambda: seconds / 86_400,
        "GPU-hours": lambda: seconds * gpus / 3600,
    }
    return figures[unit]()


# --- Systems ------------------------------------------------------------------------------


def hgx(gpu: Gpu, gpus: int = 8) -> Cluster:
    """One HGX/DGX board: `gpus` SXM GPUs on NVSwitch."""
    return Cluster(gpu, gpus, nvlink=True, pcie_gen=gpu.pcie_gen)


def pods(gpu: Gpu, gpus: int, nic_gbps: int) -> Cluster:
    """`gpus` SXM GPUs in 8-GPU NVSwitch nodes, one `nic_gbps` NIC per GPU (DGX SuperPOD)."""
    nodes = gpus // 8
    return Cluster(gpu, 8, nodes, nvlink=True, nics=8, nic_speed_gbps=nic_gbps,
                   pcie_gen=gpu.pcie_gen)  # fmt: skip


def pcie_cards(gpu: Gpu, gpus: int) -> Cluster:
    """`gpus` PCIe cards without NVLink in one node."""
    return Cluster(gpu, gpus, nvlink=False, pcie_gen=gpu.pcie_gen)


H100, H200, A100, RTX4090 = h100_sxm(), h200(), a100_sxm(), rtx_4090()
H100_NVL = h100_nvl()


# --- Workloads ----------------------------------------------------------------------------


def serve(model: str | float, precision: str = "fp8", **fields) -> Workload:
    """A serving workload of a named model or a bare size (Llama-2-70B's shape at 70)."""
    if isinstance(model, str):
        return Workload(None, Mode.INFER, model=model, precision=precision, **fields)
    return Workload(model, Mode.INFER, precision=precision, **fields)


def max_throughput(model: str | float, isl: int, osl: int, **fields) -> Workload:
    """Requests queued at once (an offline or max-throughput run): each replica batches what
    its memory holds."""
    return serve(model, prompt_tokens=isl, output_tokens=osl, target_tokens_per_s=1, **fields)


def users(model: str | float, n: int, isl: int, osl: int, **fields) -> Workload:
    """`n` users each with one request in flight (a fixed-concurrency benchmark)."""
    return serve(model, concurrent_users=n, prompt_tokens=isl, output_tokens=osl, **fields)


GPT3 = {"layers": 96, "hidden_size": 12288, "attention_heads": 96, "kv_heads": 96,
        "vocab_size": 50257}  # fmt: skip  # Brown et al. 2020, Table 2.1
MEGATRON_1T = {"layers": 128, "hidden_size": 25600, "attention_heads": 160, "kv_heads": 160,
               "vocab_size": 51200}  # fmt: skip  # Narayanan et al. 2021, Table 1
GPT3_5B = {"layers": 24, "hidden_size": 4096, "attention_heads": 32, "kv_heads": 32,
           "vocab_size": 50257}  # fmt: skip  # NeMo-Megatron-Launcher conf/training/gpt3/5b.yaml
GPT3_20B = {"layers": 44, "hidden_size": 6144, "attention_heads": 48, "kv_heads": 48,
            "vocab_size": 50257}  # fmt: skip  # NeMo-Megatron-Launcher conf/training/gpt3/20b.yaml
LLAMA2_7B = {"layers": 32, "hidden_size": 4096, "attention_heads": 32, "kv_heads": 32,
             "vocab_size": 32000}  # fmt: skip  # Llama-2-7b config.json (MHA)
LLAMA2_13B = {"layers": 40, "hidden_size": 5120, "attention_heads": 40, "kv_heads": 40,
              "vocab_size": 32000}  # fmt: skip  # Llama-2-13b config.json (MHA)


def train(model: str | float, tokens: float, context: int, batch_tokens: float,
          precision: str = "bf16", **fields) -> Workload:  # fmt: skip
    """Pre-training `tokens` tokens at `context`, `batch_tokens` tokens per optimizer step."""
    common = {"precision": precision, "context_length": context, "train_tokens": tokens,
              "global_batch_tokens": batch_tokens, **fields}  # fmt: skip
    if isinstance(model, str):
        return Workload(None, Mode.TRAIN, model=model, **common)
    return Workload(model, Mode.TRAIN, **common)


def finetune(model: float, context: int, batch_tokens: float, method: FinetuneMethod,
             **fields) -> Workload:  # fmt: skip
    """Fine-tuning 1B tokens of packed `context`-token sequences in FP8 (NeMo's SFT and LoRA)."""
    return Workload(model, Mode.FINETUNE, precision="fp8", context_length=context,
                    train_tokens=1e9, global_batch_tokens=batch_tokens,
                    finetune_method=method, **fields)  # fmt: skip


# MLPerf Inference Llama-2-70B (OpenOrca, 24,576 requests, FP8 weights and KV cache in
# NVIDIA's and ASUS's TensorRT-LLM submissions): each log states tokens and samples per second,
# so 292 output tokens a request (v5.0: 31,306.8 / 107.256; MLPerf requires 294.45 ± 10 %).
# MLPerf does not publish the prompts' mean length; they are posed at the output's, 294 tokens
# (docs/performance.md says how the ratios move at 600). Server runs draw Poisson arrivals:
# the users in flight are completed samples/s × mean latency (Little's law) from the same log.
MLPERF_ISL, MLPERF_OSL = 294, 292


def mlperf_users(samples_per_s: float, mean_latency_s: float) -> int:
    return round(samples_per_s * mean_latency_s)


H100_SERVER_USERS = mlperf_users(106.21, 41.139612789)
H200_SERVER_USERS = mlperf_users(113.045, 49.879189260)
NVL_SERVER_USERS = mlperf_users(19.90, 40.063342039)


# NVIDIA's v5.0 configs build H100 SXM's Llama-2-70B as TP1 PP2 (two GPUs an instance, four on
# DGX H100: H100_SXM_80GB_PP2x1 in configs/llama2-70b/Offline, and in Server with a target of
# 103 queries/s against 75 for its TP2 build; the Server log's 106 req/s is the PP2 build's):
# the layers split over two GPUs. H200 runs one GPU an instance.
# ASUS's v4.1 ESC4000A-E12 (4 × H100 NVL) sets TP2 for Offline; its Server config sets only the
# batch and FP8 and inherits NVIDIA's v4.1 Server base config, `tensor_parallelism = 2`.
ASUS_OFFLINE_CONFIG = (
    "https://github.com/mlcommons/inference_results_v4.1/blob/"
    "a2f5d66d17e8f75c02fd74dfe810ecca6a046696/closed/ASUSTeK/configs/llama2-70b/Offline/custom.py"
)
MLPERF_V50_OFFLINE_CONFIG = (
    "https://github.com/mlcommons/inference_results_v5.0/blob/"
    "6069beb24b7a0a352f2ea8e76989fa16cd47c76e/closed/NVIDIA/configs/llama2-70b/Offline/"
    "__init__.py"
)


def mlperf_offline(gpu: Cluster, **fields) -> Callable[[], tuple[Cluster, Workload]]:
    return lambda: (gpu, max_throughput(70, MLPERF_ISL, MLPERF_OSL, **fields))


def mlperf_server(gpu: Cluster, n: int, **fields) -> Callable[[], tuple[Cluster, Workload]]:
    return lambda: (gpu, users(70, n, MLPERF_ISL, MLPERF_OSL, **fields))


NIM_70B = "2 × H100 SXM, Llama-3.3-70B-Instruct FP8, TP2, NIM 1.8.0"


def nim(n: int, isl: int, osl: int) -> Callable[[], tuple[Cluster, Workload]]:
    return lambda: (hgx(H100, 2), users("llama-3.1-70b", n, isl, osl, replica_gpus=2))


# TensorRT-LLM's perf-overview runs NVIDIA's ModelOpt checkpoints with the KV cache's dtype left
# at "auto", which takes the checkpoint's own declaration (tensorrt_llm/_torch/pyexecutor/
# model_loader.py, validate_and_set_kv_cache_quant: "Using checkpoint KV quantization."). The
# 405B checkpoint declares none ("kv_cache_quant_algo": null), so its cache is BF16; the others'
# files were not read here and keep the default, the weights' FP8 (docs/performance.md).
NVIDIA_405B_FP8_QUANT = (
    "https://huggingface.co/nvidia/Llama-3.1-405B-Instruct-FP8/blob/main/hf_quant_config.json"
)


def trtllm_405b(gpu: Gpu, isl: int, osl: int) -> Callable[[], tuple[Cluster, Workload]]:
    """nvidia/Llama-3.1-405B-Instruct-FP8 at max throughput: FP8 weights, a BF16 KV cache."""
    return lambda: (hgx(gpu), max_throughput("llama-3.1-405b", isl, osl, replica_gpus=8,
                                             kv_cache_precision="bf16"))  # fmt: skip


def trtllm(gpu: Gpu, tp: int, size: float, batch: int, isl: int, osl: int,
           precision: str, attention: str) -> Callable[[], tuple[Cluster, Workload]]:  # fmt: skip
    """TensorRT-LLM v0.6.1's throughput table: `batch` requests at once on one TP group."""
    return lambda: (hgx(gpu, tp), users(size, batch, isl, osl, precision=precision,
                                        attention=attention, replica_gpus=tp))  # fmt: skip


def first_token(gpu: Gpu, tp: int, size: float, isl: int, precision: str,
                attention: str) -> Callable[[], tuple[Cluster, Workload]]:  # fmt: skip
    return lambda: (hgx(gpu, tp), users(size, 1, isl, 1, precision=precision,
                                        attention=attention, replica_gpus=tp))  # fmt: skip


def r1(n: int) -> Callable[[], tuple[Cluster, Workload]]:
    return lambda: (hgx(H200), users("deepseek-r1", n, 1024, 1024, kv_cache_precision="bf16",
                                     replica_gpus=8))  # fmt: skip


def llama_cpp(gpus: int, model: str, precision: str, isl: int, osl: int,
              ) -> Callable[[], tuple[Cluster, Workload]]:  # fmt: skip
    """llama-bench: one sequence; `pp` times a prompt of `isl`, `tg` generates `osl` tokens.
    Over several cards llama.cpp splits the layers (its default `--split-mode layer`)."""
    split = {"parallelism": "layers", "replica_gpus": gpus} if gpus > 1 else {}
    return lambda: (pcie_cards(RTX4090, gpus),
                    users(model, 1, isl, osl, precision=precision, **split))  # fmt: skip


ROWS: tuple[Row, ...] = (
    # --- MLPerf Inference Llama-2-70B ----------------------------------------------------
    Row(
        "MLPerf Inference",
        "8 × H100 SXM (DGX H100), Llama-2-70B, Offline",
        "v5.0, TensorRT 10.8, FP8; 294 in / 292 out; the layers split over two GPUs "
        "(TP1 PP2, [NVIDIA's config](" + MLPERF_V50_OFFLINE_CONFIG + "))",
        MLPERF_V50 + "DGX-H100_H100-SXM-80GBx8_TRT/llama2-70b-99/"
        "Offline/performance/run_1/mlperf_log_summary.txt",
        31_306.8,
        "output tok/s",
        mlperf_offline(hgx(H100), parallelism="pipeline", replica_gpus=2),
    ),
    Row(
        "MLPerf Inference",
        "8 × H200 SXM, Llama-2-70B, Offline",
        "v5.0, FP8; 294 in / 292 out; one GPU an instance (NVIDIA's config)",
        MLPERF_V50 + "H200-SXM-141GBx8_TRT/llama2-70b-99/Offline/performance/run_1/"
        "mlperf_log_summary.txt",
        34_988.2,
        "output tok/s",
        mlperf_offline(hgx(H200), replica_gpus=1),
    ),
    Row(
        "MLPerf Inference",
        "8 × H100 SXM, Llama-2-70B, Server",
        f"v5.0, 106.2 req/s (~{H100_SERVER_USERS:,} in flight); TP1 PP2 as Offline",
        MLPERF_V50 + "DGX-H100_H100-SXM-80GBx8_TRT/"
        "llama2-70b-99.9/Server/performance/run_1/mlperf_log_summary.txt",
        31_106.28,
        "output tok/s",
        mlperf_server(hgx(H100), H100_SERVER_USERS, parallelism="pipeline", replica_gpus=2),
    ),
    Row(
        "MLPerf Inference",
        "8 × H100 SXM, Llama-2-70B, Server: mean first token",
        "as above",
        MLPERF_V50 + "DGX-H100_H100-SXM-80GBx8_TRT/llama2-70b-99.9/Server/performance/run_1/"
        "mlperf_log_summary.txt",
        517.08,
        "TTFT ms",
        mlperf_server(hgx(H100), H100_SERVER_USERS, parallelism="pipeline", replica_gpus=2),
        known_outside=MLPERF_H100,
    ),
    Row(
        "MLPerf Inference",
        "8 × H100 SXM, Llama-2-70B, Server: mean time per output token",
        "as above",
        MLPERF_V50 + "DGX-H100_H100-SXM-80GBx8_TRT/llama2-70b-99.9/Server/"
        "performance/run_1/mlperf_log_summary.txt",
        139.31,
        "TPOT ms",
        mlperf_server(hgx(H100), H100_SERVER_USERS, parallelism="pipeline", replica_gpus=2),
    ),
    Row(
        "MLPerf Inference",
        "8 × H200 SXM, Llama-2-70B, Server",
        f"v5.0, 113.0 req/s (~{H200_SERVER_USERS:,} in flight)",
        MLPERF_V50 + "H200-SXM-141GBx8_TRT/llama2-70b-99/"
        "Server/performance/run_1/mlperf_log_detail.txt",
        33_071.5,
        "output tok/s",
        mlperf_server(hgx(H200), H200_SERVER_USERS, replica_gpus=1),
    ),
    Row(
        "MLPerf Inference",
        "8 × H200 SXM, Llama-2-70B, Server: mean first token",
        "as above",
        MLPERF_V50 + "H200-SXM-141GBx8_TRT/llama2-70b-99/Server/performance/run_1/"
        "mlperf_log_detail.txt",
        397.82,
        "TTFT ms",
        mlperf_server(hgx(H200), H200_SERVER_USERS, replica_gpus=1),
    ),
    Row(
        "MLPerf Inference",
        "8 × H200 SXM, Llama-2-70B, Server: mean time per output token",
        "as above",
        MLPERF_V50 + "H200-SXM-141GBx8_TRT/llama2-70b-99/Server/performance/run_1/"
        "mlperf_log_detail.txt",
        169.96,
        "TPOT ms",
        mlperf_server(hgx(H200), H200_SERVER_USERS, replica_gpus=1),
    ),
    Row(
        "MLPerf Inference",
        "4 × H100 NVL 94GB on PCIe Gen5 (ASUS ESC4000A-E12), Llama-2-70B, Offline",
        "v4.1, TensorRT 10.2, FP8, no NVLink bridge; TP2 ([ASUS's config]("
        + ASUS_OFFLINE_CONFIG
        + "))",
        MLPERF_V41_ASUS + "Offline/performance/run_1/mlperf_log_summary.txt",
        6_673.95,
        "output tok/s",
        mlperf_offline(pcie_cards(H100_NVL, 4), replica_gpus=2),
    ),
    Row(
        "MLPerf Inference",
        "4 × H100 NVL, Llama-2-70B, Server",
        f"v4.1, 19.9 req/s (~{NVL_SERVER_USERS} in flight); TP2, NVIDIA's Server base config",
        MLPERF_V41_ASUS + "Server/performance/run_1/mlperf_log_summary.txt",
        5_788.29,
        "output tok/s",
        mlperf_server(pcie_cards(H100_NVL, 4), NVL_SERVER_USERS, replica_gpus=2),
    ),
    Row(
        "MLPerf Inference",
        "4 × H100 NVL, Llama-2-70B, Server: mean first token",
        "as above",
        MLPERF_V41_ASUS + "Server/performance/run_1/mlperf_log_summary.txt",
        260.37,
        "TTFT ms",
        mlperf_server(pcie_cards(H100_NVL, 4), NVL_SERVER_USERS, replica_gpus=2),
    ),
    Row(
        "MLPerf Inference",
        "4 × H100 NVL, Llama-2-70B, Server: mean time per output token",
        "as above",
        MLPERF_V41_ASUS + "Server/performance/run_1/mlperf_log_summary.txt",
        137.90,
        "TPOT ms",
        mlperf_server(pcie_cards(H100_NVL, 4), NVL_SERVER_USERS, replica_gpus=2),
    ),
    # --- NIM, latency under load ---------------------------------------------------------
    Row(
        "NIM",
        "Llama-3.3-70B, 1 user: first token",
        NIM_70B + "; 5000 in / 500 out",
        NIM,
        406.77,
        "TTFT ms",
        nim(1, 5000, 500),
    ),
    Row(
        "NIM",
        "Llama-3.3-70B, 1 user: time per output token",
        NIM_70B + "; 5000 / 500",
        NIM,
        18.58,
        "TPOT ms",
        nim(1, 5000, 500),
    ),
    Row(
        "NIM",
        "Llama-3.3-70B, 50 users: first token",
        NIM_70B + "; 5000 / 500",
        NIM,
        834.51,
        "TTFT ms",
        nim(50, 5000, 500),
    ),
    Row(
        "NIM",
        "Llama-3.3-70B, 50 users: time per output token",
        NIM_70B + "; 5000 / 500",
        NIM,
        59.73,
        "TPOT ms",
        nim(50, 5000, 500),
    ),
    Row(
        "NIM",
        "Llama-3.3-70B, 50 users: throughput",
        NIM_70B + "; 5000 / 500",
        NIM,
        814.37,
        "output tok/s",
        nim(50, 5000, 500),
    ),
    Row(
        "NIM",
        "Llama-3.3-70B, 1 user: first token of a short prompt",
        NIM_70B + "; 500 in / 2000 out",
        NIM,
        47.77,
        "TTFT ms",
        nim(1, 500, 2000),
    ),
    # --- TensorRT-LLM tables -------------------------------------------------------------
    Row(
        "TensorRT-LLM",
        "H100 SXM, LLaMA-7B FP8, batch 768, TP1",
        "v0.6.1; 128 in / 128 out",
        TRTLLM_061,
        19_694,
        "output tok/s",
        trtllm(H100, 1, 7, 768, 128, 128, "fp8", "mha"),
    ),
    Row(
        "TensorRT-LLM",
        "H100 SXM, LLaMA-7B FP8, batch 80, TP1",
        "v0.6.1; 2048 / 128",
        TRTLLM_061,
        2_244,
        "output tok/s",
        trtllm(H100, 1, 7, 80, 2048, 128, "fp8", "mha"),
    ),
    Row(
        "TensorRT-LLM",
        "2 × H100 SXM, LLaMA-70B FP8, batch 1024, TP2",
        "v0.6.1; 128 / 128",
        TRTLLM_061,
        5_314,
        "output tok/s",
        trtllm(H100, 2, 70, 1024, 128, 128, "fp8", "gqa"),
    ),
    Row(
        "TensorRT-LLM",
        "2 × H100 SXM, LLaMA-70B FP8, batch 96, TP2",
        "v0.6.1; 2048 / 128",
        TRTLLM_061,
        612,
        "output tok/s",
        trtllm(H100, 2, 70, 96, 2048, 128, "fp8", "gqa"),
    ),
    Row(
        "TensorRT-LLM",
        "A100 SXM, LLaMA-7B FP16, batch 384, TP1",
        "v0.6.1; 128 / 128",
        TRTLLM_061,
        5_586,
        "output tok/s",
        trtllm(A100, 1, 7, 384, 128, 128, "fp16", "mha"),
    ),
    Row(
        "TensorRT-LLM",
        "4 × A100 SXM, LLaMA-70B FP16, batch 1280, TP4",
        "v0.6.1; 128 / 128",
        TRTLLM_061,
        2_680,
        "output tok/s",
        trtllm(A100, 4, 70, 1280, 128, 128, "fp16", "gqa"),
    ),
    Row(
        "TensorRT-LLM",
        "H100 SXM, LLaMA-7B FP8: first token",
        "v0.5; 2048-token prompt",
        TRTLLM_061,
        36,
        "TTFT ms",
        first_token(H100, 1, 7, 2048, "fp8", "mha"),
    ),
    Row(
        "TensorRT-LLM",
        "4 × H100 SXM, LLaMA-70B FP8, TP4: first token",
        "v0.5; 2048",
        TRTLLM_061,
        109,
        "TTFT ms",
        first_token(H100, 4, 70, 2048, "fp8", "gqa"),
    ),
    Row(
        "TensorRT-LLM",
        "A100 SXM, LLaMA-7B FP16: first token",
        "v0.5; 2048",
        TRTLLM_061,
        133,
        "TTFT ms",
        first_token(A100, 1, 7, 2048, "fp16", "mha"),
    ),
    Row(
        "TensorRT-LLM",
        "4 × A100 SXM, LLaMA-70B FP16, TP4: first token",
        "v0.5; 2048",
        TRTLLM_061,
        377,
        "TTFT ms",
        first_token(A100, 4, 70, 2048, "fp16", "gqa"),
    ),
    Row(
        "TensorRT-LLM",
        "8 × H200, Llama 3.1 405B FP8, TP8, max throughput",
        "1000 / 1000; the checkpoint's KV cache in BF16 ([hf_quant_config.json]("
        + NVIDIA_405B_FP8_QUANT
        + "): no KV quantisation)",
        TRTLLM_H200,
        3_330,
        "output tok/s",
        trtllm_405b(H200, 1000, 1000),
    ),
    Row(
        "TensorRT-LLM",
        "8 × H200, Llama 3.1 405B FP8, TP8, max throughput",
        "2048 / 2048; KV cache BF16, as above",
        TRTLLM_H200,
        2_948,
        "output tok/s",
        trtllm_405b(H200, 2048, 2048),
    ),
    Row(
        "TensorRT-LLM",
        "H200, Llama 3.3 70B FP8, TP1, max throughput",
        "1000 / 1000",
        TRTLLM_H200,
        2_909,
        "output tok/s",
        lambda: (hgx(H200, 1), max_throughput("llama-3.1-70b", 1000, 1000, replica_gpus=1)),
    ),
    Row(
        "TensorRT-LLM",
        "H200, Llama 3.1 8B FP8, TP1, max throughput",
        "1000 / 1000",
        TRTLLM_H200,
        17_744,
        "output tok/s",
        lambda: (hgx(H200, 1), max_throughput("llama-3.1-8b", 1000, 1000, replica_gpus=1)),
    ),
    # The same table's H100 column at a chat (1000 / 1000) and a summarisation (5000 / 500)
    # shape, for every model the catalog knows.
    Row(
        "TensorRT-LLM",
        "2 × H100 SXM, Llama 3.3 70B FP8, TP2, max throughput",
        "1000 / 1000",
        TRTLLM_H200,
        4_205,
        "output tok/s",
        lambda: (hgx(H100, 2), max_throughput("llama-3.1-70b", 1000, 1000, replica_gpus=2)),
    ),
    Row(
        "TensorRT-LLM",
        "2 × H100 SXM, Llama 3.3 70B FP8, TP2, max throughput",
        "5000 / 500",
        TRTLLM_H200,
        898,
        "output tok/s",
        lambda: (hgx(H100, 2), max_throughput("llama-3.1-70b", 5000, 500, replica_gpus=2)),
    ),
    Row(
        "TensorRT-LLM",
        "H100 SXM, Llama 3.1 8B FP8, TP1, max throughput",
        "1000 / 1000",
        TRTLLM_H200,
        15_220,
        "output tok/s",
        lambda: (hgx(H100, 1), max_throughput("llama-3.1-8b", 1000, 1000, replica_gpus=1)),
    ),
    Row(
        "TensorRT-LLM",
        "H100 SXM, Llama 3.1 8B FP8, TP1, max throughput",
        "5000 / 500",
        TRTLLM_H200,
        3_459,
        "output tok/s",
        lambda: (hgx(H100, 1), max_throughput("llama-3.1-8b", 5000, 500, replica_gpus=1)),
    ),
    Row(
        "TensorRT-LLM",
        "8 × H100 SXM, Llama 3.1 405B FP8, TP8, max throughput",
        "1000 / 1000; KV cache BF16, as above",
        TRTLLM_H200,
        2_919,
        "output tok/s",
        trtllm_405b(H100, 1000, 1000),
    ),
    Row(
        "TensorRT-LLM",
        "8 × H100 SXM, Llama 3.1 405B FP8, TP8, max throughput",
        "5000 / 500; KV cache BF16, as above",
        TRTLLM_H200,
        610,
        "output tok/s",
        trtllm_405b(H100, 5000, 500),
    ),
    # --- Mixture-of-experts serving ------------------------------------------------------
    Row(
        "MoE serving",
        "8 × H200, Qwen3-235B-A22B FP8, max throughput",
        "TensorRT-LLM, TP8 (the table's H200 column), EP8, attention data parallel (posed "
        "tensor parallel); 1000 / 1000",
        TRTLLM_H200,
        23_789,
        "output tok/s",
        lambda: (hgx(H200), max_throughput("qwen3-235b-a22b", 1000, 1000, replica_gpus=8)),
    ),
    Row(
        "MoE serving",
        "8 × H200, Qwen3-235B-A22B FP8, max throughput",
        "2048 / 2048",
        TRTLLM_H200,
        16_672,
        "output tok/s",
        lambda: (hgx(H200), max_throughput("qwen3-235b-a22b", 2048, 2048, replica_gpus=8)),
    ),
    Row(
        "MoE serving",
        "8 × H100 SXM, Qwen3-235B-A22B FP8, max throughput",
        "TensorRT-LLM, TP8, EP8, attention data parallel; 1000 / 1000",
        TRTLLM_H200,
        14_898,
        "output tok/s",
        lambda: (hgx(H100), max_throughput("qwen3-235b-a22b", 1000, 1000, replica_gpus=8)),
        known_outside=MOE,
    ),
    Row(
        "MoE serving",
        "8 × H100 SXM, Qwen3-235B-A22B FP8, max throughput",
        "5000 / 500",
        TRTLLM_H200,
        3_225,
        "output tok/s",
        lambda: (hgx(H100), max_throughput("qwen3-235b-a22b", 5000, 500, replica_gpus=8)),
        known_outside=MOE,
    ),
    Row(
        "MoE serving",
        "8 × H200, DeepSeek-R1-0528 FP8, 8 users",
        "InferenceX, SGLang 0.5.7, TP8; 1024 / 1024",
        INFERENCEX,
        8 * 74.6,
        "output tok/s",
        r1(8),
    ),
    Row(
        "MoE serving",
        "8 × H200, DeepSeek-R1, 16 users",
        "as above",
        INFERENCEX,
        8 * 111.9,
        "output tok/s",
        r1(16),
    ),
    Row(
        "MoE serving",
        "8 × H200, DeepSeek-R1, 32 users",
        "as above",
        INFERENCEX,
        8 * 151.1,
        "output tok/s",
        r1(32),
    ),
    Row(
        "MoE serving",
        "8 × H200, DeepSeek-R1, 64 users",
        "as above",
        INFERENCEX,
        8 * 223.6,
        "output tok/s",
        r1(64),
    ),
    Row(
        "MoE serving",
        "8 × H200, DeepSeek-R1, 8 users: time per output token",
        "as above",
        INFERENCEX,
        12.8,
        "TPOT ms",
        r1(8),
    ),
    Row(
        "MoE serving",
        "8 × H200, DeepSeek-R1, 64 users: time per output token",
        "as above",
        INFERENCEX,
        34.6,
        "TPOT ms",
        r1(64),
    ),
    # --- RTX 4090: llama.cpp and MLC -----------------------------------------------------
    Row(
        "llama.cpp / MLC on RTX 4090",
        "RTX 4090, Llama-3-8B Q4_K_M: generation",
        "llama.cpp (May 2024), tg 512",
        LLAMA_CPP,
        130.58,
        "output tok/s",
        llama_cpp(1, "llama-3.1-8b", "int4", 1, 512),
    ),
    Row(
        "llama.cpp / MLC on RTX 4090",
        "RTX 4090, Llama-3-8B Q4_K_M: prompt of 512",
        "pp 512, as a first token (512 ÷ 7,138.99 tok/s)",
        LLAMA_CPP,
        512 / 7138.99 * 1000,
        "TTFT ms",
        llama_cpp(1, "llama-3.1-8b", "int4", 512, 1),
    ),
    Row(
        "llama.cpp / MLC on RTX 4090",
        "RTX 4090, Llama-3-8B F16: generation",
        "tg 512",
        LLAMA_CPP,
        54.84,
        "output tok/s",
        llama_cpp(1, "llama-3.1-8b", "fp16", 1, 512),
    ),
    Row(
        "llama.cpp / MLC on RTX 4090",
        "RTX 4090, Llama-3-8B F16: prompt of 512",
        "pp 512 (9,382 tok/s)",
        LLAMA_CPP,
        512 / 9382.00 * 1000,
        "TTFT ms",
        llama_cpp(1, "llama-3.1-8b", "fp16", 512, 1),
    ),
    Row(
        "llama.cpp / MLC on RTX 4090",
        "2 × RTX 4090, Llama-3-70B Q4_K_M: generation",
        "tg 512; llama.cpp's default layer split (`--split-mode layer`)",
        LLAMA_CPP,
        19.22,
        "output tok/s",
        llama_cpp(2, "llama-3.1-70b", "int4", 1, 512),
    ),
    Row(
        "llama.cpp / MLC on RTX 4090",
        "2 × RTX 4090, Llama-2-70B q4f16: generation",
        "MLC LLM, TP2 over PCIe, batch 1",
        MLC,
        34.5,
        "output tok/s",
        lambda: (pcie_cards(RTX4090, 2), users(70, 1, 128, 512, precision="int4", replica_gpus=2)),
    ),
    # --- Training at scale ---------------------------------------------------------------
    Row(
        "MLPerf Training",
        "3,584 H100 (CoreWeave), GPT-3 175B",
        "v3.0, FP8; ~0.4 % of GPT-3's 300B tokens = 1.2B tokens at 2048, 1,536 sequences a step",
        MLPERF_TRAINING_V30,
        10.94,
        "minutes",
        lambda: (pods(H100, 3584, 400), train(175, 1.2e9, 2048, 1536 * 2048, "fp8", **GPT3)),
    ),
    Row(
        "MLPerf Training",
        "1,536 H100 (CoreWeave), GPT-3 175B",
        "v3.0; as above",
        MLPERF_GPT3_PORTION,
        23.611,
        "minutes",
        lambda: (pods(H100, 1536, 400), train(175, 1.2e9, 2048, 1536 * 2048, "fp8", **GPT3)),
    ),
    Row(
        "NeMo",
        "8 × H100, Llama 3 8B FP8",
        "NeMo 25.11, GBS 128 × 8192, FSDP",
        NEMO_2511,
        14_451,
        "train tok/s/GPU",
        lambda: (hgx(H100), train("llama-3.1-8b", 1e11, 8192, 128 * 8192, "fp8")),
    ),
    Row(
        "NeMo",
        "64 × H100, Llama 3 70B FP8",
        "NeMo 25.11, GBS 128 × 8192, TP4 PP8 VP5",
        NEMO_2511,
        1_602,
        "train tok/s/GPU",
        lambda: (pods(H100, 64, 400), train("llama-3.1-70b", 1e11, 8192, 128 * 8192, "fp8")),
    ),
    Row(
        "NeMo",
        "1,024 × H100, Llama 3.1 405B FP8",
        "NeMo 25.11, GBS 512 × 8192, TP8 PP8 CP2 VP8",
        NEMO_2511,
        292,
        "train tok/s/GPU",
        lambda: (pods(H100, 1024, 400), train("llama-3.1-405b", 1e11, 8192, 512 * 8192, "fp8")),
    ),
    Row(
        "NeMo",
        "512 × H100, GPT-3 175B FP8",
        "NeMo 24.07, GBS 2048 × 2048, TP4 PP8 VP6",
        NEMO_2407,
        782,
        "train tok/s/GPU",
        lambda: (pods(H100, 512, 400), train(175, 1e11, 2048, 2048 * 2048, "fp8", **GPT3)),
    ),
    Row(
        "NeMo",
        "64 × H100, GPT-3 5B FP8",
        "NeMo 24.07, GBS 2048 × 2048, TP1",
        NEMO_2407,
        22_521,
        "train tok/s/GPU",
        lambda: (pods(H100, 64, 400), train(5.0, 1e11, 2048, 2048 * 2048, "fp8", **GPT3_5B)),
    ),
    Row(
        "NeMo",
        "64 × H100, GPT-3 20B FP8",
        "NeMo 24.07, GBS 256 × 2048, TP2",
        NEMO_2407,
        5_851,
        "train tok/s/GPU",
        lambda: (pods(H100, 64, 400), train(20.0, 1e11, 2048, 256 * 2048, "fp8", **GPT3_20B)),
    ),
    Row(
        "NeMo",
        "128 × H100, GPT-3 175B FP8",
        "NeMo 24.07, GBS 256 × 2048, TP4 PP8 VP6",
        NEMO_2407,
        726,
        "train tok/s/GPU",
        lambda: (pods(H100, 128, 400), train(175, 1e11, 2048, 256 * 2048, "fp8", **GPT3)),
    ),
    Row(
        "NeMo",
        "16 × H100, Llama-2-13B FP8",
        "NeMo 24.07, GBS 128 × 4096, PP4 VP10",
        NEMO_2407,
        8_646,
        "train tok/s/GPU",
        lambda: (pods(H100, 16, 400), train(13.0, 1e11, 4096, 128 * 4096, "fp8", **LLAMA2_13B)),
    ),
    Row(
        "NeMo",
        "8 × H100, Llama-2-7B FP8 SFT",
        "NeMo 24.07, SQuAD packed to 4096, GBS 32",
        NEMO_2407,
        17_120,
        "train tok/s/GPU",
        lambda: (hgx(H100), finetune(6.74, 4096, 32 * 4096, FinetuneMethod.FULL, **LLAMA2_7B)),
    ),
    Row(
        "NeMo",
        "16 × H100, Llama-2-70B FP8 SFT",
        "as above, TP4 PP4",
        NEMO_2407,
        1_833,
        "train tok/s/GPU",
        lambda: (pods(H100, 16, 400), finetune(70, 4096, 32 * 4096, FinetuneMethod.FULL)),
    ),
    Row(
        "NeMo",
        "8 × H100, Llama-2-7B FP8 LoRA",
        "as above, TP1",
        NEMO_2407,
        25_206,
        "train tok/s/GPU",
        lambda: (hgx(H100), finetune(6.74, 4096, 32 * 4096, FinetuneMethod.LORA, **LLAMA2_7B)),
    ),
    Row(
        "NeMo",
        "8 × H100, Llama-2-13B FP8 LoRA",
        "as above, TP1",
        NEMO_2407,
        14_161,
        "train tok/s/GPU",
        lambda: (hgx(H100), finetune(13.0, 4096, 32 * 4096, FinetuneMethod.LORA, **LLAMA2_13B)),
    ),
    Row(
        "NeMo",
        "8 × H100, Llama-2-70B FP8 LoRA",
        "as above, TP2 PP4",
        NEMO_2407,
        2_557,
        "train tok/s/GPU",
        lambda: (hgx(H100), finetune(70, 4096, 32 * 4096, FinetuneMethod.LORA)),
    ),
    Row(
        "NeMo",
        "64 × H100, Llama-2-70B FP8",
        "NeMo 24.12, seq 4096, GBS 128",
        NEMO_2412,
        1_728,
        "train tok/s/GPU",
        lambda: (pods(H100, 64, 400), train(70, 1e11, 4096, 128 * 4096, "fp8")),
    ),
    Row(
        "NeMo",
        "8 × H100, Llama-2-7B FP8",
        "NeMo 24.12, seq 4096, GBS 128",
        NEMO_2412,
        16_934,
        "train tok/s/GPU",
        lambda: (hgx(H100), train(6.74, 1e11, 4096, 128 * 4096, "fp8", **LLAMA2_7B)),
    ),
    Row(
        "Megatron-LM",
        "1,024 × A100, GPT-3 175B, 300B tokens",
        "Narayanan et al. 2021 §5.1: "
        "FP16, batch 1536 × 2048 (their estimate from measured 140 TFLOP/s a GPU)",
        MEGATRON,
        34,
        "days",
        lambda: (pods(A100, 1024, 200), train(175, 3e11, 2048, 1536 * 2048, "fp16", **GPT3)),
    ),
    Row(
        "Megatron-LM",
        "3,072 × A100, 1T GPT, 450B tokens",
        "§5.1: batch 3072 × 2048 (163 TFLOP/s a GPU measured, Table 1)",
        MEGATRON,
        84,
        "days",
        lambda: (
            pods(A100, 3072, 200),
            train(1008, 4.5e11, 2048, 3072 * 2048, "fp16", **MEGATRON_1T),
        ),
    ),
    Row(
        "Llama GPU-hours",
        "Llama 2 7B, 2T tokens",
        "Touvron et al. 2023, Table 2: A100-80GB, "
        "4096 context, 4M tokens a step; posed on 1,024 GPUs",
        LLAMA2,
        184_320,
        "GPU-hours",
        lambda: (pods(A100, 1024, 200), train(6.74, 2e12, 4096, 4 * 2**20, **LLAMA2_7B)),
    ),
    Row(
        "Llama GPU-hours",
        "Llama 2 13B, 2T tokens",
        "as above",
        LLAMA2,
        368_640,
        "GPU-hours",
        lambda: (pods(A100, 1024, 200), train(13.0, 2e12, 4096, 4 * 2**20, **LLAMA2_13B)),
    ),
    Row(
        "Llama GPU-hours",
        "Llama 2 70B, 2T tokens",
        "as above; posed on 2,048 GPUs",
        LLAMA2,
        1_720_320,
        "GPU-hours",
        lambda: (pods(A100, 2048, 200), train(70, 2e12, 4096, 4 * 2**20)),
    ),
    Row(
        "Llama GPU-hours",
        "Llama 3.1 8B, ~15T tokens",
        "model card: H100-80GB; posed at 8192 context, BF16, 16M tokens a step, on 2,048 GPUs",
        LLAMA31,
        1.46e6,
        "GPU-hours",
        lambda: (pods(H100, 2048, 400), train("llama-3.1-8b", 15e12, 8192, 16 * 2**20)),
        known_outside=LLAMA31_SMALL,
    ),
    Row(
        "Llama GPU-hours",
        "Llama 3.1 70B, ~15T tokens",
        "as above",
        LLAMA31,
        7.0e6,
        "GPU-hours",
        lambda: (pods(H100, 4096, 400), train("llama-3.1-70b", 15e12, 8192, 16 * 2**20)),
        known_outside=LLAMA31_SMALL,
    ),
    Row(
        "Llama GPU-hours",
        "Llama 3.1 405B, ~15T tokens",
        "as above; on 16,384 GPUs",
        LLAMA31,
        30.84e6,
        "GPU-hours",
        lambda: (pods(H100, 16384, 400), train("llama-3.1-405b", 15e12, 8192, 16 * 2**20)),
    ),
)


def families() -> list[str]:
    return list(dict.fromkeys(row.family for row in ROWS))


def summary(ratios: list[float]) -> dict[str, float]:
    """Return the shares within ±30 % and ±20 % and the median |ln ratio|."""
    logs = [abs(math.log(r)) for r in ratios]
    return {
        "within_30": sum(0.7 <= r <= 1.3 for r in ratios) / len(ratios),
        "within_20": sum(0.8 <= r <= 1.2 for r in ratios) / len(ratios),
        "median_log": statistics.median(logs),
    }


def table_lines() -> list[str]:
    """Return the markdown table of every row with today's ratio, and the summary."""
    lines = ["| family | measured | conditions | published | this model | ratio |",
             "|---|---|---|---|---|---|"]  # fmt: skip
    ratios = []
    for row in ROWS:
        ours = row.ours()
        ratios.append(ours / row.figure)
        measured = f"[{row.measured}]({row.source})"
        published = f"{row.figure:,.4g} {row.unit}"
        lines.append(f"| {row.family} | {measured} | {row.conditions} | {published} | "
                     f"{ours:,.4g} | {ours / row.figure:.2f} |")  # fmt: skip
    stats = summary(ratios)
    lines += ["", f"{len(ratios)} rows: {stats['within_30']:.0%} within ±30 %, "
              f"{stats['within_20']:.0%} within ±20 %, median |ln ratio| "
              f"{stats['median_log']:.3f}."]  # fmt: skip
    return lines


def main(argv: list[str]) -> None:
    lines = table_lines()
    if "--write" in argv:
        text = DOCS.read_text(encoding="utf-8")
        head, rest = text.split(BEGIN, 1)
        _, tail = rest.split(END, 1)
        DOCS.write_text(head + BEGIN + "\n" + "\n".join(lines) + "\n" + END + tail,
                        encoding="utf-8")  # fmt: skip
    print("\n".join(lines))


if __name__ == "__main__":
    main(sys.argv[1:])
