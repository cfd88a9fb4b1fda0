"""Reference systems the industry ships or the guide recommends, with the verdict each earns.

Each entry is an `/api/v1/evaluate` request as a datacenter would write it (catalog slugs,
the PSUs' usable output after redundancy) and the verdict, with the codes that must fail when
it is rejected. Sources: domain.md §3 (the guide's recipes), §8 (DGX H100), and the platforms'
vendor pages recorded in catalog/migrations/0009_platform_power.py.
"""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True)
class Reference:
    name: str
    build: dict
    workload: dict | None
    verdict: str
    failing: frozenset[str] = field(default_factory=frozenset)  # exactly these fail

    def body(self) -> dict:
        body: dict = {"build": self.build}
        if self.workload is not None:
            body["workload"] = self.workload
        return body


def build(cpu: str, gpu: str, gpus: int, memory_gb: int, psu_watts: int, **more) -> dict:
    return {
        "cpu": cpu,
        "cpu_count": 2,
        "gpu": gpu,
        "gpu_count": gpus,
        "memory_gb": memory_gb,
        "memory_ecc": True,
        "psu_watts": psu_watts,
        **more,
    }


# DGX H100 (domain.md §8): 2 × Xeon Platinum 8480C, 8 × H100 SXM, 2 TB in 32 DIMMs, one
# 400G ConnectX-7 per GPU, 8 NVMe, 6 × 3.3 kW PSUs at 4 + 2 = 13.2 kW usable.
DGX_H100 = build(
    "xeon-platinum-8480c", "h100-80g-sxm", 8, 2048, 4 * 3300,
    platform="nvidia-dgx-h100", dimm_count=32, nics=8, nic="cx7-ndr-400g-osfp", nvme=8,
)  # fmt: skip
TRAIN_70B = {"model_params_b": 70, "mode": "train", "batch_size": 1}
TRAIN_34B = {"model_params_b": 34, "mode": "train", "batch_size": 8}
TRAIN_175B = {"model_params_b": 175, "mode": "train", "batch_size": 1}
LORA_7B = {"model_params_b": 7, "mode": "finetune", "finetune_method": "lora", "batch_size": 4}
INFER_13B = {"model_params_b": 13, "mode": "infer", "batch_size": 32, "context_length": 4096}

# An HGX A800 8-GPU node: 2 × Xeon Gold 6530, 1 TB, NVSwitch, 4 × 3000 W at 2 + 2.
HGX_A800 = build("xeon-gold-6530", "a800-80g-sxm", 8, 1024, 2 * 3000, nvlink=True)
# An 8 × RTX 4090 box: 2 × Xeon Gold 6530, 512 GB (the 8-GPU floor), 4 × 2000 W at 3 + 1.
RTX_4090_BOX = build("xeon-gold-6530", "rtx-4090", 8, 512, 3 * 2000)
# The guide's recipes (domain.md §3), S2 at the 768 GB its own P3 asks for (§6).
S1 = build("xeon-gold-5318y", "l20", 4, 256, 2000)
S1_ON_740GP = build("xeon-gold-5318y", "l20", 4, 256, 2200, platform="smc-sys-740gp-tnrt")
S2 = build(
    "xeon-gold-6530", "a800-80g-pcie", 8, 768, 2 * 2700, platform="smc-sys-421ge-tnrt",
    nvlink=True,
)  # fmt: skip
S3 = build(
    "epyc-9754", "h100-80g-sxm", 8, 1024, 3 * 3000, platform="smc-as-8125gs-tnhr",
    nics=8, nic="cx7-ndr-400g-osfp",
)  # fmt: skip

