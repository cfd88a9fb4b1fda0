"""Template filters that show stored texts in the request's language (`configurator.translation`).

For texts a template reads straight from stored data: a quote's frozen checks, a recipe's row.
"""

from django import template

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
