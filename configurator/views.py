"""Plain views of the configurator: the probes and the server error page."""

import sys

from django.db import connection
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.views import defaults
from django.views.decorators.http import require_GET

from configurator.middleware import DATABASE_FAULTS, exception_response, is_api


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
    """Answer an uncaught exception: JSON under /api/ (503 for a database fault), else a page."""
    if is_api(request):
        exc = sys.exc_info()[1]
        if exc is not None:
            return exception_response(request, exc)
    return defaults.server_error(request)
