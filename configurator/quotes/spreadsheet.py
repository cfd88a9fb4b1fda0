"""The quote as an XLSX workbook, beside its PDF: the quote, its bill of materials, its power.

Three sheets, written from the quote's frozen content only (as the PDF is): *Quote* (number,
customer, dates, terms and totals, what it was sized for, the verdict), *Bill of materials*
(one row per line, prices as numbers a spreadsheet sums) and *Power report* (what each part
draws or supplies by its datasheet, and the power check P7's own figures: the load of the
installed parts, the usable output the rules ask, what the PSUs give after redundancy).
Every label is in each of the PDF's languages (`pdf.both`). Every cell goes through
`catalog.spreadsheets.xlsx_safe`: a customer's name that begins with `=` stays text, never a
formula. Dates are the site's (`TIME_ZONE`).
"""

from __future__ import annotations

from datetime import date
from decimal import Decimal
from io import BytesIO

import openpyxl
from django.utils import timezone
from django.utils.translation import gettext_lazy as _
from openpyxl.styles import Font
from openpyxl.utils import get_column_letter

from catalog.kinds import KINDS
from catalog.spreadsheets import xlsx_safe
from configurator.quotes.models import Quote, Status
from configurator.quotes.pdf import RESULTS, VERDICTS, both, term_total
from configurator.quotes.workload import workload_text
from configurator.translation import check_title, in_languages

MONEY = "#,##0.00"
DATE = "yyyy-mm-dd"
WATTS = "#,##0"
# The power check's figures, per node, as the frozen evaluation keeps them (engine/power.py).
POWER_FIGURES = (
    ("load_w", _("Load of the installed parts (W, per node)")),
    ("floor_w", _("Floor the rules set (W, per node)")),
    ("required_w", _("Usable output the rules ask (W, per node)")),
    ("psu_watts", _("Usable PSU output after redundancy (W, per node)")),
)
POWER_CHECK = "P7"
PART_LABELS = {kind.line: kind.line_label for kind in KINDS}  # a BOM line's kind, in words


def _part(line: dict[str, object]) -> str:
    label = PART_LABELS.get(line["kind"])
    return both(label) if label is not None else str(line["kind"])


def _sheet(book, title, rows: list[list[object]], formats: dict[int, str] | None = None):
    """Add a sheet of `rows` (the first a bold header) with each column's number format."""
    sheet = book.create_sheet(title=title[:31])
    for row in rows:
        sheet.append([xlsx_safe(value) for value in row])
    for cell in sheet[1]:
        cell.font = Font(bold=True)
    for column, number_format in (formats or {}).items():
        for (cell,) in sheet.iter_rows(min_row=2, min_col=column, max_col=column):
            if isinstance(cell.value, int | float | Decimal):
                cell.number_format = number_format
    for index, column in enumerate(sheet.columns, start=1):
        width = max(len(str(cell.value or "")) for cell in column)
        sheet.column_dimensions[get_column_letter(index)].width = min(max(width + 2, 10), 60)
    sheet.freeze_panes = "A2"
    return sheet


def _issued(quote: Quote):
    return timezone.localdate(quote.issued_at) if quote.issued_at else None


