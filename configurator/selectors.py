"""Reads: catalog rows and rule versions turned into the engine's plain dataclasses.

Evaluations and recommendations read the whole offered catalog and the current rule versions
on every request. Both change rarely, so each process keeps a snapshot of them, keyed by the
revision tokens that every write renews (`configurator.revisions`): one small query a request
tells whether the snapshot still holds.
"""

from dataclasses import dataclass
from functools import lru_cache

from catalog import models as catalog
from configurator.engine import build as engine
from configurator.engine.build import Mode
from configurator.engine.catalog import Catalog
from configurator.engine.recommend import Scenario
from configurator.engine.rules import RuleParams
from configurator.models import RuleProfile, RuleSetVersion
from configurator.models import Scenario as ScenarioRow
from configurator.revisions import CATALOG, RULES, revision_tokens


def cpu_spec(cpu: catalog.Cpu) -> engine.Cpu:
    """Return the engine's view of a catalog CPU."""
    return engine.Cpu(
        slug=cpu.slug,
        name=cpu.name,
        cores=cpu.cores,
        threads=cpu.threads,
        base_ghz=float(cpu.base_ghz),
        boost_ghz=float(cpu.boost_ghz),
        tdp_w=cpu.tdp_w,
        pcie_gen=cpu.pcie_gen,
        pcie_lanes=cpu.pcie_lanes,
        pcie_lanes_2s=cpu.pcie_lanes_2s,
        memory_channels=cpu.memory_channels,
        ddr_gen=cpu.ddr_gen,
        max_sockets=cpu.max_sockets,
        socket=cpu.socket,
        monthly_price=float(cpu.monthly_price),
    )


def gpu_spec(gpu: catalog.Gpu) -> engine.Gpu:
    """Return the engine's view of a catalog GPU."""
    return engine.Gpu(
        slug=gpu.slug,
        name=gpu.name,
        memory_gb=gpu.memory_gb,
        tdp_w=gpu.tdp_w,
        pcie_gen=gpu.pcie_gen,
        form_factor=engine.FormFactor(gpu.form_factor),
        nvlink_gbps=gpu.nvlink_gbps,
        ecc=gpu.ecc,
        datacenter=gpu.gpu_class == catalog.GpuClass.DATACENTER,
        memory_type=gpu.memory_type,
        monthly_price=float(gpu.monthly_price),
    )


def memory_spec(module: catalog.MemoryModule) -> engine.MemoryModule:
    """Return the engine's view of a catalog DIMM."""
    return engine.MemoryModule(
        slug=module.slug,
        name=module.name,
        ddr_gen=module.ddr_gen,
        capacity_gb=module.capacity_gb,
        registered=module.registered,
        ecc=module.ecc,
        speed_mts=module.speed_mts,
        monthly_price=float(module.monthly_price),
    )


def psu_spec(psu: catalog.Psu) -> engine.Psu:
    """Return the engine's view of a catalog PSU."""
    return engine.Psu(
        slug=psu.slug, name=psu.name, rated_w=psu.rated_w, monthly_price=float(psu.monthly_price)
    )


def nic_spec(nic: catalog.Nic) -> engine.Nic:
    """Return the engine's view of a catalog network card."""
    return engine.Nic(
        slug=nic.slug,
        name=nic.name,
        speed_gbps=nic.speed_gbps,
        pcie_gen=nic.pcie_gen,
        pcie_lanes=nic.pcie_lanes,
        tdp_w=nic.tdp_w,
        monthly_price=float(nic.monthly_price),
    )


def platform_spec(platform: catalog.Platform) -> engine.Platform:
    """Return the engine's view of a catalog platform (its `gpus` prefetched)."""
    slots = (platform.gpu_slots_socket0, platform.gpu_slots_socket1)[: platform.sockets]
    return engine.Platform(
        slug=platform.slug,
        name=platform.name,
        sockets=platform.sockets,
        cpu_socket=platform.cpu_socket,
        pcie_gen=platform.pcie_gen,
        gpu_form_factor=engine.FormFactor(platform.gpu_form_factor),
        gpu_slots=slots,
        pcie_switch_uplinks=platform.pcie_switch_uplinks,
        nvlink=platform.nvlink,
        dimm_slots_per_socket=platform.dimm_slots_per_socket,
        psu_bays=platform.psu_bays,
        psu_max_w=platform.psu_max_w,
        max_power_w=platform.max_power_w,
        nic_slots=platform.nic_slots,
        nvme_bays=platform.nvme_bays,
        gpu_slugs=frozenset(gpu.slug for gpu in platform.gpus.all()),
        monthly_price=float(platform.monthly_price),
    )


