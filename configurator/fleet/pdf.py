"""Bilingual PDFs of the fleet pages: a probed node's balance report, the monthly report.

reportlab's platypus lays them out, with the quotes' CJK TrueType font (WenQuanYi Micro Hei,
embedded as a subset, `configurator.quotes.pdf.font`), so every reader sees the Chinese; every
label is written in English and Chinese.
"""

from __future__ import annotations

import io

from django.utils import translation
from reportlab.lib import colors
from reportlab.lib.pagesizes import A4
from reportlab.lib.styles import ParagraphStyle
from reportlab.lib.units import mm
from reportlab.platypus import Paragraph, SimpleDocTemplate, Spacer, Table, TableStyle
from reportlab.platypus.flowables import HRFlowable

from configurator.fleet.models import NodeProbe
from configurator.fleet.probe_report import finding_text
from configurator.quotes.pdf import font

FONT = font()
TITLE = ParagraphStyle("title", fontName=FONT, fontSize=16, leading=22, spaceAfter=6)
HEADING = ParagraphStyle("heading", fontName=FONT, fontSize=12, leading=17, spaceBefore=8)
BODY = ParagraphStyle("body", fontName=FONT, fontSize=9, leading=13, wordWrap="CJK")
BAD = ParagraphStyle("bad", parent=BODY, textColor=colors.HexColor("#b3261e"))


def _table(rows: list[list[object]], widths: list[float] | None = None) -> Table:
    cells = [[Paragraph(str(cell), BODY) for cell in row] for row in rows]
    table = Table(cells, colWidths=widths, repeatRows=1)
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


def _document(story: list, title: str) -> bytes:
    out = io.BytesIO()
    document = SimpleDocTemplate(
        out, pagesize=A4, title=title, leftMargin=16 * mm, rightMargin=16 * mm,
        topMargin=14 * mm, bottomMargin=14 * mm,
    )  # fmt: skip
    document.build(story)
    return out.getvalue()


def _both(finding: dict) -> str:
    texts = []
    for language in ("en", "zh-hans"):
        with translation.override(language):
            texts.append(finding_text(finding))
    return "<br/>".join(texts)


def probe_pdf(probe: NodeProbe) -> bytes:
    """Return a probed node's hardware balance report as a PDF, in English and Chinese."""
    balance = probe.balance or {}
    verdict = {"accept": "accept · 通过", "reject": "reject · 不通过"}.get(probe.verdict, "—")
    story = [
        Paragraph(f"Hardware balance report · 硬件均衡报告 — {probe}", TITLE),
        Paragraph(
            f"Probed · 探测时间 {probe.created_at:%Y-%m-%d %H:%M}; rules · 规则 "
            f"{probe.profile} v{probe.rule_version}",
            BODY,
        ),
        HRFlowable(width="100%", color=colors.HexColor("#dde2ea")),
        Paragraph("Verdict · 结论", HEADING),
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
        Paragraph("Build · 配置", HEADING),
    ]
    if probe.build:
        build = probe.build
        story.append(
            Paragraph(
                f"{build['cpu_count']} × {build['cpu']}, {build['gpu_count']} × {build['gpu']} "
                f"({'+'.join(map(str, build['gpus_per_socket']))}), {build['memory_gb']} GB, "
                f"ECC {'yes · 是' if build['memory_ecc'] else 'no · 否'}, "
                f"NVLink {'yes · 是' if build['nvlink'] else 'no · 否'}, {build['psu_watts']} W",
                BODY,
            )
        )
    else:
        story.append(
            Paragraph(
                "No rules verdict: a part is not in the catalog · 无规则结论：有部件不在目录中", BAD
            )
        )
    story.append(Paragraph("Hardware findings · 硬件发现", HEADING))
    rows = [["code · 代码", "finding · 发现"]]
    rows += [[f["code"], _both(f)] for f in probe.findings]
    story.append(_table(rows, [32 * mm, 146 * mm]) if probe.findings else Paragraph("—", BODY))
    return _document(story, f"Hardware balance report {probe}")


def monthly_pdf(months: list[dict[str, object]]) -> bytes:
    """Return the monthly node performance report as a PDF, in English and Chinese."""
    story = [
        Paragraph("Monthly node performance report · 月度节点性能报告", TITLE),
        _table(
            [
                [
                    "month · 月份",
                    "audits · 审计",
                    "nodes · 节点",
                    "rejected · 不通过",
                    "unbalanced · 不均衡",
                    "average balance · 平均均衡",
                    "probes · 探测",
                ]
            ]
            + [
                [
                    m["month"],
                    m["audits"],
                    m["nodes"],
                    f"{m['share_rejected']:.1%}",
                    f"{m['share_unbalanced']:.1%}",
                    m["average_balance"] or "—",
                    m["probes"],
                ]
                for m in months
            ]
        ),
    ]
    for month in months:
        if not month["codes"]:
            continue
        story.append(Paragraph(f"{month['month']} — failing checks · 未通过的检查", HEADING))
        story.append(
            _table(
                [["check · 检查", "nodes · 节点", "share · 占比"]]
                + [[code, count, f"{share:.1%}"] for code, count, share in month["codes"]]
            )
        )
        story.append(Spacer(1, 4 * mm))
    return _document(story, "Monthly node performance report")
