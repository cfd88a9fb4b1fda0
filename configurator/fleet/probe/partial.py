"""A probe's facts as api.md's node-probe answer gives them, for any subset of the files.

Each fact comes from the files that show it (`FACT_FILES`, first the one read first). A fact
no file in the archive shows is None, and the files that would show it are named: nothing is
filled in with a default, an even split or the catalog's value. Whether the facts suffice
for a rules verdict is `verdict_gaps`: the facts the engine's build is made of.
"""

from __future__ import annotations

from configurator.fleet.probe.facts import NodeFacts

# Which probe files show each fact (api.md, "node probes"); a fact is known from any of them.
FACT_FILES: dict[str, tuple[str, ...]] = {
    "cpu": ("lscpu.json",),
    "cpu_model": ("lscpu.json",),
    "sockets": ("lscpu.json",),
    "threads": ("lscpu.json",),
    "numa_nodes": ("numactl-hardware.txt", "lscpu.json"),
    "gpu": ("nvidia-smi-q.xml",),
    "gpu_model": ("nvidia-smi-q.xml",),
    "gpu_count": ("nvidia-smi-q.xml", "nvidia-smi-topo.txt", "lspci-vv.txt"),
    # where each GPU sits: the sockets (lscpu), each GPU's CPUs or node (topo -m), the
    # nodes' CPUs (numactl); one socket needs only lscpu and a GPU count
    "gpus_per_socket": ("lscpu.json", "nvidia-smi-topo.txt", "numactl-hardware.txt"),
    "gpu_numa": ("nvidia-smi-topo.txt", "lspci-vv.txt"),
    "links": ("nvidia-smi-q.xml", "lspci-vv.txt"),
    "nvlink": ("nvidia-smi-topo.txt",),
    "memory_gb": ("dmidecode-memory.txt", "numactl-hardware.txt"),
    "numa_memory_gb": ("numactl-hardware.txt",),
    "memory_ecc": ("dmidecode-memory.txt",),
    "allreduce_busbw_gbs": ("nccl-tests.txt",),
    "gpu_nics": ("nvidia-smi-topo.txt",),
}
# The facts a build for the rules is made of: without one of them there is no verdict.
# Memory ECC is not among them: the build is judged both ways, and a verdict the two agree on
# is a fact (probe_report); the slot's PCIe generation comes with the GPUs.
VERDICT_FACTS = ("cpu", "sockets", "gpu", "gpu_count", "gpus_per_socket", "memory_gb", "nvlink")
# PCIe transfer rate per lane (GT/s, lspci's "Speed") to its generation.
GEN_OF_SPEED = {2.5: 1, 5.0: 2, 8.0: 3, 16.0: 4, 32.0: 5, 64.0: 6}


def _gpu_count(facts: NodeFacts) -> int | None:
    if "nvidia-smi-q.xml" not in facts.missing:
        return len(facts.gpus)
    if facts.topology and facts.topology.gpus:
        return len(facts.topology.gpus)
    gpus = [link for link in facts.pci if link.is_nvidia_gpu]
    return len(gpus) if gpus else None


def _gpus_per_socket(facts: NodeFacts, gpu_count: int | None) -> list[int] | None:
    if facts.cpu is None or gpu_count is None:
        return None
    if facts.cpu.sockets == 1:
        return [gpu_count]
    if not facts.topology or not facts.topology.gpus or facts.topology.cut_short:
        return None
    placed = facts.gpu_sockets()
    if any(not sockets for sockets in placed):  # a GPU whose socket no file tells
        return None
    return list(facts.gpus_per_socket())


def _gpu_numa(facts: NodeFacts) -> list[int | None] | None:
    nodes: list[int | None] = []
    if facts.topology and facts.topology.gpus:
        for gpu in facts.topology.gpus:
            node = gpu.numa_affinity
            if node is None and gpu.cpu_affinity:
                node = next((n.node for n in facts.numa if gpu.cpu_affinity <= n.cpus), None)
            nodes.append(node)
    else:
        nodes = [link.numa_node for link in facts.pci if link.is_nvidia_gpu]
    return nodes if any(node is not None for node in nodes) else None


