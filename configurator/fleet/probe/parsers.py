"""Parsers of the probe commands' output, each tested on real output (tests/fixtures/probe).

Plain Python: no Django import, so they run anywhere the archive is read. Every parser has a
budget: it reads its text line by line (or element by element), refuses a count no node can
have before it allocates anything that grows with it, and raises only ProbeParseError, with
the line it stopped at. The bounds, and where each comes from, are below and in
docs/fleet.md "Limits"; the archive's byte limits per file are in `files.FILE_BYTES`.
"""

from __future__ import annotations

import json
import re
import unicodedata
import xml.etree.ElementTree as ET
from collections.abc import Iterator
from dataclasses import dataclass, field

from configurator.fleet.probe.lscpu_names import LSCPU_FIELDS

ANSI = re.compile(r"\x1b\[[0-9;]*m")
BDF = re.compile(r"^(?:[0-9a-fA-F]{4,8}:)?[0-9a-fA-F]{2}:[0-9a-fA-F]{2}\.[0-7]\b")

# Linux numbers at most NR_CPUS CPUs (0 .. NR_CPUS-1) and 2**NODES_SHIFT NUMA nodes. On
# x86-64 NR_CPUS is at most 8192 (NR_CPUS_RANGE_END in arch/x86/Kconfig, the value MAXSMP
# builds take) and NODES_SHIFT at most 10; arm64 allows fewer CPUs (4096).
MAX_CPUS = 8192
MAX_NUMA_NODES = 1024
# Not kernel limits but what no node comes near: the largest single-system-image servers
# have 32 sockets (HPE Superdome Flex) and composable PCIe chassis show 32 GPUs to one host;
# SMT is at most 8 threads a core (IBM POWER). Each bound is a few times the largest real one.
MAX_SOCKETS = 64
MAX_THREADS_PER_CORE = 8
MAX_GPUS = 128
MAX_TOPO_DEVICES = 256  # rows of nvidia-smi topo -m: GPUs and NICs
MAX_PCI_FUNCTIONS = 8192  # lspci entries, SR-IOV virtual functions included
MAX_MEMORY_DEVICES = 1024  # dmidecode "Memory Device" entries, empty slots included
MAX_XML_ELEMENTS_PER_GPU = 5000  # one H200's <gpu> holds 490
MAX_XML_ELEMENTS = 200_000  # 128 H200s would print about 63,000
MAX_TOPO_AFFINITY_CPUS = 4 * MAX_CPUS  # distinct affinity lists together: one per NUMA node
MAX_LSCPU_DEPTH = 8  # util-linux >= 2.38 nests fields two levels deep
MAX_LINE_CHARS = 65536  # a node's 8,192 CPUs listed one by one take about 40,000
MAX_LINES = 500_000  # lspci -vv prints about 50 a PCI function
MAX_DIGITS = 12  # of any number a command prints here (a CPU, a size in MB, a link width)
NUMBER = re.compile(r"[0-9]+")  # ASCII only: str.isdigit() also takes "²", which int() refuses


def gettext_noop(message: str) -> str:
    """Mark a message for translation (makemessages finds it); it is translated where shown."""
    return message


class ProbeParseError(ValueError):
    """A command's output is not what that command prints, or lists more than a node can have.

    `message` is an English message id with %(name)s parameters, translated where it is
    shown (probe_report.probe_error_text); `line` is the line of the output it concerns, and
    node_facts sets `file` to the file it was read from.
    """

    def __init__(self, message: str, *, line: int | None = None, **params: object) -> None:
        self.message, self.line, self.params = message, line, params
        self.file: str | None = None
        super().__init__(message % params)

    def __str__(self) -> str:
        where = [self.file] if self.file else []
        where += [f"line {self.line}"] if self.line is not None else []
        text = self.message % self.params
        return f"{' '.join(where)}: {text}" if where else text


def _shown(text: str, limit: int = 40) -> str:
    """Return a piece of probe text as a message quotes it: one line, at most `limit` chars."""
    text = " ".join(text[: limit + 1].split())
    return text if len(text) <= limit else text[:limit] + "…"


