"""`manage.py add_staff` creates architect and presales accounts."""

import pytest
from django.contrib.auth import get_user_model
from django.core.management import CommandError, call_command

from configurator.roles import ARCHITECTS, PRESALES

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(("role", "group"), [("architect", ARCHITECTS), ("presales", PRESALES)])
def test_add_staff_creates_a_staff_member_of_the_role(monkeypatch, role, group):
    monkeypatch.setenv("STAFF_PASSWORD", "a-long-enough-passphrase-42")
    call_command("add_staff", "wang", role=role)
    user = get_user_model().objects.get(username="wang")
    assert user.is_staff and not user.is_superuser
    assert user.groups.filter(name=group).exists()
    assert user.check_password("a-long-enough-passphrase-42")


def test_add_staff_refuses_a_weak_password(monkeypatch):
    monkeypatch.setenv("STAFF_PASSWORD", "123")
    with pytest.raises(CommandError, match="too short"):
        call_command("add_staff", "li", role="architect")
    assert not get_user_model().objects.filter(username="li").exists()
