"""Admin logins cannot be guessed, and their protection cannot be turned against staff.

Wrong passwords lock an account only from the address that sent them; an address that tries
many accounts is paused without locking any; a client that reaches gunicorn directly cannot
name itself in X-Forwarded-For; every attempt is logged.
"""

import logging

import pytest
from axes.models import AccessAttempt
from django.contrib.auth.password_validation import validate_password
from django.core.exceptions import ValidationError
from django.core.management import call_command
from django.http import HttpResponse
from django.test import Client, RequestFactory
from django.urls import reverse

from configurator import checks
from configurator.throttle import client_ip, throttle

pytestmark = pytest.mark.django_db
LOGIN = reverse("admin:login")
RIGHT = "right-horse-battery-staple"
ADDRESS_A, ADDRESS_B = "198.51.100.7", "203.0.113.9"


def sign_in(client, password: str, username: str = "architect", **extra):
    data = {"username": username, "password": password, "next": "/admin/"}
    return client.post(LOGIN, data, **extra)


@pytest.fixture
def staff_member(architect):
    architect.set_password(RIGHT)
    architect.save()
    return architect


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


def test_wrong_passwords_from_one_address_do_not_lock_the_account_elsewhere(
    client, staff_member, settings
):
    for _ in range(settings.AXES_FAILURE_LIMIT):
        sign_in(client, "wrong", REMOTE_ADDR=ADDRESS_A)

    assert sign_in(client, RIGHT, REMOTE_ADDR=ADDRESS_A).status_code == 429
    assert sign_in(Client(), RIGHT, REMOTE_ADDR=ADDRESS_B).status_code == 302


def test_the_lockout_answer_says_when_to_try_again(client, staff_member, settings):
    for _ in range(settings.AXES_FAILURE_LIMIT):
        response = sign_in(client, "wrong")

    assert response.status_code == 429
    assert response["Retry-After"] == str(30 * 60)
    assert "Try again in 30 minutes" in response.content.decode()


def test_one_address_trying_many_accounts_is_paused_without_locking_any(
    client, staff_member, settings
):
    settings.LOGIN_ADDRESS_FAILURE_LIMIT = 6
    for n in range(settings.LOGIN_ADDRESS_FAILURE_LIMIT):  # one or two guesses per account
        answer = sign_in(client, "guess", username=f"user{n // 2}", REMOTE_ADDR=ADDRESS_A)
        assert answer.status_code == 200, n  # the form again: no account is locked yet

    paused = sign_in(client, RIGHT, REMOTE_ADDR=ADDRESS_A)

    assert paused.status_code == 429, "the address is paused, the right password included"
    assert "_auth_user_id" not in client.session
    assert "from your address" in paused.content.decode()
    assert 0 < int(paused["Retry-After"]) <= settings.LOGIN_ADDRESS_WINDOW_MINUTES * 60
    assert sign_in(Client(), RIGHT, REMOTE_ADDR=ADDRESS_B).status_code == 302, "no account locked"


def test_client_ip_reads_x_forwarded_for_only_from_a_trusted_proxy(settings):
    factory = RequestFactory()
    via_proxy = factory.get(
        "/", REMOTE_ADDR="127.0.0.1", HTTP_X_FORWARDED_FOR="6.6.6.6, 203.0.113.9"
    )
    direct = factory.get("/", REMOTE_ADDR="198.51.100.7", HTTP_X_FORWARDED_FOR="203.0.113.9")

    assert client_ip(via_proxy) == "127.0.0.1", "no proxy configured: the header is ignored"
    settings.TRUSTED_PROXY_COUNT = 1
    assert client_ip(via_proxy) == "203.0.113.9", "the proxy's own entry, not a spoofable one"
    assert client_ip(direct) == "198.51.100.7", "a client reaching gunicorn cannot name itself"


def test_client_ip_walks_a_chain_of_trusted_proxies(settings):
    settings.TRUSTED_PROXY_COUNT = 2
    settings.TRUSTED_PROXY_ADDRESSES = ["10.0.0.0/8"]
    factory = RequestFactory()

    def address(forwarded: str) -> str:
        return client_ip(factory.get("/", REMOTE_ADDR="10.0.0.2", HTTP_X_FORWARDED_FOR=forwarded))

    assert address("6.6.6.6, 203.0.113.9, 10.0.0.1") == "203.0.113.9"
    assert address("6.6.6.6, 198.51.100.7") == "198.51.100.7", "the outer proxy was bypassed"
    assert address("6.6.6.6, not-an-address, 10.0.0.1") == "10.0.0.1"
    assert address("") == "10.0.0.2"


def test_a_rotated_x_forwarded_for_from_an_untrusted_address_is_still_locked(
    client, staff_member, settings
):
    settings.TRUSTED_PROXY_COUNT = 1
    for n in range(settings.AXES_FAILURE_LIMIT):
        sign_in(client, "wrong", REMOTE_ADDR=ADDRESS_A, HTTP_X_FORWARDED_FOR=f"192.0.2.{n}")

    response = sign_in(client, RIGHT, REMOTE_ADDR=ADDRESS_A, HTTP_X_FORWARDED_FOR="192.0.2.99")

    assert response.status_code == 429
    assert set(AccessAttempt.objects.values_list("ip_address", flat=True)) == {ADDRESS_A}


def test_behind_a_trusted_proxy_each_client_is_counted_apart(client, staff_member, settings):
    settings.TRUSTED_PROXY_COUNT = 1
    for _ in range(settings.AXES_FAILURE_LIMIT):
        sign_in(client, "wrong", REMOTE_ADDR="127.0.0.1", HTTP_X_FORWARDED_FOR=ADDRESS_A)

    other = sign_in(Client(), RIGHT, REMOTE_ADDR="127.0.0.1", HTTP_X_FORWARDED_FOR=ADDRESS_B)

    assert other.status_code == 302


def test_without_a_proxy_count_everyone_behind_the_proxy_shares_its_address(settings):
    # What the deploy check below warns about: the proxy's address stands for every client.
    factory = RequestFactory()
    clients = [factory.get("/", REMOTE_ADDR="127.0.0.1", HTTP_X_FORWARDED_FOR=a)
               for a in (ADDRESS_A, ADDRESS_B)]  # fmt: skip
    assert {client_ip(request) for request in clients} == {"127.0.0.1"}


def test_the_deploy_check_warns_when_production_trusts_no_proxy(settings):
    settings.DEBUG = False
    settings.TRUSTED_PROXY_COUNT = 0
    (warning,) = checks.trusted_proxies_check(None)
    assert warning.id == "configurator.W001"
    assert "every client then shares the proxy's address" in warning.hint

    settings.TRUSTED_PROXY_COUNT = 1
    assert checks.trusted_proxies_check(None) == []
    settings.DEBUG, settings.TRUSTED_PROXY_COUNT = True, 0
    assert checks.trusted_proxies_check(None) == []


def test_throttle_does_not_count_refused_requests():
    @throttle("test-refusals", limit=1, period=60)
    def view(request):
        return HttpResponse(status=400 if request.POST.get("bad") else 200)

    factory = RequestFactory()
    mistakes = [view(factory.post("/", {"bad": "1"})).status_code for _ in range(3)]

    assert mistakes == [400, 400, 400]
    assert view(factory.post("/")).status_code == 200, "the mistakes cost nothing"
    assert view(factory.post("/")).status_code == 429
