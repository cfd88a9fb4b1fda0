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


def test_nccl_tests_average_bus_bandwidth():
    text = "#  Out of bounds values : 0 OK\n# Avg bus bandwidth    : 185.302 \n#\n"
    assert p.parse_nccl_busbw(text) == pytest.approx(185.302)


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
    assert p.parse_nccl_busbw(fixture("public/nccl-tests-tail-mpirun.txt")) == 92.3405
