"""The checks: one small pure function per pitfall (P1–P8) and per baseline dimension.

Every check has the signature `(build, workload, rules) -> Finding` and reads its thresholds
from `rules` only. Each states the numbers it compared, so a presales engineer can read the
verdict without the rulebook. Each is registered once, at the end of this module, with its
code and catalogue entry (`configurator.engine.registry`); docs/rules.md describes each
formula and the source of its threshold.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import replace

from configurator.engine import catalogue
from configurator.engine.build import (
    PRECISION_ARCHITECTURES,
    Architecture,
    Build,
    FinetuneMethod,
    FormFactor,
    Mode,
    Workload,
)
from configurator.engine.changes import Change
from configurator.engine.fabric import FALLBACK_NODE_LINK_GBPS, NicRequirement, nic_requirement
from configurator.engine.findings import (
    Finding,
    covered,
    failed,
    not_applicable,
    num,
    passed,
    warned,
)
from configurator.engine.memory import (
    DIMMS_PER_CHANNEL,
    MemoryRequirement,
    memory_population,
    memory_requirement,
)
from configurator.engine.messages import Message, _, alternatives, counted_gpus, join, ngettext
from configurator.engine.pcie import LaneBudget, even_split, lane_budget, socket_loads, split_label
from configurator.engine.power import PowerBudget, power_budget
from configurator.engine.registry import REGISTRY, CheckKind
from configurator.engine.rules import RuleParams
from configurator.engine.sizing import card_gb, gpus_needed, size_workload, usable_gb

Check = Callable[[Build, Workload | None, RuleParams], Finding]

# The most PCIe lanes a two-socket node of those CPUs gives (domain.md §9: 2P EPYC 128–160).
MODERN_PLATFORM_LANES = 160
# Example platforms named in fixes: the guide's recipe CPUs (domain.md §3, datasheets §9).
MODERN_PLATFORMS = alternatives(
    _("%(cpus)s (Gen%(gen)s, %(lanes)s lanes)", cpus=cpus, gen=5, lanes=MODERN_PLATFORM_LANES)
    for cpus in ("2 × Xeon Gold 6530", "2 × EPYC 9754")
)
# High-base-clock CPUs for small-batch inference (decision §6, datasheets §9): name, base
# GHz, socket (the catalog's `socket`: a fix names only CPUs the platform's socket takes).
HIGH_CLOCK_CPUS: tuple[tuple[str, float, str], ...] = (
    ("Xeon Gold 6542Y", 2.9, "LGA4677"),
    ("EPYC 9374F", 3.85, "SP5"),
    ("Xeon Gold 6548Y+", 2.5, "LGA4677"),
    ("EPYC 9474F", 3.6, "SP5"),
)
# GPUs per node that one model replica is deployed on (domain.md §6), largest first.
DEPLOYED_GPU_COUNTS = (8, 4, 2, 1)
# Architectures as their maker names them in text.
ARCHITECTURE_NAMES: dict[Architecture, str] = {
    Architecture.VOLTA: "Volta",
    Architecture.TURING: "Turing",
    Architecture.AMPERE: "Ampere",
    Architecture.ADA: "Ada Lovelace",
    Architecture.HOPPER: "Hopper",
    Architecture.BLACKWELL: "Blackwell",
}
# The capacity fix searches GPU counts up to this many; beyond it no rental build is offered.
MAX_GPUS_SEARCHED = 1024


def _cpus(build: Build) -> str:
    return f"{build.cpu_count} × {build.cpu.name}"


def _gpus(build: Build) -> str:
    return f"{build.gpu_count} × {build.gpu.name}"


# P1 ----------------------------------------------------------------------------------------


def legacy_pcie_platform(build: Build, workload: Workload | None, rules: RuleParams) -> Finding:
    """P1: reject a multi-GPU node on a PCIe generation below the baseline (E5-class, Gen3)."""
    gen, gen_min = build.pcie_gen, rules.pcie_gen_min
    numbers = {"pcie_gen": gen, "pcie_gen_min": gen_min, "gpus": build.gpu_count}
    if gen < gen_min and build.gpu_count > 1:
        return failed(
            "P1",
            _(
                "%(gpus)s on a PCIe Gen%(gen)s platform (%(cpus)s); "
                "multi-GPU nodes need Gen%(gen_min)s or newer",
                gpus=_gpus(build), gen=gen, cpus=_cpus(build), gen_min=gen_min,
            ),
            _(
                "move to a PCIe Gen%(gen_min)s/Gen%(gen_next)s platform, e.g. %(platforms)s",
                gen_min=gen_min, gen_next=gen_min + 1, platforms=MODERN_PLATFORMS,
            ),
            numbers,
            picks=("platform", "cpu"),
        )  # fmt: skip
    return passed(
        "P1",
        _("PCIe Gen%(gen)s platform for %(gpus)s", gen=gen, gpus=counted_gpus(build.gpu_count)),
        numbers,
    )


# P2 ----------------------------------------------------------------------------------------


def numa_binding(build: Build, workload: Workload | None, rules: RuleParams) -> Finding:
    """P2: reject a node without NUMA binding, or with GPUs served across NUMA nodes."""
    cross = build.gpus_cross_numa
    numbers = {"numa_binding": int(build.numa_binding), "gpus_cross_numa": cross}
    problems, fixes = [], []
    # Binding is a field of the build; which slot a GPU sits in is not (a probe finds it).
    change = None if build.numa_binding or cross > 0 else Change.of(numa_binding=True)
    if not build.numa_binding:
        problems.append(_("no automatic core/NUMA binding for the GPUs"))
        fixes.append(_("ship the automatic core/NUMA binding script (numactl/taskset per GPU)"))
    if cross > 0:
        problems.append(_("%(gpus)s served across NUMA nodes", gpus=counted_gpus(cross)))
        fixes.append(
            _("re-seat %(gpus)s in slots wired to the serving socket", gpus=counted_gpus(cross))
        )
    if problems:
        one_socket = build.cpu_count == 1 and cross == 0
        impact = catalogue.P2_ONE_SOCKET_IMPACT if one_socket else ""
        return failed("P2", join(problems), join(fixes), numbers, change, impact=impact)
    return passed("P2", _("every GPU bound to the cores and memory of its own socket"), numbers)


# P3 and the memory dimension ----------------------------------------------------------------


def _memory_need_text(need: MemoryRequirement, rules: RuleParams) -> Message:
    if need.reason == "ratio":
        return _(
            "%(ratio)s × %(vram)s GB VRAM",
            ratio=num(rules.memory_vram_ratio_min),
            vram=need.vram_gb,
        )
    if need.reason == "floor":
        return _("the %(floor)s GB floor of 8-GPU nodes", floor=need.floor_gb)
    return _("%(per_gpu)s GB per GPU", per_gpu=rules.memory_per_gpu_gb_min)


def _memory_fix(build: Build, required_gb: float) -> tuple[Message, Change | None]:
    """Propose the smallest valid DIMM population that holds the need, and that change."""
    channels = build.cpu.memory_channels * build.cpu_count
    population = memory_population(required_gb, channels, build.cpu.ddr_gen)
    if population is None:
        fix = _(
            "%(required)s GB is more than %(channels)s channels hold at %(per_channel)s DIMMs "
            "each: put fewer GPUs in each node",
            required=num(required_gb), channels=channels, per_channel=max(DIMMS_PER_CHANNEL),
        )  # fmt: skip
        return fix, None
    change = Change.of(memory_gb=population.total_gb)
    fix = _(
        "fit %(total)s GB (+%(more)s GB): %(population)s, %(per_channel)s per channel on "
        "%(sockets)s × %(socket_channels)s channels",
        total=change["memory_gb"], more=change["memory_gb"] - build.memory_gb,
        population=population.describe(), per_channel=population.dimms // channels,
        sockets=build.cpu_count, socket_channels=build.cpu.memory_channels,
    )  # fmt: skip
    return fix, change


def _memory_numbers(build: Build, need: MemoryRequirement) -> dict[str, float | int]:
    return {
        "memory_gb": build.memory_gb,
        "required_gb": need.required_gb,
        "vram_gb": need.vram_gb,
        "by_ratio_gb": need.by_ratio_gb,
        "floor_gb": need.floor_gb,
        "by_gpu_gb": need.by_gpu_gb,
    }


def memory_short(build: Build, workload: Workload | None, rules: RuleParams) -> bool:
    """P3's decision: system memory below what the node's GPUs need under the rules."""
    need = memory_requirement(build.gpu_count, build.gpu.memory_gb, rules)
    return build.memory_gb < need.required_gb


def memory_below_vram(build: Build, workload: Workload | None, rules: RuleParams) -> Finding:
    """P3: reject system memory below the VRAM ratio, the 8-GPU floor or the per-GPU minimum."""
    need = memory_requirement(build.gpu_count, build.gpu.memory_gb, rules)
    numbers = _memory_numbers(build, need)
    detail = _(
        "%(gpus)s need %(required)s GB (%(rule)s); the node has %(memory)s GB",
        gpus=counted_gpus(build.gpu_count), required=num(need.required_gb),
        rule=_memory_need_text(need, rules), memory=build.memory_gb,
    )  # fmt: skip
    if build.memory_gb < need.required_gb:  # `memory_short`, with the need at hand
        fix, change = _memory_fix(build, need.required_gb)
        return failed("P3", detail, fix, numbers, change)
    return passed("P3", detail, numbers)


def reports_only(build: Build, workload: Workload | None, rules: RuleParams) -> bool:
    """The decision of a check that never fails: the shortfall it reports is another check's
    to count (`covered`)."""
    return False


def memory_capacity(build: Build, workload: Workload | None, rules: RuleParams) -> Finding:
    """Memory dimension: report RAM against the P3 requirement, with its headroom; a shortfall
    is P3's, reported here as covered by it."""
    need = memory_requirement(build.gpu_count, build.gpu.memory_gb, rules)
    numbers = _memory_numbers(build, need)
    headroom = build.memory_gb / need.required_gb - 1 if need.required_gb > 0 else 0.0
    numbers["headroom"] = round(headroom, 4)
    detail = _(
        "%(memory)s GB for %(required)s GB needed (%(rule)s)",
        memory=build.memory_gb, required=num(need.required_gb),
        rule=_memory_need_text(need, rules),
    )  # fmt: skip
    if build.memory_gb < need.required_gb:
        # The same requirement as P3's: the shortfall is P3's to count (docs/rules.md).
        short = _(
            "%(detail)s: short by %(short)s GB, counted once, by P3",
            detail=detail, short=num(need.required_gb - build.memory_gb),
        )  # fmt: skip
        return covered("memory", "P3", short, numbers)
    return passed(
        "memory",
        _("%(detail)s: %(headroom)s headroom", detail=detail, headroom=f"{headroom:+.0%}"),
        numbers,
    )


