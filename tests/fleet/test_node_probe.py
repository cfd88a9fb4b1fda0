"""A node's probe archive becomes its hardware balance report."""

import io
import re
import subprocess
import tarfile

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from configurator.fleet.models import NodeProbe
from configurator.fleet.probe.archive import ArchiveError, read_archive
from configurator.fleet.probe.facts import node_facts
from configurator.fleet.probe_report import probe_report
from tests.fleet.probe_archives import (
    dual_socket_synthetic,
    fixture,
    h200_vm_files,
    nul_files,
    numactl_range_files,
    tar_gz,
)


def codes(facts):
    return [finding.code for finding in facts.findings()]


def test_real_h200_vm_reads_as_one_socket_one_gpu():
    facts = node_facts(read_archive(tar_gz(h200_vm_files())))
    assert (facts.cpu.sockets, len(facts.gpus), facts.gpus_per_socket()) == (1, 1, (1,))
    assert facts.pcie_gen == 5 and not facts.nvlink
    assert facts.memory_gb == 4  # numactl's 4443 MB: no dmidecode on that VM
    assert codes(facts) == ["not_collected"] * 3  # lspci, dmidecode and nccl-tests absent


def test_dual_socket_node_places_four_gpus_per_socket():
    facts = node_facts(dual_socket_synthetic())
    assert facts.gpus_per_socket() == (4, 4)
    assert "cross_socket" not in codes(facts)
    assert "nvlink_missing" in codes(facts)


def test_x8_link_and_gen3_slot_are_found():
    facts = node_facts(dual_socket_synthetic(gen=(3, 4), narrow=2))
    found = {(f.code, f.subject) for f in facts.findings()}
    assert ("pcie_width", "00000000:1A:00.0") in found
    assert sum(code == "pcie_gen" for code in codes(facts)) == 8


@pytest.mark.django_db
@pytest.mark.parametrize(("slot_gen", "slow"), [(3, 8), (4, 0)])
def test_a_driver_without_the_gpu_maximum_is_judged_by_the_datasheet(slot_gen, slow):
    """Drivers before the 500 series print no <max_device_link_gen> (the real V100S capture in
    tests/fixtures/probe/public): the matched GPU's datasheet generation (RTX 4090: Gen4)
    stands in for it, so a Gen3 slot is still found and a Gen4 one is not."""
    files = dual_socket_synthetic(gen=(slot_gen, 4))
    files["nvidia-smi-q.xml"] = re.sub(
        r"<max_device_link_gen>\d</max_device_link_gen>", "", files["nvidia-smi-q.xml"]
    )
    facts = node_facts(files)
    assert "pcie_gen" not in codes(facts)  # the node's files alone cannot tell
    report = probe_report(facts, psu_watts=5000, numa_binding=True)
    found = [f for f in report.findings if f["code"] == "pcie_gen"]
    assert len(found) == slow
    assert all(f["params"] == {"gen": 3, "device_gen": 4} for f in found)


def test_idle_link_speed_is_not_a_downgrade():
    files = dual_socket_synthetic()  # every GPU idles at Gen1 speed, slots allow Gen4
    assert "pcie_gen" not in codes(node_facts(files))


def test_gpu_whose_affinity_spans_sockets_is_found():
    files = dual_socket_synthetic()
    files["nvidia-smi-topo.txt"] = files["nvidia-smi-topo.txt"].replace(
        "GPU3\tSYS\tSYS\tSYS\t X \tSYS\tSYS\tSYS\tSYS\tSYS\tSYS\t0-55,112-167\t0",
        "GPU3\tSYS\tSYS\tSYS\t X \tSYS\tSYS\tSYS\tSYS\tSYS\tSYS\t0-223\tN/A",
    )
    facts = node_facts(files)
    assert [f.subject for f in facts.findings() if f.code == "cross_socket"] == ["GPU3"]
    assert facts.gpus_per_socket() == (3, 4)


def test_non_ecc_dimm_is_found():
    files = dual_socket_synthetic()
    files["dmidecode-memory.txt"] = fixture("synthetic/dmidecode-memory-non-ecc.SYNTHETIC.txt")
    facts = node_facts(files)
    assert "non_ecc" in codes(facts) and facts.memory_ecc is False


