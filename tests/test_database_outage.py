"""A database fault is a 503 with Retry-After wherever it is raised, for pages and API alike.

Pages answer a page in the visitor's language, the API its JSON error; a fault in the view, in
a middleware, or in the session save after the view is answered the same way (one decision:
`configurator.middleware.exception_response`).
"""

import pytest
from django.contrib.sessions.backends.db import SessionStore
from django.db import OperationalError
from django.test import Client

from catalog import views as catalog_views

pytestmark = pytest.mark.django_db


class DatabaseDownMiddleware:
    """A middleware whose database is gone, as the session's or django-axes' can be."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        raise OperationalError("could not connect to server: Connection refused")


def database_down(*args, **kwargs):
    raise OperationalError("server closed the connection unexpectedly")


@pytest.fixture
def production(settings):
    settings.DEBUG = False  # Django answers uncaught exceptions through handler500
    return Client(raise_request_exception=False)


@pytest.fixture
def middleware_down(settings):
    settings.MIDDLEWARE = [*settings.MIDDLEWARE, f"{__name__}.DatabaseDownMiddleware"]


def assert_unavailable_page(response) -> str:
    assert response.status_code == 503
    assert response["Content-Type"].startswith("text/html")
    assert response["Retry-After"] == "5"
    page = response.content.decode()
    assert "Connection refused" not in page and "closed the connection" not in page
    return page


def test_a_database_fault_in_a_page_view_is_a_503_page(production, monkeypatch):
    monkeypatch.setattr(catalog_views, "catalog_items", database_down)

    page = assert_unavailable_page(production.get("/"))

    assert "Temporarily unavailable" in page and "Try again in 5 seconds" in page


def test_the_503_page_speaks_the_visitors_language(production, monkeypatch):
    monkeypatch.setattr(catalog_views, "catalog_items", database_down)

    page = assert_unavailable_page(production.get("/", HTTP_ACCEPT_LANGUAGE="zh-hans"))

    assert 'lang="zh-hans"' in page and "暂时无法访问" in page


def test_a_database_fault_in_a_middleware_is_a_503_page(production, middleware_down):
    assert_unavailable_page(production.get("/configure/"))


def test_a_database_fault_in_a_middleware_is_a_503_under_the_api(production, middleware_down):
    response = production.get("/api/v1/catalog")

    assert response.status_code == 503
    assert response.json()["detail"] == "The database is unavailable; try again shortly."
    assert response["Retry-After"] == "5"


def test_a_database_fault_saving_the_session_after_the_view_is_a_503(production, monkeypatch):
    monkeypatch.setattr(SessionStore, "save", database_down)

    # Adding a build to the comparison writes the session after the view has answered.
    response = production.post("/configure/compare/", {"build": "cpu=xeon-gold-6530"})

    assert_unavailable_page(response)


def test_any_other_fault_in_a_page_is_still_a_500(production, monkeypatch):
    def broken(*args, **kwargs):
        raise RuntimeError("a bug")

    monkeypatch.setattr(catalog_views, "catalog_items", broken)

    assert production.get("/").status_code == 500
