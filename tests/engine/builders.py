"""Datasheet CPUs and GPUs (domain.md §9) and builders of the guide's recipe nodes (§3)."""

from __future__ import annotations

from dataclasses import replace

from configurator.engine.build import Architecture, Build, Cpu, FormFactor, Gpu
from configurator.engine.pcie import even_split


def xeon_gold_5318y() -> Cpu:
    return Cpu(
        slug="xeon-gold-5318y",
        name="Xeon Gold 5318Y",
        cores=24,
        threads=48,
        base_ghz=2.1,
        boost_ghz=3.4,
        tdp_w=165,
        pcie_gen=4,
        pcie_lanes=64,
        pcie_lanes_2s=128,
        memory_channels=8,
        ddr_gen=4,
    )


def xeon_gold_6530() -> Cpu:
    return Cpu(
        slug="xeon-gold-6530",
        name="Xeon Gold 6530",
        cores=32,
        threads=64,
        base_ghz=2.1,
        boost_ghz=4.0,
        tdp_w=270,
        pcie_gen=5,
        pcie_lanes=80,
        pcie_lanes_2s=160,
        memory_channels=8,
        ddr_gen=5,
    )


def xeon_gold_6542y() -> Cpu:
    return Cpu(
        slug="xeon-gold-6542y",
        name="Xeon Gold 6542Y",
        cores=24,
        threads=48,
        base_ghz=2.9,
        boost_ghz=4.1,
        tdp_w=250,
        pcie_gen=5,
        pcie_lanes=80,
        pcie_lanes_2s=160,
        memory_channels=8,
        ddr_gen=5,
    )


def xeon_e5_2680_v4() -> Cpu:
    return Cpu(
        slug="xeon-e5-2680-v4",
        name="Xeon E5-2680 v4",
        cores=14,
        threads=28,
        base_ghz=2.4,
        boost_ghz=3.3,
        tdp_w=120,
        pcie_gen=3,
        pcie_lanes=40,
        pcie_lanes_2s=80,
        memory_channels=4,
        ddr_gen=4,
    )


def epyc_9754() -> Cpu:
    return Cpu(
        slug="epyc-9754",
        name="EPYC 9754",
        cores=128,
        threads=256,
        base_ghz=2.25,
        boost_ghz=3.1,
        tdp_w=360,
        pcie_gen=5,
        pcie_lanes=128,
        pcie_lanes_2s=160,
        memory_channels=12,
        ddr_gen=5,
    )


def epyc_9374f() -> Cpu:
    return Cpu(
        slug="epyc-9374f",
        name="EPYC 9374F",
        cores=32,
        threads=64,
        base_ghz=3.85,
        boost_ghz=4.3,
        tdp_w=320,
        pcie_gen=5,
        pcie_lanes=128,
        pcie_lanes_2s=160,
        memory_channels=12,
        ddr_gen=5,
    )


def rtx_4090() -> Gpu:
    return Gpu(
        slug="rtx-4090",
        name="RTX 4090",
        memory_gb=24,
        tdp_w=450,
        pcie_gen=4,
        architecture=Architecture.ADA,
        ecc=False,
        datacenter=False,
        memory_type="GDDR6X",
        bf16_tflops=165.2,
        fp8_tflops=330.3,
        int8_tops=660.6,
        memory_bandwidth_gbs=1008,
    )


def l20() -> Gpu:
    return Gpu(
        slug="l20",
        name="L20",
        memory_gb=48,
        tdp_w=275,
        pcie_gen=4,
        architecture=Architecture.ADA,
        memory_type="GDDR6",
        bf16_tflops=119.5,
        fp8_tflops=239,
        int8_tops=239,
        memory_bandwidth_gbs=864,
    )


def a800_pcie() -> Gpu:
    return Gpu(
        slug="a800-80g-pcie",
        name="A800 80GB PCIe",
        memory_gb=80,
        tdp_w=300,
        pcie_gen=4,
        architecture=Architecture.AMPERE,
        nvlink_gbps=400,
        memory_type="HBM2e",
        bf16_tflops=312,
        int8_tops=624,
        memory_bandwidth_gbs=1935,
    )


def a800_sxm() -> Gpu:
    return Gpu(
        slug="a800-80g-sxm",
        name="A800 80GB SXM4",
        memory_gb=80,
        tdp_w=400,
        pcie_gen=4,
        architecture=Architecture.AMPERE,
        form_factor=FormFactor.SXM,
        nvlink_gbps=400,
        memory_type="HBM2e",
        bf16_tflops=312,
        int8_tops=624,
        memory_bandwidth_gbs=2039,
    )


