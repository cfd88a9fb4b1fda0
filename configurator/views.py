"""Plain views of the configurator."""

from django.http import HttpRequest, JsonResponse
from django.views.decorators.http import require_GET


@require_GET
def healthz(request: HttpRequest) -> JsonResponse:
    """Answer a load balancer's health probe."""
    return JsonResponse({"status": "ok"})
