"""The probe parsers read real command output (tests/fixtures/probe/*/README.md)."""

import pytest

from configurator.fleet.probe import parsers as p
from tests.fleet.probe_archives import fixture


def test_lscpu_of_the_h200_vm_is_one_socket_of_16_cores():
    cpu = p.parse_lscpu_json(fixture("h200-vm/lscpu.json"))
    assert (cpu.sockets, cpu.cores_per_socket, cpu.threads_per_core) == (1, 16, 1)
    assert cpu.model == "Intel(R) Xeon(R) Processor"


def test_numactl_of_the_h200_vm_is_one_node():
    [node] = p.parse_numactl_hardware(fixture("h200-vm/numactl-hardware.txt"))
    assert node.cpus == frozenset(range(16)) and node.size_mb == 4443


def test_topo_with_ansi_escapes_reads_one_gpu_on_node_0():
    topology = p.parse_topo(fixture("h200-vm/nvidia-smi-topo.txt"))
    [gpu] = topology.gpus
    assert gpu.cpu_affinity == frozenset(range(16)) and gpu.numa_affinity == 0
    assert topology.nvlink_pairs() == 0


def test_topo_of_8_gpus_on_two_sockets():
    topology = p.parse_topo(fixture("public/nvidia-smi-topo-8x4090-dual-socket.txt"))
    assert [gpu.numa_affinity for gpu in topology.gpus] == [0, 0, 0, 0, 1, 1, 1, 1]
    assert 112 in topology.gpus[0].cpu_affinity and 56 in topology.gpus[7].cpu_affinity
    assert [nic.name for nic in topology.nics] == ["NIC0", "NIC1"]
    assert topology.gpus[6].links["NIC0"] == "PHB"
    assert topology.nvlink_pairs() == 0


def test_topo_space_separated_with_nvlink():
    text = (
        "        GPU0    GPU1    CPU Affinity    NUMA Affinity\n"
        "GPU0     X      NV18    0-51            0\n"
        "GPU1    NV18     X      52-103          1\n"
    )
    topology = p.parse_topo(text)
    assert topology.nvlink_pairs() == 1
    assert topology.gpus[1].numa_affinity == 1


def test_nvidia_smi_xml_of_the_h200():
    [gpu] = p.parse_nvidia_smi_xml(fixture("h200-vm/nvidia-smi-q.xml"))
    assert gpu.name == "NVIDIA H200" and gpu.memory_mib == 143771
    assert (gpu.link_gen_max, gpu.link_width_current, gpu.ecc_enabled) == (5, 16, True)


def test_lspci_idle_speed_drop_is_not_a_width_downgrade():
    [link] = p.parse_lspci(fixture("public/lspci-vv-rtx-a4000.txt"))
    assert (link.cap_speed_gts, link.cap_width, link.speed_gts, link.width) == (16, 16, 2.5, 16)
    assert link.speed_downgraded and not link.width_downgraded
    assert link.numa_node == 0 and link.is_nvidia_gpu


def test_lspci_width_downgrade():
    [link] = p.parse_lspci(fixture("public/lspci-vv-quadro-rtx8000-x1.txt"))
    assert link.width == 1 and link.width_downgraded


def test_dmidecode_registered_ecc_dimm():
    memory = p.parse_dmidecode_memory(fixture("public/dmidecode-memory-ddr4-rdimm.txt"))
    [dimm] = memory.dimms
    assert (dimm.size_gb, dimm.ecc, dimm.kind) == (32, True, "DDR4")
    assert memory.array_ecc == ("Single-bit ECC",)


def test_dmidecode_skips_empty_slots():
    memory = p.parse_dmidecode_memory(fixture("public/dmidecode-memory-epyc-empty-slot.txt"))
    assert [dimm.locator for dimm in memory.dimms] == ["DIMMC2"]


def test_dmidecode_non_ecc_synthetic():
    text = fixture("synthetic/dmidecode-memory-non-ecc.SYNTHETIC.txt")
    [dimm] = p.parse_dmidecode_memory(text).dimms
    assert dimm.ecc is False


def test_nccl_tests_average_bus_bandwidth_is_kept_apart_from_the_plateau():
    text = "#  Out of bounds values : 0 OK\n# Avg bus bandwidth    : 185.302 \n#\n"
    run = p.parse_nccl_tests(text)
    assert run.average_busbw == pytest.approx(185.302)
    assert run.curve == () and run.plateau_busbw is None


@pytest.mark.parametrize(
    ("parse", "text"),
    [
        (p.parse_lscpu_json, "not json"),
        (p.parse_numactl_hardware, "numactl: command not found"),
        (p.parse_topo, "NVIDIA-SMI has failed"),
        (p.parse_nvidia_smi_xml, "<nope"),
        (p.parse_dmidecode_memory, "# dmidecode 3.6\n"),
    ],
)
def test_wrong_output_is_a_parse_error(parse, text):
    with pytest.raises(p.ProbeParseError):
        parse(text)


