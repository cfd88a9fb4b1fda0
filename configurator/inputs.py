"""Turn validated API input into the engine's dataclasses, naming every field that is wrong.

Shape and range are checked by the schemas; what needs the catalog (does the slug exist, does
the CPU take two sockets, does the GPU have NVLink, does the platform take these parts) is
checked here. Errors are collected, not raised at the first, so a client sees every bad field.
Each error is a message id with its parameters (`engine.messages`), rendered in the request's
language where it is shown (`translation.localized_errors`, the page's forms).
"""

import math
from collections.abc import Callable, Container
from dataclasses import dataclass, field, replace

from configurator.engine import build as engine
from configurator.engine.catalog import Catalog
from configurator.engine.messages import _, ngettext
from configurator.engine.model_shapes import published_shape
from configurator.engine.recommend.layouts import nic_positions
from configurator.schemas import WORKLOAD_FIELDS, BuildIn, EvaluateIn, WorkloadIn


@dataclass
class InputErrors(Exception):
    """Every bad field of a request, by dotted path."""

    errors: dict[str, list[str]] = field(default_factory=dict)

    def add(self, path: str, message: str) -> None:
        self.errors.setdefault(path, []).append(message)

    def merge(self, other: "InputErrors") -> None:
        for path, messages in other.errors.items():
            self.errors.setdefault(path, []).extend(messages)

    def raise_if_any(self) -> None:
        if self.errors:
            raise self

    def collect[T](self, read: Callable[[], T]) -> T | None:
        """Return what `read` returns; keep its InputErrors (and return None) instead."""
        try:
            return read()
        except InputErrors as error:
            self.merge(error)
            return None


def profile_errors(profile: str | None, profiles: Container[str]) -> InputErrors:
    """Return an error when a named rule profile is not one of `profiles` (None: the default)."""
    errors = InputErrors()
    if profile and profile not in profiles:
        errors.add("profile", _("Unknown rule profile %(profile)s.", profile=repr(profile)))
    return errors


@dataclass(frozen=True)
class EvaluateRequest:
    """What `/api/v1/evaluate` is asked, in the engine's terms."""

    build: engine.Build
    workload: engine.Workload | None
    profile: str | None


def evaluate_request(
    data: EvaluateIn, catalog: Catalog, profiles: Container[str]
) -> EvaluateRequest:
    """Return the build, workload and profile of an evaluate request, or raise InputErrors
    naming every bad field of the three at once."""
    errors = profile_errors(data.profile, profiles)
    build = errors.collect(lambda: build_from_input(data.build, catalog))
    workload = None
    if data.workload:
        workload = errors.collect(lambda: resolved_workload(data.workload, catalog))
    errors.raise_if_any()
    return EvaluateRequest(build, workload, data.profile)


def _platform_errors(
    data: BuildIn, platform: engine.Platform, cpu: engine.Cpu | None, gpu: engine.Gpu | None
) -> list[str]:
    problems = []
    name = platform.name
    if cpu and cpu.socket and cpu.socket != platform.cpu_socket:
        problems.append(
            _(
                "%(platform)s takes %(socket)s CPUs; %(cpu)s is %(cpu_socket)s.",
                platform=name,
                socket=platform.cpu_socket,
                cpu=cpu.name,
                cpu_socket=cpu.socket,
            )
        )
    if data.cpu_count > platform.sockets:
        problems.append(
            ngettext(
                "%(platform)s has %(n)s socket, not %(given)s.",
                "%(platform)s has %(n)s sockets, not %(given)s.",
                platform.sockets,
                platform=name,
                given=data.cpu_count,
            )
        )
    if gpu and not platform.takes_gpu(gpu):
        problems.append(_("%(platform)s does not take the %(gpu)s.", platform=name, gpu=gpu.name))
    if data.gpu_count > sum(platform.gpu_slots):
        problems.append(
            _(
                "%(platform)s has %(slots)s GPU slots, not %(given)s.",
                platform=name,
                slots=sum(platform.gpu_slots),
                given=data.gpu_count,
            )
        )
    elif data.nics > (room := nic_positions(platform, data.gpu_count)):
        params = {
            "platform": name,
            "room": room,
            "gpus": data.gpu_count,
            "slots": platform.nic_slots,
            "given": data.nics,
        }
        problems.append(
            _(
                "%(platform)s has room for %(room)s NICs beside %(gpus)s GPUs (%(slots)s NIC "
                "slots), not %(given)s.",
                **params,
            )
            if platform.gpu_form_factor is engine.FormFactor.SXM
            else _(
                "%(platform)s has room for %(room)s NICs beside %(gpus)s GPUs (%(slots)s NIC "
                "slots and the empty GPU slots), not %(given)s.",
                **params,
            )
        )
    return problems


