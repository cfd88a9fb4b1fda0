"""Probe archives for tests, composed from the fixture files.

`h200_vm()` holds only REAL output (one H200 VM). `dual_socket_synthetic()` is SYNTHETIC: it
joins real outputs of different machines (public 8-GPU topology, public DIMM listing) with
hand-made lscpu/numactl/nvidia-smi -q text so the parts agree; its name says so.
"""

import io
import tarfile
from pathlib import Path

PROBE = Path(__file__).resolve().parent.parent / "fixtures" / "probe"


def fixture(path: str) -> str:
    return (PROBE / path).read_text(encoding="utf-8")


def tar_gz(files: dict[str, str], folder: str = "probe-node-20261130T000000Z") -> bytes:
    out = io.BytesIO()
    with tarfile.open(fileobj=out, mode="w:gz") as archive:
        for name, text in files.items():
            data = text.encode()
            info = tarfile.TarInfo(f"{folder}/{name}")
            info.size = len(data)
            archive.addfile(info, io.BytesIO(data))
    return out.getvalue()


def h200_vm_files() -> dict[str, str]:
    return {
        "lscpu.json": fixture("h200-vm/lscpu.json"),
        "numactl-hardware.txt": fixture("h200-vm/numactl-hardware.txt"),
        "nvidia-smi-topo.txt": fixture("h200-vm/nvidia-smi-topo.txt"),
        "nvidia-smi-q.xml": fixture("h200-vm/nvidia-smi-q.xml"),
        "hostname.txt": "h200-vm\n",
    }


def lscpu_synthetic(model: str, sockets: int, cores: int, threads: int = 2) -> str:
    fields = [("Model name:", model), ("Socket(s):", str(sockets)),
              ("Core(s) per socket:", str(cores)), ("Thread(s) per core:", str(threads)),
              ("NUMA node(s):", str(sockets))]  # fmt: skip
    return '{"lscpu": [' + ",".join(f'{{"field": "{f}", "data": "{d}"}}' for f, d in fields) + "]}"


def numactl_synthetic(nodes: list[str]) -> str:
    lines = [f"available: {len(nodes)} nodes (0-{len(nodes) - 1})"]
    for n, cpus in enumerate(nodes):
        lines += [f"node {n} cpus: {cpus}", f"node {n} size: 515000 MB", f"node {n} free: 1 MB"]
    return "\n".join(lines) + "\n"


def smi_synthetic(count: int, name: str, *, gen=(4, 4), width=(16, 16), narrow: int = -1) -> str:
    """nvidia-smi -q -x of `count` GPUs (SYNTHETIC), GPU `narrow` at x8."""
    gpus = []
    for i in range(count):
        current = 8 if i == narrow else width[0]
        gpus.append(
            f'<gpu id="00000000:{0x18 + i:02X}:00.0"><product_name>{name}</product_name>'
            "<fb_memory_usage><total>24564 MiB</total></fb_memory_usage>"
            "<pci><pci_gpu_link_info><pcie_gen>"
            f"<max_link_gen>{gen[0]}</max_link_gen><current_link_gen>1</current_link_gen>"
            f"<max_device_link_gen>{gen[1]}</max_device_link_gen></pcie_gen><link_widths>"
            f"<max_link_width>{width[1]}x</max_link_width>"
            f"<current_link_width>{current}x</current_link_width></link_widths>"
            "</pci_gpu_link_info></pci><ecc_mode><current_ecc>N/A</current_ecc></ecc_mode></gpu>"
        )
    return "<nvidia_smi_log>" + "".join(gpus) + "</nvidia_smi_log>"


def dual_socket_synthetic(**smi) -> dict[str, str]:
    """8 × RTX 4090 on 2 × Xeon Gold 6530: the REAL public topology and DIMM listing, with
    SYNTHETIC lscpu/numactl/nvidia-smi -q made to agree with them."""
    return {
        "lscpu.json": lscpu_synthetic("INTEL(R) XEON(R) GOLD 6530", 2, 32),
        "numactl-hardware.txt": numactl_synthetic(["0-55 112-167", "56-111 168-223"]),
        "nvidia-smi-topo.txt": fixture("public/nvidia-smi-topo-8x4090-dual-socket.txt"),
        "nvidia-smi-q.xml": smi_synthetic(8, "NVIDIA GeForce RTX 4090", **smi),
        "dmidecode-memory.txt": fixture("public/dmidecode-memory-ddr4-rdimm.txt") * 1,
    }
