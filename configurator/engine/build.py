"""Plain data the engine works on: resolved hardware specs, one node's build, a workload."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum

from configurator.engine.fields import declarations, declared
from configurator.engine.messages import Message, _
from configurator.engine.model_shapes import MODEL_SHAPES, Attention, published_shape


class Mode(StrEnum):
    TRAIN = "train"
    FINETUNE = "finetune"
    INFER = "infer"


class Parallelism(StrEnum):
    """How a serving engine splits a model over a replica's GPUs."""

    TENSOR = "tensor"  # every GPU a slice of each layer (vLLM, SGLang, TensorRT-LLM by default)
    # Each GPU a run of whole layers: as many micro-batches as stages (vLLM's and
    # TensorRT-LLM's pipeline parallelism), or micro-batches of 512 tokens (llama.cpp's and
    # Ollama's layer split).
    PIPELINE = "pipeline"
    LAYERS = "layers"


# The splits that give each GPU whole layers (stages), not a slice of each.
STAGED = frozenset({Parallelism.PIPELINE, Parallelism.LAYERS})


class FinetuneMethod(StrEnum):
    FULL = "full"
    LORA = "lora"
    QLORA = "qlora"


class FormFactor(StrEnum):
    PCIE = "pcie"
    SXM = "sxm"


class Architecture(StrEnum):
    """A GPU's architecture: it decides the number formats its tensor cores run.

    An open list (domain.md §6): a later architecture is one more member here, one more
    choice in catalog.models.GpuArchitecture, and one more entry in the formats it adds
    (`FORMATS_INTRODUCED`); every format an earlier one runs, it runs too.
    """

    VOLTA = "volta"  # V100: first tensor cores, FP16 only (no BF16, no INT8 tensor path)
    TURING = "turing"  # T4, RTX 20-series: FP16, INT8/INT4 tensor cores
    AMPERE = "ampere"  # A100, A800: FP16/BF16/TF32, INT8; no FP8
    ADA = "ada"  # RTX 4090, L20, L40S: FP8 tensor cores
    HOPPER = "hopper"  # H100, H800, H20, H200: FP8 Transformer Engine
    BLACKWELL = "blackwell"  # B200, B300, RTX PRO 6000: FP8 and FP4 (NVFP4) tensor cores


# Architectures by generation (Ada and Hopper are one generation, both 2022); a format one
# introduces, the later ones run.
ARCHITECTURE_ORDER: tuple[Architecture, ...] = tuple(Architecture)
# The formats that need a given architecture's tensor cores, by the architecture that
# introduced them [NVIDIA architecture whitepapers]: FP8 (E4M3/E5M2) with Ada and Hopper
# (released together, so both bring it), FP4 with Blackwell. Every other precision a workload
# may name (fp32, fp16, bf16, and weight-only int8/int4, which kernels dequantise to 16-bit)
# runs on all of them.
FORMATS_INTRODUCED: dict[Architecture, frozenset[str]] = {
    Architecture.ADA: frozenset({"fp8"}),
    Architecture.HOPPER: frozenset({"fp8"}),
    Architecture.BLACKWELL: frozenset({"fp4"}),
}


def native_formats(architecture: Architecture) -> frozenset[str]:
    """Return the architecture-bound formats (fp8, fp4) its tensor cores run."""
    upto = ARCHITECTURE_ORDER[: ARCHITECTURE_ORDER.index(architecture) + 1]
    return frozenset().union(*(FORMATS_INTRODUCED.get(arch, frozenset()) for arch in upto))


