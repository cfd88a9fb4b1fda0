"""Shared fixtures: one account per role; every test starts with no drawn fragments kept and
no throttle counts (sign-in failures per address, quote requests)."""

import pytest
from django.conf import settings
from django.contrib.auth.models import Group
from django.core.cache import caches

from configurator.roles import ARCHITECTS, PRESALES
from tests.factories import UserFactory


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