def test_archive_without_nvidia_smi_is_read_as_a_partial_probe():
    files = h200_vm_files()
    del files["nvidia-smi-q.xml"]
    facts = node_facts(read_archive(tar_gz(files)))
    assert facts.gpus == () and "nvidia-smi-q.xml" in facts.missing


def test_an_archive_of_none_of_the_probe_files_is_refused():
    with pytest.raises(ArchiveError, match="none of the probe files"):
        read_archive(tar_gz({"hostname.txt": "node\n", "notes.txt": "x"}))


def test_archive_links_and_paths_are_not_followed():
    out = io.BytesIO()
    with tarfile.open(fileobj=out, mode="w:gz") as archive:
        link = tarfile.TarInfo("probe/lscpu.json")
        link.type, link.linkname = tarfile.SYMTYPE, "/etc/passwd"
        archive.addfile(link)
    with pytest.raises(ArchiveError, match=r"lscpu\.json"):
        read_archive(out.getvalue())


def test_not_an_archive_is_refused():
    with pytest.raises(ArchiveError):
        read_archive(b"plain text, not gzip")


def test_probe_script_is_served_and_valid_bash(client, tmp_path):
    response = client.get(reverse("fleet:probe-script"))
    script = tmp_path / "probe.sh"
    script.write_bytes(response.content)
    assert response.status_code == 200
    for command in ("lscpu -J", "numactl --hardware", "nvidia-smi topo -m", "nvidia-smi -q -x",
                    "lspci -vv", "dmidecode -t memory", "all_reduce_perf"):  # fmt: skip
        assert command in response.content.decode()
    assert subprocess.run(["bash", "-n", str(script)], check=False).returncode == 0


@pytest.mark.django_db
def test_upload_of_a_dual_socket_probe_gives_its_balance_report(architect_client):
    files = dual_socket_synthetic(narrow=5)
    response = architect_client.post(
        reverse("fleet:probe-upload"),
        {"archive": SimpleUploadedFile("probe.tar.gz", tar_gz(files)), "psu_watts": 5000,
         "numa_binding": "on"},
    )  # fmt: skip
    probe = NodeProbe.objects.get()
    assert response.status_code == 302
    assert probe.build["cpu"] == "xeon-gold-6530" and probe.build["gpu"] == "rtx-4090"
    assert probe.build["gpus_per_socket"] == [4, 4]
    assert probe.verdict == "reject" and "P3" in probe.codes  # 32 GB of RAM for 192 GB VRAM
    html = architect_client.get(response["Location"]).content.decode()
    assert "x8 of x16" in html and "binding" in html


@pytest.mark.django_db
def test_unknown_gpu_gets_findings_but_no_verdict(architect_client):
    response = architect_client.post(
        reverse("fleet:probe-upload"),
        {"archive": SimpleUploadedFile("p.tar.gz", tar_gz(h200_vm_files())), "psu_watts": 1500},
    )
    probe = NodeProbe.objects.get()
    assert probe.hostname == "h200-vm"
    assert probe.verdict == "" and probe.build is None
    html = architect_client.get(response["Location"]).content.decode()
    assert "No rules verdict" in html
    # The H200 is in the catalog (migration 0013); the VM's generic vCPU is not: it is named.
    assert "The CPU Intel(R) Xeon(R) Processor is not in the catalog." in html
    assert "The GPU NVIDIA H200 is not in the catalog." not in html


@pytest.mark.django_db
def test_probe_api_names_the_part_the_catalog_lacks(architect_client):
    archive = SimpleUploadedFile("p.tar.gz", tar_gz(h200_vm_files()))
    response = architect_client.post(
        "/api/v1/fleet/probes", {"archive": archive, "psu_watts": 1500}
    )
    body = response.json()
    assert body["verdict"] is None
    assert "The CPU Intel(R) Xeon(R) Processor is not in the catalog." in body["problems"]


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("product", "linked", "slug"),
    [
        ("NVIDIA H100 NVL", False, "h100-nvl-94g"),
        ("NVIDIA H100 PCIe", False, "h100-80g-pcie"),
        ("NVIDIA H100 80GB HBM3", True, "h100-80g-sxm"),
        ("NVIDIA H200", True, "h200-141g-sxm"),
        ("NVIDIA H20", True, "h20-96g"),
        ("NVIDIA H800", True, "h800-80g-sxm"),
    ],
)
def test_nvidia_smi_names_of_todays_gpus_match_their_catalog_items(product, linked, slug):
    from configurator import selectors
    from configurator.fleet.probe_report import match_gpu

    catalog = selectors.snapshots()[0].everything
    assert match_gpu(product, catalog, sxm_hint=linked).slug == slug


