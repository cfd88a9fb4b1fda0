"""Architects change a threshold in the admin; a new version is published and used next."""

import json

import pytest
from django.urls import reverse

from configurator.engine.rules import RuleParams
from configurator.models import RuleProfile, RuleSetVersion
from tests.api.conftest import EXAMPLE

pytestmark = pytest.mark.django_db


def profile_form(profile: RuleProfile, **changes) -> dict:
    """Return the admin change form's POST data with some parameters changed."""
    current = profile.versions.first().parameters
    data = {
        "slug": profile.slug,
        "name": profile.name,
        "description": profile.description,
        "note": changes.pop("note", ""),
        "base_version": profile.versions.first().version,
        "versions-TOTAL_FORMS": "0",
        "versions-INITIAL_FORMS": "0",
        "versions-MIN_NUM_FORMS": "0",
        "versions-MAX_NUM_FORMS": "1000",
    }
    if profile.is_default:
        data["is_default"] = "on"
    data.update({name: RuleParams.from_mapping(current).as_dict()[name] for name in current})
    data.update(changes)
    return data


def change_url(profile: RuleProfile) -> str:
    return reverse("admin:configurator_ruleprofile_change", args=[profile.pk])


def publish(client, profile: RuleProfile, **changes):
    """Save the form, see the diff, confirm it: the architect's two steps."""
    data = profile_form(profile, **changes)
    first = client.post(change_url(profile), data)
    if first.status_code != 200 or "confirm_changes" not in first.context["adminform"].form.data:
        return first
    data["confirm_changes"] = first.context["adminform"].form.data["confirm_changes"]
    return client.post(change_url(profile), data)


def test_admin_edit_publishes_a_version_that_the_next_evaluation_uses(architect_client, client):
    profile = RuleProfile.objects.get(is_default=True)
    body = json.dumps({"build": EXAMPLE["build"]})
    assert (
        client.post("/api/v1/evaluate", body, content_type="application/json").json()["verdict"]
        == "accept"
    )

    response = publish(architect_client, profile, memory_vram_ratio_min=2.0, note="stricter")
    assert response.status_code == 302, response.content.decode()[:2000]

    latest = profile.versions.first()
    assert latest.version == 2
    assert latest.changes == {"memory_vram_ratio_min": [1.2, 2.0]}
    assert latest.created_by.username == "architect"
    after = client.post("/api/v1/evaluate", body, content_type="application/json").json()
    assert after["ruleset"]["version"] == 2
    assert "P3" in {p["code"] for p in after["pitfalls"]}  # 2.0 × 640 GB = 1280 GB > 1024 GB


def test_admin_shows_who_changed_what(architect_client):
    profile = RuleProfile.objects.get(is_default=True)
    publish(architect_client, profile, small_batch_max=8)
    html = architect_client.get(change_url(profile)).content.decode()
    assert "small_batch_max" in html and "architect" in html


def test_saving_without_changes_publishes_nothing(architect_client):
    profile = RuleProfile.objects.get(is_default=True)
    architect_client.post(change_url(profile), profile_form(profile))
    assert profile.versions.count() == 1


def test_inconsistent_values_are_shown_on_the_form_and_nothing_is_published(architect_client):
    profile = RuleProfile.objects.get(is_default=True)
    response = architect_client.post(
        change_url(profile), profile_form(profile, threads_per_gpu_min=30)
    )
    assert response.status_code == 200
    assert "Cannot exceed threads_per_gpu_max" in response.content.decode()
    assert profile.versions.count() == 1


def test_the_diff_is_shown_before_anything_is_published(architect_client):
    profile = RuleProfile.objects.get(is_default=True)
    response = architect_client.post(
        change_url(profile), profile_form(profile, memory_vram_ratio_min=1.5)
    )
    html = response.content.decode()
    assert response.status_code == 200
    assert 'id="rules-diff"' in html and "System memory per GB of GPU memory" in html
    assert "1.2" in html and "1.5" in html
    assert profile.versions.count() == 1


def test_a_value_changed_after_the_diff_is_shown_again(architect_client):
    profile = RuleProfile.objects.get(is_default=True)
    data = profile_form(profile, memory_vram_ratio_min=1.5)
    first = architect_client.post(change_url(profile), data)
    data["confirm_changes"] = first.context["adminform"].form.data["confirm_changes"]
    data["memory_vram_ratio_min"] = 1.8
    second = architect_client.post(change_url(profile), data)
    assert second.status_code == 200 and 'id="rules-diff"' in second.content.decode()
    assert profile.versions.count() == 1


