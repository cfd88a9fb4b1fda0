"""Time, throughput and cost of the work a build does (docs/performance.md has the derivation).

- `serving`: the steady-state continuous-batching round of a replica under the users given,
  with queueing when they exceed what its KV cache holds: TTFT, TPOT and tokens per second.
- `training`: a tensor, pipeline and data-parallel layout per build, its bubbles and traffic.
- `efficiency`: the share of the datasheet peak each phase sustains, by GPU generation and
  precision, each figure beside the published runs it is read from.
- `losses`: a pitfall's cost, counted once.
- `work`: the figures of a workload on a build, the modelled losses, and the GPUs a deadline
  or target needs.

Cost: a month is 730 hours (365 × 24 / 12); cost per run = monthly price × hours / 730; cost
per million output tokens = monthly price / (tokens/s · 730 · 3600) · 10⁶.
"""

from configurator.engine.performance.common import (
    ALL_REDUCE_LATENCY_S,
    CURRENCY,
    HOURS_PER_MONTH,
    PCIE_X16_GBS,
    SECONDS_PER_DAY,
    Cluster,
    Interconnect,
    Node,
    Performance,
    gpu_rent_note,
    interconnect,
    mfu,
    served_note,
)
from configurator.engine.performance.losses import (
    BALANCE_LOSS,
    BALANCED_UTILISATION,
    LOSSES,
    MODELLED,
    Loss,
    cpu_latency_s,
    loss_factor,
    monthly_losses,
)
from configurator.engine.performance.serving import (
    Replica,
    held_workload,
    inference,
    replica_plans,
    served_workload,
    weights_read,
)
from configurator.engine.performance.training import training
from configurator.engine.performance.work import (
    clear_memos,
    gpu_seconds_floor,
    gpus_for_work,
    has_target,
    modelled_losses,
    performance,
)

__all__ = [
    "ALL_REDUCE_LATENCY_S",
    "BALANCED_UTILISATION",
    "BALANCE_LOSS",
    "CURRENCY",
    "HOURS_PER_MONTH",
    "LOSSES",
    "MODELLED",
    "PCIE_X16_GBS",
    "SECONDS_PER_DAY",
    "Cluster",
    "Interconnect",
    "Loss",
    "Node",
    "Performance",
    "Replica",
    "clear_memos",
    "cpu_latency_s",
    "gpu_rent_note",
    "gpu_seconds_floor",
    "gpus_for_work",
    "has_target",
    "held_workload",
    "inference",
    "interconnect",
    "loss_factor",
    "mfu",
    "modelled_losses",
    "monthly_losses",
    "performance",
    "replica_plans",
    "served_note",
    "served_workload",
    "training",
    "weights_read",
]
