"""Every probe parser has a budget: a count no node can have is refused, by file and line,
before anything that grows with it is allocated; the archive is read within its limits."""

import time
import tracemalloc

import pytest

from configurator.fleet.probe import archive
from configurator.fleet.probe import parsers as p
from configurator.fleet.probe.archive import ArchiveError, read_archive
from configurator.fleet.probe.facts import node_facts
from tests.fleet.probe_archives import (
    empty_entries_archive,
    fixture,
    gnu_long_name_archive,
    h200_vm_files,
    huge_skipped_member_archive,
    long_name_chain_archive,
    lscpu_synthetic,
    nul_files,
    numactl_range_files,
    pax_header_archive,
    sparse_member_archive,
    tar_gz,
)


def peak_mb(work) -> float:
    """Return the tracemalloc peak (MB) of `work()`, an exception included."""
    tracemalloc.start()
    try:
        work()
    except (ArchiveError, p.ProbeParseError):
        pass
    finally:
        peak = tracemalloc.get_traced_memory()[1]
        tracemalloc.stop()
    return peak / 2**20


def parse_error(parse, text) -> p.ProbeParseError:
    with pytest.raises(p.ProbeParseError) as caught:
        parse(text)
    return caught.value


# CPU lists -------------------------------------------------------------------------------


def test_a_node_of_three_million_cpus_is_refused_by_file_and_line_before_it_allocates():
    files = numactl_range_files(3_000_000)
    with pytest.raises(p.ProbeParseError) as caught:
        node_facts(files)
    assert str(caught.value) == (
        "numactl-hardware.txt line 2: node 0 lists 3,000,001 CPUs; a node has at most 8,192"
    )
    assert peak_mb(lambda: node_facts(files)) < 1


@pytest.mark.parametrize(
    ("cpus", "message"),
    [
        ("5-3", "node 0 has the range 5-3, which ends before it starts"),
        ("9000", "node 0 names CPU 9,000; Linux numbers them 0 to 8,191"),
        ("0-8191,0-8191", "node 0 lists 16,384 CPUs; a node has at most 8,192"),
        ("1" + "0" * 5000, "node 0 names CPU 10000000000000000000…; Linux numbers them 0 to 8,191"),
        ("0-15 ²", "node 0 is not a CPU list: '0-15 ²'"),
    ],
)
def test_a_cpu_list_no_linux_can_have_is_refused(cpus, message):
    text = f"available: 1 nodes (0)\nnode 0 cpus: {cpus}\nnode 0 size: 4443 MB\n"
    error = parse_error(p.parse_numactl_hardware, text)
    assert (error.line, error.message % error.params) == (2, message)


def test_nodes_together_are_held_to_one_nodes_cpus():
    text = "node 0 cpus: 0-8191\nnode 1 cpus: 0-8191\n"
    error = parse_error(p.parse_numactl_hardware, text)
    assert error.line == 2 and "16,384 CPUs together" in str(error)


def test_a_numa_node_past_linuxs_last_is_refused():
    error = parse_error(p.parse_numactl_hardware, "node 1024 cpus: 0-3\n")
    assert str(error) == "line 1: node is 1,024; it can be 0 to 1,023"


def test_a_gpus_cpu_affinity_is_bounded_as_a_nodes_cpus_are():
    files = h200_vm_files()
    files["nvidia-smi-topo.txt"] = files["nvidia-smi-topo.txt"].replace("0-15", "0-20000")
    with pytest.raises(p.ProbeParseError) as caught:
        node_facts(files)
    assert str(caught.value) == (
        "nvidia-smi-topo.txt line 2: GPU0 lists 20,001 CPUs; a node has at most 8,192"
    )


def test_distinct_affinities_of_many_rows_are_bounded_together():
    rows = "".join(f"GPU{i}\t X \t{i}-{8000 + i}\t0\n" for i in range(8))
    error = parse_error(p.parse_topo, "\tGPU0\tCPU Affinity\tNUMA Affinity\n" + rows)
    assert "CPU affinities list 40,005 CPUs together" in str(error) and error.line == 6


def test_a_topology_of_too_many_devices_is_refused():
    rows = "".join(f"GPU{i}\t X \t0-3\t0\n" for i in range(p.MAX_TOPO_DEVICES + 1))
    error = parse_error(p.parse_topo, "\tGPU0\tCPU Affinity\tNUMA Affinity\n" + rows)
    assert error.line == p.MAX_TOPO_DEVICES + 2


