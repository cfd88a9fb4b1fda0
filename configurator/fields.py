"""The one reader of numbers typed into the pages' forms and query strings, and of form JSON.

Python's `int()` and `float()` take more than anyone types into a form: digits of other
scripts (`٣`, `８`), underscores (`1_000`), `nan` and `inf` (and `1e400`, which is `inf`), and
`int()` raises ValueError past 4,300 digits. Every number field of the pages is one of the
fields below: ASCII digits only, at most `MAX_NUMBER_CHARS` characters, finite, within the
field's range, each refusal a form error on the field. A form's JSON (the quote form's build)
is read by `json_from_text`, which bounds the numbers in it the same way and refuses NaN and
Infinity (not JSON) and nesting deeper than the parser follows: no text typed into a page raises.
"""

from __future__ import annotations

import json
import re

from django import forms
from django.core.exceptions import ValidationError
from django.core.validators import EMPTY_VALUES, BaseValidator
from django.utils.translation import gettext_lazy as _

from configurator.numbers import DECIMAL, WHOLE

# Longer than any number a field takes (1e16 tokens, 4,194,304 tokens of context, a discount
# of 99.99 %), far shorter than the text that costs int() time or raises.
MAX_NUMBER_CHARS = 32

TOO_LONG = _("Enter a number of at most %(limit)s characters.")


def _number_text(value: object, pattern: re.Pattern, invalid: str) -> str | None:
    """Return the typed number as text when it has the shape `pattern` allows, else refuse it."""
    if value in EMPTY_VALUES:
        return None
    text = str(value).strip()
    if len(text) > MAX_NUMBER_CHARS:
        raise ValidationError(TOO_LONG, code="max_length", params={"limit": MAX_NUMBER_CHARS})
    if not pattern.fullmatch(text):
        raise ValidationError(invalid, code="invalid")
    return text


class GreaterThanValidator(BaseValidator):
    """Refuse a number at or below the limit (the API's `gt` bound, as pydantic's)."""

    message = _("Ensure this value is greater than %(limit_value)s.")
    code = "min_value"

    def compare(self, value, limit) -> bool:
        return value <= limit


class WholeNumberField(forms.IntegerField):
    """A whole number in the digits 0–9 (`8`, `-1`, `8.0`), within its range."""

    default_error_messages = {"invalid": _("Enter a whole number, in the digits 0–9.")}

    def to_python(self, value):
        text = _number_text(value, WHOLE, self.error_messages["invalid"])
        return None if text is None else super().to_python(text)


class NumberField(forms.FloatField):
    """A finite number in the digits 0–9 (`7`, `0.5`, `3e11`), within its range."""

    default_error_messages = {
        "invalid": _("Enter a number in the digits 0–9, such as 7, 0.5 or 3e11.")
    }

    def to_python(self, value):
        text = _number_text(value, DECIMAL, self.error_messages["invalid"])
        return None if text is None else super().to_python(text)


class AmountField(forms.DecimalField):
    """An exact decimal in the digits 0–9 (`5`, `12.50`), within its range and places."""

    default_error_messages = {"invalid": _("Enter a number in the digits 0–9, such as 5 or 12.5.")}

    def to_python(self, value):
        text = _number_text(value, DECIMAL, self.error_messages["invalid"])
        return None if text is None else super().to_python(text)


class _Refused(ValueError):
    def __init__(self, error: ValidationError) -> None:
        super().__init__(error.message)
        self.error = error


def _json_number(text: str, convert):
    if len(text) > MAX_NUMBER_CHARS:
        raise _Refused(
            ValidationError(
                _("A number in the JSON has %(length)s characters; write at most %(limit)s."),
                code="max_length",
                params={"length": len(text), "limit": MAX_NUMBER_CHARS},
            )
        )
    return convert(text)


def _json_constant(name: str):
    raise _Refused(
        ValidationError(
            _("%(name)s is not a JSON number: write a number."),
            code="invalid",
            params={"name": name},
        )
    )


def json_from_text(text: str) -> object:
    """Return the JSON document typed into a form field, or raise a ValidationError for it.

    Numbers are bounded as the number fields bound them (the standard parser raises ValueError
    on a 5,000-digit integer and reads `NaN` and `Infinity`, which JSON does not have).
    """
    try:
        value = json.loads(
            text,
            parse_int=lambda digits: _json_number(digits, int),
            parse_float=lambda digits: _json_number(digits, float),
            parse_constant=_json_constant,
        )
    except _Refused as refused:
        raise refused.error from None
    except json.JSONDecodeError as error:
        raise ValidationError(
            _("Not valid JSON: %(error)s"), code="invalid", params={"error": error.msg}
        ) from error
    except RecursionError:  # json's C scanner nests one call per list or object
        raise ValidationError(
            _("The JSON nests lists and objects too deep."), code="invalid"
        ) from None
    return value
