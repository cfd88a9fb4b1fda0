"""GET and PATCH /api/v1/rules: architects publish versions, and the next evaluation follows."""

import json

import pytest
from django.test import Client

from configurator.engine.rules import RuleParams
from configurator.models import RuleSetVersion

pytestmark = pytest.mark.django_db
URL = "/api/v1/rules"
API_KEYS = {
    "threads_per_gpu_min": 6, "threads_per_gpu_max": 12, "pcie_lanes_per_gpu": 16,
    "memory_vram_ratio_min": 1.2, "memory_floor_gb_8gpu": 512, "gpus_per_socket_max": 5,
    "psu_floor_w_4gpu": 2000, "psu_floor_w_8gpu": 3600, "cpu_base_ghz_min": 2.4,
    "small_batch_max": 16, "balance_score_min": 85, "gpu_memory_usable_fraction": 0.9,
}  # fmt: skip


def patch(client, body):
    return client.patch(URL, json.dumps(body), content_type="application/json")


def test_get_rules_has_every_api_key_with_its_default(client):
    body = client.get(URL).json()
    assert body["version"] == 1
    assert body["profile"] == "operator-baseline"
    for key, default in API_KEYS.items():
        assert body["parameters"][key] == default, key


def test_anonymous_cannot_change_rules(client):
    assert patch(client, {"parameters": {"memory_vram_ratio_min": 1.5}}).status_code in (401, 403)
    assert RuleSetVersion.objects.filter(profile__slug="operator-baseline").count() == 1


def test_presales_cannot_change_rules(presales_client):
    assert patch(presales_client, {"parameters": {"memory_vram_ratio_min": 1.5}}).status_code == 403


def test_customer_cannot_change_rules(client, customer):
    client.force_login(customer)
    assert patch(client, {"parameters": {"memory_vram_ratio_min": 1.5}}).status_code == 403


def test_architect_publishes_a_version_and_the_next_evaluation_follows(
    architect_client, post_json, example
):
    del example["workload"]
    example["build"]["memory_gb"] = 1024
    before = post_json("/api/v1/evaluate", example).json()
    assert before["verdict"] == "accept"

    response = patch(architect_client, {"parameters": {"memory_vram_ratio_min": 1.8}})
    assert response.status_code == 200
    assert response.json()["version"] == 2
    assert response.json()["published_by"] == "architect"

    after = post_json("/api/v1/evaluate", example).json()
    assert after["ruleset"]["version"] == 2
    assert after["verdict"] == "reject"
    assert "P3" in {p["code"] for p in after["pitfalls"]}  # 1.8 × 640 GB = 1152 GB > 1024 GB


def test_published_version_records_what_changed(architect_client):
    patch(architect_client, {"parameters": {"small_batch_max": 32}, "note": "vLLM batching"})
    version = RuleSetVersion.objects.get(profile__slug="operator-baseline", version=2)
    assert version.changes == {"small_batch_max": [RuleParams().small_batch_max, 32]}
    assert version.note == "vLLM batching"
    assert version.created_by.username == "architect"


@pytest.mark.parametrize(
    ("parameters", "key"),
    [
        ({"no_such_rule": 1}, "parameters.no_such_rule"),
        ({"memory_vram_ratio_min": -1}, "parameters.memory_vram_ratio_min"),
        ({"gpus_per_socket_max": 2.5}, "parameters.gpus_per_socket_max"),
        ({"threads_per_gpu_min": 20}, "parameters.threads_per_gpu_min"),
        ({"balance_score_min": 101}, "parameters.balance_score_min"),
    ],
)
def test_bad_rule_values_are_refused_and_nothing_is_published(architect_client, parameters, key):
    response = patch(architect_client, {"parameters": parameters})
    assert response.status_code == 400
    assert key in response.json()["errors"]
    assert RuleSetVersion.objects.filter(profile__slug="operator-baseline").count() == 1


def test_patch_without_csrf_token_is_refused(architect):
    client = Client(enforce_csrf_checks=True)
    client.force_login(architect)
    response = patch(client, {"parameters": {"small_batch_max": 32}})
    assert response.status_code == 403


def test_published_versions_are_immutable():
    version = RuleSetVersion.objects.first()
    version.parameters = {}
    with pytest.raises(Exception, match="immutable"):
        version.save()