# lscpu -----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("sockets", "cores", "threads", "message"),
    [
        ("0", "16", "1", "Socket(s) is 0; it can be 1 to 64"),
        ("1", "16", "0", "Thread(s) per core is 0; it can be 1 to 8"),
        ("²", "16", "1", "Socket(s) is '²', not a whole number"),
        ("2", "9" * 400, "1", "Core(s) per socket is a number of 400 digits; it can be 1 to 8,192"),
        ("100000", "16", "1", "Socket(s) is 100,000; it can be 1 to 64"),
        ("64", "8192", "8", "64 sockets × 8,192 cores × 8 threads make 4,194,304 CPUs; "
                            "a node has at most 8,192"),
    ],
)  # fmt: skip
def test_lscpu_counts_no_node_has_are_refused_by_field(sockets, cores, threads, message):
    files = h200_vm_files()
    files["lscpu.json"] = lscpu_synthetic("Intel(R) Xeon(R) Processor", sockets, cores, threads)
    with pytest.raises(p.ProbeParseError) as caught:
        node_facts(files).gpus_per_socket()
    assert str(caught.value) == f"lscpu.json: {message}"


def nested_lscpu(depth: int) -> str:
    children = "[]"
    for level in range(depth):
        children = f'[{{"field": "x{level}", "data": "1", "children": {children}}}]'
    counts = '{"field": "Socket(s):", "data": "1"}, {"field": "Core(s) per socket:", "data": "4"}'
    return f'{{"lscpu": [{counts}, {{"field": "y", "children": {children}}}]}}'


@pytest.mark.parametrize(
    "text",
    ['{"lscpu": ' + "[" * 100_000 + "]" * 100_000 + "}", '{"lscpu": [1, 2]}', '{"lscpu": 7}',
     nested_lscpu(50)],
)  # fmt: skip
def test_lscpu_json_that_is_not_lscpus_is_a_parse_error(text):
    parse_error(p.parse_lscpu_json, text)


# nvidia-smi -q -x, lspci, dmidecode --------------------------------------------------------


def test_nvidia_smi_xml_may_not_declare_entities():
    entity = "a" * 1000
    text = (f'<!DOCTYPE x [<!ENTITY a "{entity}">]><nvidia_smi_log><gpu id="0">'
            f"<product_name>{'&a;' * 1000}</product_name></gpu></nvidia_smi_log>")  # fmt: skip
    assert "never declares an XML entity" in str(parse_error(p.parse_nvidia_smi_xml, text))


def test_nvidia_smi_xml_is_read_one_gpu_at_a_time_within_its_element_budget():
    gpu = fixture("h200-vm/nvidia-smi-q.xml").split("<gpu ", 1)[1].rsplit("</gpu>", 1)[0]
    many = "<nvidia_smi_log>" + f"<gpu {gpu}</gpu>" * 40 + "</nvidia_smi_log>"
    assert len(p.parse_nvidia_smi_xml(many)) == 40
    assert peak_mb(lambda: p.parse_nvidia_smi_xml(many)) < 2  # one GPU's tree at a time
    wide = "<nvidia_smi_log><gpu>" + "<x/>" * 6000 + "</gpu></nvidia_smi_log>"
    assert "elements" in str(parse_error(p.parse_nvidia_smi_xml, wide))
    too_many = "<nvidia_smi_log>" + "<gpu/>" * (p.MAX_GPUS + 1) + "</nvidia_smi_log>"
    assert "more than 128 GPUs" in str(parse_error(p.parse_nvidia_smi_xml, too_many))


def test_lspci_of_too_many_functions_is_refused_by_line():
    text = "".join(f"{bus:02x}:{dev:02x}.0 x\n" for bus in range(256) for dev in range(33))
    error = parse_error(p.parse_lspci, text)
    assert error.line == p.MAX_PCI_FUNCTIONS + 1


def test_dmidecode_size_of_400_digits_is_refused_by_line():
    text = fixture("public/dmidecode-memory-ddr4-rdimm.txt").replace("32 GB", "9" * 400 + " GB")
    error = parse_error(p.parse_dmidecode_memory, text)
    assert "Size is" in str(error) and error.line is not None


def test_a_line_longer_than_any_command_prints_is_refused():
    error = parse_error(p.parse_lspci, "00:00.0 " + "x" * p.MAX_LINE_CHARS + "\n")
    assert error.line == 1 and "characters long" in str(error)


# The archive ------------------------------------------------------------------------------


def refusal(content: bytes) -> tuple[str, float, float]:
    """Return read_archive's refusal, its seconds and its tracemalloc peak in MB."""
    start = time.perf_counter()
    with pytest.raises(ArchiveError) as caught:
        read_archive(content)
    seconds = time.perf_counter() - start
    return str(caught.value), seconds, peak_mb(lambda: read_archive(content))


def test_an_archive_of_many_empty_entries_stops_at_the_member_limit():
    message, seconds, peak = refusal(empty_entries_archive(archive.MAX_MEMBERS + 1))
    assert message == "The archive has more than 256 members; probe.sh writes about 15."
    assert seconds < 1 and peak < 2


def test_a_gnu_long_name_is_sized_before_it_is_read():
    message, _, peak = refusal(gnu_long_name_archive(16 * 2**20))
    assert message == (
        "A GNU long name header of 16,777,216 bytes is in the archive; the limit is 4,096 bytes."
    )
    assert peak < 2


def test_a_pax_header_is_sized_before_it_is_read():
    message, _, peak = refusal(pax_header_archive(16 * 2**20))
    assert message.startswith("A PAX header of 16,777,216 bytes") and peak < 2


