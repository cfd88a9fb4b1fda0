"""Who a client is, and how often it may do something: for sign-ins and public forms.

`client_ip` is the address a request came from. `X-Forwarded-For` is read only when
`TRUSTED_PROXY_COUNT` proxies are configured *and* the request comes from one of
`TRUSTED_PROXY_ADDRESSES`: a client that reaches gunicorn directly cannot name itself.

Counts live in Django's cache (`THROTTLE_CACHE`) per client address and fixed window, so
with several workers use a shared cache (`CACHE_URL`):

- `throttle` limits a view to `limit` *accepted* requests per `period` seconds per address
  (an answer of 400 or more, a form's errors say, costs nothing) and answers 429 with
  `Retry-After` beyond it (the view's own page, when it gives one, keeps what was typed):

      @throttle("quote-request", limit=5, period=3600)
      def quote_request(request): ...

- sign-ins: django-axes locks an account *from one address* after `LOGIN_FAILURE_LIMIT`
  wrong passwords; beyond that, an address with `LOGIN_ADDRESS_FAILURE_LIMIT` failed
  sign-ins (any accounts) within `LOGIN_ADDRESS_WINDOW_MINUTES` may not sign in at all until
  the window ends (`SignInThrottleBackend`). That locks no account: the same people sign in
  from anywhere else. Both answer 429 with the lockout page (`sign_in_refused`).
"""

import ipaddress
import time
from collections.abc import Callable
from contextlib import suppress
from functools import cache, wraps

from django.conf import settings
from django.core.cache import caches
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.translation import gettext as _

SIGN_IN_FAILURES = "sign-in-failures"

Address = ipaddress.IPv4Address | ipaddress.IPv6Address
Network = ipaddress.IPv4Network | ipaddress.IPv6Network


def client_ip(request: HttpRequest) -> str:
    """Return the client's address: REMOTE_ADDR, or what the trusted proxies in front saw."""
    address = request.META.get("REMOTE_ADDR", "")
    hops = settings.TRUSTED_PROXY_COUNT
    if not hops or not is_trusted_proxy(address):
        return address
    forwarded = [entry.strip() for entry in request.META.get("HTTP_X_FORWARDED_FOR", "").split(",")]
    forwarded = [entry for entry in forwarded if entry]
    # Each proxy appends the address that connected to it: read one entry per proxy from the
    # right, and stop at the first that is not a trusted proxy itself — that one is the
    # client, and whatever stands left of it the client wrote.
    for hop in range(hops):
        entry = _parsed(forwarded.pop()) if forwarded else None
        if entry is None:  # no entry, or not an address: keep the last one known
            break
        address = str(entry)
        if hop < hops - 1 and not is_trusted_proxy(address):
            break
    return address


def is_trusted_proxy(address: str) -> bool:
    """Tell whether `address` is one of `TRUSTED_PROXY_ADDRESSES` (addresses or networks)."""
    parsed = _parsed(address)
    networks = trusted_proxy_networks(tuple(settings.TRUSTED_PROXY_ADDRESSES))
    return parsed is not None and any(parsed in network for network in networks)


@cache
def trusted_proxy_networks(entries: tuple[str, ...]) -> tuple[Network, ...]:
    """Return the networks of `TRUSTED_PROXY_ADDRESSES` ("127.0.0.1", "10.0.0.0/8", "::1")."""
    return tuple(ipaddress.ip_network(entry, strict=False) for entry in entries)


def _parsed(address: str) -> Address | None:
    try:
        return ipaddress.ip_address(address)
    except ValueError:
        return None


# Counting per address and window ------------------------------------------------------------


def _key(scope: str, address: str, period: int) -> str:
    return f"throttle:{scope}:{address}:{int(time.time() // period)}"


def _seconds_left(period: int) -> int:
    return period - int(time.time()) % period


