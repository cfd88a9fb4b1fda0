"""The monthly report and the PDF balance report."""

import io
import re
from decimal import Decimal

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse
from pypdf import PdfReader

from configurator.fleet import selectors
from tests.fleet.probe_archives import dual_socket_synthetic, h200_vm_files, tar_gz
from tests.fleet.sheets import GOOD, LEGACY, P3, csv_bytes

pytestmark = pytest.mark.django_db
CHINESE = re.compile("[\u4e00-\u9fff]")


def audit(client, rows):
    client.post(reverse("fleet:upload"), {"sheet": SimpleUploadedFile("f.csv", csv_bytes(rows))})


def test_month_counts_audits_nodes_and_pitfalls(architect_client):
    audit(architect_client, [GOOD, P3])
    audit(architect_client, [("x1", *LEGACY[1:]), ("x2", *P3[1:])])
    [month] = selectors.monthly_figures()
    assert (month["audits"], month["nodes"], month["rejected"]) == (2, 4, 3)
    assert month["share_rejected"] == 0.75
    codes = {code: count for code, count, _ in month["codes"]}
    assert codes["P3"] == 3 and codes["P1"] == 1


def test_monthly_page_and_pdf(architect_client):
    audit(architect_client, [GOOD, P3])
    html = architect_client.get(reverse("fleet:monthly")).content.decode()
    assert "<svg" in html and "P3" in html
    response = architect_client.get(reverse("fleet:monthly-pdf"))
    assert response["Content-Type"] == "application/pdf"
    assert response.content.startswith(b"%PDF")


def test_month_counts_quotes_created_issued_and_accepted(architect_client, architect, presales):
    from configurator.quotes import services
    from configurator.schemas import BuildIn
    from tests.quotes.conftest import CUSTOMER, GOOD_BUILD

    def quote():
        return services.quote_create(
            owner=presales,
            customer=services.Customer(**CUSTOMER),
            build=BuildIn.model_validate(GOOD_BUILD),
            workload=None,
            term_months=12,
            discount_pct=Decimal("0"),
        )

    issued = quote()
    quote()  # a draft: created, not issued
    services.quote_submit(quote=issued, user=presales)
    services.quote_approve(quote=issued, user=architect)
    services.quote_issue(quote=issued, user=presales)
    services.quote_accept(quote=issued, user=presales)
    [month] = selectors.monthly_figures()
    assert (month["quotes"], month["quotes_issued"], month["quotes_accepted"]) == (2, 1, 1)
    assert month["issued_monthly_cny"] == issued.monthly_price
    html = architect_client.get(reverse("fleet:monthly")).content.decode()
    assert "2 / 1 / 1" in html and f"{issued.monthly_price:,.2f}" in html
    text = "".join(
        page.extract_text()
        for page in PdfReader(
            io.BytesIO(architect_client.get(reverse("fleet:monthly-pdf")).content)
        ).pages
    )
    assert "2 / 1 / 1" in text and f"{issued.monthly_price:,.2f}" in text
    assert month["month"] in text.split()  # the month column wide enough: no "2026-1 1"


def test_monthly_report_is_for_architects(presales_client):
    assert presales_client.get(reverse("fleet:monthly")).status_code == 403


def test_probe_report_pdf(architect_client):
    archive = SimpleUploadedFile("p.tar.gz", tar_gz(dual_socket_synthetic(narrow=3)))
    response = architect_client.post(
        reverse("fleet:probe-upload"), {"archive": archive, "psu_watts": 5000}
    )
    pdf = architect_client.get(response["Location"] + "report.pdf")
    assert pdf["Content-Type"] == "application/pdf"
    assert pdf.content.startswith(b"%PDF") and b"WenQuanYiMicroHei" in pdf.content