def lines(text: str) -> Iterator[tuple[int, str]]:
    """Yield each line of a command's output with its number, without a list or copy of all."""
    start, index = 0, 0
    while start < len(text):
        end = text.find("\n", start)
        end = len(text) if end < 0 else end
        index += 1
        if end - start > MAX_LINE_CHARS:
            raise ProbeParseError(
                gettext_noop("the line is %(length)s characters long; the limit is %(limit)s"),
                line=index, length=f"{end - start:,}", limit=f"{MAX_LINE_CHARS:,}",
            )  # fmt: skip
        if index > MAX_LINES:
            raise ProbeParseError(
                gettext_noop("the output has more than %(limit)s lines"),
                line=index, limit=f"{MAX_LINES:,}",
            )  # fmt: skip
        yield index, text[start:end].rstrip("\r")
        start = end + 1


def number(text: str, *, what: str, line: int | None = None, low: int = 0, high: int) -> int:
    """Return `text` as a whole number from `low` to `high`; refuse anything else by name."""
    text = text.strip()
    if not NUMBER.fullmatch(text):
        raise ProbeParseError(
            gettext_noop("%(what)s is %(value)r, not a whole number"),
            line=line, what=what, value=_shown(text),
        )  # fmt: skip
    if len(text) > MAX_DIGITS:  # int() of thousands of digits is slow, or refused
        raise ProbeParseError(
            gettext_noop("%(what)s is a number of %(digits)s digits; it can be %(low)s to "
                         "%(high)s"),
            line=line, what=what, digits=f"{len(text):,}", low=f"{low:,}", high=f"{high:,}",
        )  # fmt: skip
    value = int(text)
    if not low <= value <= high:
        raise ProbeParseError(
            gettext_noop("%(what)s is %(value)s; it can be %(low)s to %(high)s"),
            line=line, what=what, value=f"{value:,}", low=f"{low:,}", high=f"{high:,}",
        )  # fmt: skip
    return value


CPU_PART = re.compile(r"[^,\s]+")
CPU_RANGE = re.compile(r"([0-9]+)(?:-([0-9]+))?")


def cpu_list(text: str, *, subject: str = "the list", line: int | None = None) -> frozenset[int]:
    """Return the CPUs of a Linux CPU list such as "0-55,112-167" (commas or spaces).

    Refused before any set is made: a range that ends before it starts, a CPU number Linux
    cannot have (MAX_CPUS and up), and a list of more CPUs than a node can have.
    """
    ranges, count = [], 0
    for part in CPU_PART.finditer(text):  # lazily: a long list is never split into a list
        if part[0].upper() == "N/A":
            continue
        match = CPU_RANGE.fullmatch(part[0])
        if not match:
            raise ProbeParseError(
                gettext_noop("%(subject)s is not a CPU list: %(text)r"),
                line=line, subject=subject, text=_shown(text),
            )  # fmt: skip
        if max(len(match[1]), len(match[2] or "")) > MAX_DIGITS:
            raise ProbeParseError(
                gettext_noop("%(subject)s names CPU %(cpu)s; Linux numbers them 0 to %(last)s"),
                line=line, subject=subject, cpu=_shown(part[0], 20), last=f"{MAX_CPUS - 1:,}",
            )  # fmt: skip
        low, high = int(match[1]), int(match[2] or match[1])
        if high < low:
            raise ProbeParseError(
                gettext_noop("%(subject)s has the range %(range)s, which ends before it starts"),
                line=line, subject=subject, range=part[0],
            )  # fmt: skip
        count += high - low + 1
        if count <= MAX_CPUS:  # past it, only counted (for the message), never kept
            ranges.append((low, high))
    if count > MAX_CPUS:
        raise ProbeParseError(
            gettext_noop("%(subject)s lists %(count)s CPUs; a node has at most %(limit)s"),
            line=line, subject=subject, count=f"{count:,}", limit=f"{MAX_CPUS:,}",
        )  # fmt: skip
    last = max((high for _, high in ranges), default=0)
    if last >= MAX_CPUS:
        raise ProbeParseError(
            gettext_noop("%(subject)s names CPU %(cpu)s; Linux numbers them 0 to %(last)s"),
            line=line, subject=subject, cpu=f"{last:,}", last=f"{MAX_CPUS - 1:,}",
        )  # fmt: skip
    return frozenset(cpu for low, high in ranges for cpu in range(low, high + 1))


