"""Reads: catalog rows and rule versions turned into the engine's plain dataclasses."""

from catalog import models as catalog
from configurator.engine import build as engine
from configurator.engine.rules import RuleParams
from configurator.models import RuleProfile, RuleSetVersion


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
    )


def catalog_item_by_slug_or_name(model, value: str):
    """Return the catalog item whose slug, or else whose name, matches (case-insensitively)."""
    value = value.strip()
    item = model.objects.filter(slug=value.lower()).first()
    return item or model.objects.filter(name__iexact=value).first()


def rule_version_current(profile_slug: str | None = None) -> RuleSetVersion:
    """Return the latest version of a profile (the default profile when none is named).

    Raises RuleProfile.DoesNotExist for an unknown profile.
    """
    profiles = RuleProfile.objects.all()
    profile = profiles.get(slug=profile_slug) if profile_slug else profiles.get(is_default=True)
    return profile.versions.select_related("profile").latest()


def rule_params(version: RuleSetVersion) -> RuleParams:
    """Return the engine's parameters for a stored version."""
    return RuleParams.from_mapping(version.parameters)