# P4 and the NUMA dimension ------------------------------------------------------------------


def _split_fix(build: Build, rules: RuleParams, sockets_min: int = 1) -> tuple[Message, Change]:
    """Propose the even split over every socket the CPU takes (at least `sockets_min`), over
    more nodes when one node cannot hold the GPUs within the per-socket maximum; and that
    change."""
    per_socket = rules.gpus_per_socket_max
    sockets = max(build.cpu.max_sockets, build.cpu_count, sockets_min)
    per_node = per_socket * sockets
    more_sockets = {"cpu_count": sockets} if build.cpu_count < sockets else {}
    if build.gpu_count > per_node:
        spread = math.ceil(build.gpu_count / per_node)
        gpus = math.ceil(build.gpu_count / spread)
        change = Change.of(
            **more_sockets, gpu_count=gpus, gpus_per_socket=even_split(gpus, sockets),
            nodes=build.nodes * spread,
        )  # fmt: skip
        fix = _(
            "at most %(per_node)s GPUs per node (%(sockets)s sockets × %(per_socket)s): "
            "%(change)s",
            per_node=per_node, sockets=sockets, per_socket=per_socket, change=change.message(),
        )  # fmt: skip
        return fix, change
    change = Change.of(**more_sockets, gpus_per_socket=even_split(build.gpu_count, sockets))
    split = split_label(change["gpus_per_socket"])
    if build.cpu_count < sockets:
        fix = _(
            "use a %(sockets)s-socket platform and split the GPUs evenly: %(split)s",
            sockets=change["cpu_count"], split=split,
        )  # fmt: skip
        return fix, change
    return _("split the GPUs evenly over the sockets: %(split)s", split=split), change


def _overloaded_sockets(loads: tuple[int, ...], limit: int) -> str:
    """Describe the sockets above the limit, e.g. `CPU0 carries 6 GPUs (6 + 2)`; empty if none."""
    heavy = [
        _("CPU%(socket)s carries %(load)s GPUs", socket=i, load=load)
        for i, load in enumerate(loads)
        if load > limit
    ]
    if not heavy:
        return ""
    if len(loads) > 1:
        return _("%(sockets)s (%(split)s)", sockets=join(heavy, ", "), split=split_label(loads))
    return join(heavy, ", ")


