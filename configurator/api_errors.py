"""The API's error answers: bounded, JSON, and naming fields as the client wrote them.

A 400 is `{"errors": {"<field path>": ["message", ...]}}` (api.md). However bad a request, the
answer stays small: at most `MAX_ERROR_PATHS` paths with `MAX_MESSAGES_PER_PATH` messages each
(`"more_errors"` counts the paths left out), and a mapping with many unknown keys gets one
message for all of them. Paths are the client's own keys and list indices: pydantic's internal
steps (the member of a union it tried, such as `.int`) are left out.
"""

import json
from collections.abc import Iterable
from http import HTTPStatus
from typing import Any

MAX_ERROR_PATHS = 20
MAX_MESSAGES_PER_PATH = 5
UNKNOWN_KEYS_NAMED = 5  # up to this many unknown keys of one object get a path each


def capped(errors: dict[str, list[str]]) -> dict[str, object]:
    """Return the 400 body for `errors`: the first paths and messages, and a count of the rest."""
    shown = {
        path: list(dict.fromkeys(messages))[:MAX_MESSAGES_PER_PATH]
        for path, messages in list(errors.items())[:MAX_ERROR_PATHS]
    }
    body: dict[str, object] = {"errors": shown}
    if len(errors) > MAX_ERROR_PATHS:
        body["more_errors"] = len(errors) - MAX_ERROR_PATHS
    return body


def user_path(loc: Iterable[Any], document: object) -> str:
    """Return the dotted path of an error location as it appears in the client's document.

    The location is followed through the document: keys and indices it holds are kept; the
    first step that is not in it is kept only when it names a missing key of an object (a
    required field); anything after that is pydantic's own bookkeeping.
    """
    parts: list[str] = []
    node = document
    for step in loc:
        if _holds(node, step):
            node = node[step]
        elif isinstance(node, dict) and isinstance(step, str):
            parts.append(step)
            break
        else:
            break
        parts.append(str(step))
    return ".".join(parts) or "body"


def _holds(node: object, step: object) -> bool:
    if isinstance(node, dict):
        return step in node
    return isinstance(node, list) and isinstance(step, int) and 0 <= step < len(node)


def validation_errors(raw_errors: list[dict], document: object) -> dict[str, list[str]]:
    """Group pydantic's errors by the client's field path; report many unknown keys once."""
    errors: dict[str, list[str]] = {}
    unknown: dict[str, list[str]] = {}
    for error in raw_errors:
        loc = _body_location(error.get("loc", ()))
        if error.get("type") == "extra_forbidden" and loc:
            parent = user_path(loc[:-1], document) if len(loc) > 1 else ""
            unknown.setdefault(parent, []).append(str(loc[-1]))
            continue
        errors.setdefault(user_path(loc, document), []).append(_message(error))
    for parent, keys in unknown.items():
        if len(keys) <= UNKNOWN_KEYS_NAMED:
            for key in keys:
                path = f"{parent}.{key}" if parent else key
                errors.setdefault(path, []).append("Unknown field: remove it.")
        else:
            named = ", ".join(keys[:UNKNOWN_KEYS_NAMED])
            errors.setdefault(parent or "body", []).append(
                f"{len(keys)} unknown fields ({named}, …): remove them."
            )
    return errors


def _body_location(loc: Iterable[Any]) -> tuple:
    """Drop ninja's prefix: ('body', 'payload', 'build', 'cpu') -> ('build', 'cpu')."""
    loc = tuple(loc)
    if loc[:1] == ("body",):
        return loc[2:]
    if loc[:1] in (("query",), ("path",)):
        return loc[1:]
    return loc


def _message(error: dict) -> str:
    message = str(error.get("msg", "Invalid value."))
    return message.removeprefix("Value error, ")


def parse_document(body: bytes) -> object:
    """Return the request body as JSON, or None when it is not (only used to name paths)."""
    try:
        return json.loads(body)
    except (ValueError, RecursionError):
        return None


def status_detail(status: int) -> str:
    """Return the standard reason phrase of an HTTP status."""
    try:
        return HTTPStatus(status).phrase
    except ValueError:
        return "Error"
