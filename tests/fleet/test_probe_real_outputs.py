"""Real command output, collected from public sources, reads as a person reads it.

Each row: a fixture (tests/fixtures/probe/public/README.md cites where it was published), the
parser, and the facts one reads off the raw text by eye. The source is beside each row.
"""

import pytest

from configurator.fleet.probe import parsers as p
from configurator.fleet.probe.facts import node_facts
from tests.fleet.probe_archives import fixture


def lscpu(path):
    cpu = p.parse_lscpu_text(fixture(path))
    return {"model": cpu.model, "sockets": cpu.sockets, "cores": cpu.cores_per_socket,
            "threads": cpu.threads_per_core, "numa": cpu.numa_nodes}  # fmt: skip


def numactl(path):
    return {node.node: (len(node.cpus), node.size_mb) for node in p.parse_numactl_hardware(
        fixture(path))}  # fmt: skip


def topo(path):
    topology = p.parse_topo(fixture(path))
    return {
        "gpus": [gpu.name for gpu in topology.gpus],
        "numa": [gpu.numa_affinity for gpu in topology.gpus],
        "first affinity": sorted(topology.gpus[0].cpu_affinity)[:1]
        + sorted(topology.gpus[0].cpu_affinity)[-1:],
        "nics": len(topology.nics) or len([c for c in topology.columns if not c.startswith("GPU")]),
        "nvlink pairs": topology.nvlink_pairs(),
        "cut short": topology.cut_short,
    }


def nccl(path):
    run = p.parse_nccl_tests(fixture(path))
    return {"sizes": len(run.curve), "largest": run.curve[-1] if run.curve else None,
            "plateau": run.plateau_busbw, "average": run.average_busbw}  # fmt: skip


def lspci(path):
    return [(link.address, link.cap_width, link.width, link.cap_speed_gts, link.speed_gts)
            for link in p.parse_lspci(fixture(path))]  # fmt: skip


def dmidecode(path):
    memory = p.parse_dmidecode_memory(fixture(path))
    return [(dimm.locator, dimm.size_gb, dimm.ecc) for dimm in memory.dimms]


def smi(path):
    return [(gpu.name, gpu.link_gen_max, gpu.link_gen_device_max, gpu.link_width_current,
             gpu.ecc_enabled) for gpu in p.parse_nvidia_smi_xml(fixture(path))]  # fmt: skip


def smi_links(path):
    """Each GPU as one reads it off `nvidia-smi -q -x`: bus id, model, memory, the PCIe
    generation (current/max) and width (current/max), ECC."""
    return [(gpu.bus_id, gpu.name, gpu.memory_mib, gpu.link_gen_current, gpu.link_gen_max,
             gpu.link_width_current, gpu.link_width_max, gpu.ecc_enabled)
            for gpu in p.parse_nvidia_smi_xml(fixture(path))]  # fmt: skip


V100S_PCIE = "public/nvidia-smi-q-x-8x-v100s-pcie-gen3.xml"


