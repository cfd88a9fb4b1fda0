"""Template filters that show stored texts in the request's language (`configurator.translation`).

For texts a template reads straight from stored data: a quote's frozen checks, a recipe's row.
"""

from django import template
from django.utils.translation import gettext

from configurator import translation

register = template.Library()


@register.filter
def check_title(check: dict) -> str:
    """Return a check's title (a frozen check of a quote) in the request's language."""
    return translation.check_title(
        check.get("code", ""), check.get("title", ""), check.get("status", "")
    )


@register.filter
def written(text: str) -> str:
    """Return text people wrote (a recipe's name or result) in the request's language: its
    catalogue entry where it has one, else as written."""
    return translation.written(text)


@register.filter
def check_code(code: str) -> str:
    """Return the code a page shows for a check: a pitfall's P1–P8, else nothing (its title
    names it)."""
    return translation.check_code(code)


@register.filter
def check_label(code: str) -> str:
    """Return how a list of failing checks names one: P1–P8, else its title."""
    return translation.check_label(code)


@register.filter
def check_labels(codes) -> str:
    """Return failing checks as one list in the request's language ("P1、显存容量")."""
    return translation.check_labels(translation.check_label(code) for code in codes)


@register.filter
def colon(label: str) -> str:
    """Return a label followed by a colon as the request's language writes it: "Impact:",
    "影响：" (docs/glossary.md, "Punctuation"). The same catalogue entry is the forms' label
    suffix (Django's `gettext(":")`)."""
    # Translators: the colon after a label, and Django's forms' label suffix; Chinese "：".
    suffix = gettext(":")
    return f"{label}{suffix}"
