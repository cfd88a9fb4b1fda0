"""Plain data the engine works on: resolved hardware specs, one node's build, a workload."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from configurator.engine.model_shapes import published_shape


class Mode(StrEnum):
    TRAIN = "train"
    FINETUNE = "finetune"
    INFER = "infer"


class FinetuneMethod(StrEnum):
    FULL = "full"
    LORA = "lora"
    QLORA = "qlora"


class FormFactor(StrEnum):
    PCIE = "pcie"
    SXM = "sxm"


class Architecture(StrEnum):
    """A GPU's architecture: it decides the number formats its tensor cores run."""

    AMPERE = "ampere"  # A100, A800: FP16/BF16/TF32, INT8; no FP8
    ADA = "ada"  # RTX 4090, L20, L40S: FP8 tensor cores
    HOPPER = "hopper"  # H100, H800, H20: FP8 Transformer Engine


# Formats that need tensor cores of a given architecture; every other precision a workload may
# name (fp32, fp16, bf16, and weight-only int8/int4, which kernels dequantise to 16-bit) runs
# on all of them. FP8 (E4M3/E5M2) arrived with Ada and Hopper [NVIDIA architecture papers].
PRECISION_ARCHITECTURES: dict[str, frozenset[Architecture]] = {
    "fp8": frozenset({Architecture.ADA, Architecture.HOPPER}),
}


@dataclass(frozen=True, slots=True)
class Cpu:
    """One CPU model as its datasheet states it (per socket unless named otherwise)."""

    slug: str
    name: str
    cores: int
    threads: int
    base_ghz: float
    boost_ghz: float
    tdp_w: int
    pcie_gen: int
    pcie_lanes: int
    pcie_lanes_2s: int  # lanes usable in a 2-socket system, both sockets together
    memory_channels: int
    ddr_gen: int
    max_sockets: int = 2
    socket: str = ""
    monthly_price: float = 0.0

    def lanes_for(self, sockets: int) -> int:
        """Return the PCIe lanes usable with this many sockets."""
        return self.pcie_lanes_2s if sockets >= 2 else self.pcie_lanes


@dataclass(frozen=True, slots=True)
class Gpu:
    """One GPU model as its datasheet states it."""

    slug: str
    name: str
    memory_gb: int
    tdp_w: int
    pcie_gen: int
    architecture: Architecture
    form_factor: FormFactor = FormFactor.PCIE
    nvlink_gbps: int = 0  # NVLink bandwidth in GB/s; 0 means the GPU has none
    ecc: bool = True
    datacenter: bool = True
    memory_type: str = ""
    monthly_price: float = 0.0
    # Dense tensor throughput (datasheet, no sparsity) and memory bandwidth; 0: not known/none.
    bf16_tflops: float = 0.0
    fp8_tflops: float = 0.0
    int8_tops: float = 0.0
    memory_bandwidth_gbs: int = 0

    @property
    def has_nvlink(self) -> bool:
        return self.nvlink_gbps > 0

    def runs(self, precision: str) -> bool:
        """Return whether this GPU's tensor cores run the number format natively."""
        needed = PRECISION_ARCHITECTURES.get(str(precision).lower())
        return needed is None or self.architecture in needed

    def peak_tflops(self, precision: str) -> float:
        """Return the dense tensor throughput for a precision's matrix maths; 0 when unknown.

        fp32 runs on TF32 tensor cores, half the 16-bit rate; int4 weight-only formats compute
        in 16 bits; fp8 and int8 use their own tensor paths where the GPU has them.
        """
        if precision == "fp8":
            return self.fp8_tflops
        if precision == "int8":
            return self.int8_tops
        if precision == "fp32":
            return self.bf16_tflops / 2
        return self.bf16_tflops


@dataclass(frozen=True, slots=True)
class MemoryModule:
    """One DIMM model."""

    slug: str
    name: str
    ddr_gen: int
    capacity_gb: int
    registered: bool
    ecc: bool
    speed_mts: int
    monthly_price: float = 0.0


@dataclass(frozen=True, slots=True)
class Psu:
    """One power-supply model."""

    slug: str
    name: str
    rated_w: int
    monthly_price: float = 0.0


