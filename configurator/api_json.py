"""JSON answers of the engine's results, encoded by orjson.

`/evaluate` and `/recommend` answer the engine's dicts directly (tests hold them to the
schema, so they are not validated a second time). They are the API's busiest answers, and
orjson encodes evaluate's 15 KB answer in about a tenth of the standard library's time
(docs/benchmarks.md). What orjson does not know — decimals, lazy translations, and datetimes,
passed through so they read as Django's encoder writes them — goes to Django's encoder.
"""

import orjson
from django.core.serializers.json import DjangoJSONEncoder
from django.http import HttpResponse

_DJANGO = DjangoJSONEncoder()
_OPTIONS = orjson.OPT_PASSTHROUGH_DATETIME
# orjson's option for keys that are not strings (a count, a date) more than doubles the time
# it takes on every answer, whose keys are all strings: only an answer it refuses takes it.
_ANY_KEYS = _OPTIONS | orjson.OPT_NON_STR_KEYS


def json_answer(data: object, status: int = 200) -> HttpResponse:
    """Return `data` as a JSON response, as `JsonResponse` would write it."""
    try:
        body = orjson.dumps(data, default=_DJANGO.default, option=_OPTIONS)
    except orjson.JSONEncodeError:
        body = orjson.dumps(data, default=_DJANGO.default, option=_ANY_KEYS)
    return HttpResponse(body, status=status, content_type="application/json")
