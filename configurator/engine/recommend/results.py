"""What the recommender answers: recipes it starts from, priced builds, and why none."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from configurator.engine.build import Build, Mode, Nic, Platform, Workload
from configurator.engine.evaluate import Evaluation
from configurator.engine.performance import Performance
from configurator.engine.pricing import Line
from configurator.engine.shapes import Replicas

if TYPE_CHECKING:
    from configurator.engine.recommend.closest import Closest


@dataclass(frozen=True)
class Scenario:
    """One of the guide's standard pairings (domain.md §3), kept as data by architects."""

    code: str
    name: str
    modes: frozenset[Mode]
    params_min_b: float
    params_max_b: float
    gpu_slugs: tuple[str, ...]
    cpu_slug: str
    platform_slug: str | None = None
    memory_gb: int = 0  # the recipe's RAM; the rules may ask for more
    result: str = ""
    gpus_min: int = 0  # the recipe's GPUs per node, e.g. S1's 2–4; 0: any
    gpus_max: int = 0

    def matches(self, workload: Workload) -> bool:
        return (
            workload.mode in self.modes
            and self.params_min_b <= workload.model_params_b <= self.params_max_b
        )

    def takes(self, gpus_per_node: int, nodes: int) -> bool:
        """Return whether a build of these nodes is the recipe's.

        The recipe describes one node: its GPUs per node in the recipe's range (S1: 2–4).
        Several such nodes are the recipe only for distributed training (S2, S3).
        """
        counted = (not self.gpus_min or gpus_per_node >= self.gpus_min) and (
            not self.gpus_max or gpus_per_node <= self.gpus_max
        )
        return counted and (nodes == 1 or Mode.TRAIN in self.modes)


@dataclass(frozen=True)
class Recommendation:
    build: Build
    platform: Platform
    bom: tuple[Line, ...]  # one node
    evaluation: Evaluation
    monthly_price: float  # all nodes
    why: str  # a Message (engine.messages): rendered in the request's language where shown
    scenario: str | None = None
    nic: Nic | None = None
    psu_scheme: str = ""
    replicas: Replicas | None = None  # inference: the model copies the GPUs hold
    tier: int = 0  # 1: multi-node training off an NVSwitch board, ranked after tier 0
    performance: Performance | None = None  # time, throughput and cost of the work, if any


@dataclass(frozen=True)
class Recommendations:
    builds: tuple[Recommendation, ...]
    reason: str | None  # why no build serves the workload: a Message, as `why`
    explored: int = 0  # complete builds evaluated
    # Without builds, those that come closest to the targets or budget (`closest.Closest`).
    closest: tuple[Closest, ...] = ()


def rank_key(item: Recommendation) -> tuple[int, float, float]:
    """Rank by what the work costs when the workload states it (docs/performance.md).

    With an amount of work: cheapest run, or cheapest million output tokens, first; the
    interconnect is already in that cost. Without: NVSwitch boards first for multi-node
    training, then cheapest per month. Then the better balanced.
    """
    balance = -item.evaluation.balance.overall
    if item.performance is not None:
        return (0, round(item.performance.work_cost, 4), balance)
    return (item.tier, round(item.monthly_price, 2), balance)
