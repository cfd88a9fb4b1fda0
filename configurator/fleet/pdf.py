"""Bilingual PDFs of the fleet pages: a probed node's balance report, the monthly report.

reportlab's platypus lays them out in the quote PDF's TrueType CJK font (WenQuanYi Micro Hei,
embedded as a subset, so a reader without Chinese fonts sees every glyph), and every label is
written in English and Chinese. Every Paragraph's text goes through `pdf_markup` (via
`_paragraph`): a host name or a DIMM locator is shown as written, never read as markup.
"""

from __future__ import annotations

import io
from collections.abc import Callable

from django.utils import timezone, translation
from django.utils.translation import gettext_lazy
from reportlab.lib import colors
from reportlab.lib.enums import TA_RIGHT
from reportlab.lib.pagesizes import A4, landscape
from reportlab.lib.styles import ParagraphStyle
from reportlab.lib.units import mm
from reportlab.platypus import Paragraph, SimpleDocTemplate, Spacer, Table, TableStyle
from reportlab.platypus.flowables import HRFlowable

from configurator.fleet.models import NodeProbe
from configurator.fleet.monthly import COLUMNS, monthly_rows
from configurator.fleet.probe_report import finding_text, finding_title
from configurator.fleet.selectors import code_legend
from configurator.pdf_markup import markup, markup_lines
from configurator.quotes.pdf import font

FONT = font()
TITLE = ParagraphStyle("title", fontName=FONT, fontSize=16, leading=22, spaceAfter=6)
HEADING = ParagraphStyle("heading", fontName=FONT, fontSize=12, leading=17, spaceBefore=8)
BODY = ParagraphStyle("body", fontName=FONT, fontSize=9, leading=13, wordWrap="CJK")
SMALL = ParagraphStyle("small", parent=BODY, fontSize=7.5, leading=10)
SMALL_NUMBER = ParagraphStyle("small-number", parent=SMALL, alignment=TA_RIGHT)
# The monthly table's columns on landscape A4 (265 mm between the margins), as COLUMNS lists
# them: the failing checks get the room, a figure the width of its header's longest word.
MONTHLY_WIDTHS = [15, 16, 14, 17, 19, 19, 16, 40, 24, 24, 26, 17, 18]
BAD = ParagraphStyle("bad", parent=BODY, textColor=colors.HexColor("#b3261e"))
NO_MONTHS = gettext_lazy("No finished audit, probe or quote yet.")

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


def _in_both(render: Callable[[], object]) -> tuple[str, str]:
    """Return a text rendered in English and in Chinese."""
    texts = []
    for language in ("en", "zh-hans"):
        with translation.override(language):
            texts.append(str(render()))
    return texts[0], texts[1]


def probe_pdf(probe: NodeProbe) -> bytes:
    """Return a probed node's hardware balance report as a PDF, in English and Chinese."""
    balance = probe.balance or {}
    verdict = {"accept": "accept · 通过", "reject": "reject · 不通过"}.get(probe.verdict, "—")
    story = [
        _paragraph(f"Hardware balance report · 硬件均衡报告 — {probe}", TITLE),
        _paragraph(
            f"Probed · 探测时间 {timezone.localtime(probe.created_at):%Y-%m-%d %H:%M}; "
            f"rules · 规则 {probe.profile} v{probe.rule_version}",
            BODY,
        ),
        HRFlowable(width="100%", color=colors.HexColor("#dde2ea")),
        _paragraph("Verdict · 结论", HEADING),
        _table(
            [
                [
                    "verdict · 结论",
                    "balance · 均衡评分",
                    "CPU threads · 线程",
                    "PCIe lanes · 通道",
                    "memory · 内存",
                    "failing · 未通过",
                ],
                [
                    verdict,
                    balance.get("overall", "—"),
                    balance.get("cpu_threads", "—"),
                    balance.get("pcie_lanes", "—"),
                    balance.get("memory", "—"),
                    " ".join(probe.codes) or "—",
                ],
            ]
        ),
        _paragraph("Build · 配置", HEADING),
    ]
    if probe.build:
        build = probe.build
        story.append(
            _paragraph(
                f"{build['cpu_count']} × {build['cpu']}, {build['gpu_count']} × {build['gpu']} "
                f"({'+'.join(map(str, build['gpus_per_socket']))}), {build['memory_gb']} GB, "
                f"ECC {'yes · 是' if build['memory_ecc'] else 'no · 否'}, "
                f"NVLink {'yes · 是' if build['nvlink'] else 'no · 否'}, {build['psu_watts']} W",
                BODY,
            )
        )
    else:
        story.append(
            _paragraph(
                "No rules verdict: a part is not in the catalog · 无规则结论：有部件不在目录中", BAD
            )
        )
    story.append(_paragraph("Hardware findings · 硬件发现", HEADING))
    rows: list[list[Cell]] = [["fault · 问题", "finding · 发现"]]
    rows += [
        [_in_both(lambda f=f: finding_title(f)), _in_both(lambda f=f: finding_text(f))]
        for f in probe.findings
    ]
    story.append(_table(rows, [40 * mm, 138 * mm]) if probe.findings else _paragraph("—", BODY))
    return _document(story, f"Hardware balance report {probe}")


def monthly_pdf(months: list[dict[str, object]]) -> bytes:
    """Return the monthly node performance report as a PDF, in English and Chinese.

    Its table is the page's (`monthly.COLUMNS`), then each month's failing checks by name.
    """
    story = [
        _paragraph("Monthly node performance report · 月度节点性能报告", TITLE),
        _table(
            [[_in_both(lambda c=column: c.label) for column in COLUMNS]]
            + [[cell.text for cell in row] for row in monthly_rows(months)],
            [width * mm for width in MONTHLY_WIDTHS],
            [SMALL_NUMBER if column.numeric else SMALL for column in COLUMNS],
        )
        if months
        else _paragraph(_in_both(lambda: NO_MONTHS), BODY),
    ]
    for month in months:
        if not month["codes"]:
            continue
        titles = dict(code_legend([code for code, _count, _share in month["codes"]]))
        story.append(_paragraph(f"{month['month']} — failing checks · 未通过的检查", HEADING))
        story.append(
            _table(
                [["check · 检查", "nodes · 节点", "share · 占比"]]
                + [
                    [(code, titles[code]), count, f"{share:.1%}"]
                    for code, count, share in month["codes"]
                ],
                [120 * mm, 30 * mm, 30 * mm],
            )
        )
        story.append(Spacer(1, 4 * mm))
    return _document(story, "Monthly node performance report", landscape(A4))