@pytest.mark.django_db
def test_bad_archive_is_refused_and_nothing_saved(architect_client):
    response = architect_client.post(
        reverse("fleet:probe-upload"),
        {"archive": SimpleUploadedFile("p.tar.gz", b"nope"), "psu_watts": 1500},
    )
    assert response.status_code == 200
    assert "tar.gz" in response.content.decode()
    assert not NodeProbe.objects.exists()


@pytest.mark.django_db
def test_presales_cannot_upload_probes(presales_client):
    assert presales_client.get(reverse("fleet:probe-upload")).status_code == 403


@pytest.mark.django_db
def test_probe_api_answers_the_report(architect_client):
    archive = SimpleUploadedFile("p.tar.gz", tar_gz(dual_socket_synthetic(narrow=1)))
    response = architect_client.post(
        "/api/v1/fleet/probes", {"archive": archive, "psu_watts": 5000}
    )
    body = response.json()
    assert response.status_code == 201
    assert body["build"]["gpus_per_socket"] == [4, 4]
    assert body["verdict"] == "reject"
    assert any(f["code"] == "pcie_width" and "x8 of x16" in f["text"] for f in body["findings"])


@pytest.mark.django_db
def test_probe_api_names_the_bad_field(architect_client):
    response = architect_client.post(
        "/api/v1/fleet/probes",
        {"archive": SimpleUploadedFile("p.tar.gz", b"nope"), "psu_watts": 0},
    )
    assert response.status_code == 400
    assert "psu_watts" in response.json()["errors"]


@pytest.mark.django_db
def test_probe_api_refuses_presales_and_anonymous(presales_client, client):
    archive = tar_gz(h200_vm_files())
    data = {"archive": SimpleUploadedFile("p.tar.gz", archive), "psu_watts": 1000}
    assert presales_client.post("/api/v1/fleet/probes", data).status_code == 403
    data["archive"] = SimpleUploadedFile("p.tar.gz", archive)
    assert client.post("/api/v1/fleet/probes", data).status_code in (401, 403)
    assert not NodeProbe.objects.exists()


@pytest.mark.django_db
def test_nccl_bus_bandwidth_is_on_the_report(architect_client):
    files = dual_socket_synthetic()
    files["nccl-tests.txt"] = fixture("public/nccl-tests-tail-mpirun.txt")
    response = architect_client.post(
        reverse("fleet:probe-upload"),
        {"archive": SimpleUploadedFile("p.tar.gz", tar_gz(files)), "psu_watts": 5000},
    )
    html = architect_client.get(response["Location"]).content.decode()
    assert "92.3405 GB/s" in html and "average over message sizes" in html
    assert "nccl-tests.txt is missing" not in html


@pytest.mark.django_db
def test_nccl_bus_bandwidth_is_the_plateau_and_the_report_draws_the_curve(architect_client):
    files = dual_socket_synthetic()
    files["nccl-tests.txt"] = fixture("public/nccl-tests-2x8-h100-full-sweep.txt")
    response = architect_client.post(
        reverse("fleet:probe-upload"),
        {"archive": SimpleUploadedFile("p.tar.gz", tar_gz(files)), "psu_watts": 5000},
    )
    html = architect_client.get(response["Location"]).content.decode()
    assert "<strong>330.58 GB/s</strong>" in html  # the median of 2, 4 and 8 GB
    assert "(70.742 GB/s)" in html  # the output's own average, named as such
    assert html.count('class="bar-good"') == 3 and html.count('class="bar-neutral"') == 28
    assert ">8 GB</text>" in html and ">338.82 GB/s</text>" in html and ">8 B</text>" in html


@pytest.mark.django_db
def test_probe_api_takes_archives_over_the_json_body_limit(architect_client, settings):
    import secrets

    files = dual_socket_synthetic()
    # Incompressible, so the archive is over 64 KB; in lines, as lspci writes them.
    files["lspci-vv.txt"] = "\n".join(secrets.token_hex(50) for _ in range(2000))
    archive = tar_gz(files)
    assert len(archive) > settings.API_MAX_BODY_BYTES
    response = architect_client.post(
        "/api/v1/fleet/probes",
        {"archive": SimpleUploadedFile("p.tar.gz", archive), "psu_watts": 5000},
    )
    assert response.status_code == 201


