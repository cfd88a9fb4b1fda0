"""The bilingual quote PDF, drawn with reportlab from the quote's frozen content only.

Every label appears in each of the PDF's languages (`settings.PDF_LANGUAGES`: English and
Simplified Chinese, each from its translation catalogue), so one document serves both readers.
Text uses WenQuanYi Micro Hei, a TrueType CJK font shipped in static/fonts/ (Apache-2.0, see
its licence file) and embedded as a subset: a reader without Chinese fonts still sees every
glyph. Nothing here reads the live catalog or rules.
"""

from decimal import Decimal
from functools import lru_cache
from io import BytesIO
from pathlib import Path

from django.conf import settings
from django.utils import timezone
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext
from reportlab.graphics.shapes import Drawing, Line, Rect, String
from reportlab.lib import colors
from reportlab.lib.pagesizes import A4
from reportlab.lib.styles import ParagraphStyle
from reportlab.lib.units import mm
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont
from reportlab.platypus import (
    KeepTogether,
    Paragraph,
    SimpleDocTemplate,
    Spacer,
    Table,
    TableStyle,
)

from configurator.pdf_markup import markup, markup_lines
from configurator.quotes.models import Quote, Status
from configurator.translation import check_title, in_languages

FONT = "WenQuanYiMicroHei"
FONT_FILE = Path(settings.BASE_DIR) / "static" / "fonts" / "wqy-microhei.ttc"
INK = colors.HexColor("#1f2933")
MUTED = colors.HexColor("#616e7c")
PASS = colors.HexColor("#2f855a")
FAIL = colors.HexColor("#c53030")
WARN = colors.HexColor("#b7791f")
GRID = colors.HexColor("#cbd2d9")
DIMENSIONS = ("cpu_threads", "pcie_lanes", "memory", "overall")
DIMENSION_LABELS = {
    "cpu_threads": _("CPU threads"),
    "pcie_lanes": _("PCIe lanes"),
    "memory": _("Memory"),
    "overall": _("Overall"),
}
MARKS = {"pass": ("✔", PASS), "warn": ("!", WARN), "fail": ("✘", FAIL), "na": ("–", MUTED)}
RESULTS = {
    "pass": _("pass"),
    "warn": _("warning"),
    "fail": _("fail"),
    "na": _("not applicable"),
}
VERDICTS = {"accept": _("accepted"), "reject": _("rejected")}


@lru_cache(maxsize=1)
def font() -> str:
    """Register the CJK TrueType font once per process and return its name."""
    pdfmetrics.registerFont(TTFont(FONT, str(FONT_FILE), subfontIndex=0))
    return FONT


def both(text) -> str:
    """Return a translatable label in each of the PDF's languages, a space between (once when
    they are the same)."""
    return " ".join(dict.fromkeys(in_languages(lambda: text)))


def _styles() -> dict[str, ParagraphStyle]:
    base = ParagraphStyle(
        "base", fontName=font(), fontSize=8.5, leading=11, textColor=INK, wordWrap="CJK"
    )
    return {
        "base": base,
        "title": ParagraphStyle("title", parent=base, fontSize=16, leading=20),
        "h2": ParagraphStyle(
            "h2", parent=base, fontSize=11, leading=15, spaceBefore=8, spaceAfter=4
        ),
        "small": ParagraphStyle("small", parent=base, fontSize=7.5, leading=9.5, textColor=MUTED),
        "superseded": ParagraphStyle(
            "superseded", parent=base, fontSize=10, leading=13, textColor=FAIL
        ),
    }


def _money(value) -> str:
    return f"¥{Decimal(value):,.2f}"


def _table(rows: list[list], widths: list[float], *, header: bool = True) -> Table:
    table = Table(rows, colWidths=widths, repeatRows=1 if header else 0)
    style = [
        ("FONTNAME", (0, 0), (-1, -1), font()),
        ("FONTSIZE", (0, 0), (-1, -1), 8),
        ("VALIGN", (0, 0), (-1, -1), "MIDDLE"),
        ("LINEBELOW", (0, 0), (-1, -1), 0.25, GRID),
        ("TOPPADDING", (0, 0), (-1, -1), 2),
        ("BOTTOMPADDING", (0, 0), (-1, -1), 2),
    ]
    if header:
        style += [
            ("BACKGROUND", (0, 0), (-1, 0), colors.HexColor("#eef2f7")),
            ("LINEBELOW", (0, 0), (-1, 0), 0.6, INK),
        ]
    table.setStyle(TableStyle(style))
    return table