def socket_overload(build: Build, workload: Workload | None, rules: RuleParams) -> Finding:
    """P4: reject a socket carrying more GPUs than the per-socket maximum."""
    loads = socket_loads(build)
    limit = rules.gpus_per_socket_max
    numbers = {"gpus_per_socket_max": limit, "busiest_socket": max(loads)}
    overloaded = _overloaded_sockets(loads, limit)
    if overloaded:
        fix, change = _split_fix(build, rules)
        return failed(
            "P4",
            _("%(overloaded)s; at most %(limit)s per socket", overloaded=overloaded, limit=limit),
            fix,
            numbers,
            change,
        )
    return passed(
        "P4",
        _(
            "GPUs per socket %(split)s, at most %(limit)s each",
            split=split_label(loads),
            limit=limit,
        ),
        numbers,
    )


def numa_affinity(build: Build, workload: Workload | None, rules: RuleParams) -> Finding:
    """NUMA dimension: enough sockets, none over the maximum or remote; warn on an uneven split.

    Too few sockets fails; a GPU served across NUMA nodes is P2's and a socket above the
    maximum (P4's 6 or more) is P4's, each reported here as covered by its pitfall (and beside
    a failure of its own); a split within the maximum that differs by more than one GPU
    (5 + 3) warns: it runs, but the busier socket's lanes and memory carry more than their
    share.
    """
    loads = socket_loads(build)
    limit = rules.gpus_per_socket_max
    spread = max(loads) - min(loads)
    numbers = {
        "sockets": build.cpu_count,
        "sockets_min": rules.sockets_min,
        "busiest_socket": max(loads),
        "gpus_per_socket_max": limit,
        "spread": spread,
        "gpus_cross_numa": build.gpus_cross_numa,
    }
    problems, fixes = [], []
    changes: list[Change | None] = []  # one per fix: the build change it describes, if any
    if build.cpu_count < rules.sockets_min:
        problems.append(
            ngettext(
                "%(n)s socket; the baseline is a %(sockets_min)s-socket node, each CPU serving "
                "the GPUs on its own side",
                "%(n)s sockets; the baseline is a %(sockets_min)s-socket node, each CPU serving "
                "the GPUs on its own side",
                build.cpu_count, sockets_min=rules.sockets_min,
            )
        )  # fmt: skip
        fix, change = _split_fix(build, rules, sockets_min=rules.sockets_min)
        fixes.append(fix)
        changes.append(change)
    # A GPU served across NUMA nodes is P2's problem and a socket above the maximum P4's (the
    # guide's pitfalls): each counts its own, this dimension says so (docs/rules.md "One
    # problem counted once").
    owned: list[tuple[str, Message]] = []
    if build.gpus_cross_numa > 0:
        owned.append((
            "P2",
            _("%(gpus)s served across NUMA nodes: counted once, by P2",
              gpus=counted_gpus(build.gpus_cross_numa)),
        ))  # fmt: skip
    overloaded = _overloaded_sockets(loads, limit)
    if overloaded:
        owned.append((
            "P4",
            _("%(overloaded)s, above %(limit)s per socket: counted once, by P4",
              overloaded=overloaded, limit=limit),
        ))  # fmt: skip
    owners_say = [text for _owner, text in owned]
    if problems:
        change = changes[0] if len(changes) == 1 else None
        # One socket has no remote NUMA node: its loss is not the cross-NUMA latency.
        one_socket = build.cpu_count == 1 and build.gpus_cross_numa == 0
        impact = catalogue.NUMA_ONE_SOCKET_IMPACT if one_socket else ""
        detail = join([*problems, *owners_say])
        return failed("numa", detail, join(fixes), numbers, change, impact=impact)
    if owned:
        said = owners_say[0] if len(owners_say) == 1 else join(owners_say)
        return covered("numa", owned[0][0], said, numbers)
    if spread > 1 and build.cpu_count >= rules.sockets_min:
        detail = _(
            "GPUs per socket %(split)s are uneven (within %(limit)s per socket)",
            split=split_label(loads), limit=limit,
        )  # fmt: skip
        fix, change = _split_fix(build, rules)
        return warned("numa", detail, fix, numbers, change)
    detail = _(
        "GPUs per socket %(split)s, at most %(limit)s each, none across NUMA nodes",
        split=split_label(loads), limit=limit,
    )  # fmt: skip
    return passed("numa", detail, numbers)


# P5 ----------------------------------------------------------------------------------------


def _full_parameter(workload: Workload) -> bool:
    """Return whether every GPU exchanges the gradients of the whole model (train, full FT)."""
    return workload.mode is Mode.TRAIN or workload.finetune_method is FinetuneMethod.FULL


def _method_label(workload: Workload) -> str:
    return "LoRA" if workload.finetune_method is FinetuneMethod.LORA else "QLoRA"


# The workload modes as a detail names them.
MODE_WORDS: dict[Mode, Message] = {
    Mode.TRAIN: _("train"),
    Mode.FINETUNE: _("finetune"),
    Mode.INFER: _("infer"),
}


