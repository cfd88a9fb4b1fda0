"""The quote as an XLSX workbook beside its PDF: quote, bill of materials and power report
sheets, formula-safe, for staff and for the customer's signed link; dates in the site's zone."""

import datetime
from decimal import Decimal
from io import BytesIO

import openpyxl
import pytest
from pypdf import PdfReader

from configurator.quotes import links
from configurator.quotes.models import Quote
from configurator.quotes.pdf import quote_pdf

pytestmark = pytest.mark.django_db

XLSX = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"


def workbook(response) -> openpyxl.Workbook:
    assert response.status_code == 200, response.content[:200]
    assert response["Content-Type"] == XLSX
    return openpyxl.load_workbook(BytesIO(response.content))


def rows(sheet) -> list[tuple]:
    return [row for row in sheet.iter_rows(values_only=True)]


def field(sheet, label: str):
    return next(row[1] for row in rows(sheet) if row and row[0] and row[0].startswith(label))


def test_staff_download_the_three_sheets(presales_client, make_quote):
    quote = make_quote()
    response = presales_client.get(f"/quotes/{quote.number}/xlsx/")
    book = workbook(response)
    assert response["Content-Disposition"] == f'attachment; filename="{quote.number}.xlsx"'
    assert book.sheetnames == [
        "Quote 报价单",
        "Bill of materials 物料清单",
        "Power report 功耗报告",
    ]
    summary, bom, _ = (book[name] for name in book.sheetnames)
    assert field(summary, "Quote number") == quote.number
    assert Decimal(str(field(summary, "Price per month"))) == quote.monthly_price
    assert field(summary, "Valid until").date() == quote.valid_until
    assert field(summary, "Sized for").startswith("34B training, batch 64")
    lines = rows(bom)[1:-1]
    assert len(lines) == len(quote.bom)
    assert [line[1] for line in lines] == [line["sku"] for line in quote.bom]
    assert sum(Decimal(str(line[6])) for line in lines) == quote.list_monthly_price
    assert bom["G2"].number_format == "#,##0.00"  # a number a spreadsheet sums, not text


def test_the_power_report_holds_the_power_checks_own_figures(presales_client, make_quote):
    quote = make_quote()
    power = workbook(presales_client.get(f"/quotes/{quote.number}/xlsx/"))["Power report 功耗报告"]
    p7 = next(c for c in quote.evaluation["checks"] if c["code"] == "P7")
    assert field(power, "P7 PSU rated power too low") == "pass 通过"
    assert field(power, "Load of the installed parts") == p7["numbers"]["load_w"]
    assert field(power, "Usable output the rules ask") == p7["numbers"]["required_w"]
    assert field(power, "Usable PSU output after redundancy") == quote.build["psu_watts"]
    gpus = next(row for row in rows(power) if row[0] == "GPU")
    assert gpus[2] == 8 and gpus[3] == 300  # eight A800 PCIe at their datasheet's 300 W
    psus = next(row for row in rows(power) if row[0] == "Power supplies 电源")
    assert psus[4] == 2200


def test_text_that_looks_like_a_formula_stays_text(presales_client, make_quote):
    quote = make_quote()
    Quote.objects.filter(pk=quote.pk).update(
        customer_name='=HYPERLINK("http://attacker.example/","Open")', customer_company="+1-2"
    )
    book = workbook(presales_client.get(f"/quotes/{quote.number}/xlsx/"))
    summary = book["Quote 报价单"]
    assert field(summary, "Customer") == """'=HYPERLINK("http://attacker.example/","Open")"""
    assert field(summary, "Company") == "'+1-2"
    for sheet in book.worksheets:
        for row in sheet.iter_rows():
            assert all(cell.data_type != "f" for cell in row)


def test_the_customer_downloads_it_through_the_signed_link(client, make_issued):
    quote = make_issued()
    url = f"/quotes/c/{links.customer_token(quote)}/"
    page = client.get(url).content.decode()
    assert 'href="?xlsx=1"' in page and 'href="?pdf=1"' in page
    book = workbook(client.get(url, {"xlsx": "1"}))
    assert field(book["Quote 报价单"], "Quote number") == quote.number
    assert client.get(url.replace(quote.number[-3:], "000"), {"xlsx": "1"}).status_code == 404


def test_only_who_reads_the_quote_downloads_it(client, make_quote, customer):
    quote = make_quote()
    assert client.get(f"/quotes/{quote.number}/xlsx/").status_code == 302  # sign in first
    client.force_login(customer)
    assert client.get(f"/quotes/{quote.number}/xlsx/").status_code == 403


def test_the_api_gives_the_workbook_too(presales_client, make_quote):
    quote = make_quote()
    answer = presales_client.get(f"/api/v1/quotes/{quote.number}").json()
    assert answer["xlsx_url"].endswith(f"/api/v1/quotes/{quote.number}.xlsx")
    book = workbook(presales_client.get(f"/api/v1/quotes/{quote.number}.xlsx"))
    assert len(book.sheetnames) == 3
    assert presales_client.get("/api/v1/quotes/Q-2026-999999.xlsx").status_code == 404


def test_the_issue_date_is_the_sites_day_not_utcs(make_issued, settings):
    """17:30 UTC is half past one the next morning in Shanghai: the PDF and the workbook say
    the Shanghai day (issue 20 found the PDF's date in UTC)."""
    assert settings.TIME_ZONE == "Asia/Shanghai"
    quote = make_issued()
    evening = datetime.datetime(2026, 12, 5, 17, 30, tzinfo=datetime.UTC)
    Quote.objects.filter(pk=quote.pk).update(issued_at=evening)
    quote.refresh_from_db()
    text = "".join(page.extract_text() for page in PdfReader(BytesIO(quote_pdf(quote))).pages)
    assert "2026-12-06" in text and "2026-12-05" not in text
    from configurator.quotes.spreadsheet import quote_rows

    issued = next(value for label, value in quote_rows(quote) if label.startswith("Issued"))
    assert issued == datetime.date(2026, 12, 6)
    settings.TIME_ZONE = "Europe/Berlin"
    assert next(v for label, v in quote_rows(quote) if label.startswith("Issued")) == (
        datetime.date(2026, 12, 5)
    )