# Hostile probes: a clear refusal, nothing saved, never a 500 ---------------------------------


def upload(client, content: bytes, psu_watts="1500"):
    archive = SimpleUploadedFile("p.tar.gz", content)
    return client.post(reverse("fleet:probe-upload"), {"archive": archive, "psu_watts": psu_watts})


def api_upload(client, content: bytes, psu_watts="1500"):
    archive = SimpleUploadedFile("p.tar.gz", content)
    return client.post("/api/v1/fleet/probes", {"archive": archive, "psu_watts": psu_watts})


@pytest.mark.django_db
def test_a_node_of_three_million_cpus_is_refused_by_file_and_line(architect_client):
    archive = tar_gz(numactl_range_files())
    where = "numactl-hardware.txt line 2: node 0 lists 3,000,001 CPUs; a node has at most 8,192"
    page = upload(architect_client, archive)
    api = api_upload(architect_client, archive)
    assert page.status_code == 200 and where in page.content.decode()
    assert api.status_code == 400 and where in api.json()["errors"]["archive"][0]
    assert not NodeProbe.objects.exists()


@pytest.mark.django_db
@pytest.mark.parametrize(("field", "value"), [("Socket(s):", "0"), ("Thread(s) per core:", "0")])
def test_lscpu_zero_counts_are_refused_naming_the_file_and_field(architect_client, field, value):
    files = h200_vm_files()
    one = f'"field": "{field}",\n         "data": "1"'
    files["lscpu.json"] = files["lscpu.json"].replace(one, one.replace('"1"', f'"{value}"'))
    response = upload(architect_client, tar_gz(files))
    assert f"lscpu.json: {field.rstrip(':')} is 0; it can be 1 to" in response.content.decode()
    assert not NodeProbe.objects.exists()


@pytest.mark.django_db
def test_a_stored_probe_past_the_budgets_is_shown_without_reading_it_into_memory(
    architect_client, architect
):
    """A probe stored before the budgets existed: its report says why, the parser refuses."""
    import tracemalloc

    probe = NodeProbe.objects.create(
        hostname="old", file_name="p.tar.gz", files=numactl_range_files(), psu_watts=1500,
        findings=[], created_by=architect,
    )  # fmt: skip
    architect_client.get(reverse("fleet:probe", args=[probe.pk]))  # templates, catalog: warm
    tracemalloc.start()
    response = architect_client.get(reverse("fleet:probe", args=[probe.pk]))
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    html = response.content.decode()
    assert response.status_code == 200 and peak < 8 * 2**20
    assert "node 0 lists 3,000,001 CPUs" in html and "binding.sh" not in html
    binding = architect_client.get(reverse("fleet:probe-binding", args=[probe.pk]))
    assert binding.status_code == 404


@pytest.mark.django_db
@pytest.mark.parametrize("value", ["²", "9" * 400, "9" * 5000, "1e400", "-5", "0x10", " "])
def test_psu_watts_that_is_not_a_wattage_is_named(architect_client, value):
    archive = tar_gz(h200_vm_files())
    api = api_upload(architect_client, archive, psu_watts=value)
    page = upload(architect_client, archive, psu_watts=value)
    assert api.status_code == 400 and list(api.json()["errors"]) == ["psu_watts"]
    assert page.status_code == 200 and page.context["form"].errors.keys() == {"psu_watts"}
    assert not NodeProbe.objects.exists()


@pytest.mark.django_db
def test_a_probe_with_nul_bytes_is_saved_without_them(architect_client):
    response = upload(architect_client, tar_gz(nul_files()))
    probe = NodeProbe.objects.get()
    assert response.status_code == 302 and probe.hostname == "h200\ufffdvm"
    assert "\x00" not in str(probe.files)


@pytest.mark.django_db
def test_a_refused_probe_is_explained_in_the_readers_language(architect_client, settings):
    from django.utils import translation

    architect_client.cookies["django_language"] = "zh-hans"
    page = upload(architect_client, tar_gz(numactl_range_files())).content.decode()
    translation.activate(settings.LANGUAGE_CODE)  # the request's language stays in the thread
    assert "numactl-hardware.txt 第 2 行：node 0 列出 3,000,001 个 CPU；一个节点最多 8,192 个" in (
        page
    )


