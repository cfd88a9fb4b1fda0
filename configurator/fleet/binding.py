"""Delivery artefact: a node's NUMA binding (GPU → socket → cores, NIC → socket) as a script.

The script runs once per local rank (torchrun's `--no-python` hands it LOCAL_RANK) and
`exec`s the training command under `numactl`, bound to the cores and memory of the socket
the rank's GPU hangs off; the cores of a socket are split evenly among its GPUs so no two
ranks share a core. `CUDA_DEVICE_ORDER=PCI_BUS_ID` makes CUDA number the GPUs as
`nvidia-smi` does, so GPU n of the script is GPU n of `nvidia-smi topo -m`.

Plain Python, no Django: the layout comes from a build (catalog CPU, GPUs per socket) or from
a probed node's real NUMA nodes and GPU affinities.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

# What a device name may hold once inside the script: no quote, `$`, backtick or newline can
# come from a probe's files (NIC names, host names) into shell code.
SAFE_NAME = re.compile(r"[^A-Za-z0-9_.:-]")


@dataclass(frozen=True)
class Socket:
    index: int
    numa_node: int
    cpus: tuple[int, ...]  # logical CPUs: physical cores first, then their SMT siblings


@dataclass(frozen=True)
class Layout:
    """Which socket each GPU and each NIC belongs to, and each socket's CPUs."""

    sockets: tuple[Socket, ...]
    gpu_sockets: tuple[int, ...]  # per GPU, by index
    nic_sockets: tuple[int, ...] = ()
    nic_names: tuple[str, ...] = ()
    nvlink: bool = False
    threads_per_core: int = 1

    def rank_cpus(self, rank: int) -> tuple[int, ...]:
        """Return the CPUs of one local rank: an even share of its socket's cores.

        A socket's CPUs are its physical cores, then one block of SMT siblings per extra
        thread; a rank gets the same slice of each block (a core and its sibling together).
        """
        socket = self.gpu_sockets[rank]
        peers = [gpu for gpu, s in enumerate(self.gpu_sockets) if s == socket]
        cpus = self.sockets[socket].cpus
        threads = self.threads_per_core if len(cpus) % self.threads_per_core == 0 else 1
        cores = len(cpus) // threads
        per = cores // len(peers)
        if per == 0:
            return cpus  # fewer cores than GPUs: the ranks share the socket
        start = peers.index(rank) * per
        chosen: list[int] = []
        for block in range(threads):
            chosen += cpus[block * cores + start : block * cores + start + per]
        return tuple(chosen)


def compact(cpus: tuple[int, ...] | list[int]) -> str:
    """Return a CPU list in Linux notation: (0, 1, 2, 5) -> "0-2,5"."""
    ordered = sorted(set(cpus))
    parts, start = [], None
    for i, cpu in enumerate(ordered):
        if start is None:
            start = cpu
        if i + 1 == len(ordered) or ordered[i + 1] != cpu + 1:
            parts.append(str(start) if start == cpu else f"{start}-{cpu}")
            start = None
    return ",".join(parts)


