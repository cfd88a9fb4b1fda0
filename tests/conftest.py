"""Shared fixtures: one account per role; every test starts with no drawn fragments kept and
no throttle counts (sign-in failures per address, quote requests)."""

import os

import pytest
from django.conf import settings
from django.contrib.auth.models import Group
from django.core.cache import caches
from hypothesis import settings as hypothesis_settings

from configurator.roles import ARCHITECTS, PRESALES
from tests.factories import UserFactory

# CI (`.ci/run`) draws the same examples on every run, so a red build is the change's, never
# the draw's; elsewhere each run draws anew and explores further. A failure found locally is
# replayed from .hypothesis/ until fixed.
hypothesis_settings.register_profile("ci", derandomize=True, print_blob=True)
hypothesis_settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "default"))


@pytest.fixture(autouse=True)
def _no_kept_fragments():
    # Each test's database starts over, so fragments drawn from another test's rows must go.
    caches["fragments"].clear()


@pytest.fixture(autouse=True)
def _no_throttle_counts():
    # The counts live in the process's cache: another test's failed sign-ins must not count.
    caches[settings.THROTTLE_CACHE].clear()


@pytest.fixture
def architect(db):
    user = UserFactory(username="architect", is_staff=True)
    user.groups.add(Group.objects.get(name=ARCHITECTS))
    return user


@pytest.fixture
def presales(db):
    user = UserFactory(username="presales", is_staff=True)
    user.groups.add(Group.objects.get(name=PRESALES))
    return user


@pytest.fixture
def customer(db):
    return UserFactory(username="customer")


@pytest.fixture
def architect_client(client, architect):
    client.force_login(architect)
    return client


@pytest.fixture
def presales_client(client, presales):
    client.force_login(presales)
    return client
