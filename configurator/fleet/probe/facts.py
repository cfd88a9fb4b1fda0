"""One node's hardware facts from its probe files, and what is wrong with the hardware.

The findings here are the ones only a probe can see (the rules engine judges the build the
facts add up to): PCIe links narrower than the GPU's (x8 instead of x16) or capped at an older
generation by the slot, GPUs whose CPU affinity crosses sockets, DIMMs without ECC bits, no
NVLink between GPUs. An idle GPU lowers its link *speed* to save power, so the current speed is
never taken for a downgrade: the generation is the slot's maximum (`max_link_gen`), the width
the current one.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from configurator.fleet.probe import parsers as p
from configurator.fleet.probe.files import FILES, STANDS_IN, present


@dataclass(frozen=True)
class ProbeFinding:
    """A hardware fault or gap a probe shows: a stable code, what it concerns, its numbers."""

    code: str  # pcie_width, pcie_gen, cross_socket, non_ecc, gpu_ecc_off, nvlink_missing,
    #            not_collected, gpu_count_mismatch, topo_cut_short
    subject: str
    params: dict[str, object] = field(default_factory=dict)


@dataclass(frozen=True)
class NodeFacts:
    """What a probe's files show. A partial archive leaves `cpu` None (no lscpu) or `gpus`
    empty (no nvidia-smi -q); `missing` names every file the archive lacks."""

    cpu: p.CpuInfo | None
    gpus: tuple[p.SmiGpu, ...]
    numa: tuple[p.NumaNode, ...] = ()
    topology: p.Topology | None = None
    pci: tuple[p.PciLink, ...] = ()
    memory: p.MemoryInfo | None = None
    nccl: p.NcclRun | None = None
    missing: tuple[str, ...] = ()

    @property
    def nccl_busbw(self) -> float | None:
        """Return the all-reduce bus bandwidth at the largest messages (GB/s), if measured."""
        return self.nccl.plateau_busbw if self.nccl else None

    def gpu_counts(self) -> dict[str, int]:
        """Return how many GPUs each file that lists them shows, by its command."""
        counts = {}
        if "nvidia-smi-q.xml" not in self.missing:
            counts[FILES["nvidia-smi-q.xml"]] = len(self.gpus)
        if self.topology:
            counts[FILES["nvidia-smi-topo.txt"]] = max(
                len(self.topology.gpus), self.topology.column_gpus
            )
        if self.pci:
            counts[FILES["lspci-vv.txt"]] = sum(1 for link in self.pci if link.is_nvidia_gpu)
        return counts

    @property
    def memory_gb(self) -> int:
        """Return installed memory: the DIMMs' sum, else what the NUMA nodes report."""
        if self.memory and self.memory.dimms:
            return round(self.memory.total_gb)
        return round(sum(node.size_mb for node in self.numa) / 1024)

    @property
    def memory_ecc(self) -> bool | None:
        if not self.memory or not self.memory.dimms:
            return None
        dimms = [dimm.ecc for dimm in self.memory.dimms]
        if any(ecc is False for ecc in dimms):
            return False
        return True if all(dimms) else None

    def socket_of_node(self, node: int) -> int:
        """Return the socket a NUMA node belongs to (nodes split evenly, as SNC/NPS do)."""
        sockets = self.cpu.sockets if self.cpu else 1
        nodes = max(self.cpu.numa_nodes if self.cpu else 0, len(self.numa), 1)
        return min(node * sockets // nodes, sockets - 1)

    def socket_cpus(self) -> dict[int, frozenset[int]]:
        """Return each socket's CPUs, from the NUMA nodes."""
        sockets: dict[int, set[int]] = {}
        for node in self.numa:
            sockets.setdefault(self.socket_of_node(node.node), set()).update(node.cpus)
        return {socket: frozenset(cpus) for socket, cpus in sockets.items()}

    def gpu_sockets(self) -> list[set[int]]:
        """Return, for each GPU (topology order), the sockets its CPU affinity touches."""
        if not self.topology:
            return []
        sockets = self.socket_cpus()
        touched = []
        for gpu in self.topology.gpus:
            if gpu.cpu_affinity and sockets:
                touched.append({s for s, cpus in sockets.items() if cpus & gpu.cpu_affinity})
            elif gpu.numa_affinity is not None:
                touched.append({self.socket_of_node(gpu.numa_affinity)})
            else:
                touched.append(set())
        return touched

    def gpus_per_socket(self) -> tuple[int, ...]:
        """Return how many GPUs hang off each socket (a GPU spanning sockets counts on none)."""
        if self.cpu is None:
            return ()
        counts = [0] * self.cpu.sockets
        placed = self.gpu_sockets()
        if not placed:
            per, extra = divmod(len(self.gpus), self.cpu.sockets)
            return tuple(per + (1 if i < extra else 0) for i in range(self.cpu.sockets))
        for sockets in placed:
            if len(sockets) == 1:
                counts[next(iter(sockets))] += 1
        return tuple(counts)

    @property
    def nvlink(self) -> bool:
        return bool(self.topology and self.topology.nvlink_pairs())

    @property
    def pcie_gen(self) -> int | None:
        """Return the lowest PCIe generation a GPU's slot allows."""
        gens = [gpu.link_gen_max for gpu in self.gpus if gpu.link_gen_max]
        return min(gens) if gens else None

    def findings(self) -> list[ProbeFinding]:
        """Return every fault or gap the probe shows, GPU by GPU."""
        found = [ProbeFinding("not_collected", name, {"command": FILES[name]})
                 for name in self.missing]  # fmt: skip
        for gpu in self.gpus:
            if (
                gpu.link_width_current
                and gpu.link_width_max
                and (gpu.link_width_current < gpu.link_width_max)
            ):
                found.append(ProbeFinding("pcie_width", gpu.bus_id, {
                    "width": gpu.link_width_current, "max": gpu.link_width_max}))  # fmt: skip
            # A slot is slow only when it caps what the GPU can reach: a Gen3 GPU in a Gen3
            # slot (T4, V100, Quadro RTX) runs at its own best.
            if (
                gpu.link_gen_max
                and gpu.link_gen_device_max
                and gpu.link_gen_max < gpu.link_gen_device_max
            ):
                found.append(ProbeFinding("pcie_gen", gpu.bus_id, {
                    "gen": gpu.link_gen_max, "device_gen": gpu.link_gen_device_max}))  # fmt: skip
            if gpu.ecc_enabled is False:
                found.append(ProbeFinding("gpu_ecc_off", gpu.bus_id))
        for link in self.pci:
            reported = {f.subject[-7:].lower() for f in found if f.code == "pcie_width"}
            # Narrower than it can be, with or without lspci's "(downgraded)" (pciutils
            # before 3.5 print none).
            narrow = link.width_downgraded or bool(
                link.width and link.cap_width and link.width < link.cap_width
            )
            if link.is_nvidia_gpu and narrow and link.address[-7:] not in reported:
                found.append(ProbeFinding("pcie_width", link.address, {
                    "width": link.width, "max": link.cap_width}))  # fmt: skip
        if self.cpu and self.cpu.sockets > 1:
            for gpu, sockets in zip(self.topology.gpus if self.topology else (),
                                    self.gpu_sockets(), strict=False):  # fmt: skip
                if len(sockets) != 1:
                    found.append(ProbeFinding("cross_socket", gpu.name, {
                        "sockets": len(sockets)}))  # fmt: skip
        if self.memory:
            for dimm in self.memory.dimms:
                if dimm.ecc is False:
                    found.append(ProbeFinding("non_ecc", dimm.locator, {
                        "total": dimm.total_width, "data": dimm.data_width}))  # fmt: skip
        if self.topology and self.topology.cut_short:
            found.append(ProbeFinding("topo_cut_short", FILES["nvidia-smi-topo.txt"], {
                "rows": len(self.topology.devices),
                "columns": len(self.topology.columns)}))  # fmt: skip
        counts = self.gpu_counts()
        if len(set(counts.values())) > 1:
            found.append(ProbeFinding("gpu_count_mismatch", "GPU", {
                "counts": ", ".join(f"{command}: {count}" for command, count in counts.items())
            }))  # fmt: skip
        if len(self.gpus) > 1 and self.topology and not self.nvlink:
            found.append(ProbeFinding("nvlink_missing", f"GPU0-GPU{len(self.gpus) - 1}"))
        return found


# Each probe file's parser (hostname.txt is read as it is).
PARSERS = {
    "lscpu.json": p.parse_lscpu_json,
    "lscpu.txt": p.parse_lscpu_text,
    "numactl-hardware.txt": p.parse_numactl_hardware,
    "nvidia-smi-topo.txt": p.parse_topo,
    "nvidia-smi-q.xml": p.parse_nvidia_smi_xml,
    "lspci-vv.txt": p.parse_lspci,
    "dmidecode-memory.txt": p.parse_dmidecode_memory,
    "nccl-tests.txt": p.parse_nccl_tests,
}


def _optional(files: dict[str, str], name: str):
    text = files.get(name, "")
    if not text.strip():
        return None
    try:
        return PARSERS[name](text)
    except p.ProbeParseError as error:
        error.file = name  # the parser knows the line, only the caller the file
        raise


def node_facts(files: dict[str, str]) -> NodeFacts:
    """Parse a probe archive's files into one node's facts; raise ProbeParseError.

    Any subset of the files is read (a partial probe): what a missing file would show stays
    unknown (`cpu` None, no GPUs, ...) and the file is named in `missing`.
    """
    missing = tuple(name for name in FILES if name not in STANDS_IN and not present(files, name))
    return NodeFacts(
        cpu=_optional(files, present(files, "lscpu.json") or "lscpu.json"),
        gpus=_optional(files, "nvidia-smi-q.xml") or (),
        numa=_optional(files, "numactl-hardware.txt") or (),
        topology=_optional(files, "nvidia-smi-topo.txt"),
        pci=_optional(files, "lspci-vv.txt") or (),
        memory=_optional(files, "dmidecode-memory.txt"),
        nccl=_optional(files, "nccl-tests.txt"),
        missing=missing,
    )
