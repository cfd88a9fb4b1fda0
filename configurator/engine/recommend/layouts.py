"""How a GPU count is laid out on a platform: identical nodes, GPUs split over the sockets."""

from __future__ import annotations

import math
from dataclasses import dataclass

from configurator.engine.build import Platform
from configurator.engine.rules import RuleParams


@dataclass(frozen=True, slots=True)
class Layout:
    nodes: int
    per_node: int
    split: tuple[int, ...]


def layout(
    total: int, platform: Platform, rules: RuleParams, *, exact: bool, per_node_cap: int = 0
) -> Layout | None:
    """Spread `total` GPUs over the fewest identical nodes of a platform, or None.

    A socket carries at most `gpus_per_socket_max` GPUs and no more than its slots, a node at
    most `per_node_cap` (0: no cap); `exact` (a GPU count the customer asked for) needs the
    nodes to share the GPUs evenly.
    """
    caps = tuple(min(slots, rules.gpus_per_socket_max) for slots in platform.gpu_slots)
    per_node_max = min(sum(caps), per_node_cap or sum(caps))
    if per_node_max <= 0:
        return None
    nodes = math.ceil(total / per_node_max)
    if exact:
        while nodes <= total and total % nodes:
            nodes += 1
        if nodes > total:
            return None
    per_node = math.ceil(total / nodes)
    return Layout(nodes, per_node, socket_split(per_node, caps))


def socket_split(gpus: int, caps: tuple[int, ...]) -> tuple[int, ...]:
    """Split GPUs over sockets as evenly as their caps allow, fuller sockets first."""
    split = [0] * len(caps)
    for _ in range(gpus):
        open_sockets = [i for i, cap in enumerate(caps) if split[i] < cap]
        split[min(open_sockets, key=lambda i: (split[i], i))] += 1
    return tuple(split)