@dataclass(frozen=True, slots=True)
class Nic:
    """One high-speed network card."""

    slug: str
    name: str
    speed_gbps: int
    pcie_gen: int
    pcie_lanes: int
    tdp_w: int
    monthly_price: float = 0.0


@dataclass(frozen=True, slots=True)
class Platform:
    """A chassis and board: the CPUs and GPUs it takes and how its slots reach the sockets.

    `gpu_slots` gives the GPU slots wired to each socket; `gpu_slugs` names the modules an SXM
    baseboard carries (empty: any card of the form factor).
    """

    slug: str
    name: str
    sockets: int
    cpu_socket: str
    pcie_gen: int
    gpu_form_factor: FormFactor
    gpu_slots: tuple[int, ...]
    pcie_switch_uplinks: int
    nvlink: str  # none, bridge or nvswitch
    dimm_slots_per_socket: int
    psu_bays: int
    max_power_w: int
    nic_slots: int
    nvme_bays: int
    gpu_slugs: frozenset[str] = frozenset()
    psu_max_w: int = 0  # the highest-rated PSU a bay takes; 0: no limit known
    rated_power_w: int = 0  # the maker's power figure fully populated; 0: none published
    rated_gpu_w: int = 0  # the GPU power that figure is stated for
    monthly_price: float = 0.0

    @property
    def gpu_capacity(self) -> int:
        return sum(self.gpu_slots)

    def takes_gpu(self, gpu: Gpu) -> bool:
        """Return whether the GPU fits this platform's slots or baseboard."""
        if gpu.form_factor != self.gpu_form_factor:
            return False
        return not self.gpu_slugs or gpu.slug in self.gpu_slugs


@dataclass(frozen=True, slots=True)
class Build:
    """One node of a build; `nodes` identical nodes serve the workload together.

    `gpus_per_socket` says how many GPUs hang off each socket (its length is `cpu_count`).
    `gpus_cross_numa` counts GPUs wired to one socket but served by the other (found by a
    node audit, or by a platform whose slots do not follow the sockets).
    `pcie_switch_uplinks` is the number of x16 uplinks through which GPUs (and the NICs
    beside them) reach the CPUs on a PCIe-switch board; 0 means every GPU is direct to a CPU.
    """

    cpu: Cpu
    cpu_count: int
    gpu: Gpu
    gpu_count: int
    gpus_per_socket: tuple[int, ...]
    memory_gb: int
    memory_ecc: bool
    psu_watts: int  # usable rated output after redundancy
    nvlink: bool
    numa_binding: bool = True
    nodes: int = 1
    gpus_cross_numa: int = 0
    platform_pcie_gen: int | None = None  # the board's PCIe generation when it is known
    dimm_count: int | None = None  # None: one DIMM per memory channel is assumed
    nics: int = 0
    nic_lanes: int = 16
    nic_tdp_w: int = 25
    nic_speed_gbps: int = 0  # per NIC; 0: not known (no catalog NIC named)
    nvme: int = 0
    nvme_lanes: int = 4
    nvme_tdp_w: int = 25
    nvme_bays: int | None = None  # the platform's NVMe drive bays; None: no platform named
    pcie_switch_uplinks: int = 0
    # The platform's power figure (Platform.rated_power_w) for `rated_gpus` GPUs of
    # `rated_gpu_w` each; 0 when the build names no platform or the maker states none.
    rated_power_w: int = 0
    rated_gpus: int = 0
    rated_gpu_w: int = 0
    platform_psu_w: int = 0  # every PSU bay filled with its largest PSU; 0: no platform named

    @property
    def pcie_gen(self) -> int:
        """Return the PCIe generation the GPUs actually link at (board and CPU both limit it)."""
        gens = [self.cpu.pcie_gen]
        if self.platform_pcie_gen is not None:
            gens.append(self.platform_pcie_gen)
        return min(gens)

    @property
    def threads(self) -> int:
        return self.cpu.threads * self.cpu_count

    @property
    def cores(self) -> int:
        return self.cpu.cores * self.cpu_count

    @property
    def vram_gb(self) -> int:
        """Return the GPU memory of one node."""
        return self.gpu.memory_gb * self.gpu_count

    @property
    def dimms(self) -> int:
        if self.dimm_count is not None:
            return self.dimm_count
        return self.cpu.memory_channels * self.cpu_count


