"""Interpret one sheet row's cells as a build, naming the column of every bad cell.

The cells go through the same schema (`BuildIn`) and catalog resolution (`build_from_input`)
as `POST /api/v1/evaluate`, so a sheet row and an API request are judged alike.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from django.utils.translation import gettext as _
from pydantic import ValidationError

from configurator.engine import build as engine
from configurator.engine.catalog import Catalog
from configurator.inputs import InputErrors, build_from_input
from configurator.numbers import DIGITS, WHOLE
from configurator.schemas import BuildIn

TRUE = frozenset({"true", "yes", "1", "是", "y"})
FALSE = frozenset({"false", "no", "0", "否", "n"})
INTEGERS = ("cpu_count", "gpu_count", "memory_gb", "psu_watts", "nics", "nvme", "dimm_count")
BOOLEANS = ("memory_ecc", "nvlink", "numa_binding")
# Cells that may be left empty: the build field's default applies (api.md).
OPTIONAL_VALUES = frozenset(
    {"gpus_per_socket", "nvlink", "numa_binding", "platform", "nic", "nics", "nvme", "dimm_count"}
) | {part.name for part in engine.NAMED_PARTS}
SPLIT = re.compile(r"\s*\+\s*")
# A cell's number is matched to configurator.numbers.WHOLE and never read through a float
# (int(float("9" * 400)) overflows).
MAX_DIGITS = 9  # no build field comes near (memory_gb ≤ 65,536); more is refused, not parsed
SHOWN_CHARACTERS = 40  # of a bad cell, in its message


class RowErrors(Exception):
    """Every bad cell of a row: column -> messages."""

    def __init__(self, errors: dict[str, list[str]]) -> None:
        super().__init__(errors)
        self.errors = errors


class BadCell(ValueError):
    """One cell that is not a value of its column; the message says why."""


def shown(text: str) -> str:
    """Return a cell as its message quotes it (with %r): cut to a readable length."""
    return text if len(text) <= SHOWN_CHARACTERS else text[: SHOWN_CHARACTERS - 1] + "…"


def _bounded(digits: str, text: str) -> int:
    significant = digits.lstrip("0") or "0"
    if len(significant) > MAX_DIGITS:
        raise BadCell(
            _("%(value)r is too large: a whole number has at most %(digits)s digits here.")
            % {"value": shown(text), "digits": MAX_DIGITS}
        )
    return int(significant)


def _integer(text: str) -> int:
    match = WHOLE.fullmatch(text)
    if not match:
        raise BadCell(_("%(value)r is not a whole number.") % {"value": shown(text)})
    number = _bounded(match[2], text)
    return -number if match[1] == "-" else number


def _boolean(text: str) -> bool:
    folded = text.lower()
    if folded in TRUE:
        return True
    if folded in FALSE:
        return False
    raise BadCell(
        _("%(value)r is not yes or no (true/false, yes/no, 1/0, 是/否).") % {"value": shown(text)}
    )


def _per_socket(text: str) -> list[int]:
    parts = SPLIT.split(text)
    if not all(DIGITS.fullmatch(part) for part in parts):
        raise BadCell(_("%(value)r is not GPUs per socket such as 4+4.") % {"value": shown(text)})
    return [_bounded(part, text) for part in parts]


READERS = {
    **dict.fromkeys(INTEGERS, _integer),
    **dict.fromkeys(BOOLEANS, _boolean),
    "gpus_per_socket": _per_socket,
}


def cells_to_values(cells: dict[str, str]) -> dict[str, object]:
    """Return the build fields of a row's cells; raise RowErrors naming each bad column."""
    errors: dict[str, list[str]] = {}
    values: dict[str, object] = {}
    for name, raw in cells.items():
        text = raw.strip()
        if text.startswith("="):
            errors[name] = [_("A formula is not a value: type the value itself.")]
            continue
        if not text:
            if name not in OPTIONAL_VALUES:
                errors[name] = [_("This cell is empty.")]
            continue
        reader = READERS.get(name)
        try:
            value = reader(text) if reader else text
        except BadCell as error:
            errors[name] = [str(error)]
            continue
        values[name] = value
    if errors:
        raise RowErrors(errors)
    return values


def row_build(cells: dict[str, str], catalog: Catalog) -> tuple[engine.Build, dict[str, object]]:
    """Return the engine's build of a row and its fields in evaluate's shape; or RowErrors."""
    try:
        values = cells_to_values(cells)
    except RowErrors as error:
        for name, kind in (("cpu", "cpus"), ("gpu", "gpus")):
            text = cells.get(name, "").strip()
            if name not in error.errors and text and catalog.find(kind, text) is None:
                error.errors[name] = [
                    _("Unknown %(kind)s %(value)r: use a catalog slug or name.")
                    % {"kind": name.upper(), "value": shown(text)}
                ]
        raise
    try:
        build_in = BuildIn(**values)
    except ValidationError as error:
        errors: dict[str, list[str]] = {}
        for problem in error.errors():
            column = str(problem["loc"][0]) if problem["loc"] else "node_id"
            errors.setdefault(column, []).append(problem["msg"])
        raise RowErrors(errors) from error
    try:
        built = build_from_input(build_in, catalog)
    except InputErrors as error:
        raise RowErrors(
            {path.removeprefix("build."): messages for path, messages in error.errors.items()}
        ) from error
    return built, build_fields(built, values)


# A row's fields: the required ones, then those of the optional ones the sheet gives.
ROW_FIELDS = (
    "cpu", "cpu_count", "gpu", "gpu_count", "gpus_per_socket", "memory_gb", "memory_ecc",
    "psu_watts", "nvlink", "numa_binding",
)  # fmt: skip
ROW_OPTIONAL_FIELDS = (
    "platform", "nic", "nics", "nvme", "dimm_count", *(part.name for part in engine.NAMED_PARTS)
)  # fmt: skip


def build_fields(built: engine.Build, given: Iterable[str]) -> dict[str, object]:
    """Return a resolved build in evaluate's request shape (slugs, defaults filled in): its
    fields (`Build.as_fields`), the optional ones where the sheet gives them."""
    fields = built.as_fields()
    names = (*ROW_FIELDS, *(name for name in ROW_OPTIONAL_FIELDS if name in given))
    return {name: fields[name] for name in names}
