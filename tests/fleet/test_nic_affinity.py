"""Each GPU's nearest NIC, read from real `nvidia-smi topo -m` outputs, and held against a
build with NICs: on the GPU's own socket (NODE or nearer).

The fixtures are public (tests/fixtures/probe/public/README.md cites each):
- nvidia-smi-topo-8x4090-dual-socket.txt: NVIDIA/go-gpuallocator issue #17,
  https://github.com/NVIDIA/go-gpuallocator/issues/17
- nvidia-smi-topo-8xh-nv18-9nics-spaces-excerpt.txt: sgl-project/sglang issue #13973,
  https://github.com/sgl-project/sglang/issues/13973
- nvidia-smi-topo-8xa100-mlx5-spaces-excerpt.txt: NVIDIA/nccl issue #707,
  https://github.com/NVIDIA/nccl/issues/707
"""

from dataclasses import replace

import pytest

from configurator.engine.rules import RuleParams
from configurator.fleet.manifest import compare, expected_manifest
from configurator.fleet.probe import parsers as p
from configurator.fleet.probe.facts import NodeFacts
from configurator.fleet.probe.partial import facts_out
from tests.engine.builders import node, rtx_4090, xeon_gold_6530
from tests.fleet.probe_archives import dual_socket_synthetic, fixture
from tests.fleet.test_delivered_as_quoted import AS_DELIVERED, upload


def gpu_nics_of(text: str):
    """Return the probe's `gpu_nics` fact of a `nvidia-smi topo -m` text."""
    facts = NodeFacts(cpu=None, gpus=(), topology=p.parse_topo(text))
    return facts_out(facts, cpu_slug=None, gpu_slug=None)["gpu_nics"]


def gpu_nics(path: str):
    return gpu_nics_of(fixture(path))


@pytest.mark.parametrize(
    ("path", "read"),
    [
        # GPU6's row: PHB to NIC0 and NIC1 (NIC0 first); every other GPU row: SYS to both
        ("public/nvidia-smi-topo-8x4090-dual-socket.txt",
         [("NIC0", "SYS")] * 6 + [("NIC0", "PHB"), ("NIC0", "SYS")]),
        # each GPU has a NIC behind its own switch (PIX); GPU3's NIC3 is NODE, its NIC4 PIX
        ("public/nvidia-smi-topo-8xh-nv18-9nics-spaces-excerpt.txt",
         [("NIC0", "PIX"), ("NIC1", "PIX"), ("NIC2", "PIX"), ("NIC4", "PIX"), ("NIC5", "PIX"),
          ("NIC6", "PIX")]),
        # GPU0/1: NODE to mlx5_0–3, PXB to mlx5_4–7; GPU2/3 the other way round
        ("public/nvidia-smi-topo-8xa100-mlx5-spaces-excerpt.txt",
         [("mlx5_4", "PXB")] * 2 + [("mlx5_0", "PXB")] * 2),
    ],
)  # fmt: skip
def test_each_gpus_nearest_nic_is_read_off_the_matrix(path, read):
    nics = gpu_nics(path)
    assert [gpu["gpu"] for gpu in nics] == [f"GPU{n}" for n in range(len(read))]
    assert [(gpu["nic"], gpu["path"]) for gpu in nics] == read


def test_a_matrix_without_nics_has_no_nearest_nic():
    text = "\tGPU0\tGPU1\tCPU Affinity\nGPU0\t X \tNV4\t0-7\nGPU1\tNV4\t X \t0-7\n"
    assert gpu_nics_of(text) is None


def test_the_manifest_wants_a_nic_on_each_gpus_socket_only_with_nics():
    build = node(xeon_gold_6530(), rtx_4090(), 8, 1024)
    rules = RuleParams()
    assert expected_manifest(build, rules)["nic_path_max"] is None
    with_nics = expected_manifest(replace(build, nics=2), rules)
    assert with_nics["nic_path_max"] == "NODE"
    facts = {"gpu_nics": gpu_nics("public/nvidia-smi-topo-8x4090-dual-socket.txt")}
    lines = [line for line in compare(with_nics, facts, rules) if line.item == "nic_affinity"]
    assert [(line.subject, line.measured, line.status) for line in lines] == [
        *((f"GPU{n}", "NIC0 SYS", "FAIL") for n in range(6)),
        ("GPU6", "NIC0 PHB", "PASS"),
        ("GPU7", "NIC0 SYS", "FAIL"),
    ]
    assert {line.step for line in lines if line.status == "FAIL"} == {"nic_affinity"}
    assert not [x for x in compare(expected_manifest(build, rules), facts, rules)
                if x.item == "nic_affinity"]  # fmt: skip
    # without topo -m: one line, not measured; a GPU row without a NIC cell: that GPU's
    [unknown] = [x for x in compare(with_nics, {}, rules) if x.item == "nic_affinity"]
    assert (unknown.status, unknown.step) == ("WARN", "not_measured")
    gap = {"gpu_nics": [{"gpu": "GPU0", "nic": None, "path": None}]}
    [line] = [x for x in compare(with_nics, gap, rules) if x.item == "nic_affinity"]
    assert (line.subject, line.status) == ("GPU0", "WARN")


def test_a_manifest_frozen_before_nic_affinity_has_no_nic_lines():
    build = replace(node(xeon_gold_6530(), rtx_4090(), 8, 1024), nics=2)
    frozen = {k: v for k, v in expected_manifest(build, RuleParams()).items()
              if k != "nic_path_max"}  # fmt: skip
    facts = {"gpu_nics": gpu_nics("public/nvidia-smi-topo-8x4090-dual-socket.txt")}
    assert not [x for x in compare(frozen, facts, RuleParams()) if x.item == "nic_affinity"]


@pytest.mark.django_db
def test_a_quoted_node_with_nics_is_checked_gpu_by_gpu(architect_client, make_quote):
    """The synthetic dual-socket node carries the real 8 × 4090 matrix: its two NICs sit on
    GPU6's host bridge, so only GPU6 has a NIC on its own path."""
    quote = make_quote({**AS_DELIVERED, "nics": 2}, workload=None)
    files = dual_socket_synthetic()
    del files["dmidecode-memory.txt"]
    body = upload(architect_client, files, quote.number).json()
    assert body["facts"]["gpu_nics"][6] == {"gpu": "GPU6", "nic": "NIC0", "path": "PHB"}
    lines = [line for line in body["comparison"] if line["item"] == "nic_affinity"]
    assert [line["status"] for line in lines] == ["FAIL"] * 6 + ["PASS", "FAIL"]
    assert lines[0]["expected"] == "NODE" and lines[0]["measured"] == "NIC0 SYS"
    assert lines[0]["step_code"] == "nic_affinity" and "own socket" in lines[0]["step"]


@pytest.mark.django_db
def test_the_report_page_names_the_nic_line_in_chinese(architect_client, make_quote, settings):
    from django.utils import translation

    quote = make_quote({**AS_DELIVERED, "nics": 2}, workload=None)
    files = dual_socket_synthetic()
    del files["dmidecode-memory.txt"]
    body = upload(architect_client, files, quote.number).json()
    architect_client.cookies["django_language"] = "zh-hans"
    page = architect_client.get(body["report_url"]).content.decode()
    translation.activate(settings.LANGUAGE_CODE)
    assert "GPU 最近的网卡（路径类别，同一 CPU 插槽：NODE 或更近）" in page
    assert "移动网卡或 GPU" in page and "NIC0 SYS" in page