def training_without_nvlink(build: Build, workload: Workload | None, rules: RuleParams) -> Finding:
    """P5: reject full-parameter multi-GPU training of a large model on GPUs without NVLink.

    LoRA and QLoRA exchange only the adapters' gradients (tens of megabytes a step, not the
    model's), so they pass with a note (domain.md §6).
    """
    if workload is None:
        return not_applicable("P5", _("applies to training workloads; no workload given"))
    if workload.mode is Mode.INFER:
        return not_applicable("P5", _("inference exchanges no gradients between GPUs"))
    if build.gpu_count <= 1:
        return not_applicable("P5", _("one GPU per node: no GPU-to-GPU link inside the node"))
    size, size_min = workload.model_params_b, rules.nvlink_model_params_b_min
    # A bridge or board cannot add NVLink to a GPU that has none (RTX 4090, L20).
    linked = build.nvlink and build.gpu.has_nvlink
    numbers = {"model_params_b": size, "nvlink_model_params_b_min": size_min, "nvlink": int(linked)}
    if not _full_parameter(workload):
        detail = _(
            "%(method)s fine-tuning of a %(size)sB model exchanges only the adapters' "
            "gradients between GPUs: PCIe carries them",
            method=_method_label(workload), size=num(size),
        )  # fmt: skip
        return passed("P5", detail, numbers)
    if size <= size_min:
        detail = _(
            "%(size)sB model ≤ %(size_min)sB: little cross-GPU traffic",
            size=num(size), size_min=num(size_min),
        )  # fmt: skip
        return passed("P5", detail, numbers)
    if linked and build.gpu.form_factor is not FormFactor.SXM and build.gpu_count > 2:
        # NVLink bridges join pairs (domain.md §6): the ring between pairs crosses PCIe, and
        # the time model times it there (docs/performance.md "Interconnect as wired").
        detail = _(
            "%(size)sB %(mode)s on %(gpus)s: NVLink bridges join pairs, the all-reduce "
            "between the %(pairs)s pairs crosses PCIe Gen%(gen)s (timed in the performance "
            "figures); an NVSwitch board joins every GPU",
            size=num(size), mode=MODE_WORDS[workload.mode], gpus=_gpus(build),
            pairs=build.gpu_count // 2, gen=min(build.pcie_gen, build.gpu.pcie_gen),
        )  # fmt: skip
        return passed("P5", detail, numbers)
    if linked:
        detail = _(
            "%(size)sB %(mode)s over NVLink (%(gpus)s)",
            size=num(size), mode=MODE_WORDS[workload.mode], gpus=_gpus(build),
        )  # fmt: skip
        return passed("P5", detail, numbers)
    change = None
    if build.gpu.has_nvlink:
        reason = _("NVLink not fitted")
        fix = _("fit NVLink bridges (PCIe cards) or an SXM NVSwitch board")
        change = Change.of(nvlink=True)
    else:
        reason = _("the %(gpu)s has no NVLink", gpu=build.gpu.name)
        fix = _(
            "an NVLink GPU (A800 or H100: SXM on an NVSwitch board or bridged PCIe pairs), "
            "or fine-tune with LoRA/QLoRA, which exchanges only adapter gradients"
        )
    what = _("training") if workload.mode is Mode.TRAIN else _("full fine-tuning")
    detail = _(
        "%(what)s of a %(size)sB model (> %(size_min)sB) on %(gpus)s: %(reason)s",
        what=what, size=num(size), size_min=num(size_min), gpus=_gpus(build), reason=reason,
    )  # fmt: skip
    return failed("P5", detail, fix, numbers, change)


# P6 ----------------------------------------------------------------------------------------


def non_ecc_memory(build: Build, workload: Workload | None, rules: RuleParams) -> Finding:
    """P6: reject memory without ECC."""
    numbers = {"memory_ecc": int(build.memory_ecc), "memory_gb": build.memory_gb}
    if build.memory_ecc:
        return passed(
            "P6", _("%(memory)s GB of ECC server memory", memory=build.memory_gb), numbers
        )
    channels = build.cpu.memory_channels * build.cpu_count
    population = memory_population(build.memory_gb, channels, build.cpu.ddr_gen)
    fix = _("replace it with server ECC RDIMMs")
    if population is not None:
        fix = _(
            "replace it with server ECC RDIMMs: %(population)s", population=population.describe()
        )
    detail = _("%(memory)s GB of non-ECC memory", memory=build.memory_gb)
    return failed("P6", detail, fix, numbers, Change.of(memory_ecc=True))


# P7 ----------------------------------------------------------------------------------------


def _estimate_terms(build: Build, power: PowerBudget, rules: RuleParams) -> Message:
    parts = [
        _("%(n)s × %(w)s W GPUs", n=build.gpu_count, w=build.gpu.tdp_w),
        _("%(n)s × %(w)s W CPUs", n=build.cpu_count, w=build.cpu.tdp_w),
        _("%(n)s × %(w)s W DIMMs", n=build.dimms, w=rules.dimm_w),
    ]
    if build.nics:
        parts.append(_("%(n)s × %(w)s W NICs", n=build.nics, w=build.nic_tdp_w))
    if build.nvme:
        parts.append(_("%(n)s × %(w)s W NVMe", n=build.nvme, w=build.nvme_tdp_w))
    if power.chassis_w == rules.chassis_overhead_w:
        parts.append(_("%(w)s W board and fans", w=power.chassis_w))
    else:
        parts.append(_("%(w)s W board, fans, HGX", w=power.chassis_w))
    return _(
        "(%(parts)s = %(load)s W) × %(headroom)s",
        parts=join(parts, " + "), load=power.load_w, headroom=num(power.headroom),
    )  # fmt: skip


def _platform_terms(build: Build, power: PowerBudget) -> Message:
    stated = _("the platform's stated %(w)s W", w=build.rated_power_w)
    if power.partly_filled:
        return _(
            "the installed parts' %(load)s W × %(headroom)s (%(stated)s for %(rated_gpus)s × "
            "%(rated_gpu_w)s W GPUs over their %(full)s W, at least the %(rule)s headroom)",
            load=power.load_w, headroom=num(power.platform_headroom), stated=stated,
            rated_gpus=build.rated_gpus, rated_gpu_w=build.rated_gpu_w,
            full=power.full_load_w, rule=num(power.headroom),
        )  # fmt: skip
    rated = build.rated_gpus * build.rated_gpu_w
    if build.gpu_count * build.gpu.tdp_w == rated:
        return stated
    return _(
        "%(stated)s for %(rated_gpus)s × %(rated_gpu_w)s W GPUs, moved to "
        "%(gpus)s × %(gpu_w)s W = %(platform_w)s W",
        stated=stated, rated_gpus=build.rated_gpus, rated_gpu_w=build.rated_gpu_w,
        gpus=build.gpu_count, gpu_w=build.gpu.tdp_w, platform_w=power.platform_w,
    )  # fmt: skip


def _psu_fix(build: Build, power: PowerBudget, rules: RuleParams) -> tuple[Message, Change | None]:
    """Propose PSUs that cover the need, or fewer GPUs when the platform's bays cannot; and
    the change it describes (none for "a platform with more power": the catalog picks it)."""
    bays_w = build.platform_psu_w
    if not bays_w or power.required_w <= bays_w:
        change = Change.of(psu_watts=power.required_w)
        fix = _(
            "fit PSUs giving ≥ %(required)s W usable after redundancy "
            "(+%(more)s W; N+1/N+N spares do not count)",
            required=change["psu_watts"], more=change["psu_watts"] - build.psu_watts,
        )  # fmt: skip
        return fix, change
    for gpus in (count for count in DEPLOYED_GPU_COUNTS if count < build.gpu_count):
        fewer = replace(build, gpu_count=gpus, gpus_per_socket=even_split(gpus, build.cpu_count))
        fewer_w = power_budget(fewer, rules).required_w
        if fewer_w <= bays_w:
            # The GPUs move to more nodes, none is dropped; PSUs grow only when they must.
            psus = {"psu_watts": fewer_w} if build.psu_watts < fewer_w else {}
            change = Change.of(
                gpu_count=gpus, gpus_per_socket=fewer.gpus_per_socket,
                nodes=math.ceil(build.gpu_count * build.nodes / gpus), **psus,
            )  # fmt: skip
            fix = _(
                "the platform's PSU bays hold at most %(bays_w)s W in all, under the "
                "%(required)s W needed: %(change)s; or a platform with more power",
                bays_w=bays_w, required=power.required_w, change=change.message(),
            )  # fmt: skip
            return fix, change
    fix = _(
        "the platform's PSU bays hold at most %(bays_w)s W in all: a platform with more power",
        bays_w=bays_w,
    )
    return fix, None  # the platform: the catalog picks it