# lscpu -J and lscpu ----------------------------------------------------------------------


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


def _field_key(name: str) -> str:
    return " ".join(unicodedata.normalize("NFKC", name).strip().rstrip(":").split()).casefold()


LSCPU_NAMES = {
    _field_key(name): field for field, names in LSCPU_FIELDS.items() for name in (field, *names)
}
# Where lscpu prints the same field twice (a summary and a section), the first is read.


def _keep_lscpu_field(found: dict[str, str], name: str, value: str) -> None:
    """Keep a field lscpu printed under any of its names; ignore the ones no check reads."""
    field = LSCPU_NAMES.get(_field_key(name))
    if field is None or field in found:
        return
    if field == "Model name" and NUMBER.fullmatch(value.strip()):
        return  # a translation shared with "Model:" (the model's number)
    found[field] = value.strip()


def _lscpu_fields(entries: object, found: dict[str, str], depth: int = 0) -> None:
    if not isinstance(entries, list) or depth > MAX_LSCPU_DEPTH:
        raise ProbeParseError(gettext_noop("not the JSON of lscpu -J"))
    for entry in entries:
        if not isinstance(entry, dict):
            raise ProbeParseError(gettext_noop("not the JSON of lscpu -J"))
        _keep_lscpu_field(found, str(entry.get("field", "")), str(entry.get("data", "")))
        _lscpu_fields(entry.get("children", []), found, depth + 1)


def _cpu_info(values: dict[str, str], command: str) -> CpuInfo:
    def count(name: str, high: int, default: int | None = None, low: int = 1) -> int:
        if name not in values and default is not None:
            return default
        if name not in values:
            raise ProbeParseError(
                gettext_noop("%(command)s has no %(field)r"), command=command, field=name
            )
        # Zero is refused: no node has zero sockets or threads, and the facts divide by them.
        return number(values[name], what=name, low=low, high=high)

    sockets = count("Socket(s)", MAX_SOCKETS)
    cores = count("Core(s) per socket", MAX_CPUS)
    threads = count("Thread(s) per core", MAX_THREADS_PER_CORE, 1)
    if sockets * cores * threads > MAX_CPUS:
        raise ProbeParseError(
            gettext_noop("%(sockets)s sockets × %(cores)s cores × %(threads)s threads make "
                         "%(count)s CPUs; a node has at most %(limit)s"),
            sockets=sockets, cores=f"{cores:,}", threads=threads,
            count=f"{sockets * cores * threads:,}", limit=f"{MAX_CPUS:,}",
        )  # fmt: skip
    return CpuInfo(
        model=values.get("Model name", "")[:200],
        vendor=values.get("Vendor ID", "")[:200],
        sockets=sockets,
        cores_per_socket=cores,
        threads_per_core=threads,
        numa_nodes=count("NUMA node(s)", MAX_NUMA_NODES, 1, low=0),
    )


def parse_lscpu_json(text: str) -> CpuInfo:
    """Read `lscpu -J` (flat, or nested in children as util-linux ≥ 2.38 prints it), in any
    of the locales above."""
    try:
        entries = json.loads(text.lstrip("\ufeff"))["lscpu"]
    except (ValueError, KeyError, TypeError, RecursionError) as error:
        raise ProbeParseError(gettext_noop("not the JSON of lscpu -J")) from error
    values: dict[str, str] = {}
    _lscpu_fields(entries, values)
    return _cpu_info(values, "lscpu -J")


LSCPU_COLON = re.compile(r"[:：]")


def parse_lscpu_text(text: str) -> CpuInfo:
    """Read plain `lscpu` ("Socket(s):  2", one field a line; util-linux ≥ 2.38 indents the
    fields of a section), in any of the locales above: what probe.sh writes where `lscpu -J`
    is missing (util-linux before 2.30, as on CentOS/RHEL 7).

    Only the fields a check reads are kept, so a file of many lines holds a few strings.
    """
    values: dict[str, str] = {}
    for _, line in lines(text.lstrip("\ufeff")):
        colon = LSCPU_COLON.search(line)
        if colon:
            _keep_lscpu_field(values, line[: colon.start()], line[colon.end() :])
    return _cpu_info(values, "lscpu")


