"""Every path has a body limit, refused from Content-Length before anything reads the body.

Pages take forms (`PAGE_MAX_BODY_BYTES`), the API JSON (`API_MAX_BODY_BYTES`), the upload
paths their file's limit plus the multipart envelope (`UPLOAD_MAX_BODY_BYTES`). A refused
body is never read: no session, no CSRF check, nothing spooled to the temporary directory.
"""

import io

import pytest
from django.conf import settings
from django.test import Client, RequestFactory

from configurator.fleet import services
from configurator.fleet.probe.archive import MAX_ARCHIVE_BYTES
from configurator.middleware import BodyLimitMiddleware, body_limit

pytestmark = pytest.mark.django_db

MiB = 2**20


class Unread(io.RawIOBase):
    """A request body that fails the test if anything reads it."""

    def readable(self) -> bool:
        return True

    def readinto(self, buffer) -> int:
        raise AssertionError("the body was read")


def post_declaring(client: Client, path: str, length: int, **headers):
    """POST to `path` a body that declares `length` bytes and must never be read."""
    return client.generic(
        "POST",
        path,
        content_type="multipart/form-data; boundary=xyz",
        CONTENT_LENGTH=str(length),
        **{"wsgi.input": Unread(), **headers},
    )


@pytest.fixture
def forged_csrf_client():
    client = Client(enforce_csrf_checks=True)
    client.cookies["csrftoken"] = "0123456789abcdef0123456789abcdef"  # made up by the client
    return client


def test_each_upload_path_takes_its_file_and_its_envelope():
    assert body_limit("/fleet/") > services.MAX_UPLOAD_BYTES
    assert body_limit("/fleet/probes/") > MAX_ARCHIVE_BYTES
    assert body_limit("/api/v1/fleet/probes") > MAX_ARCHIVE_BYTES
    assert body_limit("/admin/catalog/gpu/import/") > settings.CATALOG_IMPORT_MAX_BYTES
    assert body_limit("/admin/catalog/gpu/process_import/") == settings.PAGE_MAX_BODY_BYTES
    assert body_limit("/configure/quote/") == settings.PAGE_MAX_BODY_BYTES == 256 * 1024
    assert body_limit("/api/v1/evaluate") == settings.API_MAX_BODY_BYTES == 64 * 1024


@pytest.mark.parametrize("path", ["/", "/configure/quote/", "/fleet/", "/admin/login/"])
def test_a_300_mb_post_with_a_forged_csrf_cookie_is_refused_unread(forged_csrf_client, path):
    response = post_declaring(forged_csrf_client, path, 300 * MiB)

    assert response.status_code == 413
    assert response["Content-Type"].startswith("text/html")
    assert "Request too large" in response.content.decode()
    assert "sessionid" not in response.cookies


def test_the_413_page_is_in_the_visitors_language(client):
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "zh-hans"

    response = post_declaring(client, "/fleet/", 30 * MiB)

    html = response.content.decode()
    assert response.status_code == 413
    assert '<html lang="zh-hans">' in html
    assert "请求过大" in html


def test_an_api_body_over_its_limit_keeps_the_json_413(client):
    response = post_declaring(client, "/api/v1/evaluate", 300 * MiB)

    assert response.status_code == 413
    assert response.json()["limit"] == settings.API_MAX_BODY_BYTES
    assert "X-Request-ID" in response


def test_a_body_of_unknown_length_is_refused_unread(client):
    page = client.generic(
        "POST", "/fleet/", HTTP_TRANSFER_ENCODING="chunked", **{"wsgi.input": Unread()}
    )
    api = client.generic(
        "POST", "/api/v1/evaluate", HTTP_TRANSFER_ENCODING="chunked", **{"wsgi.input": Unread()}
    )

    assert page.status_code == 411 and "Length required" in page.content.decode()
    assert api.status_code == 411 and "Content-Length" in api.json()["detail"]


def test_the_limit_is_checked_before_the_session_and_csrf():
    order = settings.MIDDLEWARE
    guard = order.index("configurator.middleware.BodyLimitMiddleware")

    assert guard < order.index("django.contrib.sessions.middleware.SessionMiddleware")
    assert guard < order.index("django.middleware.csrf.CsrfViewMiddleware")


def test_a_body_within_its_limit_goes_through():
    reached = []
    middleware = BodyLimitMiddleware(lambda request: reached.append(request) or "answer")
    request = RequestFactory().post("/configure/quote/", {"name": "x" * 1000})

    assert middleware(request) == "answer"
    assert reached


def test_django_reads_no_more_fields_or_files_than_the_settings_say():
    assert settings.DATA_UPLOAD_MAX_MEMORY_SIZE == settings.PAGE_MAX_BODY_BYTES
    assert settings.DATA_UPLOAD_MAX_NUMBER_FILES == 5
    assert settings.DATA_UPLOAD_MAX_NUMBER_FIELDS == 1000


def test_a_signed_in_api_post_as_multipart_without_a_boundary_is_a_400(architect_client):
    response = architect_client.post(
        "/api/v1/fleet/probes", b"archive=x", content_type="multipart/form-data"
    )

    assert response.status_code == 400
    assert "boundary" in response.json()["errors"]["body"][0]


def test_an_api_form_with_too_many_files_is_a_400(architect_client):
    files = {f"f{n}": io.BytesIO(b"x") for n in range(6)}

    response = architect_client.post("/api/v1/fleet/probes", files)

    assert response.status_code == 400
    assert list(response.json()["errors"]) == ["body"]