@dataclass(frozen=True, slots=True)
class Workload:
    """What the customer runs: the model, how, and at what batch.

    `batch_size` is per GPU for training and concurrent sequences for inference.
    The shape fields are optional; sizing derives them from the parameter count when absent.
    `gpu_count` and `gpu` are preferences for the recommender (GPUs over all nodes).
    The amount of work is optional: `train_tokens` (and a `deadline_days`) for training,
    with `epochs` × `dataset_tokens` when given that way (already multiplied into
    `train_tokens`); `concurrent_users`, `prompt_tokens`, `output_tokens`,
    `target_tokens_per_s` and `target_ttft_s` for inference (docs/performance.md).

    How the model is built (domain.md §6, "Models as they are built today"), all optional:
    `model` names a published shape (`model_shapes.MODEL_SHAPES`, by id, name or repository);
    every field it describes that the workload does not give is filled from it when the
    workload is made, so `model_params_b` may be left out (None) beside it and fields given
    beside it win. `active_params_b` is what one token uses (a mixture of experts: default all
    of `model_params_b`), `experts` and `experts_per_token` the routed-expert layout,
    `attention` mha, gqa or mla (default: by the heads; a shape not given is GQA with 8 KV
    heads), `head_dim` the width of one query/key head when it is not hidden ÷ heads,
    `kv_cache_precision` the KV cache's number format (default: the weights' precision, a
    16-bit cache for weight-only int8/int4), and `encoder` an encoder or embedding model,
    which keeps no KV cache.
    """

    model_params_b: float  # None only beside a `model`, which fills it
    mode: Mode
    batch_size: int = 1
    precision: str = "bf16"
    context_length: int = 2048
    finetune_method: FinetuneMethod = FinetuneMethod.FULL
    gpu_count: int | None = None
    gpu: str | None = None
    layers: int | None = None
    hidden_size: int | None = None
    attention_heads: int | None = None
    kv_heads: int | None = None
    vocab_size: int | None = None
    train_tokens: float | None = None
    epochs: float | None = None
    dataset_tokens: float | None = None
    deadline_days: float | None = None
    concurrent_users: int | None = None
    prompt_tokens: int | None = None
    output_tokens: int | None = None
    target_tokens_per_s: float | None = None
    target_ttft_s: float | None = None
    model: str | None = None
    active_params_b: float | None = None
    experts: int | None = None
    experts_per_token: int | None = None
    attention: str | None = None
    head_dim: int | None = None
    kv_cache_precision: str | None = None
    encoder: bool = False

    def __post_init__(self) -> None:
        if self.model is None:
            return
        shape = published_shape(self.model)
        filled = {
            "model": shape.id,
            "model_params_b": shape.params_b,
            "active_params_b": shape.active_params_b,
            "experts": shape.experts,
            "experts_per_token": shape.experts_per_token,
            "attention": str(shape.attention),
            "head_dim": shape.head_dim,
            "layers": shape.layers,
            "hidden_size": shape.hidden_size,
            "attention_heads": shape.attention_heads,
            "kv_heads": shape.kv_heads,
            "vocab_size": shape.vocab_size,
        }
        for name, value in filled.items():
            if name == "model" or getattr(self, name) is None:
                object.__setattr__(self, name, value)

    @property
    def active_b(self) -> float:
        """Return the parameters one token uses, in billions (all of them for a dense model)."""
        return self.active_params_b if self.active_params_b is not None else self.model_params_b

    @property
    def is_moe(self) -> bool:
        """Return whether the model routes each token to some of its experts."""
        experts, used = self.experts, self.experts_per_token
        return bool(experts and used and used < experts)

    @property
    def has_work(self) -> bool:
        """Return whether the workload states an amount of work to time and price."""
        if self.mode == Mode.INFER:
            return any(
                value is not None
                for value in (
                    self.concurrent_users,
                    self.prompt_tokens,
                    self.output_tokens,
                    self.target_tokens_per_s,
                    self.target_ttft_s,
                )
            )
        return self.train_tokens is not None
