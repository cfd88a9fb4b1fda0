"""Bilingual PDFs of the fleet pages: a probed node's balance report, the monthly report.

reportlab's platypus lays them out in the quote PDF's TrueType CJK font (WenQuanYi Micro Hei,
embedded as a subset, so a reader without Chinese fonts sees every glyph), and every label is
a message id written in each of the PDF's languages (`settings.PDF_LANGUAGES`, through
`translation.in_languages`). Every Paragraph's text goes through `pdf_markup` (via
`_paragraph`): a host name or a DIMM locator is shown as written, never read as markup.
"""

from __future__ import annotations

import io
from collections.abc import Callable

from django.utils import timezone
from django.utils.translation import gettext, gettext_noop, pgettext_lazy
from django.utils.translation import gettext_lazy as _
from reportlab.lib import colors
from reportlab.lib.enums import TA_RIGHT
from reportlab.lib.pagesizes import A4, landscape
from reportlab.lib.styles import ParagraphStyle
from reportlab.lib.units import mm
from reportlab.platypus import Paragraph, SimpleDocTemplate, Spacer, Table, TableStyle
from reportlab.platypus.flowables import HRFlowable

from configurator import money
from configurator.fleet.comparison import (
    comparison_lines,
    comparison_summary,
    step_text,
    target_heading,
)
from configurator.fleet.models import NodeProbe
from configurator.fleet.monthly import COLUMNS, monthly_rows
from configurator.fleet.probe_report import (
    finding_text,
    finding_title,
    unknown_lines,
)
from configurator.fleet.selectors import probe_problems
from configurator.pdf_markup import markup, markup_lines
from configurator.quotes.pdf import font
from configurator.translation import check_label, check_labels, check_title, in_languages

FONT = font()
TITLE = ParagraphStyle("title", fontName=FONT, fontSize=16, leading=22, spaceAfter=6)
HEADING = ParagraphStyle("heading", fontName=FONT, fontSize=12, leading=17, spaceBefore=8)
BODY = ParagraphStyle("body", fontName=FONT, fontSize=9, leading=13, wordWrap="CJK")
SMALL = ParagraphStyle("small", parent=BODY, fontSize=7.5, leading=10)
SMALL_NUMBER = ParagraphStyle("small-number", parent=SMALL, alignment=TA_RIGHT)
# The monthly table's columns on landscape A4 (265 mm between the margins), as COLUMNS lists
# them: the failing checks get the room, a figure the width of its header's longest word.
MONTHLY_WIDTHS = [15, 14, 13, 16, 18, 18, 14, 20, 34, 22, 22, 24, 15, 16]
BAD = ParagraphStyle("bad", parent=BODY, textColor=colors.HexColor("#b3261e"))
NO_MONTHS = _("No finished audit, probe or quote yet.")
REPORT = _("Hardware balance report")
MONTHLY = _("Monthly node performance report")
# The probe page's own sentence (templates/fleet/probe.html), so both say the same.
PROBED = gettext_noop("Probed %(when)s; rules %(profile)s, version %(version)s.")
NOT_JUDGED = gettext_noop("Not judged: the probe lacks a command's output")
WOULD_TELL = gettext_noop("%(commands)s would tell (the archive has no %(files)s).")
DEVIATIONS_COST = gettext_noop("The deviations cost %(cost)s a month.")
VERDICTS = {"accept": _("accept"), "reject": _("reject")}
YES, NO = _("yes"), _("no")
SHARE = pgettext_lazy("a part of all the nodes", "share")

# A table cell: one text, or several lines of text. Either is escaped into markup.
Cell = object | tuple[object, ...]


def _paragraph(cell: Cell, style: ParagraphStyle) -> Paragraph:
    return Paragraph(markup_lines(cell) if isinstance(cell, tuple) else markup(cell), style)