def _header(quote: Quote, styles) -> list:
    # The day of issue where the site is (`TIME_ZONE`), not UTC's.
    issued = timezone.localdate(quote.issued_at).isoformat() if quote.issued_at else "—"
    customer = [
        quote.customer_name,
        quote.customer_company,
        quote.customer_email,
        quote.customer_phone,
    ]
    rows = [
        [
            both(_("Quote number")),
            quote.number,
            both(_("Customer")),
            Paragraph(markup_lines(part for part in customer if part), styles["base"]),
        ],
        [
            both(_("Revision")),
            str(quote.revision),
            both(_("Status")),
            both(Status(quote.status).label),
        ],
        [both(_("Issued")), issued, both(_("Valid until")), quote.valid_until.isoformat()],
    ]
    table = _table(rows, [36 * mm, 36 * mm, 30 * mm, 78 * mm], header=False)
    return [
        Paragraph(markup(both(_("Quotation"))), styles["title"]),
        *_superseded(quote, styles),
        Spacer(0, 3 * mm),
        table,
    ]


def _superseded(quote: Quote, styles) -> list:
    """Mark a quote that was re-quoted after issue: replaced, and no longer to be accepted."""
    revision = quote.newer_revision
    if quote.status != Status.SUPERSEDED or revision is None:
        return []
    template = _(
        "Superseded: replaced by quotation %(number)s. This quotation can no longer be accepted."
    )
    return [Spacer(0, 2 * mm)] + [
        Paragraph(markup(line), styles["superseded"])
        for line in both_lines(template, {"number": revision.number})
    ]


def term_total(months: int) -> tuple[str, ...]:
    """Return "Term total, N months" in each of the PDF's languages (the pages' words)."""
    return in_languages(
        lambda: (
            ngettext("Term total, %(months)s month", "Term total, %(months)s months", months)
            % {"months": months}
        )
    )


def _bom(quote: Quote, styles) -> list:
    rows = [
        [
            both(_("SKU")),
            both(_("Item")),
            both(_("Qty")),
            both(_("Unit / month")),
            both(_("Per month")),
        ]
    ]
    for line in quote.bom:
        rows.append(
            [
                Paragraph(markup(line["sku"]), styles["small"]),
                Paragraph(markup(line["name"]), styles["base"]),
                str(line["qty"]),
                _money(line["unit_price"]),
                _money(line["monthly_price"]),
            ]
        )
    totals = [
        (both(_("List price per month")), _money(quote.list_monthly_price)),
        (both(_("Discount")), f"{quote.discount_pct}%"),
        (both(_("Price per month")), _money(quote.monthly_price)),
        (
            " ".join(term_total(quote.term_months)),
            _money(quote.term_price),
        ),
    ]
    for label, value in totals:
        rows.append(["", label, "", "", value])
    table = _table(rows, [38 * mm, 62 * mm, 20 * mm, 30 * mm, 30 * mm])
    table.setStyle(
        TableStyle(
            [
                ("ALIGN", (2, 0), (-1, -1), "RIGHT"),
                ("SPAN", (1, len(quote.bom) + 1), (3, len(quote.bom) + 1)),
                ("SPAN", (1, len(quote.bom) + 2), (3, len(quote.bom) + 2)),
                ("SPAN", (1, len(quote.bom) + 3), (3, len(quote.bom) + 3)),
                ("SPAN", (1, len(quote.bom) + 4), (3, len(quote.bom) + 4)),
                ("LINEABOVE", (1, len(quote.bom) + 1), (-1, len(quote.bom) + 1), 0.6, INK),
            ]
        )
    )
    note = both(_("Monthly rental in CNY; prices are fixed at the time of the quote."))
    return [
        Paragraph(markup(both(_("Bill of materials"))), styles["h2"]),
        table,
        Paragraph(markup(note), styles["small"]),
    ]


