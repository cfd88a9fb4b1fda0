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
import shlex
from collections.abc import Iterable
from dataclasses import dataclass

# A shell parameter's name: what `${NAME}` may hold (POSIX names, nothing else to expand).
PARAMETER_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
# Characters that would end a comment line or that a reader's terminal would act on.
CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f\u2028\u2029]")


# Writing into shell code ------------------------------------------------------------------
# Every value the script holds goes through `shell_word`; text outside code (comments) goes
# through `comment`. Nothing else writes a value into the script.


@dataclass(frozen=True)
class Parameter:
    """A shell parameter the script expands where it runs, such as `${LOCAL_RANK}`."""

    name: str

    def __post_init__(self) -> None:
        if not PARAMETER_NAME.fullmatch(self.name):
            raise ValueError(f"not a shell parameter name: {self.name!r}")


# A value: literal text (or a number), or literal parts joined with expanded parameters.
Word = str | int | tuple[str | int | Parameter, ...]


def shell_word(value: Word) -> str:
    """Return a value as one shell word that means exactly it.

    Literal text is quoted with `shlex.quote` (single quotes: no `$`, backtick, quote or
    newline inside can act); a Parameter becomes `"${NAME}"`, expanded but never split or
    run. NUL cannot be in a shell word (bash drops it): such a value is refused.
    """
    parts = value if isinstance(value, tuple) else (value,)
    words = []
    for part in parts:
        if isinstance(part, Parameter):
            words.append(f'"${{{part.name}}}"')
            continue
        text = str(part)
        if "\x00" in text:
            raise ValueError("a NUL character cannot be written into a shell script")
        if text or len(parts) == 1:
            words.append(shlex.quote(text))
    return "".join(words)


def shown(value: object) -> str:
    """Return a value as a comment shows it: its shell word, on one line."""
    return shell_word(CONTROL.sub(" ", str(value)))


def comment(text: str) -> str:
    """Return text as one comment line: line breaks and other control characters are spaces."""
    return "# " + CONTROL.sub(" ", text)


def refusal_script(reason: str, details: Iterable[str] = ()) -> str:
    """Return the answer of a script that cannot be made: inert when piped into a shell.

    It says why on standard error and exits 1 before any other line; the details (which may
    hold what the caller typed) follow as comments only.
    """
    lines = ["#!/bin/sh", f"printf '%s\\n' {shown(reason)} >&2", "exit 1"]
    lines += [comment(detail) for detail in details]
    return "\n".join(lines) + "\n"


# Layouts ----------------------------------------------------------------------------------


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


def nccl_environment(layout: Layout) -> list[tuple[str, Word, str]]:
    """Return the NCCL environment for the node: (name, value, why)."""
    env: list[tuple[str, Word, str]] = [
        ("CUDA_DEVICE_ORDER", "PCI_BUS_ID", "GPU numbers match nvidia-smi and this binding"),
        ("NCCL_DEBUG", "WARN", "errors and warnings only; INFO to see the rings and trees"),
        (
            "NCCL_TOPO_DUMP_FILE",
            ("/tmp/nccl-topo-", Parameter("LOCAL_RANK"), ".xml"),  # one file per rank
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


def binding_script(layout: Layout, *, title: str) -> str:
    """Return the bash script that binds each local rank to its GPU's socket and cores.

    Every value in it is a `shell_word` and every text a `comment`, so a node's name, a NIC's
    name or a title holds no code; a NUL in one is refused (ValueError).
    """
    ranks = len(layout.gpu_sockets)
    lines = [
        "#!/usr/bin/env bash",
        comment(f"NUMA binding for {shown(title)}"),
        comment("GPU -> socket -> cores, NIC -> socket. Run once per local rank, for example:"),
        comment(f"  torchrun --nproc-per-node {ranks} --no-python ./bind.sh python train.py"),
        comment("or set LOCAL_RANK yourself: LOCAL_RANK=0 ./bind.sh python infer.py"),
        "set -euo pipefail",
        ': "${LOCAL_RANK:?set LOCAL_RANK (torchrun does)}"',
        "",
        comment("NCCL environment"),
    ]
    for name, value, why in nccl_environment(layout):
        lines.append(f"export {name}={shell_word(value)}  {comment(why)}")
    lines += ["", comment("Layout")]
    for socket in layout.sockets:
        gpus = [str(g) for g, s in enumerate(layout.gpu_sockets) if s == socket.index]
        nics = [shown(name) for name, s in zip(layout.nic_names, layout.nic_sockets, strict=False)
                if s == socket.index]  # fmt: skip
        lines.append(
            comment(
                f"  socket {socket.index} (NUMA node {socket.numa_node}): CPUs "
                f"{compact(socket.cpus)}; GPUs {', '.join(gpus) or '-'}; "
                f"NICs {', '.join(nics) or '-'}"
            )
        )
    lines += ["", 'case "${LOCAL_RANK}" in']
    for rank, socket_index in enumerate(layout.gpu_sockets):
        node = layout.sockets[socket_index].numa_node
        cpus = compact(layout.rank_cpus(rank))
        command = " ".join(
            shell_word(word) for word in ("numactl", f"--physcpubind={cpus}", f"--membind={node}")
        )
        lines.append(
            f'  {shell_word(rank)}) exec {command} "$@" ;;  '
            + comment(f'GPU {rank}; or: taskset -c {shell_word(cpus)} "$@"')
        )
    lines += [
        '  *) echo "LOCAL_RANK ${LOCAL_RANK} has no GPU on this node" >&2; exit 1 ;;',
        "esac",
        "",
    ]
    return "\n".join(lines)
