"""A node probed against a saved build or a fleet row, as against a quote: one target concept
(fleet.services.ProbeTarget), the same comparison lines whichever names the build."""

import io

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse
from pypdf import PdfReader

from configurator.fleet import selectors
from configurator.fleet.models import FleetAudit, NodeProbe
from configurator.quotes.models import Lead, LeadBuild
from tests.fleet.probe_archives import dual_socket_synthetic, tar_gz
from tests.fleet.sheets import csv_bytes
from tests.fleet.test_delivered_as_quoted import AS_DELIVERED, numactl_memory

# AS_DELIVERED as the configurator's query string and as a fleet sheet's row
PERMALINK = (
    "cpu=xeon-gold-6530&cpu_count=2&gpu=rtx-4090&gpu_count=8&gpus_per_socket=4+4"
    "&memory_gb=1024&memory_ecc=true&psu_watts=6000&nvlink=false&numa_binding=true"
)
ROW = ("node-7", "xeon-gold-6530", "2", "rtx-4090", "8", "4+4", "1024", "true", "6000", "false",
       "true")  # fmt: skip


@pytest.fixture
def saved_build(architect_client):
    """A build saved to a lead through the presales page, as presales save one."""
    lead = Lead.objects.create(
        name="Li Wei", company="Example AI Ltd", email="li@example.com", phone="+86 123456789",
        build={"cpu": "xeon-gold-6530"}, permalink=PERMALINK, monthly_price=1, verdict="accept",
        language="en",
    )  # fmt: skip
    response = architect_client.post(
        reverse("web:presales_lead_save", args=[lead.pk]), {"build": PERMALINK, "note": ""}
    )
    assert response.status_code in (200, 302)
    return LeadBuild.objects.get()


@pytest.fixture
def fleet_row(architect_client):
    """An audited fleet sheet with AS_DELIVERED's node in it."""
    architect_client.post(
        reverse("fleet:upload"), {"sheet": SimpleUploadedFile("f.csv", csv_bytes([ROW]))}
    )
    audit = FleetAudit.objects.get()
    assert audit.status == FleetAudit.Status.DONE, audit.problems
    return audit


def upload(client, files, **target):
    archive = SimpleUploadedFile("p.tar.gz", tar_gz(files))
    return client.post("/api/v1/fleet/probes", {"archive": archive, "psu_watts": 5000, **target})


def three_targets(quote, saved_build, fleet_row) -> list[dict[str, object]]:
    """The one build as a quote, a saved build and a fleet row, as the probe API names them."""
    return [
        {"quote": quote.number},
        {"saved_build": saved_build.pk},
        {"audit": fleet_row.pk, "node": "node-7"},
    ]


def pdf_text(client, probe_id) -> str:
    pdf = client.get(reverse("fleet:probe-pdf", args=[probe_id])).content
    return " ".join(
        " ".join((p.extract_text() or "").split()) for p in PdfReader(io.BytesIO(pdf)).pages
    )


def test_a_saved_build_keeps_its_manifest_when_saved(saved_build):
    assert saved_build.manifest["threads"] == 128
    assert saved_build.manifest["gpus_per_socket"] == [4, 4]
    assert saved_build.manifest["links"] == [{"gen": 4, "width": 16}] * 8


@pytest.mark.parametrize("kind", ["saved_build", "fleet_row"])
def test_a_node_is_checked_against_each_target_end_to_end(architect_client, request, kind):
    if kind == "saved_build":
        target = {"saved_build": request.getfixturevalue("saved_build").pk}
        heading = f"Against saved build {target['saved_build']}"
    else:
        audit = request.getfixturevalue("fleet_row")
        target = {"audit": audit.pk, "node": "node-7"}
        heading = f"Against fleet audit {audit.pk}, node node-7"
    response = upload(architect_client, dual_socket_synthetic(narrow=5), **target)
    body = response.json()
    assert response.status_code == 201, body
    narrow = [line for line in body["comparison"] if line["status"] == "FAIL"]
    assert any((line["expected"], line["measured"]) == ("Gen4 x16", "Gen4 x8") for line in narrow)
    page = architect_client.get(body["report_url"]).content.decode()
    assert heading in page and "Gen4 x8" in page
    assert heading in pdf_text(architect_client, body["id"])
    probe = NodeProbe.objects.get()
    assert (probe.saved_build_id, probe.audited_node_id) == (
        (target["saved_build"], None) if kind == "saved_build"
        else (None, audit.nodes.get(node_id="node-7").pk)
    )  # fmt: skip
    assert selectors.delivery_rollup()["deviating"] == 1
    listing = architect_client.get(reverse("fleet:probe-upload")).content.decode()
    assert heading.removeprefix("Against ") in listing


def test_the_same_build_compares_the_same_as_quote_saved_build_and_fleet_row(
    architect_client, make_quote, saved_build, fleet_row
):
    """One build, three targets: the same lines. The money differs only by price: the quote's
    is discounted, the saved build's and the fleet row's are the configurator's one bill."""
    quote = make_quote(AS_DELIVERED, workload=None)
    files = numactl_memory()
    targets = three_targets(quote, saved_build, fleet_row)
    bodies = [upload(architect_client, files, **target).json() for target in targets]
    unpriced = [
        [{k: v for k, v in line.items() if k != "monthly_cost"} for line in body["comparison"]]
        for body in bodies
    ]
    assert unpriced[0] and unpriced[0] == unpriced[1] == unpriced[2]
    assert bodies[1]["comparison"] == bodies[2]["comparison"]
    assert selectors.delivery_rollup()["nodes"] == 3  # one node, three targets