def build_from_input(data: BuildIn, catalog: Catalog, *, prefix: str = "build") -> engine.Build:
    """Resolve a build's slugs against the catalog and return the engine's Build."""
    errors = InputErrors()
    cpu = catalog.find("cpus", data.cpu)
    if cpu is None:
        errors.add(
            f"{prefix}.cpu",
            _("Unknown CPU %(cpu)s: use a catalog slug or name.", cpu=repr(data.cpu)),
        )
    elif data.cpu_count > cpu.max_sockets:
        errors.add(
            f"{prefix}.cpu_count",
            ngettext(
                "%(cpu)s takes at most %(n)s socket, not %(given)s.",
                "%(cpu)s takes at most %(n)s sockets, not %(given)s.",
                cpu.max_sockets,
                cpu=cpu.name,
                given=data.cpu_count,
            ),
        )
    gpu = catalog.find("gpus", data.gpu)
    if gpu is None:
        errors.add(
            f"{prefix}.gpu",
            _("Unknown GPU %(gpu)s: use a catalog slug or name.", gpu=repr(data.gpu)),
        )
    elif data.nvlink and not gpu.has_nvlink:
        errors.add(f"{prefix}.nvlink", _("%(gpu)s has no NVLink.", gpu=gpu.name))
    per_socket = tuple(data.gpus_per_socket or engine.even_split(data.gpu_count, data.cpu_count))
    if len(per_socket) != data.cpu_count:
        errors.add(
            f"{prefix}.gpus_per_socket",
            ngettext(
                "Give one count per socket: %(n)s socket, %(counts)s counts.",
                "Give one count per socket: %(n)s sockets, %(counts)s counts.",
                data.cpu_count,
                counts=len(per_socket),
            ),
        )
    if any(count < 0 for count in per_socket):
        errors.add(f"{prefix}.gpus_per_socket", _("GPU counts cannot be negative."))
    elif sum(per_socket) != data.gpu_count:
        errors.add(
            f"{prefix}.gpus_per_socket",
            _(
                "The counts add up to %(total)s, but gpu_count is %(gpu_count)s.",
                total=sum(per_socket),
                gpu_count=data.gpu_count,
            ),
        )
    platform = None
    if data.platform:
        platform = catalog.find("platforms", data.platform)
        if platform is None:
            errors.add(
                f"{prefix}.platform",
                _("Unknown platform %(platform)s.", platform=repr(data.platform)),
            )
        else:
            for problem in _platform_errors(data, platform, cpu, gpu):
                errors.add(f"{prefix}.platform", problem)
    nic = None
    if data.nic:
        nic = catalog.find("nics", data.nic)
        if nic is None:
            errors.add(f"{prefix}.nic", _("Unknown network card %(nic)s.", nic=repr(data.nic)))
        elif data.nic_speed_gbps is not None and data.nic_speed_gbps != nic.speed_gbps:
            errors.add(
                f"{prefix}.nic_speed_gbps",
                _(
                    "%(nic)s runs at %(speed)s Gb/s, not %(given)s.",
                    nic=nic.name,
                    speed=nic.speed_gbps,
                    given=data.nic_speed_gbps,
                ),
            )
    parts = named_parts(data, catalog, errors, prefix)
    errors.raise_if_any()
    return engine.Build.assemble(
        cpu=cpu,
        cpu_count=data.cpu_count,
        gpu=gpu,
        gpu_count=data.gpu_count,
        gpus_per_socket=per_socket,
        memory_gb=data.memory_gb,
        memory_ecc=data.memory_ecc,
        psu_watts=data.psu_watts,
        nvlink=gpu.has_nvlink if data.nvlink is None else data.nvlink,
        numa_binding=data.numa_binding,
        nodes=data.nodes,
        platform=platform,
        nics=data.nics,
        nic=nic,
        nic_speed_gbps=data.nic_speed_gbps,
        nvme=data.nvme,
        dimm_count=data.dimm_count,
        parts=parts,
    )


def named_parts(
    data: object, catalog: Catalog, errors: InputErrors, prefix: str = "build"
) -> dict[str, object | None]:
    """Return the `engine.build.NAMED_PARTS` a build (an API build, a page's configuration)
    names, found by slug or name, by field; record each one the catalog lacks in `errors`."""
    found = catalog.find_named(data)
    for part in engine.NAMED_PARTS:
        ref = getattr(data, part.name)
        if ref and found[part.name] is None:
            errors.add(
                f"{prefix}.{part.name}",
                _("Unknown %(kind)s %(part)s: use a catalog slug or name.", kind=part.label,
                  part=repr(ref)),
            )  # fmt: skip
    return found