@dataclass(frozen=True)
class CatalogSnapshot:
    everything: Catalog  # evaluations and audits name any item, offered or not
    offered: Catalog  # the recommender builds only from what is offered


SPEC_OF = (
    ("cpus", catalog.Cpu, cpu_spec),
    ("gpus", catalog.Gpu, gpu_spec),
    ("memory", catalog.MemoryModule, memory_spec),
    ("psus", catalog.Psu, psu_spec),
    ("nics", catalog.Nic, nic_spec),
    ("platforms", catalog.Platform, platform_spec),
)


@lru_cache(maxsize=4)
def _catalog_at(token: str) -> CatalogSnapshot:
    everything, offered = {}, {}
    for kind, model, spec in SPEC_OF:
        rows = model.objects.order_by("monthly_price", "slug")
        if model is catalog.Platform:
            rows = rows.prefetch_related("gpus")
        items = [(row.offered, spec(row)) for row in rows]
        everything[kind] = tuple(item for _, item in items)
        offered[kind] = tuple(item for is_offered, item in items if is_offered)
    return CatalogSnapshot(Catalog(**everything), Catalog(**offered))


@dataclass(frozen=True)
class RuleVersionRef:
    profile: str
    version: int
    params: RuleParams

    def as_dict(self) -> dict[str, object]:
        return {"version": self.version, "profile": self.profile}


@dataclass(frozen=True)
class RulesSnapshot:
    default: str
    current: dict[str, RuleVersionRef]  # profile slug -> its latest version
    scenarios: tuple[Scenario, ...] = ()


def scenario_spec(row: ScenarioRow) -> Scenario:
    """Return the engine's view of a scenario recipe (its `gpus` prefetched)."""
    modes = {Mode.TRAIN: row.for_train, Mode.FINETUNE: row.for_finetune, Mode.INFER: row.for_infer}
    return Scenario(
        code=row.code,
        name=row.name,
        modes=frozenset(mode for mode, on in modes.items() if on),
        params_min_b=row.params_min_b,
        params_max_b=row.params_max_b,
        gpu_slugs=tuple(sorted(gpu.slug for gpu in row.gpus.all())),
        cpu_slug=row.cpu.slug,
        platform_slug=row.platform.slug if row.platform else None,
        memory_gb=row.memory_gb,
        result=row.result,
    )


@lru_cache(maxsize=4)
def _rules_at(token: str, catalog_token: str) -> RulesSnapshot:
    # Scenarios name catalog parts, so a catalog change renews this snapshot too.
    current: dict[str, RuleVersionRef] = {}
    default = ""
    for version in RuleSetVersion.objects.select_related("profile").order_by("version"):
        current[version.profile.slug] = RuleVersionRef(
            version.profile.slug, version.version, RuleParams.from_mapping(version.parameters)
        )
        if version.profile.is_default:
            default = version.profile.slug
    rows = ScenarioRow.objects.filter(active=True).select_related("cpu", "platform")
    scenarios = tuple(scenario_spec(row) for row in rows.prefetch_related("gpus"))
    return RulesSnapshot(default, current, scenarios)


def snapshots() -> tuple[CatalogSnapshot, RulesSnapshot]:
    """Return the current catalog and rules, from the process cache while they are unchanged."""
    tokens = revision_tokens()
    catalog_token = tokens.get(CATALOG, "")
    return _catalog_at(catalog_token), _rules_at(tokens.get(RULES, ""), catalog_token)


def rule_version_current(profile_slug: str | None = None) -> RuleSetVersion:
    """Return the latest version of a profile (the default profile when none is named).

    Raises RuleProfile.DoesNotExist for an unknown profile.
    """
    profiles = RuleProfile.objects.all()
    profile = profiles.get(slug=profile_slug) if profile_slug else profiles.get(is_default=True)
    return profile.versions.select_related("profile").latest()