def a100_sxm() -> Gpu:
    """A100 80GB SXM4: the A800's datasheet figures with NVLink at 600 GB/s (A100 datasheet,
    https://www.nvidia.com/en-us/data-center/a100/); the GPU of Megatron-LM's and Llama 2's
    published runs."""
    return replace(a800_sxm(), slug="a100-80g-sxm", name="A100 80GB SXM4", nvlink_gbps=600)


def h100_sxm() -> Gpu:
    return Gpu(
        slug="h100-80g-sxm",
        name="H100 80GB SXM5",
        memory_gb=80,
        tdp_w=700,
        pcie_gen=5,
        architecture=Architecture.HOPPER,
        form_factor=FormFactor.SXM,
        nvlink_gbps=900,
        memory_type="HBM3",
        bf16_tflops=989.4,
        fp8_tflops=1978.9,
        int8_tops=1978.9,
        memory_bandwidth_gbs=3350,
    )


def h100_nvl() -> Gpu:
    """H100 NVL 94GB (datasheet): PCIe Gen5 card, NVLink bridge 600 GB/s between two cards."""
    return Gpu(
        slug="h100-nvl-94g",
        name="NVIDIA H100 NVL 94GB",
        memory_gb=94,
        tdp_w=400,
        pcie_gen=5,
        architecture=Architecture.HOPPER,
        form_factor=FormFactor.PCIE,
        nvlink_gbps=600,
        bf16_tflops=835.5,
        fp8_tflops=1670.5,
        int8_tops=1670.5,
        memory_bandwidth_gbs=3900,
    )


def h800_sxm() -> Gpu:
    """H800 80GB SXM5: H100's compute, NVLink 400 GB/s on an HGX board."""
    return replace(h100_sxm(), slug="h800-80g-sxm", name="NVIDIA H800 80GB SXM5", nvlink_gbps=400)


def h200() -> Gpu:
    """H200 141GB SXM: H100's Hopper die (989.4 TFLOPS BF16, 1,979 FP8 dense, NVLink 900 GB/s)
    with 141 GB of HBM3e at 4.8 TB/s (NVIDIA H200 datasheet,
    https://www.nvidia.com/en-us/data-center/h200/)."""
    return replace(h100_sxm(), slug="h200-141g-sxm", name="H200 141GB SXM", memory_gb=141,
                   memory_bandwidth_gbs=4800)  # fmt: skip


def h20() -> Gpu:
    """H20 96GB: 148 TFLOPS BF16 dense, 296 FP8, 4.0 TB/s, NVLink 900 GB/s (domain.md §6)."""
    return replace(h100_sxm(), slug="h20-96g", name="H20 96GB", memory_gb=96,
                   tdp_w=400, memory_bandwidth_gbs=4000, bf16_tflops=148, fp8_tflops=296,
                   int8_tops=296)  # fmt: skip


def node(
    cpu: Cpu,
    gpu: Gpu,
    gpu_count: int,
    memory_gb: int,
    psu_watts: int = 10_000,
    cpu_count: int = 2,
    **changes: object,
) -> Build:
    """Return a sound node: GPUs split evenly, ECC memory, binding, NVLink where the GPU has it."""
    build = Build(
        cpu=cpu,
        cpu_count=cpu_count,
        gpu=gpu,
        gpu_count=gpu_count,
        gpus_per_socket=even_split(gpu_count, cpu_count),
        memory_gb=memory_gb,
        memory_ecc=True,
        psu_watts=psu_watts,
        nvlink=gpu.has_nvlink,
    )
    return replace(build, **changes)


def s1(memory_gb: int = 256, **changes: object) -> Build:
    """Recipe S1: 4 × L20 on 2 × Xeon Gold 5318Y, 256 GB (domain.md §3)."""
    return replace(node(xeon_gold_5318y(), l20(), 4, memory_gb, psu_watts=3000), **changes)


def s2(memory_gb: int = 768, **changes: object) -> Build:
    """Recipe S2 at its top: 8 × A800 80GB SXM on 2 × Xeon Gold 6530 (domain.md §3, §6)."""
    return replace(node(xeon_gold_6530(), a800_sxm(), 8, memory_gb, psu_watts=6000), **changes)


def s3(memory_gb: int = 1024, **changes: object) -> Build:
    """Recipe S3: 8 × H100 SXM on 2 × EPYC 9754, 1 TB DDR5 (domain.md §3), 4 × 3000 W usable."""
    return replace(node(epyc_9754(), h100_sxm(), 8, memory_gb, psu_watts=12000), **changes)


def legacy_e5(gpu_count: int = 8, **changes: object) -> Build:
    """A legacy dual Xeon E5-2680 v4 node (PCIe 3.0, 80 lanes) with memory and power enough."""
    return replace(node(xeon_e5_2680_v4(), a800_pcie(), gpu_count, 1024, psu_watts=5000), **changes)
