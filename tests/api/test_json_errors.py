"""Every /api/ answer is JSON, errors included; a database fault is a 503 within the timeout."""

import re

import pytest
from django.db import OperationalError
from django.test import Client

from configurator import selectors, views

pytestmark = pytest.mark.django_db


def assert_json_error(response, status: int) -> dict:
    assert response.status_code == status
    assert response["Content-Type"] == "application/json"
    body = response.json()
    assert body["status"] == status
    assert body["request_id"] == response["X-Request-ID"]
    return body


def test_an_unknown_api_path_is_a_json_404(client):
    assert_json_error(client.get("/api/v1/no-such-thing"), 404)


def test_a_wrong_method_is_a_json_405_with_allow(client):
    response = client.delete("/api/v1/evaluate")
    assert_json_error(response, 405)
    assert response["Allow"] == "POST"


def test_an_unexpected_error_is_a_json_500_with_a_request_id_and_no_internals(
    client, post_json, example, monkeypatch
):
    def broken():
        raise RuntimeError("secret internals at /srv/app/selectors.py")

    monkeypatch.setattr(selectors, "snapshots", broken)

    response = post_json("/api/v1/evaluate", example)

    body = assert_json_error(response, 500)
    assert "secret" not in response.content.decode()
    assert len(body["request_id"]) == 32


def test_a_database_fault_is_a_json_503_with_retry_after(post_json, example, monkeypatch):
    def database_down():
        raise OperationalError("could not connect to server: Connection refused")

    monkeypatch.setattr(selectors, "snapshots", database_down)

    response = post_json("/api/v1/evaluate", example)

    body = assert_json_error(response, 503)
    assert body["detail"] == "The database is unavailable; try again shortly."
    assert response["Retry-After"] == "5"
    assert "Connection refused" not in response.content.decode()


def test_a_database_fault_outside_the_view_is_a_json_503(rf):
    # A fault in a middleware (the session store, say) reaches Django's handler500.
    request = rf.get("/api/v1/catalog")
    try:
        raise OperationalError("server closed the connection unexpectedly")
    except OperationalError:
        response = views.server_error(request)

    assert response.status_code == 503
    assert response["Content-Type"] == "application/json"


def test_a_server_error_outside_the_api_is_a_page(rf):
    try:
        raise RuntimeError("boom")
    except RuntimeError:
        response = views.server_error(rf.get("/"))

    assert response.status_code == 500
    assert response["Content-Type"].startswith("text/html")


def test_a_failed_csrf_check_is_the_documented_json_error(architect):
    client = Client(enforce_csrf_checks=True)
    client.force_login(architect)

    response = client.patch("/api/v1/rules", {"parameters": {}}, content_type="application/json")

    body = assert_json_error(response, 403)
    assert set(body) == {"detail", "status", "request_id"}
    assert "CSRF" in body["detail"]


def test_an_api_call_without_a_session_is_the_documented_json_error(client):
    body = assert_json_error(client.get("/api/v1/quotes/Q-2026-000001"), 401)
    assert set(body) == {"detail", "status", "request_id"}


def test_every_api_answer_carries_a_request_id(client):
    assert len(client.get("/api/v1/rules")["X-Request-ID"]) == 32


def test_readiness_probe_touches_the_database(client):
    assert client.get("/readyz").json() == {"status": "ready", "database": "ok"}


def test_readiness_probe_is_503_when_the_database_fails(client, monkeypatch):
    from django.db.backends.utils import CursorWrapper

    def fail(*args, **kwargs):
        raise OperationalError("timeout expired")

    monkeypatch.setattr(CursorWrapper, "execute", fail)

    response = client.get("/readyz")

    assert response.status_code == 503
    assert response.json()["database"] == "unavailable"


def test_liveness_probe_does_not_touch_the_database(client, django_assert_num_queries):
    with django_assert_num_queries(0):
        assert client.get("/healthz").status_code == 200


@pytest.mark.parametrize(
    ("url", "body"),
    [("/api/v1/evaluate", {"build": None}), ("/api/v1/sizing", {"workload": 3}),
     ("/api/v1/recommend", {"workload": []})],
)  # fmt: skip
def test_a_part_that_is_not_an_object_is_named_without_internal_class_names(client, url, body):
    response = client.post(url, body, content_type="application/json")
    assert response.status_code == 400
    messages = " ".join(m for found in response.json()["errors"].values() for m in found)
    assert "Input should be a valid dictionary or object" in messages
    assert not re.search(r"\b\w+In\b", messages), messages
