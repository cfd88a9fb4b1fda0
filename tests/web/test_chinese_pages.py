"""No identifier or untranslated word on a Chinese page (docs/glossary.md).

Every page of the README's table (`tests/pages.py`) is opened in Chinese by each role that
uses it; its visible text (text nodes, titles, placeholders, labels for screen readers; not
scripts, styles or the values of inputs) must hold no identifier: no snake_case word, no
`true`/`false`/`none`/`null`, no mode key, and no English word of the interface's own texts
that the catalogue translates everywhere it is used.
"""

from __future__ import annotations

import re
from html.parser import HTMLParser

import pytest
from django.test import Client

from tests.pages import ANONYMOUS, ARCHITECT, PRESALES, page_data, pages, readme_rows, walked_rows
from tests.test_glossary import ASCII_BESIDE_CHINESE
from tests.test_translations import LOCALE, entries

SNAKE_CASE = re.compile(r"\b[A-Za-z][A-Za-z0-9]*(?:_[A-Za-z0-9]+)+\b")
# Values a template prints when it shows a Python or JSON value as it is, and the workload
# modes' keys (`infer`, `train`, `finetune`): a page says them in words.
RAW_WORDS = re.compile(r"\b(?:true|false|none|null|infer|train|finetune)\b", re.IGNORECASE)
# Latin-script words the Chinese text writes as they are, each with its reason. Product,
# model and part names (NVIDIA H100 80GB SXM5, Qwen2.5-72B, PWS-2K04A-1R), units (GB, W, GHz,
# Gb/s), the industry's technical names and the people's names typed into a form are capitalised
# or carry digits and do not look like interface words; these are the lowercase ones.
ALLOWED = {
    "token": "the glossary's word for a token (docs/glossary.md)",
    "tokens": "as written inside a model's published name and the sentence reader's examples",
    "bf16": "a precision's name", "fp16": "a precision's name", "fp8": "a precision's name",
    "int8": "a precision's name", "int4": "a precision's name",
    "example": "the e-mail addresses of the test's customer (example.cn)",
    "wang": "the test customer's e-mail", "wei": "the test customer's e-mail",
    "presales": "the test account's user name", "architect": "the test account's user name",
}  # fmt: skip
# Programs named as an operator types them, in a finding or a step (the probe's commands).
PROGRAMS = {"all_reduce_perf": "the nccl-tests program probe.sh runs (docs/fleet.md)"}
LATIN_WORD = re.compile(r"(?<![\w.@/-])[a-z]{3,}(?![\w@/-])")
HIDDEN = ("script", "style", "template")
# What a reader types or a machine prints, set as code: a sheet's column headers, a command,
# a program's name. Shown as written in every language, so not checked for identifiers.
LITERAL = ("code", "kbd", "pre", "samp")


class VisibleText(HTMLParser):
    """Collect what a reader sees or hears of a page."""

    def __init__(self) -> None:
        super().__init__()
        self.hidden = 0
        self.texts: list[str] = []

    def handle_starttag(self, tag, attrs):
        if tag in HIDDEN or tag in LITERAL:
            self.hidden += 1
        self.texts += [
            v for k, v in attrs if k in ("title", "placeholder", "aria-label", "alt") and v
        ]

    def handle_endtag(self, tag):
        if tag in HIDDEN or tag in LITERAL:
            self.hidden -= 1

    def handle_data(self, data):
        if not self.hidden and data.strip():
            self.texts.append(data.strip())


def visible_text(html: str) -> list[str]:
    parser = VisibleText()
    parser.feed(html)
    return parser.texts


def interface_words() -> set[str]:
    """Return the lowercase English words of the interface's texts that no Chinese text
    keeps: on a Chinese page, any of them is a text left untranslated."""
    pairs = entries((LOCALE / "django.po").read_text(encoding="utf-8"))
    strip = re.compile(r"%\([a-z_0-9]+\)[sdr]")
    english = {w for msgid, _ in pairs for w in LATIN_WORD.findall(strip.sub(" ", msgid))}
    kept = {
        w.lower() for _, msgstr in pairs for w in re.findall(r"[A-Za-z]+", strip.sub(" ", msgstr))
    }
    return english - kept - set(ALLOWED)


def identifiers(texts: list[str], words: set[str]) -> set[str]:
    """Return the identifiers, untranslated words and ASCII punctuation touching Chinese
    (a colon typed in a template: "影响:") in a page's texts."""
    found = set()
    for text in texts:
        found |= set(SNAKE_CASE.findall(text)) - PROGRAMS.keys() | set(RAW_WORDS.findall(text))
        found |= {w for w in LATIN_WORD.findall(text) if w in words}
        found |= {m.group(0) for m in ASCII_BESIDE_CHINESE.finditer(text)}
    return found


@pytest.fixture
def walk(db, presales, architect):
    values = page_data(presales, architect)
    users = {PRESALES: presales, ARCHITECT: architect}

    def opened(page, role: str) -> str:
        client = Client(HTTP_ACCEPT_LANGUAGE="zh-hans")
        client.cookies["django_language"] = "zh-hans"
        if role != ANONYMOUS:
            client.force_login(users[role])
        for build in page.compare:
            client.post("/configure/compare/", {"build": build})
        response = client.get(page.url, follow=True)  # a short link redirects
        assert response.status_code == 200, (role, page.url, response.status_code)
        return response.content.decode()

    return values, opened


def test_every_page_of_the_readme_is_walked():
    assert set(readme_rows()) == walked_rows()


def test_the_check_finds_identifiers_and_untranslated_words():
    words = interface_words()
    assert {"baseline", "headroom"} <= words and "token" not in words
    texts = ["memory gb 768 · by_ratio_gb", "pcie_lanes", "true", "推理 infer", "余量 headroom",
             "影响: 8 卡"]  # fmt: skip
    found = {"by_ratio_gb", "pcie_lanes", "true", "infer", "headroom", "响:"}
    assert identifiers(texts, words) == found
    assert not identifiers(["8 × NVIDIA H100 80GB SXM5，4,400 W，上下文 2048 token"], words)
    # what is set as code is typed or printed as written; the words around it are checked
    html = "<p>列：<code>node_id</code>、<kbd>gpu_count</kbd> pcie_lanes</p>"
    assert identifiers(visible_text(html), words) == {"pcie_lanes"}


def test_no_chinese_page_shows_an_identifier_or_an_english_word(walk):
    values, opened = walk
    words = interface_words()
    found = {}
    for page in pages(values):
        for role in page.roles:
            shown = identifiers(visible_text(opened(page, role)), words)
            if shown:
                found[f"{role} {page.url[:80]}"] = sorted(shown)
    assert not found, "\n".join(f"{k}: {v}" for k, v in found.items())