def quote_rows(quote: Quote) -> list[list[object]]:
    """Return the *Quote* sheet: one field and its value a row."""
    ruleset = quote.evaluation["ruleset"]
    verdict = quote.evaluation["verdict"]
    rows = [
        [both(_("Field")), both(_("Value"))],
        [both(_("Quote number")), quote.number],
        [both(_("Revision")), quote.revision],
        [both(_("Status")), both(Status(quote.status).label)],
        [both(_("Customer")), quote.customer_name],
        [both(_("Company")), quote.customer_company],
        [both(_("E-mail")), quote.customer_email],
        [both(_("Phone")), quote.customer_phone],
        [both(_("Issued")), _issued(quote) or "—"],
        [both(_("Valid until")), quote.valid_until],
        [both(_("Term (months)")), quote.term_months],
        [both(_("List price per month")), quote.list_monthly_price],
        [both(_("Discount (%)")), quote.discount_pct],
        [both(_("Price per month")), quote.monthly_price],
        [" ".join(term_total(quote.term_months)), quote.term_price],
    ]
    rows += [
        [both(_("Sized for")), line] for line in in_languages(lambda: workload_text(quote.workload))
    ]
    rows += [[both(_("Build")), line] for line in in_languages(lambda: quote.build_summary)]
    rows += [
        [both(_("Verdict")), both(VERDICTS.get(verdict, verdict))],
        [both(_("Balance score")), round(float(quote.evaluation["balance"]["overall"]))],
        [both(_("Rule profile")), f"{ruleset['profile']} v{ruleset['version']}"],
    ]
    return rows


def bom_rows(quote: Quote) -> list[list[object]]:
    """Return the *Bill of materials* sheet: a row per line, quantities for all nodes."""
    rows = [
        [
            both(_("Part")),
            both(_("SKU")),
            both(_("Item")),
            both(_("Vendor")),
            both(_("Qty")),
            both(_("Unit / month")),
            both(_("Per month")),
            both(_("Datasheet")),
        ]
    ]
    for line in quote.bom:
        rows.append(
            [
                _part(line),
                line["sku"],
                line["name"],
                line.get("vendor", ""),
                line["qty"],
                Decimal(line["unit_price"]),
                Decimal(line["monthly_price"]),
                line.get("source_url", ""),
            ]
        )
    rows.append(["", "", both(_("List price per month")), "", "", "", quote.list_monthly_price])
    return rows


def power_rows(quote: Quote) -> list[list[object]]:
    """Return the *Power report* sheet: what each part draws or supplies by its datasheet,
    then the power check's (P7) own figures for one node."""
    rows = [
        [
            both(_("Part")),
            both(_("Item")),
            both(_("Qty")),
            both(_("Draws, each (W)")),
            both(_("Supplies, each (W)")),
        ]
    ]
    for line in quote.bom:
        specs = line.get("specs") or {}
        rows.append(
            [
                _part(line),
                line["name"],
                line["qty"],
                specs.get("tdp_w", "—"),
                specs.get("rated_w", "—"),
            ]
        )
    check = next((c for c in quote.evaluation["checks"] if c["code"] == POWER_CHECK), None)
    if check is None:
        return rows
    numbers = check.get("numbers") or {}
    titles = in_languages(lambda: check_title(POWER_CHECK, check["title"]))
    title = " · ".join(dict.fromkeys(titles))
    rows += [[], [f"{POWER_CHECK} {title}", both(RESULTS.get(check["status"], check["status"]))]]
    rows += [[both(label), numbers[name]] for name, label in POWER_FIGURES if name in numbers]
    nodes = int(quote.build.get("nodes") or 1)
    if nodes > 1:
        rows.append([both(_("Nodes")), nodes])
    return rows


def quote_xlsx(quote: Quote) -> bytes:
    """Return the quote as an XLSX workbook: quote, bill of materials and power sheets."""
    book = openpyxl.Workbook()
    book.remove(book.active)
    quote_sheet = _sheet(book, both(_("Quote")), quote_rows(quote))
    for _label, value in quote_sheet.iter_rows(min_row=2):
        if isinstance(value.value, Decimal):
            value.number_format = MONEY
        elif isinstance(value.value, date):
            value.number_format = DATE
    _sheet(book, both(_("Bill of materials")), bom_rows(quote), {6: MONEY, 7: MONEY})
    _sheet(book, both(_("Power report")), power_rows(quote), {4: WATTS, 5: WATTS})
    book.properties.title = f"{quote.number} {both(_('Quotation'))}"
    book.properties.creator = both(_("Balanced GPU node configurator"))
    buffer = BytesIO()
    book.save(buffer)
    return buffer.getvalue()
