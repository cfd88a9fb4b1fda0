"""The quote PDF: bilingual text readable back, the CJK font embedded, every glyph present."""

import io
import re

import pytest
from pypdf import PdfReader
from reportlab.pdfbase.ttfonts import TTFont

from configurator.quotes import pdf
from tests.conftest import JAPANESE
from tests.quotes.conftest import CUSTOMER, GOOD_BUILD

pytestmark = pytest.mark.django_db

CJK = re.compile(r"[\u3000-\u303f\u4e00-\u9fff\uff00-\uffef]")


def pdf_text(data: bytes) -> str:
    return "\n".join(page.extract_text() for page in PdfReader(io.BytesIO(data)).pages)


@pytest.fixture
def rendered(make_quote):
    quote = make_quote()
    return quote, pdf.quote_pdf(quote)


def test_the_pdf_names_the_quote_customer_and_prices_in_both_languages(rendered):
    quote, data = rendered
    text = pdf_text(data)
    assert data.startswith(b"%PDF")
    for expected in (
        quote.number,
        "Quotation",
        "报价单",
        "Bill of materials",
        "物料清单",
        "王伟 Wang Wei",
        "北京深度智能科技有限公司",
        quote.valid_until.isoformat(),
        f"¥{quote.monthly_price:,.2f}",
        f"¥{quote.term_price:,.2f}",
        "NUMA",
    ):
        assert expected in text, expected
    for line in quote.bom:
        assert line["sku"] in text


def test_the_term_total_names_its_months_in_both_languages(rendered):
    text = pdf_text(rendered[1])
    assert "Term total, 12 months" in text
    assert "租期总价（12 个月）" in text


def test_a_quote_for_several_nodes_says_the_layout_is_one_nodes(make_quote):
    text = pdf_text(pdf.quote_pdf(make_quote({**GOOD_BUILD, "nodes": 2}, workload=None)))
    assert "Each of the 2 identical nodes is laid out as below." in text
    assert "2 台相同节点" in text


def test_every_check_and_dimension_is_listed_with_its_result(rendered):
    quote, data = rendered
    text = pdf_text(data)
    codes = [check["code"] for check in quote.evaluation["checks"]]
    assert {f"P{n}" for n in range(1, 9)} <= set(codes)
    for code in codes:
        assert code in text
    assert text.count("✔") >= len([c for c in quote.evaluation["checks"] if c["status"] == "pass"])
    for label in ("CPU threads", "PCIe lanes", "Overall", "均衡评分"):
        assert label in text


def test_the_cjk_font_is_embedded_as_truetype(rendered):
    _, data = rendered
    reader = PdfReader(io.BytesIO(data))
    fonts = reader.pages[0]["/Resources"]["/Font"]
    embedded = []
    for ref in fonts.values():
        font = ref.get_object()
        descendants = font.get("/DescendantFonts")
        descriptor = (descendants[0].get_object() if descendants else font).get("/FontDescriptor")
        if descriptor is not None:
            descriptor = descriptor.get_object()
            embedded.append("/FontFile2" in descriptor)  # FontFile2: an embedded TrueType
    assert embedded and all(embedded)


def test_every_chinese_character_has_a_glyph_in_the_font(rendered):
    _, data = rendered
    characters = set(CJK.findall(pdf_text(data)))
    assert len(characters) > 30
    cmap = TTFont("check", str(pdf.FONT_FILE), subfontIndex=0).face.charToGlyph
    assert not [c for c in characters if ord(c) not in cmap or cmap[ord(c)] == 0]


def test_the_rendered_page_shows_the_chinese_title(rendered):
    pdfium = pytest.importorskip("pypdfium2", reason="pypdfium2 renders the page")
    _, data = rendered
    page = pdfium.PdfDocument(data)[0]
    image = page.render(scale=2).to_pil().convert("L")
    width, height = image.size
    # The title line "Quotation 报价单" sits in the top band; the glyphs put ink there.
    band = image.crop((0, 0, width, int(height * 0.08)))
    dark = sum(1 for value in band.get_flattened_data() if value < 128)
    assert dark > 500
    # The Chinese half of the title is not empty boxes: compare it with a box outline's ink.
    title = image.crop(
        (int(width * 0.20), int(height * 0.03), int(width * 0.40), int(height * 0.06))
    )
    inked_columns = sum(
        1
        for x in range(title.size[0])
        if any(title.getpixel((x, y)) < 128 for y in range(title.size[1]))
    )
    assert inked_columns > 20


# 8 × L20 for a 13B fine-tune: its checks table ends near the foot of the first page.
L20_BUILD = {
    "cpu": "xeon-gold-5318y",
    "cpu_count": 2,
    "gpu": "l20",
    "gpu_count": 8,
    "memory_gb": 512,
    "memory_ecc": True,
    "psu_watts": 4000,
    "platform": "smc-sys-420gp-tnr",
}
FINETUNE_13B = {"model_params_b": 13, "mode": "finetune", "batch_size": 4}


@pytest.mark.parametrize(
    "build, workload", [(None, None), (L20_BUILD, FINETUNE_13B)], ids=["a800", "l20"]
)
def test_a_section_heading_stays_on_the_page_of_its_chart(make_quote, build, workload):
    quote = make_quote(build, workload=workload) if build else make_quote()
    pages = [page.extract_text() for page in PdfReader(io.BytesIO(pdf.quote_pdf(quote))).pages]
    for heading, content in (("Balance score", "Overall"), ("NUMA layout", "NUMA 0")):
        page = next(text for text in pages if heading in text)
        assert content in page, heading


def test_the_pdf_names_the_workload_in_both_languages(make_quote):
    workload = {"model_params_b": 13, "mode": "finetune", "batch_size": 4}
    text = " ".join(pdf_text(pdf.quote_pdf(make_quote(workload=workload))).split())
    assert "Sized for: 13B full fine-tune, batch 4, bf16, context 2048 tokens" in text
    assert "13B全参数微调，批大小4，bf16，上下文2048token" in text.replace(" ", "")
    assert "8 × NVIDIA A800 80GB PCIe per node, 1 node" in text


def test_the_pdf_says_when_no_workload_was_given(make_quote):
    text = " ".join(pdf_text(pdf.quote_pdf(make_quote(workload=None))).split())
    assert "No workload: the build was not sized for one." in text


def test_the_pdf_is_written_in_the_languages_the_settings_name(settings, make_quote, japanese):
    settings.PDF_LANGUAGES = ["en", japanese]
    text = pdf_text(pdf.quote_pdf(make_quote()))
    assert "Quotation" in text and JAPANESE["Quotation"] in text and "报价单" not in text
    title = JAPANESE["PCIe generation fit for the node's GPUs"]  # a passed check's title
    assert title.replace(" ", "") in "".join(text.split())  # wrapped in its cell


def test_no_label_of_the_pdf_is_chinese_unless_chinese_is_a_pdf_language(
    settings, make_quote, french
):
    settings.PDF_LANGUAGES = ["en", french]
    text = pdf_text(pdf.quote_pdf(make_quote()))
    for written in (CUSTOMER["name"], CUSTOMER["company"]):  # the customer's own words
        text = text.replace(written, "")
    assert "Bill of materials" in text
    assert not CJK.search(text), CJK.findall(text)