def test_a_long_name_within_the_header_limit_is_still_a_name_too_long():
    message, _, _ = refusal(pax_header_archive(8000))
    assert message.startswith("A member's name is 7,98")


def test_a_chain_of_extended_headers_is_refused():
    assert "extended headers" in refusal(long_name_chain_archive(5))[0]
    assert "extended headers" in refusal(long_name_chain_archive(2000))[0]  # tarfile recursion


def test_a_sparse_member_is_refused():
    assert "sparse" in refusal(sparse_member_archive())[0]


def test_members_no_parser_reads_count_towards_the_unpacked_size():
    message, seconds, peak = refusal(huge_skipped_member_archive(64 * 2**20))
    assert message == "The archive unpacks to over 32 MB."
    assert seconds < 1 and peak < 2


def test_each_probe_file_has_its_own_size_limit():
    files = h200_vm_files()
    files["lscpu.json"] += " " * 300_000
    assert refusal(tar_gz(files))[0] == "lscpu.json is 0.29 MB; the limit for it is 0.25 MB."


def test_the_unpacked_stream_and_the_clock_are_bounded(monkeypatch):
    good = tar_gz(h200_vm_files())
    monkeypatch.setattr(archive, "MAX_STREAM_BYTES", 4096)
    assert refusal(good)[0] == "The archive's unpacked tar stream is over 0.00 MB."
    monkeypatch.undo()
    monkeypatch.setattr(archive, "MAX_SECONDS", 0)
    assert refusal(good)[0] == "Reading the archive took over 0 s."


def test_nul_never_leaves_the_archive():
    files = read_archive(tar_gz(nul_files()))
    assert not any("\x00" in text for text in files.values())
    assert files["hostname.txt"] == "h200\ufffdvm\n"
    assert node_facts(files).gpus  # the node is still read


# Plain lscpu, the nccl-tests curve, a topology read word by word ------------------------------


def test_plain_lscpu_keeps_only_the_fields_a_check_reads():
    text = "".join(f"Field {i}:  {'x' * 100}\n" for i in range(100_000)) + "Socket(s): 2\n"
    text += "Core(s) per socket: 4\n"
    assert p.parse_lscpu_text(text).sockets == 2
    assert peak_mb(lambda: p.parse_lscpu_text(text)) < 2  # the lines are never all kept


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("Socket(s):  " + "9" * 400 + "\nCore(s) per socket: 4\n",
         "Socket(s) is a number of 400 digits; it can be 1 to 64"),
        ("座：  0\n每个座的核数：  4\n", "Socket(s) is 0; it can be 1 to 64"),
        ("Core(s) per socket: 4\n", "lscpu has no 'Socket(s)'"),
    ],
)  # fmt: skip
def test_plain_lscpu_counts_are_refused_as_lscpu_jsons_are(text, message):
    assert str(parse_error(p.parse_lscpu_text, text)) == message


def test_plain_lscpu_of_more_lines_than_a_command_prints_is_refused_by_line():
    error = parse_error(p.parse_lscpu_text, "x\n" * (p.MAX_LINES + 1))
    assert error.line == p.MAX_LINES + 1


HEADER = "# size count type redop root time algbw busbw #wrong time algbw busbw #wrong\n"


def nccl_row(size: int, busbw: str = "1.00") -> str:
    return f"{size} 2 float sum -1 1.0 1.0 {busbw} 0 1.0 1.0 {busbw} 0\n"


def test_an_nccl_curve_of_more_sizes_than_a_sweep_has_is_refused_by_line():
    text = HEADER + "".join(nccl_row(8 * (i + 1)) for i in range(p.MAX_NCCL_SIZES + 1))
    error = parse_error(p.parse_nccl_tests, text)
    assert error.line == p.MAX_NCCL_SIZES + 2 and "more than 1,024 message sizes" in str(error)
    assert peak_mb(lambda: p.parse_nccl_tests(text)) < 2


def test_the_same_size_twice_is_one_point_of_the_curve():
    text = HEADER + nccl_row(8, "1.00") * 5000
    assert p.parse_nccl_tests(text).curve == ((8, 1.0),)


def test_an_nccl_size_of_400_digits_is_refused_by_line():
    error = parse_error(p.parse_nccl_tests, HEADER + nccl_row(int("9" * 400)))
    assert error.line == 2 and "size is a number of 400 digits" in str(error)


def test_an_nccl_bandwidth_of_400_digits_is_not_read_as_a_number():
    run = p.parse_nccl_tests(HEADER + nccl_row(8, "9" * 400) + nccl_row(16, "2.5"))
    assert run.curve == ((16, 2.5),)


def test_a_topology_header_of_more_words_than_devices_is_refused_before_it_is_split():
    header = "\t" + "\t".join(f"GPU{i}" for i in range(p.MAX_TOPO_DEVICES + 20)) + "\n"
    error = parse_error(p.parse_topo, header + "GPU0\t X\n")
    assert error.line == 1 and "columns" in str(error)
