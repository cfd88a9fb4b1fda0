"""Plain views of the configurator: the probes and the server error page."""

import sys

from django.db import connection
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.views import defaults
from django.views.decorators.http import require_GET

from configurator.middleware import DATABASE_FAULTS, exception_response


@require_GET
def healthz(request: HttpRequest) -> JsonResponse:
    """Answer a liveness probe: the process serves requests (no database touched)."""
    return JsonResponse({"status": "ok"})


@require_GET
def readyz(request: HttpRequest) -> JsonResponse:
    """Answer a readiness probe: 200 when the database answers a query, else 503."""
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
            cursor.fetchone()
    except DATABASE_FAULTS:
        return JsonResponse({"status": "unavailable", "database": "unavailable"}, status=503)
    return JsonResponse({"status": "ready", "database": "ok"})


def server_error(request: HttpRequest) -> HttpResponse:
    """Answer an uncaught exception (handler500) as `exception_response` decides: a database
    fault is a 503 (JSON under /api/, a page elsewhere), anything else a 500."""
    exc = sys.exc_info()[1]
    if exc is None:
        return defaults.server_error(request)
    return exception_response(request, exc)