def _checks(quote: Quote, styles) -> list:
    rows = [[both(_("Check")), both(_("Title")), both(_("Result"))]]
    marks = []
    for index, check in enumerate(quote.evaluation["checks"], start=1):
        mark, color = MARKS.get(check["status"], ("?", MUTED))
        titles = in_languages(
            lambda check=check: check_title(check["code"], check["title"], check["status"])
        )
        title = " · ".join(dict.fromkeys(titles))
        rows.append(
            [
                check["code"],
                Paragraph(markup(title), styles["base"]),
                f"{mark} {both(RESULTS.get(check['status'], check['status']))}",
            ]
        )
        marks.append(("TEXTCOLOR", (2, index), (2, index), color))
    table = _table(rows, [26 * mm, 118 * mm, 36 * mm])
    table.setStyle(TableStyle(marks))
    ruleset = quote.evaluation["ruleset"]
    verdict = quote.evaluation["verdict"]
    verdict_text = both(VERDICTS.get(verdict, verdict))
    profile_text = f"{ruleset['profile']} v{ruleset['version']}"
    summary = f"{both(_('Verdict'))}: {verdict_text} · {both(_('Rule profile'))}: {profile_text}"
    return [
        Paragraph(markup(both(_("Checks"))), styles["h2"]),
        table,
        Paragraph(markup(summary), styles["small"]),
    ]


def balance_chart(balance: dict[str, object]) -> Drawing:
    """Draw the four balance dimensions as bars against the pass threshold."""
    width, bar_h, gap, label_w = 170 * mm, 11, 6, 48 * mm
    scale = (width - label_w - 20) / 100
    height = len(DIMENSIONS) * (bar_h + gap) + 16
    drawing = Drawing(width, height)
    threshold = float(balance["threshold"])
    for row, name in enumerate(DIMENSIONS):
        score = float(balance[name])
        y = height - 12 - (row + 1) * (bar_h + gap) + gap
        color = PASS if score >= threshold else FAIL
        drawing.add(String(0, y + 2, both(DIMENSION_LABELS[name]), fontName=font(), fontSize=8))
        drawing.add(
            Rect(
                label_w,
                y,
                100 * scale,
                bar_h,
                fillColor=colors.HexColor("#eef2f7"),
                strokeColor=None,
            )
        )
        drawing.add(Rect(label_w, y, score * scale, bar_h, fillColor=color, strokeColor=None))
        drawing.add(
            String(label_w + 100 * scale + 4, y + 2, f"{score:.0f}", fontName=font(), fontSize=8)
        )
    x = label_w + threshold * scale
    drawing.add(Line(x, 0, x, height - 8, strokeColor=INK, strokeDashArray=[2, 2]))
    drawing.add(
        String(
            x + 2,
            height - 8,
            f"{both(_('threshold'))} {threshold:.0f}",
            fontName=font(),
            fontSize=7,
            fillColor=MUTED,
        )
    )
    return drawing


def _split(total: int, sockets: int) -> list[int]:
    base, extra = divmod(total, sockets)
    return [base + (1 if index < extra else 0) for index in range(sockets)]


def numa_diagram(build: dict[str, object]) -> Drawing:
    """Draw each socket with the GPUs, NICs and DIMMs attached to it."""
    sockets = int(build["cpu_count"])
    gpus = list(build.get("gpus_per_socket") or _split(int(build["gpu_count"]), sockets))
    nics = _split(int(build.get("nics") or 0), sockets)
    dimms = _split(int(build.get("dimm_count") or 0), sockets)
    width, height = 170 * mm, 36 * mm
    box_w = (width - 12 * mm) / sockets
    drawing = Drawing(width, height)
    for socket in range(sockets):
        x0 = socket * (box_w + 12 * mm)
        drawing.add(Rect(x0, 0, box_w, height, fillColor=None, strokeColor=GRID))
        drawing.add(
            String(
                x0 + 4,
                height - 12,
                f"NUMA {socket} · CPU {socket} ({build['cpu']})",
                fontName=font(),
                fontSize=8,
            )
        )
        rows = (
            ("GPU", gpus[socket], colors.HexColor("#76b900")),
            ("NIC", nics[socket], colors.HexColor("#3182ce")),
            ("DIMM", dimms[socket], colors.HexColor("#805ad5")),
        )
        for row, (label, count, color) in enumerate(rows):
            y = height - 28 - row * 9 * mm
            drawing.add(String(x0 + 4, y + 3, f"{label} × {count}", fontName=font(), fontSize=8))
            cell = min(14.0, (box_w - 50) / max(count, 1) - 2)
            for index in range(count):
                drawing.add(
                    Rect(
                        x0 + 46 + index * (cell + 2), y, cell, 11, fillColor=color, strokeColor=None
                    )
                )
    if sockets == 2:
        mid_x = box_w
        drawing.add(
            Line(mid_x, height / 2, mid_x + 12 * mm, height / 2, strokeColor=INK, strokeWidth=2)
        )
        drawing.add(String(mid_x + 1, height / 2 + 3, "UPI/xGMI", fontName=font(), fontSize=6))
    return drawing