def minutes_left(seconds: int) -> int:
    """Return a wait in whole minutes, rounded up: what a refusal tells a person."""
    return max(1, -(-seconds // 60))


def _count_up(scope: str, address: str, period: int) -> int:
    """Count one more in this window and return the count."""
    key = _key(scope, address, period)
    counts = caches[settings.THROTTLE_CACHE]
    counts.add(key, 0, timeout=period)
    try:
        return counts.incr(key)
    except ValueError:  # expired between add and incr
        counts.set(key, 1, timeout=period)
        return 1


def _count_down(scope: str, address: str, period: int) -> None:
    with suppress(ValueError):  # the window ended meanwhile
        caches[settings.THROTTLE_CACHE].decr(_key(scope, address, period))


def _count(scope: str, address: str, period: int) -> int:
    return caches[settings.THROTTLE_CACHE].get(_key(scope, address, period), 0)


def too_many_requests(period: int) -> HttpResponse:
    """Answer 429 with the seconds until the current window of `period` ends."""
    response = HttpResponse(
        _("Too many requests; try again later."), status=429, content_type="text/plain"
    )
    response["Retry-After"] = str(_seconds_left(period))
    return response


def throttle(
    scope: str,
    *,
    limit: int,
    period: int,
    refused: Callable[[HttpRequest, int], HttpResponse] | None = None,
) -> Callable:
    """Allow `limit` accepted requests per `period` seconds per client address to the view.

    Beyond it the answer is 429 with `Retry-After`: `refused(request, minutes_left)`'s page
    when given (a form that keeps what was typed), else a line of text.
    """

    def decorator(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
        @wraps(view)
        def throttled(request: HttpRequest, *args, **kwargs) -> HttpResponse:
            if request.method in ("GET", "HEAD", "OPTIONS"):
                return view(request, *args, **kwargs)
            address = client_ip(request)
            # Counted before the view runs, so concurrent requests cannot all pass the limit;
            # taken back when the request is refused, here or by the view (a form's errors).
            if _count_up(scope, address, period) > limit:
                _count_down(scope, address, period)
                if refused is None:
                    return too_many_requests(period)
                response = refused(request, minutes_left(_seconds_left(period)))
                response.status_code = 429
                response["Retry-After"] = str(_seconds_left(period))
                return response
            response = view(request, *args, **kwargs)
            if response.status_code >= 400:
                _count_down(scope, address, period)
            return response

        return throttled

    return decorator


# Sign-ins -----------------------------------------------------------------------------------


def _sign_in_window() -> int:
    return settings.LOGIN_ADDRESS_WINDOW_MINUTES * 60


def sign_in_failed(sender, credentials: dict, request: HttpRequest | None = None, **kwargs) -> None:
    """Count a failed sign-in against its address (receiver of `user_login_failed`)."""
    if request is not None:
        _count_up(SIGN_IN_FAILURES, client_ip(request), _sign_in_window())


class SignInThrottleBackend:
    """Refuse any sign-in from an address with too many recent failures; lock no account.

    First in AUTHENTICATION_BACKENDS: it authenticates nobody, it only refuses. The refusal
    is flagged as django-axes flags its own, so AxesMiddleware answers it (`sign_in_refused`).
    """

    def authenticate(self, request: HttpRequest | None, **credentials) -> None:
        if request is None:
            return None
        window = _sign_in_window()
        if _count(SIGN_IN_FAILURES, client_ip(request), window) >= (
            settings.LOGIN_ADDRESS_FAILURE_LIMIT
        ):
            request.sign_in_retry_after = _seconds_left(window)
            request.axes_locked_out = True
            raise PermissionDenied  # authenticate() stops here: no password is tried
        return None


def sign_in_refused(
    request: HttpRequest, original_response: HttpResponse | None, credentials: dict | None
) -> HttpResponse:
    """Answer a refused sign-in (AXES_LOCKOUT_CALLABLE): 429, the lockout page, Retry-After."""
    address_throttled = getattr(request, "sign_in_retry_after", None)
    retry_after = address_throttled or int(settings.AXES_COOLOFF_TIME.total_seconds())
    context = {
        "failure_limit": settings.AXES_FAILURE_LIMIT,
        "address_limit": settings.LOGIN_ADDRESS_FAILURE_LIMIT,
        "address_throttled": bool(address_throttled),
        "minutes": minutes_left(retry_after),
    }
    response = render(request, "configurator/lockout.html", context, status=429)
    response["Retry-After"] = str(retry_after)
    return response
