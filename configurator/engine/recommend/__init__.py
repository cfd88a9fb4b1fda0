"""Recommend builds for a workload: the cheapest accepted build of each GPU type, ranked.

For every offered GPU the search takes the fewest GPUs that hold the workload (`sizing`), lays
them out on each platform that takes the GPU (`layouts`), completes each CPU the platform takes
with the cheapest memory population the rules require, the network cards multi-node training
needs and the cheapest redundant PSUs that cover the power need (`parts`), and judges every
complete build by `evaluate` — the same engine the API uses — keeping only accepted builds
(`search`). `explain` says why each build serves the workload, or why none does.
"""

from configurator.engine.recommend.layouts import Layout, arrange, deploy, socket_split
from configurator.engine.recommend.parts import (
    MemoryChoice,
    PsuChoice,
    cheapest_memory,
    cheapest_nic,
    cheapest_psus,
)
from configurator.engine.recommend.results import (
    Line,
    Recommendation,
    Recommendations,
    Scenario,
    rank_key,
)
from configurator.engine.recommend.search import recommend

__all__ = [
    "Layout",
    "Line",
    "MemoryChoice",
    "PsuChoice",
    "Recommendation",
    "Recommendations",
    "Scenario",
    "arrange",
    "cheapest_memory",
    "cheapest_nic",
    "cheapest_psus",
    "deploy",
    "rank_key",
    "recommend",
    "socket_split",
]