def psu_undersized(build: Build, workload: Workload | None, rules: RuleParams) -> Finding:
    """P7: reject usable PSU output below the node's need, never below the guide's floor.

    The need is the platform maker's power figure where the catalog has one, otherwise
    component TDPs plus a board allowance, times the headroom (`engine/power.py`).
    """
    power = power_budget(build, rules)
    numbers = {
        "psu_watts": build.psu_watts,
        "required_w": power.required_w,
        "need_w": power.need_w,
        "floor_w": power.floor_w,
        "load_w": power.load_w,
        "psu_headroom": power.headroom,
        "platform_w": power.platform_w,
    }
    if power.from_platform:
        sized = _platform_terms(build, power)
    else:
        sized = _estimate_terms(build, power, rules)
    if power.floor_w:
        sized = _("max(%(floor)s W floor, %(sized)s)", floor=power.floor_w, sized=sized)
    detail = _(
        "needs %(required)s W usable = %(sized)s; the PSUs give %(psu)s W after redundancy",
        required=power.required_w, sized=sized, psu=build.psu_watts,
    )  # fmt: skip
    if build.psu_watts < power.required_w:
        fix, change = _psu_fix(build, power, rules)
        return failed("P7", detail, fix, numbers, change, picks=("platform",))
    return passed("P7", detail, numbers)


# P8 ----------------------------------------------------------------------------------------


def _vendor(cpu_name: str) -> str:
    return "amd" if "EPYC" in cpu_name.upper() else "intel"


def _high_clock_examples(build: Build, ghz_min: float) -> str:  # CPU names: not translated
    """Name a high-clock CPU the build's socket takes (the platform's, else the CPU's);
    with neither known, one per vendor, the build's own first. A fix never names a CPU that
    does not fit the board (domain.md §6)."""
    cpu = build.cpu
    socket = build.platform.cpu_socket if build.platform is not None else cpu.socket
    picks: dict[str, str] = {}
    for name, ghz, fits in HIGH_CLOCK_CPUS:
        if ghz >= ghz_min and (not socket or fits == socket):
            picks.setdefault(_vendor(name), f"{name} {num(ghz)} GHz")
    return ", ".join(sorted(picks.values(), key=lambda pick: _vendor(pick) != _vendor(cpu.name)))


def low_base_clock(build: Build, workload: Workload | None, rules: RuleParams) -> Finding:
    """P8: reject small-batch inference on a CPU whose base clock is below the baseline."""
    if workload is None:
        return not_applicable("P8", _("applies to small-batch inference; no workload given"))
    if workload.mode is not Mode.INFER:
        detail = _("%(mode)s builds are not judged on base clock", mode=MODE_WORDS[workload.mode])
        return not_applicable("P8", detail)
    batch, batch_max = workload.batch_size, rules.small_batch_max
    ghz, ghz_min = build.cpu.base_ghz, rules.cpu_base_ghz_min
    numbers = {"batch_size": batch, "small_batch_max": batch_max, "base_ghz": ghz}
    numbers["cpu_base_ghz_min"] = ghz_min
    if batch > batch_max:
        detail = _(
            "batch %(batch)s > small-batch limit %(batch_max)s: scheduling is amortised",
            batch=batch, batch_max=batch_max,
        )  # fmt: skip
        return not_applicable("P8", detail, numbers)
    detail = _(
        "inference at batch %(batch)s (≤ %(batch_max)s) on %(cpu)s, %(ghz)s GHz base",
        batch=batch, batch_max=batch_max, cpu=build.cpu.name, ghz=num(ghz),
    )  # fmt: skip
    if ghz < ghz_min:
        examples = _high_clock_examples(build, ghz_min)
        fix = _("a high-base-clock CPU (≥ %(ghz_min)s GHz base)", ghz_min=num(ghz_min))
        if examples:
            fix = _(
                "a high-base-clock CPU (≥ %(ghz_min)s GHz base), e.g. %(examples)s",
                ghz_min=num(ghz_min), examples=examples,
            )  # fmt: skip
        detail = _(
            "%(detail)s; small-batch inference needs ≥ %(ghz_min)s GHz",
            detail=detail, ghz_min=num(ghz_min),
        )  # fmt: skip
        return failed("P8", detail, fix, numbers, picks=("cpu", "platform"))
    return passed(
        "P8", _("%(detail)s (≥ %(ghz_min)s GHz)", detail=detail, ghz_min=num(ghz_min)), numbers
    )


# PCIe lanes ---------------------------------------------------------------------------------


def _lane_terms(build: Build, lanes: LaneBudget, rules: RuleParams) -> Message:
    if build.pcie_switch_uplinks:
        terms = [
            _(
                "%(n)s switch uplinks × %(lanes)s",
                n=build.pcie_switch_uplinks, lanes=rules.pcie_lanes_per_gpu,
            )
        ]  # fmt: skip
    else:
        terms = [_("%(n)s GPUs × %(lanes)s", n=build.gpu_count, lanes=rules.pcie_lanes_per_gpu)]
        if build.nics:
            terms.append(_("%(n)s NICs × %(lanes)s", n=build.nics, lanes=build.nic_lanes))
    if build.nvme:
        terms.append(_("%(n)s NVMe × %(lanes)s", n=build.nvme, lanes=build.nvme_lanes))
    return _("%(terms)s = %(needed)s lanes needed", terms=join(terms, " + "), needed=lanes.needed)


