"""No language is special: every text is a message id, shown in the request's language.

A page language is one `LANGUAGES` entry and its catalogue. These tests add one the project
has no catalogue for (French: every text falls back to its English id, and Django's own words
are in Latin script, so any Chinese left on a page is hard-coded) and one with a catalogue of
four entries (Japanese, `tests/conftest.py`), and read the pages and the API in them.
"""

import ast
import re
from pathlib import Path

import pytest
from django.conf import settings
from django.core.checks import Error
from django.urls import reverse

from configurator.checks import PDF_LANGUAGE_UNKNOWN, pdf_languages_check
from configurator.fleet.sheet import required_headers
from tests.api.test_messages import BUILD
from tests.conftest import JAPANESE
from tests.web.test_configure import LEGACY

CHINESE = re.compile("[\u4e00-\u9fff]")
SWITCH = re.compile(r'<button name="language" value="([^"]+)"[^>]*>([^<]+)</button>')
P1_TITLE = "Legacy PCIe 3.0 platform carrying several GPUs"
S2_NAME = "Mid-size distributed training"


def page(client, url: str) -> str:
    response = client.get(url)
    assert response.status_code == 200, response.content[:500]
    return response.content.decode()


def without_switch(html: str) -> str:
    """Return a page less its language switch, which names each language in its own script."""
    return re.sub(r'<form [^>]*class="inline lang">.*?</form>', "", html, flags=re.S)


@pytest.mark.django_db
def test_the_switch_lists_the_languages_each_in_its_own_name(client, settings):
    listed = SWITCH.findall(page(client, "/"))
    assert [code for code, _name in listed] == [code for code, _name in settings.LANGUAGES]
    assert ("en", "English") in listed and ("zh-hans", "简体中文") in listed
    settings.LANGUAGES = [*settings.LANGUAGES, ("fr", "French")]
    assert SWITCH.findall(page(client, "/"))[-1] == ("fr", "français")


# A language without a catalogue: English falls back, no Chinese appears. --------------------


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("url", "english"),
    [
        ("/", "Hardware catalog"),
        (f"/configure/?{LEGACY}", P1_TITLE),  # failing checks: titles, details, fixes, losses
        ("/configure/", S2_NAME),  # the recipe buttons
        ("/configure/?model_params_b=34&mode=train&batch_size=8&start=recommend", S2_NAME),
        ("/fleet/delivery/", S2_NAME),
        ("/fleet/probes/", "Node probe"),
        ("/fleet/report/", "Monthly node performance report"),
    ],
)
def test_no_page_writes_chinese_in_a_language_without_a_catalogue(
    architect_client, french, url, english
):
    architect_client.cookies["django_language"] = french
    html = without_switch(page(architect_client, url))
    assert english in html
    assert not CHINESE.search(html), CHINESE.findall(html)


@pytest.mark.django_db
def test_the_fleet_page_writes_no_chinese_but_the_cell_values_it_accepts(architect_client, french):
    architect_client.cookies["django_language"] = french
    html = without_switch(page(architect_client, reverse("fleet:upload")))
    assert "Fleet audit" in html
    # what a sheet may hold: the Chinese headers it accepts and the cells "是"/"否"
    headers = " ".join(other for _name, other in required_headers())
    assert set(CHINESE.findall(html)) == set(CHINESE.findall(headers)) | {"是", "否"}


@pytest.mark.django_db
def test_the_api_answers_english_in_a_language_without_a_catalogue(client, french):
    response = client.post(
        "/api/v1/evaluate", {"build": BUILD}, content_type="application/json",
        HTTP_ACCEPT_LANGUAGE=french,
    )  # fmt: skip
    checks = response.json()["checks"]
    assert all(check["title_translated"] == check["title"] for check in checks)
    # `title_zh` is the v1 field that holds the Chinese title by name; nothing else is Chinese.
    assert all(CHINESE.search(check.pop("title_zh")) for check in checks)
    assert not CHINESE.search(str(response.json()))


# A third language with a catalogue: its entries reach every surface. -------------------------


@pytest.mark.django_db
def test_a_third_language_reaches_check_titles_and_recipe_names_on_the_pages(client, japanese):
    client.cookies["django_language"] = japanese
    configured = page(client, f"/configure/?{LEGACY}")
    assert JAPANESE[P1_TITLE] in configured and P1_TITLE not in configured
    button = f'value="S2" class="secondary" title="{JAPANESE[S2_NAME]}"'
    assert button in page(client, "/configure/")
    assert ("ja", "日本語") in SWITCH.findall(configured)