def test_nccl_tests_summary_under_mpirun():
    run = p.parse_nccl_tests(fixture("public/nccl-tests-tail-mpirun.txt"))
    assert run.average_busbw == 92.3405 and run.plateau_busbw is None


# Variants of real output: separators, locales, older tools ----------------------------------


def test_topo_with_a_byte_order_mark_and_crlf_reads_the_same():
    text = fixture("public/nvidia-smi-topo-8x4090-dual-socket.txt")
    plain = p.parse_topo(text)
    marked = p.parse_topo("\ufeff" + text.replace("\n", "\r\n"))
    assert [g.cpu_affinity for g in marked.gpus] == [g.cpu_affinity for g in plain.gpus]
    assert [g.numa_affinity for g in marked.gpus] == [0, 0, 0, 0, 1, 1, 1, 1]


def test_topo_shown_with_spaces_for_tabs_reads_the_same():
    """A terminal shows each tab as spaces to the next multiple of 8: after a 7-character
    name such as mlx5_10, one space, the same as inside "CPU Affinity"."""
    text = fixture("public/nvidia-smi-topo-8x4090-dual-socket.txt")
    spaced = p.parse_topo("\n".join(line.expandtabs(8) for line in text.split("\n")))
    assert [g.numa_affinity for g in spaced.gpus] == [0, 0, 0, 0, 1, 1, 1, 1]
    assert 112 in spaced.gpus[0].cpu_affinity and not spaced.cut_short
    renamed = text.replace("NIC0", "mlx5_10").replace("NIC1", "mlx5_11")
    spaced = p.parse_topo("\n".join(line.expandtabs(8) for line in renamed.split("\n")))
    assert [nic.name for nic in spaced.nics] == ["mlx5_10", "mlx5_11"]
    assert [g.numa_affinity for g in spaced.gpus] == [0, 0, 0, 0, 1, 1, 1, 1]
    assert spaced.gpus[6].links["mlx5_10"] == "PHB"


def test_topo_cut_after_two_rows_is_cut_short():
    text = fixture("public/nvidia-smi-topo-8x4090-dual-socket.txt")
    cut = p.parse_topo("\n".join(text.split("\n")[:3]))
    assert len(cut.gpus) == 2 and cut.column_gpus == 8 and cut.cut_short


def test_plain_lscpu_reads_as_lscpu_json_does():
    text = (
        "Architecture:        x86_64\nCPU(s):              16\nThread(s) per core:  1\n"
        "Core(s) per socket:  16\nSocket(s):           1\nNUMA node(s):        1\n"
        "Vendor ID:           GenuineIntel\nModel name:          Intel(R) Xeon(R) Processor\n"
        "Flags:               fpu vme de pse\n"
    )
    assert p.parse_lscpu_text(text) == p.parse_lscpu_json(fixture("h200-vm/lscpu.json"))


def test_lscpu_json_with_translated_field_names():
    """lscpu -J under zh_CN.UTF-8: util-linux's po/zh_CN.po names the fields."""
    real = fixture("h200-vm/lscpu.json")
    chinese = real
    for english, translated in [("Socket(s):", "座："), ("Core(s) per socket:", "每个座的核数："),
                                ("Thread(s) per core:", "每个核的线程数："),
                                ("Model name:", "型号名称："), ("NUMA node(s):", "NUMA 节点："),
                                ("Vendor ID:", "厂商 ID："), ("Model:", "型号：")]:  # fmt: skip
        chinese = chinese.replace(f'"{english}"', f'"{translated}"')
    assert "座：" in chinese
    assert p.parse_lscpu_json(chinese) == p.parse_lscpu_json(real)


def test_a_shared_translation_is_read_for_the_field_its_value_fits():
    """zh_TW names "Model:" and "Model name:" both 型號：; the model name is not a number."""
    text = (
        "型號：                  85\n型號：                  Intel(R) Xeon(R) Gold 6530\n"
        "通訊端：  2\n每通訊端核心數： 32\n"
    )
    cpu = p.parse_lscpu_text(text)
    assert (cpu.model, cpu.sockets, cpu.cores_per_socket) == ("Intel(R) Xeon(R) Gold 6530", 2, 32)


def test_nccl_tests_table_is_read_by_its_header():
    text = (
        "#       size         count      type   redop    root     time   algbw   busbw #wrong"
        "     time   algbw   busbw #wrong\n"
        "           8             2     float     sum      -1    42.56    0.00    0.00      0"
        "    41.00    0.00    0.00      0\n"
        "  8589934592    2147483648     float     sum      -1    73372  117.07  219.51      0"
        "    73006  117.66  220.61      0\n"
        "# Avg bus bandwidth    : 50.906 \n"
    )
    run = p.parse_nccl_tests(text)
    assert run.curve == ((8, 0.0), (8589934592, 220.61))
    assert run.plateau_busbw == 220.61 and run.average_busbw == 50.906