def _lane_fix(build: Build, lanes: LaneBudget, rules: RuleParams) -> Message:
    """Propose what holds the lanes: a bigger platform only when one exists, else a split."""
    options = []
    if lanes.needed <= MODERN_PLATFORM_LANES:
        options.append(
            _(
                "a platform with ≥ %(needed)s usable lanes, e.g. %(platforms)s",
                needed=lanes.needed, platforms=MODERN_PLATFORMS,
            )
        )  # fmt: skip
    else:
        options.append(
            _(
                "no two-socket platform gives %(needed)s lanes (the most is %(most)s): use a "
                "PCIe-switch board, whose GPUs and NICs share x16 uplinks",
                needed=lanes.needed, most=MODERN_PLATFORM_LANES,
            )
        )  # fmt: skip
    share = build.nics / build.gpu_count if build.gpu_count else 0
    fewer = _largest_fitting_node(build, rules, lambda gpus: math.ceil(gpus * share))
    if fewer:
        total = build.gpu_count * build.nodes
        nodes = math.ceil(total / fewer)
        options.append(
            _(
                "split the %(total)s GPUs over %(nodes)s nodes of %(fewer)s",
                total=total, nodes=nodes, fewer=fewer,
            )
        )  # fmt: skip
    elif lanes.needed <= MODERN_PLATFORM_LANES:
        options.append(_("a PCIe-switch board"))
    if len(options) == 1:
        return options[0]
    return _("%(first)s; or %(second)s", first=options[0], second=options[1])


def pcie_lane_budget(build: Build, workload: Workload | None, rules: RuleParams) -> Finding:
    """PCIe dimension: reject a node whose devices need more lanes than its CPUs provide."""
    lanes = lane_budget(build, rules)
    numbers = {"lanes_needed": lanes.needed, "lanes_available": lanes.available}
    detail = _(
        "%(terms)s; %(available)s from %(cpus)s",
        terms=_lane_terms(build, lanes, rules), available=lanes.available, cpus=_cpus(build),
    )  # fmt: skip
    if lanes.needed > lanes.available:
        fix = _lane_fix(build, lanes, rules)
        return failed("pcie_lanes", detail, fix, numbers, picks=("cpu", "platform"))
    if lanes.needed > 0:
        detail = _(
            "%(detail)s (%(headroom)s headroom)", detail=detail, headroom=f"{lanes.headroom:+.0%}"
        )
    return passed("pcie_lanes", detail, numbers)


# CPU threads per GPU ------------------------------------------------------------------------


def cpu_threads_short(build: Build, workload: Workload | None, rules: RuleParams) -> bool:
    """The CPU dimension's decision: fewer threads per GPU than the baseline, or fewer cores per
    GPU than a profile that asks for them."""
    gpus = max(build.gpu_count, 1)
    cores_min = rules.cores_per_gpu_min
    if build.threads / gpus < rules.threads_per_gpu_min:
        return True
    return cores_min > 0 and build.cores / gpus < cores_min


def cpu_threads_per_gpu(build: Build, workload: Workload | None, rules: RuleParams) -> Finding:
    """CPU dimension: reject too few threads (or cores) per GPU; report over-provision as waste."""
    gpus = max(build.gpu_count, 1)
    threads, cores = build.threads / gpus, build.cores / gpus
    low, high = rules.threads_per_gpu_min, rules.threads_per_gpu_max
    cores_min = rules.cores_per_gpu_min
    numbers = {
        "threads_per_gpu": round(threads, 2),
        "cores_per_gpu": round(cores, 2),
        "threads_per_gpu_min": low,
        "threads_per_gpu_max": high,
        "cores_per_gpu_min": cores_min,
    }
    detail = _(
        "%(threads)s threads (%(sockets)s × %(socket_threads)s) for %(gpus)s = "
        "%(per_gpu)s threads/GPU (baseline %(low)s–%(high)s)",
        threads=build.threads, sockets=build.cpu_count, socket_threads=build.cpu.threads,
        gpus=counted_gpus(build.gpu_count), per_gpu=num(threads), low=num(low), high=num(high),
    )  # fmt: skip
    sockets = max(build.cpu_count, 1)
    if threads < low:
        fix = _(
            "a CPU with ≥ %(per_socket)s threads per socket (%(low)s threads/GPU × "
            "%(gpus)s GPUs over %(sockets)s sockets), or fewer GPUs",
            per_socket=math.ceil(low * gpus / sockets), low=num(low), gpus=gpus, sockets=sockets,
        )  # fmt: skip
        return failed("cpu_threads", detail, fix, numbers, picks=("cpu", "platform"))
    if cores_min > 0 and cores < cores_min:
        per_socket = math.ceil(cores_min * gpus / sockets)
        detail = _(
            "%(detail)s; %(cores)s cores/GPU, the profile needs ≥ %(cores_min)s",
            detail=detail, cores=num(cores), cores_min=num(cores_min),
        )  # fmt: skip
        fix = _(
            "a CPU with ≥ %(per_socket)s cores per socket, or fewer GPUs", per_socket=per_socket
        )
        return failed("cpu_threads", detail, fix, numbers, picks=("cpu", "platform"))
    if threads > high:
        detail = _(
            "%(detail)s; over-provisioned: cost waste (above %(high)s)",
            detail=detail, high=num(high),
        )  # fmt: skip
    return passed("cpu_threads", detail, numbers)


# GPU memory capacity ------------------------------------------------------------------------


def _capacity_fix(
    build: Build, workload: Workload, usable: float, numbers: dict, need: NicRequirement
) -> tuple[Message, Change | None]:
    """Propose the fewest GPUs that hold the workload; with a fabric when nodes must train.
    The change is the nodes, and the NICs they train over (their speed is the NIC model's)."""
    fewest = gpus_needed(workload, usable, max_gpus=MAX_GPUS_SEARCHED)
    if fewest is None:
        fix = _(
            "use a GPU with more memory: it does not fit %(most)s × %(gpu)s",
            most=MAX_GPUS_SEARCHED, gpu=build.gpu.name,
        )  # fmt: skip
        return fix, None
    numbers["gpus_fitting"] = fewest
    per_node = max(build.gpu_count, 1)
    change = Change.of(nodes=math.ceil(fewest / per_node))
    spread = ngettext(
        "spread it over at least %(fewest)s × %(gpu)s (%(n)s node of %(per_node)s)",
        "spread it over at least %(fewest)s × %(gpu)s (%(n)s nodes of %(per_node)s)",
        change["nodes"], fewest=fewest, gpu=build.gpu.name, per_node=per_node,
    )  # fmt: skip
    if change["nodes"] > 1 and workload.mode is not Mode.INFER:
        nics = need.nics_for(per_node)
        if build.nics < nics:
            change = Change.of(nodes=change["nodes"], nics=nics)
        fix = _(
            "%(spread)s with %(nics)s × ≥ %(speed)s Gb/s NICs per node for the gradients, "
            "or use a GPU with more memory",
            spread=spread, nics=nics, speed=need.speed_gbps_min,
        )  # fmt: skip
        return fix, change
    return _("%(spread)s, or use a GPU with more memory", spread=spread), change