def both_lines(template, params: dict[str, object]) -> tuple[str, ...]:
    """Return a translatable sentence with its parameters, in each of the PDF's languages."""
    return in_languages(lambda: str(template) % params)


def _sized_for(quote: Quote, styles) -> list:
    """Say in each language what workload the build was sized for, and the build in short."""
    lines = in_languages(
        lambda: f"{_('Sized for')}: {quote.workload_summary} · {_('Build')}: {quote.build_summary}"
    )
    if quote.workload_details:  # the work and targets, in each language: labels from the fields
        lines += in_languages(
            lambda: "; ".join(f"{label}: {value}" for label, value in quote.workload_details)
        )
    return [Spacer(0, 2 * mm)] + [Paragraph(markup(line), styles["base"]) for line in lines]


def _node_count(quote: Quote, styles) -> list:
    """Say that the layout is one node's when the quote is for several identical nodes."""
    nodes = int(quote.build.get("nodes") or 1)
    if nodes == 1:
        return []
    template = _("Each of the %(nodes)s identical nodes is laid out as below.")
    return [
        Paragraph(markup(line), styles["base"]) for line in both_lines(template, {"nodes": nodes})
    ]


def _terms(quote: Quote, styles) -> list:
    ruleset = quote.evaluation["ruleset"]
    terms = [
        (
            _("Rental term: %(months)s months, billed monthly in CNY."),
            {"months": quote.term_months},
        ),
        (
            _("This quote is valid until %(date)s; prices and configuration are fixed as shown."),
            {"date": quote.valid_until.isoformat()},
        ),
        (
            _(
                "The configuration was checked against rule profile %(profile)s, version "
                "%(version)s."
            ),
            {"profile": ruleset["profile"], "version": ruleset["version"]},
        ),
    ]
    flow = [Paragraph(markup(both(_("Terms"))), styles["h2"])]
    for template, params in terms:
        for line in both_lines(template, params):
            flow.append(Paragraph(markup(line), styles["base"]))
    return flow


def quote_pdf(quote: Quote) -> bytes:
    """Render the quote as a bilingual A4 PDF and return its bytes."""
    styles = _styles()
    buffer = BytesIO()
    document = SimpleDocTemplate(
        buffer,
        pagesize=A4,
        leftMargin=15 * mm,
        rightMargin=15 * mm,
        topMargin=14 * mm,
        bottomMargin=14 * mm,
        title=f"{quote.number} {both(_('Quotation'))}",
        author=both(_("Balanced GPU node configurator")),
        subject=quote.customer_company or quote.customer_name,
        invariant=True,  # the same quote gives the same bytes
    )
    flow = (
        _header(quote, styles)
        + _sized_for(quote, styles)
        + _bom(quote, styles)
        + _checks(quote, styles)
    )
    # A heading never ends a page apart from its chart.
    flow += [
        KeepTogether(
            [
                Paragraph(markup(both(_("Balance score"))), styles["h2"]),
                balance_chart(quote.evaluation["balance"]),
            ]
        ),
        KeepTogether(
            [
                Paragraph(markup(both(_("NUMA layout"))), styles["h2"]),
                *_node_count(quote, styles),
                numa_diagram(quote.build),
            ]
        ),
    ]
    flow += _terms(quote, styles)
    document.build(flow)
    return buffer.getvalue()
