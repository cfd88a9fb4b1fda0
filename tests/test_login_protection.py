"""Admin logins cannot be guessed: lockout after a few failures, every attempt logged."""

import logging

import pytest
from django.contrib.auth.password_validation import validate_password
from django.core.exceptions import ValidationError
from django.core.management import call_command
from django.http import HttpResponse
from django.test import RequestFactory
from django.urls import reverse

from configurator.throttle import client_ip, throttle

pytestmark = pytest.mark.django_db
LOGIN = reverse("admin:login")


def sign_in(client, password: str):
    return client.post(LOGIN, {"username": "architect", "password": password, "next": "/admin/"})


def test_an_architect_is_locked_out_after_five_wrong_passwords(client, architect, settings):
    architect.set_password("right-horse-battery-staple")
    architect.save()
    for _ in range(settings.AXES_FAILURE_LIMIT - 1):
        assert sign_in(client, "wrong").status_code == 200  # the form again, with its error

    assert sign_in(client, "wrong").status_code == 429
    response = sign_in(client, "right-horse-battery-staple")

    assert response.status_code == 429, "the right password does not help while locked"
    assert "_auth_user_id" not in client.session


def test_the_lockout_page_speaks_the_visitors_language(client, architect, settings):
    for _ in range(settings.AXES_FAILURE_LIMIT):
        response = client.post(
            LOGIN,
            {"username": "architect", "password": "wrong", "next": "/admin/"},
            HTTP_ACCEPT_LANGUAGE="zh-hans",
        )
    assert response.status_code == 429
    page = response.content.decode()
    assert "登录已锁定" in page and 'lang="zh-hans"' in page


def test_axes_reset_username_unlocks_a_user(client, architect, settings):
    architect.set_password("right-horse-battery-staple")
    architect.save()
    for _ in range(settings.AXES_FAILURE_LIMIT):
        sign_in(client, "wrong")

    call_command("axes_reset_username", "architect")

    assert sign_in(client, "right-horse-battery-staple").status_code == 302


def test_failed_and_successful_logins_are_logged(client, architect, caplog):
    architect.set_password("right-horse-battery-staple")
    architect.save()
    with caplog.at_level(logging.INFO, logger="axes"):
        sign_in(client, "wrong")
        sign_in(client, "right-horse-battery-staple")

    messages = [record.getMessage() for record in caplog.records]
    assert any("login failure" in message and "architect" in message for message in messages)
    assert any("Successful login" in message and "architect" in message for message in messages)


@pytest.mark.parametrize("password", ["123456789", "password", "short"])
def test_weak_passwords_are_refused(password):
    with pytest.raises(ValidationError):
        validate_password(password)


def test_client_ip_reads_the_trusted_proxys_header(settings):
    request = RequestFactory().get(
        "/", REMOTE_ADDR="10.0.0.1", HTTP_X_FORWARDED_FOR="6.6.6.6, 203.0.113.9"
    )
    assert client_ip(request) == "10.0.0.1"
    settings.TRUSTED_PROXY_COUNT = 1
    assert client_ip(request) == "203.0.113.9", "the proxy's own entry, not a spoofable one"


def test_throttle_answers_429_beyond_the_limit_per_client(settings):
    @throttle("test-form", limit=2, period=60)
    def view(request):
        return HttpResponse("ok")

    factory = RequestFactory()
    answers = [view(factory.post("/", REMOTE_ADDR="198.51.100.7")).status_code for _ in range(3)]
    other = view(factory.post("/", REMOTE_ADDR="198.51.100.8")).status_code
    reading = view(factory.get("/", REMOTE_ADDR="198.51.100.7")).status_code

    assert answers == [200, 200, 429]
    assert other == 200
    assert reading == 200