def gpu_memory_capacity(build: Build, workload: Workload | None, rules: RuleParams) -> Finding:
    """Capacity: reject a build whose GPUs, all nodes counted, cannot hold the workload.

    Each GPU may fill `gpu_memory_usable_fraction` of its memory; the maker's "80 GB" is
    80 GiB, sizing counts GB of 10⁹ bytes (`sizing.usable_gb`).
    """
    if workload is None:
        return not_applicable("capacity", _("needs a workload to size"))
    total = max(build.gpu_count * build.nodes, 1)
    memory, fraction = build.gpu.memory_gb, rules.gpu_memory_usable_fraction
    usable = usable_gb(memory, fraction)
    sizing = size_workload(workload, gpu_count=total, gpu_memory_gb=usable)
    per_gpu = sizing.per_gpu_gb
    numbers = {
        "total_gb": round(sizing.total_gb, 2),
        "per_gpu_gb": round(per_gpu, 2),
        "usable_gb": round(usable, 2),
        "gpu_memory_gb": memory,
        "gpu_memory_usable_fraction": fraction,
        "gpus": total,
    }
    where = _("%(n)s GPUs", n=total)
    if build.nodes > 1:
        where = _("%(n)s GPUs (%(nodes)s nodes)", n=total, nodes=build.nodes)
    detail = _(
        "%(size)sB %(mode)s needs %(total)s GB of GPU memory, %(per_gpu)s GB per GPU over "
        "%(where)s; each %(gpu)s may fill %(usable)s GB (%(fraction)s of its %(gib)s GiB = "
        "%(card)s GB)",
        size=num(workload.model_params_b), mode=MODE_WORDS[workload.mode],
        total=num(sizing.total_gb), per_gpu=num(per_gpu), where=where, gpu=build.gpu.name,
        usable=num(usable), fraction=f"{fraction:.0%}", gib=memory, card=num(card_gb(memory)),
    )  # fmt: skip
    if per_gpu <= usable:
        return passed("capacity", detail, numbers)
    need = nic_requirement(build.gpu, rules)
    fix, change = _capacity_fix(build, workload, usable, numbers, need)
    return failed("capacity", detail, fix, numbers, change, picks=("gpu", "gpu_count"))


# Precision -----------------------------------------------------------------------------------


def precision_supported(build: Build, workload: Workload | None, rules: RuleParams) -> Finding:
    """Precision: reject a number format the GPU's tensor cores do not run (FP8 before Ada)."""
    if workload is None:
        return not_applicable("precision", _("needs a workload's precision"))
    precision, gpu = str(workload.precision).lower(), build.gpu
    numbers = {"fp8": int(precision == "fp8")}
    arch = ARCHITECTURE_NAMES[gpu.architecture]
    kv = str(workload.kv_cache_precision or precision).lower()
    if gpu.runs(precision) and not gpu.runs(kv):
        # FP8 KV cache only on Ada or Hopper and later (domain.md §6), as FP8 weights.
        numbers["fp8_kv_cache"] = 1
        needed = PRECISION_ARCHITECTURES[kv]
        able = alternatives(ARCHITECTURE_NAMES[a] for a in Architecture if a in needed)
        detail = _(
            "a %(precision)s KV cache needs %(able)s tensor cores; the %(gpu)s is %(arch)s",
            precision=kv, able=able, gpu=gpu.name, arch=arch,
        )  # fmt: skip
        fix = _(
            "keep the KV cache in %(weights)s on the %(gpu)s (sized again: twice the cache of "
            "%(precision)s), or move to a GPU built on %(able)s, e.g. H100 or L20",
            weights=precision if precision in ("bf16", "fp16", "fp32") else "bf16",
            gpu=gpu.name, precision=kv, able=able,
        )  # fmt: skip
        return failed("precision", detail, fix, numbers, picks=("gpu",))
    if gpu.runs(precision):
        detail = _(
            "%(precision)s runs natively on the %(gpu)s (%(arch)s)",
            precision=precision, gpu=gpu.name, arch=arch,
        )  # fmt: skip
        return passed("precision", detail, numbers)
    needed = PRECISION_ARCHITECTURES[precision]
    able = alternatives(ARCHITECTURE_NAMES[a] for a in Architecture if a in needed)  # by generation
    detail = _(
        "%(precision)s needs %(able)s tensor cores; the %(gpu)s is %(arch)s",
        precision=precision, able=able, gpu=gpu.name, arch=arch,
    )  # fmt: skip
    fix = _(
        "run it in bf16 on the %(gpu)s (sized again: twice the memory of %(precision)s "
        "weights), or move %(precision)s to a GPU built on %(able)s, e.g. H100 or L20",
        gpu=gpu.name, precision=precision, able=able,
    )  # fmt: skip
    return failed("precision", detail, fix, numbers, picks=("gpu",))


# Fabric ----------------------------------------------------------------------------------------


def _nic_lanes_fit(build: Build, nics: int, rules: RuleParams) -> bool:
    """Return whether the node's PCIe lanes still suffice once it carries `nics` NICs."""
    return lane_budget(replace(build, nics=nics), rules).needed <= build.cpu.lanes_for(
        build.cpu_count
    )


def _largest_fitting_node(build: Build, rules: RuleParams, nics_for: Callable[[int], int]) -> int:
    """Return the most GPUs per node, a deployed count, whose links and NICs fit (0: none).

    Only counts below the build's own are tried; `nics_for(gpus)` gives the NICs such a node
    carries. The build's CPUs and its other devices stay as they are.
    """
    for gpus in (count for count in DEPLOYED_GPU_COUNTS if count < build.gpu_count):
        split = even_split(gpus, build.cpu_count)
        fewer = replace(build, gpu_count=gpus, gpus_per_socket=split, nics=nics_for(gpus))
        if lane_budget(fewer, rules).needed <= fewer.cpu.lanes_for(fewer.cpu_count):
            return gpus
    return 0


def _nic_share(need: NicRequirement) -> Message:
    if need.gpus_per_nic == 1:
        return _("one per GPU")
    return _("one per %(gpus)s GPUs", gpus=need.gpus_per_nic)