# numactl --hardware ---------------------------------------------------------------------


@dataclass(frozen=True)
class NumaNode:
    node: int
    cpus: frozenset[int]
    size_mb: int


NUMA_CPUS = re.compile(r"node ([0-9]+) cpus:(.*)$")
NUMA_SIZE = re.compile(r"node ([0-9]+) size: ([0-9]+) MB")


def parse_numactl_hardware(text: str) -> tuple[NumaNode, ...]:
    """Read `numactl --hardware`: each node's CPUs and memory size."""
    cpus: dict[int, frozenset[int]] = {}
    sizes: dict[int, int] = {}
    total = 0
    for line_number, raw in lines(text):
        line = raw.strip()
        if match := NUMA_CPUS.match(line):
            node = number(match[1], what="node", line=line_number, high=MAX_NUMA_NODES - 1)
            cpus[node] = cpu_list(match[2], subject=f"node {node}", line=line_number)
            total += len(cpus[node])
            if total > MAX_CPUS:  # checked node by node: never more than two nodes' sets
                raise ProbeParseError(
                    gettext_noop("the nodes list %(count)s CPUs together; a node has at most "
                                 "%(limit)s"),
                    line=line_number, count=f"{total:,}", limit=f"{MAX_CPUS:,}",
                )  # fmt: skip
        elif match := NUMA_SIZE.match(line):
            node = number(match[1], what="node", line=line_number, high=MAX_NUMA_NODES - 1)
            sizes[node] = number(match[2], what=f"node {node} size", line=line_number,
                                 high=10**MAX_DIGITS)  # fmt: skip
    if not cpus:
        raise ProbeParseError(gettext_noop("numactl --hardware lists no node"))
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


# The PCIe path classes of `nvidia-smi topo -m`'s legend, nearest first: PIX (at most one
# PCIe bridge), PXB (several bridges), PHB (through a CPU's host bridge), NODE (between host
# bridges of one NUMA node), SYS (across the link between NUMA nodes, QPI/UPI/xGMI).
PATH_CLASSES = ("PIX", "PXB", "PHB", "NODE", "SYS")


@dataclass(frozen=True)
class Topology:
    devices: tuple[TopoDevice, ...]
    columns: tuple[str, ...] = ()  # the devices the header names, in its order

    @property
    def nic_columns(self) -> tuple[str, ...]:
        """Return the NICs the header names (a matrix cut short may lack their rows)."""
        return tuple(name for name in self.columns if not name.startswith("GPU"))

    def nearest_nic(self, gpu: TopoDevice) -> tuple[str, str] | None:
        """Return the NIC nearest `gpu` and its path class (the best class wins, the first
        such NIC in the header's order on a tie); None when its row shows no NIC."""
        paths = [(PATH_CLASSES.index(gpu.links[nic]), at, nic)
                 for at, nic in enumerate(self.nic_columns)
                 if gpu.links.get(nic) in PATH_CLASSES]  # fmt: skip
        if not paths:
            return None
        rank, _at, nic = min(paths)
        return nic, PATH_CLASSES[rank]

    @property
    def gpus(self) -> tuple[TopoDevice, ...]:
        return tuple(device for device in self.devices if device.is_gpu)

    @property
    def nics(self) -> tuple[TopoDevice, ...]:
        return tuple(device for device in self.devices if not device.is_gpu)

    @property
    def column_gpus(self) -> int:
        """Return how many GPUs the header names (the rows should list as many)."""
        return sum(1 for name in self.columns if name.startswith("GPU"))

    @property
    def cut_short(self) -> bool:
        """Return whether a device the header names has no row, or a row lacks cells."""
        rows = {device.name for device in self.devices}
        return any(name not in rows for name in self.columns) or any(
            len(device.links) < len(self.columns) for device in self.devices
        )

    def nvlink_pairs(self) -> int:
        """Return how many GPU pairs are joined by NVLink (NV#)."""
        names = {gpu.name for gpu in self.gpus}
        return sum(
            1
            for gpu in self.gpus
            for other, link in gpu.links.items()
            if other in names and other > gpu.name and link.startswith("NV")
        )


