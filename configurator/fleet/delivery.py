"""Delivery artefacts of a build, an audited node or a probed node: the binding script."""

from __future__ import annotations

from configurator.engine.build import Build
from configurator.fleet.binding import Layout, Socket, binding_script, layout_for_build
from configurator.fleet.probe.facts import NodeFacts


def build_layout(build: Build) -> Layout:
    """Return the binding layout of a catalog build (Linux's numbering, one node per socket)."""
    return layout_for_build(
        sockets=build.cpu_count,
        cores_per_socket=build.cpu.cores,
        threads_per_core=max(build.cpu.threads // max(build.cpu.cores, 1), 1),
        gpus_per_socket=tuple(build.gpus_per_socket),
        nics=build.nics,
        nvlink=build.nvlink,
    )


def facts_layout(facts: NodeFacts) -> Layout:
    """Return the binding layout a probed node really has: its NUMA nodes and GPU affinities.

    Each NUMA node is a binding target (on SNC/NPS machines a socket holds several); a GPU
    belongs to the node its affinity names, a GPU whose affinity spans nodes to the first.
    """
    nodes = facts.numa or ()
    if not nodes:
        raise ValueError("numactl --hardware is needed for a node's binding")
    sockets = tuple(Socket(i, node.node, tuple(sorted(node.cpus))) for i, node in enumerate(nodes))
    index = {node.node: i for i, node in enumerate(nodes)}
    gpu_sockets = []
    topology_gpus = facts.topology.gpus if facts.topology else ()
    for gpu in topology_gpus:
        if gpu.numa_affinity is not None and gpu.numa_affinity in index:
            gpu_sockets.append(index[gpu.numa_affinity])
        elif gpu.cpu_affinity:
            gpu_sockets.append(
                next((i for i, s in enumerate(sockets) if set(s.cpus) & gpu.cpu_affinity), 0)
            )
        else:
            gpu_sockets.append(0)
    if not topology_gpus:
        gpu_sockets = [0] * len(facts.gpus)
    nics = facts.topology.nics if facts.topology else ()
    nic_sockets = []
    for nic in nics:  # a NIC belongs to the node of the GPUs it sits beside (PIX/PXB/PHB)
        near = [
            gpu_sockets[g]
            for g, gpu in enumerate(topology_gpus)
            if gpu.links.get(nic.name) in ("PIX", "PXB", "PHB", "NODE")
        ]
        nic_sockets.append(near[0] if near else 0)
    return Layout(
        sockets=sockets,
        gpu_sockets=tuple(gpu_sockets),
        nic_sockets=tuple(nic_sockets),
        nic_names=tuple(nic.name for nic in nics),
        nvlink=facts.nvlink,
        threads_per_core=facts.cpu.threads_per_core,
    )


def build_script(build: Build, title: str) -> str:
    return binding_script(build_layout(build), title=title)


def facts_script(facts: NodeFacts, title: str) -> str:
    return binding_script(facts_layout(facts), title=title)
