"""Probe archives for tests, composed from the fixture files.

`h200_vm()` holds only REAL output (one H200 VM). `dual_socket_synthetic()` is SYNTHETIC: it
joins real outputs of different machines (public 8-GPU topology, public DIMM listing) with
hand-made lscpu/numactl/nvidia-smi -q text so the parts agree; its name says so.
"""

import gzip
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


# Hostile archives (docs/reliability.md "Hostile probe archives") ------------------------------
# Each is small on the wire; each once cost a worker hundreds of MB or tens of seconds. They are
# written as raw tar blocks into a streaming gzip, so building one never holds its unpacked size.


def _header(name: str, size: int = 0, kind: bytes = tarfile.REGTYPE) -> bytes:
    info = tarfile.TarInfo(name)
    info.size, info.type, info.mtime = size, kind, 0
    return info.tobuf(format=tarfile.GNU_FORMAT)


def _member(name: str, data: bytes) -> bytes:
    return _header(name, len(data)) + data + b"\0" * (-len(data) % tarfile.BLOCKSIZE)


def _gzip(blocks) -> bytes:
    out = io.BytesIO()
    with gzip.GzipFile(fileobj=out, mode="wb", compresslevel=9, mtime=0) as packed:
        for block in blocks:
            packed.write(block)
    return out.getvalue()


def _real_members(folder: str = "probe-node") -> bytes:
    files = h200_vm_files()
    return b"".join(_member(f"{folder}/{name}", text.encode()) for name, text in files.items())


def _end() -> bytes:
    return b"\0" * (2 * tarfile.BLOCKSIZE)


def numactl_range_files(end: int = 3_000_000) -> dict[str, str]:
    """The real H200 VM's files with numactl's CPU list made `0-<end>` (a 30-byte line)."""
    files = h200_vm_files()
    files["numactl-hardware.txt"] = files["numactl-hardware.txt"].replace(
        "node 0 cpus: 0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15", f"node 0 cpus: 0-{end}"
    )
    return files


def empty_entries_archive(count: int | None = None, *, packed_bytes: int = 660_000) -> bytes:
    """Empty member headers (`count`, or as many as pack into `packed_bytes`), then real files."""
    out = io.BytesIO()
    header = _header("probe-node/empty")
    batch = header * 1024
    with gzip.GzipFile(fileobj=out, mode="wb", compresslevel=9, mtime=0) as packed:
        written = 0
        while (count is None and out.tell() < packed_bytes) or (count and written < count):
            step = 1024 if count is None else min(1024, count - written)
            packed.write(batch if step == 1024 else header * step)
            written += step
        packed.write(_real_members() + _end())
    return out.getvalue()


def gnu_long_name_archive(name_bytes: int = 300 * 2**20) -> bytes:
    """A GNU long-name header ('L') announcing a `name_bytes` name, then the real files."""

    def blocks():
        yield _header("././@LongLink", name_bytes, tarfile.GNUTYPE_LONGNAME)
        chunk = b"a" * 2**20
        for start in range(0, name_bytes, len(chunk)):
            yield chunk[: name_bytes - start]
        yield b"\0" * (-name_bytes % tarfile.BLOCKSIZE)
        yield _real_members() + _end()

    return _gzip(blocks())


def pax_header_archive(header_bytes: int = 300 * 2**20) -> bytes:
    """A PAX extended header ('x') of one `header_bytes` path record, then the real files."""

    def blocks():
        # A record is "<length> path=<value>\n", its length counting its own digits.
        digits = len(str(header_bytes))
        value = header_bytes - digits - len(" path=\n")
        yield _header("././@PaxHeader", header_bytes, tarfile.XHDTYPE)
        yield f"{header_bytes} path=".encode()
        chunk = b"a" * 2**20
        for start in range(0, value, len(chunk)):
            yield chunk[: value - start]
        yield b"\n" + b"\0" * (-header_bytes % tarfile.BLOCKSIZE)
        yield _real_members() + _end()

    return _gzip(blocks())


def huge_skipped_member_archive(member_bytes: int = 2**30) -> bytes:
    """A member no parser reads (`probe-node/junk`) of `member_bytes` zeros, then the real files."""

    def blocks():
        yield _header("probe-node/junk", member_bytes)
        chunk = b"\0" * 2**20
        for start in range(0, member_bytes, len(chunk)):
            yield chunk[: member_bytes - start]
        yield b"\0" * (-member_bytes % tarfile.BLOCKSIZE)
        yield _real_members() + _end()

    return _gzip(blocks())


def nul_files() -> dict[str, str]:
    """The real H200 VM's files with a NUL in the hostname and in a line no parser reads."""
    files = h200_vm_files()
    files["hostname.txt"] = "h200\x00vm\n"
    files["nvidia-smi-topo.txt"] += "\x00\n"
    return files


def long_name_chain_archive(count: int) -> bytes:
    """`count` GNU long-name headers in a row (tarfile follows each by recursion), then files."""
    name = b"probe-node/lscpu.json\0"
    chain = (_header("././@LongLink", len(name), tarfile.GNUTYPE_LONGNAME) + name
             + b"\0" * (-len(name) % tarfile.BLOCKSIZE)) * count  # fmt: skip
    return _gzip([chain, _real_members(), _end()])


def sparse_member_archive() -> bytes:
    """lscpu.json as a GNU sparse member ('S'), whose map tarfile reads block by block."""
    data = fixture("h200-vm/lscpu.json").encode()
    header = _header("probe-node/lscpu.json", len(data), tarfile.GNUTYPE_SPARSE)
    return _gzip([header, data, b"\0" * (-len(data) % tarfile.BLOCKSIZE), _real_members(), _end()])