def test_parameters_are_grouped_by_dimension_with_unit_default_and_source(architect_client):
    html = architect_client.get(change_url(RuleProfile.objects.get(is_default=True))).content
    html = html.decode()
    for heading in ("CPU and NUMA", "PCIe", "Memory", "Power", "Fabric", "Recommender"):
        assert "<h2" in html and heading in html
    assert "Fewest CPU threads per GPU" in html
    assert "threads_per_gpu_min · unit: threads · default: 6 · source:" in html


def test_every_rule_parameter_is_described():
    from configurator.rule_parameters import DIMENSIONS, PARAMETERS

    assert set(PARAMETERS) == set(RuleParams.names())
    assert {info.dimension for info in PARAMETERS.values()} <= set(DIMENSIONS)


def test_rules_form_speaks_chinese(architect_client):
    architect_client.cookies["django_language"] = "zh-hans"
    html = architect_client.get(change_url(RuleProfile.objects.get(is_default=True))).content
    assert "每个 GPU 最少的 CPU 线程数" in html.decode()


def test_presales_cannot_edit_rules_in_the_admin(presales_client):
    profile = RuleProfile.objects.get(is_default=True)
    response = presales_client.post(change_url(profile), profile_form(profile, small_batch_max=8))
    assert response.status_code == 403
    assert profile.versions.count() == 1


def test_versions_cannot_be_changed_or_deleted_in_the_admin(architect_client):
    version = RuleSetVersion.objects.first()
    url = reverse("admin:configurator_rulesetversion_delete", args=[version.pk])
    assert architect_client.post(url, {"post": "yes"}).status_code == 403
    assert RuleSetVersion.objects.filter(pk=version.pk).exists()


def test_architect_adds_a_profile_in_the_admin_with_its_first_version(architect_client):
    data = profile_form(RuleProfile.objects.get(is_default=True), small_batch_max=4)
    data.update(slug="inference-strict", name="Inference, strict")
    data.pop("is_default", None)
    response = architect_client.post(reverse("admin:configurator_ruleprofile_add"), data)
    assert response.status_code == 302, response.content.decode()[:2000]
    profile = RuleProfile.objects.get(slug="inference-strict")
    (version,) = profile.versions.all()
    assert version.version == 1
    assert version.parameters["small_batch_max"] == 4


def test_migrate_renews_the_revision_tokens():
    from django.core.management.sql import emit_post_migrate_signal

    from configurator.revisions import revision_tokens

    before = revision_tokens()
    emit_post_migrate_signal(verbosity=0, interactive=False, db="default")
    after = revision_tokens()
    assert set(after) == {"catalog", "rules"}
    assert all(after[name] != before[name] for name in after)


def test_the_form_carries_the_version_it_was_opened_on(architect_client):
    profile = RuleProfile.objects.get(is_default=True)
    html = architect_client.get(change_url(profile)).content.decode()
    assert 'type="hidden" name="base_version" value="1"' in html


def test_a_stale_save_is_refused_and_shows_what_changed_meanwhile(architect_client):
    profile = RuleProfile.objects.get(is_default=True)
    opened_on_v1 = profile_form(profile, small_batch_max=32)
    publish(architect_client, profile, memory_vram_ratio_min=2.0)

    response = architect_client.post(change_url(profile), opened_on_v1)

    assert response.status_code == 200
    html = response.content.decode()
    assert "the rules changed since you opened this form" in html
    assert "v2 by architect: memory_vram_ratio_min 1.2 → 2.0" in html
    assert 'name="base_version" value="2"' in html
    assert profile.versions.count() == 2
    assert profile.versions.first().parameters["memory_vram_ratio_min"] == 2.0


def test_a_save_without_a_base_version_is_refused(architect_client):
    profile = RuleProfile.objects.get(is_default=True)
    data = profile_form(profile, small_batch_max=32)
    del data["base_version"]

    response = architect_client.post(change_url(profile), data)

    assert response.status_code == 200
    assert profile.versions.count() == 1


def test_a_stale_publish_in_the_service_publishes_nothing():
    from configurator import services

    profile = RuleProfile.objects.get(is_default=True)
    services.ruleset_publish(profile=profile, changes={"small_batch_max": 8}, user=None)

    with pytest.raises(services.StaleVersion) as stale:
        services.ruleset_publish(
            profile=profile, changes={"small_batch_max": 32}, user=None, base_version=1
        )

    assert [v.version for v in stale.value.since()] == [2]
    assert profile.versions.count() == 2


def test_revision_bumps_inside_a_bulk_write_happen_once_at_its_end():
    from configurator.models import Revision
    from configurator.revisions import CATALOG, revision_bump, revision_bumps_deferred

    before = Revision.objects.get(name=CATALOG).token
    with revision_bumps_deferred():
        revision_bump(CATALOG)
        revision_bump(CATALOG)
        assert Revision.objects.get(name=CATALOG).token == before
    assert Revision.objects.get(name=CATALOG).token != before