# Each architecture-bound format and the architectures that run it, derived from the above:
# fp8 on Ada, Hopper and Blackwell; fp4 on Blackwell.
PRECISION_ARCHITECTURES: dict[str, frozenset[Architecture]] = {
    precision: frozenset(arch for arch in Architecture if precision in native_formats(arch))
    for precision in sorted(frozenset().union(*FORMATS_INTRODUCED.values()))
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
    """One power-supply model; `vendor` decides the chassis it fits (Platform.takes_psu)."""

    slug: str
    name: str
    rated_w: int
    monthly_price: float = 0.0
    vendor: str = ""


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
    vendor: str = ""
    psu_slugs: frozenset[str] = frozenset()  # the PSU models its bays take; empty: see takes_psu

    @property
    def gpu_capacity(self) -> int:
        return sum(self.gpu_slots)

    def takes_psu(self, psu: Psu) -> bool:
        """Return whether the PSU fits this platform's bays (domain.md §6).

        A bay takes PSUs rated at most `psu_max_w`; of those, the models the catalog names
        for the platform, or, where it names none, the platform maker's own (a PSU or
        platform without a vendor, as engine tests build them, is not held to the maker).
        """
        if self.psu_max_w and psu.rated_w > self.psu_max_w:
            return False
        if self.psu_slugs:
            return psu.slug in self.psu_slugs
        if not (self.vendor and psu.vendor):
            return True
        return psu.vendor.strip().lower() == self.vendor.strip().lower()

    def takes_gpu(self, gpu: Gpu) -> bool:
        """Return whether the GPU fits this platform's slots or baseboard."""
        if gpu.form_factor != self.gpu_form_factor:
            return False
        return not self.gpu_slugs or gpu.slug in self.gpu_slugs


@dataclass(frozen=True, slots=True)
class NamedPart:
    """A part a build names by slug beside the count of it in a node (docs/architecture.md
    "Kinds of part"): declared once in `NAMED_PARTS`, it is a field of the API's build and
    of the page's configuration, resolved against the catalog, assembled into the `Build`
    (a field of this `name`), written back by `Build.as_fields`, a select on the page and a
    bill line of `count` of it when named. A part the bill prices unnamed (the NIC) is not
    one of these."""

    name: str  # the build field: a slug in the API and the permalink, the part in a Build
    key: str  # the engine Catalog's field its parts are found in (its kind's key)
    count: str  # the build field that counts it per node
    line: str  # its bill line's kind (the kind's `line`)
    label: Message  # the field in words: the page's select, "Unknown …" errors


# The parts a build names by slug and counts, each a field of `Build` of its `name` (below).
NAMED_PARTS: tuple[NamedPart, ...] = ()


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
    # The parts the board and NIC fields above were taken from (`Build.assemble`); None when
    # the build names none. They are how a build is written back as its fields (`as_fields`).
    platform: Platform | None = None
    nic: Nic | None = None

    @classmethod
    def assemble(
        cls,
        *,
        cpu: Cpu,
        cpu_count: int,
        gpu: Gpu,
        gpu_count: int,
        memory_gb: int,
        memory_ecc: bool,
        psu_watts: int,
        nvlink: bool,
        gpus_per_socket: tuple[int, ...] | None = None,
        numa_binding: bool = True,
        nodes: int = 1,
        platform: Platform | None = None,
        nics: int = 0,
        nic: Nic | None = None,
        nic_speed_gbps: int | None = None,
        nvme: int = 0,
        dimm_count: int | None = None,
        gpus_cross_numa: int = 0,
        platform_pcie_gen: int | None = None,
        parts: Mapping[str, object | None] | None = None,
    ) -> Build:
        """Return the build of these parts: the only way one is put together.

        Every board field (PCIe generation, switch uplinks, drive bays, the maker's power
        figure, the PSU bays' most) comes from `platform` and every NIC field from `nic`, so
        no caller copies a subset of them. `platform_pcie_gen` is for a build without a
        catalog platform whose board was measured (a probed node); `nic_speed_gbps` for NICs
        not in the catalog. `gpus_per_socket` defaults to an even split, the first socket
        taking the odd GPU. `parts` holds the `NAMED_PARTS` it names, by field.
        """
        if gpus_per_socket is None:
            gpus_per_socket = even_split(gpu_count, cpu_count)
        board: dict[str, object] = {"platform_pcie_gen": platform_pcie_gen}
        if platform is not None:
            board = {
                "platform_pcie_gen": platform.pcie_gen,
                "pcie_switch_uplinks": platform.pcie_switch_uplinks,
                "nvme_bays": platform.nvme_bays,
                "rated_power_w": platform.rated_power_w,
                "rated_gpus": platform.gpu_capacity,
                "rated_gpu_w": platform.rated_gpu_w,
                "platform_psu_w": platform.max_power_w,
            }
        card: dict[str, object] = {"nic_speed_gbps": nic_speed_gbps or 0}
        if nic is not None:
            card = {
                "nic_lanes": nic.pcie_lanes,
                "nic_tdp_w": nic.tdp_w,
                "nic_speed_gbps": nic.speed_gbps,
            }
        return cls(
            cpu=cpu,
            cpu_count=cpu_count,
            gpu=gpu,
            gpu_count=gpu_count,
            gpus_per_socket=tuple(gpus_per_socket),
            memory_gb=memory_gb,
            memory_ecc=memory_ecc,
            psu_watts=psu_watts,
            nvlink=nvlink,
            numa_binding=numa_binding,
            nodes=nodes,
            gpus_cross_numa=gpus_cross_numa,
            dimm_count=dimm_count,
            nics=nics,
            nvme=nvme,
            platform=platform,
            nic=nic,
            **board,
            **card,
            **{part.name: (parts or {}).get(part.name) for part in NAMED_PARTS},
        )

    def as_fields(self) -> dict[str, object]:
        """Return the build as its fields, parts by slug: the one way back from a build to
        what a permalink, a quote, the API or a fleet sheet row holds (each takes the fields
        it shows). `Build.assemble` of the same parts gives this build again."""
        return {
            "cpu": self.cpu.slug,
            "cpu_count": self.cpu_count,
            "gpu": self.gpu.slug,
            "gpu_count": self.gpu_count,
            "gpus_per_socket": list(self.gpus_per_socket),
            "memory_gb": self.memory_gb,
            "memory_ecc": self.memory_ecc,
            "psu_watts": self.psu_watts,
            "nvlink": self.nvlink,
            "numa_binding": self.numa_binding,
            "nodes": self.nodes,
            "nics": self.nics,
            "nic": self.nic.slug if self.nic else None,
            "nic_speed_gbps": self.nic_speed_gbps or None,
            "platform": self.platform.slug if self.platform else None,
            "nvme": self.nvme,
            "dimm_count": self.dimm_count,
        } | {part.name: named_slug(getattr(self, part.name)) for part in NAMED_PARTS}

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


def named_slug(part: object | None) -> str | None:
    """Return a named part's slug, None for a part not named."""
    return part.slug if part is not None else None


def even_split(gpu_count: int, sockets: int) -> tuple[int, ...]:
    """Return GPUs spread as evenly as possible over the sockets, fuller sockets first."""
    base, extra = divmod(gpu_count, max(sockets, 1))
    return tuple(base + (1 if socket < extra else 0) for socket in range(max(sockets, 1)))


# How each field of a Build is set (tests/configurator/test_build_fields.py holds each field to one
# of these): given to `Build.assemble`, or taken from the part named.
BUILD_GIVEN = (
    "cpu", "cpu_count", "gpu", "gpu_count", "gpus_per_socket", "memory_gb", "memory_ecc",
    "psu_watts", "nvlink", "numa_binding", "nodes", "gpus_cross_numa", "dimm_count", "nics",
    "nic_speed_gbps", "nvme", "platform", "nic", "platform_pcie_gen",
    *(part.name for part in NAMED_PARTS),
)  # fmt: skip
BUILD_FROM_PLATFORM = (
    "platform_pcie_gen", "pcie_switch_uplinks", "nvme_bays", "rated_power_w", "rated_gpus",
    "rated_gpu_w", "platform_psu_w",
)  # fmt: skip
BUILD_FROM_NIC = ("nic_lanes", "nic_tdp_w", "nic_speed_gbps")
# No drive is a catalog part yet: every NVMe drive is taken as x4 and 25 W (docs/rules.md).
BUILD_FIXED = ("nvme_lanes", "nvme_tdp_w")


# The API's bounds on how many GPUs a request names (api.md); a build has at most this many.
MAX_GPUS_PER_NODE = 16
MAX_NODES = 4096  # issue 19: training at scale, up to 4,096 nodes
# The engine's documented defaults (docs/performance.md, api.md "Size a workload"): a batch of
# one sequence, 2048 tokens of context, 1024 tokens in and 256 out per inference request.
DEFAULT_BATCH_SIZE = 1
DEFAULT_CONTEXT_LENGTH = 2048
DEFAULT_PROMPT_TOKENS = 1024
DEFAULT_OUTPUT_TOKENS = 256
TRAINING = ("train", "finetune")
INFERENCE = ("infer",)
PRECISIONS = ("fp32", "fp16", "bf16", "fp8", "int8", "int4")


@dataclass(frozen=True, slots=True)
class Workload:
    """What the customer runs: the model, how, and at what batch — the one declaration of the
    workload's fields (`engine.fields`): every surface that reads a workload is made from it.

    `batch_size` is per GPU for training and concurrent sequences for inference; not given, it
    is the `concurrent_users` of an inference workload, else 1. `context_length` not given is
    the prompt and output lengths when either is given, else 2048.
    The shape fields are optional; sizing derives them from the parameter count when absent.
    `gpu_count` and `gpu` are preferences for the recommender (GPUs over all nodes).
    The amount of work is optional: `train_tokens` (and a `deadline_days`) for training,
    with `epochs` × `dataset_tokens` when given that way (already multiplied into
    `train_tokens`); `concurrent_users`, `prompt_tokens`, `output_tokens`,
    `target_tokens_per_s` and `target_ttft_s` for inference (docs/performance.md).
    `budget_monthly` is the recommender's: no build renting for more a month is recommended
    (docs/recommender.md); `finetune_method` sizes a fine-tune in full, LoRA or QLoRA.
    Each page field also says how a customer's sentence names it (`words`, `choice_words`:
    `engine.sentence`, docs/sentence.md).

    How the model is built (domain.md §6, "Models as they are built today"), all optional:
    `model` names a published shape (`model_shapes.MODEL_SHAPES`, by id, name or repository);
    every field it describes that the workload does not give is filled from it when the
    workload is made, so `model_params_b` may be left out (None) beside it and fields given
    beside it win. `active_params_b` is what one token uses (a mixture of experts: default all
    of `model_params_b`), `experts` and `experts_per_token` the routed-expert layout,
    `attention` mha, gqa or mla (default: by the heads; a shape not given is GQA with 8 KV
    heads), `head_dim` the width of one query/key head when it is not hidden ÷ heads,
    `kv_cache_precision` the KV cache's number format (default: the weights' precision, a
    16-bit cache for weight-only int8/int4), and `model_kind` "encoder" an encoder or
    embedding model (`encoder`), which keeps no KV cache. Only `model` is on the page's form
    (a searchable list); the others are declared off it (page=False).
    """

    model_params_b: float = declared(
        kind="float", label=_("Model size (billion parameters)"), gt=0, le=20000,
        description="Model parameters, billions", unit=_("billion parameters"),
        required_unless="model", words=("model size", "size", "参数量", "规模"),
    )  # fmt: skip
    mode: Mode = declared(
        kind="choice", label=_("Mode"),
        choices=(("train", _("training")), ("finetune", _("fine-tuning")),
                 ("infer", _("inference"))),
        choice_words=(
            ("train", ("train", "trains", "training", "pretrain", "pre-train", "pretraining",
                       "训练", "预训练")),
            ("finetune", ("fine-tune", "fine-tuning", "finetune", "finetuning", "fine tune",
                          "sft", "微调", "精调")),
            ("infer", ("serve", "serving", "inference", "infer", "deploy", "deployment",
                       "chatbot", "chat", "run inference", "部署", "推理", "上线", "服务",
                       "在线服务")),
        ),
    )  # fmt: skip
    batch_size: int = declared(
        None, kind="int", label=_("Batch size"), ge=1, le=65536, fallback=DEFAULT_BATCH_SIZE,
        help=_("per GPU in training; sequences served at once in inference"),
        default_text=_("the concurrent users in inference, else %(default)s"),
        words=("batch size", "batch", "micro-batch", "bs", "批大小", "批量大小", "批次大小", "批量",
               "批次"),
    )  # fmt: skip
    precision: str = declared(
        "bf16", kind="choice", label=_("Precision"), choices=tuple((p, p) for p in PRECISIONS),
        choice_words=(*((p, (p,)) for p in PRECISIONS), ("int4", ("4-bit", "4bit", "4 bit")),
                      ("int8", ("8-bit int", "w8a16"))),
    )  # fmt: skip
    context_length: int = declared(
        None, kind="int", label=_("Context length (tokens)"), ge=1, le=4_194_304,
        unit=_("tokens"), fallback=DEFAULT_CONTEXT_LENGTH, unit_alone=False,
        default_text=_("prompt + output tokens when either is given, else %(default)s"),
        words=("context length", "context window", "context", "ctx", "sequence length", "seq len",
               "上下文长度", "上下文", "序列长度", "长度"),
    )  # fmt: skip
    finetune_method: FinetuneMethod = declared(
        FinetuneMethod.FULL, kind="choice", label=_("Fine-tuning method"), modes=("finetune",),
        choices=(("full", _("full fine-tune")), ("lora", _("LoRA fine-tune")),
                 ("qlora", _("QLoRA fine-tune"))),
        choice_words=(
            ("full", ("full fine-tune", "full fine-tuning", "full finetune", "full-parameter",
                      "full parameter", "full-weight", "全参数", "全参", "全量")),
            ("lora", ("lora",)),
            ("qlora", ("qlora",)),
        ),
    )  # fmt: skip
    gpu_count: int | None = declared(
        None, kind="int", label=_("GPUs (all nodes)"), ge=1, le=MAX_GPUS_PER_NODE * MAX_NODES,
        page=False,
    )  # fmt: skip
    gpu: str | None = declared(
        None, kind="str", label=_("Preferred GPU"), max_length=120, page_name="prefer_gpu"
    )
    layers: int | None = declared(None, kind="int", label=_("Layers"), ge=1, le=1000, page=False)
    hidden_size: int | None = declared(
        None, kind="int", label=_("Hidden size"), ge=1, le=262144, page=False
    )
    attention_heads: int | None = declared(
        None, kind="int", label=_("Attention heads"), ge=1, le=4096, page=False
    )
    kv_heads: int | None = declared(
        None, kind="int", label=_("KV heads"), ge=1, le=4096, page=False
    )
    vocab_size: int | None = declared(
        None, kind="int", label=_("Vocabulary size"), ge=1, le=4_000_000, page=False
    )
    train_tokens: float | None = declared(
        None, kind="float", label=_("Tokens to train on"), gt=0, le=1e16, modes=TRAINING,
        description="Training: tokens to train on, e.g. 3e11", unit=_("tokens"), example="3e11",
        words=("train on", "trained on", "training tokens", "训练数据", "训练量"),
    )  # fmt: skip
    epochs: float | None = declared(
        None, kind="float", label=_("Epochs"), gt=0, le=1e6, modes=TRAINING,
        description="Training: passes over the data set (with dataset_tokens)",
        words=("epochs", "epoch", "passes", "pass", "个epoch", "轮", "遍"),
    )  # fmt: skip
    dataset_tokens: float | None = declared(
        None, kind="float", label=_("Tokens in the data set"), gt=0, le=1e16, modes=TRAINING,
        description="Training: tokens in the data set (with epochs)", unit=_("tokens"),
        example="1e11", words=("data set", "dataset", "corpus", "数据集", "语料"),
    )  # fmt: skip
    deadline_days: float | None = declared(
        None, kind="float", label=_("Deadline (days)"), gt=0, le=3650, modes=TRAINING,
        description="Training: the run must finish within this many days", unit=_("days"),
        words=("deadline", "期限", "工期"),
    )  # fmt: skip
    concurrent_users: int | None = declared(
        None, kind="int", label=_("Concurrent users"), ge=1, le=1_000_000, modes=INFERENCE,
        description="Inference: sequences served at once",
        words=("concurrent users", "simultaneous users", "users", "user", "concurrent requests",
               "concurrency", "concurrent", "sessions", "people", "并发用户", "用户", "并发",
               "路并发", "路", "人"),
    )  # fmt: skip
    prompt_tokens: int | None = declared(
        None, kind="int", label=_("Prompt tokens per request"), ge=1, le=4_194_304,
        modes=INFERENCE, description="Inference: tokens in per request", unit=_("tokens"),
        fallback=DEFAULT_PROMPT_TOKENS, unit_alone=False,
        words=("prompt", "prompts", "input", "inputs", "prompt length", "input length",
               "输入长度", "输入", "提示词长度", "提示词", "提示"),
    )  # fmt: skip
    output_tokens: int | None = declared(
        None, kind="int", label=_("Output tokens per request"), ge=1, le=4_194_304,
        modes=INFERENCE, description="Inference: tokens out per request", unit=_("tokens"),
        fallback=DEFAULT_OUTPUT_TOKENS, unit_alone=False,
        words=("output", "outputs", "completion", "answer", "generate", "output length",
               "completion length", "输出长度", "输出", "生成长度", "生成", "回答"),
    )  # fmt: skip
    target_tokens_per_s: float | None = declared(
        None, kind="float", label=_("Output tokens per second to serve"), gt=0, le=1e9,
        modes=INFERENCE, description="Inference: output tokens/s the build must sustain",
        unit=_("tokens per second"), words=("throughput", "吞吐量", "吞吐", "每秒"),
    )  # fmt: skip
    target_ttft_s: float | None = declared(
        None, kind="float", label=_("Time to first token within (seconds)"), gt=0, le=3600,
        modes=INFERENCE, description="Inference: time to first token the build must meet, s",
        unit=_("seconds"),
        words=("time to first token", "first token", "first-token", "ttft", "首 token", "首token",
               "首字延迟", "首字", "首词", "首包"),
    )  # fmt: skip
    budget_monthly: float | None = declared(
        None, kind="float", label=_("Monthly budget (CNY)"), gt=0, le=1e10,
        unit=_("CNY per month"),
        description="Recommend: the most a build may rent per month, all nodes, CNY",
        words=("budget", "monthly budget", "预算", "月预算", "每月", "月付"),
    )  # fmt: skip
    target_tpot_s: float | None = declared(
        None, kind="float", label=_("Time per output token within (seconds)"), gt=0, le=60,
        modes=INFERENCE, unit=_("seconds"),
        description="Inference: time per output token each user may see at most, s",
        words=("time per output token", "per output token", "tpot", "inter-token latency",
               "inter-token", "itl", "每 token 时延", "每个 token", "token 间隔", "吐字间隔",
               "出字间隔"),
    )  # fmt: skip
    global_batch_tokens: float | None = declared(
        None, kind="float", label=_("Tokens per optimizer step"), gt=0, le=1e9, modes=TRAINING,
        page=False, unit=_("tokens"), example="4e6",
        description="Training: the global batch, tokens per optimizer step over all GPUs; "
        "default: batch_size sequences per GPU",
    )  # fmt: skip

    # How the model is built (domain.md §6; api.md "Today's models"). The model by name is on
    # the page (a searchable list, drawn first); its published shape fills the others, which
    # stay off the page's form.
    model: str | None = declared(
        None, kind="choice", label=_("Model"), searchable=True,
        help=_("pick a published model, or give its size below"),
        choices=tuple((shape.id, shape.name) for shape in MODEL_SHAPES.values()),
        description="A known model id that fills its published shape; fields given beside "
        "it win",
    )  # fmt: skip
    active_params_b: float | None = declared(
        None, kind="float", label=_("Active parameters (billions)"), gt=0, le=20000,
        page=False, unit=_("billion parameters"),
        description="Parameters used per token (mixture of experts); default: all",
    )  # fmt: skip
    experts: int | None = declared(
        None, kind="int", label=_("Experts"), ge=1, le=4096, page=False,
        description="Routed experts per mixture-of-experts layer",
    )  # fmt: skip
    experts_per_token: int | None = declared(
        None, kind="int", label=_("Experts per token"), ge=1, le=4096, page=False,
        description="Routed experts each token uses",
    )  # fmt: skip
    attention: str | None = declared(
        None, kind="choice", label=_("Attention"), page=False,
        choices=tuple((str(kind), str(kind).upper()) for kind in Attention),
        description="mha, gqa or mla; default: by the heads, GQA with 8 KV heads when no "
        "shape is given",
    )  # fmt: skip
    head_dim: int | None = declared(
        None, kind="int", label=_("Head width"), ge=1, le=4096, page=False,
        description="Width of one query/key head when it is not hidden_size / attention_heads",
    )  # fmt: skip
    kv_cache_precision: str | None = declared(
        None, kind="choice", label=_("KV cache precision"), page=False,
        choices=tuple((p, p) for p in ("bf16", "fp16", "fp8", "int8")),
        description="Number format of the KV cache; default: the weights' precision",
    )  # fmt: skip
    parallelism: str | None = declared(
        None, kind="choice", label=_("Split over the GPUs"), modes=INFERENCE,
        help=_("how the serving engine splits the model: a slice of every layer on each GPU, "
               "or whole layers on each"),
        choices=(("tensor", _("tensor parallel (vLLM, SGLang, TensorRT-LLM)")),
                 ("pipeline", _("pipeline parallel (vLLM, TensorRT-LLM)")),
                 ("layers", _("layer split (llama.cpp, Ollama)"))),
        choice_words=(("layers", ("llama.cpp", "ollama", "layer split", "split by layers",
                                  "按层切分", "按层拆分")),
                      ("pipeline", ("pipeline parallel", "pipeline-parallel", "流水线并行")),
                      ("tensor", ("tensor parallel", "tensor-parallel", "张量并行"))),
        description="Inference: how the serving engine splits the model over a replica's "
        "GPUs: tensor (the default), pipeline (whole layers per GPU, as many micro-batches as "
        "GPUs: vLLM, TensorRT-LLM) or layers (whole layers per GPU, micro-batches of 512 "
        "tokens: llama.cpp, Ollama)",
    )  # fmt: skip
    replica_gpus: int | None = declared(
        None, kind="int", label=_("GPUs per model replica"), ge=1, le=64, modes=INFERENCE,
        help=_("as the serving engine is started (vLLM's --tensor-parallel-size); default: "
               "the size that serves the most"),
        description="Inference: GPUs one replica of the model spans (the engine's tensor-"
        "parallel size, or its pipeline size with a layer split); default: the size that "
        "serves the most",
        words=("replica size", "tensor parallel size",
               "tensor-parallel size", "每副本卡数", "每个副本", "张量并行度"),
    )  # fmt: skip
    model_kind: str = declared(
        "decoder", kind="choice", label=_("Model kind"), page=False,
        choices=(("decoder", _("decoder (keeps a KV cache)")),
                 ("encoder", _("encoder or embedding model (no KV cache)"))),
        description="decoder, or encoder for an encoder or embedding model (no KV cache)",
    )  # fmt: skip

    def __post_init__(self) -> None:
        # The defaults the engine derives (the class docstring); a frozen dataclass sets them
        # as its constructor would.
        if self.model is not None:
            self._fill_from_model()
        if self.batch_size is None:
            users = self.concurrent_users if self.mode == Mode.INFER else None
            object.__setattr__(self, "batch_size", users or DEFAULT_BATCH_SIZE)
        if self.context_length is None:
            context = DEFAULT_CONTEXT_LENGTH
            if self.prompt_tokens is not None or self.output_tokens is not None:
                context = (self.prompt_tokens or DEFAULT_PROMPT_TOKENS) + (
                    self.output_tokens or DEFAULT_OUTPUT_TOKENS
                )
            object.__setattr__(self, "context_length", context)

    def _fill_from_model(self) -> None:
        """Fill every field the named model's published shape describes and is not given."""
        shape = published_shape(str(self.model))
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
    def encoder(self) -> bool:
        """Return whether the model is an encoder or embedding model, which keeps no KV cache."""
        return self.model_kind == "encoder"

    @property
    def is_moe(self) -> bool:
        """Return whether the model routes each token to some of its experts."""
        experts, used = self.experts, self.experts_per_token
        return bool(experts and used and used < experts)

    @property
    def has_work(self) -> bool:
        """Return whether the workload states an amount of work to time and price."""
        if self.mode == Mode.INFER:  # any field declared for inference only
            return any(getattr(self, name) is not None for name in INFERENCE_WORK)
        return self.train_tokens is not None


# The amount of work of an inference workload: its fields declared for inference only.
INFERENCE_WORK = tuple(f.name for f in declarations(Workload) if f.spec.modes == INFERENCE)
