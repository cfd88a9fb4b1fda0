"""Changed rule defaults reach installs as a new published version; old versions stay."""

import importlib

import pytest
from django.apps import apps

from configurator.models import RuleProfile, RuleSetVersion

pytestmark = pytest.mark.django_db
migration = importlib.import_module("configurator.migrations.0005_rules_deployed_systems")


def current(slug: str) -> RuleSetVersion:
    return RuleSetVersion.objects.filter(profile__slug=slug).latest()


def test_a_fresh_install_has_the_calibrated_defaults():
    baseline = current("operator-baseline").parameters
    assert baseline["gpus_per_socket_max"] == 5
    assert baseline["gpu_memory_usable_fraction"] == 0.9
    assert baseline["gpus_per_nic"] == 1
    assert current("nvidia-ra-2-8-5").parameters["gpus_per_nic"] == 2


def test_an_old_install_gets_a_new_version_and_keeps_its_own_values():
    profile = RuleProfile.objects.create(slug="old", name="Old install")
    old = {"gpus_per_socket_max": 4, "gpus_per_nic": 2, "threads_per_gpu_min": 6}
    RuleSetVersion.objects.create(profile=profile, version=1, parameters=old)
    chosen = RuleProfile.objects.create(slug="chosen", name="Chose its own")
    mine = {"gpus_per_socket_max": 3, "gpus_per_nic": 4}
    RuleSetVersion.objects.create(profile=chosen, version=1, parameters=mine)

    migration.publish(apps, None)

    new = current("old")
    assert new.version == 2
    assert new.parameters["gpus_per_socket_max"] == 5
    assert new.parameters["gpus_per_nic"] == 1
    assert new.parameters["gpu_memory_usable_fraction"] == 0.9
    assert new.changes["gpus_per_socket_max"] == [4, 5]
    assert RuleSetVersion.objects.get(profile=profile, version=1).parameters == old
    kept = current("chosen")
    assert kept.parameters["gpus_per_socket_max"] == 3 and kept.parameters["gpus_per_nic"] == 4


def test_publishing_twice_adds_nothing():
    before = RuleSetVersion.objects.count()
    migration.publish(apps, None)
    assert RuleSetVersion.objects.count() == before