# A dense transformer has about 12·L·h² + V·h parameters (docs/sizing.md). A stated shape
# may describe fewer parameters than the model (mixture-of-experts models hold several MLPs
# per layer: Mixtral 8x7B is 7× its dense shape, DeepSeek-V3 18×), never many more.
SHAPE_PARAMS_MAX_RATIO = 4
SHAPE_VOCAB_DEFAULT = 32_000
SHAPE_LAYERS_MAX = 1000


def shape_errors(data: WorkloadIn, prefix: str = "workload") -> InputErrors:
    """Return the contradictions of a workload's model shape, each on the field to change."""
    errors = InputErrors()
    heads, kv_heads, hidden = data.attention_heads, data.kv_heads, data.hidden_size
    if heads and kv_heads:
        if kv_heads > heads:
            errors.add(
                f"{prefix}.kv_heads",
                _(
                    "kv_heads (%(kv_heads)s) cannot exceed attention_heads (%(heads)s).",
                    kv_heads=kv_heads,
                    heads=heads,
                ),
            )
        elif heads % kv_heads:
            errors.add(
                f"{prefix}.kv_heads",
                _(
                    "attention_heads (%(heads)s) must be a multiple of kv_heads (%(kv_heads)s).",
                    heads=heads,
                    kv_heads=kv_heads,
                ),
            )
    if heads and hidden and hidden % heads:
        errors.add(
            f"{prefix}.attention_heads",
            _(
                "attention_heads (%(heads)s) must divide hidden_size (%(hidden)s).",
                heads=heads,
                hidden=hidden,
            ),
        )
    if hidden:
        params = data.model_params_b * 1e9
        vocab = data.vocab_size or SHAPE_VOCAB_DEFAULT
        if data.layers:
            described = 12 * data.layers * hidden**2 + vocab * hidden
            if described > SHAPE_PARAMS_MAX_RATIO * params:
                errors.add(
                    f"{prefix}.hidden_size",
                    _(
                        "%(layers)s layers of width %(hidden)s hold about %(described)sB "
                        "parameters, far more than the model's %(params)sB.",
                        layers=data.layers,
                        hidden=hidden,
                        described=f"{described / 1e9:.3g}",
                        params=f"{data.model_params_b:g}",
                    ),
                )
        elif (params - vocab * hidden) / (12 * hidden**2) > SHAPE_LAYERS_MAX:
            errors.add(
                f"{prefix}.hidden_size",
                _(
                    "hidden_size %(hidden)s is too small for a %(params)sB model: it would take "
                    "more than %(layers)s layers.",
                    hidden=hidden,
                    params=f"{data.model_params_b:g}",
                    layers=SHAPE_LAYERS_MAX,
                ),
            )
    return errors


# The amount of work of each mode: the fields declared for one mode only.
TRAIN_WORK = tuple(f.name for f in WORKLOAD_FIELDS if f.spec.modes == engine.TRAINING)
INFER_WORK = tuple(f.name for f in WORKLOAD_FIELDS if f.spec.modes == engine.INFERENCE)


def train_tokens(data: WorkloadIn) -> float | None:
    """Return the tokens to train on: `train_tokens`, else epochs × dataset_tokens."""
    if data.train_tokens is not None:
        return data.train_tokens
    if data.epochs is not None and data.dataset_tokens is not None:
        return data.epochs * data.dataset_tokens
    return None


def _epoch_errors(data: WorkloadIn, prefix: str) -> InputErrors:
    """Return what is wrong with epochs and dataset_tokens: one without the other, or a
    product that disagrees with a train_tokens also given."""
    errors = InputErrors()
    if (data.epochs is None) != (data.dataset_tokens is None):
        missing = "dataset_tokens" if data.dataset_tokens is None else "epochs"
        errors.add(f"{prefix}.{missing}", _("Give epochs and dataset_tokens together."))
    elif data.epochs is not None and data.train_tokens is not None:
        product = data.epochs * data.dataset_tokens
        if not math.isclose(product, data.train_tokens, rel_tol=1e-6):
            errors.add(
                f"{prefix}.train_tokens",
                _(
                    "train_tokens (%(given)s) disagrees with epochs × dataset_tokens "
                    "(%(product)s); give one or the other.",
                    given=f"{data.train_tokens:g}",
                    product=f"{product:g}",
                ),
            )
    return errors