def test_probe_pdf_holds_the_findings_in_both_languages(architect_client, monkeypatch):
    from configurator.fleet import pdf
    from configurator.fleet.models import NodeProbe

    archive = SimpleUploadedFile("p.tar.gz", tar_gz(dual_socket_synthetic(narrow=3)))
    architect_client.post(reverse("fleet:probe-upload"), {"archive": archive, "psu_watts": 5000})
    texts = []
    original = pdf.Paragraph
    monkeypatch.setattr(pdf, "Paragraph", lambda text, s: texts.append(text) or original(text, s))
    pdf.probe_pdf(NodeProbe.objects.get())
    joined = "\n".join(texts)
    assert "x8 of x16" in joined and "链路宽度为 x8" in joined
    assert "reject · 不通过" in joined


def paragraphs(monkeypatch, render) -> str:
    """Return the text of every Paragraph a PDF function draws."""
    from configurator.fleet import pdf

    texts = []
    original = pdf.Paragraph
    monkeypatch.setattr(pdf, "Paragraph", lambda text, s: texts.append(text) or original(text, s))
    render(pdf)
    return "\n".join(texts)


def test_the_fleet_pdfs_write_no_chinese_unless_chinese_is_a_pdf_language(
    architect_client, monkeypatch, settings, french
):
    from configurator.fleet.models import NodeProbe

    archive = SimpleUploadedFile("p.tar.gz", tar_gz(dual_socket_synthetic(narrow=3)))
    architect_client.post(reverse("fleet:probe-upload"), {"archive": archive, "psu_watts": 5000})
    audit(architect_client, [GOOD, P3])
    settings.PDF_LANGUAGES = ["en", french]
    probe = paragraphs(monkeypatch, lambda pdf: pdf.probe_pdf(NodeProbe.objects.get()))
    monthly = paragraphs(monkeypatch, lambda pdf: pdf.monthly_pdf(selectors.monthly_figures()))
    assert "Hardware balance report" in probe and "reject" in probe and "x8 of x16" in probe
    assert "System memory below the VRAM threshold" in monthly  # P3 by its title
    assert not CHINESE.search(probe + monthly), CHINESE.findall(probe + monthly)


def embedded_fonts(data: bytes) -> list[bool]:
    """Return, for each font of each page with a descriptor, whether the PDF embeds it."""
    embedded = []
    for page in PdfReader(io.BytesIO(data)).pages:
        for ref in page["/Resources"]["/Font"].values():
            font = ref.get_object()
            descendants = font.get("/DescendantFonts")
            descriptor = (descendants[0].get_object() if descendants else font).get(
                "/FontDescriptor"
            )
            if descriptor is not None:
                descriptor = descriptor.get_object()
                embedded.append(any(k in descriptor for k in ("/FontFile", "/FontFile2")))
    return embedded


def test_fleet_pdfs_embed_their_cjk_font(architect_client):
    audit(architect_client, [GOOD, P3])
    monthly = architect_client.get(reverse("fleet:monthly-pdf")).content
    assert embedded_fonts(monthly) and all(embedded_fonts(monthly))
    archive = SimpleUploadedFile("p.tar.gz", tar_gz(dual_socket_synthetic()))
    response = architect_client.post(
        reverse("fleet:probe-upload"), {"archive": archive, "psu_watts": 5000}
    )
    report = architect_client.get(response["Location"] + "report.pdf").content
    assert report.startswith(b"%PDF")
    assert embedded_fonts(report) and all(embedded_fonts(report))


def test_probe_pdf_gives_the_probe_time_as_the_page_does(architect_client):
    from django.utils import timezone

    from configurator.fleet.models import NodeProbe

    archive = SimpleUploadedFile("p.tar.gz", tar_gz(dual_socket_synthetic()))
    response = architect_client.post(
        reverse("fleet:probe-upload"), {"archive": archive, "psu_watts": 5000}
    )
    local = timezone.localtime(NodeProbe.objects.get().created_at).strftime("%Y-%m-%d %H:%M")
    assert local in architect_client.get(response["Location"]).content.decode()
    report = architect_client.get(response["Location"] + "report.pdf").content
    text = "".join(page.extract_text() for page in PdfReader(io.BytesIO(report)).pages)
    assert local in text


