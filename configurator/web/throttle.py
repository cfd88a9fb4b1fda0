"""A fixed-window request limit per client address, kept in the cache."""

from django.core.cache import cache
from django.http import HttpRequest


def client_address(request: HttpRequest) -> str:
    # Behind the TLS proxy (README) REMOTE_ADDR is the proxy unless it rewrites it; the proxy
    # is expected to set it from X-Forwarded-For, as gunicorn does with --forwarded-allow-ips.
    return request.META.get("REMOTE_ADDR", "")


def throttle_hit(request: HttpRequest, *, scope: str, limit: int, window_s: int) -> bool:
    """Count one request of this client in the scope; return whether it is over the limit."""
    key = f"throttle:{scope}:{client_address(request)}"
    if cache.add(key, 1, timeout=window_s):
        return False
    try:
        count = cache.incr(key)
    except ValueError:  # expired between add and incr
        cache.add(key, 1, timeout=window_s)
        return False
    return count > limit