AFFINITY_COLUMNS = ("CPU Affinity", "NUMA Affinity", "GPU NUMA ID")
_AFFINITY_WORDS = tuple(tuple(column.split()) for column in AFFINITY_COLUMNS)


def _topo_header(line: str) -> list[str]:
    """Return the header's cells: device names, then the affinity columns.

    nvidia-smi separates cells by tabs; a terminal or a web page shows each tab as spaces up
    to the next multiple of 8, so a 7-character name ("mlx5_10") is followed by one space,
    the same as the space inside "CPU Affinity". The header is therefore read word by word
    (no device name holds a space) and the affinity columns put together by their words.
    """
    words, cells, at = line.split(), [], 0
    while at < len(words):
        for phrase in _AFFINITY_WORDS:
            if tuple(words[at : at + len(phrase)]) == phrase:
                cells.append(" ".join(phrase))
                at += len(phrase)
                break
        else:
            cells.append(words[at])
            at += 1
    return cells


def _topo_cells(line: str) -> list[str]:
    """Return a row's cells: tab-separated as printed (empty cells kept), else word by word
    (no value holds a space: links, CPU lists, node numbers, N/A)."""
    if "\t" in line:
        return [cell.strip() for cell in line.split("\t")]
    return line.split()


def parse_topo(text: str) -> Topology:
    """Read `nvidia-smi topo -m`: the link matrix, and each GPU's CPU and NUMA affinity.

    Tabs or spaces, a UTF-8 byte order mark, CRLF and ANSI underlines are all read alike;
    each row's cells are taken by their position in the header. A matrix cut short (a
    device of the header without its row, a row without all its cells) is kept as read:
    `Topology.cut_short` says so, and the node's findings report it.
    """
    rows = ((n, ANSI.sub("", line).replace("\ufeff", "")) for n, line in lines(text))
    header: list[str] | None = None
    devices = []
    affinities: dict[str, frozenset[int]] = {}  # GPUs on one node share one list, one set
    listed = 0
    for line_number, line in rows:
        if header is None:
            if re.search(r"\bGPU0\b", line):
                if len(line.split()) > MAX_TOPO_DEVICES + 8:  # words, before any list is made
                    raise ProbeParseError(
                        gettext_noop("nvidia-smi topo -m has %(count)s columns; the limit is "
                                     "%(limit)s"),
                        line=line_number, count=f"{len(line.split()):,}",
                        limit=f"{MAX_TOPO_DEVICES + len(AFFINITY_COLUMNS):,}",
                    )  # fmt: skip
                header = _topo_header(line)
            continue
        if not line.strip() or line.strip().startswith("Legend"):
            break
        if len(devices) == MAX_TOPO_DEVICES:
            raise ProbeParseError(
                gettext_noop("nvidia-smi topo -m has more than %(limit)s devices"),
                line=line_number, limit=f"{MAX_TOPO_DEVICES:,}",
            )  # fmt: skip
        cells = _topo_cells(line)
        name, values = cells[0], cells[1 : len(header) + 1]
        named = dict(zip(header, values, strict=False))
        links = {column: value for column, value in named.items()
                 if column not in AFFINITY_COLUMNS}  # fmt: skip
        affinity = named.get("CPU Affinity", "")
        numa = named.get("NUMA Affinity", "")
        cpu_affinity = None
        if affinity and affinity != "N/A":
            if affinity not in affinities:
                affinities[affinity] = cpu_list(affinity, subject=name, line=line_number)
                listed += len(affinities[affinity])
                if listed > MAX_TOPO_AFFINITY_CPUS:
                    raise ProbeParseError(
                        gettext_noop("the CPU affinities list %(count)s CPUs together; the "
                                     "limit is %(limit)s"),
                        line=line_number, count=f"{listed:,}",
                        limit=f"{MAX_TOPO_AFFINITY_CPUS:,}",
                    )  # fmt: skip
            cpu_affinity = affinities[affinity]
        devices.append(
            TopoDevice(
                name=name,
                links=links,
                cpu_affinity=cpu_affinity,
                numa_affinity=(number(numa, what=f"{name} NUMA Affinity", line=line_number,
                                      high=MAX_NUMA_NODES - 1)
                               if NUMBER.fullmatch(numa) else None),
            )
        )  # fmt: skip
    if header is None:
        raise ProbeParseError(gettext_noop("nvidia-smi topo -m shows no GPU0 column"))
    if not any(device.is_gpu for device in devices):
        raise ProbeParseError(gettext_noop("nvidia-smi topo -m lists no GPU row"))
    columns = tuple(cell for cell in header if cell not in AFFINITY_COLUMNS)
    return Topology(tuple(devices), columns)


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