def lead(status):
    from configurator.quotes.models import Lead
    from tests.quotes.conftest import GOOD_BUILD

    return Lead.objects.create(
        name="Li Na", company="Example Co", email="li@example.cn", phone="+86 21 5555 0100",
        build=GOOD_BUILD, permalink="/configure/?cpu=xeon-gold-6530", monthly_price=1,
        verdict="accept", language="zh-hans", status=status,
    )  # fmt: skip


def test_month_counts_leads_and_their_conversion_into_quotes(architect_client):
    from configurator.quotes.models import Lead

    lead(Lead.Status.QUOTED)
    lead(Lead.Status.NEW)
    lead(Lead.Status.IN_PROGRESS)
    lead(Lead.Status.QUOTED)
    [month] = selectors.monthly_figures()
    assert (month["leads"], month["leads_quoted"], month["conversion"]) == (4, 2, 0.5)
    html = architect_client.get(reverse("fleet:monthly")).content.decode()
    assert '<td class="num">50%</td>' in html


def pdf_text(content: bytes) -> str:
    return " ".join(
        " ".join(page.extract_text().split()) for page in PdfReader(io.BytesIO(content)).pages
    )


def test_monthly_pdf_of_a_month_with_leads_shows_the_pages_figures(architect_client, presales):
    from configurator.fleet.monthly import COLUMNS, monthly_rows
    from configurator.quotes import services
    from configurator.quotes.models import Lead
    from configurator.schemas import BuildIn
    from tests.quotes.conftest import CUSTOMER, GOOD_BUILD

    audit(architect_client, [GOOD, P3])
    services.quote_create(
        owner=presales, customer=services.Customer(**CUSTOMER),
        build=BuildIn.model_validate(GOOD_BUILD), workload=None, term_months=12,
        discount_pct=Decimal("0"),
    )  # fmt: skip
    lead(Lead.Status.QUOTED)
    lead(Lead.Status.NEW)
    lead(Lead.Status.NEW)
    response = architect_client.get(reverse("fleet:monthly-pdf"))
    assert response.status_code == 200 and response.content.startswith(b"%PDF")
    html = architect_client.get(reverse("fleet:monthly")).content.decode()
    text = pdf_text(response.content)
    [row] = monthly_rows(selectors.monthly_figures())
    cells = dict(zip([str(column.label) for column in COLUMNS], [c.text for c in row], strict=True))
    assert (cells["Leads"], cells["Conversion"], cells["Audits"]) == ("3", "33%", "1")
    squeezed = text.replace(" ", "")
    for cell in row:
        assert cell.text in html and cell.text.replace(" ", "") in squeezed
    assert "Conversion转化率" in squeezed and "Leads销售线索" in squeezed  # labels in both


@pytest.mark.parametrize(
    ("files", "english", "chinese"),
    [
        (dual_socket_synthetic(narrow=3), "Narrow PCIe link", "PCIe 链路过窄"),
        (h200_vm_files(), "Output not collected", "输出未采集"),  # no lspci, dmidecode, nccl
    ],
)
def test_probe_page_and_pdf_name_findings_in_words_not_codes(
    architect_client, files, english, chinese
):
    from configurator.fleet.probe_report import FINDING_TITLE

    archive = SimpleUploadedFile("p.tar.gz", tar_gz(files))
    response = architect_client.post(
        reverse("fleet:probe-upload"), {"archive": archive, "psu_watts": 5000}
    )
    html = architect_client.get(response["Location"]).content.decode()
    architect_client.cookies["django_language"] = "zh-hans"
    html_zh = architect_client.get(response["Location"]).content.decode()
    pdf = architect_client.get(response["Location"] + "report.pdf").content
    text = " ".join(
        " ".join(page.extract_text().split()) for page in PdfReader(io.BytesIO(pdf)).pages
    )
    assert english in html and chinese in html_zh
    assert english in text and chinese.replace(" ", "") in text.replace(" ", "")
    for code in FINDING_TITLE:
        assert code not in html and code not in html_zh and code not in text
