"""The configurator's results fragments, kept once drawn: a change to a build seen before is
answered from the cache instead of being read, evaluated and drawn again.

A results-only fragment (`web/includes/configurator.html#results-swap`) depends on nothing but
the request's path and query, its language, the address the site is served under and the
catalog and rules it was judged on: the session's comparison tray, the CSRF token and the quote
form are outside it. So its key is exactly those, the catalog and rules by their revision
tokens (`configurator.revisions`), which every write renews — an edit in the admin is never
answered from an old fragment. The cache is the `fragments` alias of `CACHES`: in-process
memory by default (a hit must cost less than a draw), bounded, an hour at most.
"""

from __future__ import annotations

import hashlib

from django.core.cache import caches
from django.http import HttpRequest, HttpResponse
from django.utils.translation import get_language

CACHE_ALIAS = "fragments"
# The htmx headers that make a results-only answer swap `#results` (kept with its body).
KEPT_HEADERS = ("HX-Retarget", "HX-Reswap", "HX-Push-Url", "Vary", "Content-Type")


def results_key(request: HttpRequest, tokens: dict[str, str]) -> str:
    """Return the cache key of the results fragment this request asks for, on the catalog and
    rules of the revision `tokens` (`configurator.revisions.revision_tokens`)."""
    # By name; a name's values keep their order, since the view reads the last one.
    query = sorted(request.GET.lists())
    seen = repr((request.path, query, get_language(), request.scheme, request.get_host(),
                 sorted(tokens.items())))  # fmt: skip
    return "results:" + hashlib.blake2b(seen.encode(), digest_size=20).hexdigest()


def cached_results(key: str) -> HttpResponse | None:
    """Return the results fragment kept under `key`, or None."""
    kept = caches[CACHE_ALIAS].get(key)
    if kept is None:
        return None
    content, headers = kept
    response = HttpResponse(content)
    for name, value in headers.items():
        response[name] = value
    return response


def keep_results(key: str, response: HttpResponse) -> None:
    """Keep a results fragment under `key`."""
    headers = {name: response[name] for name in KEPT_HEADERS if name in response}
    caches[CACHE_ALIAS].set(key, (response.content, headers))
