"""The guide's scenario recipes (S1–S3, data in the Scenario table) as concrete node builds.

A recipe names a CPU, its GPU models, a GPU count range ("2–4"), a platform and its RAM. Its
build here is the recipe taken literally at the top of its GPU range, for each of its GPUs:
two CPUs, the recipe's RAM in ECC DIMMs, NVLink where the GPU and platform have it, and the
usable PSU output the power budget asks for under the given rules. The rule-change impact
and the delivery artefacts both start from these builds.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from configurator.engine.build import Build
from configurator.engine.catalog import Catalog
from configurator.engine.power import power_budget
from configurator.engine.rules import RuleParams
from configurator.models import Scenario
from configurator.selectors import gpu_count_range


@dataclass(frozen=True)
class RecipeBuild:
    code: str
    name: str  # as written in the recipe's row; shown through `translation.written`
    build: Build

    @property
    def label(self) -> str:
        return f"{self.code} · {self.build.gpu_count} × {self.build.gpu.name}"


def recipe_builds(catalog: Catalog, rules: RuleParams) -> list[RecipeBuild]:
    """Return a build for each active recipe and each of its GPU models."""
    found = []
    rows = Scenario.objects.filter(active=True).select_related("cpu", "platform")
    for row in rows.prefetch_related("gpus").order_by("code"):
        cpu = catalog.find("cpus", row.cpu.slug)
        platform = catalog.find("platforms", row.platform.slug) if row.platform else None
        for gpu_row in sorted(row.gpus.all(), key=lambda g: g.slug):
            gpu = catalog.find("gpus", gpu_row.slug)
            _, most = gpu_count_range(row.gpu_count)  # the top of "4–8"
            count = most or (platform and sum(platform.gpu_slots)) or 8
            if cpu is None or gpu is None:
                continue
            sockets = 2 if cpu.max_sockets >= 2 else 1
            draft = Build.assemble(
                cpu=cpu,
                cpu_count=sockets,
                gpu=gpu,
                gpu_count=count,
                memory_gb=row.memory_gb,
                memory_ecc=True,
                psu_watts=0,
                nvlink=gpu.has_nvlink and (platform is None or platform.nvlink != "none"),
                platform=platform,
            )
            build = replace(draft, psu_watts=power_budget(draft, rules).required_w)
            found.append(RecipeBuild(row.code, row.name, build))
    return found