# Today's HGX hosts (api.md "Today's models"; catalog migration 0013), on their stock PSUs
# at 3 + 3: 8 × H200 on a Dell XE9680 with 2 × Xeon Platinum 8480+, 2 TB, one 400G NIC per
# GPU; 8 × H20 and 8 × H800 on an Inspur NF5688M7 with 2 × Xeon Platinum 8468 / 8480+.
XE9680_H200 = build(
    "xeon-platinum-8480-plus", "h200-141g-sxm", 8, 2048, 3 * 2800, platform="dell-xe9680",
    nics=8, nic="cx7-ndr-400g-osfp",
)  # fmt: skip
NF5688M7_H20 = build(
    "xeon-platinum-8468", "h20-96g", 8, 2048, 3 * 3200, platform="inspur-nf5688m7",
    nics=8, nic="cx7-ndr-400g-osfp",
)  # fmt: skip
NF5688M7_H800 = {**NF5688M7_H20, "cpu": "xeon-platinum-8480-plus", "gpu": "h800-80g-sxm"}
INFER_405B_FP8 = {"model_params_b": 405, "mode": "infer", "batch_size": 8, "precision": "fp8"}

REFERENCES: tuple[Reference, ...] = (
    Reference("XE9680, 8 × H200, no workload", XE9680_H200, None, "accept"),
    Reference(
        "XE9680 × 2, 8 × H200, 70B training", {**XE9680_H200, "nodes": 2}, TRAIN_70B, "accept"
    ),
    # The operator's P8 (domain.md §6: it stays the operator's rule): a 2.0 GHz base clock
    # fails small-batch inference; the 2.8 GHz 8462Y+ on the same host passes.
    Reference(
        "XE9680, 8 × H200 on 8480+, 405B FP8 at batch 8",
        XE9680_H200,
        INFER_405B_FP8,
        "reject",
        frozenset({"P8"}),
    ),
    Reference(
        "XE9680, 8 × H200 on 8462Y+, 405B FP8 at batch 8",
        {**XE9680_H200, "cpu": "xeon-platinum-8462y-plus"},
        INFER_405B_FP8,
        "accept",
    ),
    Reference("NF5688M7, 8 × H20, no workload", NF5688M7_H20, None, "accept"),
    Reference(
        "NF5688M7, 8 × H20 on 8462Y+, 405B FP8 at batch 8",
        {**NF5688M7_H20, "cpu": "xeon-platinum-8462y-plus"},
        INFER_405B_FP8,
        "accept",
    ),
    Reference(
        "NF5688M7 × 2, 8 × H800, 70B training", {**NF5688M7_H800, "nodes": 2}, TRAIN_70B, "accept"
    ),
    Reference("DGX H100 × 2, 70B training", {**DGX_H100, "nodes": 2}, TRAIN_70B, "accept"),
    Reference("DGX H100 × 4, 70B training", {**DGX_H100, "nodes": 4}, TRAIN_70B, "accept"),
    Reference("DGX H100, no workload", DGX_H100, None, "accept"),
    Reference(
        "DGX H100 on 6 × 3.3 kW at 3 + 3",
        {**DGX_H100, "psu_watts": 3 * 3300},
        None,
        "reject",
        frozenset({"P7"}),
    ),
    Reference("HGX A800 8-GPU, 34B training", HGX_A800, TRAIN_34B, "accept"),
    Reference("8 × RTX 4090, 13B inference", RTX_4090_BOX, INFER_13B, "accept"),
    Reference(
        "8 × RTX 4090, 70B full training",
        RTX_4090_BOX,
        TRAIN_70B,
        "reject",
        frozenset({"P5", "capacity"}),
    ),
    Reference("S1: 4 × L20 on 2000 W, 7B LoRA", S1, LORA_7B, "accept"),
    Reference("S1 on a 740GP-TNRT's stock 2 × 2200 W (1 + 1)", S1_ON_740GP, LORA_7B, "accept"),
    Reference("S2: 8 × A800 PCIe on 421GE-TNRT, 34B training", S2, TRAIN_34B, "accept"),
    Reference(
        "S3 × 6 on 8125GS-TNHR stock PSUs, 175B training", {**S3, "nodes": 6}, TRAIN_175B, "accept"
    ),
    Reference(
        "two HGX A800 nodes training without NICs",
        {**HGX_A800, "nodes": 2},
        TRAIN_34B,
        "reject",
        frozenset({"fabric"}),
    ),
    Reference(
        "FP8 inference on A800",
        HGX_A800,
        {**INFER_13B, "precision": "fp8"},
        "reject",
        frozenset({"precision"}),
    ),
)
