"""A partial probe (any subset of probe.sh's files) gives a partial report: every fact its files
show, null and the missing file named for the rest, a verdict only when the facts suffice."""

import io

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse
from pypdf import PdfReader

from configurator.fleet.models import NodeProbe
from configurator.fleet.probe.facts import node_facts
from configurator.fleet.probe.partial import facts_out, verdict_gaps
from tests.fleet.probe_archives import dual_socket_synthetic, h200_vm_files, tar_gz


def without(*names: str, **smi) -> dict[str, str]:
    files = dual_socket_synthetic(**smi)
    for name in names:
        del files[name]
    return files


def upload(client, files: dict[str, str]):
    archive = SimpleUploadedFile("p.tar.gz", tar_gz(files))
    return client.post("/api/v1/fleet/probes", {"archive": archive, "psu_watts": 5000})


def pdf_text(pdf: bytes) -> str:
    reader = PdfReader(io.BytesIO(pdf))
    return " ".join(" ".join((page.extract_text() or "").split()) for page in reader.pages)


@pytest.mark.django_db
def test_the_whole_archive_gives_every_fact_and_a_verdict(architect_client):
    body = upload(architect_client, dual_socket_synthetic()).json()
    facts = body["facts"]
    assert facts["cpu"] == "xeon-gold-6530" and facts["sockets"] == 2
    assert facts["threads"] == 128 and facts["gpu"] == "rtx-4090" and facts["gpu_count"] == 8
    assert facts["gpus_per_socket"] == [4, 4] and facts["memory_ecc"] is True
    assert facts["links"][0] == {"gpu": "00000000:18:00.0", "gen": 4, "width": 16,
                                 "max_gen": 4, "max_width": 16}  # fmt: skip
    assert facts["allreduce_busbw_gbs"] is None  # no nccl-tests in this archive
    assert body["missing"] == ["lspci-vv.txt", "nccl-tests.txt"]
    assert body["verdict"] == "reject"


@pytest.mark.django_db
def test_without_lscpu_the_cpu_facts_are_null_and_there_is_no_verdict(architect_client):
    response = upload(architect_client, without("lscpu.json"))
    body = response.json()
    assert response.status_code == 201
    facts = body["facts"]
    assert [facts[k] for k in ("cpu", "cpu_model", "sockets", "threads")] == [None] * 4
    assert facts["gpus_per_socket"] is None  # which socket is which needs lscpu's sockets
    assert facts["gpu"] == "rtx-4090" and facts["gpu_count"] == 8  # the rest is still read
    assert facts["numa_nodes"] == 2 and facts["memory_ecc"] is True
    assert "lscpu.json" in body["missing"]
    assert body["verdict"] is None and body["balance"] is None and body["build"] is None
    assert any("lscpu -J or lscpu" in problem for problem in body["problems"])
    assert {"fact": "sockets", "files": ["lscpu.json"]} in body["unknown"]


@pytest.mark.django_db
def test_without_nvidia_smi_q_the_gpu_count_comes_from_the_topology(architect_client):
    body = upload(architect_client, without("nvidia-smi-q.xml")).json()
    facts = body["facts"]
    assert facts["gpu"] is None and facts["gpu_model"] is None and facts["links"] is None
    assert facts["gpu_count"] == 8 and facts["gpus_per_socket"] == [4, 4]
    assert facts["cpu"] == "xeon-gold-6530"
    assert "nvidia-smi-q.xml" in body["missing"] and body["verdict"] is None
    # no GPU count disagreement is made up from an absent file
    assert not any(f["code"] == "gpu_count_mismatch" for f in body["findings"])


@pytest.mark.django_db
def test_without_lscpu_and_nvidia_smi_q_a_report_is_still_given(architect_client):
    response = upload(architect_client, without("lscpu.json", "nvidia-smi-q.xml"))
    body = response.json()
    assert response.status_code == 201
    assert {"lscpu.json", "nvidia-smi-q.xml"} <= set(body["missing"])
    assert body["facts"]["memory_gb"] == 32 and body["facts"]["nvlink"] is False
    assert body["verdict"] is None
    page = architect_client.get(body["report_url"]).content.decode()
    assert "Not judged" in page
    assert "lscpu -J or lscpu would tell (the archive has no lscpu.json)." in page
    assert "nvidia-smi -q -x would tell" in page
    pdf = architect_client.get(reverse("fleet:probe-pdf", args=[body["id"]])).content
    text = pdf_text(pdf)
    assert "nvidia-smi -q -x would tell" in text and "No rules verdict" in text


@pytest.mark.django_db
def test_without_the_topology_a_two_socket_node_has_no_placement_and_no_verdict(
    architect_client,
):
    body = upload(architect_client, without("nvidia-smi-topo.txt")).json()
    facts = body["facts"]
    assert facts["gpus_per_socket"] is None and facts["nvlink"] is None
    assert facts["gpu_numa"] is None  # no even split is guessed
    assert body["verdict"] is None
    assert {"fact": "nvlink", "files": ["nvidia-smi-topo.txt"]} in body["unknown"]


@pytest.mark.django_db
def test_unknown_memory_ecc_keeps_a_verdict_both_ways_agree_on(architect_client):
    """Without dmidecode, ECC is judged both ways: eight RTX 4090s on 5,000 W are rejected
    either way (P7), so the verdict stands with the checks failing both ways; P6 is not
    claimed. The memory size is then numactl's (2 × 515,000 MB)."""
    body = upload(architect_client, without("dmidecode-memory.txt")).json()
    assert body["facts"]["memory_ecc"] is None and "dmidecode-memory.txt" in body["missing"]
    assert body["facts"]["memory_gb"] == 1006
    assert body["verdict"] == "reject" and "P7" in body["codes"] and "P6" not in body["codes"]
    assert body["build"]["memory_ecc"] is None
    probe = NodeProbe.objects.get()
    assert probe.facts["facts"]["memory_ecc"] is None


@pytest.mark.django_db
def test_the_upload_page_takes_a_partial_probe(architect_client):
    response = architect_client.post(
        reverse("fleet:probe-upload"),
        {"archive": SimpleUploadedFile("p.tar.gz", tar_gz(without("lscpu.json"))),
         "psu_watts": 5000, "numa_binding": "on"},
    )  # fmt: skip
    assert response.status_code == 302
    page = architect_client.get(response["Location"]).content.decode()
    assert "No rules verdict." in page and "Too few facts for a verdict" in page


def test_one_gpu_needs_no_topology_to_have_no_nvlink():
    files = h200_vm_files()
    del files["nvidia-smi-topo.txt"]
    facts = node_facts(files)
    out = facts_out(facts, cpu_slug=None, gpu_slug="h200-141g-sxm")
    assert out["gpu_count"] == 1 and out["nvlink"] is False and out["gpus_per_socket"] == [1]
    assert "nvlink" not in verdict_gaps(out) and "cpu" in verdict_gaps(out)