SAMPLES = [
    # lscpu, Intel and AMD, old flat and util-linux >= 2.38 nested layouts, and zh_CN
    ("public/lscpu-xeon-8462y-plus-nested.txt", lscpu,
     {"model": "Intel(R) Xeon(R) Platinum 8462Y+", "sockets": 2, "cores": 28, "threads": 2,
      "numa": 1},
     "siderolabs/talos#9121"),
    ("public/lscpu-xeon-e5-2696-v4.txt", lscpu,
     {"model": "Intel(R) Xeon(R) CPU E5-2696 v4 @ 2.20GHz", "sockets": 2, "cores": 22,
      "threads": 2, "numa": 2},
     "Stephenzhou718/test#19"),
    ("public/lscpu-epyc-7281-dual-socket.txt", lscpu,
     {"model": "AMD EPYC 7281 16-Core Processor", "sockets": 2, "cores": 16, "threads": 1,
      "numa": 8},
     "smxi/inxi#136"),
    ("public/lscpu-epyc-8434p.txt", lscpu,
     {"model": "AMD EPYC 8434P 48-Core Processor", "sockets": 1, "cores": 48, "threads": 2,
      "numa": 8},
     "sustainable-computing-io/kepler#1288"),
    ("public/lscpu-zh-cn-spacemit-x60.txt", lscpu,
     {"model": "Spacemit(R) X60", "sockets": 1, "cores": 8, "threads": 1, "numa": 1},
     "ruyisdk/support-matrix LicheePi3A/openKylin/README.md"),
    # numactl --hardware: two sockets, memoryless nodes, sparse node numbers
    ("public/numactl-hardware-c5n-2-nodes.txt", numactl,
     {0: (36, 94590), 1: (36, 94710)}, "awslabs/aws-c-s3#403"),
    ("public/numactl-hardware-threadripper-nps4.txt", numactl,
     {0: (12, 0), 1: (12, 64307), 2: (12, 64472), 3: (12, 0)}, "numactl/numactl#165"),
    ("public/numactl-hardware-sparse-nodes.txt", numactl,
     {0: (64, 260788), 8: (64, 261747), 252: (0, 16128), 253: (0, 16128), 254: (0, 16128),
      255: (0, 16128)},
     "StanfordLegion/legion#1338"),
    # nvidia-smi topo -m: tabs, and spaces with 7-character NIC names
    ("public/nvidia-smi-topo-8x4090-dual-socket.txt", topo,
     {"gpus": [f"GPU{i}" for i in range(8)], "numa": [0, 0, 0, 0, 1, 1, 1, 1],
      "first affinity": [0, 167], "nics": 2, "nvlink pairs": 0, "cut short": False},
     "NVIDIA/go-gpuallocator#17"),
    ("public/nvidia-smi-topo-8xa100-mlx5-spaces-excerpt.txt", topo,
     {"gpus": ["GPU0", "GPU1", "GPU2", "GPU3"], "numa": [0, 0, 0, 0],
      "first affinity": [0, 143], "nics": 18, "nvlink pairs": 6, "cut short": True},
     "NVIDIA/nccl#707"),
    ("public/nvidia-smi-topo-8xh-nv18-9nics-spaces-excerpt.txt", topo,
     {"gpus": [f"GPU{i}" for i in range(6)], "numa": [0, 0, 0, 1, 2, 2],
      "first affinity": [0, 119], "nics": 9, "nvlink pairs": 15, "cut short": True},
     "sgl-project/sglang#13973"),
    # all_reduce_perf: a full 8 B - 8 GB sweep on 2 x 8 H100
    ("public/nccl-tests-2x8-h100-full-sweep.txt", nccl,
     {"sizes": 31, "largest": (8589934592, 338.82), "plateau": 330.58, "average": 70.742},
     "lessizzmore/create-a3mega-ztan-fork ztan-NCCL-test-result"),
    ("public/nccl-tests-tail-mpirun.txt", nccl,
     {"sizes": 0, "largest": None, "plateau": None, "average": 92.3405},
     "aws/aws-k8s-tester#503"),
    # lspci -vv and dmidecode, as before
    ("public/lspci-vv-rtx-a4000.txt", lspci,
     [("0004:01:00.0", 16, 16, 16.0, 2.5)], "geerlingguy/raspberry-pi-pcie-devices#692"),
    ("public/dmidecode-memory-epyc-empty-slot.txt", dmidecode,
     [("DIMMC2", 32, True)], "mchehab/rasdaemon#64"),
    ("h200-vm/nvidia-smi-q.xml", smi, [("NVIDIA H200", 5, 5, 16, True)],
     "captured here, h200-vm/README.md"),
    # nvidia-smi -q -x, driver 460: 8 PCIe Gen3 cards, each at Gen3 x16 of Gen3 x16; this
    # driver prints no <max_device_link_gen>, so the GPU's own best generation is unknown
    (V100S_PCIE, smi_links,
     [(f"00000000:00:{slot}.0", "Tesla V100S-PCIE-32GB", 32510, 3, 3, 16, 16, True)
      for slot in ("0D", "0E", "0F", "10", "11", "12", "13", "14")],
     "GuanceCloud/datakit plugins/inputs/nvidiasmi/testdata/gtx-8card.xml"),
]  # fmt: skip


@pytest.mark.parametrize(("path", "read", "expected", "source"), SAMPLES,
                         ids=[row[0] for row in SAMPLES])  # fmt: skip
def test_a_real_sample_reads_as_a_person_reads_it(path, read, expected, source):
    assert read(path) == expected, source


def test_a_gen3_card_in_a_gen3_slot_is_no_slow_slot():
    """Eight V100S at Gen3 x16 in Gen3 slots (the public 8-card XML, README.md): the node's
    PCIe generation is 3, and no GPU is reported narrow, in a slow slot or without ECC; the
    only findings are the files this one-file archive lacks."""
    facts = node_facts({"nvidia-smi-q.xml": fixture(V100S_PCIE)})
    assert len(facts.gpus) == 8 and facts.pcie_gen == 3
    codes = {finding.code for finding in facts.findings()}
    assert codes == {"not_collected"}, codes