def _fabric_fix(
    build: Build, need: NicRequirement, rules: RuleParams
) -> tuple[Message, Change | None]:
    """Propose the NICs the nodes need, on a PCIe-switch board where the CPUs' lanes cannot
    take them; the change is their count (their speed is the NIC model's and the board a
    platform's, which the catalog names)."""
    nics = need.nics_for(build.gpu_count)
    change = Change.of(nics=nics) if build.nics < nics else None
    fix = _(
        "fit %(nics)s × ≥ %(speed)s Gb/s NICs per node (%(share)s), rail-optimised",
        nics=nics, speed=need.speed_gbps_min, share=_nic_share(need),
    )  # fmt: skip
    if _nic_lanes_fit(build, nics, rules):
        return fix, change
    lanes = lane_budget(replace(build, nics=nics), rules)
    fix = _(
        "%(fix)s, on a PCIe-switch board that puts each NIC beside its GPUs: direct to the "
        "CPUs they need %(needed)s lanes, the CPUs give %(available)s",
        fix=fix, needed=lanes.needed, available=lanes.available,
    )  # fmt: skip
    fewer = _largest_fitting_node(build, rules, need.nics_for)
    if fewer:
        fix = _(
            "%(fix)s; or %(gpus)s GPUs per node with %(nics)s NICs",
            fix=fix, gpus=fewer, nics=need.nics_for(fewer),
        )  # fmt: skip
    return fix, change


def multi_node_fabric(build: Build, workload: Workload | None, rules: RuleParams) -> Finding:
    """Fabric: reject multi-node training without enough NICs of the speed its GPUs need."""
    if workload is None:
        return not_applicable("fabric", _("applies to multi-node training; no workload given"))
    if workload.mode is Mode.INFER:
        detail = _("inference scales by whole replicas: no gradient traffic")
        return not_applicable("fabric", detail)
    if build.nodes <= 1:
        return not_applicable("fabric", _("one node: GPUs exchange gradients inside it"))
    need = nic_requirement(build.gpu, rules)
    nics_needed = need.nics_for(build.gpu_count)
    speed = build.nic_speed_gbps
    numbers = {
        "nodes": build.nodes,
        "nics": build.nics,
        "nics_needed": nics_needed,
        "nic_speed_gbps": speed,
        "nic_speed_gbps_min": need.speed_gbps_min,
    }
    share = _nic_share(need)
    wanted = _(
        "%(nics)s × ≥ %(speed)s Gb/s (%(share)s)",
        nics=nics_needed, speed=need.speed_gbps_min, share=share,
    )  # fmt: skip
    where = _(
        "%(mode)s over %(nodes)s nodes of %(gpus)s",
        mode=MODE_WORDS[workload.mode], nodes=build.nodes, gpus=_gpus(build),
    )  # fmt: skip
    found, needed = build.nics * max(speed, 0), need.bandwidth_gbps(build.gpu_count)
    numbers["fabric_gbps"] = found
    numbers["fabric_gbps_needed"] = needed
    problem = None
    if build.nics <= 0:
        problem = _(
            "no high-speed NICs per node: gradients cross the %(fallback)s Gb/s management "
            "network; it needs %(needed)s Gb/s of fabric, %(wanted)s",
            fallback=FALLBACK_NODE_LINK_GBPS, needed=f"{needed:,}", wanted=wanted,
        )  # fmt: skip
    elif speed <= 0:
        problem = ngettext(
            "%(n)s NIC per node of unstated speed; it needs %(wanted)s",
            "%(n)s NICs per node of unstated speed; it needs %(wanted)s",
            build.nics, wanted=wanted,
        )  # fmt: skip
    elif found < needed:
        problem = _(
            "%(nics)s × %(speed)s Gb/s NICs per node = %(found)s Gb/s of fabric; it needs "
            "%(needed)s Gb/s, %(wanted)s",
            nics=build.nics, speed=speed, found=f"{found:,}", needed=f"{needed:,}",
            wanted=wanted,
        )  # fmt: skip
    if problem:
        detail = _("%(where)s: %(problem)s", where=where, problem=problem)
        fix, change = _fabric_fix(build, need, rules)
        return failed("fabric", detail, fix, numbers, change, picks=("nic", "platform"))
    detail = _(
        "%(where)s: %(nics)s × %(speed)s Gb/s NICs per node = %(found)s Gb/s of fabric "
        "(%(needed)s Gb/s needed: %(wanted)s)",
        where=where, nics=build.nics, speed=speed, found=f"{found:,}", needed=f"{needed:,}",
        wanted=wanted,
    )  # fmt: skip
    return passed("fabric", detail, numbers)


# The registry: display order, catalogue entry, and what the CPU decides. -------------------
# cpu_side: the CPU, board and PCIe side alone decide the verdict (the recommender's
# prefilter). cpu_sensitive: another CPU of the same platform may change the outcome (the
# power need counts the CPUs' TDP against a platform's published figure), so after such a
# rejection the recommender still tries the platform's other CPUs; every other check a complete
# build can fail is decided by the GPU, the platform and the layout. fails: the check's
# decision without its texts, for the checks another profile's verdict re-runs on almost every
# build (their thresholds are the ones NVIDIA RA raises; `evaluate.verdict_under`).

PITFALL, DIMENSION, WORKLOAD = CheckKind.PITFALL, CheckKind.DIMENSION, CheckKind.WORKLOAD
REGISTRY.add("P1", legacy_pcie_platform, catalogue.P1, kind=PITFALL, cpu_side=True)
REGISTRY.add("P2", numa_binding, catalogue.P2, kind=PITFALL)
REGISTRY.add("P3", memory_below_vram, catalogue.P3, kind=PITFALL, fails=memory_short)
REGISTRY.add("P4", socket_overload, catalogue.P4, kind=PITFALL)
REGISTRY.add("P5", training_without_nvlink, catalogue.P5, kind=PITFALL)
REGISTRY.add("P6", non_ecc_memory, catalogue.P6, kind=PITFALL)
REGISTRY.add("P7", psu_undersized, catalogue.P7, kind=PITFALL, cpu_sensitive=True)
REGISTRY.add("P8", low_base_clock, catalogue.P8, kind=PITFALL, cpu_side=True)
REGISTRY.add("pcie_lanes", pcie_lane_budget, catalogue.PCIE_LANES, kind=DIMENSION, cpu_side=True)
REGISTRY.add(
    "cpu_threads",
    cpu_threads_per_gpu,
    catalogue.CPU_THREADS,
    kind=DIMENSION,
    cpu_side=True,
    fails=cpu_threads_short,
)
REGISTRY.add("memory", memory_capacity, catalogue.MEMORY, kind=DIMENSION, fails=reports_only)
REGISTRY.add("numa", numa_affinity, catalogue.NUMA, kind=DIMENSION)
REGISTRY.add("capacity", gpu_memory_capacity, catalogue.CAPACITY, kind=WORKLOAD)
REGISTRY.add("precision", precision_supported, catalogue.PRECISION, kind=WORKLOAD)
REGISTRY.add("fabric", multi_node_fabric, catalogue.FABRIC, kind=WORKLOAD)
