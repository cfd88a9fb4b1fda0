"""Before a rule change is published, architects see which nodes and recipes it would change."""

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from configurator.models import RuleSetVersion
from tests.fleet.sheets import GOOD, P3, csv_bytes

pytestmark = pytest.mark.django_db

# 8 × A800 (640 GB of VRAM): 768 GB passes at 1.2× and fails at 1.5× (960 GB); 1024 GB
# passes both.
AT_768 = ("n3", *GOOD[1:6], "768", *GOOD[7:])


def audit(client, rows):
    client.post(reverse("fleet:upload"), {"sheet": SimpleUploadedFile("f.csv", csv_bytes(rows))})


def dry_run(client, **parameters):
    return client.patch(
        "/api/v1/rules",
        {"parameters": parameters, "dry_run": True},
        content_type="application/json",
    )


def test_raising_the_memory_ratio_lists_the_nodes_and_recipes_it_breaks(architect_client):
    audit(architect_client, [GOOD, (f"m{0}", *AT_768[1:]), ("m1", *AT_768[1:]), P3])
    versions = RuleSetVersion.objects.count()
    response = dry_run(architect_client, memory_vram_ratio_min=1.5)
    body = response.json()
    impact = body["impact"]
    assert response.status_code == 200 and body["dry_run"] is True
    assert RuleSetVersion.objects.count() == versions  # nothing published
    assert impact["checked"]["node"] == 4
    assert impact["changed"]["node"] == 2 and impact["newly_rejected"]["node"] == 2
    [change] = [c for c in impact["changes"] if c["kind"] == "node"]
    assert change["count"] == 2 and change["verdict"] == ["accept", "reject"]
    assert "P3" in change["codes_after"]
    assert impact["checked"]["recipe"] == 4
    # S3 (8 × H100, 1 TB) needs 960 GB at 1.5×: still accepted; S1 (4 × L20, 256 GB) breaks
    labels = [c["label"] for c in impact["changes"] if c["kind"] == "recipe"]
    assert any(label.startswith("S1") for label in labels)
    assert not any(label.startswith("S3") for label in labels)


def test_a_node_leaving_the_balanced_band_says_so(architect_client):
    audit(architect_client, [AT_768])
    impact = dry_run(architect_client, memory_vram_ratio_min=1.5).json()["impact"]
    [change] = [c for c in impact["changes"] if c["kind"] == "node"]
    assert change["band"] == ["balanced", "unbalanced"]
    assert change["balance"][0] >= 85 > change["balance"][1]


def test_lowering_the_ratio_accepts_memory_starved_nodes(architect_client):
    audit(architect_client, [P3])  # 512 GB for 640 GB of VRAM
    impact = dry_run(architect_client, memory_vram_ratio_min=0.8).json()["impact"]
    assert impact["newly_accepted"]["node"] == 1


def test_a_change_that_changes_nothing_lists_nothing(architect_client):
    audit(architect_client, [GOOD])
    impact = dry_run(architect_client, small_batch_max=8).json()["impact"]
    assert impact["changed"] == {"node": 0, "probe": 0, "recipe": 0, "quote": 0}
    assert impact["changes"] == []


def test_bad_value_in_a_dry_run_is_a_400(architect_client):
    response = dry_run(architect_client, memory_vram_ratio_min=-1)
    assert response.status_code == 400
    assert "parameters.memory_vram_ratio_min" in response.json()["errors"]


def test_dry_run_is_for_architects_only(presales_client):
    assert dry_run(presales_client, memory_vram_ratio_min=1.5).status_code == 403


def test_admin_rules_form_previews_the_impact(architect_client):
    from configurator.models import RuleProfile

    audit(architect_client, [GOOD, AT_768])
    profile = RuleProfile.objects.get(is_default=True)
    url = reverse("admin:configurator_ruleprofile_impact", args=[profile.pk])
    page = architect_client.get(reverse("admin:configurator_ruleprofile_change", args=[profile.pk]))
    assert url in page.content.decode()
    versions = RuleSetVersion.objects.count()
    data = {"memory_vram_ratio_min": "1.5", "balance_score_min": "85"}
    html = architect_client.post(url, data, HTTP_HX_REQUEST="true").content.decode()
    assert "memory_vram_ratio_min" in html and "1 node" in html
    assert RuleSetVersion.objects.count() == versions


def test_dry_run_from_a_stale_version_is_a_409(architect_client):
    current = RuleSetVersion.objects.filter(profile__is_default=True).latest().version
    response = architect_client.patch(
        "/api/v1/rules",
        {"parameters": {"memory_vram_ratio_min": 1.5}, "dry_run": True,
         "base_version": current + 5},
        content_type="application/json",
    )  # fmt: skip
    assert response.status_code == 409
    assert "base_version" in response.json()["errors"]


def test_open_quotes_are_counted_and_issued_ones_are_not(architect_client, presales):
    from configurator.quotes import services as quotes
    from configurator.quotes.models import Quote
    from configurator.schemas import BuildIn, WorkloadIn

    # 8 × A800 PCIe with 768 GB: accepted at 1.2×, refused at 1.5× (960 GB).
    build = {"cpu": "xeon-gold-6530", "cpu_count": 2, "gpu": "a800-80g-pcie", "gpu_count": 8,
             "gpus_per_socket": [4, 4], "memory_gb": 768, "memory_ecc": True,
             "psu_watts": 4400, "nvlink": True, "numa_binding": True,
             "platform": "smc-sys-421ge-tnrt"}  # fmt: skip
    customer = quotes.Customer(name="Wang Wei", company="Example Co", email="w@example.cn",
                               phone="+86 10 5555 0100")  # fmt: skip
    workload = WorkloadIn.model_validate({"model_params_b": 34, "mode": "train", "batch_size": 8})

    def quote():
        return quotes.quote_create(
            owner=presales, customer=customer, build=BuildIn.model_validate(build),
            workload=workload,
        )  # fmt: skip

    draft, issued = quote(), quote()
    Quote.objects.filter(pk=issued.pk).update(status="issued")
    impact = dry_run(architect_client, memory_vram_ratio_min=1.5).json()["impact"]
    assert impact["checked"]["quote"] == 1
    [change] = [c for c in impact["changes"] if c["kind"] == "quote"]
    assert change["label"].startswith(draft.number)
    assert change["verdict"] == ["accept", "reject"]


def test_a_stored_probe_a_parser_now_refuses_is_left_out_of_the_impact(architect_client, architect):
    from configurator.fleet.models import NodeProbe
    from tests.fleet.probe_archives import dual_socket_synthetic

    files = dual_socket_synthetic()
    files["numactl-hardware.txt"] = files["numactl-hardware.txt"].replace("56-111", "56-111 ²")
    NodeProbe.objects.create(
        hostname="old", file_name="p.tar.gz", files=files, psu_watts=5000, created_by=architect,
        build={"cpu": "xeon-gold-6530", "cpu_count": 2, "gpu": "rtx-4090", "gpu_count": 8},
    )  # fmt: skip
    response = dry_run(architect_client, memory_vram_ratio_min=1.5)
    assert response.status_code == 200
    assert response.json()["impact"]["checked"]["probe"] == 0