LEADING_NUMBER = re.compile(r"\s*([0-9]+)")


def _int(text: str | None, *, what: str = "a number", line: int | None = None) -> int | None:
    """Return the whole number `text` starts with ("16x", "143771 MiB"), or None."""
    match = LEADING_NUMBER.match(text or "")
    if not match:
        return None
    return number(match[1], what=what, line=line, high=10**MAX_DIGITS)


def _smi_gpu(gpu: ET.Element) -> SmiGpu:
    link = gpu.find("pci/pci_gpu_link_info")

    def at(path: str) -> int | None:
        return _int(link.findtext(path), what=path) if link is not None else None

    ecc = gpu.findtext("ecc_mode/current_ecc")
    return SmiGpu(
        bus_id=(gpu.get("id", "") or gpu.findtext("pci/pci_bus_id", ""))[:64],
        name=gpu.findtext("product_name", "").strip()[:200],
        memory_mib=_int(gpu.findtext("fb_memory_usage/total"), what="fb_memory_usage") or 0,
        link_gen_max=at("pcie_gen/max_link_gen"),
        link_gen_device_max=at("pcie_gen/max_device_link_gen"),
        link_gen_current=at("pcie_gen/current_link_gen"),
        link_width_max=at("link_widths/max_link_width"),
        link_width_current=at("link_widths/current_link_width"),
        ecc_enabled=None if ecc in (None, "N/A") else ecc.strip() == "Enabled",
    )


XML_CHUNK = 65536


def parse_nvidia_smi_xml(text: str) -> tuple[SmiGpu, ...]:
    """Read `nvidia-smi -q -x`: each GPU's name, memory, PCIe link and ECC mode.

    Read element by element: each <gpu> is read when it closes and then dropped, so the
    tree never holds more than one GPU, and the elements are counted as they come.
    """
    if "<!ENTITY" in text:  # nvidia-smi declares none; an entity only ever amplifies
        raise ProbeParseError(gettext_noop("nvidia-smi -q -x never declares an XML entity"))
    parser = ET.XMLPullParser(events=("start", "end"))
    gpus: list[SmiGpu] = []
    open_elements: list[ET.Element] = []
    elements = in_top = 0

    def read(events) -> None:
        nonlocal elements, in_top
        for event, element in events:
            if event == "start":
                open_elements.append(element)
                elements, in_top = elements + 1, in_top + 1
                if in_top > MAX_XML_ELEMENTS_PER_GPU or elements > MAX_XML_ELEMENTS:
                    raise ProbeParseError(
                        gettext_noop("nvidia-smi -q -x has over %(limit)s elements in one GPU "
                                     "or %(total)s in all"),
                        limit=f"{MAX_XML_ELEMENTS_PER_GPU:,}", total=f"{MAX_XML_ELEMENTS:,}",
                    )  # fmt: skip
                continue
            open_elements.pop()
            if len(open_elements) != 1:  # only the root's children are read, then dropped
                continue
            if element.tag == "gpu":
                if len(gpus) == MAX_GPUS:
                    raise ProbeParseError(
                        gettext_noop("nvidia-smi -q -x lists more than %(limit)s GPUs"),
                        limit=f"{MAX_GPUS:,}",
                    )  # fmt: skip
                gpus.append(_smi_gpu(element))
            open_elements[0].remove(element)
            in_top = 1

    try:
        for start in range(0, len(text), XML_CHUNK):
            parser.feed(text[start : start + XML_CHUNK])
            read(parser.read_events())
        parser.close()
        read(parser.read_events())
    except (ET.ParseError, UnicodeError) as error:
        line = getattr(error, "position", (None,))[0]
        raise ProbeParseError(gettext_noop("not the XML of nvidia-smi -q -x"), line=line) from error
    if not gpus:
        raise ProbeParseError(gettext_noop("nvidia-smi -q -x lists no GPU"))
    return tuple(gpus)


