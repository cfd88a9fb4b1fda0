"""Money and numbers as the request's language writes them: the one formatting helper.

Every surface that shows a price reads these: the pages' presenters, the templates' `money`
filters, the recommender's texts (through the catalogue's currency words). Numbers are grouped
in threes in every language (`configurator/formats/`), amounts are rounded once, here, so two
figures of one amount on one page are the same number (docs/glossary.md, "Numbers and money").
"""

from __future__ import annotations

from decimal import Decimal

from django.utils.formats import number_format
from django.utils.translation import gettext

Amount = int | float | Decimal


def grouped(value: Amount, decimals: int = 0) -> str:
    """Write a number with `decimals` places (rounded once) and the language's grouping."""
    return number_format(round(value, decimals), decimal_pos=decimals, use_l10n=True,
                         force_grouping=True)  # fmt: skip


def localized(value: object) -> str:
    """Write a number as the request's language does: whole numbers without decimals, others
    with two; anything else (a text, a flag) as it is."""
    if isinstance(value, bool) or not isinstance(value, int | float | Decimal):
        return str(value)
    return grouped(value, 0 if float(value).is_integer() else 2)


def cny(amount: Amount) -> str:
    """Format a monthly amount in CNY, whole yuan: "CNY 42,430", "42,430 元"."""
    return gettext("CNY %(amount)s") % {"amount": grouped(amount)}


def cny_exact(amount: Amount) -> str:
    """Format an amount in CNY with two decimals (per-token prices, a quote's figures):
    rounded once, as the recommender's texts round it: "CNY 12.51", "12.51 元"."""
    return gettext("CNY %(amount)s") % {"amount": grouped(amount, 2)}
