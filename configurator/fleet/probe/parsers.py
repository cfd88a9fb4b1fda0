"""Parsers of the probe commands' output, each tested on real output (tests/fixtures/probe).

Plain Python: no Django import, so they run anywhere the archive is read.
"""

from __future__ import annotations

import json
import re
import xml.etree.ElementTree as ET
from dataclasses import dataclass, field

ANSI = re.compile(r"\x1b\[[0-9;]*m")
BDF = re.compile(r"^(?:[0-9a-fA-F]{4,8}:)?[0-9a-fA-F]{2}:[0-9a-fA-F]{2}\.[0-7]\b")


class ProbeParseError(ValueError):
    """A command's output is not what that command prints."""


def cpu_list(text: str) -> frozenset[int]:
    """Return the CPUs of a Linux CPU list such as "0-55,112-167"."""
    cpus: set[int] = set()
    for part in text.replace(" ", "").split(","):
        if not part or part.upper() == "N/A":
            continue
        low, _, high = part.partition("-")
        if not low.isdigit() or (high and not high.isdigit()):
            raise ProbeParseError(f"not a CPU list: {text!r}")
        cpus.update(range(int(low), int(high or low) + 1))
    return frozenset(cpus)


# lscpu -J -------------------------------------------------------------------------------


@dataclass(frozen=True)
class CpuInfo:
    model: str
    sockets: int
    cores_per_socket: int
    threads_per_core: int
    numa_nodes: int
    vendor: str = ""

    @property
    def threads(self) -> int:
        return self.sockets * self.cores_per_socket * self.threads_per_core


def _lscpu_fields(entries: list[dict]) -> dict[str, str]:
    found: dict[str, str] = {}
    for entry in entries:
        name = str(entry.get("field", "")).strip().rstrip(":")
        found.setdefault(name, str(entry.get("data", "")).strip())
        found.update(
            {k: v for k, v in _lscpu_fields(entry.get("children", [])).items() if k not in found}
        )
    return found


def parse_lscpu_json(text: str) -> CpuInfo:
    """Read `lscpu -J` (flat, or nested in children as util-linux ≥ 2.38 prints it)."""
    try:
        entries = json.loads(text)["lscpu"]
    except (ValueError, KeyError, TypeError) as error:
        raise ProbeParseError("not the JSON of lscpu -J") from error
    values = _lscpu_fields(entries)

    def number(name: str, default: int | None = None) -> int:
        value = values.get(name, "")
        if value.isdigit():
            return int(value)
        if default is not None:
            return default
        raise ProbeParseError(f"lscpu -J has no {name!r}")

    return CpuInfo(
        model=values.get("Model name", ""),
        vendor=values.get("Vendor ID", ""),
        sockets=number("Socket(s)"),
        cores_per_socket=number("Core(s) per socket"),
        threads_per_core=number("Thread(s) per core", 1),
        numa_nodes=number("NUMA node(s)", 1),
    )


# numactl --hardware ---------------------------------------------------------------------


@dataclass(frozen=True)
class NumaNode:
    node: int
    cpus: frozenset[int]
    size_mb: int


def parse_numactl_hardware(text: str) -> tuple[NumaNode, ...]:
    """Read `numactl --hardware`: each node's CPUs and memory size."""
    cpus: dict[int, frozenset[int]] = {}
    sizes: dict[int, int] = {}
    for line in text.splitlines():
        if match := re.match(r"node (\d+) cpus:(.*)$", line.strip()):
            cpus[int(match[1])] = cpu_list(",".join(match[2].split()))
        elif match := re.match(r"node (\d+) size: (\d+) MB", line.strip()):
            sizes[int(match[1])] = int(match[2])
    if not cpus:
        raise ProbeParseError("numactl --hardware lists no node")
    return tuple(NumaNode(n, cpus[n], sizes.get(n, 0)) for n in sorted(cpus))


# nvidia-smi topo -m ----------------------------------------------------------------------


@dataclass(frozen=True)
class TopoDevice:
    name: str
    links: dict[str, str]  # other device -> connection (X, NV18, SYS, NODE, PHB, PXB, PIX)
    cpu_affinity: frozenset[int] | None = None
    numa_affinity: int | None = None

    @property
    def is_gpu(self) -> bool:
        return self.name.startswith("GPU")