@pytest.mark.parametrize(
    ("target", "field", "message"),
    [
        ({"quote": "Q-2026-999999"}, "quote", "There is no quote Q-2026-999999."),
        ({"saved_build": "999999"}, "saved_build", "There is no saved build 999999."),
        ({"saved_build": "²"}, "saved_build", "There is no saved build ²."),
        ({"audit": "999999", "node": "n1"}, "audit", "There is no fleet audit 999999."),
        ({"node": "n1"}, "audit", "Name the fleet audit the node is in."),
        ({"audit": "999999"}, "node", "Name the node as the fleet sheet names it"),
        ({"quote": "Q-2026-000001", "saved_build": "1"}, "saved_build", "one thing"),
    ],
)
def test_an_unknown_target_is_a_field_error_and_nothing_is_saved(
    architect_client, target, field, message
):
    response = upload(architect_client, numactl_memory(), **target)
    assert response.status_code == 400
    assert message in " ".join(response.json()["errors"][field])
    assert not NodeProbe.objects.exists()


@pytest.mark.parametrize("node", ["node-8", "node\x007"])
def test_an_unknown_node_in_a_real_audit_is_named(architect_client, fleet_row, node):
    response = upload(architect_client, numactl_memory(), audit=fleet_row.pk, node=node)
    assert response.status_code == 400
    assert f"Fleet audit {fleet_row.pk} has no node node" in response.json()["errors"]["node"][0]
    assert not NodeProbe.objects.exists()


def test_a_saved_build_is_not_readable_without_the_leads_right(client, saved_build):
    from django.contrib.auth.models import Permission

    from tests.factories import UserFactory

    user = UserFactory(username="prober", is_staff=True)
    user.user_permissions.add(Permission.objects.get(codename="add_nodeprobe"))
    client.force_login(user)
    response = upload(client, numactl_memory(), saved_build=saved_build.pk)
    assert response.status_code == 400 and "saved_build" in response.json()["errors"]


def test_the_upload_page_names_the_target_field_and_links_prefill_it(
    architect_client, saved_build, fleet_row
):
    lead_page = architect_client.get(
        reverse("web:presales_lead", args=[saved_build.lead_id])
    ).content.decode()
    assert f"/fleet/probes/?saved_build={saved_build.pk}" in lead_page
    audit_page = architect_client.get(reverse("fleet:audit", args=[fleet_row.pk])).content.decode()
    assert f"?audit={fleet_row.pk}&amp;node=node-7" in audit_page
    form = architect_client.get(
        reverse("fleet:probe-upload"), {"audit": fleet_row.pk, "node": "node-7"}
    ).content.decode()
    assert 'value="node-7"' in form
    archive = SimpleUploadedFile("p.tar.gz", tar_gz(numactl_memory()))
    response = architect_client.post(
        reverse("fleet:probe-upload"),
        {"archive": archive, "psu_watts": 5000, "audit": fleet_row.pk, "node": "nope"},
    )
    assert response.status_code == 200
    assert f"Fleet audit {fleet_row.pk} has no node nope." in response.content.decode()
    assert not NodeProbe.objects.exists()


def test_a_saved_build_with_a_workload_is_judged_with_it(architect_client, saved_build):
    """The workload saved with a build is read again for its evaluation (what it already
    fails is not put on the delivered node)."""
    workload = PERMALINK + "&model_params_b=70&mode=train&batch_size=64"
    architect_client.post(
        reverse("web:presales_lead_save", args=[saved_build.lead_id]),
        {"build": workload, "note": ""},
    )
    with_workload = LeadBuild.objects.exclude(pk=saved_build.pk).get()
    assert with_workload.workload and with_workload.workload["model_params_b"] == 70
    response = upload(architect_client, numactl_memory(), saved_build=with_workload.pk)
    assert response.status_code == 201, response.json()
    assert response.json()["saved_build"] == with_workload.pk and response.json()["comparison"]


def test_a_quote_holds_the_node_to_its_frozen_shares_the_others_to_todays(
    architect_client, make_quote, saved_build, fleet_row
):
    """numactl shows 2 × 503 GB of the quoted 1024 GB (98 %). An architect then raises the
    memory share a node must show to 99 %: the quote, written under 95 %, still passes the
    node; the saved build and the fleet row are held to today's rules and fail it."""
    quote = make_quote(AS_DELIVERED, workload=None)
    raised = architect_client.patch(
        "/api/v1/rules",
        {"parameters": {"probe_memory_share_min": 0.99}},
        content_type="application/json",
    )
    assert raised.status_code == 200, raised.content
    files = numactl_memory()
    targets = three_targets(quote, saved_build, fleet_row)
    bodies = [upload(architect_client, files, **target).json() for target in targets]
    memory = [next(x for x in body["comparison"] if x["item"] == "memory_gb") for body in bodies]
    assert [line["measured"] for line in memory] == ["1006 GB"] * 3
    assert [line["status"] for line in memory] == ["PASS", "FAIL", "FAIL"]
    assert memory[1]["step_code"] == "fit_memory"