# lspci -vv -------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)  # slots: a node can list thousands
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


SPEED = re.compile(r"Speed ([0-9]{1,3}(?:\.[0-9]{1,3})?)GT/s(?: \((ok|downgraded)\))?")
WIDTH = re.compile(r"Width x([0-9]{1,3})(?: \((ok|downgraded)\))?")


def parse_lspci(text: str) -> tuple[PciLink, ...]:
    """Read `lspci -vv`: each device's link capability and status (LnkCap, LnkSta)."""
    devices: list[dict] = []
    for line_number, raw in lines(text):
        line = raw.rstrip()
        if BDF.match(line):
            if len(devices) == MAX_PCI_FUNCTIONS:
                raise ProbeParseError(
                    gettext_noop("lspci -vv lists more than %(limit)s PCI functions"),
                    line=line_number, limit=f"{MAX_PCI_FUNCTIONS:,}",
                )  # fmt: skip
            address, _, description = line.partition(" ")
            devices.append({"address": address, "description": description[:200]})
            continue
        if not devices:
            continue
        device, stripped = devices[-1], line.strip()
        if stripped.startswith("NUMA node:"):
            device["numa_node"] = _int(stripped.split(":", 1)[1], what="NUMA node",
                                       line=line_number)  # fmt: skip
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


SIZE = re.compile(r"([0-9]+)\s*(MB|GB|TB)")


def _size_gb(text: str, *, line: int | None = None) -> float | None:
    match = SIZE.match(text.strip())
    if not match:
        return None
    size = number(match[1], what="Size", line=line, high=10**MAX_DIGITS)
    return size * {"MB": 1 / 1024, "GB": 1, "TB": 1024}[match[2]]


# The values a memory block is read for; a block's other lines are passed over, not kept.
DMI_KEYS = frozenset({"Size", "Locator", "Total Width", "Data Width", "Type", "Type Detail",
                      "Use", "Error Correction Type"})  # fmt: skip
DMI_HEADINGS = frozenset({"Memory Device", "Physical Memory Array"})


def _dmi_blocks(text: str) -> Iterator[tuple[int, set[str], dict[str, tuple[str, int]]]]:
    """Yield each blank-line-separated block: its line, its headings, its wanted values."""
    start, headings, values = 0, set(), {}
    for line_number, raw in lines(text):
        line = raw.strip()
        if not line:
            if headings or values:
                yield start, headings, values
            start, headings, values = 0, set(), {}
            continue
        start = start or line_number
        key, colon, value = line.partition(":")
        if not colon and line in DMI_HEADINGS:
            headings.add(line)
        elif colon and key.strip() in DMI_KEYS:
            values[key.strip()] = (value.strip(), line_number)  # the last, as dict() did
    if headings or values:
        yield start, headings, values


def parse_dmidecode_memory(text: str) -> MemoryInfo:
    """Read `dmidecode -t memory`: installed DIMMs (empty slots skipped) and the array's ECC."""
    dimms, arrays, devices = [], [], 0
    for start, headings, values in _dmi_blocks(text):
        value = {key: text for key, (text, _) in values.items()}
        line = {key: number for key, (_, number) in values.items()}
        if "Memory Device" in headings:
            devices += 1
            if devices > MAX_MEMORY_DEVICES:
                raise ProbeParseError(
                    gettext_noop("dmidecode -t memory lists more than %(limit)s memory devices"),
                    line=start, limit=f"{MAX_MEMORY_DEVICES:,}",
                )  # fmt: skip
            size = _size_gb(value.get("Size", ""), line=line.get("Size"))
            if size is None:  # "No Module Installed"
                continue
            dimms.append(
                Dimm(
                    locator=value.get("Locator", "")[:200],
                    size_gb=size,
                    total_width=_int(value.get("Total Width"), what="Total Width",
                                     line=line.get("Total Width")),
                    data_width=_int(value.get("Data Width"), what="Data Width",
                                    line=line.get("Data Width")),
                    kind=value.get("Type", "")[:200],
                    detail=value.get("Type Detail", "")[:200],
                )
            )  # fmt: skip
        elif "Physical Memory Array" in headings and value.get("Use") == "System Memory":
            if len(arrays) == MAX_MEMORY_DEVICES:
                raise ProbeParseError(
                    gettext_noop("dmidecode -t memory lists more than %(limit)s memory arrays"),
                    line=start, limit=f"{MAX_MEMORY_DEVICES:,}",
                )  # fmt: skip
            arrays.append(value.get("Error Correction Type", ""))
    if not dimms and not arrays:
        raise ProbeParseError(gettext_noop("dmidecode -t memory lists no memory device"))
    return MemoryInfo(tuple(dimms), tuple(arrays))