def test_openapi_document_describes_the_endpoints(client):
    spec = client.get("/api/v1/openapi.json").json()
    assert spec["openapi"].startswith("3.")
    for path in ("/api/v1/catalog", "/api/v1/evaluate", "/api/v1/rules", "/api/v1/sizing",
                 "/api/v1/recommend"):  # fmt: skip
        assert path in spec["paths"]


def test_catalog_lists_every_kind_with_slugs_and_specs(client):
    body = client.get("/api/v1/catalog").json()
    assert set(body) >= {"cpus", "gpus", "memory", "psus", "platforms"}
    assert {nic["slug"] for nic in body["nics"]} >= {"cx7-ndr-400g-osfp", "cx6-hdr-200g-qsfp56"}
    cpu = next(item for item in body["cpus"] if item["slug"] == "epyc-9754")
    assert (cpu["cores"], cpu["threads"], cpu["pcie_lanes_2s"]) == (128, 256, 160)
    assert all(
        {"slug", "name", "monthly_price"} <= set(item) for items in body.values() for item in items
    )


def test_get_rules_shows_every_parameter_in_force(client):
    # A version stored before some parameters existed: the defaults fill them in.
    profile = RuleSetVersion.objects.get(version=1, profile__is_default=True).profile
    RuleSetVersion.objects.create(profile=profile, version=2, parameters={"small_batch_max": 8})
    parameters = client.get(URL).json()["parameters"]
    assert set(parameters) == set(RuleParams.names())
    assert parameters["small_batch_max"] == 8


def test_nul_characters_are_refused_not_stored(client, architect_client):
    response = client.get(URL, {"profile": "a\x00b"})
    assert response.status_code == 400
    assert "profile" in response.json()["errors"]
    response = patch(architect_client, {"parameters": {"small_batch_max": 8}, "note": "x\x00"})
    assert response.status_code == 400
    assert "note" in response.json()["errors"]


def test_patch_that_changes_nothing_publishes_nothing(architect_client):
    same = RuleParams().psu_floor_w_4gpu
    response = patch(architect_client, {"parameters": {"psu_floor_w_4gpu": float(same)}})
    assert response.status_code == 200
    assert response.json()["version"] == 1
    assert RuleSetVersion.objects.filter(profile__slug="operator-baseline").count() == 1


def test_catalog_lists_every_item_and_says_which_are_offered(client):
    cpus = {cpu["slug"]: cpu for cpu in client.get("/api/v1/catalog").json()["cpus"]}
    assert cpus["xeon-e5-2680-v4"]["offered"] is False
    assert cpus["xeon-gold-6530"]["offered"] is True


def test_patch_naming_the_current_version_publishes(architect_client):
    response = patch(architect_client, {"parameters": {"small_batch_max": 8}, "base_version": 1})
    assert response.status_code == 200
    assert response.json()["version"] == 2


def test_patch_from_a_stale_version_is_409_with_the_current_version(architect_client):
    patch(architect_client, {"parameters": {"small_batch_max": 8}, "base_version": 1})

    response = patch(architect_client, {"parameters": {"small_batch_max": 32}, "base_version": 1})

    assert response.status_code == 409
    body = response.json()
    assert list(body["errors"]) == ["base_version"]
    assert body["current"] == architect_client.get(URL).json()
    assert body["current"]["parameters"]["small_batch_max"] == 8
    assert [(v["version"], v["changes"], v["published_by"]) for v in body["since"]] == [
        (2, {"small_batch_max": [RuleParams().small_batch_max, 8]}, "architect")
    ]
    assert RuleSetVersion.objects.filter(profile__slug="operator-baseline").count() == 2


def test_catalog_is_answered_from_the_snapshot_and_follows_changes(
    client, django_assert_num_queries
):
    from catalog.models import Gpu

    client.get("/api/v1/catalog")
    with django_assert_num_queries(1):  # the revision tokens only
        first = client.get("/api/v1/catalog").json()
    Gpu.objects.filter(slug="l20").update(monthly_price=1234)
    gpu = Gpu.objects.get(slug="l20")
    gpu.save()  # a write through the ORM renews the catalog token
    second = client.get("/api/v1/catalog").json()

    price = {g["slug"]: g["monthly_price"] for g in second["gpus"]}["l20"]
    assert price == 1234.0
    assert first != second
