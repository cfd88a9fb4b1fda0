"""How a build's GPUs sit on a platform: deployable nodes, sockets, replicas and NICs.

The shapes come from `engine/shapes.py` (the same rules the `shape` check applies): a node
carries 1, 2, 4 or 8 GPUs (10 on a PCIe-switch box running data parallel, an SXM board
exactly its 4 or 8), split over the sockets as evenly as their slots allow, at most
`gpus_per_socket_max` each. Training takes the fewest GPUs that hold it and fills nodes of
the largest size whose NICs the platform takes; inference takes whole replicas.

Nodes that exchange traffic (training over several nodes, or an inference replica spanning
nodes) get the fabric of `engine/fabric.py`: a NIC of the required speed per `gpus_per_nic`
GPUs. A NIC sits in a NIC slot or, on a PCIe board, in a GPU slot the node leaves empty (a
double-width x16 slot takes a NIC, under the same switch as its GPUs, as NVIDIA's PCIe
reference nodes place them).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache

from configurator.engine.build import FormFactor, Gpu, Nic, Platform, Workload
from configurator.engine.fabric import NicRequirement
from configurator.engine.rules import RuleParams
from configurator.engine.shapes import (
    Deployment,
    Replicas,
    data_parallel,
    inference_deployment,
    node_sizes,
    training_deployment,
)


@dataclass(frozen=True, slots=True)
class Layout:
    nodes: int
    per_node: int
    split: tuple[int, ...]
    replicas: Replicas | None = None  # inference: how the GPUs serve the model
    nics: int = 0  # per node
    nic: Nic | None = None

    @property
    def total(self) -> int:
        return self.nodes * self.per_node


def socket_caps(platform: Platform, rules: RuleParams) -> tuple[int, ...]:
    """Return the GPUs each socket may carry: its slots, at most `gpus_per_socket_max`."""
    return tuple(min(slots, rules.gpus_per_socket_max) for slots in platform.gpu_slots)


def platform_node_sizes(gpu: Gpu, platform: Platform, rules: RuleParams) -> tuple[int, ...]:
    """Return the deployable GPU counts a node of this platform carries, smallest first."""
    sizes = node_sizes(gpu, pcie_switch=platform.pcie_switch_uplinks > 0)
    if gpu.form_factor is FormFactor.SXM:
        return tuple(size for size in sizes if size == sum(platform.gpu_slots))
    cap = sum(socket_caps(platform, rules))
    return tuple(size for size in sizes if size <= cap)


def nic_positions(platform: Platform, per_node: int) -> int:
    """Return the NICs a node can take: NIC slots, plus the GPU slots a PCIe node leaves empty."""
    if platform.gpu_form_factor is FormFactor.SXM:
        return platform.nic_slots
    return platform.nic_slots + max(sum(platform.gpu_slots) - per_node, 0)


def fabric_sizes(
    sizes: tuple[int, ...], platform: Platform, requirement: NicRequirement
) -> tuple[int, ...]:
    """Return the node sizes whose NICs the platform takes."""
    return tuple(
        size for size in sizes if requirement.nics_for(size) <= nic_positions(platform, size)
    )


@lru_cache(maxsize=256)  # a pure function of a GPU count and a board's few slot caps
def socket_split(gpus: int, caps: tuple[int, ...]) -> tuple[int, ...]:
    """Split GPUs over sockets as evenly as their caps allow, fuller sockets first."""
    split = [0] * len(caps)
    for _ in range(gpus):
        open_sockets = [i for i, cap in enumerate(caps) if split[i] < cap]
        split[min(open_sockets, key=lambda i: (split[i], i))] += 1
    return tuple(split)


def deploy(
    workload: Workload,
    sizes: tuple[int, ...],
    networked: tuple[int, ...],
    *,
    needed: int,
    usable_gb: float,
    max_nodes: int,
    fewest: Callable[[int], int | None] | None = None,
) -> Deployment | None:
    """Return the nodes (and inference replicas) that serve the workload, or None.

    `sizes` are the node sizes a platform takes, `networked` those whose NICs it takes;
    `needed` is the fewest GPUs training takes (sizing). Inference finds its replicas here;
    one that spans nodes needs networked nodes (`served`).
    """
    asked = workload.gpu_count
    if data_parallel(workload):
        return training_deployment(needed, sizes, networked, max_nodes, total=asked)
    return inference_deployment(workload, sizes, usable_gb, max_nodes, total=asked, fewest=fewest)


def served(plan: Deployment, workload: Workload, networked: tuple[int, ...]) -> bool:
    """Return whether the platform takes the NICs a deployment's nodes need."""
    fabric = plan.nodes > 1 and (data_parallel(workload) or plan.spans_nodes)
    return not fabric or plan.per_node in networked


def arrange(
    plan: Deployment,
    workload: Workload,
    platform: Platform,
    rules: RuleParams,
    requirement: NicRequirement,
    nic: Nic | None,
) -> Layout:
    """Return the layout of a deployment on a platform: socket split and the fabric."""
    fabric = plan.nodes > 1 and (data_parallel(workload) or plan.spans_nodes)
    return Layout(
        plan.nodes,
        plan.per_node,
        socket_split(plan.per_node, socket_caps(platform, rules)),
        plan.replicas,
        requirement.nics_for(plan.per_node) if fabric else 0,
        nic if fabric else None,
    )
