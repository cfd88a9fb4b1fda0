"""The monthly report's table, defined once: the page and its PDF show these columns.

Each column names its label and how a month's figures (`selectors.monthly_figures`) become
its cell, so the page and the PDF cannot read different figures or write them differently.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

from configurator.translation import check_label, check_labels

Month = dict[str, object]


@dataclass(frozen=True)
class Column:
    """A column of the monthly table: its label, its cell for a month, and how it aligns."""

    label: Promise
    cell: Callable[[Month], str]
    numeric: bool = True


@dataclass(frozen=True)
class Cell:
    text: str
    numeric: bool


def _share(value: object) -> str:
    return "—" if value is None else f"{value:.0%}"


def _or_dash(value: object) -> str:
    return "—" if value is None else str(value)


def _codes(month: Month) -> str:
    labels = (f"{check_label(code)} ×{count}" for code, count, _share in month["codes"])
    return check_labels(labels) or "—"


def _first_time(month: Month) -> str:
    if not month["deliveries"]:
        return "—"
    return f"{month['deliveries_first_time']} / {month['deliveries']}"


def _quotes(month: Month) -> str:
    return f"{month['quotes']} / {month['quotes_issued']} / {month['quotes_accepted']}"


COLUMNS = (
    Column(_("Month"), lambda m: str(m["month"]), numeric=False),
    Column(_("Audits"), lambda m: str(m["audits"])),
    Column(_("Nodes"), lambda m: str(m["nodes"])),
    Column(_("Rejected"), lambda m: _share(m["share_rejected"])),
    Column(_("Unbalanced"), lambda m: _share(m["share_unbalanced"])),
    Column(_("Average balance"), lambda m: _or_dash(m["average_balance"])),
    Column(_("Probes"), lambda m: str(m["probes"])),
    Column(_("Deliveries accepted first time"), lambda m: _first_time(m)),
    Column(_("Failing checks"), _codes, numeric=False),
    Column(_("Quotes created / issued / accepted"), _quotes),
    Column(_("Issued, CNY per month"), lambda m: f"{m['issued_monthly_cny']:,.2f}"),
    Column(_("Quotes' average balance"), lambda m: _or_dash(m["quotes_average_balance"])),
    Column(_("Leads"), lambda m: str(m["leads"])),
    Column(_("Conversion"), lambda m: _share(m["conversion"])),
)


def monthly_rows(months: list[Month]) -> list[list[Cell]]:
    """Return each month's cells, in the order of COLUMNS."""
    return [[Cell(column.cell(month), column.numeric) for column in COLUMNS] for month in months]