@pytest.mark.django_db
def test_a_third_language_reaches_the_apis_titles_and_input_errors(client, japanese):
    answer = client.post(
        "/api/v1/evaluate", {"build": BUILD}, content_type="application/json",
        HTTP_ACCEPT_LANGUAGE=japanese,
    ).json()  # fmt: skip
    p1 = next(check for check in answer["checks"] if check["code"] == "P1")
    assert p1["title_translated"] == JAPANESE[P1_TITLE]
    assert p1["title"] == P1_TITLE and p1["title_message"]["message_id"] == P1_TITLE
    refused = client.post(
        "/api/v1/evaluate", {"build": {**BUILD, "cpu": "nope"}}, content_type="application/json",
        HTTP_ACCEPT_LANGUAGE=japanese,
    )  # fmt: skip
    assert refused.status_code == 400
    assert refused.json()["errors"]["build.cpu"] == ["不明な CPU 'nope' です。"]


# No template or module names a language; the PDFs' languages are page languages. ---------------

ROOT = Path(settings.BASE_DIR)
# Chinese a module may hold because it reads it: a fleet sheet's Chinese column headers and
# yes/no cells (api.md: "Chinese column headers may be accepted too"), a customer's request in
# one line (the words of each workload field, declared beside it, and the grammar's units,
# numerals and small words: docs/sentence.md), and prose in comments.
READS_CHINESE = {
    "configurator/fleet/sheet.py",
    "configurator/fleet/rows.py",
    "configurator/engine/build.py",
    "configurator/engine/sentence.py",
    "configurator/fleet/probe/lscpu_names.py",  # lscpu's own field names under zh_CN, zh_TW
}
# The constants that name a language, each for a reason it states.
NAMES_A_LANGUAGE = {
    "configurator/translation.py": 'SOURCE_LANGUAGE = "en"',  # the language ids are written in
    "configurator/api_shapes.py": 'TITLE_ZH_LANGUAGE = "zh-hans"',  # the API's v1 `title_zh`
}
LANGUAGE_CODES = {"en", "zh", "zh-hans", "zh_Hans", "zh-Hans", "zh-cn"}


def sources(*patterns: str) -> list[Path]:
    return [
        path
        for folder in ("configurator", "catalog", "templates")
        for pattern in patterns
        for path in sorted((ROOT / folder).rglob(pattern))
        if "migrations" not in path.parts and "settings" not in path.parts
    ]


def test_no_template_compares_the_language_or_holds_chinese():
    for path in sources("*.html"):
        text = path.read_text()
        assert not re.search(r"LANGUAGE_CODE\s*[!=]=|code\s*==\s*\"", text), path
        held = set(CHINESE.findall(text))
        assert not held or (path.name == "upload.html" and held == {"是", "否"}), path


def texts(source: str) -> list[str]:
    """Return the string constants of a module, its docstrings (prose) left out."""
    tree = ast.parse(source)
    documented = (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)
    docstrings = {
        id(node.body[0].value)
        for node in ast.walk(tree)
        if isinstance(node, documented) and node.body and isinstance(node.body[0], ast.Expr)
    }
    return [
        node.value
        for node in ast.walk(tree)
        if isinstance(node, ast.Constant) and isinstance(node.value, str)
        and id(node) not in docstrings
    ]  # fmt: skip


def test_no_module_names_a_language_or_writes_chinese():
    for path in sources("*.py"):
        name = str(path.relative_to(ROOT))
        source = path.read_text()
        named = [text for text in texts(source) if text in LANGUAGE_CODES]
        if named:
            assert NAMES_A_LANGUAGE.get(name) in source and len(named) == 1, (name, named)
        if name not in READS_CHINESE:
            assert not [text for text in texts(source) if CHINESE.search(text)], name


def test_every_pdf_language_must_be_a_page_language(settings):
    assert pdf_languages_check(None) == []
    settings.PDF_LANGUAGES = ["en", "xx"]  # no page language
    [error] = pdf_languages_check(None)
    assert isinstance(error, Error) and error.id == PDF_LANGUAGE_UNKNOWN and "'xx'" in error.msg
