"""Simplified Chinese numbers as the product writes them: groups of three with a comma.

Django's zh_Hans formats write no thousands separator ("42430 元"); prices, tokens and watts
on every page and in every PDF are grouped in threes ("42,430 元"), as Chinese invoices and
cloud price lists write them (docs/glossary.md, "Numbers and money"). Everything else (dates,
input formats) is Django's, imported below.
"""

from django.conf.locale.zh_Hans.formats import *  # noqa: F403

THOUSAND_SEPARATOR = ","
NUMBER_GROUPING = 3
