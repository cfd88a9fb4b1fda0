"""Whatever text a probe file holds, its parser answers or raises ProbeParseError, quickly;
whatever bytes an archive holds, read_archive answers or raises ArchiveError."""

import io
import re
import tarfile
import time

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from configurator.fleet.probe import parsers as p
from configurator.fleet.probe.archive import ArchiveError, read_archive
from configurator.fleet.probe.facts import PARSERS, node_facts
from tests.fleet.probe_archives import dual_socket_synthetic, fixture, h200_vm_files, tar_gz

FUZZ = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
SECONDS = 2.0  # far above a real file's milliseconds; a budget gone wrong takes far longer

FIXTURES = {
    p.parse_lscpu_json: ["h200-vm/lscpu.json"],
    p.parse_lscpu_text: ["public/lscpu-xeon-8462y-plus-nested.txt",
                         "public/lscpu-epyc-7281-dual-socket.txt",
                         "public/lscpu-zh-cn-spacemit-x60.txt"],
    p.parse_numactl_hardware: ["h200-vm/numactl-hardware.txt",
                               "public/numactl-hardware-c5n-2-nodes.txt",
                               "public/numactl-hardware-sparse-nodes.txt"],
    p.parse_topo: ["h200-vm/nvidia-smi-topo.txt", "public/nvidia-smi-topo-8x4090-dual-socket.txt",
                   "public/nvidia-smi-topo-8xa100-mlx5-spaces-excerpt.txt",
                   "public/nvidia-smi-topo-8xh-nv18-9nics-spaces-excerpt.txt"],
    p.parse_nvidia_smi_xml: ["h200-vm/nvidia-smi-q.xml"],
    p.parse_lspci: ["public/lspci-vv-rtx-a4000.txt", "public/lspci-vv-quadro-rtx8000-x1.txt"],
    p.parse_dmidecode_memory: ["public/dmidecode-memory-ddr4-rdimm.txt",
                               "public/dmidecode-memory-epyc-empty-slot.txt"],
    p.parse_nccl_tests: ["public/nccl-tests-tail-mpirun.txt",
                         "public/nccl-tests-2x8-h100-full-sweep.txt"],
}  # fmt: skip
REAL = [(parse, path) for parse, paths in FIXTURES.items() for path in paths]

# What a hostile or broken file puts where a number or a list was.
ODD = st.sampled_from([
    "", "0", "-1", "²", "٣", "9" * 400, "9" * 5000, "1e400", "0-3000000", "0-100000000", "5-3",
    "0-8191,0-8191", "N/A", "\x00", "\ufffd", "x" * 70_000, "\n" * 3, "<", "&", "&a;", "]]>",
    '"', "{", "[" * 3000, "\t", "  ", ":", "-", ",", "GPU0", "node 0 cpus: 0-9999",
    "Speed 1.2.3GT/s", "\ufeff", "\r", "座：", "：", "mlx5_10 ", "CPU Affinity", "# size busbw",
    "[1,0]<stdout>:",
])  # fmt: skip
NUMBERS = re.compile(r"[0-9]+(?:-[0-9]+)?")


def answers_or_refuses(parse, text: str) -> None:
    start = time.perf_counter()
    try:
        parse(text)
    except p.ProbeParseError as error:
        assert str(error)  # a message, with its line where it has one
        assert error.line is None or error.line >= 1
    assert time.perf_counter() - start < SECONDS


@st.composite
def mutated(draw, text: str) -> str:
    """`text` with a few edits: numbers replaced by odd ones, spans cut, odd text inserted."""
    for _ in range(draw(st.integers(1, 4))):
        edit = draw(st.sampled_from(["number", "cut", "insert", "repeat"]))
        if edit == "number" and (found := list(NUMBERS.finditer(text))):
            match = draw(st.sampled_from(found))
            text = text[: match.start()] + draw(ODD) + text[match.end() :]
            continue
        at = draw(st.integers(0, len(text)))
        if edit == "cut":
            text = text[:at] + text[at + draw(st.integers(1, 200)) :]
        elif edit == "insert":
            text = text[:at] + draw(ODD | st.text(max_size=20)) + text[at:]
        else:
            end = min(len(text), at + draw(st.integers(1, 80)))
            text = text[:at] + text[at:end] * draw(st.integers(2, 2000)) + text[end:]
    return text


@pytest.mark.parametrize("parse", PARSERS.values(), ids=list(PARSERS))
@FUZZ
@given(text=st.text(max_size=2000))
def test_any_text_is_read_or_refused_by_the_parser(parse, text):
    answers_or_refuses(parse, text)


@pytest.mark.parametrize(("parse", "path"), REAL, ids=[path for _, path in REAL])
@FUZZ
@given(data=st.data())
def test_a_mutated_real_output_is_read_or_refused_by_its_parser(parse, path, data):
    answers_or_refuses(parse, data.draw(mutated(fixture(path))))


@FUZZ
@given(data=st.data(), name=st.sampled_from(sorted(dual_socket_synthetic())))
def test_a_node_with_one_mutated_file_is_read_or_refused_by_file(data, name):
    files = dual_socket_synthetic()
    files[name] = data.draw(mutated(files[name]))
    start = time.perf_counter()
    try:
        facts = node_facts(files)
        facts.findings(), facts.gpus_per_socket(), facts.memory_gb
    except p.ProbeParseError as error:
        assert error.file == name
    assert time.perf_counter() - start < SECONDS


def tar_bytes(files: dict[str, str]) -> bytes:
    out = io.BytesIO()
    with tarfile.open(fileobj=out, mode="w", format=tarfile.GNU_FORMAT) as archive:
        for name, text in files.items():
            data = text.encode()
            info = tarfile.TarInfo(f"probe-node-20261130T000000Z/{name}")
            info.size = len(data)
            archive.addfile(info, io.BytesIO(data))
    return out.getvalue()


def gzip_bytes(data: bytes) -> bytes:
    import gzip

    return gzip.compress(data, mtime=0)


@st.composite
def damaged(draw, data: bytes) -> bytes:
    """`data` with bytes overwritten, cut or repeated: headers, sizes and checksums included."""
    data = bytearray(data)
    for _ in range(draw(st.integers(1, 6))):
        at = draw(st.integers(0, max(len(data) - 1, 0)))
        edit = draw(st.sampled_from(["byte", "octal", "cut", "repeat"]))
        if edit == "byte":
            data[at] = draw(st.integers(0, 255))
        elif edit == "octal":  # a size or checksum field made huge, or odd
            data[at : at + 12] = draw(st.sampled_from([b"77777777777\0", b"\x80" + b"\xff" * 11,
                                                       b"00000001000\0", b"-1\0"]))  # fmt: skip
        elif edit == "cut":
            del data[at : at + draw(st.integers(1, 1024))]
        else:
            end = min(len(data), at + 512)
            data[at:end] = data[at:end] * draw(st.integers(2, 50))
    return bytes(data)


def reads_or_refuses(content: bytes) -> None:
    start = time.perf_counter()
    try:
        files = read_archive(content)
        assert not any("\x00" in text for text in files.values())
    except ArchiveError as error:
        assert str(error)
    assert time.perf_counter() - start < SECONDS


@FUZZ
@given(data=st.data())
def test_a_damaged_real_archive_is_read_or_refused(data):
    reads_or_refuses(data.draw(damaged(tar_gz(h200_vm_files()))))


@FUZZ
@given(data=st.data())
def test_a_damaged_tar_inside_good_gzip_is_read_or_refused(data):
    reads_or_refuses(gzip_bytes(data.draw(damaged(tar_bytes(h200_vm_files())))))