def _table(
    rows: list[list[Cell]],
    widths: list[float] | None = None,
    styles: list[ParagraphStyle] | None = None,
) -> Table:
    """Return a table of escaped cells, its first row the header; a style per column."""
    cells = [
        [_paragraph(cell, styles[i] if styles else BODY) for i, cell in enumerate(row)]
        for row in rows
    ]
    table = Table(cells, colWidths=widths, repeatRows=1, hAlign="LEFT")
    table.setStyle(
        TableStyle(
            [
                ("GRID", (0, 0), (-1, -1), 0.3, colors.HexColor("#dde2ea")),
                ("BACKGROUND", (0, 0), (-1, 0), colors.HexColor("#f6f7fa")),
                ("VALIGN", (0, 0), (-1, -1), "TOP"),
            ]
        )
    )
    return table


def _document(story: list, title: str, pagesize=A4) -> bytes:
    out = io.BytesIO()
    document = SimpleDocTemplate(
        out, pagesize=pagesize, title=title, leftMargin=16 * mm, rightMargin=16 * mm,
        topMargin=14 * mm, bottomMargin=14 * mm,
    )  # fmt: skip
    document.build(story)
    return out.getvalue()


def _both(text: object) -> str:
    """Return a label in each of the PDF's languages, ' · ' between (once when they agree)."""
    return " · ".join(dict.fromkeys(in_languages(lambda: text)))


def _checks(codes: list[str]) -> str:
    """Return failing checks (P1–P8, else their titles) in each of the PDF's languages."""
    return " · ".join(
        dict.fromkeys(in_languages(lambda: check_labels(check_label(c) for c in codes)))
    )


def _lines(render: Callable[[], object]) -> tuple[str, ...]:
    """Return a sentence in each of the PDF's languages, one line each."""
    return tuple(dict.fromkeys(in_languages(render)))


def _problems(probe: NodeProbe) -> list[str]:
    """Return why a probe has no verdict, in the active language (as its page says)."""
    return probe_problems(probe)


def _ecc(memory_ecc: bool | None) -> object:
    """Return a build's memory ECC as written: yes, no, or not known (a partial probe's)."""
    if memory_ecc is None:
        return _("not known")
    return YES if memory_ecc else NO


def _comparison(probe: NodeProbe) -> list:
    """Return the delivered node against its quote: one row a line, as the page shows it."""
    stored = probe.comparison
    summary = comparison_summary(stored)
    story = [_paragraph(_lines(lambda: target_heading(probe)), HEADING)]
    if summary["monthly_cost"]:
        story.append(_paragraph(_lines(lambda: gettext(DEVIATIONS_COST) % {
            "cost": money.cny(summary["monthly_cost"])}), BAD))  # fmt: skip
    rows: list[list[Cell]] = [[
        _both(pgettext_lazy("delivered as quoted", "Checked")), _both(_("Expected")),
        _both(_("Measured")), _both(_("Status")), _both(_("Step to take")),
        _both(_("Monthly cost")),
    ]]  # fmt: skip
    for i, line in enumerate(stored):
        rows.append([
            _lines(lambda i=i: comparison_lines([stored[i]])[0]["title"])
            + ((line["subject"],) if line.get("subject") else ()),
            _lines(lambda i=i: comparison_lines([stored[i]])[0]["expected_text"]),
            _lines(lambda i=i: comparison_lines([stored[i]])[0]["measured_text"]),
            _lines(lambda i=i: comparison_lines([stored[i]])[0]["status_text"]),
            _lines(lambda i=i: step_text(stored[i])) if line["step"] else "",
            _lines(lambda c=line["monthly_cost"]: money.cny(c)) if line["monthly_cost"] else "—",
        ])  # fmt: skip
    story.append(_table(rows, [34 * mm, 26 * mm, 26 * mm, 14 * mm, 54 * mm, 24 * mm]))
    return story