# What real nodes hand over -------------------------------------------------------------------


def test_an_archive_with_plain_lscpu_is_read():
    files = h200_vm_files()
    del files["lscpu.json"]
    files["lscpu.txt"] = (
        "Thread(s) per core:  1\nCore(s) per socket:  16\nSocket(s):           1\n"
        "Model name:          Intel(R) Xeon(R) Processor\n"
    )
    facts = node_facts(read_archive(tar_gz(files)))
    assert (facts.cpu.sockets, facts.cpu.cores_per_socket) == (1, 16)
    assert "lscpu.json" not in facts.missing and "lscpu.txt" not in facts.missing


def test_an_archive_without_any_lscpu_is_a_partial_probe_naming_lscpu_json():
    files = h200_vm_files()
    del files["lscpu.json"]
    facts = node_facts(read_archive(tar_gz(files)))
    assert facts.cpu is None and "lscpu.json" in facts.missing


def test_a_gen3_gpu_in_a_gen3_slot_is_not_a_slow_slot():
    facts = node_facts(dual_socket_synthetic(gen=(3, 3)))
    assert "pcie_gen" not in codes(facts)


def test_a_narrow_link_without_lspcis_marker_is_found():
    files = dual_socket_synthetic()
    # The real A4000's LnkSta as older pciutils print an x8 link: no "(downgraded)".
    files["lspci-vv.txt"] = fixture("public/lspci-vv-rtx-a4000.txt").replace(
        "Width x16\n", "Width x8\n"
    )
    facts = node_facts(files)
    assert [f.params for f in facts.findings() if f.code == "pcie_width"] == [
        {"width": 8, "max": 16}
    ]


def test_gpu_counts_that_disagree_between_files_are_a_finding():
    files = dual_socket_synthetic()
    files["nvidia-smi-q.xml"] = (
        files["nvidia-smi-q.xml"]
        .replace("<gpu ", "<gpu_gone ", 1)
        .replace("</gpu>", "</gpu_gone>", 1)
    )
    facts = node_facts(files)
    [finding] = [f for f in facts.findings() if f.code == "gpu_count_mismatch"]
    assert finding.params["counts"] == "nvidia-smi -q -x: 7, nvidia-smi topo -m: 8"


def test_a_topology_cut_short_is_a_finding():
    files = dual_socket_synthetic()
    files["nvidia-smi-topo.txt"] = "\n".join(files["nvidia-smi-topo.txt"].split("\n")[:3])
    assert "topo_cut_short" in codes(node_facts(files))


def test_probe_sh_reads_lscpu_untranslated_and_falls_back_to_plain_lscpu(tmp_path):
    """probe.sh on a node whose lscpu has no -J (util-linux 2.23) and whose locale is Chinese:
    a stub lscpu answers as that one does, translated unless LC_ALL=C."""
    from pathlib import Path

    import configurator.fleet.probe as probe_package

    stubs = tmp_path / "bin"
    stubs.mkdir()
    (stubs / "lscpu").write_text(
        "#!/bin/sh\n"
        'if [ "$1" = "-J" ]; then echo "lscpu: invalid option -- \'J\'" >&2; exit 1; fi\n'
        'if [ "$LC_ALL" = "C" ]; then printf "Socket(s):  2\\nCore(s) per socket:  32\\n"; '
        'else printf "座：  2\\n每个座的核数：  32\\n"; fi\n'
    )
    (stubs / "lscpu").chmod(0o755)
    script = Path(probe_package.__file__).parent / "probe.sh"
    env = {"PATH": f"{stubs}:/usr/bin:/bin", "LANG": "zh_CN.UTF-8", "HOME": str(tmp_path)}
    done = subprocess.run(["bash", str(script)], cwd=tmp_path, env=env, capture_output=True,
                          text=True, check=True, timeout=120)  # fmt: skip
    archive = tmp_path / done.stdout.strip().splitlines()[-1]
    with tarfile.open(archive) as packed:
        names = {Path(member.name).name: member for member in packed.getmembers()}
        text = packed.extractfile(names["lscpu.txt"]).read().decode()
    assert "lscpu.json" not in names
    assert text == "Socket(s):  2\nCore(s) per socket:  32\n"
