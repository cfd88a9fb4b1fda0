"""The monthly report and the PDF balance report."""

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from configurator.fleet import selectors
from tests.fleet.probe_archives import dual_socket_synthetic, tar_gz
from tests.fleet.sheets import GOOD, LEGACY, P3, csv_bytes

pytestmark = pytest.mark.django_db


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
