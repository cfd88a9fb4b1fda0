"""Binding scripts: every GPU's rank on its own socket's cores, for the recipes and any build."""

import re
import subprocess

import pytest
from django.urls import reverse

from configurator.fleet.binding import compact, layout_for_build
from configurator.fleet.delivery import build_script, facts_script
from configurator.fleet.probe.facts import node_facts
from configurator.fleet.recipes import recipe_builds
from tests.fleet.probe_archives import dual_socket_synthetic, h200_vm_files

LINE = re.compile(r"^\s+(\d+)\) exec numactl --physcpubind=(\S+) --membind=(\d+) ", re.M)


def cpus_of(text: str) -> set[int]:
    cpus = set()
    for part in text.split(","):
        low, _, high = part.partition("-")
        cpus.update(range(int(low), int(high or low) + 1))
    return cpus


def ranks(script: str) -> dict[int, tuple[set[int], int]]:
    return {int(r): (cpus_of(c), int(n)) for r, c, n in LINE.findall(script)}


def is_bash(script: str, tmp_path) -> bool:
    path = tmp_path / "bind.sh"
    path.write_text(script)
    return subprocess.run(["bash", "-n", str(path)], check=False).returncode == 0


@pytest.fixture
def recipes(db):
    return {r.code + ":" + r.build.gpu.slug: r for r in recipe_builds()}


def test_s3_ranks_bind_to_their_socket_without_sharing_cores(recipes, tmp_path):
    s3 = recipes["S3:h100-80g-sxm"].build  # 2 × EPYC 9754 (128 cores, SMT), 8 × H100 SXM
    script = build_script(s3, "S3")
    bound = ranks(script)
    assert sorted(bound) == list(range(8))
    assert [node for _, node in bound.values()] == [0, 0, 0, 0, 1, 1, 1, 1]
    assert all(len(cpus) == 64 for cpus, _ in bound.values())  # 32 cores + their siblings
    every = [cpu for cpus, _ in bound.values() for cpu in cpus]
    assert len(every) == len(set(every)) == 512
    assert all(cpu < 128 or 256 <= cpu < 384 for cpu in bound[0][0])
    assert "NCCL_P2P_LEVEL" not in script  # NVLink: NCCL's own choice stands
    assert is_bash(script, tmp_path)


@pytest.mark.parametrize("gpu", ["l20", "rtx-4090"])
def test_s1_puts_two_gpus_on_each_socket_with_12_cores_each(recipes, gpu, tmp_path):
    script = build_script(recipes[f"S1:{gpu}"].build, "S1")
    bound = ranks(script)
    assert [node for _, node in bound.values()] == [0, 0, 1, 1]
    assert bound[0][0] == set(range(0, 12)) | set(range(48, 60))
    assert bound[3][0] == set(range(36, 48)) | set(range(84, 96))
    assert "export NCCL_P2P_LEVEL=NODE " in script  # no NVLink on L20 / RTX 4090
    assert is_bash(script, tmp_path)


def test_s2_eight_pcie_a800_four_per_socket(recipes):
    bound = ranks(build_script(recipes["S2:a800-80g-pcie"].build, "S2"))
    assert [node for _, node in bound.values()] == [0] * 4 + [1] * 4
    assert all(len(cpus) == 16 for cpus, _ in bound.values())  # 6530: 32 cores, SMT


def test_nics_go_to_sockets_and_into_nccl():
    layout = layout_for_build(
        sockets=2, cores_per_socket=32, threads_per_core=2, gpus_per_socket=(4, 4), nics=4
    )
    assert layout.nic_sockets == (0, 0, 1, 1)
    from configurator.fleet.binding import binding_script

    assert "export NCCL_IB_HCA==mlx5_0,=mlx5_1,=mlx5_2,=mlx5_3 " in binding_script(
        layout, title="x"
    )


def test_probed_node_binds_to_its_real_numa_nodes(tmp_path):
    script = facts_script(node_facts(dual_socket_synthetic()), "node")
    bound = ranks(script)
    assert bound[0][0] == set(range(0, 14)) | set(range(112, 126))
    assert bound[7][1] == 1
    assert "NIC0" in script and is_bash(script, tmp_path)


def test_real_h200_vm_binds_its_one_gpu_to_all_16_cpus():
    bound = ranks(facts_script(node_facts(h200_vm_files()), "h200"))
    assert bound == {0: (set(range(16)), 0)}


def test_compact_cpu_lists():
    assert compact((0, 1, 2, 5, 7, 8)) == "0-2,5,7-8"


@pytest.mark.django_db
def test_any_build_by_its_permalink_fields(client):
    response = client.get(
        reverse("fleet:build-binding"),
        {"cpu": "xeon-gold-6530", "gpu": "a800-80g-sxm", "gpu_count": 8, "gpus_per_socket": "4+4"},
    )
    assert response.status_code == 200
    assert response["Content-Disposition"].startswith("attachment")
    assert len(ranks(response.content.decode())) == 8


@pytest.mark.django_db
def test_bad_build_fields_are_a_400_naming_them(client):
    response = client.get(reverse("fleet:build-binding"), {"cpu": "nope", "gpu_count": "x"})
    text = response.content.decode()
    assert response.status_code == 400
    assert "cpu:" in text and "gpu_count:" in text


@pytest.mark.django_db
def test_delivery_page_lists_the_recipes(client):
    html = client.get(reverse("fleet:delivery")).content.decode()
    assert "S1" in html and "S3" in html and "binding.sh?" in html