def layout_for_build(
    *,
    sockets: int,
    cores_per_socket: int,
    threads_per_core: int,
    gpus_per_socket: tuple[int, ...],
    nics: int = 0,
    nvlink: bool = False,
) -> Layout:
    """Return the layout Linux gives a dual-socket node: socket s has cores s·C … (s+1)·C − 1.

    With SMT the siblings follow all physical cores (socket s: total + s·C …), as Linux
    numbers them on Xeon and EPYC servers with one NUMA node per socket (the probe reads the
    real numbering when a node is at hand).
    """
    total = sockets * cores_per_socket
    socket_list = []
    for s in range(sockets):
        cpus = list(range(s * cores_per_socket, (s + 1) * cores_per_socket))
        for thread in range(1, threads_per_core):
            base = thread * total + s * cores_per_socket
            cpus += list(range(base, base + cores_per_socket))
        socket_list.append(Socket(s, s, tuple(cpus)))
    gpu_sockets = tuple(s for s, count in enumerate(gpus_per_socket) for _ in range(count))
    nic_sockets = tuple(min(i * sockets // max(nics, 1), sockets - 1) for i in range(nics))
    return Layout(
        tuple(socket_list),
        gpu_sockets,
        nic_sockets,
        tuple(f"mlx5_{i}" for i in range(nics)),
        nvlink,
        threads_per_core,
    )


def nccl_environment(layout: Layout) -> list[tuple[str, str, str]]:
    """Return the NCCL environment for the node: (name, value, why)."""
    env = [
        ("CUDA_DEVICE_ORDER", "PCI_BUS_ID", "GPU numbers match nvidia-smi and this binding"),
        ("NCCL_DEBUG", "WARN", "errors and warnings only; INFO to see the rings and trees"),
        (
            "NCCL_TOPO_DUMP_FILE",
            "/tmp/nccl-topo-${LOCAL_RANK}.xml",
            "the topology NCCL detected, to check against this binding",
        ),
    ]
    if layout.nic_names:
        env.append(
            (
                "NCCL_IB_HCA",
                ",".join(f"={name}" for name in layout.nic_names),
                "only these InfiniBand/RoCE ports (names as ibv_devices lists them)",
            )
        )
        env.append(
            ("NCCL_NET_GDR_LEVEL", "PHB", "GPUDirect RDMA when GPU and NIC share a host bridge")
        )
    if not layout.nvlink and len(layout.gpu_sockets) > 1:
        env.append(
            ("NCCL_P2P_LEVEL", "NODE", "no NVLink: PCIe peer-to-peer within a NUMA node only")
        )
    return env


def safe_name(name: str) -> str:
    """Return a device name fit for shell code: anything unexpected becomes `_`."""
    return SAFE_NAME.sub("_", name)


def binding_script(layout: Layout, *, title: str) -> str:
    """Return the bash script that binds each local rank to its GPU's socket and cores."""
    title = " ".join(title.split())  # one comment line, whatever the node's name holds
    layout = Layout(
        layout.sockets, layout.gpu_sockets, layout.nic_sockets,
        tuple(safe_name(name) for name in layout.nic_names), layout.nvlink,
        layout.threads_per_core,
    )  # fmt: skip
    lines = [
        "#!/usr/bin/env bash",
        f"# NUMA binding for {title}",
        "# GPU -> socket -> cores, NIC -> socket. Run once per local rank, for example:",
        "#   torchrun --nproc-per-node "
        f"{len(layout.gpu_sockets)} --no-python ./bind.sh python train.py",
        "# or set LOCAL_RANK yourself: LOCAL_RANK=0 ./bind.sh python infer.py",
        "set -euo pipefail",
        ': "${LOCAL_RANK:?set LOCAL_RANK (torchrun does)}"',
        "",
        "# NCCL environment",
    ]
    for name, value, why in nccl_environment(layout):
        lines.append(f'export {name}="{value}"  # {why}')
    lines += ["", "# Layout"]
    for socket in layout.sockets:
        gpus = [str(g) for g, s in enumerate(layout.gpu_sockets) if s == socket.index]
        nics = [layout.nic_names[n] for n, s in enumerate(layout.nic_sockets) if s == socket.index]
        lines.append(
            f"#   socket {socket.index} (NUMA node {socket.numa_node}): CPUs "
            f"{compact(socket.cpus)}; GPUs {', '.join(gpus) or '-'}; NICs {', '.join(nics) or '-'}"
        )
    lines += ["", 'case "${LOCAL_RANK}" in']
    for rank, socket_index in enumerate(layout.gpu_sockets):
        node = layout.sockets[socket_index].numa_node
        cpus = compact(layout.rank_cpus(rank))
        lines.append(
            f'  {rank}) exec numactl --physcpubind={cpus} --membind={node} "$@" ;;'
            f'  # GPU {rank}; or: taskset -c {cpus} "$@"'
        )
    lines += [
        '  *) echo "LOCAL_RANK ${LOCAL_RANK} has no GPU on this node" >&2; exit 1 ;;',
        "esac",
        "",
    ]
    return "\n".join(lines)