def expert_errors(data: WorkloadIn, prefix: str = "workload") -> InputErrors:
    """Return the contradictions of a mixture-of-experts layout, each on the field to change:
    more parameters per token than the model has, more experts per token than experts. A
    named model's published shape fills what is not given, as the engine fills it."""
    errors = InputErrors()
    shape = published_shape(data.model) if data.model else None
    active = data.active_params_b or (shape.active_params_b if shape else None)
    experts = data.experts or (shape.experts if shape else None)
    used = data.experts_per_token or (shape.experts_per_token if shape else None)
    if active is not None and data.model_params_b is not None and active > data.model_params_b:
        errors.add(
            f"{prefix}.{'active_params_b' if data.active_params_b else 'model_params_b'}",
            _(
                "%(active)sB parameters per token cannot exceed the model's %(total)sB.",
                active=f"{active:g}",
                total=f"{data.model_params_b:g}",
            ),
        )
    if experts and used and used > experts:
        errors.add(
            f"{prefix}.{'experts_per_token' if data.experts_per_token else 'experts'}",
            _(
                "experts_per_token (%(used)s) cannot exceed experts (%(experts)s).",
                used=used,
                experts=experts,
            ),
        )
    return errors


def _work_errors(data: WorkloadIn, prefix: str) -> InputErrors:
    """Return what is wrong with the amount of work: fields of the other mode, lengths."""
    errors = InputErrors()
    infer = data.mode == "infer"
    for name in INFER_WORK if not infer else TRAIN_WORK:
        if getattr(data, name) is not None:
            mode = _("inference") if not infer else _("training and fine-tuning")
            errors.add(
                f"{prefix}.{name}",
                _("Only for %(mode)s; mode is '%(given)s'.", mode=mode, given=data.mode),
            )
    errors.merge(_epoch_errors(data, prefix))
    if data.deadline_days is not None and train_tokens(data) is None:
        errors.add(
            f"{prefix}.deadline_days",
            _("Give train_tokens (or epochs and dataset_tokens): a deadline needs the work."),
        )
    length = (data.prompt_tokens or 0) + (data.output_tokens or 0)
    if "context_length" in data.model_fields_set and length > data.context_length:
        errors.add(
            f"{prefix}.prompt_tokens",
            _(
                "prompt_tokens + output_tokens (%(length)s) exceed context_length (%(context)s).",
                length=length,
                context=data.context_length,
            ),
        )
    return errors


def preferred_gpu_errors(
    data: WorkloadIn, catalog: Catalog, prefix: str = "workload"
) -> InputErrors:
    """Return an error when the workload prefers a GPU the catalog does not have."""
    errors = InputErrors()
    if data.gpu is not None and catalog.find("gpus", data.gpu) is None:
        errors.add(f"{prefix}.gpu", _("Unknown GPU %(gpu)s.", gpu=repr(data.gpu)))
    return errors


def workload_errors(
    data: WorkloadIn, *, catalog: Catalog | None = None, prefix: str = "workload"
) -> InputErrors:
    """Return everything wrong with a workload that its schema cannot see: a contradictory
    model shape, work that does not fit the mode, and (given the catalog) an unknown GPU."""
    errors = shape_errors(data, prefix)
    errors.merge(expert_errors(data, prefix))
    errors.merge(_work_errors(data, prefix))
    if catalog is not None:
        errors.merge(preferred_gpu_errors(data, catalog, prefix))
    return errors


def workload_from_input(data: WorkloadIn, *, prefix: str = "workload") -> engine.Workload:
    """Return the engine's Workload; raise InputErrors for a contradictory model shape or
    work that does not fit the mode.

    Only the fields the request gives reach the engine: the rest take the engine's documented
    defaults (`engine.build.Workload`: a batch of the concurrent users in inference, a context
    that holds the prompt and output lengths given), not the schema's stated fallbacks.
    """
    workload_errors(data, prefix=prefix).raise_if_any()
    given = {
        name: getattr(data, name)
        for name in data.model_fields_set
        if getattr(data, name) is not None
    }
    given["mode"] = engine.Mode(data.mode)
    if "finetune_method" in given:
        given["finetune_method"] = engine.FinetuneMethod(data.finetune_method)
    if (tokens := train_tokens(data)) is not None:
        given["train_tokens"] = tokens
    return engine.Workload(**given)


def workload_frozen(data: WorkloadIn) -> dict[str, object]:
    """Return the whole workload as a quote keeps it: every field of the API's workload, its
    work and targets included, and the defaults the engine derived (batch, context) as it
    took them, so the quote says what it was sized for and re-quotes the same."""
    taken = workload_from_input(data)
    values = data.model_dump(mode="json")
    for each in WORKLOAD_FIELDS:
        if each.default is None and not each.optional:
            values[each.name] = getattr(taken, each.name)
    return values


def resolved_workload(
    data: WorkloadIn, catalog: Catalog, *, prefix: str = "workload"
) -> engine.Workload:
    """Return the engine's Workload with its preferred GPU (slug or name) resolved to a slug;
    raise InputErrors as `workload_from_input` does, or for a GPU the catalog lacks."""
    workload = workload_from_input(data, prefix=prefix)
    if data.gpu is None:
        return workload
    preferred_gpu_errors(data, catalog, prefix).raise_if_any()
    return replace(workload, gpu=catalog.find("gpus", data.gpu).slug)