def _links(facts: NodeFacts) -> list[dict[str, object]] | None:
    """Return each GPU's link: `gen` the slot allows, `width` the current one (an idle GPU
    lowers its speed, never its width), `max_gen`/`max_width` what the GPU itself can do."""
    if facts.gpus:
        return [
            {"gpu": gpu.bus_id, "gen": gpu.link_gen_max, "width": gpu.link_width_current,
             "max_gen": gpu.link_gen_device_max, "max_width": gpu.link_width_max}
            for gpu in facts.gpus
        ]  # fmt: skip
    gpus = [link for link in facts.pci if link.is_nvidia_gpu]
    if not gpus:
        return None
    return [
        {"gpu": link.address, "gen": None, "width": link.width,
         "max_gen": GEN_OF_SPEED.get(link.cap_speed_gts or 0.0), "max_width": link.cap_width}
        for link in gpus
    ]  # fmt: skip


def _gpu_nics(facts: NodeFacts) -> list[dict[str, str | None]] | None:
    """Return each GPU row's nearest NIC and its path class (`Topology.nearest_nic`); None
    without `nvidia-smi topo -m` or when it names no NIC."""
    topology = facts.topology
    if not topology or not topology.nic_columns:
        return None
    out: list[dict[str, str | None]] = []
    for gpu in topology.gpus:
        nic, path = topology.nearest_nic(gpu) or (None, None)
        out.append({"gpu": gpu.name, "nic": nic, "path": path})
    return out


def facts_out(facts: NodeFacts, *, cpu_slug: str | None, gpu_slug: str | None) -> dict[str, object]:
    """Return api.md's `facts`: every fact the files show, None for the rest."""
    cpu = facts.cpu
    gpu_count = _gpu_count(facts)
    has_memory = bool((facts.memory and facts.memory.dimms) or facts.numa)
    return {
        "cpu": cpu_slug,
        "cpu_model": cpu.model if cpu else None,
        "sockets": cpu.sockets if cpu else None,
        "threads": cpu.threads if cpu else None,
        "numa_nodes": len(facts.numa) if facts.numa else (cpu.numa_nodes if cpu else None),
        "gpu": gpu_slug,
        "gpu_model": ", ".join(sorted({gpu.name for gpu in facts.gpus})) or None,
        "gpu_count": gpu_count,
        "gpus_per_socket": _gpus_per_socket(facts, gpu_count),
        "gpu_numa": _gpu_numa(facts),
        "links": _links(facts),
        # one GPU has nothing to join: no topology is needed to know it has no NVLink
        "nvlink": facts.nvlink if facts.topology else (False if gpu_count == 1 else None),
        "memory_gb": facts.memory_gb if has_memory else None,
        # each NUMA node's memory (numactl's size: usable, a little below what is installed)
        "numa_memory_gb": [round(node.size_mb / 1024) for node in facts.numa] or None,
        "memory_ecc": facts.memory_ecc,
        "allreduce_busbw_gbs": facts.nccl_busbw,
        # each GPU's nearest NIC and its PCIe path class (PIX, PXB, PHB, NODE, SYS)
        "gpu_nics": _gpu_nics(facts),
    }


def unknown_facts(out: dict[str, object], missing: tuple[str, ...]) -> list[dict[str, object]]:
    """Return each fact that is None because a file is missing, with the files that would
    show it (those the archive lacks)."""
    unknown = []
    for fact, files in FACT_FILES.items():
        lacking = [name for name in files if name in missing]
        if out.get(fact) is None and lacking:
            unknown.append({"fact": fact, "files": lacking})
    return unknown


def verdict_gaps(out: dict[str, object]) -> list[str]:
    """Return the facts a rules verdict needs that are not known ([]: a verdict can be made)."""
    return [fact for fact in VERDICT_FACTS if out.get(fact) is None]