@dataclass(frozen=True)
class Topology:
    devices: tuple[TopoDevice, ...]

    @property
    def gpus(self) -> tuple[TopoDevice, ...]:
        return tuple(device for device in self.devices if device.is_gpu)

    @property
    def nics(self) -> tuple[TopoDevice, ...]:
        return tuple(device for device in self.devices if not device.is_gpu)

    def nvlink_pairs(self) -> int:
        """Return how many GPU pairs are joined by NVLink (NV#)."""
        names = {gpu.name for gpu in self.gpus}
        return sum(
            1
            for gpu in self.gpus
            for other, link in gpu.links.items()
            if other in names and other > gpu.name and link.startswith("NV")
        )


def _cells(line: str) -> list[str]:
    if "\t" in line:
        return [cell.strip() for cell in line.split("\t")]
    return [cell.strip() for cell in re.split(r"\s{2,}", line)]


def parse_topo(text: str) -> Topology:
    """Read `nvidia-smi topo -m`: the link matrix, and each GPU's CPU and NUMA affinity."""
    lines = [ANSI.sub("", line).rstrip("\n") for line in text.splitlines()]
    start = next((i for i, line in enumerate(lines) if re.search(r"\bGPU0\b", line)), None)
    if start is None:
        raise ProbeParseError("nvidia-smi topo -m shows no GPU0 column")
    header = [cell for cell in _cells(lines[start]) if cell]
    devices = []
    for line in lines[start + 1 :]:
        if not line.strip() or line.strip().startswith("Legend"):
            break
        cells = _cells(line)
        if "\t" in line:
            name, values = cells[0], cells[1:]
        else:  # space-separated: the first cell holds the name
            name, values = cells[0], cells[1:]
        links = {}
        for column, value in zip(header, values, strict=False):
            if column in ("CPU Affinity", "NUMA Affinity", "GPU NUMA ID"):
                continue
            links[column] = value
        named = dict(zip(header, values, strict=False))
        affinity = named.get("CPU Affinity", "")
        numa = named.get("NUMA Affinity", "")
        devices.append(
            TopoDevice(
                name=name,
                links=links,
                cpu_affinity=cpu_list(affinity) if affinity and affinity != "N/A" else None,
                numa_affinity=int(numa) if numa.isdigit() else None,
            )
        )
    if not any(device.is_gpu for device in devices):
        raise ProbeParseError("nvidia-smi topo -m lists no GPU row")
    return Topology(tuple(devices))


# nvidia-smi -q -x ------------------------------------------------------------------------


@dataclass(frozen=True)
class SmiGpu:
    bus_id: str
    name: str
    memory_mib: int
    link_gen_max: int | None  # what the link can reach in this slot (host side included)
    link_gen_device_max: int | None  # what the GPU itself can reach
    link_gen_current: int | None
    link_width_max: int | None
    link_width_current: int | None
    ecc_enabled: bool | None


def _int(text: str | None) -> int | None:
    match = re.match(r"\s*(\d+)", text or "")
    return int(match[1]) if match else None


def parse_nvidia_smi_xml(text: str) -> tuple[SmiGpu, ...]:
    """Read `nvidia-smi -q -x`: each GPU's name, memory, PCIe link and ECC mode."""
    try:
        root = ET.fromstring(text)
    except ET.ParseError as error:
        raise ProbeParseError("not the XML of nvidia-smi -q -x") from error
    gpus = []
    for gpu in root.iter("gpu"):
        link = gpu.find("pci/pci_gpu_link_info")

        def at(path: str, link=link) -> int | None:
            return _int(link.findtext(path)) if link is not None else None

        ecc = gpu.findtext("ecc_mode/current_ecc")
        gpus.append(
            SmiGpu(
                bus_id=gpu.get("id", "") or gpu.findtext("pci/pci_bus_id", ""),
                name=gpu.findtext("product_name", "").strip(),
                memory_mib=_int(gpu.findtext("fb_memory_usage/total")) or 0,
                link_gen_max=at("pcie_gen/max_link_gen"),
                link_gen_device_max=at("pcie_gen/max_device_link_gen"),
                link_gen_current=at("pcie_gen/current_link_gen"),
                link_width_max=at("link_widths/max_link_width"),
                link_width_current=at("link_widths/current_link_width"),
                ecc_enabled=None if ecc in (None, "N/A") else ecc.strip() == "Enabled",
            )
        )
    if not gpus:
        raise ProbeParseError("nvidia-smi -q -x lists no GPU")
    return tuple(gpus)


# lspci -vv -------------------------------------------------------------------------------


