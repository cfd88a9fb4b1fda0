"""Who a client is, and how often it may do something: for logins and public forms.

`client_ip` is the address a request came from, read through `TRUSTED_PROXY_COUNT` proxies
(django-axes uses it for login lockouts). `throttle` limits a view to `limit` requests per
`period` seconds per client address, answering 429 with `Retry-After` beyond it; the count
lives in Django's cache (`CACHES`), so with several workers use a shared cache backend.

    @throttle("quote-request", limit=5, period=3600)
    def quote_request(request): ...
"""

import time
from collections.abc import Callable
from functools import wraps

from django.conf import settings
from django.core.cache import caches
from django.http import HttpRequest, HttpResponse
from django.utils.translation import gettext as _


def client_ip(request: HttpRequest) -> str:
    """Return the client's address: REMOTE_ADDR, or the address the trusted proxies saw."""
    hops = settings.TRUSTED_PROXY_COUNT
    if hops:
        forwarded = [a.strip() for a in request.META.get("HTTP_X_FORWARDED_FOR", "").split(",")]
        forwarded = [address for address in forwarded if address]
        if len(forwarded) >= hops:
            return forwarded[-hops]
    return request.META.get("REMOTE_ADDR", "")


def throttle(scope: str, *, limit: int, period: int) -> Callable:
    """Allow `limit` requests per `period` seconds per client address to the decorated view."""

    def decorator(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
        @wraps(view)
        def throttled(request: HttpRequest, *args, **kwargs) -> HttpResponse:
            if request.method in ("GET", "HEAD", "OPTIONS"):
                return view(request, *args, **kwargs)
            window = int(time.time() // period)
            key = f"throttle:{scope}:{client_ip(request)}:{window}"
            cache = caches[settings.THROTTLE_CACHE]
            cache.add(key, 0, timeout=period)
            try:
                count = cache.incr(key)
            except ValueError:  # expired between add and incr
                cache.set(key, 1, timeout=period)
                count = 1
            if count > limit:
                response = HttpResponse(
                    _("Too many requests; try again later."), status=429, content_type="text/plain"
                )
                response["Retry-After"] = str(period - int(time.time()) % period)
                return response
            return view(request, *args, **kwargs)

        return throttled

    return decorator