def probe_pdf(probe: NodeProbe) -> bytes:
    """Return a probed node's hardware balance report as a PDF, in the PDF's languages."""
    balance = probe.balance or {}
    verdict = _both(VERDICTS[probe.verdict]) if probe.verdict in VERDICTS else "—"
    probed = {
        "when": f"{timezone.localtime(probe.created_at):%Y-%m-%d %H:%M}",
        "profile": probe.profile,
        "version": probe.rule_version,
    }
    story = [
        _paragraph(f"{_both(REPORT)} — {probe}", TITLE),
        _paragraph(_lines(lambda: gettext(PROBED) % probed), BODY),
        HRFlowable(width="100%", color=colors.HexColor("#dde2ea")),
        _paragraph(_both(_("Verdict")), HEADING),
        _table(
            [
                [
                    _both(_("verdict")),
                    _both(_("Balance score")),
                    _both(_("CPU threads")),
                    _both(_("PCIe lanes")),
                    _both(_("Memory")),
                    _both(_("Failing checks")),
                ],
                [
                    verdict,
                    balance.get("overall", "—"),
                    balance.get("cpu_threads", "—"),
                    balance.get("pcie_lanes", "—"),
                    balance.get("memory", "—"),
                    _checks(probe.codes) or "—",
                ],
            ]
        ),
        _paragraph(_both(_("Build")), HEADING),
    ]
    if probe.build:
        build = probe.build
        story.append(
            _paragraph(
                f"{build['cpu_count']} × {build['cpu']}, {build['gpu_count']} × {build['gpu']} "
                f"({'+'.join(map(str, build['gpus_per_socket']))}), {build['memory_gb']} GB, "
                f"ECC {_both(_ecc(build['memory_ecc']))}, "
                f"NVLink {_both(YES if build['nvlink'] else NO)}, {build['psu_watts']} W",
                BODY,
            )
        )
    else:
        story.append(_paragraph(_both(_("No rules verdict.")), BAD))
        story += [
            _paragraph(_lines(lambda i=i: _problems(probe)[i]), BAD)
            for i in range(len(_problems(probe)))
        ]
    unknown = (probe.facts or {}).get("unknown", [])
    if unknown:
        story.append(_paragraph(_lines(lambda: gettext(NOT_JUDGED)), HEADING))
        rows = [[_both(_("fact")), _both(_("command that would tell"))]]
        rows += [
            [
                _lines(lambda i=i: unknown_lines([unknown[i]])[0]["fact"]),
                _lines(lambda i=i: gettext(WOULD_TELL) % unknown_lines([unknown[i]])[0]),
            ]
            for i in range(len(unknown))
        ]
        story.append(_table(rows, [50 * mm, 128 * mm]))
    if probe.comparison:
        story += _comparison(probe)
    story.append(_paragraph(_both(_("Hardware findings")), HEADING))
    rows: list[list[Cell]] = [[_both(_("fault")), _both(_("finding"))]]
    rows += [
        [_lines(lambda f=f: finding_title(f)), _lines(lambda f=f: finding_text(f))]
        for f in probe.findings
    ]
    story.append(_table(rows, [40 * mm, 138 * mm]) if probe.findings else _paragraph("—", BODY))
    return _document(story, f"{_both(REPORT)} {probe}")


def monthly_pdf(months: list[dict[str, object]]) -> bytes:
    """Return the monthly node performance report as a PDF, in the PDF's languages.

    Its table is the page's (`monthly.COLUMNS`), then each month's failing checks by name.
    """
    story = [
        _paragraph(_both(MONTHLY), TITLE),
        _table(
            [[_lines(lambda c=column: c.label) for column in COLUMNS]]
            + [[cell.text for cell in row] for row in monthly_rows(months)],
            [width * mm for width in MONTHLY_WIDTHS],
            [SMALL_NUMBER if column.numeric else SMALL for column in COLUMNS],
        )
        if months
        else _paragraph(_lines(lambda: NO_MONTHS), BODY),
    ]
    for month in months:
        if not month["codes"]:
            continue
        story.append(_paragraph(f"{month['month']} — {_both(_('failing checks'))}", HEADING))
        story.append(
            _table(
                [[_both(_("Check")), _both(_("nodes")), _both(SHARE)]]
                + [
                    [(code, _both(check_title(code, code))), count, f"{share:.1%}"]
                    for code, count, share in month["codes"]
                ],
                [120 * mm, 30 * mm, 30 * mm],
            )
        )
        story.append(Spacer(1, 4 * mm))
    return _document(story, _both(MONTHLY), landscape(A4))