@dataclass(frozen=True)
class PciLink:
    address: str
    description: str
    numa_node: int | None = None
    cap_speed_gts: float | None = None
    cap_width: int | None = None
    speed_gts: float | None = None
    width: int | None = None
    speed_downgraded: bool = False
    width_downgraded: bool = False

    @property
    def is_nvidia_gpu(self) -> bool:
        text = self.description
        return "NVIDIA" in text and ("VGA" in text or "3D controller" in text)


SPEED = re.compile(r"Speed ([\d.]+)GT/s(?: \((ok|downgraded)\))?")
WIDTH = re.compile(r"Width x(\d+)(?: \((ok|downgraded)\))?")


def parse_lspci(text: str) -> tuple[PciLink, ...]:
    """Read `lspci -vv`: each device's link capability and status (LnkCap, LnkSta)."""
    devices: list[dict] = []
    for raw in text.splitlines():
        line = raw.rstrip()
        if BDF.match(line):
            address, _, description = line.partition(" ")
            devices.append({"address": address, "description": description})
            continue
        if not devices:
            continue
        device, stripped = devices[-1], line.strip()
        if stripped.startswith("NUMA node:"):
            device["numa_node"] = _int(stripped.split(":", 1)[1])
        elif stripped.startswith(("LnkCap:", "LnkSta:")):
            speed, width = SPEED.search(stripped), WIDTH.search(stripped)
            if stripped.startswith("LnkCap:"):
                device["cap_speed_gts"] = float(speed[1]) if speed else None
                device["cap_width"] = int(width[1]) if width else None
            elif "width" not in device:  # the first LnkSta; LnkSta2 is another line
                device["speed_gts"] = float(speed[1]) if speed else None
                device["width"] = int(width[1]) if width else None
                device["speed_downgraded"] = bool(speed and speed[2] == "downgraded")
                device["width_downgraded"] = bool(width and width[2] == "downgraded")
    return tuple(PciLink(**device) for device in devices)


# dmidecode -t memory ---------------------------------------------------------------------


@dataclass(frozen=True)
class Dimm:
    locator: str
    size_gb: float
    total_width: int | None
    data_width: int | None
    kind: str
    detail: str

    @property
    def ecc(self) -> bool | None:
        """Return whether the module carries ECC bits (72 of 64, or 80 of 64 on DDR5)."""
        if self.total_width is None or self.data_width is None:
            return None
        return self.total_width > self.data_width


@dataclass(frozen=True)
class MemoryInfo:
    dimms: tuple[Dimm, ...]
    array_ecc: tuple[str, ...] = field(default=())  # Physical Memory Array error correction

    @property
    def total_gb(self) -> float:
        return sum(dimm.size_gb for dimm in self.dimms)


def _size_gb(text: str) -> float | None:
    match = re.match(r"(\d+)\s*(MB|GB|TB)", text.strip())
    if not match:
        return None
    return int(match[1]) * {"MB": 1 / 1024, "GB": 1, "TB": 1024}[match[2]]


def parse_dmidecode_memory(text: str) -> MemoryInfo:
    """Read `dmidecode -t memory`: installed DIMMs (empty slots skipped) and the array's ECC."""
    dimms, arrays = [], []
    for block in re.split(r"\n\s*\n", text):
        lines = [line.strip() for line in block.strip().splitlines()]
        values = dict(line.split(":", 1) for line in lines if ":" in line)
        values = {key.strip(): value.strip() for key, value in values.items()}
        if "Memory Device" in lines:
            size = _size_gb(values.get("Size", ""))
            if size is None:  # "No Module Installed"
                continue
            dimms.append(
                Dimm(
                    locator=values.get("Locator", ""),
                    size_gb=size,
                    total_width=_int(values.get("Total Width")),
                    data_width=_int(values.get("Data Width")),
                    kind=values.get("Type", ""),
                    detail=values.get("Type Detail", ""),
                )
            )
        elif "Physical Memory Array" in lines and values.get("Use") == "System Memory":
            arrays.append(values.get("Error Correction Type", ""))
    if not dimms and not arrays:
        raise ProbeParseError("dmidecode -t memory lists no memory device")
    return MemoryInfo(tuple(dimms), tuple(arrays))


# nccl-tests ------------------------------------------------------------------------------


def parse_nccl_busbw(text: str) -> float | None:
    """Return the "Avg bus bandwidth" (GB/s) that nccl-tests prints at the end, if any."""
    match = re.search(r"Avg bus bandwidth\s*:\s*([\d.]+)", text)
    return float(match[1]) if match else None