# nccl-tests ------------------------------------------------------------------------------


MAX_NCCL_SIZES = 1024  # rows of one run: 8 B to 8 GB by doubling is 31, a fine -i step more
NCCL_PLATEAU_SIZES = 3  # the largest sizes the plateau is read from
BUSBW = re.compile(r"Avg bus bandwidth\s*:\s*([0-9]{1,9}(?:\.[0-9]{1,9})?)")
NCCL_PREFIX = re.compile(r"^\[[0-9]{1,9},[0-9]{1,9}\]<stdout>:")  # mpirun --tag-output
NCCL_VALUE = re.compile(r"[0-9]{1,9}(?:\.[0-9]{1,9})?")


@dataclass(frozen=True)
class NcclRun:
    """An all_reduce_perf run: bus bandwidth (GB/s) by message size (bytes), as printed."""

    curve: tuple[tuple[int, float], ...]  # (size, busbw), the better of out- and in-place
    average_busbw: float | None = None  # the "Avg bus bandwidth" line: over every size

    @property
    def plateau_busbw(self) -> float | None:
        """Return the bus bandwidth at the largest messages: the median of the largest
        NCCL_PLATEAU_SIZES sizes' (robust to one noisy size), or None without a table.

        Not the average over sizes, which small messages (latency, not bandwidth) drag
        down: a DGX H100 pair that reaches 472 GB/s averages 91 GB/s over 8 B to 8 GB.
        """
        if not self.curve:
            return None
        largest = sorted(self.curve)[-NCCL_PLATEAU_SIZES:]
        values = sorted(busbw for _, busbw in largest)
        return values[len(values) // 2]


def _nccl_columns(line: str) -> list[int] | None:
    """Return where the busbw columns are in a header line ("#  size  count ... busbw")."""
    words = line.lstrip("#").split()
    if not words or words[0] != "size" or "busbw" not in words:
        return None
    return [at for at, word in enumerate(words) if word == "busbw"]


def parse_nccl_tests(text: str) -> NcclRun | None:
    """Read all_reduce_perf's output: each size's bus bandwidth and the summary's average.

    The table's columns are found from its header (nccl-tests added `redop` and `root` in
    2.10; older runs have fewer columns), so each row's busbw is read by position. Lines
    that `mpirun --tag-output` prefixes with `[1,0]<stdout>:` are read the same. Returns None
    when the output holds neither a table nor the summary (the run failed).
    """
    busbw_at: list[int] | None = None
    curve: dict[int, float] = {}
    average = None
    for line_number, raw in lines(text):
        line = NCCL_PREFIX.sub("", raw).strip()
        if line.startswith("#"):
            if match := BUSBW.search(line):
                average = float(match[1])
            elif (found := _nccl_columns(line)) is not None:
                busbw_at = found
            continue
        words = line.split()
        if busbw_at is None or not words or not NUMBER.fullmatch(words[0]):
            continue
        if len(words) <= busbw_at[0]:
            continue  # a row cut short
        size = number(words[0], what="size", line=line_number, high=10**MAX_DIGITS)
        values = [float(words[at]) for at in busbw_at
                  if at < len(words) and NCCL_VALUE.fullmatch(words[at])]  # fmt: skip
        if not values:
            continue
        if size not in curve and len(curve) == MAX_NCCL_SIZES:
            raise ProbeParseError(
                gettext_noop("all_reduce_perf lists more than %(limit)s message sizes"),
                line=line_number, limit=f"{MAX_NCCL_SIZES:,}",
            )  # fmt: skip
        curve[size] = max(values)  # a size printed twice (two runs): the last one
    if not curve and average is None:
        return None
    return NcclRun(tuple(sorted(curve.items())), average)
