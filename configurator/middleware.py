"""Guards in front of every request: a body limit; for the JSON API, a request id and JSON.

Every path has a body limit (`body_limit`: `PAGE_MAX_BODY_BYTES`, `API_MAX_BODY_BYTES`, or
the path's entry in `UPLOAD_MAX_BODY_BYTES`), checked from `Content-Length` before anything
reads the body — ahead of the session and CSRF middleware, which would otherwise spool a
multipart upload of any size to the temporary directory first. A longer body is answered
413 unread (a page in the visitor's language; the API's JSON); a body without a length
(chunked) is answered 411, since Django would read it as empty.

Under `/api/` every request gets an id (the `X-Request-ID` header of the answer, and the
`request_id` of a 5xx body, so a client's report finds its log line). Any error answer that
is not JSON already — Django's 404 page, a 405 without a body, a 500 page — becomes
`{"detail": "...", "status": ..., "request_id": "..."}` without internals.

`exception_response` decides what an uncaught exception answers, wherever it was raised (a
view, a middleware such as the session's or django-axes', the session save after the view):
a database fault is a 503 with `Retry-After` — JSON under /api/, a page in the visitor's
language elsewhere — and anything else a 500. The API's exception handler and Django's
handler500 (`views.server_error`) both call it.
"""

import logging
import re
from collections.abc import Callable
from uuid import uuid4

from django.conf import settings
from django.db import InterfaceError, OperationalError
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.template import loader
from django.utils import translation
from django.views import defaults

from configurator.api_errors import status_detail

API_PREFIX = "/api/"
# A database that is down, unreachable, or slower than its timeouts (settings DATABASES).
DATABASE_FAULTS = (OperationalError, InterfaceError)
RETRY_AFTER_S = 5

logger = logging.getLogger("configurator.api")


def is_api(request: HttpRequest) -> bool:
    return request.path.startswith(API_PREFIX)


def json_error(request: HttpRequest, status: int, detail: str, **extra) -> JsonResponse:
    """Return the API's JSON answer for an error that is not about a request field."""
    body = {"detail": detail, "status": status, "request_id": request_id(request), **extra}
    return JsonResponse(body, status=status)


def exception_response(request: HttpRequest, exc: BaseException) -> HttpResponse:
    """Answer an uncaught exception: 503 for a database fault, else 500; log it with the id."""
    rid = request_id(request)
    if isinstance(exc, DATABASE_FAULTS):
        logger.error("request %s: database unavailable: %s", rid, exc)
        if is_api(request):
            response = json_error(request, 503, "The database is unavailable; try again shortly.")
        else:
            response = unavailable_page(request)
        response["Retry-After"] = str(RETRY_AFTER_S)
        return response
    logger.error("request %s failed", rid, exc_info=(type(exc), exc, exc.__traceback__))
    if is_api(request):
        return json_error(request, 500, "Internal error; quote the request id when reporting it.")
    return defaults.server_error(request)


def unavailable_page(request: HttpRequest) -> HttpResponse:
    """Render the 503 page in the visitor's language without the session or the database."""
    # Neither the user nor a context processor is read: both would ask the database again.
    language = translation.get_language_from_request(request)
    with translation.override(language):
        page = loader.render_to_string("503.html", {"retry_after": RETRY_AFTER_S})
    return HttpResponse(page, status=503)


def request_id(request: HttpRequest) -> str:
    """Return the id of this request, making one on first use."""
    if not hasattr(request, "request_id"):
        request.request_id = uuid4().hex
    return request.request_id


class ApiGuardMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if not is_api(request):
            return self.get_response(request)
        request_id(request)
        response = self.get_response(request)
        if response.status_code >= 400 and not _is_json(response):
            response = _as_json(request, response)
        response["X-Request-ID"] = request.request_id
        return response


def body_limit(path: str) -> int:
    """Return the largest request body `path` takes, in bytes (settings, "Request bodies")."""
    for pattern, limit in settings.UPLOAD_MAX_BODY_BYTES.items():
        if re.fullmatch(pattern, path):
            return limit
    return settings.API_MAX_BODY_BYTES if path.startswith(API_PREFIX) else (
        settings.PAGE_MAX_BODY_BYTES
    )  # fmt: skip


class BodyLimitMiddleware:
    """Refuse a body over its path's limit, or of unknown length, before anything reads it."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        length = _content_length(request)
        if length is None:
            return _refused(request, 411, limit=body_limit(request.path_info))
        limit = body_limit(request.path_info)
        if length > limit:
            return _refused(request, 413, limit=limit)
        return self.get_response(request)


def _content_length(request: HttpRequest) -> int | None:
    """Return the body's declared length: 0 without a body, None for one of unknown length."""
    declared = request.META.get("CONTENT_LENGTH") or ""
    if not declared.strip():
        # Transfer-Encoding (chunked) without a length: Django reads no byte of such a body.
        return None if request.META.get("HTTP_TRANSFER_ENCODING") else 0
    try:
        return max(int(declared), 0)
    except ValueError:
        return None


def _refused(request: HttpRequest, status: int, *, limit: int) -> HttpResponse:
    if is_api(request):
        detail = (
            f"The request body is larger than {limit} bytes."
            if status == 413
            else "Send the request body with a Content-Length."
        )
        return json_error(request, status, detail, limit=limit)
    with translation.override(translation.get_language_from_request(request)):
        page = loader.render_to_string(
            "configurator/body_refused.html", {"status": status, "limit": limit}
        )
    return HttpResponse(page, status=status)


def _is_json(response: HttpResponse) -> bool:
    return response.get("Content-Type", "").startswith("application/json")


def _as_json(request: HttpRequest, response: HttpResponse) -> JsonResponse:
    replaced = json_error(request, response.status_code, status_detail(response.status_code))
    for header in ("Allow", "Retry-After", "Vary"):
        if header in response:
            replaced[header] = response[header]
    return replaced
